"""The search strategies (issue 23): one answer for one seed at an iteration budget, and never a
look at what the seat cannot see."""

import random
import re
import time

import pytest

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.game import choose
from plsim.rules import Rules
from plsim.strategy import DecisionKind, StrategyParamError
from plsim.strategy.registry import resolve, resolve_all
from strategies.mcts import Mcts
from strategies.plan_search import Arm, PlanSearch
from tests.helpers import hidden_redealt

CHEAP = {
    "lookahead": "lookahead",
    "rollout": "rollout:playouts=4,candidates=2,depth=30",
    "mcts": "mcts:iterations=6,depth=30",
    "mcts-plans": "mcts:plans=warlord+schemer,iterations=3",
}
SEAT = 0


def position(seed: int = 3, kind: DecisionKind = DecisionKind.MOVEMENT, round_: int = 3) -> Table:
    """A 4-player game of judge-rush players stopped at seat 0's first ``kind`` decision of ``round_``."""
    players = [spec.make(seat, seed) for seat, spec in enumerate(resolve_all(["judge-rush"] * 4))]
    table = Table.new(default_board(), Rules(), seed, players=4)
    while (d := table.decision) is not None:
        if d.seat == SEAT and d.kind is kind and table.state.round >= round_ and len(d.options) > 2:
            return table
        table.apply(choose(table, players, d))
    raise AssertionError("the game ended before the position")


def answer(entry: str, table: Table, game_seed: int = 11):
    strategy = resolve(entry).make(SEAT, game_seed)
    return strategy.choose(table.view(SEAT), table.decision)


@pytest.mark.parametrize("name", sorted(CHEAP))
def test_one_seed_gives_one_answer_at_an_iteration_budget(name):
    table = position()
    first = answer(CHEAP[name], table)
    assert first in table.decision.options
    assert answer(CHEAP[name], table.clone()) == first
    assert answer(CHEAP[name], table) == first


@pytest.mark.parametrize("name", sorted(CHEAP))
def test_the_answer_does_not_depend_on_what_the_seat_cannot_see(name):
    table = position(kind=DecisionKind.PURCHASE)
    assert sum(len(p.hand) for p in table.state.players if p.seat != SEAT) + len(table.state.deck) > 2
    expected = answer(CHEAP[name], table)
    rng = random.Random(5)
    for _ in range(3):
        permuted = hidden_redealt(table, SEAT, rng)
        assert permuted.view(SEAT).hand == table.view(SEAT).hand
        assert answer(CHEAP[name], permuted) == expected


def test_the_search_leaves_the_game_as_it_was():
    table = position()
    hands, deck = [list(p.hand) for p in table.state.players], list(table.state.deck)
    generator, decisions, pending = table.rng.getstate(), table.state.decisions, table.decision
    answer(CHEAP["mcts"], table)
    assert [list(p.hand) for p in table.state.players] == hands and table.state.deck == deck
    assert table.rng.getstate() == generator and table.state.decisions == decisions
    assert table.decision == pending


def test_a_millisecond_budget_answers_within_it():
    table = position()
    began = time.perf_counter()
    option = answer("mcts:ms=150,depth=30", table)
    assert option in table.decision.options
    assert time.perf_counter() - began < 1.5


@pytest.mark.parametrize("entry, words", [
    ("mcts:policy=lookahead", "policy='lookahead' searches itself"),
    ("rollout:policy=nobody-of-that-name", "policy='nobody-of-that-name'"),
    ("mcts:plans=warlord+rollout", "plans='rollout' searches itself"),
    ("mcts:plans=warlord+nobody", "plans='nobody'"),
    ("rollout:guide=mcts", "guide='mcts' searches itself"),
    ("mcts:policy=heuristic,guide=nobody", "guide='nobody'"),
])
def test_a_default_policy_or_plan_must_answer_at_once(entry, words):
    with pytest.raises(StrategyParamError, match=re.escape(words)):
        resolve(entry).make(0, 0)


@pytest.mark.parametrize("entry", [
    "mcts:policy=heuristic,guide=judge-rush,endgame=2,iterations=8",  # no one near 2 VP: no search
    "rollout:policy=heuristic,guide=judge-rush,tie=1,playouts=8",  # every option within tie of the best
])
def test_a_guide_answers_where_the_search_does_not_depart_from_it(entry):
    for kind in (DecisionKind.MOVEMENT, DecisionKind.PURCHASE):
        table = position(kind=kind)
        assert max(table.view(SEAT).vp(s) for s in range(4)) < 2
        assert answer(entry, table) == answer("judge-rush", table) != answer("heuristic", table)


