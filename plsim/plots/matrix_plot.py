"""The tournament's pairwise heatmap: how often the row strategy finished ahead of the column one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

import polars as pl
from matplotlib.figure import Figure


def short_label(name: str, width: int = 24) -> str:
    """A tick label: a plugin file's folder dropped (``/a/b/lazy.py:First`` -> ``lazy.py:First``),
    then broken after its commas into lines of at most ``width`` characters, so that entries which
    differ only in a late parameter (``mcts:…,margin=0.05``) keep apart; a piece longer than
    ``width`` is cut."""
    head, sep, rest = name.partition(".py:")
    if sep:
        name = Path(head + ".py").name + ":" + rest
    lines: list[str] = []
    for piece in re.findall(r"[^,]*,|[^,]+$", name):
        piece = piece if len(piece) <= width else piece[: width - 1] + "~"
        if lines and len(lines[-1]) + len(piece) <= width:
            lines[-1] += piece
        else:
            lines.append(piece)
    return "\n".join(lines)


def plot_matrix(pairs: pl.DataFrame, order: Sequence[str], path: str | Path) -> Path:
    """Heatmap of ``share`` from ``plsim.stats.compare.pairwise_table``; cells show share and meetings."""
    order = list(order)
    cells = {(a, b): (s, n) for a, b, s, n in pairs.select("a", "b", "share", "meetings").iter_rows()}
    size = max(4.5, 1.0 + 0.9 * len(order))
    fig = Figure(figsize=(size + 1.5, size), dpi=110, layout="constrained")
    ax = fig.subplots()
    fig.suptitle("Pairwise: row finished ahead of column", fontsize=13, fontweight="bold")
    ax.set_title("share of meetings (games where both sat) the row strategy finished ahead;\n"
                 "ahead = won, or more final VP when neither won; ties count half",
                 fontsize=8.5, color="0.35")
    grid = [[cells.get((a, b), (float("nan"), 0))[0] for b in order] for a in order]
    image = ax.imshow(grid, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if (a, b) not in cells:
                text = "-" if a != b else ""
                ax.text(j, i, text, ha="center", va="center", color="0.5")
                continue
            share, n = cells[(a, b)]
            colour = "white" if abs(share - 0.5) > 0.3 else "black"
            ax.text(j, i, f"{share:.0%}\nn={n:,}", ha="center", va="center", fontsize=8, color=colour)
    return save_heatmap(fig, ax, image, order, "column strategy", "row strategy", "share row ahead", path)


def save_heatmap(fig: Figure, ax: Any, image: Any, names: Sequence[str], xlabel: str, ylabel: str, bar_label: str,
                 path: str | Path, columns: Sequence[str] | None = None) -> Path:
    """A heatmap's ticks (``names`` on the rows, ``columns`` or the same names on the columns),
    axis labels and colour bar, saved as PNG."""
    columns = names if columns is None else columns
    ax.set_xticks(range(len(columns)), [short_label(n) for n in columns], rotation=30, ha="right")
    ax.set_yticks(range(len(names)), [short_label(n) for n in names])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.set_label(bar_label)
    path = Path(path)
    fig.savefig(path, format="png")
    return path


__all__ = ["plot_matrix", "save_heatmap", "short_label"]
