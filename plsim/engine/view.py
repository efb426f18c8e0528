"""What a strategy sees of a game in progress: its seat's sealed ``View``.

VW-1: a strategy sees the public state and its own hand, never other hands, the deck's order or
the game's generator. VW-2: it is offered only legal options and picks one; it cannot change
the state. The view hands out immutable values only: tuples of named records
(``SettlementView``, ``GeneralView``...), read-only mappings, strings and numbers. It holds no
reference to the live state: the engine keeps the link in a private table and the view builds
each value from the state on first use, then keeps it until the engine's next decision (the
state changes only between decisions), so a strategy pays only for what it reads. The costly
parts, the settlements, the generals (each hex's tuple of them too), the players' figures, the
defences and the region statuses, are shared by the views of a game and kept across decisions
until the engine writes to what they show (the counters and stamps of the state's own
``Ledger``: per kind of object, per hex and per settlement).

A view is not a sandbox: code in the same process can reach anything through ``gc`` or the
engine's modules. ``plsim play --check`` and ``play_game(..., check_invariants=True)`` catch a
strategy that changes the game (``plsim.engine.tamper``).
"""

from __future__ import annotations

import weakref
from collections import namedtuple
from functools import partial
from itertools import compress, repeat
from operator import attrgetter, is_, itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from plsim.engine import arithmetic
from plsim.engine.arithmetic import RegionStatus
from plsim.engine.movement import reachable
from plsim.engine.scoring import victory_points

if TYPE_CHECKING:
    from plsim.board import Board
    from plsim.engine.state import GameState
    from plsim.rules import Rules


def _record(name: str, fields: tuple[str, ...], doc: str) -> tuple[type, Callable[[Iterable[Any]], Iterator[tuple]]]:
    """An immutable record type copying ``fields`` of a state object, and its copier: from live
    objects to records, in C all the way (``map`` of ``attrgetter`` and ``tuple.__new__``)."""
    record = namedtuple(name, fields)
    record.__doc__ = doc
    record.__module__ = __name__
    make = partial(tuple.__new__, record)
    get = attrgetter(*fields)
    return record, lambda live: map(make, map(get, live))


def _kept(copy: Callable[[Iterable[Any]], Iterator[tuple]]) -> Callable[[Iterable[Any]], tuple]:
    """A copier that reuses the record a live settlement or general keeps (``record``, dropped by
    any write to it) and copies only the ones written since."""
    def records(live: Iterable[Any]) -> tuple:
        objects = tuple(live)
        kept = tuple(map(_RECORD, objects))
        if None in kept:
            stale = list(compress(objects, map(is_, kept, repeat(None))))
            for obj, record in zip(stale, copy(stale)):
                object.__setattr__(obj, "record", record)
            kept = tuple(map(_RECORD, objects))
        return kept
    return records


_RECORD = attrgetter("record")


SettlementView, _copy_settlements = _record(
    "SettlementView",
    ("id", "hex", "exists", "owner", "garrison", "wall", "city", "developments", "razed", "tabernacle", "standing"),
    "A settlement: owner is a seat, CANAANITES (-1) or None; standing = exists in this game and not razed.",
)
GeneralView, _copy_generals = _record(
    "GeneralView",
    ("name", "owner", "hex", "troops", "items", "title", "captor", "moved", "took", "gave", "passage"),
    "A general on the map: items a tuple of card ids, title a Title or None, captor a seat or None; "
    "moved/took/gave/passage describe this round (MV-1, MV-10, MV-9).",
)
RegionView, _regions = _record(
    "RegionView", ("name", "city", "holder", "lapsed"),
    "A region's Judge title: its city (settlement id) once bought, the holder's name, lapsed (TI-5).",
)
SiegeView, _sieges = _record("SiegeView", ("besieger", "started"), "A siege: the besieging seat and its first round.")
PlayerView, _ = _record(
    "PlayerView", ("seat", "coins", "home", "income", "hand_size"),
    "A player's public figures: coins, the home settlement, this round's income, the size of the hand.",
)
InvaderPairView = namedtuple("InvaderPairView", ("names", "troops", "at", "target"))
InvaderPairView.__doc__ = "A loose invader pair: its invaders and their troops, where it last attacked, its first target."
InvaderPairView.__module__ = __name__

