"""Matplotlib figures: the board map, win rates, seats, Wrath curves, game length, VP by round,
cards, the pairwise matrix and the ladder's matchup matrix, each written as a PNG."""

from plsim.lazy import lazy_exports

_EXPORTS = {
    "CANAANITE_BADGE": "board_map", "FREE_BADGE": "board_map", "TERRAIN_STYLE": "board_map",
    "UNREGIONED_COLOUR": "board_map", "draw_board": "board_map", "plot_cards": "cards_plot",
    "plot_ladder": "ladder_plot", "plot_length": "report_plots", "plot_matrix": "matrix_plot",
    "plot_seats": "report_plots", "plot_vp": "report_plots", "plot_winrates": "report_plots",
    "plot_wrath": "report_plots",
}

__all__ = [
    "CANAANITE_BADGE", "FREE_BADGE", "TERRAIN_STYLE", "UNREGIONED_COLOUR", "draw_board", "plot_cards", "plot_ladder",
    "plot_length", "plot_matrix", "plot_seats", "plot_vp", "plot_winrates", "plot_wrath",
]

__getattr__ = lazy_exports(__name__, _EXPORTS)
