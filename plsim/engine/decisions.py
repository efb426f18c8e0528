"""The engine's side of a decision: what is asked (``DecisionKind``, ``Decision``) and of whom
(``Player``, anything with a ``name`` and a ``choose`` method).

The engine asks a player only when there are at least two options, and counts those calls as the
game's decisions. docs/strategies.md describes each kind: when it is asked, its options and its
context; the comments below are the short form.
"""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, NamedTuple, Protocol

if TYPE_CHECKING:
    from plsim.engine.view import View

EventLog = Callable[[dict[str, Any]], None]  # where a game's events go, one dict each, in order
NO_CONTEXT: Mapping[str, Any] = MappingProxyType({})  # the context of a decision about nothing in particular


class DecisionKind(StrEnum):
    """Every point of the game where a player chooses. A ``str``, so ``kind == "vote"`` works."""

    HOME = "home"  # SU-2, setup: Choose(settlement id) of a free, far enough settlement
    PLACE_GENERAL = "place_general"  # DR-2: Choose(settlement id) with room; context: card
    ATTACH_ITEM = "attach_item"  # DR-2: Choose(general name) of one's free generals; context: card
    DISCARD = "discard"  # DR-2, over the hand limit: Choose(card id) of the hand
    CARDS = "cards"  # a phase's card window (AN-3, DR-4): PlayCard... or PASS; context: phase
    PURCHASE = "purchase"  # AQ-1, repeated until PASS: Buy, PlayCard or PASS
    MOVEMENT = "movement"  # RD-4, repeated until PASS: Move, TakeTroops, GiveTroops, MoveCaptive,
    #                        EndSiege, StartSiege, StartAssault, PlayCard or PASS
    SIEGE_OR_ASSAULT = "siege_or_assault"  # MV-12, on entering a hostile hex: SIEGE or ASSAULT;
    #                                        context: hex, general
    SIEGE_ASSAULT = "siege_assault"  # MV-12, Combat: a besieger's HOLD or ASSAULT; context: hex
    BATTLE_CARDS = "battle_cards"  # CB-2, repeated until PASS: PlayCard or PASS; context: hex
    CONQUER_OR_RAZE = "conquer_or_raze"  # CB-7: CONQUER or RAZE; context: settlement
    ASSIGN_TITLE = "assign_title"  # CB-7, a Judge's city conquered: Choose(eligible general); context: region
    APPOINT = "appoint"  # TI-6, a vacant Judge title: Choose(general name); context: region
    VOTE = "vote"  # TI-10, once per vote held: Choose(general name) of an eligible Judge
    SUCCESSOR = "successor"  # TI-13: Choose(general name) of the dead King's player's free generals
    PROPHET_TERRAIN = "prophet_terrain"  # AN-2: Choose("plain" | "mountain" | "desert"); context: event
    INVADER_TARGET = "invader_target"  # W-3: Choose(settlement id) of a player-owned settlement


class Decision(NamedTuple):
    """One decision point: ``kind`` names it, ``options`` are the legal answers (a tuple of
    options, ``plsim.engine.options``), ``context`` a read-only mapping of what it is about."""

    kind: DecisionKind
    seat: int
    options: tuple
    context: Mapping[str, Any] = MappingProxyType({})


class Player(Protocol):
    """What the engine needs of a seat's strategy (``plsim.strategy.Strategy`` is one). A player
    whose class sets ``asks_person = True`` is a person: a saved game's history is replayed
    without asking it again, and the batch commands refuse it."""

    name: str

    def choose(self, view: View, decision: Decision) -> Any: ...