_settlements = _kept(_copy_settlements)
_generals = _kept(_copy_generals)
_SECOND = itemgetter(1)
_HAND = attrgetter("hand")
_FIGURES = attrgetter("seat", "coins", "home", "income")
_NEW_PLAYER = partial(tuple.__new__, PlayerView)
_NOTHING: Mapping = MappingProxyType({})


class _Source:
    """The live state behind the views of one game, and the records of its settlements and
    generals, kept while no write to a settlement or general was counted."""

    __slots__ = ("state", "table", "_settlements", "_generals", "_hex_generals", "_here", "_regions", "_players",
                 "_ground", "_defences", "_statuses", "_points", "__weakref__")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.table: Callable[[], Any] | None = None  # a weak reference to the table playing the state
        self._settlements: tuple[int, Any] = (-1, None)
        self._generals: tuple[int, Any] = (-1, None)
        self._hex_generals: tuple[int, Any] = (-1, None)
        self._here: dict[int, tuple[int | None, tuple]] = {}  # hex -> (its stamp, its generals' records)
        self._regions: tuple[int, Any] = (-1, None)
        self._players: tuple[Any, Any] = (None, None)
        self._ground: tuple[Any, Any] = (None, None)  # the board and rules the two tables below hold for
        self._defences: dict[tuple, tuple[int, tuple[int, int | None]]] = {}
        self._statuses: dict[tuple[str, int], tuple[tuple, RegionStatus]] = {}
        self._points: dict[int, tuple[tuple, int]] = {}  # seat -> (stamp, its victory points)

    def _on(self, board: Board, rules: Rules) -> None:
        """Forget the defences and region statuses if they were computed for another board or rules."""
        ground = self._ground
        if ground[0] is not board or ground[1] is not rules:
            self._ground = (board, rules)
            self._defences = {}
            self._statuses = {}

    def hex_defence(self, board: Board, rules: Rules, hex_id: int, rounds_besieged: int | None,
                    wall_cancelled: bool, attacker: int | None) -> tuple[int, int | None]:
        """``arithmetic.hex_defence`` of the live state (the view shows it as it is), kept until a
        settlement or a general on the hex is written (``Ledger.hex_writes``)."""
        self._on(board, rules)
        state = self.state
        if rounds_besieged is None:
            rounds_besieged = arithmetic.siege_rounds(state, hex_id)
        key = (hex_id, rounds_besieged, wall_cancelled, attacker)
        stamp = state.ledger.hex_writes.get(hex_id)
        kept = self._defences.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        value = arithmetic.hex_defence(state, board, rules, hex_id, rounds_besieged, wall_cancelled, attacker)
        self._defences[key] = (stamp, value)
        return value

    def vp(self, seat: int) -> int:
        """``scoring.victory_points`` of the live state, kept per seat while no settlement,
        general or region was written and the King is the same."""
        ledger = self.state.ledger
        stamp = (ledger.settlement_writes, ledger.general_writes, ledger.region_writes, self.state.king)
        kept = self._points.get(seat)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        value = victory_points(self.state, seat)
        self._points[seat] = (stamp, value)
        return value

    def region_status(self, board: Board, rules: Rules, region: str, seat: int) -> RegionStatus:
        """``arithmetic.region_status`` of the live state, kept while none of the region's
        settlements (``Ledger.settlement_stamps``) nor any region was written and its Judge's
        seat is the same."""
        self._on(board, rules)
        state = self.state
        stamps = (state.ledger.region_writes, arithmetic.judge_owner(state, region),
                  *map(state.ledger.settlement_stamps.get, board.regions[region].settlements))
        key = (region, seat)
        kept = self._statuses.get(key)
        if kept is not None and kept[0] == stamps:
            return kept[1]
        value = arithmetic.region_status(state, board, rules, region, seat)
        self._statuses[key] = (stamps, value)
        return value

    def settlements(self) -> tuple[SettlementView, ...]:
        writes, value = self._settlements
        now = self.state.ledger.settlement_writes
        if writes != now:
            value = _settlements(self.state.settlements)
            self._settlements = now, value
        return value

    def generals(self) -> Mapping[str, GeneralView]:
        writes, value = self._generals
        now = self.state.ledger.general_writes
        if writes != now:
            generals = self.state.generals
            value = MappingProxyType(dict(zip(generals, _generals(generals.values()))))
            self._generals = now, value
        return value

    def hex_generals(self) -> Mapping[int, tuple[GeneralView, ...]]:
        """hex -> its generals' records; a hex's tuple is kept while no write stamped the hex."""
        writes, value = self._hex_generals
        now = self.state.ledger.general_writes
        if writes != now:
            stamps = self.state.ledger.hex_writes
            before = self._here
            here = {}
            for hex_id, generals in self.state.hex_generals.items():
                stamp = stamps.get(hex_id)
                kept = before.get(hex_id)
                if kept is None or kept[0] != stamp:
                    kept = (stamp, _generals(generals))
                here[hex_id] = kept
            self._here = here
            value = MappingProxyType(dict(zip(here, map(_SECOND, here.values()))))
            self._hex_generals = now, value
        return value

    def players(self) -> tuple[PlayerView, ...]:
        """Every player's public figures, kept while no player was written and no hand changed size."""
        players = self.state.players
        stamp = (self.state.ledger.player_writes, *map(len, map(_HAND, players)))
        kept, value = self._players
        if kept != stamp:
            value = tuple(map(_NEW_PLAYER, map(tuple.__add__, map(_FIGURES, players), zip(stamp[1:]))))
            self._players = stamp, value
        return value

    def regions(self) -> Mapping[str, RegionView]:
        writes, value = self._regions
        now = self.state.ledger.region_writes
        if writes != now:
            regions = self.state.regions
            value = MappingProxyType(dict(zip(regions, _regions(regions.values()))))
            self._regions = now, value
        return value


