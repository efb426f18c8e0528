"""The searches' native play-outs (issue 47): the core's policies, ``Table.playout``,
``Table.simulate`` and ``rollout``/``mcts`` with a policy the core plays itself."""

from __future__ import annotations

import random

import pytest

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.errors import IllegalOption
from plsim.engine.result import GameResult
from plsim.play import new_game
from plsim.scenario import load_scenario
from plsim.strategy.registry import resolve, resolve_all
from strategies.evaluation import EVALUATION_PARAMS, Weights
from strategies.simulation import Policies

BOARD = default_board()
WEIGHTS = Weights.of({name: p.default for name, p in EVALUATION_PARAMS.items()}).values
MASK = (1 << 64) - 1


class SplitMix:
    """The core's play-out generator (``PolicyRng``), in Python: the check of ``simulate``."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def below(self, n: int) -> int:
        threshold = ((1 << 64) - n) % n
        while True:
            self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
            z = self.state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            product = (z ^ (z >> 31)) * n
            if product & MASK >= threshold:
                return product >> 64


def mid_game(seed: int, players: int = 4, round_: int = 4, rules=None) -> Table:
    """A table at the first decision of ``round_`` of a game answered at random."""
    table = Table.new(BOARD, rules or load_scenario(f"standard-{players}p").rules, seed, players=players)
    rng = random.Random(seed)
    while table.decision is not None and table.round < round_:
        table.apply(rng.choice(table.decision.options))
    return table


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_a_native_playout_from_a_clone_and_from_the_original_ends_in_the_same_state(policy):
    table = mid_game(3)
    copy = table.clone()
    answered = table.playout(11, "end", policy=policy)
    assert copy.playout(11, "end", policy=policy) == answered > 0
    assert copy.state_dict() == table.state_dict() and table.over and copy.result == table.result


def test_playout_stops_at_the_horizon_the_cap_or_the_seat_asked():
    table = mid_game(5)
    start = table.round
    table.clone().playout(1, "round", policy="heuristic")
    horizon = table.clone()
    horizon.playout(1, last_round=start + 1, policy="heuristic")
    assert horizon.over or horizon.round == start + 2
    assert table.clone().playout(1, decisions=7, policy="heuristic") == 7
    own = table.clone()
    own.playout(1, policy="heuristic", seat=2)
    assert own.over or own.decision.seat == 2
    with pytest.raises(ValueError, match="random, heuristic"):
        table.playout(1, policy="greedy")


@pytest.mark.parametrize("scenario", ["standard-2p", "standard-3p", "standard-5p", "standard-6p",
                                      "strong-canaanites", "rich-start", "low-wrath"])
def test_the_heuristic_answers_whole_games_legally_with_the_invariants_checked(scenario):
    rules = load_scenario(scenario).rules
    players = load_scenario(scenario).players
    for seed in range(3):
        table = Table.new(BOARD, rules, seed, players=players, check=True)
        rng = random.Random(seed)
        while (decision := table.decision) is not None:
            index = table.policy_choice(rng.getrandbits(64), "heuristic")
            table.apply(decision.options[index])  # raises IllegalOption, or InvariantError, if wrong
        assert table.result.end_reason != "unfinished"


def test_the_heuristic_reads_no_hidden_card():
    table = mid_game(7)
    seat = table.decision.seat
    answers = {table.determinise(seat, random.Random(i)).policy_choice(5, "heuristic") for i in range(8)}
    assert answers == {table.policy_choice(5, "heuristic")}


def test_simulate_is_the_python_driven_play_out_of_the_same_random_answers():
    world = mid_game(9)
    seat, last_round, cap, seed = world.decision.seat, world.round, 40, 1234
    candidates = [None, 0, len(world.decision.options) - 1]
    values = world.simulate(seat, candidates, seed, "random", last_round, cap, WEIGHTS)
    for candidate, value in zip(candidates, values):
        copy = world.clone()
        if candidate is not None:
            copy.answer(candidate)
        rng, played = SplitMix(seed), 0
        while played < cap and copy.decision is not None and copy.round <= last_round:
            copy.answer(rng.below(len(copy.decision.options)))
            played += 1
        assert 0 <= value <= 1 and value == copy.position_value(seat, WEIGHTS)
    assert world.decision is not None and world.round == last_round  # the world is left as it was
    with pytest.raises(IllegalOption):
        world.simulate(seat, [len(world.decision.options)], seed, "random", last_round, cap, WEIGHTS)


def play_search(entry: str, seed: int) -> tuple:
    """The answers of ``entry`` in seat 0 from round 3 to 5 of a game (heuristic rivals), and the
    state it ends in; an illegal answer raises."""
    table = mid_game(seed, round_=3)
    strategy = resolve_all([entry])[0].make(0, seed)
    answers = []
    while (decision := table.decision) is not None and table.round < 5:
        if decision.seat == 0:
            answers.append(table.apply(strategy.choose(table.view(0), decision)))  # IllegalOption if not
        else:
            table.answer(table.policy_choice(len(answers), "heuristic"))
    return tuple(answers), table.state_dict()


@pytest.mark.parametrize("entry", ["rollout:policy=heuristic,playouts=12", "mcts:policy=heuristic,iterations=24",
                                   "mcts:policy=random,iterations=12,rounds=2",
                                   "mcts:policy=heuristic,rivals=random,iterations=12,margin=0.02"])
def test_native_searches_answer_legally_and_the_same_for_a_seed(entry):
    first = play_search(entry, 4)
    assert first[0] and play_search(entry, 4) == first


def test_rivals_modelled_by_the_default_policy_are_the_search_without_rivals():
    plain = play_search("mcts:policy=heuristic,iterations=12", 5)
    assert play_search("mcts:policy=heuristic,rivals=heuristic,iterations=12", 5) == plain
    assert play_search("mcts:policy=heuristic,rivals=random,iterations=12", 5) != plain


def test_the_python_play_outs_seat_the_rivals_model_in_every_other_seat():
    policies = Policies(resolve("judge-rush").cls, 4, random.Random(1), resolve("random").cls, seat=2)
    assert [p.name for p in policies.players] == ["random", "random", "judge-rush", "random"]


def test_a_margin_keeps_the_guides_answer_unless_the_departure_beats_it_by_more():
    guarded = resolve_all(["mcts:margin=0.05"])[0].make(0, 1)
    assert guarded.kept(3, {0: 0.50, 3: 0.54}) == 0
    assert guarded.kept(3, {0: 0.50, 3: 0.56}) == 3
    assert guarded.kept(3, {3: 0.20}) == 3  # the guide's answer was never tried
    assert resolve_all(["mcts"])[0].make(0, 1).kept(3, {0: 0.90, 3: 0.10}) == 3  # no margin: the most visited


def test_with_the_widest_margin_the_search_plays_its_guides_game():
    """The guide's answer is the root's first child, so at margin 1 (values lie in [0, 1]) it is
    always kept: the game is the one the guide plays in that seat, whatever the search saw."""
    def game(first: str) -> GameResult:
        return new_game("standard-4p", [first, "judge-rush", "random", "judge-rush"], seed=11).play()

    assert game("mcts:margin=1,iterations=3,depth=20") == game("judge-rush")


def test_a_native_tree_refuses_a_decision_of_another_seat():
    table = mid_game(2)
    view = table.view((table.decision.seat + 1) % 4)
    with pytest.raises(ValueError, match="not"):
        view.search_tree([0], 0.35, 1.5, 0.5, table.round, 80, "heuristic", WEIGHTS)


@pytest.mark.parametrize("entry", ["rollout:policy=heuristic,ms=5", "mcts:policy=heuristic,ms=5"])
def test_a_time_budget_plays_at_least_one_world_and_answers_an_option(entry):
    table = mid_game(6)
    seat = table.decision.seat
    strategy = resolve_all([entry])[0].make(seat, 1)
    answer = strategy.choose(table.view(seat), table.decision)
    assert answer in table.decision.options and strategy.simulations >= 1



def test_a_native_playout_releases_the_gil_so_other_python_threads_run_meanwhile():
    """Issue 58: play-outs, simulations and tree iterations touch no Python object; they run
    without the GIL. With a switch interval of a minute no thread takes the GIL from another: a
    thread that counts (giving the GIL back each time) counts during a play-out only if the
    play-out let go of it."""
    import sys
    import threading
    import time

    table = mid_game(5, round_=1)
    done, counter = threading.Event(), [0]

    def count() -> None:
        while not done.is_set():
            counter[0] += 1
            time.sleep(0)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(60)
    thread = threading.Thread(target=count)
    try:
        thread.start()
        while counter[0] == 0:
            time.sleep(0.001)
        moved = []
        for policy in ("random", "heuristic"):
            before = counter[0]
            table.clone().simulate(0, [None] * 64, 1, policy, 10**6, 10**6, WEIGHTS)
            moved.append(counter[0] - before)
            playouts = 0  # a play-out takes a few milliseconds: the count over twenty
            for seed in range(20):
                before = counter[0]
                table.clone().playout(seed, "end", policy=policy)
                playouts += counter[0] - before
            moved.append(playouts)
    finally:
        done.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert all(m > 0 for m in moved), moved
