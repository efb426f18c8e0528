"""A picture of a `Board`: terrain, settlements with their region rings and starting holders.

Map authors check their geography by eye, and players recognise the board; so the picture shows
exactly what the engine sees (terrain per hex, region per settlement, Canaanite at start) and
fades the settlements that do not exist for the chosen number of players (MP-3).
"""

from __future__ import annotations

from pathlib import Path

from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, RegularPolygon

from plsim.board import Board, Terrain, hex_centre

TERRAIN_STYLE = {
    Terrain.PLAIN: ("#d9e8a6", "plain (1 move)"),
    Terrain.MOUNTAIN: ("#9c8468", "mountain (2 moves)"),
    Terrain.DESERT: ("#ecd08c", "desert (2 moves)"),
    Terrain.WATER: ("#6fa8dc", "water (impassable)"),
}
UNREGIONED_COLOUR = "#bdbdbd"
CANAANITE_BADGE = "#222222"
FREE_BADGE = "#ffffff"
FADED_ALPHA = 0.35


def draw_board(
    board: Board, path: str | Path, n_players: int | None = None, title: str | None = None
) -> Path:
    """Draw the board to a PNG at `path`; with `n_players`, absent settlements are faded."""
    path = Path(path)
    fig = Figure(figsize=(13, 15), dpi=125)
    ax = fig.subplots()
    _draw_hexes(ax, board)
    _draw_settlements(ax, board, n_players)
    _draw_legend(ax, board)
    ax.set_title(title or _default_title(board, n_players), fontsize=15, pad=12)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, bbox_inches="tight", pad_inches=0.3)
    return path


def _default_title(board: Board, n_players: int | None) -> str:
    if n_players is None:
        return f"Map '{board.name}': {len(board.settlements)} settlements"
    present = len(board.settlements_for(n_players))
    return f"Map '{board.name}' for {n_players} players: {present} settlements"


def _draw_hexes(ax, board: Board) -> None:
    polygons = [
        RegularPolygon(hex_centre(col, row), numVertices=6, radius=1.0, orientation=0.0)
        for col, row in board.coords
    ]
    colours = [TERRAIN_STYLE[t][0] for t in board.terrain]
    hexes = PatchCollection(polygons, facecolors=colours, edgecolors="#ffffff", linewidths=0.6)
    ax.add_collection(hexes)
    xs, ys = zip(*(hex_centre(c, r) for c, r in board.coords))
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.2, max(ys) + 1.2)


def _draw_settlements(ax, board: Board, n_players: int | None) -> None:
    """Each settlement: a dashed ring in its region's colour (as on the game board) around a
    badge that is dark when the Canaanites hold it at the start, and its name below."""
    present = set(board.settlements_for(n_players)) if n_players is not None else None
    for spec in board.settlements:
        centre = hex_centre(*board.coords[spec.hex])
        alpha = 1.0 if present is None or spec.id in present else FADED_ALPHA
        ring = board.regions[spec.region].colour if spec.region else UNREGIONED_COLOUR
        badge = CANAANITE_BADGE if spec.canaanite else FREE_BADGE
        ax.add_patch(Circle(centre, 0.58, fill=False, edgecolor=ring, linewidth=4.0,
                            linestyle=(0, (2.2, 0.8)), alpha=alpha, zorder=3))
        ax.add_patch(Circle(centre, 0.3, facecolor=badge, edgecolor="#555555", linewidth=0.8,
                            alpha=alpha, zorder=4))
        label = spec.name if spec.min_players <= 2 else f"{spec.name} ({spec.min_players}+)"
        label_box = {"boxstyle": "round,pad=0.12", "facecolor": "white", "edgecolor": "none",
                     "alpha": 0.7 * alpha}
        ax.text(centre[0], centre[1] - 0.66, label, ha="center", va="top", fontsize=7.5,
                alpha=alpha, zorder=5, bbox=label_box)


def _draw_legend(ax, board: Board) -> None:
    handles = [Patch(facecolor=colour, edgecolor="#888888", label=label)
               for colour, label in TERRAIN_STYLE.values()]
    handles += [_ring_handle(region.colour, f"{name} ({len(region.settlements)})")
                for name, region in board.regions.items()]
    unregioned = sum(1 for s in board.settlements if s.region is None)
    handles.append(_ring_handle(UNREGIONED_COLOUR, f"no region ({unregioned})"))
    handles += [
        Line2D([], [], linestyle="none", marker="o", markersize=9, markerfacecolor=CANAANITE_BADGE,
               markeredgecolor="#555555", label="Canaanite at start"),
        Line2D([], [], linestyle="none", marker="o", markersize=9, markerfacecolor=FREE_BADGE,
               markeredgecolor="#555555", label="free at start"),
    ]
    ax.legend(
        handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=9, frameon=False
    )


def _ring_handle(colour: str, label: str) -> Line2D:
    return Line2D([], [], linestyle="none", marker="o", markersize=12, markerfacecolor="none",
                  markeredgecolor=colour, markeredgewidth=3.5, label=label)
