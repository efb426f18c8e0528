"""The sweep's tables, from its cells' run folders: one row per cell and strategy, per cell and seat,
per cell and health metric, and the paired effects of every cell against the baseline.

Every figure is read back from the cells' own frames, so ``plsim report DIR`` rebuilds the tables
of a sweep that was interrupted and resumed, and a cell's numbers here are exactly its own
report's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.stats import (
    SKILL_GAP, health_metrics, paired_health_differences, paired_skill_gap_row, played_games, seat_summary,
    skill_gap_row, strategy_summary,
)
from plsim.sweep.axes import Axis, format_value

SWEEP_FILES = {
    "sweep": "sweep.csv",
    "seats": "sweep_seats.csv",
    "health": "sweep_health.csv",
    "effects": "effects.csv",
}
# The health metrics sweep.csv carries beside each strategy's win rate (all are in sweep_health.csv).
WIDE_METRICS = (
    "victory_share", "round_limit_share", "rounds_mean", "rounds_median", "seat_spread", "seat_chi2_p",
    "invader_release_share", "pairs_released_mean", "first_judge_round_median", "first_king_round_median",
    "lead_changes_mean", "comeback_share", "dominance",
)


@dataclass(frozen=True)
class CellFrames:
    """One cell's axis values and its games (faults included; each table leaves them out)."""

    name: str
    values: tuple[Any, ...]
    games: pl.DataFrame
    rounds: pl.LazyFrame


def read_cell(folder: Path, name: str, values: Sequence[Any]) -> CellFrames:
    return CellFrames(name, tuple(values), pl.read_parquet(folder / "games.parquet"),
                      pl.scan_parquet(folder / "rounds.parquet"))


def axis_columns(axes: Sequence[Axis], values: Sequence[Any]) -> dict[str, Any]:
    """The axis values as columns: numbers and booleans as they are, lists and names as text."""
    return {axis.key: (v if isinstance(v, (bool, int, float)) else format_value(v)) for axis, v in zip(axes, values)}


def _with_cell(frame: pl.DataFrame, axes: Sequence[Axis], cell: CellFrames) -> pl.DataFrame:
    head = {"cell": cell.name, **axis_columns(axes, cell.values)}
    return frame.select(*(pl.lit(v).alias(k) for k, v in head.items()), pl.all())


def wide_health(health: pl.DataFrame, skill: bool = False) -> dict[str, float | None]:
    """The WIDE_METRICS (and skill_gap with ``skill``) of a health table as ``metric``,
    ``metric_low``, ``metric_high`` values."""
    rows = {row["metric"]: row for row in health.iter_rows(named=True)}
    out: dict[str, float | None] = {}
    for metric in (*WIDE_METRICS, SKILL_GAP) if skill else WIDE_METRICS:
        row = rows.get(metric, {})
        out[metric] = row.get("value")
        out[f"{metric}_low"] = row.get("ci_low")
        out[f"{metric}_high"] = row.get("ci_high")
    return out


def sweep_tables(axes: Sequence[Axis], cells: Sequence[CellFrames], baseline: int,
                 skill: bool = False) -> dict[str, pl.DataFrame]:
    """sweep, seats, health and effects tables (see the module docstring); with ``skill`` (a sweep
    of ladders, ``--tiers``) skill_gap joins the health metrics and the paired effects."""
    strategy_rows, seat_rows, health_rows, effect_rows = [], [], [], []
    base = cells[baseline]
    for cell in cells:
        played = played_games(cell.games).collect()
        health = health_metrics(played)
        if skill:
            health = pl.concat([health, skill_gap_row(played)])
        summary = strategy_summary(played, cell.rounds).select(
            pl.lit(played.height).alias("cell_games"), "strategy", "games", "wins", "win_rate", "ci_low", "ci_high",
            "fair_share")
        wide = pl.DataFrame([wide_health(health, skill)] * summary.height,
                            schema={k: pl.Float64 for k in wide_health(health, skill)})
        strategy_rows.append(_with_cell(pl.concat([summary, wide], how="horizontal"), axes, cell))
        seat_rows.append(_with_cell(seat_summary(played).drop("strategy"), axes, cell))
        health_rows.append(_with_cell(health, axes, cell))
        if cell is not base:
            effects = paired_health_differences(base.games, cell.games)
            if skill:
                effects = pl.concat([effects, paired_skill_gap_row(base.games, cell.games)], how="diagonal_relaxed")
            effect_rows.append(_with_cell(effects.select(pl.lit(base.name).alias("baseline"), pl.all()), axes, cell))
    tables = {
        "sweep": pl.concat(strategy_rows, how="diagonal_relaxed"),
        "seats": pl.concat(seat_rows, how="diagonal_relaxed"),
        "health": pl.concat(health_rows, how="diagonal_relaxed"),
    }
    tables["effects"] = pl.concat(effect_rows, how="diagonal_relaxed") if effect_rows else pl.DataFrame()
    return tables


def write_tables(out: Path, tables: dict[str, pl.DataFrame]) -> list[Path]:
    paths = []
    for key, name in SWEEP_FILES.items():
        tables[key].write_csv(out / name)
        paths.append(out / name)
    return paths
