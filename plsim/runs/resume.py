"""Resume any kind of run: play the games its folder lacks, then write the kind's own files.

The runner rebuilds the plan from run.json and plays the rest (``plsim.runner.resume_cells``);
a tournament, a comparison or a ladder then writes its files again from all of its games, also
when the resume itself stopped early.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from plsim.runner import RunResult, RunStopped, resume_cells
from plsim.runs.compare import write_compare_files
from plsim.runs.ladder import write_ladder_files
from plsim.runs.tournament import write_tournament_files

# What each kind of run writes on top of the run's own report, from the RunResult alone.
FINISHERS: dict[str, Callable[[RunResult], Any]] = {
    "run": lambda run: run,
    "tournament": write_tournament_files,
    "compare": write_compare_files,
    "ladder": write_ladder_files,
}


def finish(run: RunResult) -> Any:
    return FINISHERS[run.run_info.get("kind", "run")](run)


def resume_run(folder: str | Path, games_per_lineup: int | None = None, **overrides: Any) -> list[Any]:
    """Play the games ``folder`` lacks; one result per cell, of the kind's own type (``RunResult``,
    ``TournamentResult``, ``CompareResult`` or ``LadderResult``). ``games_per_lineup`` and
    ``overrides`` are ``resume_cells``'."""
    try:
        results = resume_cells(folder, games_per_lineup, **overrides)
    except RunStopped as exc:
        for result in exc.results:
            finish(result)
        raise
    return [finish(result) for result in results]
