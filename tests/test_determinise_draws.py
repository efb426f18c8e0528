"""``Table.determinise`` draws from the caller's generator exactly what ``rng.shuffle`` of the
unseen cards, ``rng.shuffle`` of the deck and ``rng.getrandbits(64)`` would: no word more, none
fewer (the core fetches the generator's words in batches ahead of need)."""

from __future__ import annotations

import random

import pytest

from plsim._core import CoreRandom
from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.cards import Category, category_of
from plsim.rules import Rules

BOARD = default_board()
RULES = Rules()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_callers_generator_ends_where_its_own_calls_would_leave_it(players):
    answers = random.Random(players)
    table = Table.new(BOARD, RULES, players, players=players)
    count = 0
    while table.decision is not None and count < 600:
        if count % 23 == 0:
            seat = table.decision.seat
            state = table.state
            unseen = sum(len(p.hand) for p in state.players if p.seat != seat)
            unseen += sum(category_of(c) is Category.ONE_USE for c in state.deck)
            caller, reference = random.Random(count), random.Random(count)
            table.determinise(seat, caller)
            reference.shuffle(list(range(unseen)))
            reference.shuffle(list(range(len(state.deck))))
            reference.getrandbits(64)
            assert caller.getstate() == reference.getstate()
        table.apply(answers.choice(table.decision.options))
        count += 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_cores_generator_deals_the_world_a_random_random_of_its_seed_deals(players):
    """A native strategy's forecasts deal their world from the core's generator: the same
    world, and the generator left in the same state, as from ``random.Random`` of that seed."""
    answers = random.Random(players + 10)
    table = Table.new(BOARD, RULES, players, players=players)
    count = 0
    while table.decision is not None and count < 400:
        if count % 37 == 0:
            seat = table.decision.seat
            python, core = random.Random(count), CoreRandom(count)
            dealt = table.determinise(seat, python)
            assert table.determinise(seat, core).state_dict() == dealt.state_dict()
            assert core.getrandbits(64) == python.getrandbits(64)
        table.apply(answers.choice(table.decision.options))
        count += 1
