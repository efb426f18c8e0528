"""The options the engine offers at a decision point.

Options are small frozen dataclasses, so that a strategy can return the very object it was
given or build an equal one, and the engine checks it with ``in``; two options of different
kinds never compare equal, even with the same fields (``StartSiege(5) != EndSiege(5)``). Each decision kind offers only some
of these; ``Decision.kind`` says which point of the game is asking.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pass:
    """Do nothing more here: end a card window, a purchase list or a movement turn."""


@dataclass(frozen=True, slots=True)
class Choose:
    """Pick one thing: a settlement id, a general's name, a terrain, a region, a seat."""

    value: object


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play a one-use card from the hand; ``target`` and ``blame`` depend on the card."""

    card: str
    target: object = None
    blame: str | None = None


@dataclass(frozen=True, slots=True)
class Buy:
    """Acquisitions: ``what`` is troop, wall, development, judge, tabernacle or guilt_sacrifice."""

    what: str
    settlement: int | None = None
    general: str | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Movement: the general goes to ``dest`` by the cheapest route (MV-1)."""

    general: str
    dest: int
    passage: bool = False  # spend a Secret Passage on this move (MV-9)


@dataclass(frozen=True, slots=True)
class TakeTroops:
    general: str
    count: int


@dataclass(frozen=True, slots=True)
class GiveTroops:
    general: str
    count: int


@dataclass(frozen=True, slots=True)
class MoveCaptive:
    general: str
    dest: int


@dataclass(frozen=True, slots=True)
class EndSiege:
    hex: int


@dataclass(frozen=True, slots=True)
class StartSiege:
    """MV-11: besiege the hostile hex where the seat's free generals already stand."""

    hex: int


@dataclass(frozen=True, slots=True)
class StartAssault:
    """MV-12: assault, in this round's Combat, the hostile hex where the seat's generals stand."""

    hex: int


PASS = Pass()

SIEGE = Choose("siege")
ASSAULT = Choose("assault")
CONQUER = Choose("conquer")
RAZE = Choose("raze")
HOLD = Choose("hold")
