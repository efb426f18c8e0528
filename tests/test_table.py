"""The step API (``plsim.engine.Table``): a game the caller steps, copies, re-deals and saves at
any decision, playing exactly the games ``play_game`` plays."""

from __future__ import annotations

import json
import random

import pytest

from plsim.board import default_board
from plsim.engine import IllegalOption, Table, play_game
from plsim.engine.cards import Category, category_of
from plsim.engine.game import choose
from plsim.engine.position import position_to_dict, state_to_dict
from plsim.engine.view import View, _Lazy
from plsim.rules import Rules
from plsim.strategy.registry import resolve_all
from tests.helpers import hidden_redealt

BOARD = default_board()
RULES = Rules()
LINEUPS = [
    ("random",) * 4,
    ("economist", "warlord", "judge-rush", "schemer"),
    ("prophet", "economist", "warlord", "judge-rush"),
]


def strategies(entries, seed):
    return [spec.make(seat, seed) for seat, spec in enumerate(resolve_all(list(entries)))]


def recorded_game(entries, seed, rules=RULES):
    """Play a game through a Table with the strategies; return its result and every answer, as
    the index of the option chosen."""
    players = strategies(entries, seed)
    table = Table.new(BOARD, rules, seed, players=len(players))
    answers = []
    while (decision := table.decision) is not None:
        option = choose(table, players, decision)
        answers.append(decision.options.index(option))
        table.apply(option)
    return table.result, answers


def replay(table, answers):
    """Answer a table's decisions with recorded option indices, to the end."""
    for index in answers:
        table.apply(table.decision.options[index])
    assert table.over
    return table.result


def public(view: View) -> dict:
    """Everything a view shows, by attribute."""
    return {name: getattr(view, name) for name, value in vars(View).items() if isinstance(value, _Lazy)}


@pytest.mark.parametrize("entries", LINEUPS, ids=lambda e: ",".join(e))
def test_a_table_stepped_with_the_strategies_plays_the_game_play_game_plays(entries):
    for seed in (3, 17):
        stepped, _ = recorded_game(entries, seed)
        assert stepped == play_game(BOARD, RULES, strategies(entries, seed), seed)


def test_a_table_starts_at_the_first_decision_and_has_none_once_over():
    table = Table.new(BOARD, RULES, 5, players=4)
    assert table.decision is not None and table.decision.kind == "home" and not table.over
    result, answers = recorded_game(("random",) * 4, 5)
    replay(table, answers)
    assert table.decision is None and table.result == result
    with pytest.raises(IllegalOption, match="game is over"):
        table.apply(None)


def test_apply_refuses_an_option_it_did_not_offer_and_changes_nothing():
    table = Table.new(BOARD, RULES, 5, players=4)
    before = state_to_dict(table.state)
    with pytest.raises(IllegalOption, match="not an option of decision 'home'"):
        table.apply("Jerusalem")
    assert state_to_dict(table.state) == before


