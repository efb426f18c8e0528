"""Game state as plain data: what a saved position holds, and nothing that can be derived.

The engine mutates these objects in place (no deep copies on the hot path). Strategies see
immutable copies through their ``View``; every write to a settlement, a general or a region is
counted (``SETTLEMENT_WRITES``, ``GENERAL_WRITES``, ``REGION_WRITES``, process-wide), so that
the views keep their copies of those until one of them changes. ``hex_generals`` is an index kept in step with every
general's ``hex`` by ``GameState.place``/``remove``, so that "who stands here" costs a lookup;
each hex's list is sorted by name, so it depends on who stands there, never on the order they
came in (a loaded position plays on exactly as the saved game would).

Writes are also stamped where they land, so that a value computed from one hex or one
settlement is kept until that very place changes: ``HEX_WRITES`` (hex -> the stamp of the last
write to a settlement or a general on it; a move stamps both hexes) and ``SETTLEMENT_STAMPS``
(settlement id -> the stamp of the last write to who holds it and what stands there: its owner,
wall, city, standing; what a region's status reads, not its garrison or developments). Stamps
come from one process-wide counter, so a place's stamp never repeats (hex ids of other games
share the tables: that only forgets more).
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import count
from typing import NamedTuple

from plsim.engine.cards import Phase


def by_name(general: "GeneralState") -> str:
    """The sort key that orders generals by name (hex lists, option lists)."""
    return general.name


CANAANITES = -1  # the owner id of the neutral Canaanite tribe

SETTLEMENT_WRITES = 0
GENERAL_WRITES = 0
REGION_WRITES = 0
PLAYER_WRITES = 0
SITE_WRITES = 0  # the writes among SETTLEMENT_WRITES that change who holds a settlement or what stands there
HEX_WRITES: dict[int, int] = {}
SETTLEMENT_STAMPS: dict[int, int] = {}
_STAMP = count(1).__next__
NO_TERRAIN_MODS = (0, 0, 0, 0)



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
class _GeneralFields:
    """A general's fields; ``GeneralState`` adds the views' bookkeeping."""

    name: str
    owner: int
    hex: int
    troops: int = 0
    items: tuple[str, ...] = ()  # attached item cards, oldest first (a tuple: replaced, never edited)
    title: Title | None = None  # TI-3: at most one
    captor: int | None = None  # the seat holding it captive, or None when free
    moved: bool = False  # its one move this round is used (MV-1, MV-10)
    took: bool = False  # took troops this round (MV-13)
    gave: bool = False  # gave troops back this round (MV-13)
    passage: bool = False  # entered its hex this round with Secret Passage (ST-4)


class GeneralState(_GeneralFields):
    """A general on the map; compared by identity, as each card is unique. A write is counted
    and drops ``record``, the immutable copy the views hand out (built again when asked)."""

    __slots__ = ("record",)

    def __setattr__(self, name: str, value: object) -> None:
        global GENERAL_WRITES
        GENERAL_WRITES += 1
        stamp = _STAMP()
        try:
            HEX_WRITES[self.hex] = stamp  # where it stands (or stood, for a move)
        except AttributeError:
            pass  # still being built: it stands nowhere yet
        object.__setattr__(self, name, value)
        object.__setattr__(self, "record", None)
        if name == "hex":
            HEX_WRITES[value] = stamp


@dataclass(slots=True)
class _SettlementFields:
    """A settlement's fields; ``SettlementState`` adds the views' bookkeeping."""

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
    standing: bool = field(init=False)  # exists and not razed: read everywhere, so kept, not derived

    def __post_init__(self) -> None:
        self.standing = self.exists and not self.razed


_SITE_FIELDS = frozenset(("id", "hex", "exists", "owner", "wall", "city", "razed", "standing"))


class SettlementState(_SettlementFields):
    """A settlement in play. A write is counted and drops ``record``, the immutable copy the
    views hand out (built again when asked)."""

    __slots__ = ("record",)

    def __setattr__(self, name: str, value: object) -> None:
        global SETTLEMENT_WRITES, SITE_WRITES
        SETTLEMENT_WRITES += 1
        object.__setattr__(self, name, value)
        object.__setattr__(self, "record", None)
        try:
            hex_id = self.hex
        except AttributeError:
            return  # still being built: its id and hex come first
        stamp = _STAMP()
        HEX_WRITES[hex_id] = stamp
        if name in _SITE_FIELDS:
            SITE_WRITES += 1
            SETTLEMENT_STAMPS[self.id] = stamp


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

    def __setattr__(self, name: str, value: object) -> None:
        global REGION_WRITES
        REGION_WRITES += 1
        object.__setattr__(self, name, value)


@dataclass(slots=True)
class InvaderPair:
    names: list[str]
    troops: list[int]
    at: int | None = None  # the settlement it last attacked (its place on the ring)
    target: int | None = None  # a new pair's first target (W-3)


@dataclass(slots=True)
class PlayerState:
    """A player's figures and hand; a write is counted (``PLAYER_WRITES``; the hand's length is
    not: it is a list changed in place, read whole)."""

    seat: int
    coins: int
    hand: list[str] = field(default_factory=list)
    home: int | None = None
    income: int = 0  # collected in this round's Income phase

    def __setattr__(self, name: str, value: object) -> None:
        global PLAYER_WRITES
        PLAYER_WRITES += 1
        object.__setattr__(self, name, value)


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
    prophets: list[str] = field(default_factory=list)  # Prophet cards in play, oldest first
    taxed: dict[str, int] = field(default_factory=dict)  # region -> taxing seat, this round
    terrain_mods: list[int] = field(default_factory=lambda: list(NO_TERRAIN_MODS))
    storm: bool = False
    pairs_released: int = 0
    settlements_razed: int = 0
    first_judge_round: int | None = None
    first_king_round: int | None = None
    decisions: int = 0
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
        """Take a general off the board (death); its card handling is the caller's."""
        global GENERAL_WRITES
        GENERAL_WRITES += 1
        HEX_WRITES[general.hex] = _STAMP()
        here = self.hex_generals.get(general.hex)
        if here is not None and general in here:
            here.remove(general)
            if not here:
                del self.hex_generals[general.hex]
        del self.generals[general.name]

    def generals_at(self, hex_id: int) -> list[GeneralState]:
        return self.hex_generals.get(hex_id, [])

    def reindex(self) -> None:
        """Rebuild ``hex_generals`` from the generals (after loading a position)."""
        global GENERAL_WRITES
        GENERAL_WRITES += 1
        stamp = _STAMP()
        for hex_id in [*self.hex_generals, *(general.hex for general in self.generals.values())]:
            HEX_WRITES[hex_id] = stamp
        self.hex_generals = {}
        for general in self.generals.values():
            insort(self.hex_generals.setdefault(general.hex, []), general, key=by_name)
