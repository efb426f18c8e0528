"""``Table.determinise`` draws from the caller's generator exactly what ``rng.shuffle`` of the
unseen cards, ``rng.shuffle`` of the deck and ``rng.getrandbits(64)`` would: no word more, none
fewer (the core fetches the generator's words in batches ahead of need)."""

from __future__ import annotations

import random

import pytest

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