# view -> the source it shows; the view itself never holds it (see the module docstring)
_SOURCES: dict[int, _Source] = {}


def link(view: View, table: Callable[[], Any]) -> None:
    """Tell the view's source which table plays its state (a weak reference), for ``View.determinise``."""
    _SOURCES[id(view)].table = table


class _Lazy:
    """A view attribute built from the live state on first use and cached in the view's
    ``__dict__`` (a non-data descriptor, so later reads are plain attribute lookups)."""

    def __init__(self, build: Callable[[View, Any], Any]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: View | None, owner: type | None = None) -> Any:
        if view is None:
            return self
        value = self.build(view, _SOURCES[id(view)].state)
        view.__dict__[self.name] = value
        return value


def refresh(view: View) -> None:
    """Forget every value the view built, and read the few numbers every strategy looks at: the
    engine calls it before each decision."""
    values = view.__dict__
    values.clear()
    source = _SOURCES[id(view)]
    state = source.state
    values["round"] = state.round
    values["phase"] = state.phase._value_  # the member's own attribute: ``.value`` is a property
    values["wrath"] = state.wrath
    values["king"] = state.king
    # the shared values still current are handed over now, sparing their first reads the descriptor
    ledger = state.ledger
    for name, (writes, value), now in (
        ("settlements", source._settlements, ledger.settlement_writes),
        ("generals", source._generals, ledger.general_writes),
        ("hex_generals", source._hex_generals, ledger.general_writes), ("regions", source._regions, ledger.region_writes),
    ):
        if writes == now:
            values[name] = value


