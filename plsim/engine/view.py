"""What a strategy sees of a game in progress: its seat's sealed ``View``.

VW-1: a strategy sees the public state and its own hand, never other hands, the deck's order or
the game's generator. VW-2: it is offered only legal options and picks one; it cannot change the
state. The state lives in the core (``plsim._core``), which a view only reads: every value it
hands out is an immutable copy (tuples of named records such as ``SettlementView``, read-only
mappings, strings and numbers), built on first use and kept until the engine's next decision.
The costly parts, the settlements, the generals, the players' figures, the regions, the
defences and the region statuses, are shared by the views of a game and kept across decisions
until the core counts a write to what they show (its ledger: per kind of object, and per hex for
a defence). The rule arithmetic a view offers is the core's, on the game as it stands.

A view is not a sandbox: code in the same process can reach the table through ``gc``. Check mode
(``plsim play --check``) compares the game before and after each answer (``plsim.engine.tamper``).
"""

from __future__ import annotations

import weakref
from collections import namedtuple
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping

from plsim import _core
from plsim.engine import arithmetic
from plsim.engine.arithmetic import RegionStatus
from plsim.engine.evaluation import WeightValues
from plsim.engine.state import ASSASSIN_TITLE, KING, Scalars, judge_title

if TYPE_CHECKING:
    from plsim.board import Board
    from plsim.rules import Rules


def _record(name: str, fields: tuple[str, ...], doc: str) -> tuple[type, Callable[[tuple], tuple]]:
    """An immutable record type and its maker from a tuple of its fields (in C)."""
    record = namedtuple(name, fields)
    record.__doc__ = doc
    record.__module__ = __name__
    return record, partial(tuple.__new__, record)


SettlementView, _settlement = _record(
    "SettlementView",
    ("id", "hex", "exists", "owner", "garrison", "wall", "city", "developments", "razed", "tabernacle", "standing"),
    "A settlement: owner is a seat, CANAANITES (-1) or None; standing = exists in this game and not razed.",
)
GeneralView, _general = _record(
    "GeneralView",
    ("name", "owner", "hex", "troops", "items", "title", "captor", "moved", "took", "passage"),
    "A general on the map: items a tuple of card ids, title a Title or None, captor a seat or None; "
    "moved/took/passage describe this round (MV-1, MV-10, MV-9).",
)
RegionView, _region = _record(
    "RegionView", ("name", "city", "holder", "lapsed"),
    "A region's Judge title: its city (settlement id) once bought, the holder's name, lapsed (TI-5).",
)
SiegeView, _siege = _record("SiegeView", ("besieger", "started"), "A siege: the besieging seat and its first round.")
PlayerView, _player = _record(
    "PlayerView", ("seat", "coins", "home", "income", "hand_size"),
    "A player's public figures: coins, the home settlement, this round's income, the size of the hand.",
)
InvaderPairView = namedtuple("InvaderPairView", ("names", "troops", "at", "target"))
InvaderPairView.__doc__ = "A loose invader pair: its invaders and their troops, where it last attacked, its first target."
InvaderPairView.__module__ = __name__

_NOTHING: Mapping = MappingProxyType({})
# one seat's scripted strategy played by the core (core/agents/src/scripted): ``NativeScripted(variant, seat,
# params, forecast_seed=None)``, answering through ``View.scripted_choice``
NativeScripted = _core.Scripted
# what a native scripted strategy's plan can be asked for (``View.scripted_knowledge``)
SCRIPTED_KNOWLEDGE = ("planned_targets", "wanted_garrison", "escort", "invader_next", "assassin_value",
                      "invader_kill_value", "region_tax_value", "settlement_cost", "home_score", "aims", "my_carrier",
                      "pair_path", "path_losses")
_TITLES = {"king": KING, "assassin": ASSASSIN_TITLE}


def _title(saved: tuple[str, str | None] | None) -> Any:
    if saved is None:
        return None
    kind, region = saved
    return judge_title(region) if kind == "judge" else _TITLES[kind]


