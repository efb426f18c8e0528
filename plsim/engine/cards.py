"""The card catalogue (RULES.md section 9) as the strategies read it: 44 kinds, and 8 invaders.

What each kind is lives in the core (``plsim._core``: name, category, moves, strength, the
phases that allow it, whether a battle does); this module builds the read-only ``CATALOGUE``
from it once. How many cards of each kind a deck holds is a rule parameter (``rules.deck``, the
manual's 88 by default). A card in the game is identified by a string: a general's card is its
name, any other card "<kind>#<n>" (for example "Tax#3"); ``kind_of`` maps a card to its kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import cache
from types import MappingProxyType

from plsim import _core
from plsim.engine.native import core_rules
from plsim.rules import Rules, deck_key


class Category(str, Enum):
    GENERAL = "general"
    ITEM = "item"
    ONE_USE = "one_use"
    EVENT = "event"


class Phase(str, Enum):
    ANNOUNCEMENTS = "announcements"
    DRAW = "draw"
    INCOME = "income"
    ACQUISITIONS = "acquisitions"
    MOVEMENT = "movement"
    COMBAT = "combat"
    VICTORY = "victory"


PHASE_ORDER = tuple(Phase)  # RD-2


class CardAction(StrEnum):
    """Everything the engine does to a card, as ``GameResult.card_events`` records it: one
    ``(round, seat, card kind, action)`` per thing; ``seat`` is the player whose card it is (or
    who drew or played it), -1 where no seat is involved. docs/rules.md (9.6) describes each."""

    DEALT = "dealt"  # SU-3: dealt to a seat at setup
    DRAWN = "drawn"  # DR-1, Blessing: drawn by a seat from the deck
    ATTACHED = "attached"  # DR-2: a general placed on the map, an item given to a general
    PLAYED = "played"  # a one-use card played and spent (Secret Passage on its move)
    RESOLVED = "resolved"  # AN-2: an event took effect, then went to the discard pile
    DISCARDED = "discarded"  # to the discard pile with no effect (hand limit, no room, items of the fallen...)
    SACRIFICED = "sacrificed"  # a Squire died instead of its general
    DIED = "died"  # a general killed; its card goes to the discard pile
    CAPTURED = "captured"  # a general taken captive, or handed to a new captor (seat: its owner)
    FREED = "freed"  # a captive general back with its owner
    RESHUFFLED = "reshuffled"  # DR-1: the discard pile shuffled into the empty deck (seat -1)
    RELEASED = "released"  # W-2: an invader let loose (seat -1)
    DEFEATED = "defeated"  # W-4: an invader beaten, back to the pool (seat -1)


# Item kinds
SQUIRE = "Squire"
CHARIOT = "War Chariot"
PROPHET = "Prophet"
ARK = "Ark"
SWORD = "Goliath's Sword"
ANOINTED = "Anointed"
BRIDE = "Bride"

# One-use kinds
SECRET_PASSAGE = "Secret Passage"
SIEGE_WEAPONS = "Siege Weapons"
BLESSING = "Blessing"
AMBUSH = "Ambush"
TAX = "Tax"
MERCENARIES = "Mercenaries"
REVOLT = "Revolt"
ASSASSIN = "Assassin"
JUSTICE = "Justice"

# Event kinds
FAMINE = "Famine"
ABUNDANCE = "Abundance"
PLAGUE = "Plague"
SANDSTORM = "Sandstorm"


@dataclass(frozen=True, slots=True)
class CardKind:
    name: str
    category: Category
    moves: int = 0  # generals only
    strength: int = 0  # generals only
    phases: frozenset[Phase] = frozenset()  # one-use cards: the phases whose window allows it
    in_battle: bool = False  # one-use cards playable inside a battle's card window


CATALOGUE: MappingProxyType[str, CardKind] = MappingProxyType({
    name: CardKind(name, Category(category), moves, strength, frozenset(Phase(p) for p in phases), in_battle)
    for name, category, moves, strength, phases, in_battle in _core.catalogue()
})

GENERALS: tuple[tuple[str, int, int], ...] = tuple(
    (k.name, k.moves, k.strength) for k in CATALOGUE.values() if k.category is Category.GENERAL
)

INVADERS: tuple[str, ...] = tuple(_core.invaders())


@cache  # card ids are few and asked for all the time: a lookup in C after the first
def kind_of(card: str) -> str:
    """The kind of a card id: "Tax#3" -> "Tax", "Joab" -> "Joab"."""
    hash_at = card.find("#")
    return card if hash_at < 0 else card[:hash_at]


def category_of(card: str) -> Category:
    return CATALOGUE[kind_of(card)].category


def deck_count(rules: Rules, kind: str) -> int:
    """How many cards of ``kind`` the rules' deck holds (``rules.deck``)."""
    return getattr(rules.deck, deck_key(kind))


def full_deck(rules: Rules) -> list[str]:
    """Every card id of the rules' deck, in catalogue order (the game shuffles it, SU-1): the
    manual's 88 by default."""
    return core_rules(rules).deck()
