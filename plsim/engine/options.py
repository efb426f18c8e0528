"""The options the engine offers at a decision point: small immutable typed values.

Every option is a tuple with named fields, so nothing can alter one once offered (not even
``object.__setattr__``: a tuple has no attribute to set). A strategy answers with the very
object it was given or builds an equal one (``Move("Joab", 57)``), and the engine applies its
own copy. Two options of different types never compare equal, even with the same fields
(``StartSiege(5) != EndSiege(5)``). Which options a decision offers is documented per
``DecisionKind`` in ``plsim.engine.decisions`` and in docs/strategies.md.
"""

from __future__ import annotations

from collections import namedtuple
from enum import StrEnum


class Option:
    """The base of every option: a tuple that equals only options of its own type."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    # equal options are equal tuples, so the tuple's own hash (in C) serves: options of different
    # types with the same fields share a hash but never compare equal
    __hash__ = tuple.__hash__


class Purchase(StrEnum):
    """What ``Buy`` buys (AQ-1); each costs the ``rules.costs`` parameter of the same name."""

    TROOP = "troop"
    WALL = "wall"
    DEVELOPMENT = "development"
    JUDGE_TITLE = "judge_title"
    TABERNACLE = "tabernacle"
    GUILT_SACRIFICE = "guilt_sacrifice"


class Pass(Option, namedtuple("Pass", ())):
    """Do nothing more here: end a card window, a purchase list or a movement turn."""

    __slots__ = ()


class Choose(Option, namedtuple("Choose", ("value",))):
    """Pick one thing: a settlement id, a general's name, a terrain, a region, a seat, None."""

    __slots__ = ()


class PlayCard(Option, namedtuple("PlayCard", ("card", "target", "blame"), defaults=(None, None))):
    """Play a one-use card from the hand; ``target`` and ``blame`` depend on the card."""

    __slots__ = ()


class Buy(Option, namedtuple("Buy", ("what", "settlement", "general"), defaults=(None, None))):
    """Acquisitions: ``what`` is a ``Purchase``; where (a settlement id) and, for a Judge
    title, the general who takes it."""

    __slots__ = ()


class Move(Option, namedtuple("Move", ("general", "dest", "passage"), defaults=(False,))):
    """Movement: the general goes to hex ``dest`` by the cheapest route (MV-1); ``passage``
    spends a Secret Passage on this move (MV-9)."""

    __slots__ = ()


class TakeTroops(Option, namedtuple("TakeTroops", ("general", "count"))):
    """MV-10: the general takes ``count`` troops from the garrison it stands in (uses its move)."""

    __slots__ = ()


class GiveTroops(Option, namedtuple("GiveTroops", ("general", "count"))):
    """MV-10: the general gives ``count`` troops back to the garrison it stands in (free)."""

    __slots__ = ()


class MoveCaptive(Option, namedtuple("MoveCaptive", ("general", "dest"))):
    """MV-8: move a captive the seat holds to hex ``dest``."""

    __slots__ = ()


class EndSiege(Option, namedtuple("EndSiege", ("hex",))):
    """MV-11: the besieger ends its siege of ``hex``."""

    __slots__ = ()


class StartSiege(Option, namedtuple("StartSiege", ("hex",))):
    """MV-11: besiege the hostile hex where the seat's free generals already stand."""

    __slots__ = ()


class StartAssault(Option, namedtuple("StartAssault", ("hex",))):
    """MV-12: assault, in this round's Combat, the hostile hex where the seat's generals stand."""

    __slots__ = ()


PASS = Pass()

SIEGE = Choose("siege")
ASSAULT = Choose("assault")
CONQUER = Choose("conquer")
RAZE = Choose("raze")
HOLD = Choose("hold")

OPTION_TYPES = (Pass, Choose, PlayCard, Buy, Move, TakeTroops, GiveTroops, MoveCaptive, EndSiege, StartSiege,
                StartAssault)
