"""The kinds of run, one per command: the library calls behind ``plsim run`` (``run_batch``),
``plsim tournament``, ``plsim compare``, ``plsim ladder`` and ``plsim run --resume``.

Each plays its cell through the runner and writes its own files on top of the run's report; its
result prints itself (``text`` for stdout, ``note`` for stderr), so a notebook and the command
line end alike:

    >>> from plsim.runs import run_compare
    >>> print(run_compare("warlord", "economist", games=100, workers=2).text())
"""

from plsim.lazy import lazy_exports

_EXPORTS = {
    "CompareResult": "compare", "FINISHERS": "resume", "KindResult": "result", "LADDER_FILES": "ladder",
    "LadderResult": "ladder", "TournamentResult": "tournament", "ladder_lineups": "ladder", "line_up": "batch",
    "options_of": "batch", "parse_tiers": "ladder", "resume_run": "resume", "run_batch": "batch",
    "run_compare": "compare", "run_ladder": "ladder", "run_tournament": "tournament", "split_entries": "batch",
    "tournament_lineups": "tournament", "write_compare_files": "compare", "write_ladder_files": "ladder",
    "write_tournament_files": "tournament",
}

__all__ = [
    "FINISHERS", "LADDER_FILES", "CompareResult", "KindResult", "LadderResult", "TournamentResult", "ladder_lineups",
    "line_up", "options_of", "parse_tiers", "resume_run", "run_batch", "run_compare", "run_ladder", "run_tournament",
    "split_entries", "tournament_lineups", "write_compare_files", "write_ladder_files", "write_tournament_files",
]

__getattr__ = lazy_exports(__name__, _EXPORTS)