def _general_record(fields: tuple) -> GeneralView:
    name, owner, hex_id, troops, items, title, captor, moved, took, passage = fields
    return _general((name, owner, hex_id, troops, tuple(items), _title(title), captor, moved, took, passage))


class _Source:
    """The core table behind the views of one game, and the records built from it, kept while
    the core counts no write to what they show."""

    __slots__ = ("core", "table", "_settlements", "_generals", "_hex_generals", "_regions", "_players", "_ledger",
                 "_defences", "_statuses", "_points", "__weakref__")

    def __init__(self, core: Any, table: Callable[[], Any]) -> None:
        self.core = core
        self.table = table  # a weak reference to the table playing the game
        # (the ledger's count of writes, its stamp, the records) when they were built
        self._settlements: tuple[int, int | None, Any] = (-1, None, None)
        self._generals: tuple[int, int | None, Any] = (-1, None, None)
        self._hex_generals: tuple[int, int | None, Any] = (-1, None, None)
        self._regions: tuple[int, Any] = (-1, None)
        self._players: tuple[Any, Any] = (None, None)
        self._ledger: tuple[int, ...] | None = None  # the core's write counters at this decision
        self._defences: dict[tuple, tuple[int, int | None]] = {}  # this decision's answers
        self._statuses: dict[tuple[str, int], RegionStatus] = {}
        self._points: dict[int, int] = {}

    def new_decision(self) -> None:
        """The game moved on: forget this decision's answers (the records are kept by the ledger)."""
        self._ledger = None
        if self._defences:
            self._defences = {}
        if self._statuses:
            self._statuses = {}
        if self._points:
            self._points = {}

    def ledger(self) -> tuple[int, ...]:
        """The core's write counters (settlements, generals, regions, players, sites), read once a
        decision."""
        ledger = self._ledger
        if ledger is None:
            ledger = self._ledger = self.core.ledger()
        return ledger

    def settlements(self) -> tuple[SettlementView, ...]:
        """Every settlement's record; after a write only those on a hex written since are new."""
        writes, stamp, value = self._settlements
        now = self.ledger()[0]
        if writes != now:
            stamp, rows = self.core.settlements(stamp)
            if value is None:
                value = tuple(map(_settlement, rows))
            else:
                records = list(value)
                for row in rows:
                    records[row[0]] = _settlement(row)
                value = tuple(records)
            self._settlements = now, stamp, value
        return value

    def generals(self) -> Mapping[str, GeneralView]:
        """Every general's record by name; after a write only those on a hex written since are new."""
        writes, stamp, value = self._generals
        now = self.ledger()[1]
        if writes != now:
            stamp, names, rows = self.core.generals(stamp)
            fresh = {row[0]: _general_record(row) for row in rows}
            kept = value or _NOTHING
            value = MappingProxyType({name: fresh[name] if name in fresh else kept[name] for name in names})
            self._generals = now, stamp, value
        return value

    def hex_generals(self) -> Mapping[int, tuple[GeneralView, ...]]:
        """hex -> its generals' records (the ones ``generals`` holds), in the game's hex order;
        a hex not written since keeps its tuple."""
        writes, stamp, value = self._hex_generals
        now = self.ledger()[1]
        if writes != now:
            generals, kept = self.generals(), value or _NOTHING
            rows = self.core.hex_generals()
            value = MappingProxyType({h: kept[h] if stamp is not None and written <= stamp and h in kept
                                      else tuple(generals[n] for n in names) for h, names, written in rows})
            self._hex_generals = now, max((written for _, _, written in rows), default=stamp), value
        return value

    def players(self) -> tuple[PlayerView, ...]:
        """Every player's public figures, kept while no player was written and no hand changed size."""
        figures = self.core.players()
        stamp, value = self._players
        if stamp != figures:
            value = tuple(map(_player, figures))
            self._players = figures, value
        return value

    def regions(self) -> Mapping[str, RegionView]:
        writes, value = self._regions
        now = self.ledger()[2]
        if writes != now:
            value = MappingProxyType({r[0]: _region(r) for r in self.core.regions()})
            self._regions = now, value
        return value

    def hex_defence(self, hex_id: int, rounds_besieged: int | None, wall_cancelled: bool,
                    attacker: int | None) -> tuple[int, int | None]:
        """The core's ``hex_defence`` of the game as it is, kept for this decision."""
        key = (hex_id, rounds_besieged, wall_cancelled, attacker)
        value = self._defences.get(key)
        if value is None:
            value = self._defences[key] = self.core.hex_defence(hex_id, rounds_besieged, wall_cancelled, attacker)
        return value

    def vp(self, seat: int) -> int:
        """V-1, kept for this decision."""
        value = self._points.get(seat)
        if value is None:
            value = self._points[seat] = self.core.vp(seat)
        return value

    def region_status(self, region: str, seat: int) -> RegionStatus:
        """Who holds what in a region, kept for this decision."""
        key = (region, seat)
        value = self._statuses.get(key)
        if value is None:
            value = self._statuses[key] = RegionStatus(region, *map(_tuple_or_value, self.core.region_status(region, seat)))
        return value