@pytest.mark.parametrize("entries", LINEUPS, ids=lambda e: ",".join(e))
def test_a_clone_plays_on_as_the_original_and_never_changes_it(entries):
    seed = 11
    result, answers = recorded_game(entries, seed)
    for at in range(0, len(answers), max(1, len(answers) // 12)):
        table = Table.new(BOARD, RULES, seed, players=4)
        for index in answers[:at]:
            table.apply(table.decision.options[index])
        frozen = json.dumps(state_to_dict(table.state), sort_keys=True)
        rng_state = table.rng.getstate()
        clone = table.clone()
        assert replay(clone, answers[at:]).final_vp == result.final_vp
        assert clone.result == result
        assert json.dumps(state_to_dict(table.state), sort_keys=True) == frozen  # the clone's play reached nothing
        assert table.rng.getstate() == rng_state
        assert replay(table, answers[at:]) == result


def test_determinise_keeps_what_the_seat_sees_and_redeals_the_rest():
    seed = 23
    result, answers = recorded_game(("economist", "warlord", "judge-rush", "schemer"), seed)
    table = Table.new(BOARD, RULES, seed, players=4)
    changed_hands = changed_decks = 0
    for count, index in enumerate(answers):
        if count % 40 == 0 and table.decision is not None:
            seat = table.decision.seat
            seen = public(table.view(seat))
            other = table.determinise(seat, random.Random(count))
            assert public(other.view(seat)) == seen
            assert other.decision == table.decision
            for player, redealt in zip(table.state.players, other.state.players):
                assert len(redealt.hand) == len(player.hand)
                assert all(category_of(c) is Category.ONE_USE for c in redealt.hand)
                if player.seat != seat:
                    changed_hands += redealt.hand != player.hand
            changed_decks += other.state.deck != table.state.deck
            assert sorted(other.state.deck + [c for p in other.state.players for c in p.hand]) == \
                sorted(table.state.deck + [c for p in table.state.players for c in p.hand])
            assert other.rng.getstate() != table.rng.getstate()
            assert not other.result.card_events  # its records name the cards others drew: dropped
        table.apply(table.decision.options[index])
    assert changed_hands > 0 and changed_decks > 0


def test_determinise_depends_on_what_the_seat_saw_not_on_how_the_hidden_cards_lie():
    seed = 31
    _, answers = recorded_game(("economist", "warlord", "judge-rush", "schemer"), seed)
    table = Table.new(BOARD, RULES, seed, players=4)
    for index in answers[:400]:
        table.apply(table.decision.options[index])
    seat = table.decision.seat
    shuffled = hidden_redealt(table, seat, random.Random(7))
    assert state_to_dict(shuffled.state) != state_to_dict(table.state)
    one, two = table.determinise(seat, random.Random(3)), shuffled.determinise(seat, random.Random(3))
    assert json.dumps(state_to_dict(one.state), sort_keys=True) == json.dumps(state_to_dict(two.state), sort_keys=True)
    assert one.rng.getstate() == two.rng.getstate()


def test_a_determinised_clone_plays_to_an_end():
    seed = 29
    _, answers = recorded_game(("random",) * 4, seed)
    table = Table.new(BOARD, RULES, seed, players=4)
    for index in answers[:300]:
        table.apply(table.decision.options[index])
    other = table.determinise(table.decision.seat, random.Random(1))
    rng = random.Random(2)
    while other.decision is not None:
        other.apply(rng.choice(other.decision.options))
    assert other.over and other.result.end_reason in ("victory", "draw", "collapse", "round_limit")


def test_a_native_playout_is_the_same_from_equal_tables_and_stops_where_asked():
    table = Table.new(BOARD, RULES, 31, players=4)
    start = table.round
    copy, other = table.clone(), table.clone()
    answered = table.playout(7, "round")
    assert answered > 0 and table.round == start + 1 and table.decision is not None
    assert copy.playout(7, "round") == answered and copy.state_dict() == table.state_dict()
    other.playout(8, "round")
    assert other.state_dict() != table.state_dict()
    three = table.clone()
    assert three.playout(1, 3) == 3 and three.decision is not None
    assert table.playout(5) > 0 and table.over and table.decision is None
    assert table.result.end_reason in ("victory", "draw", "collapse", "round_limit")
    with pytest.raises(ValueError, match="until"):
        copy.playout(1, "forever")


@pytest.mark.parametrize("entries", LINEUPS[1:], ids=lambda e: ",".join(e))
def test_a_position_saved_at_any_decision_continues_as_the_uninterrupted_game(entries):
    seed = 31
    result, answers = recorded_game(entries, seed)
    table = Table.new(BOARD, RULES, seed, players=4)
    for count, index in enumerate(answers):
        if count % 97 == 0:
            data = json.loads(json.dumps(position_to_dict(table.state_dict(), table.rules, BOARD.name, seed, table.rng)))
            loaded = Table.from_position(data, BOARD)
            assert loaded.decision == table.decision
            assert replay(loaded, answers[count:]).final_vp == result.final_vp
            assert loaded.result.rounds == result.rounds and loaded.result.decisions == result.decisions
        table.apply(table.decision.options[index])
