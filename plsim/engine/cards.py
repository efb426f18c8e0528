"""The card catalogue (RULES.md section 9) as data: 44 kinds, and 8 invaders.

How many cards of each kind the deck holds is a rule parameter (``rules.deck``, the manual's 88
by default); what each kind is lives here. A card in the game is identified by a string.
Generals are unique, so a general's card is its name; the other kinds have copies, so a copy is
"<kind>#<n>" (for example "Tax#3"). ``kind_of`` maps a card to its kind and ``CATALOGUE`` maps a
kind to its ``CardKind``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from enum import Enum, StrEnum
from types import MappingProxyType

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


GENERALS: tuple[tuple[str, int, int], ...] = (
    ("Joab", 2, 4), ("Samson", 2, 4), ("Joshua", 4, 3), ("David", 3, 3), ("Josiah", 3, 3),
    ("Abimelech", 2, 3), ("Hezekiah", 2, 3), ("Jephthah", 2, 3), ("Shamgar", 2, 3),
    ("Gideon", 3, 2), ("Jonathan", 3, 2), ("Solomon", 3, 2), ("Caleb", 2, 2), ("Ibzan", 2, 2),
    ("Jair", 2, 2), ("Othniel", 2, 2), ("Saul", 2, 2), ("Barak", 4, 1), ("Isaiah", 4, 1),
    ("Ehud", 3, 1), ("Samuel", 3, 1), ("Ahab", 2, 1), ("Elon", 2, 1), ("Tola", 2, 1),
)

_OUTSIDE_COMBAT = frozenset(set(Phase) - {Phase.COMBAT})

_KINDS: list[CardKind] = [CardKind(n, Category.GENERAL, m, s) for n, m, s in GENERALS]
_KINDS += [
    CardKind(SQUIRE, Category.ITEM),
    CardKind(CHARIOT, Category.ITEM),
    CardKind(PROPHET, Category.ITEM),
    CardKind(ARK, Category.ITEM),
    CardKind(SWORD, Category.ITEM),
    CardKind(ANOINTED, Category.ITEM),
    CardKind(BRIDE, Category.ITEM),
    CardKind(SECRET_PASSAGE, Category.ONE_USE, phases=frozenset({Phase.MOVEMENT})),
    CardKind(SIEGE_WEAPONS, Category.ONE_USE, in_battle=True),
    CardKind(BLESSING, Category.ONE_USE, phases=frozenset({Phase.DRAW, Phase.ACQUISITIONS})),
    CardKind(AMBUSH, Category.ONE_USE, in_battle=True),
    CardKind(TAX, Category.ONE_USE, phases=frozenset({Phase.DRAW})),
    CardKind(MERCENARIES, Category.ONE_USE, in_battle=True),
    CardKind(REVOLT, Category.ONE_USE, phases=frozenset({Phase.DRAW, Phase.MOVEMENT})),
    CardKind(ASSASSIN, Category.ONE_USE, phases=_OUTSIDE_COMBAT, in_battle=True),
    CardKind(JUSTICE, Category.ONE_USE, phases=_OUTSIDE_COMBAT),
    CardKind(FAMINE, Category.EVENT),
    CardKind(ABUNDANCE, Category.EVENT),
    CardKind(PLAGUE, Category.EVENT),
    CardKind(SANDSTORM, Category.EVENT),
]

CATALOGUE: MappingProxyType[str, CardKind] = MappingProxyType({k.name: k for k in _KINDS})

INVADERS: tuple[str, ...] = ("Jabin", "Sisera", "Og", "Sihon", "Balak", "Eglon", "Adoni-zedek", "Jobab")


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
    deck: list[str] = []
    for kind in _KINDS:
        count = deck_count(rules, kind.name)
        if kind.category is Category.GENERAL:
            deck.extend((kind.name,) * count)
        else:
            deck.extend(f"{kind.name}#{i}" for i in range(1, count + 1))
    return deck
