"""A scripted strategy's plan for one phase, and the basis it rests on.

A strategy makes its plan at its first decision of a phase and answers the phase's decisions
from it: what it worked out (region statuses, threats, targets), where its generals go, what it
buys, what its cards are worth. All of it is the plan's knowledge, worked out when first needed
and kept for the plan's life; there is no other cache.

A plan lives while its basis holds: the view's values as they stood when it was made, less the
seat's own working values in the phase, the ones the plan's own execution changes as planned
(in Acquisitions its coins and the garrisons it buys troops for; in Movement its generals'
steps and the troops they take or give). Anything else that changes (a settlement taken, a
battle lost, a card drawn or played, a rival's move, a new phase) ends the plan, and the next
decision that needs it makes a new one. The check compares values (the very same object is
equal without a look, nothing else is taken on trust), so a reused or look-alike object cannot
fool it, and no subclass has anything to declare.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable

from plsim.strategy import View

# the view's values a plan rests on, besides the settlements, generals and players compared
# field by field below. The others never change alone: a Tax or Revolt changes a hand's size
# (the players), an event's terrain and the Sandstorm the event area, the Prophets in play and
# a King's succession the generals, the discard, deck, invader pool and counts a hand, the
# event area, the pairs or the settlements, and the first player the round.
_REST = attrgetter("round", "phase", "wrath", "king", "regions", "hand", "sieges", "assaults", "event_area", "pairs")
_WORKING = {  # phase -> the fields of the seat's own records that the plan's execution changes
    "acquisitions": {"settlements": frozenset({"garrison"}), "players": frozenset({"coins"})},
    "movement": {
        "settlements": frozenset({"garrison"}),
        "generals": frozenset({"hex", "troops", "moved", "took", "gave", "passage"}),
    },
}


class Basis:
    """What a plan rests on: the view's values when it was made, less the seat's own working
    values in its phase (``_WORKING``)."""

    __slots__ = ("seat", "working", "rest", "settlements", "roster", "generals", "players")

    def __init__(self, view: View) -> None:
        self.seat = view.seat
        self.working = _WORKING.get(view.phase, {})
        self.rest = _REST(view)
        self.settlements = view.settlements
        self.roster = view.generals  # the mapping, only to skip comparing what is the very same
        self.generals = tuple(view.generals.values())
        self.players = view.players

    def holds(self, view: View) -> bool:
        """Whether the view shows what the plan rests on (the working values aside)."""
        working, rest, seat = self.working, self.rest, self.seat
        if view.round != rest[0] or view.phase != rest[1] or _REST(view) != rest:
            return False  # the cheapest first: most plans end with their phase
        settlements, roster, players, masked = view.settlements, view.generals, view.players, working.get
        return (
            (settlements is self.settlements
             or _alike(self.settlements, settlements, seat, "owner", masked("settlements")))
            and (roster is self.roster or _alike(self.generals, tuple(roster.values()), seat, "owner", masked("generals")))
            and (players is self.players or _alike(self.players, players, seat, "seat", masked("players")))
        )


def _alike(before: tuple, now: tuple, seat: int, whose: str, masked: frozenset[str] | None) -> bool:
    """Whether two tuples of records are equal, but for the ``masked`` fields of the seat's own
    records (``whose`` names the field that says whose a record is)."""
    if not masked:
        return before == now
    if len(before) != len(now):
        return False
    for a, b in zip(before, now):
        if a is not b and a != b and not (getattr(a, whose) == seat == getattr(b, whose)
                                          and _kept(a, masked) == _kept(b, masked)):
            return False
    return True


_GETTERS: dict[tuple[type, frozenset[str]], Callable[[Any], tuple]] = {}


def _kept(record: Any, masked: frozenset[str]) -> tuple:
    """The record's fields other than ``masked``, in order."""
    key = (type(record), masked)
    getter = _GETTERS.get(key)
    if getter is None:
        getter = _GETTERS[key] = attrgetter(*(f for f in record._fields if f not in masked))
    return getter(record)


class Plan:
    """One phase's plan: its basis and its knowledge (name -> what the strategy worked out, filled
    by ``ScriptedStrategy.known``)."""

    __slots__ = ("basis", "known")

    def __init__(self, view: View) -> None:
        self.basis = Basis(view)
        self.known: dict[Any, Any] = {}
