"""Game state as plain data: what a saved position holds, and nothing that can be derived.

The engine mutates these objects in place (no deep copies on the hot path); ``GameState.copy``
is the hand-written copy behind ``Table.clone``. Strategies see immutable copies through their
``View``. Every write to a settlement, a general, a region or a player is counted in the
state's own ``Ledger``, so that the views of this state keep their copies of those until one of
them changes; two states (a game and its clone) never share a ledger. ``hex_generals`` is an
index kept in step with every general's ``hex`` by ``GameState.place``/``remove``, so that "who
stands here" costs a lookup; each hex's list is sorted by name, so it depends on who stands
there, never on the order they came in.

Writes are also stamped where they land, so that a value computed from one hex or one
settlement is kept until that very place changes: ``Ledger.hex_writes`` (hex -> the stamp of
the last write to a settlement or a general on it; a move stamps both hexes) and
``Ledger.settlement_stamps`` (settlement id -> the stamp of the last write to who holds it and
what stands there: its owner, wall, city, standing; what a region's status reads, not its
garrison or developments). Stamps count up in the ledger, so a place's stamp never repeats
within one state.

``pending`` is the game's stack of steps still to do (``plsim.engine.steps``), ``battle`` the
battle being fought: what used to live on the call stack is data here, so a state can be copied
or saved at any decision.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any, Callable, NamedTuple, Sequence

from plsim.engine.cards import Phase


def by_name(general: "GeneralState") -> str:
    """The sort key that orders generals by name (hex lists, option lists)."""
    return general.name


CANAANITES = -1  # the owner id of the neutral Canaanite tribe
NO_TERRAIN_MODS = (0, 0, 0, 0)


class Ledger:
    """The write counters and stamps of one state: what the views' caches are keyed on."""

    __slots__ = ("settlement_writes", "general_writes", "region_writes", "player_writes", "site_writes", "stamp",
                 "hex_writes", "settlement_stamps", "source")

    def __init__(self) -> None:
        self.settlement_writes = 0
        self.general_writes = 0
        self.region_writes = 0
        self.player_writes = 0
        self.site_writes = 0  # the settlement writes that change who holds it or what stands there
        self.stamp = 0
        self.hex_writes: dict[int, int] = {}
        self.settlement_stamps: dict[int, int] = {}
        self.source: Any = None  # the views' shared source (``plsim.engine.view``), built on first use

    def copy(self) -> "Ledger":
        """The same counters and stamps, for a copy of the state; the views' source is not shared."""
        other = Ledger()
        other.settlement_writes = self.settlement_writes
        other.general_writes = self.general_writes
        other.region_writes = self.region_writes
        other.player_writes = self.player_writes
        other.site_writes = self.site_writes
        other.stamp = self.stamp
        other.hex_writes = self.hex_writes.copy()
        other.settlement_stamps = self.settlement_stamps.copy()
        return other


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
    """A general on the map; compared by identity, as each card is unique. A write is counted in
    the ledger of the state it stands in and drops ``record``, the immutable copy the views hand
    out (built again when asked). A general not yet placed (``GameState.place``) has no ledger."""

    __slots__ = ("record", "ledger")

    def __setattr__(self, name: str, value: object) -> None:
        try:
            ledger = self.ledger
        except AttributeError:  # still being built, or not on a board yet
            object.__setattr__(self, name, value)
            object.__setattr__(self, "record", None)
            return
        ledger.general_writes += 1
        stamp = ledger.stamp = ledger.stamp + 1
        writes = ledger.hex_writes
        writes[self.hex] = stamp  # where it stands (or stood, for a move)
        object.__setattr__(self, name, value)
        object.__setattr__(self, "record", None)
        if name == "hex":
            writes[value] = stamp


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
    """A settlement in play. A write is counted in its state's ledger and drops ``record``, the
    immutable copy the views hand out (built again when asked)."""

    __slots__ = ("record", "ledger")

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        object.__setattr__(self, "record", None)
        try:
            ledger = self.ledger
        except AttributeError:
            return  # still being built: not in a state yet
        ledger.settlement_writes += 1
        stamp = ledger.stamp = ledger.stamp + 1
        ledger.hex_writes[self.hex] = stamp
        if name in _SITE_FIELDS:
            ledger.site_writes += 1
            ledger.settlement_stamps[self.id] = stamp


@dataclass(slots=True)
class Siege:
    besieger: int
    started: int  # the round the siege began (ST-4, ST-8 melt from here)


