"""Precision on demand: play a run in blocks until every strategy's win rate is known well enough.

``plsim run --until-ci 0.02`` plays games 0, 1, 2 … in blocks of ``BLOCK`` games and, each time a
whole block has finished, stops once every strategy's 95% Wilson interval has a half-width of at
most 0.02 — or when the run's ``--games`` are played. Blocks always start from game 0 and are
finished before the check, so the games played are exactly the first N games of a fixed run of
that seed: the rule chooses N and nothing else, and any later run of N games gives the same
frames. The rule looks only at the intervals' widths, never at a difference between strategies,
so it does not stop on a lucky streak for one of them.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterator, Sequence

import polars as pl

from plsim.runfolder import FAULT, GAMES_SCHEMA, RunConfigError
from plsim.runner.dispatch import WAIT
from plsim.runner.pool import Job
from plsim.stats import wilson_interval

BLOCK = 100  # games played between two checks of the intervals
WINNER_SEAT = list(GAMES_SCHEMA).index("winner_seat")
END_REASON = list(GAMES_SCHEMA).index("end_reason")


def check_until_ci(value: object) -> float:
    """A target half-width must be a number above 0 and below 0.5 (a win rate's scale)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RunConfigError(f"--until-ci must be a number between 0 and 0.5 (a half-width such as 0.02), got {value!r}")
    if not 0 < value < 0.5:
        raise RunConfigError(f"--until-ci must be between 0 and 0.5 (a half-width such as 0.02 for ±2 pp), got {value}")
    return float(value)


@dataclass
class PrecisionGate:
    """Counts each strategy's seat-games and wins as games finish and hands out the run's games
    block by block; ``stopped_by`` says what ended the run ("precision" or "games")."""

    target: float
    limit: int
    block: int = BLOCK
    seat_games: Counter = field(default_factory=Counter)
    wins: Counter = field(default_factory=Counter)
    outstanding: int = 0
    stopped_by: str | None = None

    def record(self, seats: Sequence[str], winner_seat: int | None, end_reason: str | None) -> None:
        """A game handed out by ``jobs`` has finished (a fault finishes it but adds no outcome)."""
        self.outstanding -= 1
        self._count(seats, winner_seat, end_reason)

    def _count(self, seats: Sequence[str], winner_seat: int | None, end_reason: str | None) -> None:
        if end_reason == FAULT:
            return
        for seat, strategy in enumerate(seats):
            self.seat_games[strategy] += 1
            if seat == winner_seat and end_reason != "draw":
                self.wins[strategy] += 1

    def record_row(self, seats: Sequence[str], games_row: Sequence[object]) -> None:
        self.record(seats, games_row[WINNER_SEAT], games_row[END_REASON])

    def add_finished(self, games: pl.DataFrame) -> None:
        """Count the games a resumed run already holds."""
        seat_cols = [c for c in games.columns if c.startswith("seat_")]
        for row in games.select(*seat_cols, "winner_seat", "end_reason").iter_rows():
            self._count([s for s in row[:-2] if s is not None], row[-2], row[-1])

    def half_widths(self) -> dict[str, float]:
        """Each strategy's 95% Wilson half-width so far."""
        widths = {}
        for strategy, n in self.seat_games.items():
            low, high = wilson_interval(self.wins[strategy], n)
            widths[strategy] = (high - low) / 2
        return widths

    def precise(self) -> bool:
        widths = self.half_widths()
        return bool(widths) and max(widths.values()) <= self.target

    def jobs(self, cell: int, done: set[int]) -> Iterator[Job | object]:
        """The cell's games block by block (those in ``done`` skipped); ``WAIT`` while a block
        is still being played; stops when the intervals are narrow enough after a whole block."""
        for start in range(0, self.limit, self.block):
            if start and self.precise():
                self.stopped_by = "precision"
                return
            for game in range(start, min(start + self.block, self.limit)):
                if game not in done:
                    self.outstanding += 1
                    yield Job(cell, game)
            while self.outstanding > 0:
                yield WAIT
        self.stopped_by = "precision" if self.precise() else "games"
