"""Section 16 of RULES.md, what a strategy may see and do (VW-1, VW-2).

A strategy sees the game through its seat's ``View``: the public state and its own hand, no
other hand, no deck order, no dice. It answers a ``Decision`` with one of the options offered;
anything else, or raising, is a ``StrategyError`` naming the strategy and the decision.
"""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest
from helpers import Scripted, add_general, blank_game, give_hand, make_judge, own

from plsim.board import default_board
from plsim.engine import StrategyError, play_game, strategy_seed
from plsim.engine.cards import Phase
from plsim.rules import Rules
from plsim.strategy import Strategy, View
from plsim.strategy import PASS, Choose, PlayCard
from strategies.random_strategy import RandomStrategy


def position():
    """Seat 0 holds an Assassin and a Tax, seat 1 a Justice and a Blessing."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    mine = give_hand(g, 0, "Assassin", "Tax")
    theirs = give_hand(g, 1, "Justice", "Blessing")
    return g, mine, theirs


def public_strings(view: View) -> set[str]:
    """Every string reachable from the view's public members (static board and rules aside),
    including those of seat-dependent accessors called for every seat."""
    found: set[str] = set()
    seen: set[int] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            found.add(value)
            return
        if isinstance(value, random.Random):
            found.add("<a random generator>")
            return
        if id(value) in seen or value is None or isinstance(value, (int, float, bool)):
            return
        seen.add(id(value))
        if isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                walk(item)
        elif dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name))

    for name in dir(view):
        if name.startswith("_") or name in ("board", "rules", "reachable", "generals_at"):
            continue
        member = getattr(view, name)
        if callable(member):
            if name in ("coins", "hand_size", "home", "vp"):
                for seat in range(view.n_players):
                    walk(member(seat))
            elif not any(p.default is p.empty for p in inspect.signature(member).parameters.values()):
                walk(member())
        else:
            walk(member)
    for hex_id in list(view.generals):
        walk(view.generals_at(view.generals[hex_id].hex))
    return found


def test_vw_1_a_view_shows_its_own_hand_and_only_the_size_of_others() -> None:
    """VW-1: a strategy sees its own hand (View.hand) and, of another player's hand, only its
    size (View.hand_size)."""
    g, mine, theirs = position()
    view0, view1 = g.views
    assert sorted(view0.hand) == sorted(mine)
    assert sorted(view1.hand) == sorted(theirs)
    assert view0.hand_size(1) == 2 and view1.hand_size(0) == 2
    assert isinstance(view0.hand, tuple)  # a copy: the strategy cannot play with the real hand


def test_vw_1_no_public_member_reveals_another_hand_the_deck_order_or_dice() -> None:
    """VW-1: nothing public in a view names a card of another hand or of the deck, and no
    random generator (future dice) is reachable; only the deck's size is known."""
    g, mine, theirs = position()
    view0 = g.views[0]
    strings = public_strings(view0)
    assert set(mine) <= strings  # the walk does find hands: its own
    assert not set(theirs) & strings
    assert not set(g.state.deck) & strings
    assert "<a random generator>" not in strings
    assert view0.deck_size == len(g.state.deck)


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


def test_vw_2_a_strategy_cannot_change_the_state() -> None:
    """VW-2: the view is read-only; a strategy that changes the game state through it is
    caught (games built with checks on) as a StrategyError."""
    class Meddler(Strategy):
        name = "meddler"

        def choose(self, view, decision):
            view.generals["Saul"].troops = 6
            return decision.options[0]

    g, _, _ = position()
    g.strategies[0] = Meddler(0, random.Random(0))
    with pytest.raises(StrategyError, match="meddler"):
        g.run_phase()


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
    assert g.decide(0, "anything", [PASS]) is PASS
    assert not [d for s in g.strategies for d in s.asked if len(d.options) < 2]


class Recorder(RandomStrategy):
    """A random player that checks, at every decision, what it is shown and asked."""

    name = "recorder"

    def __init__(self, seat, rng):
        super().__init__(seat, rng)
        self.decisions = 0

    def choose(self, view, decision):
        self.decisions += 1
        assert decision.seat == self.seat == view.seat
        assert len(decision.options) >= 2
        assert list(view.hand) == view._state.players[self.seat].hand  # the test peeks; strategies may not
        return super().choose(view, decision)


def test_vw_1_vw_2_whole_games_show_own_hand_and_offer_real_choices() -> None:
    """VW-1, VW-2: over whole random games every decision is put to its own seat, with its own
    hand in view and at least two options."""
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
