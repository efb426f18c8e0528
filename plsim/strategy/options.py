"""The options the engine offers at a decision point.

Options are small immutable tuples, so that a strategy can return the very object it was given
or build an equal one, and the engine checks it with ``in``. Each decision kind offers only some
of these; ``Decision.kind`` says which point of the game is asking.
"""

from __future__ import annotations

from typing import NamedTuple


class Pass(NamedTuple):
    """Do nothing more here: end a card window, a purchase list or a movement turn."""


class Choose(NamedTuple):
    """Pick one thing: a settlement id, a general's name, a terrain, a region, a seat."""

    value: object


class PlayCard(NamedTuple):
    """Play a one-use card from the hand; ``target`` and ``blame`` depend on the card."""

    card: str
    target: object = None
    blame: str | None = None


class Buy(NamedTuple):
    """Acquisitions: ``what`` is troop, wall, development, judge, tabernacle or guilt_sacrifice."""

    what: str
    settlement: int | None = None
    general: str | None = None


class Move(NamedTuple):
    """Movement: the general goes to ``dest`` by the cheapest route (MV-1)."""

    general: str
    dest: int
    passage: bool = False  # spend a Secret Passage on this move (MV-9)


class TakeTroops(NamedTuple):
    general: str
    count: int


class GiveTroops(NamedTuple):
    general: str
    count: int


class MoveCaptive(NamedTuple):
    general: str
    dest: int


class EndSiege(NamedTuple):
    hex: int


PASS = Pass()

SIEGE = Choose("siege")
ASSAULT = Choose("assault")
CONQUER = Choose("conquer")
RAZE = Choose("raze")
HOLD = Choose("hold")
