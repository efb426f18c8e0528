"""The core's handles on a map and a rule set (``plsim._core``), each built once per object.

The core reads the map's tables as ``plsim.board`` built them and the rules as
``Rules.to_dict()``; ``plsim.rules`` stays the one declaration of every parameter.
"""

from __future__ import annotations

import json
from typing import Any

from plsim import _core
from plsim.board import Board
from plsim.rules import Rules

_BOARDS: dict[int, tuple[Board, Any]] = {}
_RULES: dict[int, tuple[Rules, Any]] = {}


def board_tables(board: Board) -> dict[str, Any]:
    """The map's tables as the core takes them, by the names of ``CoreBoard``'s arguments (the
    rules crate's own tests read them from a fixture: scripts/core_fixtures.py)."""
    regions = list(board.regions)
    return {
        "name": board.name,
        "width": board.width,
        "terrain": [int(t) for t in board.terrain],
        "enter_cost": list(board.enter_cost),
        "neighbours": [list(n) for n in board.neighbours],
        "settlement_at": list(board.settlement_at),
        "settlements": [(s.name, s.hex, regions.index(s.region) if s.region is not None else -1, s.canaanite,
                         s.min_players) for s in board.settlements],
        "regions": [(name, list(spec.settlements)) for name, spec in board.regions.items()],
        "ring": list(board.ring),
        "storm_sealed": list(board.storm_sealed),
    }


def core_board(board: Board) -> Any:
    """The core's copy of a map, built once per ``Board`` object."""
    kept = _BOARDS.get(id(board))
    if kept is None or kept[0] is not board:
        kept = _BOARDS[id(board)] = (board, _core.CoreBoard(**board_tables(board)))
    return kept[1]


def core_rules(rules: Rules) -> Any:
    """The core's copy of a rule set, built once per ``Rules`` object."""
    kept = _RULES.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _RULES[id(rules)] = (rules, _core.CoreRules(json.dumps(rules.to_dict())))
    return kept[1]
