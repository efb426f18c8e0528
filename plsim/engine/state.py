"""A game's state as Python data: what a saved position holds, read back from the core.

The core owns the live state; ``Table.state`` hands out a snapshot of it in these dataclasses
(``state_from_dict`` of ``plsim.engine.position``), which narration, the replay and the tests
read, and which a test or a hand-edited position builds and loads into a table. Changing a
snapshot changes no game. ``hex_generals`` indexes the generals by hex, each hex's list sorted by
name, its hexes in the order the game occupied them; ``place``/``remove``/``reindex`` keep it.
``pending`` and ``battle`` stay in their saved JSON form: only the core reads them.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, NamedTuple, Sequence

from plsim.engine.cards import Phase

CANAANITES = -1  # the owner id of the neutral Canaanite tribe
INVADER_SIDE = -2  # the seat id of an invader pair in a battle
NO_TERRAIN_MODS = (0, 0, 0, 0)


class Scalars(NamedTuple):
    """The state's single values as the core hands them over in one crossing (``scalars()``),
    by name."""

    round: int
    phase: str
    first_player: int
    wrath: int
    king: str | None
    succession_pending: int | None
    storm: bool
    pairs_released: int
    settlements_razed: int
    deck_size: int
    players: int


def by_name(general: "GeneralState") -> str:
    """The sort key that orders generals by name (hex lists, option lists)."""
    return general.name


class TitleKind(StrEnum):
    JUDGE = "judge"  # TI-1: one per region, its Judge's city
    KING = "king"  # TI-7
    ASSASSIN = "assassin"  # the Assassin card's blame


class Title(NamedTuple):
    """A general's title (TI-3: at most one): a region's Judge, the King, or the Assassin."""

    kind: TitleKind
    region: str | None = None  # the Judge's region

    @property
    def is_judge(self) -> bool:
        return self.kind is TitleKind.JUDGE

    def __str__(self) -> str:
        """The saved form: ``judge:<region>``, ``king`` or ``assassin``."""
        return f"{self.kind}:{self.region}" if self.region is not None else str(self.kind)

    @classmethod
    def parse(cls, text: str) -> "Title":
        """The title a saved form names (``str(title)``); ValueError for anything else."""
        kind, _, region = text.partition(":")
        title = cls(TitleKind(kind), region or None)
        if title.is_judge != (title.region is not None):
            raise ValueError(f"malformed title {text!r}")
        return title


def judge_title(region: str) -> Title:
    return Title(TitleKind.JUDGE, region)


KING = Title(TitleKind.KING)
ASSASSIN_TITLE = Title(TitleKind.ASSASSIN)


@dataclass(slots=True, eq=False)
class GeneralState:
    """A general on the map; compared by identity, as each card is unique."""

    name: str
    owner: int
    hex: int
    troops: int = 0
    items: tuple[str, ...] = ()  # attached item cards, oldest first
    title: Title | None = None  # TI-3: at most one
    captor: int | None = None  # the seat holding it captive, or None when free
    moved: bool = False  # its one move this round is used (MV-1, MV-10)
    took: bool = False  # took troops this round, which spent its move (MV-10)
    passage: bool = False  # entered its hex this round with Secret Passage (ST-4)


@dataclass(slots=True)
class SettlementState:
    id: int
    hex: int
    exists: bool  # MP-3: present in a game of this player count
    owner: int | None = None  # a seat, CANAANITES, or None when free
    garrison: int = 0
    wall: bool = False
    city: bool = False
    developments: int = 0
    razed: bool = False
    tabernacle: bool = False

    @property
    def standing(self) -> bool:
        """It exists in this game and was not razed."""
        return self.exists and not self.razed


@dataclass(slots=True)
class Siege:
    besieger: int
    started: int  # the round the siege began (ST-4, ST-8 melt from here)


@dataclass(slots=True)
class RegionState:
    name: str
    city: int | None = None  # the Judge's city, once a title was bought (TI-1)
    holder: str | None = None  # the general holding the title; None while vacant
    lapsed: bool = False  # the city has no owner: no title until someone owns it (TI-5)
    vacant_since: int | None = None  # the round the title last fell vacant (TI-6: filled in a later round)


@dataclass(slots=True)
class InvaderPair:
    names: list[str]  # its invaders still alive (W-6: one may die by a card, and the other fights on)
    troops: list[int]
    at: int | None = None  # the settlement it last attacked (its place on the ring; W-6: where it stands)
    target: int | None = None  # a new pair's first target (W-3)
    id: int | None = None  # its place in the order of releases (the core numbers a pair given without one)


@dataclass(slots=True)
class PlayerState:
    seat: int
    coins: int
    hand: list[str] = field(default_factory=list)
    home: int | None = None
    income: int = 0  # collected in this round's Income phase


@dataclass(slots=True)
class GameState:
    players: list[PlayerState]
    settlements: list[SettlementState]
    regions: dict[str, RegionState]
    deck: list[str]
    generals: dict[str, GeneralState] = field(default_factory=dict)
    discard: list[str] = field(default_factory=list)
    event_area: list[str] = field(default_factory=list)
    round: int = 0
    phase: Phase = Phase.ANNOUNCEMENTS
    first_player: int = 0
    wrath: int = 0
    pairs: list[InvaderPair] = field(default_factory=list)
    invader_pool: list[str] = field(default_factory=list)
    sieges: dict[int, Siege] = field(default_factory=dict)  # hex -> siege
    assaults: dict[int, int] = field(default_factory=dict)  # hex -> attacking seat, this round
    king: str | None = None
    succession_pending: int | None = None  # seat choosing a successor (TI-13)
    succession_since: int | None = None  # the round the King died (TI-13: the choice comes in a later round)
    prophets: list[str] = field(default_factory=list)  # Prophet cards in play, oldest first
    taxed: dict[str, int] = field(default_factory=dict)  # region -> taxing seat, this round
    terrain_mods: list[int] = field(default_factory=lambda: list(NO_TERRAIN_MODS))
    storm: bool = False
    pairs_released: int = 0
    settlements_razed: int = 0
    first_judge_round: int | None = None
    first_king_round: int | None = None
    decisions: int = 0
    pending: list[Any] = field(default_factory=list)  # the core's pending steps, as saved
    battle: dict[str, Any] | None = None  # the battle being fought, as saved
    hex_generals: dict[int, list[GeneralState]] = field(default_factory=dict)

    @property
    def n_players(self) -> int:
        return len(self.players)

    def turn_order(self) -> list[int]:
        """RD-3: seat order starting from this round's first player."""
        n = len(self.players)
        return [(self.first_player + i) % n for i in range(n)]

    def place(self, general: GeneralState, hex_id: int) -> None:
        """Put a general on ``hex_id`` (it may already stand elsewhere) and index it."""
        here = self.hex_generals.get(general.hex)
        if here is not None and general in here:
            here.remove(general)
            if not here:
                del self.hex_generals[general.hex]
        general.hex = hex_id
        insort(self.hex_generals.setdefault(hex_id, []), general, key=by_name)

    def remove(self, general: GeneralState) -> None:
        """Take a general off the board."""
        here = self.hex_generals.get(general.hex)
        if here is not None and general in here:
            here.remove(general)
            if not here:
                del self.hex_generals[general.hex]
        del self.generals[general.name]

    def generals_at(self, hex_id: int) -> list[GeneralState]:
        return self.hex_generals.get(hex_id, [])

    def reindex(self, hex_order: Sequence[int] = ()) -> None:
        """Rebuild ``hex_generals`` from the generals, its hexes in ``hex_order`` first."""
        occupied = {general.hex for general in self.generals.values()}
        self.hex_generals = {hex_id: [] for hex_id in hex_order if hex_id in occupied}
        for general in self.generals.values():
            insort(self.hex_generals.setdefault(general.hex, []), general, key=by_name)


STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.name != "hex_generals")
"""The fields a position saves: the data, not the index."""