class View:
    """A seat's read-only window on a game in progress (VW-1, VW-2).

    ``seat``, ``board``, ``rules`` and ``n_players`` are fixed; every other attribute is an
    immutable value as the state stands at the decision being asked. A view is valid during the
    decision it came with (the engine refreshes it before the next one)."""

    __slots__ = ("seat", "board", "rules", "n_players", "__dict__", "__weakref__")

    def __init__(self, state: GameState, board: Board, rules: Rules, seat: int) -> None:
        set_ = object.__setattr__
        set_(self, "seat", seat)
        set_(self, "board", board)
        set_(self, "rules", rules)
        set_(self, "n_players", len(state.players))
        source = state.ledger.source
        if source is None:
            source = state.ledger.source = _Source(state)
        _SOURCES[id(self)] = source
        weakref.finalize(self, _SOURCES.pop, id(self), None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a View is read-only (VW-2): cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a View is read-only (VW-2): cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"<View of seat {self.seat}>"

    # turn structure
    @_Lazy
    def round(self, state: GameState) -> int:
        """The round number (1 for the first)."""
        return state.round

    @_Lazy
    def phase(self, state: GameState) -> str:
        """The phase being played: announcements, draw, income, acquisitions, movement, combat, victory."""
        return state.phase.value

    @_Lazy
    def first_player(self, state: GameState) -> int:
        """This round's first player (RD-3)."""
        return state.first_player

    def turn_order(self) -> list[int]:
        """RD-3: seat order starting from this round's first player."""
        first, n = self.first_player, self.n_players
        return [(first + i) % n for i in range(n)]

    # the seat's own private information
    @_Lazy
    def hand(self, state: GameState) -> tuple[str, ...]:
        """This seat's one-use cards (card ids such as "Tax#3"); of other hands only sizes are public."""
        return tuple(state.players[self.seat].hand)

    # public information about players
    @_Lazy
    def players(self, state: GameState) -> tuple[PlayerView, ...]:
        """Every player's public figures, by seat."""
        return _SOURCES[id(self)].players()

    def coins(self, seat: int | None = None) -> int:
        return self.players[self.seat if seat is None else seat].coins

    def hand_size(self, seat: int) -> int:
        return self.players[seat].hand_size

    def home(self, seat: int | None = None) -> int | None:
        return self.players[self.seat if seat is None else seat].home

    def vp(self, seat: int | None = None) -> int:
        """V-1: the seat's victory points now."""
        return _SOURCES[id(self)].vp(self.seat if seat is None else seat)

    # the board
    @_Lazy
    def settlements(self, state: GameState) -> tuple[SettlementView, ...]:
        """Every settlement of the map, by id (those absent from this game have exists False)."""
        return _SOURCES[id(self)].settlements()

    @_Lazy
    def generals(self, state: GameState) -> Mapping[str, GeneralView]:
        """Every general on the map, by name (captives included)."""
        return _SOURCES[id(self)].generals()

    @_Lazy
    def hex_generals(self, state: GameState) -> Mapping[int, tuple[GeneralView, ...]]:
        """hex -> the generals standing there, sorted by name."""
        return _SOURCES[id(self)].hex_generals()

    def generals_at(self, hex_id: int) -> tuple[GeneralView, ...]:
        return self.hex_generals.get(hex_id, ())

    def my_generals(self) -> list[GeneralView]:
        return [g for g in self.generals.values() if g.owner == self.seat]

    def my_settlements(self) -> list[SettlementView]:
        return [s for s in self.settlements if s.owner == self.seat and s.standing]

    @_Lazy
    def regions(self, state: GameState) -> Mapping[str, RegionView]:
        """The regions of this game and their Judge titles."""
        return _SOURCES[id(self)].regions()

    @_Lazy
    def sieges(self, state: GameState) -> Mapping[int, SiegeView]:
        """hex -> the siege there (MV-11)."""
        sieges = state.sieges
        return MappingProxyType(dict(zip(sieges, _sieges(sieges.values())))) if sieges else _NOTHING

    @_Lazy
    def assaults(self, state: GameState) -> Mapping[int, int]:
        """hex -> the seat assaulting it in this round's Combat (MV-12)."""
        return MappingProxyType(dict(state.assaults))

    @_Lazy
    def king(self, state: GameState) -> str | None:
        """The King's name, if there is one (TI-7)."""
        return state.king

    @_Lazy
    def succession_pending(self, state: GameState) -> int | None:
        """The seat choosing the dead King's successor (TI-13), if any."""
        return state.succession_pending

    @_Lazy
    def wrath(self, state: GameState) -> int:
        """The Wrath of God (W-1, W-2)."""
        return state.wrath

    @_Lazy
    def event_area(self, state: GameState) -> tuple[str, ...]:
        """The events waiting to resolve in the next Announcements, oldest first (DR-3)."""
        return tuple(state.event_area)

    @_Lazy
    def taxed(self, state: GameState) -> Mapping[str, int]:
        """region -> the seat that taxed it this round (IN-3)."""
        return MappingProxyType(dict(state.taxed))

    @_Lazy
    def terrain_mods(self, state: GameState) -> tuple[int, ...]:
        """This round's income change per terrain (Abundance +1, Famine -1; IN-1), by Terrain value."""
        return tuple(state.terrain_mods)

    @_Lazy
    def storm(self, state: GameState) -> bool:
        """Whether a Sandstorm blows this round (MV-4)."""
        return state.storm

    @_Lazy
    def pairs(self, state: GameState) -> tuple[InvaderPairView, ...]:
        """The invader pairs loose on the land (W-2..W-5)."""
        return tuple(InvaderPairView(tuple(p.names), tuple(p.troops), p.at, p.target) for p in state.pairs) if state.pairs else ()

    @_Lazy
    def invader_pool(self, state: GameState) -> tuple[str, ...]:
        """The invaders not yet loosed (9.5)."""
        return tuple(state.invader_pool)

    @_Lazy
    def prophets(self, state: GameState) -> tuple[str, ...]:
        """The Prophet cards in play, earliest drawn first (AN-2, W-3)."""
        return tuple(state.prophets)

    @_Lazy
    def deck_size(self, state: GameState) -> int:
        """How many cards are left in the deck (never their order)."""
        return len(state.deck)

    @_Lazy
    def discard(self, state: GameState) -> tuple[str, ...]:
        """The discard pile, oldest first (public: every card in it was seen)."""
        return tuple(state.discard)

    @_Lazy
    def pairs_released(self, state: GameState) -> int:
        return state.pairs_released

    @_Lazy
    def settlements_razed(self, state: GameState) -> int:
        return state.settlements_razed

    # the rule arithmetic (plsim.engine.arithmetic, plsim.engine.movement) on this view's state
    def reachable(self, general: str, passage: bool = False) -> dict[int, int]:
        """MV-1..MV-13: hexes the general could move to now, with the cost of the cheapest route."""
        return reachable(self, self.board, self.rules, self.generals[general], passage)

    def general_strength(self, general: GeneralView, open_plain: bool = False, troops: int | None = None) -> int:
        """GN-1, CB-3: the general's fighting strength (with ``troops`` instead of its own)."""
        return arithmetic.general_strength(self.rules, general, open_plain, troops)

    def siege_rounds(self, hex_id: int) -> int:
        """Whole rounds since the siege of the hex began (0 without one)."""
        return arithmetic.siege_rounds(self, hex_id)

    def fortification(self, sid: int, rounds_besieged: int, wall_cancelled: bool = False) -> int:
        """ST-4, ST-8: the settlement's wall or city bonus after ``rounds_besieged`` rounds of siege."""
        return arithmetic.fortification(self.rules, self.settlements[sid], rounds_besieged, wall_cancelled)

    def open_plain(self, hex_id: int) -> bool:
        """CB-3: a plain with no standing settlement (where the War Chariot counts)."""
        return arithmetic.is_open_plain(self, self.board, hex_id)

    def hex_defence(self, hex_id: int, rounds_besieged: int | None = None, wall_cancelled: bool = False,
                    attacker: int | None = None) -> tuple[int, int | None]:
        """CB-3 before the dice: (defending strength, defending side) of a hex (``arithmetic.hex_defence``)."""
        return _SOURCES[id(self)].hex_defence(self.board, self.rules, hex_id, rounds_besieged, wall_cancelled,
                                              attacker)

    def settlement_defence(self, sid: int, rounds_besieged: int | None = None, wall_cancelled: bool = False) -> int:
        """CB-3 before the dice: the defending strength of a settlement."""
        return _SOURCES[id(self)].hex_defence(self.board, self.rules, self.board.settlements[sid].hex,
                                              rounds_besieged, wall_cancelled, None)[0]

    def win_probability(self, attack: float, defence: float) -> float:
        """CB-3, CB-4: the chance an attack of this strength beats this defence, with this game's dice."""
        return arithmetic.win_probability(attack, defence, self.rules.combat.dice, self.rules.dice.sides)

    def strength_to_win(self, chance: float, defence: float) -> int:
        """CB-3, CB-4 read backwards: the smallest attack that beats this defence with ``chance``."""
        return arithmetic.strength_to_win(chance, defence, self.rules.combat.dice, self.rules.dice.sides)

    def battle_losses(self, loser_troops: int) -> int:
        """CB-6: the troops the winner of a battle loses to a loser who brought ``loser_troops``."""
        return arithmetic.battle_losses(self.rules, loser_troops)

    def plague_kills(self, troops: int) -> bool:
        """9.4: whether a Plague's hit kills a general commanding ``troops``."""
        return arithmetic.plague_kills(self.rules, troops)

    def loot(self, sid: int) -> int:
        """CB-7: what razing the settlement would pay."""
        return arithmetic.loot(self.rules, self.settlements[sid])

    def settlement_income(self, sid: int) -> int:
        """IN-1: what the settlement is worth this round, Abundance and Famine included."""
        return arithmetic.settlement_income(self, self.board, self.rules, sid)

    def income_paid(self, sid: int) -> int:
        """IN-1, IN-2: what the settlement pays in this round's Income (nothing while besieged)."""
        return arithmetic.income_paid(self, self.board, self.rules, sid)

    def tax_gain(self, region: str) -> int:
        """IN-3: what taxing the region pays the taxer in this round's Income."""
        return arithmetic.tax_gain(self, self.board, self.rules, region)

    def region_status(self, region: str, seat: int | None = None) -> RegionStatus:
        """Who holds what in a region, seen from ``seat`` (default: this view's seat)."""
        return _SOURCES[id(self)].region_status(self.board, self.rules, region, self.seat if seat is None else seat)

    def standing_judge_regions(self, razed: int | None = None) -> int:
        """V-2: regions that can still hold a Judge, counting settlement ``razed`` as gone."""
        return arithmetic.standing_judge_regions(self, self.board, self.rules, razed)

    def prophet_carrier(self, without: str | None = None) -> GeneralView | None:
        """AN-2, W-3: the general carrying the earliest-drawn Prophet in play (``without``: as if
        that general were dead)."""
        return arithmetic.prophet_carrier(self, without)

    def prophet_owner(self, without: str | None = None) -> int | None:
        """AN-2, W-3: the seat choosing the events' terrain and the invaders' first target."""
        return arithmetic.prophet_owner(self, without)

    # the forward model
    def determinise(self, rng: Any) -> Any:
        """A copy of the game (a ``plsim.engine.Table``) in which everything this seat cannot see
        (other hands, the deck's order, future dice) is dealt anew from ``rng``: what a search
        strategy plays forward on. The game itself is never reachable from a view."""
        source = _SOURCES[id(self)]
        table = source.table() if source.table is not None else None
        if table is None:
            raise RuntimeError("this view is not of a game in play: it has no forward model")
        return table.determinise(self.seat, rng)

    def invader_target(self, pair: InvaderPairView) -> int | None:
        """W-3, W-5: the settlement the pair attacks in the next Combat."""
        return arithmetic.invader_target(self, self.board, pair)