@dataclass(slots=True)
class _RegionFields:
    name: str
    city: int | None = None  # the Judge's city, once a title was bought (TI-1)
    holder: str | None = None  # the general holding the title; None while vacant
    lapsed: bool = False  # the city has no owner: no title until someone owns it (TI-5)
    vacant_since: int | None = None  # the round the title last fell vacant (TI-6: filled in a later round)


class RegionState(_RegionFields):
    """A region's Judge title; a write is counted in its state's ledger."""

    __slots__ = ("ledger",)

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        try:
            self.ledger.region_writes += 1
        except AttributeError:
            pass  # not in a state yet


@dataclass(slots=True)
class InvaderPair:
    names: list[str]
    troops: list[int]
    at: int | None = None  # the settlement it last attacked (its place on the ring)
    target: int | None = None  # a new pair's first target (W-3)


@dataclass(slots=True)
class _PlayerFields:
    seat: int
    coins: int
    hand: list[str] = field(default_factory=list)
    home: int | None = None
    income: int = 0  # collected in this round's Income phase


class PlayerState(_PlayerFields):
    """A player's figures and hand; a write is counted in its state's ledger (the hand's length
    is not: it is a list changed in place, read whole)."""

    __slots__ = ("ledger",)

    def __setattr__(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)
        try:
            self.ledger.player_writes += 1
        except AttributeError:
            pass  # not in a state yet


@dataclass(slots=True)
class Side:
    """One side of the battle being fought (CB-2..CB-6): who, its generals by name, what its
    cards added. An invader pair's side names the pair (``pair``: its invaders' names)."""

    seat: int  # a player, CANAANITES, or INVADER_SIDE
    generals: list[str] = field(default_factory=list)
    pair: tuple[str, ...] | None = None
    idle_troops: int = 0  # troops of generals killed by an Ambush: they stay but do not fight
    mercenaries: int = 0
    siege_weapons: bool = False
    roll: int = 0
    total: int = 0

    def copy(self) -> "Side":
        return Side(self.seat, list(self.generals), self.pair, self.idle_troops, self.mercenaries,
                    self.siege_weapons, self.roll, self.total)


INVADER_SIDE = -2  # the seat id of an invader pair in a battle


@dataclass(slots=True)
class Battle:
    """The battle under way at ``hex``: its two sides and, once judged, who won."""

    hex: int
    attacker: Side
    defender: Side
    defending_settlement: bool  # the defender holds the settlement of the hex (CB-3, CB-5)
    won: bool = False  # the attacker won (set when the battle is judged)

    def copy(self) -> "Battle":
        return Battle(self.hex, self.attacker.copy(), self.defender.copy(), self.defending_settlement, self.won)


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
    pending: list = field(default_factory=list)  # the steps still to do, the next on top (``steps``)
    battle: Battle | None = None  # the battle being fought, between its card windows and its end
    hex_generals: dict[int, list[GeneralState]] = field(default_factory=dict)
    ledger: Ledger = field(default_factory=Ledger, repr=False, compare=False)

    def __post_init__(self) -> None:
        """Every object of the state counts its writes in this state's ledger."""
        ledger = self.ledger
        for group in (self.players, self.settlements, self.regions.values(), self.generals.values()):
            for obj in group:
                object.__setattr__(obj, "ledger", ledger)

    @property
    def n_players(self) -> int:
        return len(self.players)

    def turn_order(self) -> list[int]:
        """RD-3: seat order starting from this round's first player."""
        n = len(self.players)
        return [(self.first_player + i) % n for i in range(n)]

    def place(self, general: GeneralState, hex_id: int) -> None:
        """Put a general on ``hex_id`` (it may already stand elsewhere) and index it."""
        object.__setattr__(general, "ledger", self.ledger)
        here = self.hex_generals.get(general.hex)
        if here is not None and general in here:
            here.remove(general)
            if not here:
                del self.hex_generals[general.hex]
        general.hex = hex_id
        insort(self.hex_generals.setdefault(hex_id, []), general, key=by_name)

    def remove(self, general: GeneralState) -> None:
        """Take a general off the board (death); its card handling is the caller's."""
        ledger = self.ledger
        ledger.general_writes += 1
        ledger.stamp += 1
        ledger.hex_writes[general.hex] = ledger.stamp
        here = self.hex_generals.get(general.hex)
        if here is not None and general in here:
            here.remove(general)
            if not here:
                del self.hex_generals[general.hex]
        del self.generals[general.name]

    def generals_at(self, hex_id: int) -> list[GeneralState]:
        return self.hex_generals.get(hex_id, [])

    def reindex(self, hex_order: Sequence[int] = ()) -> None:
        """Rebuild ``hex_generals`` from the generals (after loading a position), its hexes in
        ``hex_order`` first (the order the saved game had them in)."""
        ledger = self.ledger
        ledger.general_writes += 1
        ledger.stamp += 1
        for hex_id in [*self.hex_generals, *(general.hex for general in self.generals.values())]:
            ledger.hex_writes[hex_id] = ledger.stamp
        occupied = {general.hex for general in self.generals.values()}
        self.hex_generals = {hex_id: [] for hex_id in hex_order if hex_id in occupied}
        for general in self.generals.values():
            object.__setattr__(general, "ledger", ledger)
            insort(self.hex_generals.setdefault(general.hex, []), general, key=by_name)

    def copy(self) -> "GameState":
        """An independent copy sharing nothing mutable: every settlement, general, region, player,
        pair, siege, list and dict is new; the index keeps its order; the pending steps (immutable
        values) are the same. Written by hand: a deepcopy costs ten times as much."""
        ledger = self.ledger.copy()
        generals = {name: _copy_general(g, ledger) for name, g in self.generals.items()}
        new = object.__new__(GameState)
        for name, value in zip(_SCALARS, _get_scalars(self)):
            object.__setattr__(new, name, value)
        new.players = [_copy_player(p, ledger) for p in self.players]
        new.settlements = [_copy_settlement(st, ledger) for st in self.settlements]
        new.regions = {name: _copy_region(r, ledger) for name, r in self.regions.items()}
        new.deck = self.deck.copy()
        new.generals = generals
        new.discard = self.discard.copy()
        new.event_area = self.event_area.copy()
        new.pairs = [InvaderPair(list(p.names), list(p.troops), p.at, p.target) for p in self.pairs]
        new.invader_pool = self.invader_pool.copy()
        new.sieges = {h: Siege(s.besieger, s.started) for h, s in self.sieges.items()}
        new.assaults = self.assaults.copy()
        new.prophets = self.prophets.copy()
        new.taxed = self.taxed.copy()
        new.terrain_mods = self.terrain_mods.copy()
        new.pending = self.pending.copy()
        new.battle = self.battle.copy() if self.battle is not None else None
        new.hex_generals = {h: [generals[g.name] for g in here] for h, here in self.hex_generals.items()}
        new.ledger = ledger
        return new


