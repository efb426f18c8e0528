"""The ladder's matchup matrix as a heatmap: the row tier's win rate alone against the column tier."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import polars as pl
from matplotlib.figure import Figure

from plsim.plots.matrix_plot import save_heatmap


def plot_ladder(matrix: pl.DataFrame, tiers: Sequence[str], trend: dict[str, Any], path: str | Path,
                columns: Sequence[str] | None = None) -> Path:
    """Heatmap of ``plsim.stats.ladder.matchup_matrix``: each cell its win rate, 95% interval and games;
    the colour scale is centred on the fair share. ``columns``: a fixed field's strategies (default:
    the tiers)."""
    tiers = list(tiers)
    columns = tiers if columns is None else list(columns)
    fair = float(matrix["fair_share"][0]) if matrix.height else 0.25
    size = max(4.5, 1.2 + 1.25 * len(tiers))
    width = max(4.5, 1.2 + 1.25 * len(columns))
    fig = Figure(figsize=(max(7.2, width + 1.6), size), dpi=110, layout="constrained")  # room for the titles
    ax = fig.subplots()
    against = "the column tier" if columns == tiers else "the field's strategy"
    fig.suptitle(f"Ladder: the row tier alone against {against}", fontsize=13, fontweight="bold")
    p = trend.get("p_value")
    trend_text = ("trend undefined" if p is None
                  else f"Cochran-Armitage trend z = {trend['z']:.2f}, one-sided p = {p:.3g}")
    ax.set_title(f"win rate of one seat of the row tier (fair share {fair:.0%}),\n"
                 f"its 95% Wilson interval and games\n{trend_text}", fontsize=8.5, color="0.35")
    grid = [[float("nan")] * len(columns) for _ in tiers]
    for row in matrix.iter_rows(named=True):
        if row["win_rate"] is not None:
            grid[row["row"]][row["column"]] = row["win_rate"]
    # square cells for tiers x tiers; against a narrow field the cells take the figure's width
    image = ax.imshow(grid, cmap="RdBu", vmin=0.0, vmax=min(1.0, 2 * fair) if fair < 0.5 else 1.0,
                      aspect="equal" if columns == tiers else "auto")
    for row in matrix.iter_rows(named=True):
        i, j = row["row"], row["column"]
        if row["win_rate"] is None:
            ax.text(j, i, "-", ha="center", va="center", color="0.5")
            continue
        colour = "white" if abs(row["win_rate"] - fair) > 0.6 * fair else "black"
        ax.text(j, i, f"{row['win_rate']:.0%}\n[{row['ci_low']:.0%}, {row['ci_high']:.0%}]\nn={row['games']:,}",
                ha="center", va="center", fontsize=8, color=colour)
    xlabel = "column tier (every other seat; lowest first)" if columns == tiers else "field (every other seat)"
    return save_heatmap(fig, ax, image, tiers, xlabel, "row tier (one seat)", "row tier's win rate", path, columns)


__all__ = ["plot_ladder"]