def test_plan_search_tries_every_plan_once_then_the_best_uct_score():
    assert PlanSearch.select([Arm(2, 1.0), Arm(0, 0.0)], 2, 0.35) == 1
    assert PlanSearch.select([Arm(4, 2.0), Arm(1, 0.0)], 5, 0.0) == 0
    assert PlanSearch.select([Arm(4, 2.0), Arm(1, 0.0)], 5, 10.0) == 1
    assert PlanSearch.select([Arm(2, 1.0), Arm(2, 1.0)], 4, 0.35) == 0


def test_a_plan_is_chosen_at_the_first_decision_and_then_every_few_rounds():
    seed = 4
    players = [resolve("mcts:plans=warlord,iterations=2,every=3").make(0, seed),
               *(resolve("judge-rush").make(s, seed) for s in (1, 2, 3))]
    table = Table.new(default_board(), Rules(), seed, players=4)
    first_round = None
    while (d := table.decision) is not None and table.state.round <= 10:
        if d.seat == 0 and first_round is None:
            first_round = table.state.round
        table.apply(choose(table, players, d))
    choices = players[0].plans.choices
    assert choices[0][0] == first_round
    assert [later - earlier for (earlier, _), (later, _) in zip(choices, choices[1:])] == [3] * (len(choices) - 1)
    assert len(choices) >= 3 and {plan for _, plan in choices} <= {"judge-rush", "warlord"}


def test_a_plan_search_answers_with_the_chosen_plan():
    table = position(kind=DecisionKind.PURCHASE)
    view, decision = table.view(SEAT), table.decision
    strategy = resolve("mcts:plans=warlord+schemer,iterations=3").make(SEAT, 11)
    option = strategy.choose(view, decision)
    plan = strategy.plans.players[strategy.plans.current]
    assert strategy.plans.names[strategy.plans.current] == strategy.plans.choices[-1][1]
    assert plan.choose(view, decision) == option


def test_a_sampled_world_is_a_function_of_the_seat_s_information_and_the_generator():
    table = position(kind=DecisionKind.PURCHASE)
    permuted = hidden_redealt(table, SEAT, random.Random(8))
    worlds = [t.view(SEAT).determinise(random.Random(21)) for t in (table, permuted)]
    assert [p.hand for p in worlds[0].state.players] == [p.hand for p in worlds[1].state.players]
    assert worlds[0].state.deck == worlds[1].state.deck
    assert worlds[0].rng.getstate() == worlds[1].rng.getstate()



@pytest.mark.parametrize("tie, follows_policy", [(0.08, True), (0.02, False)])
def test_lookahead_overrides_its_policy_only_for_a_gain_beyond_tie(tie, follows_policy):
    table = position()
    view, decision = table.view(SEAT), table.decision
    strategy = resolve(f"lookahead:tie={tie}").make(SEAT, 11)
    policy_answer = strategy.policy(SEAT, random.Random(0)).choose(view, decision)
    best = next(i for i, o in enumerate(decision.options) if o != policy_answer)
    values = [0.4] * len(decision.options)
    values[best] = 0.6
    values[decision.options.index(policy_answer)] = 0.55  # 0.05 below the best
    strategy.one_step = lambda *_: list(values)
    expected = policy_answer if follows_policy else decision.options[best]
    assert strategy.choose(view, decision) == expected



def test_the_weights_fit_scores_positions_with_the_evaluation_s_own_value():
    import importlib.util
    import math
    from pathlib import Path

    import numpy as np

    from strategies.evaluation import EVALUATION_PARAMS, Weights, position_value, seat_features

    spec = importlib.util.spec_from_file_location("fit_evaluation", Path(__file__).parents[1] / "scripts" / "fit_evaluation.py")
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)
    table = position()
    weights = Weights.of({k: p.default for k, p in EVALUATION_PARAMS.items()})
    view = table.view(SEAT)
    features = np.array([[seat_features(view, s, weights.coin_cap) for s in range(4)]])
    won = np.array([[0.0, 1.0, 0.0, 0.0]])
    values = [position_value(table, s, weights) for s in range(4)]
    expected = -sum(math.log(v) if w else math.log(1 - v) for v, w in zip(values, won[0])) / 4
    assert fit.log_loss(np.array(weights.vector), features, won, weights.scale) == pytest.approx(expected, rel=1e-9)


