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


def core_board(board: Board) -> Any:
    """The core's copy of a map, built once per ``Board`` object."""
    kept = _BOARDS.get(id(board))
    if kept is None or kept[0] is not board:
        regions = list(board.regions)
        settlements = [(s.name, s.hex, regions.index(s.region) if s.region is not None else -1, s.canaanite, s.min_players)
                       for s in board.settlements]
        kept = _BOARDS[id(board)] = (board, _core.CoreBoard(
            board.name, board.width, [int(t) for t in board.terrain], list(board.enter_cost),
            [list(n) for n in board.neighbours], list(board.settlement_at), settlements,
            [(name, list(spec.settlements)) for name, spec in board.regions.items()], list(board.ring),
            list(board.storm_sealed)))
    return kept[1]


def core_rules(rules: Rules) -> Any:
    """The core's copy of a rule set, built once per ``Rules`` object."""
    kept = _RULES.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _RULES[id(rules)] = (rules, _core.CoreRules(json.dumps(rules.to_dict())))
    return kept[1]
