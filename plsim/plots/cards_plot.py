"""cards.png: the card kinds whose use goes with the largest win-rate differences."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

SHOWN = 16
GROUPS = (("used", "put to use (played, attached; events: drawn)", "tab:blue", "o"),
          ("held_not_used", "held, never used", "tab:orange", "s"),
          ("never_held", "never held", "0.45", "D"))


def plot_cards(table: pl.DataFrame, path: str | Path) -> Path:
    """The SHOWN card kinds with the largest |difference|, each group's win rate with its interval."""
    ranked = (table.filter(pl.col("difference").is_not_null())
              .with_columns(pl.col("difference").abs().alias("_size"))
              .sort("_size", descending=True).head(SHOWN).sort("difference"))
    fig = Figure(figsize=(9, 1.2 + 0.42 * max(ranked.height, 3)), dpi=110, layout="constrained")
    ax = fig.subplots()
    fig.suptitle("Win rate of seats by what they did with a card", fontsize=13, fontweight="bold")
    ax.set_title("associations, not causes: the card kinds with the largest differences (used minus never "
                 "held); 95% Wilson intervals", fontsize=8.5, color="0.35")
    labels = [f"{card} ({category.replace('_', '-')})" for card, category in ranked.select("card", "category").iter_rows()]
    for offset, (group, label, colour, marker) in zip((-0.22, 0.0, 0.22), GROUPS):
        for y, row in enumerate(ranked.iter_rows(named=True)):
            rate = row[f"{group}_win_rate"]
            if rate is None:
                continue
            ax.errorbar(rate, y + offset, xerr=[[rate - row[f"{group}_ci_low"]], [row[f"{group}_ci_high"] - rate]],
                        fmt=marker, color=colour, markersize=4.5, capsize=2, linewidth=1,
                        label=label)
    ax.set_yticks(range(ranked.height), labels, fontsize=8.5)
    ax.set_ylim(-0.6, ranked.height - 0.4)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("win rate of the seat (seat-games; draws count as not won)")
    ax.grid(axis="x", alpha=0.3)
    handles, names = ax.get_legend_handles_labels()
    unique = dict(zip(names, handles))
    fig.legend(unique.values(), unique.keys(), fontsize=8, loc="outside lower center", ncols=3)
    fig.savefig(path)
    return Path(path)
