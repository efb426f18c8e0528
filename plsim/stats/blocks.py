"""Split a run's games into blocks of consecutive ids, for statistics that add up over games.

A count, a sum or a number of distinct games adds up over disjoint sets of games, so a statistic
of that kind can be computed one block at a time: its largest intermediate table is then a
block's, never the whole run's, and the report's memory stays flat however many games a run
played.
"""

from __future__ import annotations

import polars as pl

BLOCK_ROWS = 50_000  # rows of the split frame aggregated at once


def game_blocks(frame: pl.LazyFrame | pl.DataFrame, rows: int | None = None) -> list[tuple[int, int]]:
    """Inclusive ranges of game ids, each holding about ``rows`` (BLOCK_ROWS) rows of ``frame``."""
    rows = rows or BLOCK_ROWS
    span = frame.lazy().select(first=pl.col("game").min(), last=pl.col("game").max(), rows=pl.len()).collect()
    first, last, total = span.row(0)
    if not total:
        return []
    step = max(1, (last - first + 1) * rows // total)
    return [(start, min(last, start + step - 1)) for start in range(first, last + 1, step)]


def in_block(frame: pl.LazyFrame | pl.DataFrame, block: tuple[int, int]) -> pl.LazyFrame:
    """The rows of ``frame`` whose game lies in ``block``."""
    return frame.lazy().filter(pl.col("game").is_between(*block))
