"""sweep.png: how each outcome moves along the first axis, with 95% bands.

One row of panels per outcome (win rate per strategy, seat spread, mean rounds, invader release
share, victory share); the first axis runs along x: numbers on a number line, joined by lines
with their bands; anything else (a choice's names, true/false, lists, scenarios) as a categorical
axis of evenly spaced labels, each value a point with its interval and no line between values
that have no order. A second axis makes one column of panels per value; a third axis is drawn
with line styles (markers on a categorical axis). Every point has its band: Wilson for rates and
shares, t for mean rounds, bootstrap for the seat spread (see docs/metrics.md).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from plsim.sweep.axes import Axis, format_value

LINE_STYLES = ("-", "--", ":", "-.")
MARKERS = ("o", "s", "^", "D")
SPREAD = 0.3  # on a categorical axis, the share of a slot over which one panel's series sit side by side
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


def _points(ax, x, y, low, high, label, colour, marker, shift) -> None:
    """Values without an order: a point and its interval per value, nudged by ``shift`` so that
    the series of one panel stand side by side."""
    y = [math.nan if v is None else v for v in y]
    below = [0.0 if lo is None or math.isnan(v) else v - lo for v, lo in zip(y, low)]
    above = [0.0 if hi is None or math.isnan(v) else hi - v for v, hi in zip(y, high)]
    ax.errorbar([v + shift for v in x], y, yerr=[below, above], fmt=marker, markersize=4, color=colour,
                ecolor=colour, elinewidth=1, capsize=2, label=label)


def _shift(index: int, count: int) -> float:
    return 0.0 if count < 2 else SPREAD * (index / (count - 1) - 0.5)


def plot_sweep(sweep: pl.DataFrame, axes: Sequence[Axis], path: str | Path, players: Sequence[int] = ()) -> Path:
    """Draw sweep.png from the sweep table (one row per cell and strategy)."""
    sweep_figure(sweep, axes, players).savefig(path)
    return Path(path)


def sweep_figure(sweep: pl.DataFrame, axes: Sequence[Axis], players: Sequence[int] = ()) -> Figure:
    """The figure of sweep.png (module docstring)."""
    first = axes[0]
    facets: list[Any] = list(axes[1].values) if len(axes) > 1 else [None]
    styles: list[Any] = list(axes[2].values) if len(axes) > 2 else [None]
    positions, labels = _x(first)
    xs = dict(zip(labels, positions))
    categorical = not _numeric(first)
    strategies = sorted(sweep["strategy"].unique().to_list())
    colours = {s: f"C{i % 10}" for i, s in enumerate(strategies)}
    fig = Figure(figsize=(4.2 * len(facets) + 1.8, 2.6 * len(OUTCOMES) + 0.8), dpi=100, layout="constrained")
    grid = fig.subplots(len(OUTCOMES), len(facets), squeeze=False, sharex=True)
    spread = "intervals" if categorical else "bands"
    fig.suptitle(f"Sweep of {first.key}: outcomes with 95% {spread}", fontsize=13, fontweight="bold")
    for column, facet in enumerate(facets):
        in_facet = sweep if facet is None else sweep.filter(pl.col(axes[1].key) == _cell_value(facet))
        for row, (key, title, percent) in enumerate(OUTCOMES):
            ax = grid[row][column]
            drawn = 0
            count = len(styles) * (len(strategies) if key == "win_rate" else 1)
            for s, style_value in enumerate(styles):
                part = in_facet if style_value is None else in_facet.filter(pl.col(axes[2].key) == _cell_value(style_value))
                suffix = "" if style_value is None else f" ({axes[2].key}={format_value(style_value)})"
                if key == "win_rate":
                    series = [(part.filter(pl.col("strategy") == name), name + suffix, colours[name])
                              for name in strategies]
                else:
                    series = [(part.unique("cell", keep="first"), suffix.strip(" ()") or None, "C0")]
                for lines, label, colour in series:
                    if not lines.height:
                        continue
                    points = _series(lines, key, xs, first.key)
                    if categorical:
                        _points(ax, *points, label, colour, MARKERS[s % len(MARKERS)], _shift(drawn, count))
                    else:
                        _band(ax, *points, label, colour, LINE_STYLES[s % len(LINE_STYLES)])
                    drawn += 1
            heading = title if facet is None else f"{title}\n{axes[1].key} = {format_value(facet)}"
            ax.set_title(heading, fontsize=9)
            ax.grid(alpha=0.3)
            if percent:
                ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            if key == "win_rate" and players:
                for fair in sorted(set(players)):
                    ax.axhline(1 / fair, color="0.4", linestyle=(0, (4, 3)), linewidth=0.8)
            long_labels = categorical and max(len(label) for label in labels) > 8
            ax.set_xticks(positions, labels, rotation=30 if long_labels else 0, fontsize=8)
            if categorical:
                ax.set_xlim(positions[0] - 0.5, positions[-1] + 0.5)
            if row == len(OUTCOMES) - 1:
                ax.set_xlabel(first.key)
            if column == 0 and key == "win_rate" or (len(styles) > 1 and row == 1 and column == 0):
                ax.legend(fontsize=7, loc="best")
    return fig


def _cell_value(value: Any) -> Any:
    """A value as the sweep table stores it (lists and names as text)."""
    return value if isinstance(value, (bool, int, float)) else format_value(value)