STATE_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in ("hex_generals", "ledger"))
"""The fields a position saves and check mode compares: the data, not the index or the ledger."""

_SCALARS = ("round", "phase", "first_player", "wrath", "king", "succession_pending", "succession_since", "storm",
            "pairs_released", "settlements_razed", "first_judge_round", "first_king_round", "decisions")
_get_scalars = attrgetter(*_SCALARS)
_GENERAL_SLOTS = tuple(f.name for f in fields(_GeneralFields)) + ("record",)
_SETTLEMENT_SLOTS = tuple(f.name for f in fields(_SettlementFields)) + ("record",)
_REGION_SLOTS = tuple(f.name for f in fields(_RegionFields))


def _slot_copier(cls: type, slots: tuple[str, ...]) -> Callable[[Any, Ledger], Any]:
    """A function copying a slotted state object of ``cls``: its fields read at once and set
    through their slot descriptors (a copy is no write), then the copy's ledger. Built once per
    class: the hand-written copy is the hot path of every clone."""
    getter = attrgetter(*slots)
    read = getter if len(slots) > 1 else lambda obj: (getter(obj),)  # one name: attrgetter gives no tuple
    setters = tuple(getattr(cls, name).__set__ for name in slots)
    set_ledger = getattr(cls, "ledger").__set__
    make = object.__new__

    def copy(obj: Any, ledger: Ledger) -> Any:
        new = make(cls)
        for set_, value in zip(setters, read(obj)):
            set_(new, value)
        set_ledger(new, ledger)
        return new

    return copy


_copy_general = _slot_copier(GeneralState, _GENERAL_SLOTS)
_copy_settlement = _slot_copier(SettlementState, _SETTLEMENT_SLOTS)
_copy_region = _slot_copier(RegionState, _REGION_SLOTS)


def _copy_player(player: PlayerState, ledger: Ledger) -> PlayerState:
    new = object.__new__(PlayerState)
    set_ = object.__setattr__
    set_(new, "seat", player.seat)
    set_(new, "coins", player.coins)
    set_(new, "hand", player.hand.copy())
    set_(new, "home", player.home)
    set_(new, "income", player.income)
    set_(new, "ledger", ledger)
    return new
