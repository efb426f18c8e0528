"""What a report computed: the figures behind summary.csv, seats.csv, health.csv, the text and the page."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl


def _empty() -> pl.DataFrame:
    return pl.DataFrame()


@dataclass(frozen=True)
class Report:
    """What a report computed and wrote, for printing or further use in a notebook.

    ``games`` counts the played games (faults left out, see ``faults``); ``seats`` is per seat,
    ``seat_strategies`` per seat and strategy (seats.csv holds both); ``dominant`` is the
    strategy the ``dominance`` metric names.
    """

    out_dir: Path
    run_info: dict[str, Any]
    games: int
    players: float
    summary: pl.DataFrame
    seats: pl.DataFrame
    end_reasons: pl.DataFrame
    files: tuple[Path, ...]
    health: pl.DataFrame = field(default_factory=_empty)
    seat_strategies: pl.DataFrame = field(default_factory=_empty)
    faults: int = 0
    dominant: str | None = None
    cards: pl.DataFrame = field(default_factory=_empty)
    damaged: tuple[str, ...] = ()  # part files set aside as unreadable (rebuild_report)
