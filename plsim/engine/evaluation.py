"""The search strategies' position evaluation as they call it (strategies/evaluation.py says what
it weighs): the core's (``plsim._core``, core/agents/src/evaluation.rs), its one home.

A position's terms and values are read on the game as it stands, through the seat's ``View``
(``seat_features``, ``seat_worth``) or a ``Table`` (``seat_features``, ``position_value``), each
one crossing into the core; the two functions of plain numbers are here. Weights cross as
``WeightValues``: (vp, titles, income, coins, coin_cap, army, settlements, reach, threat, scale).
"""

from __future__ import annotations

from typing import Any

from plsim import _core

WeightValues = tuple[float, float, float, float, float, float, float, float, float, float]


def value_of_margin(margin: float, scale: float, players: int) -> float:
    """A seat's chance of winning read off its worth minus the best rival's: the logistic of
    ``margin / scale`` shifted so that a seat level with its best rival has 1 in ``players``
    (``1 / (1 + (players - 1) * exp(-margin / scale))``)."""
    return _core.value_of_margin(margin, scale, players)


def outcome_value(result: Any, seat: int) -> float:
    """A finished game (its ``GameResult``): 1 for a sole winner, 1/k for one of k tied winners,
    0 otherwise."""
    return _core.outcome_value(list(result.winners or ()), seat)
