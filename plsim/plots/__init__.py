"""Matplotlib figures: the board map, win rates, seats, Wrath curves, game length, VP by round,
cards, the pairwise matrix and the ladder's matchup matrix, each written as a PNG."""

from plsim.plots.board_map import CANAANITE_BADGE, FREE_BADGE, TERRAIN_STYLE, UNREGIONED_COLOUR, draw_board
from plsim.plots.cards_plot import plot_cards
from plsim.plots.ladder_plot import plot_ladder
from plsim.plots.matrix_plot import plot_matrix
from plsim.plots.report_plots import plot_length, plot_seats, plot_vp, plot_winrates, plot_wrath

__all__ = [
    "CANAANITE_BADGE", "FREE_BADGE", "TERRAIN_STYLE", "UNREGIONED_COLOUR", "draw_board", "plot_cards", "plot_ladder",
    "plot_length", "plot_matrix", "plot_seats", "plot_vp", "plot_winrates", "plot_wrath",
]
