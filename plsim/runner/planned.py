"""The games a resumed folder holds are its plan's: each game's seed and seats as run.json's plan
gives them (``Schedule.game``).

A resume rebuilds the plan from run.json and plays what the frames lack; if run.json and
games.parquet no longer belong together (one of them edited, copied from another run, or a key of
the plan damaged into another valid value), the games it plays would not be the games of the
run, and the frames would mix two runs without a word. ``check_planned`` refuses that in one
line before any game is played.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from plsim.runfolder import RUN_INFO_FILE, RunConfigError
from plsim.runner.cell import Schedule


def check_planned(out: Path, schedule: Schedule) -> None:
    """``RunConfigError`` naming the first game of ``out/games.parquet`` whose index, seed or
    seats are not what ``schedule`` (the plan of ``out``'s run.json) gives."""
    path = out / "games.parquet"
    if not path.exists():
        return
    games = pl.read_parquet(path, columns=["game", "seed", "strategies"]).sort("game")
    for game, seed, strategies in games.iter_rows():
        if not 0 <= game < schedule.games:
            raise RunConfigError(f"{path} holds game {game}, and the plan in {out / RUN_INFO_FILE} has games 0 to "
                                 f"{schedule.games - 1}: they are not one run's; refused rather than mixed")
        planned_seed, seats = schedule.game(game)
        if (seed, strategies) != (planned_seed, ",".join(seats)):
            raise RunConfigError(f"{path} holds game {game} with seed {seed} and seats {strategies}, and the plan in "
                                 f"{out / RUN_INFO_FILE} gives it seed {planned_seed} and seats {','.join(seats)}: "
                                 "they are not one run's; refused rather than mixed")
