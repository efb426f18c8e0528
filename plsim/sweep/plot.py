"""sweep.png: how each outcome moves along the first axis, with 95% bands.

One row of panels per outcome (win rate per strategy, seat spread, mean rounds, invader release
share, victory share); the first axis runs along x (numbers on a number line, anything else as
evenly spaced labels); a second axis makes one column of panels per value; a third axis is drawn
with line styles. Every point has its band: Wilson for rates and shares, t for mean rounds,
bootstrap for the seat spread (see docs/metrics.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from plsim.sweep.axes import Axis, format_value

LINE_STYLES = ("-", "--", ":", "-.")
OUTCOMES = (
    ("win_rate", "win rate per strategy", True),
    ("seat_spread", "seat spread (highest minus lowest seat win rate)", True),
    ("rounds_mean", "mean rounds", False),
    ("invader_release_share", "games where the Wrath released invaders", True),
    ("victory_share", "games ending in a victory", True),
)


def _numeric(axis: Axis) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in axis.values)


def _x(axis: Axis) -> tuple[list[float], list[str]]:
    """Positions and tick labels of the first axis's values."""
    labels = [format_value(v) for v in axis.values]
    if _numeric(axis):
        return [float(v) for v in axis.values], labels
    return [float(i) for i in range(len(axis.values))], labels


def _series(frame: pl.DataFrame, key: str, xs: dict[str, float], x_key: str) -> tuple[list, list, list, list]:
    frame = frame.with_columns(pl.col(x_key).map_elements(lambda v: xs[format_value(v)], return_dtype=pl.Float64)
                               .alias("_x")).sort("_x")
    low, high = (f"{key}_low", f"{key}_high") if key != "win_rate" else ("ci_low", "ci_high")
    return frame["_x"].to_list(), frame[key].to_list(), frame[low].to_list(), frame[high].to_list()


def _band(ax, x, y, low, high, label, colour, style) -> None:
    ax.plot(x, y, style, marker="o", markersize=3.5, color=colour, label=label)
    if all(v is not None for v in low + high):
        ax.fill_between(x, low, high, color=colour, alpha=0.15, linewidth=0)


def plot_sweep(sweep: pl.DataFrame, axes: Sequence[Axis], path: str | Path, players: Sequence[int] = ()) -> Path:
    """Draw sweep.png from the sweep table (one row per cell and strategy)."""
    first = axes[0]
    facets: list[Any] = list(axes[1].values) if len(axes) > 1 else [None]
    styles: list[Any] = list(axes[2].values) if len(axes) > 2 else [None]
    positions, labels = _x(first)
    xs = dict(zip(labels, positions))
    strategies = sorted(sweep["strategy"].unique().to_list())
    colours = {s: f"C{i % 10}" for i, s in enumerate(strategies)}
    fig = Figure(figsize=(4.2 * len(facets) + 1.8, 2.6 * len(OUTCOMES) + 0.8), dpi=100, layout="constrained")
    grid = fig.subplots(len(OUTCOMES), len(facets), squeeze=False, sharex=True)
    fig.suptitle(f"Sweep of {first.key}: outcomes with 95% bands", fontsize=13, fontweight="bold")
    for column, facet in enumerate(facets):
        in_facet = sweep if facet is None else sweep.filter(pl.col(axes[1].key) == _cell_value(facet))
        for row, (key, title, percent) in enumerate(OUTCOMES):
            ax = grid[row][column]
            for s, style_value in enumerate(styles):
                part = in_facet if style_value is None else in_facet.filter(pl.col(axes[2].key) == _cell_value(style_value))
                style = LINE_STYLES[s % len(LINE_STYLES)]
                suffix = "" if style_value is None else f" ({axes[2].key}={format_value(style_value)})"
                if key == "win_rate":
                    for strategy in strategies:
                        lines = part.filter(pl.col("strategy") == strategy)
                        if lines.height:
                            _band(ax, *_series(lines, key, xs, first.key), strategy + suffix, colours[strategy], style)
                else:
                    per_cell = part.unique("cell", keep="first")
                    if per_cell.height:
                        _band(ax, *_series(per_cell, key, xs, first.key), suffix.strip(" ()") or None, "C0", style)
            heading = title if facet is None else f"{title}\n{axes[1].key} = {format_value(facet)}"
            ax.set_title(heading, fontsize=9)
            ax.grid(alpha=0.3)
            if percent:
                ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            if key == "win_rate" and players:
                for fair in sorted(set(players)):
                    ax.axhline(1 / fair, color="0.4", linestyle=(0, (4, 3)), linewidth=0.8)
            ax.set_xticks(positions, labels, rotation=30 if not _numeric(first) else 0, fontsize=8)
            if row == len(OUTCOMES) - 1:
                ax.set_xlabel(first.key)
            if column == 0 and key == "win_rate" or (len(styles) > 1 and row == 1 and column == 0):
                ax.legend(fontsize=7, loc="best")
    fig.savefig(path)
    return Path(path)


def _cell_value(value: Any) -> Any:
    """A value as the sweep table stores it (lists and names as text)."""
    return value if isinstance(value, (bool, int, float)) else format_value(value)