def _tuple_or_value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


# view -> the source it shows; the view itself never holds it (see the module docstring)
_SOURCES: dict[int, _Source] = {}
# view -> the seat it is bound to, out of reach of ``object.__setattr__`` (``View.seat``)
_SEATS: dict[int, int] = {}


def _forget(key: int) -> None:
    """A view is gone: its source and seat with it."""
    _SOURCES.pop(key, None)
    _SEATS.pop(key, None)


def source_of(view: "View") -> _Source:
    return _SOURCES[id(view)]


class _Lazy:
    """A view attribute built from the core on first use and cached in the view's ``__dict__``
    (a non-data descriptor, so later reads are plain attribute lookups)."""

    def __init__(self, build: Callable[["View", Any], Any]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: "View | None", owner: type | None = None) -> Any:
        if view is None:
            return self
        value = self.build(view, _SOURCES[id(view)])
        view.__dict__[self.name] = value
        return value


def refresh(view: "View") -> None:
    """Forget every value the view built: the engine calls it before each decision."""
    view.__dict__.clear()


class View:
    """A seat's read-only window on a game in progress (VW-1, VW-2).

    ``seat``, ``board``, ``rules`` and ``n_players`` are fixed; every other attribute is an
    immutable value as the game stands at the decision being asked. A view is valid during the
    decision it came with (the engine refreshes it before the next one)."""

    __slots__ = ("board", "rules", "n_players", "__dict__", "__weakref__")

    def __init__(self, source: _Source, board: Board, rules: Rules, seat: int, n_players: int) -> None:
        set_ = object.__setattr__
        set_(self, "board", board)
        set_(self, "rules", rules)
        set_(self, "n_players", n_players)
        _SOURCES[id(self)] = source
        _SEATS[id(self)] = seat
        weakref.finalize(self, _forget, id(self))

    @property
    def seat(self) -> int:
        """The seat this view is bound to: its hand is the one shown (VW-1). Kept outside the
        view, so not even ``object.__setattr__`` can turn the view to another seat."""
        return _SEATS[id(self)]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a View is read-only (VW-2): cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a View is read-only (VW-2): cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"<View of seat {self.seat}>"

    # turn structure
    @_Lazy
    def _scalars(self, source: _Source) -> Scalars:
        return Scalars(*source.core.scalars())

    @_Lazy
    def round(self, source: _Source) -> int:
        """The round number (1 for the first)."""
        return self._scalars.round

    @_Lazy
    def phase(self, source: _Source) -> str:
        """The phase being played: announcements, draw, income, acquisitions, movement, combat, victory."""
        return self._scalars.phase

    @_Lazy
    def first_player(self, source: _Source) -> int:
        """This round's first player (RD-3)."""
        return self._scalars.first_player

    def turn_order(self) -> list[int]:
        """RD-3: seat order starting from this round's first player."""
        first, n = self.first_player, self.n_players
        return [(first + i) % n for i in range(n)]

    # the seat's own private information
    @_Lazy
    def hand(self, source: _Source) -> tuple[str, ...]:
        """This seat's one-use cards (card ids such as "Tax#3"); of other hands only sizes are public."""
        return tuple(source.core.hand(self.seat))

    # public information about players
    @_Lazy
    def players(self, source: _Source) -> tuple[PlayerView, ...]:
        """Every player's public figures, by seat."""
        return source.players()

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
    def settlements(self, source: _Source) -> tuple[SettlementView, ...]:
        """Every settlement of the map, by id (those absent from this game have exists False)."""
        return source.settlements()

    @_Lazy
    def generals(self, source: _Source) -> Mapping[str, GeneralView]:
        """Every general on the map, by name (captives included)."""
        return source.generals()

    @_Lazy
    def hex_generals(self, source: _Source) -> Mapping[int, tuple[GeneralView, ...]]:
        """hex -> the generals standing there, sorted by name."""
        return source.hex_generals()

    def generals_at(self, hex_id: int) -> tuple[GeneralView, ...]:
        return self.hex_generals.get(hex_id, ())

    def my_generals(self) -> list[GeneralView]:
        return [g for g in self.generals.values() if g.owner == self.seat]

    def my_settlements(self) -> list[SettlementView]:
        return [s for s in self.settlements if s.owner == self.seat and s.standing]

    @_Lazy
    def regions(self, source: _Source) -> Mapping[str, RegionView]:
        """The regions of this game and their Judge titles."""
        return source.regions()

    @_Lazy
    def sieges(self, source: _Source) -> Mapping[int, SiegeView]:
        """hex -> the siege there (MV-11)."""
        sieges = source.core.sieges()
        return MappingProxyType({h: _siege((b, r)) for h, b, r in sieges}) if sieges else _NOTHING

    @_Lazy
    def assaults(self, source: _Source) -> Mapping[int, int]:
        """hex -> the seat assaulting it in this round's Combat (MV-12)."""
        return MappingProxyType(dict(source.core.assaults()))

    @_Lazy
    def king(self, source: _Source) -> str | None:
        """The King's name, if there is one (TI-7)."""
        return self._scalars.king

    @_Lazy
    def succession_pending(self, source: _Source) -> int | None:
        """The seat choosing the dead King's successor (TI-13), if any."""
        return self._scalars.succession_pending

    @_Lazy
    def wrath(self, source: _Source) -> int:
        """The Wrath of God (W-1, W-2)."""
        return self._scalars.wrath

    @_Lazy
    def event_area(self, source: _Source) -> tuple[str, ...]:
        """The events waiting to resolve in the next Announcements, oldest first (DR-3)."""
        return tuple(source.core.event_area())

    @_Lazy
    def taxed(self, source: _Source) -> Mapping[str, int]:
        """region -> the seat that taxed it this round (IN-3)."""
        return MappingProxyType(dict(source.core.taxed()))

    @_Lazy
    def terrain_mods(self, source: _Source) -> tuple[int, ...]:
        """This round's income change per terrain (Abundance +1, Famine -1; IN-1), by Terrain value."""
        return tuple(source.core.terrain_mods())

    @_Lazy
    def storm(self, source: _Source) -> bool:
        """Whether a Sandstorm blows this round (MV-4)."""
        return self._scalars.storm

    @_Lazy
    def pairs(self, source: _Source) -> tuple[InvaderPairView, ...]:
        """The invader pairs loose on the land (W-2..W-5)."""
        return tuple(InvaderPairView(tuple(n), tuple(t), at, target) for n, t, at, target in source.core.pairs())

    @_Lazy
    def invader_pool(self, source: _Source) -> tuple[str, ...]:
        """The invaders not yet loosed (9.5)."""
        return tuple(source.core.invader_pool())

    @_Lazy
    def prophets(self, source: _Source) -> tuple[str, ...]:
        """The Prophet cards in play, earliest drawn first (AN-2, W-3)."""
        return tuple(source.core.prophets())

    @_Lazy
    def deck_size(self, source: _Source) -> int:
        """How many cards are left in the deck (never their order)."""
        return self._scalars.deck_size

    @_Lazy
    def discard(self, source: _Source) -> tuple[str, ...]:
        """The discard pile, oldest first (public: every card in it was seen)."""
        return tuple(source.core.discard())

    @_Lazy
    def pairs_released(self, source: _Source) -> int:
        return self._scalars.pairs_released

    @_Lazy
    def settlements_razed(self, source: _Source) -> int:
        return self._scalars.settlements_razed

    # the rule arithmetic (the core's) on this view's game
    def reachable(self, general: str, passage: bool = False) -> dict[int, int]:
        """MV-1..MV-13: hexes the general could move to now, with the cost of the cheapest route."""
        return dict(_SOURCES[id(self)].core.reachable(general, passage))

    def general_strength(self, general: GeneralView, open_plain: bool = False, troops: int | None = None) -> int:
        """GN-1, CB-3: the general's fighting strength (with ``troops`` instead of its own)."""
        return arithmetic.general_strength(self.rules, general, open_plain, troops)

    def siege_rounds(self, hex_id: int) -> int:
        """Whole rounds since the siege of the hex began (0 without one)."""
        return _SOURCES[id(self)].core.siege_rounds(hex_id)

    def fortification(self, sid: int, rounds_besieged: int, wall_cancelled: bool = False) -> int:
        """ST-4, ST-8: the settlement's wall or city bonus after ``rounds_besieged`` rounds of siege."""
        return arithmetic.fortification(self.rules, self.settlements[sid], rounds_besieged, wall_cancelled)

    def open_plain(self, hex_id: int) -> bool:
        """CB-3: a plain with no standing settlement (where the War Chariot counts)."""
        return _SOURCES[id(self)].core.open_plain(hex_id)

    def hex_defence(self, hex_id: int, rounds_besieged: int | None = None, wall_cancelled: bool = False,
                    attacker: int | None = None) -> tuple[int, int | None]:
        """CB-3 before the dice: (defending strength, defending side) of a hex."""
        return _SOURCES[id(self)].hex_defence(hex_id, rounds_besieged, wall_cancelled, attacker)

    def settlement_defence(self, sid: int, rounds_besieged: int | None = None, wall_cancelled: bool = False) -> int:
        """CB-3 before the dice: the defending strength of a settlement."""
        return _SOURCES[id(self)].hex_defence(self.board.settlements[sid].hex, rounds_besieged, wall_cancelled, None)[0]

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
        return _SOURCES[id(self)].core.settlement_income(sid)

    def income_paid(self, sid: int) -> int:
        """IN-1, IN-2: what the settlement pays in this round's Income (nothing while besieged)."""
        return _SOURCES[id(self)].core.income_paid(sid)

    def tax_gain(self, region: str) -> int:
        """IN-3: what taxing the region pays the taxer in this round's Income."""
        return _SOURCES[id(self)].core.tax_gain(region)

    def region_status(self, region: str, seat: int | None = None) -> RegionStatus:
        """Who holds what in a region, seen from ``seat`` (default: this view's seat)."""
        return _SOURCES[id(self)].region_status(region, self.seat if seat is None else seat)

    def standing_judge_regions(self, razed: int | None = None) -> int:
        """V-2: regions that can still hold a Judge, counting settlement ``razed`` as gone."""
        return _SOURCES[id(self)].core.standing_judge_regions(razed)

    def prophet_carrier(self, without: str | None = None) -> GeneralView | None:
        """AN-2, W-3: the general carrying the earliest-drawn Prophet in play (``without``: as if
        that general were dead)."""
        name = _SOURCES[id(self)].core.prophet_carrier(without)
        return None if name is None else self.generals[name]

    def prophet_owner(self, without: str | None = None) -> int | None:
        """AN-2, W-3: the seat choosing the events' terrain and the invaders' first target."""
        carrier = self.prophet_carrier(without)
        return None if carrier is None else carrier.owner

    # the search strategies' evaluation (the core's: plsim.engine.evaluation)
    def seat_features(self, seat: int, coin_cap: float, reach: bool = True, threat: bool = True) -> tuple[float, ...]:
        """A seat's terms of worth as the evaluation weighs them (strategies/evaluation.py
        ``FEATURES``), read from the public state; ``reach`` or ``threat`` False leaves that term 0."""
        return _SOURCES[id(self)].core.seat_features(seat, coin_cap, reach, threat)

    def seat_worth(self, seat: int, weights: WeightValues) -> float:
        """A seat's worth: its terms weighed by ``weights`` (``WeightValues``)."""
        return _SOURCES[id(self)].core.seat_worth(seat, weights)

    def policy_choice(self, seed: int, policy: str = "heuristic") -> int | None:
        """The index of the option the core's native ``policy`` (``"heuristic"`` or ``"random"``)
        answers the pending decision with, from a generator seeded with ``seed``: the heuristic
        reads only the public state and the options. Nothing in the game changes."""
        return _SOURCES[id(self)].core.policy_choice(seed, policy)

    def scripted_choice(self, native: Any, decision: Any) -> int:
        """The index of the option the core's scripted strategy ``native`` (a
        ``plsim.strategy.NativeScripted``) answers ``decision`` with: the pending decision, or
        one a caller built on this position. Nothing in the game changes; the strategy's plan may."""
        return _SOURCES[id(self)].core.scripted_choice(native, decision.kind, decision.options, decision.context)

    def scripted_knowledge(self, native: Any, what: str, *args: Any) -> Any:
        """What the core's scripted strategy ``native`` worked out on this position, as a decision
        here would read it (its plan's knowledge): ``what`` is one of ``SCRIPTED_KNOWLEDGE``."""
        if what not in SCRIPTED_KNOWLEDGE:
            raise ValueError(f"{what!r} is not a scripted strategy's knowledge: {', '.join(SCRIPTED_KNOWLEDGE)}")
        if type(native) is not NativeScripted:  # the core table is handed to its method: only to the core's own
            raise TypeError(f"a NativeScripted, not {type(native).__name__}")
        return getattr(native, what)(_SOURCES[id(self)].core, *args)

    def search_tree(self, prior: list[int], c: float, widen: float, alpha: float, last_round: int, depth: int,
                    policy: str, weights: WeightValues, rivals: str | None = None) -> Any:
        """An mcts tree inside the core for this seat at its pending decision (strategies/mcts.py
        documents the search and the parameters): ``prior`` orders the options (indices), the
        native ``policy`` plays the rest of this seat's decisions and ``rivals`` (``policy`` if
        None) the other seats'; grow it with ``Table.iterate`` on worlds from ``determinise``,
        read the answer's place in ``prior`` from its ``best()``."""
        return _core.CoreTree.new(_SOURCES[id(self)].core, self.seat, prior, c, widen, alpha, last_round, depth,
                                  policy, rivals or policy, weights)

    def tree_stats(self, prior: list[int], c: float, widen: float, alpha: float) -> Any:
        """mcts's tree for a default policy in Python: the core's statistics of this seat's own
        decisions from its pending one (``prior`` orders the options, as for ``search_tree``);
        the strategy steps each world and asks ``Table.select`` at each own decision, then
        ``backup``s the iteration's value; ``best()`` and ``root_children()`` as ``search_tree``'s."""
        return _core.CoreTreeStats.new(_SOURCES[id(self)].core, prior, c, widen, alpha)

    # the forward model
    def determinise(self, rng: Any) -> Any:
        """A copy of the game (a ``plsim.engine.Table``) in which everything this seat cannot see
        (other hands, the deck's order, future dice) is dealt anew from ``rng``: what a search
        strategy plays forward on. The game itself is never reachable from a view."""
        source = _SOURCES[id(self)]
        table = source.table()
        if table is None:
            raise RuntimeError("this view is not of a game in play: it has no forward model")
        return table.determinise(self.seat, rng)

    def invader_target(self, pair: InvaderPairView) -> int | None:
        """W-3, W-5: the settlement the pair attacks in the next Combat."""
        return _SOURCES[id(self)].core.invader_target(pair.at, pair.target)
