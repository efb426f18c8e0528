"""card_effects.png: a forest plot, one row per card kind and one panel per metric.

Each point is a kind's paired effect (cell minus base) with its Bonferroni-adjusted interval (the
one card_effects.csv calls adj_low/adj_high); a filled marker passes Holm at 5%, a hollow one does
not. Win rates share a panel, one colour per strategy, nudged apart; a dashed line marks 0.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

PANELS = (
    ("win_rate", "win rate", True),
    ("seat_spread", "seat spread", True),
    ("rounds_mean", "mean rounds", False),
    ("invader_release_share", "games releasing invaders", True),
    ("pairs_released_mean", "invader pairs released per game", False),
)
NUDGE = 0.5  # the share of a kind's row over which the strategies' points sit side by side


def plot_card_effects(effects: pl.DataFrame, kinds: list[str], title: str, path: str | Path) -> Path:
    """Draw the forest plot of ``effects`` (card_effects.csv's rows), ``kinds`` top to bottom."""
    card_effects_figure(effects, kinds, title).savefig(path)
    return Path(path)


def card_effects_figure(effects: pl.DataFrame, kinds: list[str], title: str) -> Figure:
    panels = [p for p in PANELS if effects.filter(pl.col("metric") == p[0]).height]
    rows = {kind: len(kinds) - 1 - i for i, kind in enumerate(kinds)}
    fig = Figure(figsize=(3.4 * len(panels) + 1.6, 0.28 * len(kinds) + 1.9), dpi=100, layout="constrained")
    axes = fig.subplots(1, len(panels), squeeze=False, sharey=True)[0]
    fig.suptitle(title, fontsize=12, fontweight="bold")
    for ax, (metric, label, percent) in zip(axes, panels):
        part = effects.filter(pl.col("metric") == metric)
        strategies = sorted(s for s in part["strategy"].unique().to_list() if s is not None) or [None]
        for index, strategy in enumerate(strategies):
            shift = 0.0 if len(strategies) < 2 else NUDGE * (index / (len(strategies) - 1) - 0.5)
            series = part if strategy is None else part.filter(pl.col("strategy") == strategy)
            _points(ax, series, rows, shift, f"C{index % 10}", strategy)
        ax.axvline(0, color="0.3", linestyle=(0, (4, 3)), linewidth=0.8)
        ax.set_title(label, fontsize=9)
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.7, len(kinds) - 0.3)
        if percent:
            ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        if strategies != [None]:
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, frameon=False)
    axes[0].set_yticks(list(rows.values()), list(rows), fontsize=8)
    fig.supxlabel("cell minus base, with Bonferroni-adjusted intervals; filled: Holm p < 0.05", fontsize=8)
    return fig


def _points(ax, series: pl.DataFrame, rows: dict[str, int], shift: float, colour: str, label: str | None) -> None:
    series = series.filter(pl.col("difference").is_not_null() & pl.col("kind").is_in(list(rows)))
    if not series.height:
        return
    y = [rows[k] + shift for k in series["kind"]]
    x = series["difference"].to_list()
    low = [v - lo if lo is not None else 0.0 for v, lo in zip(x, series["adj_low"])]
    high = [hi - v if hi is not None else 0.0 for v, hi in zip(x, series["adj_high"])]
    ax.errorbar(x, y, xerr=[low, high], fmt="none", ecolor=colour, elinewidth=1, capsize=1.5)
    passed = [p is not None and p < 0.05 for p in series["p_holm"]]
    ax.scatter(x, y, s=18, marker="o", label=label, zorder=3,
               facecolors=[colour if p else "white" for p in passed], edgecolors=colour)
