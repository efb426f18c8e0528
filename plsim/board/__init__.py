"""The map: `Board` (static hex grid with precomputed tables), its loader and validator."""

from plsim.board.hexgrid import (
    ENTER_COST,
    IMPASSABLE,
    NO_ROUTE,
    Board,
    RegionSpec,
    SettlementSpec,
    Terrain,
    hex_centre,
)
from plsim.board.loader import MapError, board_from_data, default_board, load_board
from plsim.board.playable import check_playable

__all__ = [
    "ENTER_COST",
    "IMPASSABLE",
    "NO_ROUTE",
    "Board",
    "MapError",
    "RegionSpec",
    "SettlementSpec",
    "Terrain",
    "board_from_data",
    "check_playable",
    "default_board",
    "hex_centre",
    "load_board",
]