def searched_game(monkeypatch, entry: str, seed: int, note) -> tuple[list, Table]:
    """``entry`` in seat 0 against three judge-rush, ``note(view, decision)`` called at every
    decision it searches: the players and the table."""
    search = Mcts.search

    def spying(self, view, decision, rng):
        note(view, decision)
        return search(self, view, decision, rng)

    monkeypatch.setattr(Mcts, "search", spying)
    players = [resolve(entry).make(0, seed), *(resolve("judge-rush").make(s, seed) for s in (1, 2, 3))]
    return players, Table.new(default_board(), Rules(), seed, players=4)


def test_with_endgame_mcts_searches_only_once_some_player_holds_that_many_vp(monkeypatch):
    searched_at, followed_at = [], []
    players, table = searched_game(monkeypatch, "mcts:endgame=2,iterations=2,depth=20", 5, lambda view, _: (
        searched_at.append(max(view.vp(s) for s in range(view.n_players)))))
    while (d := table.decision) is not None and len(searched_at) < 5:
        searches, points = len(searched_at), max(table.view(0).vp(s) for s in range(4))
        table.apply(choose(table, players, d))
        if d.seat == 0 and len(searched_at) == searches:
            followed_at.append(points)
    assert followed_at and max(followed_at) < 2
    assert len(searched_at) == 5 and min(searched_at) >= 2


def test_with_kinds_mcts_searches_only_those_decision_kinds_and_answers_the_rest_as_its_guide(monkeypatch):
    searched, kinds_seen = [], set()
    players, table = searched_game(monkeypatch, "mcts:kinds=movement+cards,iterations=2,depth=20", 3,
                                   lambda _, decision: searched.append(decision.kind))
    while (d := table.decision) is not None and len(searched) < 30:
        if d.seat == 0:
            kinds_seen.add(d.kind)
        table.apply(choose(table, players, d))
    assert {"purchase", "movement", "cards"} <= kinds_seen
    assert len(searched) == 30 and set(searched) <= {"movement", "cards"}


def test_an_unknown_decision_kind_is_refused_in_one_line():
    with pytest.raises(StrategyParamError, match="no decision kind movment"):
        resolve("mcts:kinds=movment").make(0, 1)


@pytest.mark.parametrize("points, threat, in_sight", [
    ((2, 1, 0, 1), False, True),   # the seat itself near the end
    ((2, 1, 0, 1), True, False),   # with threat its own VP do not count
    ((1, 0, 2, 0), True, True),    # a rival near the end
    ((1, 1, 1, 1), False, False),
])
def test_with_threat_the_endgame_search_watches_only_the_rivals_vp(points, threat, in_sight):
    class Points:
        n_players = 4

        def vp(self, seat):
            return points[seat]

    strategy = resolve(f"mcts:endgame=2,threat={str(threat).lower()}").make(0, 1)
    assert strategy.end_in_sight(Points()) is in_sight


def test_mcts_with_a_python_default_policy_plays_the_games_its_python_tree_played():
    """Issue 58: one implementation of the tree. With a default policy in Python (here the
    built-in one with its native path turned off) the strategy steps the worlds and the core's
    statistics choose (``View.tree_stats``, ``Table.select``); the game is the one the former
    Python tree (Node, select, widened) played, digest recorded with it."""
    from plsim.engine import play_game
    from plsim.runner.digest import game_digest
    from plsim.scenario import load_scenario

    search = resolve("mcts:iterations=16,depth=60,rounds=2,widen=1,alpha=0.7,c=0.8").make(0, 0)
    search.core_policy = None
    others = [resolve("zealot").make(1, 1), resolve("judge-rush").make(2, 2)]
    result = play_game(default_board(), load_scenario("standard-3p").rules, [search, *others], 0)
    assert search.simulations == 16
    assert (game_digest(result), result.end_reason, result.rounds) == ("e0a380b48944501d", "victory", 22)


def test_the_python_policy_tree_refuses_a_node_or_an_answer_it_does_not_hold():
    from plsim.engine.errors import IllegalOption

    table = position()
    view, options = table.view(SEAT), table.decision.options
    tree = view.tree_stats(list(range(len(options))), 0.35, 1.5, 0.5)
    index, node, new = table.select(tree, 0, None)
    assert (index, node, new) == (0, 1, True)
    with pytest.raises(ValueError, match="node 7 of a tree of 2"):
        table.select(tree, 7, 0)
    with pytest.raises(IllegalOption, match=f"option {len(options)} of a decision with {len(options)}"):
        table.select(tree, 1, len(options))
    with pytest.raises(ValueError, match="node 5 of a tree of 2"):
        tree.backup([0, 5], 1.0)
    tree.backup([0, 1], 0.25)
    assert (tree.visits, tree.root_children(), tree.best()) == (1, [(0, 1, 0.25)], 0)
