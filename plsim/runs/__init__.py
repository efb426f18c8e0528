"""The kinds of run, one per command: the library calls behind ``plsim run`` (``run_batch``),
``plsim tournament``, ``plsim compare``, ``plsim ladder`` and ``plsim run --resume``.

Each plays its cell through the runner and writes its own files on top of the run's report; its
result prints itself (``text`` for stdout, ``note`` for stderr), so a notebook and the command
line end alike:

    >>> from plsim.runs import run_compare
    >>> print(run_compare("warlord", "economist", games=100, workers=2).text())
"""

from plsim.runs.batch import line_up, options_of, run_batch, split_entries
from plsim.runs.compare import CompareResult, run_compare, write_compare_files
from plsim.runs.ladder import LADDER_FILES, LadderResult, ladder_lineups, parse_tiers, run_ladder, write_ladder_files
from plsim.runs.result import KindResult
from plsim.runs.resume import FINISHERS, resume_run
from plsim.runs.tournament import TournamentResult, run_tournament, tournament_lineups, write_tournament_files

__all__ = [
    "FINISHERS", "LADDER_FILES", "CompareResult", "KindResult", "LadderResult", "TournamentResult", "ladder_lineups",
    "line_up", "options_of", "parse_tiers", "resume_run", "run_batch", "run_compare", "run_ladder", "run_tournament",
    "split_entries", "tournament_lineups", "write_compare_files", "write_ladder_files", "write_tournament_files",
]
