"""What a run hands back: its results, and the exceptions that end a run early.

Every exception raised after the first game started carries the results of every cell, with the
finished games kept and reported, so a caller never loses what was played. A result prints
itself (``text`` for stdout, ``note`` for stderr), so every command ends the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl

from plsim.report import Report, format_summary
from plsim.runfolder import FAULTS_FILE, Fault


@dataclass(frozen=True)
class RunResult:
    """What one run folder holds at the end: totals, run.json, the report and, read when first
    asked for, the games frame (a run of many games never holds it just to finish)."""

    out_dir: Path
    totals: dict[str, Any]
    run_info: dict[str, Any]
    report: Report | None = None
    status: str = "complete"  # complete | failed | interrupted
    left: int | None = None  # the games the run set out to play (0: a resume found them all played)

    @cached_property
    def games(self) -> pl.DataFrame:
        """The games frame (games.parquet), one row per game, faults included."""
        return pl.read_parquet(self.out_dir / "games.parquet")

    def rounds(self) -> pl.LazyFrame:
        """The per-round frame, lazily (it can be large)."""
        return pl.scan_parquet(self.out_dir / "rounds.parquet", glob=False)

    def totals_line(self) -> str:
        """The games and decisions played, the wall time, the time inside games and the workers; a
        resume that found every game played says so (its rate would divide by no time at all)."""
        t = self.totals
        if self.left == 0:
            return f"Nothing left to play: {self.out_dir} already holds its {t['games']:,} games"
        wall = t["wall_seconds"] or 1e-9
        workers = self.run_info.get("workers")
        on = f"on {workers} worker(s)" if workers else "on the cluster's workers"
        return (
            f"Played {t['games']:,} games, {t['decisions']:,} decisions in {t['wall_seconds']:.1f} s "
            f"({t['games'] / wall:,.1f} games/s; {t['seconds_in_games']:.1f} s inside games {on})"
        )

    def faults_note(self) -> str | None:
        """How many games were faults (left out of the win rates), and where they are listed."""
        faults = self.totals.get("faults", 0)
        if not faults:
            return None
        return (f"{faults:,} game(s) ended in a fault and are left out of the win rates; "
                f"see {self.out_dir / FAULTS_FILE}")

    def text(self) -> str:
        """What ``plsim run`` prints at the end: the summary, then the totals."""
        return f"{format_summary(self.report)}\n{self.totals_line()}"

    def note(self) -> str | None:
        """Nothing for stderr: the summary itself says how many games were faults."""
        return None


class RunStopped(RuntimeError):
    """A run that stopped before playing every game; ``results`` holds what was kept."""

    def __init__(self, message: str, results: list[RunResult]) -> None:
        self.results = results
        super().__init__(" ".join(message.split()))

    @property
    def result(self) -> RunResult:
        """The result of the (first) cell: the whole run unless it was a grid."""
        return self.results[0]


def kept(results: list[RunResult]) -> str:
    games = sum(r.totals["games"] for r in results)
    where = results[0].out_dir if len(results) == 1 else results[0].out_dir.parent.parent
    return f"kept {games:,} finished games in {where}"


class GameFailed(RunStopped):
    """A fault stopped the run (``on_fault="stop"``); the finished games were kept."""

    def __init__(self, fault: Fault, results: list[RunResult]) -> None:
        self.fault = fault
        super().__init__(f"{fault.describe()}; {kept(results)}; replay: {fault.replay}", results)

    @property
    def replay(self) -> str:
        return self.fault.replay

    @property
    def fault_folder(self) -> Path:
        """The folder of the cell the fault happened in (its faults.csv and faults.log)."""
        return next((r.out_dir for r in self.results if (r.run_info.get("cell") or "") == self.fault.cell),
                    self.result.out_dir)

    @property
    def is_strategy_error(self) -> bool:
        """Whether the fault is the strategy's doing rather than the engine's."""
        return self.fault.kind != "engine"


class NothingPlayed(RunStopped):
    """Every game ended in a fault (``on_fault="skip"``): the run holds no game to report, so it
    is no success, whatever its count of games done."""

    def __init__(self, fault: Fault | None, results: list[RunResult]) -> None:
        faults = sum(r.totals["faults"] for r in results)
        first = f"; the first: {fault.describe()}; replay: {fault.replay}" if fault is not None else ""
        where = results[0].out_dir if len(results) == 1 else results[0].out_dir.parent.parent
        super().__init__(f"no game was played: all {faults:,} ended in a fault (see faults.csv in {where}){first}",
                         results)


class RunInterrupted(RunStopped):
    """Ctrl-C or SIGTERM: the games finished so far were kept and reported."""

    def __init__(self, results: list[RunResult], how: str = "interrupted") -> None:
        self.how = how
        self.complete = all(r.status == "complete" for r in results)
        after = " after the last game, every game played" if self.complete else ""
        super().__init__(f"{how}{after}: {kept(results)}", results)


class PoolFailed(RunStopped):
    """The workers could not be kept running (they die at start-up, or no Dask worker is left)."""

    def __init__(self, reason: str, results: list[RunResult]) -> None:
        super().__init__(f"{reason}; {kept(results)}", results)
