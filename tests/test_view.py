"""Section 16 of RULES.md, what a strategy may see and do (VW-1, VW-2), and the sealed view.

A strategy sees the game through its seat's ``View``: the public state and its own hand as
immutable values, no other hand, no deck order, no generator, no path to the live game. It
answers a ``Decision`` with one of the options offered, which nothing can alter; anything else,
or raising, is a ``StrategyError``. The game lives in the core: the state a table hands out is a
snapshot, so changing it changes no game. In check mode the engine compares the game (the core's
state and generator, the rules, the board, the table, the other strategies' generators) before
and after every decision, so a strategy that changes it by any route still open to Python code
(gc, the engine's modules, the core's own methods) is caught as a ``TamperError`` naming its seat.
"""

from __future__ import annotations

import dataclasses
import gc
import inspect
import json
import pickle
import random
import types
from types import MappingProxyType

import pytest
from helpers import Scripted, add_general, blank_game, give_hand, make_judge, own, passing

from plsim import _core
from plsim.board import Board, default_board
from plsim.engine import StrategyError, TamperError, play_game, strategy_seed
from plsim.engine.arithmetic import RegionStatus
from plsim.engine.cards import Phase
from plsim.engine.game import Game
from plsim.engine.table import Table
from plsim.engine.options import OPTION_TYPES
from plsim.engine.state import GameState, GeneralState, InvaderPair, PlayerState, RegionState, SettlementState, Siege
from plsim.rules import Rules
from plsim.strategy import (
    PASS, Buy, Choose, Decision, DecisionKind, EndSiege, GiveTroops, Move, MoveCaptive, PlayCard, StartAssault,
    StartSiege, Strategy, TakeTroops, View,
)
from strategies.random_strategy import RandomStrategy

LIVE_TYPES = (GameState, PlayerState, SettlementState, GeneralState, RegionState, Siege, InvaderPair, Table,
              _core.CoreTable, random.Random, Strategy)


def position():
    """Seat 0 holds an Assassin and a Tax, seat 1 a Justice and a Blessing."""
    g = blank_game(2, strategies=passing(2))
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    mine = give_hand(g, 0, "Assassin", "Tax")
    theirs = give_hand(g, 1, "Justice", "Blessing")
    return g, mine, theirs


