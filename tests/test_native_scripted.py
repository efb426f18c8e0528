"""The scripted strategies inside the core (issue 47): a play-out the core plays itself ends
where the same strategies asked decision by decision from Python end, a prophet's forecasts
drawing from the seed Python's ``Policies`` gives it. (While the Python strategies existed, this
test compared against them; tests/test_digest.py pins games they played.)"""

from __future__ import annotations

import random

import pytest

from plsim.board import default_board
from plsim.engine import Table
from plsim.scenario import load_scenario
from plsim.strategy.registry import resolve
from strategies.simulation import Policies, play_out

BOARD = default_board()
NATIVE = ["judge-rush", "economist", "warlord", "schemer", "zealot", "prophet"]


def start(seed: int, players: int = 4, round_: int = 0) -> Table:
    """A table at the first decision of ``round_`` of a game answered at random."""
    table = Table.new(BOARD, load_scenario(f"standard-{players}p").rules, seed, players=players)
    rng = random.Random(seed)
    while table.decision is not None and table.round < round_:
        table.apply(rng.choice(table.decision.options))
    return table


@pytest.mark.parametrize("name", NATIVE)
@pytest.mark.parametrize("players,round_", [(4, 0), (4, 3), (3, 5), (5, 2)])
def test_a_native_playout_by_a_scripted_strategy_ends_where_the_python_one_ends(name, players, round_):
    for seed in range(2):
        world = start(seed, players, round_)
        python, native = world.clone(), world.clone()
        played = play_out(python, Policies(resolve(name).cls, players, random.Random(seed)), 10**9, 10**9)
        assert native.playout(seed, "end", policy=name) == played > 0
        assert native.state_dict() == python.state_dict()
        assert native.result == python.result


def test_a_scripted_playout_does_not_depend_on_the_policy_seed():
    world = start(7, 4, 2)
    first = world.clone()
    first.playout(3, "round", policy="judge-rush")
    again = world.clone()
    again.playout(99, "round", policy="judge-rush")  # the seed only feeds random policies
    assert first.state_dict() == again.state_dict()


def test_the_base_class_is_not_a_play_out_policy():
    with pytest.raises(ValueError, match="judge-rush, economist, warlord, schemer, zealot or prophet"):
        start(1).playout(1, policy="scripted")