def reachable_from(view: View) -> list:
    """Every object reachable from the view by attribute access, underscored or not: slots,
    ``__dict__``, the values of every attribute and of every method called (for each seat where
    it takes one), container contents, dataclass fields, bound methods' ``__self__`` and
    ``__func__``, closures and defaults. Classes and modules are not followed (they lead to the
    whole process, like ``gc``: the trust model of docs/strategies.md)."""
    found: list = []
    seen: set[int] = set()
    stack: list = [view]

    def push(value) -> None:
        if id(value) not in seen and not isinstance(value, (type, types.ModuleType)):
            stack.append(value)

    while stack:
        value = stack.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        found.append(value)
        if isinstance(value, (str, bytes, int, float, bool)) or value is None:
            continue
        if isinstance(value, (dict, MappingProxyType)):
            for key, item in value.items():
                push(key)
                push(item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                push(item)
        if isinstance(value, types.MethodType):
            push(value.__self__)
            push(value.__func__)
        if isinstance(value, types.FunctionType):
            for cell in value.__closure__ or ():
                push(cell.cell_contents)
            push(value.__defaults__)
            push(value.__kwdefaults__)
        for slot in getattr(type(value), "__slots__", ()):
            if hasattr(value, slot):
                push(getattr(value, slot))
        if hasattr(value, "__dict__") and not isinstance(value, types.FunctionType):
            push(vars(value))
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                push(getattr(value, f.name))
        if value is view:
            for name in dir(view):
                try:
                    member = getattr(view, name)
                except AttributeError:
                    continue
                push(member)
                if name.startswith("__") or not callable(member) or isinstance(member, type):
                    continue
                params = [p for p in inspect.signature(member).parameters.values() if p.default is p.empty]
                if not params:
                    push(member())
                elif len(params) == 1 and name in ("coins", "hand_size", "home", "vp"):
                    for seat in range(view.n_players):
                        push(member(seat))
    return found


def test_vw_1_a_view_shows_its_own_hand_and_only_the_size_of_others() -> None:
    """VW-1: a strategy sees its own hand (View.hand) and, of another player's hand, only its
    size (View.hand_size)."""
    g, mine, theirs = position()
    view0, view1 = g.view(0), g.view(1)
    assert sorted(view0.hand) == sorted(mine)
    assert sorted(view1.hand) == sorted(theirs)
    assert view0.hand_size(1) == 2 and view1.hand_size(0) == 2
    assert isinstance(view0.hand, tuple)


def test_vw_1_nothing_reachable_from_the_view_leads_to_the_live_game() -> None:
    """VW-1, issue 9.8: walking everything reachable from a view (underscored attributes, slots,
    __dict__, bound methods' __self__, closures, every accessor's result) finds only immutable
    values: no state object, no other hand, no deck, no generator, no table or core, no strategy."""
    g, mine, theirs = position()
    g.state.pairs.append(InvaderPair(["Og", "Jabin"], [6, 6], at=None, target=0))
    g.state.sieges[g.board.settlement_by_name("Gaza").hex] = Siege(0, 1)
    view = g.view(0)
    found = reachable_from(view)
    strings = {v for v in found if isinstance(v, str)}
    assert set(mine) <= strings and {"Ehud", "Saul", "Og"} <= strings  # the walk does reach the public state
    assert not set(theirs) & strings, "another player's hand"
    assert not (set(g.state.deck) - set(g.state.discard)) & strings, "the deck's cards"
    assert any(v is g.state for v in reachable_from(types.SimpleNamespace(x=[(g.state,)])))  # the walk would see one
    live = [type(v).__name__ for v in found if isinstance(v, LIVE_TYPES)]
    assert not live, f"live objects reachable: {live}"
    ids = {id(v) for v in found}
    forbidden = [g.state, g.state.deck, g.state.players, g.rng, g.strategies, *g.strategies,
                 *(p.hand for p in g.state.players), g.state.generals, g.state.settlements, g.state.pairs]
    assert not [f for f in forbidden if id(f) in ids]
    assert view.deck_size == len(g.state.deck)


def test_vw_1_the_obvious_doors_are_closed() -> None:
    """VW-1: the attributes a curious strategy would try do not exist or are not live."""
    g, _, theirs = position()
    view = g.view(0)
    for name in ("_state", "state", "_game", "game", "deck", "_View__state"):
        with pytest.raises(AttributeError):
            getattr(view, name)
    assert set(vars(view)) <= {name for name in dir(View) if not name.startswith("_")}
    assert all(not isinstance(v, LIVE_TYPES) for v in vars(view).values())
    assert view.reachable.__self__ is view and "Ehud" in view.generals
    assert not hasattr(view, "players") or all(not hasattr(p, "hand") for p in view.players)


def test_vw_2_the_view_and_its_values_cannot_be_changed() -> None:
    """VW-2: every value a view hands out is immutable; the view refuses new attributes."""
    g, _, _ = position()
    view = g.view(0)
    with pytest.raises(AttributeError):
        view.seat = 1
    with pytest.raises(AttributeError):
        view.settlements[0].garrison = 9
    with pytest.raises(TypeError):
        view.generals["Saul"] = None
    with pytest.raises(AttributeError):
        view.generals["Ehud"].troops = 6
    with pytest.raises(AttributeError):
        view.hand.append("Tax#1")
    with pytest.raises(TypeError):
        view.sieges[0] = None
    for value in (view.settlements, view.generals, view.regions, view.sieges, view.assaults, view.taxed, view.pairs,
                  view.players, view.hand, view.event_area, view.discard, view.terrain_mods):
        assert isinstance(value, (tuple, MappingProxyType))


def test_vw_2_a_view_builds_its_values_once_per_decision_and_anew_after_it() -> None:
    """The view builds a value on first use and keeps it for the decision; the engine refreshes
    it before the next decision, so it always shows the state as it stands. A record nothing
    wrote to since (the regions, after a troop is bought) is kept across decisions."""
    seen = []

    def look(view, decision):
        seen.append((view.settlements, view.settlements, view.coins(), view.regions))
        if len(seen) == 1:
            return Buy("troop", view.board.settlement_by_name("Dor").id)
        return None

    g = blank_game(2, phase=Phase.ACQUISITIONS, strategies=[Scripted(0, look), Scripted(1)])
    dor = own(g, "Dor", 0, garrison=1)
    g.run_phase()  # Acquisitions: seat 0 buys a troop at Dor, then passes
    (first, again, coins, regions), (second, _, later, regions_later) = seen
    assert first is again and first is not second
    assert (coins, later) == (10, 8) and (first[dor].garrison, second[dor].garrison) == (1, 2)
    assert regions is regions_later


@pytest.mark.parametrize("option", [
    PASS, Choose(3), PlayCard("Tax#1", "Israel"), Buy("troop", 3), Move("Joab", 57, True), TakeTroops("Joab", 2),
    GiveTroops("Joab", 1), MoveCaptive("Saul", 12), EndSiege(5), StartSiege(5), StartAssault(5),
], ids=lambda o: type(o).__name__)
def test_vw_2_an_option_cannot_be_altered_even_with_object_setattr(option) -> None:
    """VW-2, issue 9.8: options are tuples: no field can be set, not even through
    ``object.__setattr__``, and no attribute added."""
    before = tuple(option)
    for name in (*option._fields, "extra"):
        with pytest.raises((AttributeError, TypeError)):
            object.__setattr__(option, name, 99)
        with pytest.raises((AttributeError, TypeError)):
            setattr(option, name, 99)
    assert tuple(option) == before and not hasattr(option, "__dict__")


def test_vw_2_options_equal_only_their_own_kind() -> None:
    """Options of different kinds never compare equal, even with the same fields."""
    assert StartSiege(5) != EndSiege(5) and StartSiege(5) != StartAssault(5) and EndSiege(5) != (5,)
    assert Move("Joab", 57) == Move("Joab", 57, False) and hash(Move("Joab", 57)) == hash(Move("Joab", 57, False))
    assert len({StartSiege(5), EndSiege(5), StartAssault(5)}) == 3
    assert {t.__name__ for t in OPTION_TYPES} >= {"Pass", "Choose", "Move", "Buy", "PlayCard"}


def test_vw_2_a_decision_cannot_be_altered() -> None:
    """The decision handed to a strategy is a tuple with a read-only context."""
    decision = Decision(DecisionKind.VOTE, 0, (Choose("a"), Choose("b")), MappingProxyType({"region": "Gilead"}))
    with pytest.raises(AttributeError):
        object.__setattr__(decision, "options", (Choose("c"),))
    with pytest.raises(TypeError):
        decision.context["region"] = "Edom"


def test_vw_2_an_answer_not_offered_raises_strategy_error() -> None:
    """VW-2: a strategy must pick one of the options offered; any other answer raises
    StrategyError naming the strategy and the decision."""
    class Liar(Strategy):
        name = "liar"

        def choose(self, view, decision):
            return PlayCard("Assassin#1", "Saul", "Nobody")

    g, _, _ = position()
    g.strategies[0] = Liar(0, random.Random(0))
    with pytest.raises(StrategyError) as err:
        g.run_phase()  # Announcements: seat 0's card window
    message = str(err.value)
    assert "'liar'" in message and "seat 0" in message and "'cards'" in message


def test_vw_2_a_strategy_that_raises_gives_strategy_error() -> None:
    """VW-2: a strategy that raises is reported as StrategyError, naming it and the decision,
    with the original exception chained."""
    class Crasher(Strategy):
        name = "crasher"

        def choose(self, view, decision):
            raise ZeroDivisionError("oops")

    g, _, _ = position()
    g.strategies[1] = Crasher(1, random.Random(0))
    g.state.phase = Phase.DRAW
    with pytest.raises(StrategyError) as err:
        g.run_phase()  # Draw Cards: seat 1 may play its Blessing
    message = str(err.value)
    assert "'crasher'" in message and "ZeroDivisionError" in message and "'cards'" in message
    assert isinstance(err.value.__cause__, ZeroDivisionError)


def game_of(view: View) -> Table:
    """The live game a strategy plays in, found the way hostile code would: through gc (the
    table that handed out its view)."""
    return next(o for o in gc.get_objects() if isinstance(o, Table) and any(v is view for v in o._views.values()))


def rival_of(strategy: Strategy, seat: int) -> Strategy:
    """Another seat's strategy of the same game, found through gc (the line-up that holds this one)."""
    lineup = next(r for r in gc.get_referrers(strategy) if isinstance(r, list) and all(isinstance(x, Strategy) for x in r))
    return lineup[seat]


TAMPERING = {
    "a hand and the deck": (lambda g, me: g.core.call("effects.draw_cards", json.dumps([me.seat, 1])),
                            "the game's state"),
    "coins and the wrath": (lambda g, me: g.core.call("effects.add_wrath", json.dumps([1, "cheat", me.seat])),
                            "the game's state"),
    "the pending work": (lambda g, me: g.core.answer(0, False), "the game's state"),
    "the generator": (lambda g, me: g.core.reseed(12345), "the game's generator"),
    "the game's core": (lambda g, me: setattr(g, "core", g.core.clone()), "the game"),
    "the rules": (lambda g, me: object.__setattr__(g.rules.wrath, "threshold", 2), "the rules"),
    "the board": (lambda g, me: object.__setattr__(g.board, "terrain", (0,) * len(g.board.terrain)), "the board"),
    "a rival's generator": (lambda g, me: rival_of(me, 1).rng.random(), "the generator of seat 1's strategy"),
}


@pytest.mark.parametrize("what", TAMPERING)
def test_vw_2_check_mode_catches_a_strategy_that_changes_the_game_through_gc(what) -> None:
    """VW-2, issue 9.8: a strategy that reaches the live table through gc and changes any part
    of the game still open to Python code (the core's state through its own methods, its
    generator, the table's core, the rules, the board, a rival's generator) is caught in check
    mode at that decision: TamperError naming the strategy, its seat and what changed."""
    change, part = TAMPERING[what]

    class Cheat(RandomStrategy):
        name = "cheat"

        def choose(self, view, decision):
            if view.round == 2:
                change(game_of(view), self)
            return super().choose(view, decision)

    strategies = [Cheat(0, random.Random(1)), RandomStrategy(1, random.Random(2))]
    board = pickle.loads(pickle.dumps(default_board()))  # a private copy: the shipped one is shared
    with pytest.raises(TamperError) as err:
        play_game(board, Rules(), strategies, 5, check_invariants=True)
    message = str(err.value)
    assert "'cheat' (seat 0)" in message and "round 2" in message and part in message


def test_vw_2_a_strategy_that_edits_the_state_it_finds_changes_no_game() -> None:
    """VW-2: the state a table hands out (``Table.state``, found through gc) is a snapshot: a
    strategy that rewrites it (coins, deck order, another hand, invaders, terrain, a general)
    changes nothing in the game, which plays as the honest one does, and check mode finds
    nothing to report."""
    class Scribbler(RandomStrategy):
        name = "scribbler"

        game = None

        def choose(self, view, decision):
            self.game = self.game or game_of(view)
            state = self.game.state
            state.players[0].coins += 50
            state.deck.reverse()
            state.players[1].hand.append(state.deck.pop() if state.deck else "Tax#1")
            state.invader_pool.clear()
            state.terrain_mods[0] = 5
            for general in state.generals.values():
                general.troops = 6
            return super().choose(view, decision)

    def once(first):
        strategies = [first(0, random.Random(1)), RandomStrategy(1, random.Random(2))]
        r = play_game(default_board(), Rules(), strategies, 5, check_invariants=True)
        return r.rounds, r.winners, r.decisions, r.final_coins, r.round_rows

    assert once(Scribbler) == once(RandomStrategy)


def test_vw_2_check_mode_catches_a_change_through_a_module_global() -> None:
    """A strategy that finds the game through the engine's own module (the core behind the
    view's private source) and deals itself a card is caught as well."""
    import plsim.engine.view as view_module

    class Thief(RandomStrategy):
        name = "thief"

        def choose(self, view, decision):
            for source in list(view_module._SOURCES.values()):
                source.core.call("effects.draw_cards", json.dumps([self.seat, 1]))
            return super().choose(view, decision)

    strategies = [RandomStrategy(0, random.Random(1)), Thief(1, random.Random(2))]
    with pytest.raises(TamperError, match=r"'thief' \(seat 1\).*the game's state"):
        play_game(default_board(), Rules(), strategies, 5, check_invariants=True)


class Plugin(RandomStrategy):
    """Random play from outside plsim's own packages: check mode fingerprints its decisions."""

    name = "plugin"

    def choose(self, view, decision):
        return super().choose(view, decision)


def test_vw_2_honest_games_pass_the_tamper_check_and_play_the_same_games() -> None:
    """Check mode changes no game: the same seed plays the same game with and without it."""
    def once(check: bool):
        strategies = [kind(seat, random.Random(strategy_seed(9, seat)))
                      for seat, kind in enumerate((Plugin, RandomStrategy, Plugin))]
        r = play_game(default_board(), Rules(), strategies, 9, check_invariants=check)
        return r.rounds, r.winners, r.decisions, r.final_coins, r.round_rows

    assert once(True) == once(False)


def test_vw_2_check_mode_fingerprints_every_decision_but_those_the_core_answers(monkeypatch) -> None:
    """A decision of a shipped strategy the core plays (its ``choose`` the one its native policy
    stands for) runs no code but plsim's: check mode does not copy the game around it. Every
    other seat's decision is fingerprinted: a plugin's, and a shipped class's whose ``choose``
    was replaced on the instance."""
    import plsim.engine.tamper as tamper
    seen: list[int] = []
    real = tamper.fingerprint
    monkeypatch.setattr(tamper, "fingerprint", lambda table, strategies, seat: seen.append(seat) or real(
        table, strategies, seat))
    patched = RandomStrategy(2, random.Random(3))
    patched.choose = types.MethodType(RandomStrategy.choose, patched)
    strategies = [RandomStrategy(0, random.Random(1)), Plugin(1, random.Random(2)), patched]
    result = play_game(default_board(), Rules(), strategies, 4, check_invariants=True)
    assert set(seen) == {1, 2} and result.decisions > len(seen) // 2 > 0  # two fingerprints a checked decision


class KeptValuesAuditor(RandomStrategy):
    """Random play that, at every decision, compares what the views keep across decisions
    (defences, region statuses, victory points, the generals by hex, the players' figures) with values built
    fresh from the live game (its table, found once through gc; its core's arithmetic asked
    directly, its state as a snapshot), and the moves offered with a fresh search."""

    game: Table | None = None

    def choose(self, view: View, decision: Decision):
        self.game = self.game or game_of(view)
        board, core, state = view.board, self.game.core, self.game.state
        hexes = {s.hex for s in view.settlements} | set(view.hex_generals)
        for hex_id in sorted(hexes):
            for rounds in (None, 0, 99):
                for attacker in (None, self.seat):
                    assert view.hex_defence(hex_id, rounds, False, attacker) == tuple(core.hex_defence(
                        hex_id, rounds, False, attacker))
            sid = board.settlement_at[hex_id]
            if sid >= 0:
                assert view.settlement_defence(sid, None, True) == core.hex_defence(hex_id, None, True)[0]
        for region in view.regions:
            for seat in range(view.n_players):
                fresh = (tuple(v) if isinstance(v, list) else v for v in core.region_status(region, seat))
                assert view.region_status(region, seat) == RegionStatus(region, *fresh)
        assert {h: [g.name for g in here] for h, here in view.hex_generals.items()} == {
            h: [g.name for g in here] for h, here in state.hex_generals.items()}
        assert all(g is view.generals[g.name] for here in view.hex_generals.values() for g in here)
        assert [view.vp(seat) for seat in range(view.n_players)] == [core.vp(seat) for seat in range(view.n_players)]
        assert [tuple(p) for p in view.players] == [
            (p.seat, p.coins, p.home, p.income, len(p.hand)) for p in state.players]
        if decision.kind == DecisionKind.MOVEMENT:  # the moves offered against a fresh search
            offered = {(o.general, o.dest) for o in decision.options if type(o) is Move and not o.passage}
            fresh = {(g.name, dest) for g in state.generals.values()
                     if g.owner == self.seat and g.captor is None and not g.moved
                     for dest, _ in core.reachable(g.name, False)}
            assert offered == fresh
        return super().choose(view, decision)


def test_values_kept_across_decisions_equal_fresh_ones_at_every_decision() -> None:
    """CB-3, TI-1, V-1, VW-1: the defences, region statuses, victory points, generals by hex and
    players' figures the views keep from one decision to the next (until a write touches them)
    are never stale."""
    for seed in (3, 4):
        strategies = [KeptValuesAuditor(seat, random.Random(strategy_seed(seed, seat))) for seat in range(4)]
        game = Game.new(default_board(), Rules(), strategies, seed)
        assert game.play().decisions > 500


def test_vw_2_an_equal_answer_is_accepted_and_only_real_choices_are_asked() -> None:
    """VW-2: an answer equal to an offered option is accepted (the engine applies its own
    option); a decision with a single option is never put to the strategy."""
    g = blank_game(2, strategies=[
        Scripted(0, lambda v, d: Choose("Joab") if d.kind == "vote" else None),
        Scripted(1, lambda v, d: Choose("Joab") if d.kind == "vote" else None)])
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    g.run_phase()
    assert g.state.king == "Joab"
    assert not [d for s in g.strategies for d in s.asked if len(d.options) < 2]
    table = Table.new(default_board(), Rules(), 1, players=2)
    offered = table.decision.options
    equal = type(offered[1])(*offered[1])  # equal to an option, not the engine's own object
    chosen = table.apply(equal)
    assert chosen == equal and type(chosen) is type(equal) and chosen in offered


class Recorder(RandomStrategy):
    """A random player that checks, at every decision, what it is shown and asked against the
    live game (which the test finds through gc; an honest strategy never does)."""

    name = "recorder"

    def __init__(self, seat, rng):
        super().__init__(seat, rng)
        self.decisions = 0
        self.game = None  # found once through gc: a search of every object is slow

    def choose(self, view, decision):
        self.decisions += 1
        assert decision.seat == self.seat == view.seat
        assert isinstance(decision.kind, DecisionKind) and len(decision.options) >= 2
        self.game = self.game or game_of(view)
        state = self.game.state
        assert view.hand == tuple(state.players[self.seat].hand)
        assert view.round == state.round and view.coins(1) == state.players[1].coins
        assert [g.troops for g in view.generals.values()] == [g.troops for g in state.generals.values()]
        return super().choose(view, decision)


def test_vw_1_vw_2_whole_games_show_own_hand_and_offer_real_choices() -> None:
    """VW-1, VW-2: over whole random games every decision is put to its own seat, with its own
    hand and the current state in view and at least two options."""
    for seed in (1, 2):
        strategies = [Recorder(seat, random.Random(strategy_seed(seed, seat))) for seat in range(3)]
        result = play_game(default_board(), Rules(), strategies, seed, check_invariants=True)
        assert result.decisions == sum(s.decisions for s in strategies) > 0


def test_vw_2_play_game_reports_strategy_errors() -> None:
    """VW-2: `play_game` surfaces a bad strategy as StrategyError too."""
    class Liar(RandomStrategy):
        name = "liar"

        def choose(self, view, decision):
            return "not an option"

    strategies = [Liar(0, random.Random(0)), RandomStrategy(1, random.Random(1))]
    with pytest.raises(StrategyError, match="'liar'"):
        play_game(default_board(), Rules(), strategies, 3)


def test_the_board_a_strategy_sees_is_immutable() -> None:
    """The board is shared by every game and strategy: its tables are tuples and its regions a
    read-only mapping."""
    board: Board = default_board()
    with pytest.raises(TypeError):
        board.regions["Nowhere"] = None
    assert all(isinstance(getattr(board, f), tuple) for f in ("terrain", "neighbours", "ring", "storm_sealed"))
    assert isinstance(board.route_costs_to(board.settlements[0].hex), tuple)
