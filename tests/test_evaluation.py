"""The search strategies' evaluation (strategies/evaluation.py, issue 47): the recorded positions
read as they were, small positions built by hand read as the evaluation's definition says, and
nothing hidden counted.

tests/fixtures/evaluation.json holds every seat's terms and values at 200 positions of random
games of 2 to 6 players, written by ``scripts/evaluation_fixture.py`` while the evaluation was
computed in Python, and written again when issue 57's rules moved the random games to other
positions. The evaluation itself did not change: the core before that change, given the new
positions as saved states, reads the same terms at all 200 and the same values at the 182 whose
game is still running (an ended game is valued by its outcome, which a saved state does not
carry).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from plsim import _core
from plsim.engine import Table
from plsim.engine.game import choose
from plsim.rules import Rules, with_params
from plsim.strategy.registry import resolve
from strategies.evaluation import EVALUATION_PARAMS, FEATURES, Weights, position_value, seat_features, value_of_margin
from tests.helpers import add_general, blank_game, hex_of, hidden_redealt, own, plain_hex_near

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from evaluation_fixture import record, state_digest, table_at  # noqa: E402  (the recorder's own reading)

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "evaluation.json").read_text())
CHUNK = 50
DEFAULTS = Weights.of({k: p.default for k, p in EVALUATION_PARAMS.items()})


def recorded_table(row: dict) -> Table:
    from plsim.board import default_board

    rules = with_params(Rules(), FIXTURE["switches"][row["rules"]])
    return table_at(default_board(), rules, row["seed"], row["players"], row["decisions"])


def flat(rows: list[list[float]]) -> list[float]:
    return [x for row in rows for x in row]


@pytest.mark.parametrize("start", range(0, len(FIXTURE["positions"]), CHUNK))
def test_the_recorded_positions_are_evaluated_as_they_were(start):
    for row in FIXTURE["positions"][start:start + CHUNK]:
        table = recorded_table(row)
        where = f"position seed {row['seed']}, {row['players']} players, {row['decisions']} decisions"
        assert state_digest(table) == row["state"], f"{where}: the engine no longer plays to this position"
        now = record(table, row["players"])
        for key in ("features", "capped_no_reach", "values"):
            assert flat(now[key]) == pytest.approx(flat(row[key]), abs=1e-9, rel=0), f"{where}: {key}"


def test_the_recorded_positions_cover_every_term_player_count_and_rule_set():
    rows = FIXTURE["positions"]
    assert len(rows) >= 200
    assert {r["players"] for r in rows} == {2, 3, 4, 5, 6}
    assert {r["rules"] for r in rows} == set(range(len(FIXTURE["switches"])))
    assert any(r["over"] for r in rows) and not all(r["over"] for r in rows)
    for i, name in enumerate(FEATURES):
        assert sum(seat[i] != 0 for r in rows for seat in r["features"]) >= 20, name


def test_a_seat_s_terms_and_value_do_not_depend_on_what_it_cannot_see():
    rows = [r for r in FIXTURE["positions"] if not r["over"]][::20]
    for row in rows:
        table = recorded_table(row)
        for seat in range(row["players"]):
            copy = hidden_redealt(table, seat, random.Random(seat))
            assert [list(seat_features(copy.view(seat), s, 30)) for s in range(row["players"])] == row["features"]
            assert position_value(copy, seat, DEFAULTS) == row["values"][0][seat]


def test_the_view_and_the_table_read_the_same_terms_and_the_worth_weighs_them():
    row = next(r for r in FIXTURE["positions"] if not r["over"] and r["players"] == 5)
    table = recorded_table(row)
    view = table.view(1)
    for seat, features in enumerate(row["features"]):
        assert view.seat_features(seat, 30) == table.seat_features(seat, 30) == tuple(features)
        weighed = sum(w * t for w, t in zip(DEFAULTS.vector, features))
        assert view.seat_worth(seat, DEFAULTS.values) == pytest.approx(weighed, abs=1e-12, rel=0)


def test_a_seat_outside_the_game_is_refused():
    table = recorded_table(FIXTURE["positions"][0])
    players = FIXTURE["positions"][0]["players"]
    with pytest.raises(ValueError, match="not a seat"):
        table.seat_features(players, 30)
    with pytest.raises(ValueError, match="not a seat"):
        table.position_value(-1, DEFAULTS.values)


def test_a_finished_game_is_worth_its_outcome():
    from plsim.board import default_board

    players = [resolve("judge-rush").make(seat, 3) for seat in range(3)]
    table = Table.new(default_board(), Rules(), 3, players=3)
    while (decision := table.decision) is not None:
        table.apply(choose(table, players, decision))
    winners = table.result.winners
    assert table.over and winners
    assert [position_value(table, s, DEFAULTS) for s in range(3)] == [
        1 / len(winners) if s in winners else 0.0 for s in range(3)]


def test_a_seat_level_with_its_best_rival_has_one_chance_in_the_number_of_players():
    assert value_of_margin(0.0, 4.0, 5) == pytest.approx(0.2)
    assert value_of_margin(4.0, 4.0, 2) == pytest.approx(1 / (1 + 1 / 2.718281828459045))
    assert value_of_margin(-1e3, 4.0, 3) < 1e-100


def terms(game, seat: int, coin_cap: int = 30) -> dict[str, float]:
    return dict(zip(FEATURES, seat_features(game.view(seat), seat, coin_cap)))


def test_a_region_owned_whole_with_a_walled_village_is_a_title_one_purchase_away():
    game = blank_game(4)
    for name, garrison in (("Sidon", 2), ("Zarephath", 1), ("Tyre", 1), ("Achzib", 0)):
        own(game, name, 0, garrison=garrison, wall=name == "Sidon")
    add_general(game, "Saul", 0, "Achzib", troops=3)  # Achzib is held by a general alone
    own(game, "Dor", 0)  # neither garrison nor general: it falls unowned (ST-9), worth nothing
    got = terms(game, 0)
    share = (1 + 1 + 1 + 0.6) / 4
    assert got["titles"] == pytest.approx(share * share + 0.25 + 0.5)
    assert got["settlements"] == pytest.approx(3.6)
    village = game.rules.income.village
    assert got["income"] == pytest.approx(3.6 * village)
    assert got["army"] == 2 + 1 + 1 + (2 + 3)  # the garrisons and Saul's strength with his troops


def test_a_region_still_open_counts_the_square_of_the_share_held():
    game = blank_game(4)
    own(game, "Sidon", 0, garrison=1)
    got = terms(game, 0)
    assert got["titles"] == pytest.approx((1 / 4) ** 2)  # the other three are the Canaanites'


def test_a_free_general_next_to_a_free_settlement_reaches_it_whole():
    game = blank_game(4)
    add_general(game, "Joab", 1, plain_hex_near(game, "Dor"))
    assert terms(game, 1)["reach"] == pytest.approx(1.0)


def test_a_target_farther_than_a_movement_is_discounted_per_movement_beyond_the_next():
    game = blank_game(4)
    far = 71  # Dan (free) is the nearest settlement, 8 moves away
    assert game.board.route_costs_to(hex_of(game, "Dan"))[far] == 8
    add_general(game, "Joshua", 1, far)  # 4 moves: Dan is two Movements away
    assert terms(game, 1)["reach"] == pytest.approx(0.6)


def test_a_rival_general_in_reach_threatens_a_settlement_by_its_chance_of_taking_it():
    game = blank_game(4)
    own(game, "Dor", 0, garrison=1)
    add_general(game, "Joab", 2, plain_hex_near(game, "Dor"), troops=2)
    chance = _core.win_probability(4 + 2, 1, game.rules.combat.dice, game.rules.dice.sides)
    assert terms(game, 0)["threat"] == pytest.approx(-chance)


def test_w_6_the_threat_of_a_pair_bound_for_a_settlement_falls_with_each_invader_a_card_kills():
    """W-6: the threat term reads a loose pair by the invaders it has left, so the search's
    evaluation sees an invader killed by a card: the one left of two strikes Dor with its own
    strength only (W-4)."""
    from plsim.engine.state import InvaderPair
    from plsim.strategy import PlayCard
    from tests.helpers import cardplay, give_hand, sid

    game = blank_game(4, rules={"combat": {"dice": 1}})
    dor = own(game, "Dor", 0, garrison=8, wall=True)  # defends with 8 + 4 (ST-4)
    names = [game.state.invader_pool.pop(0), game.state.invader_pool.pop(0)]
    game.state.pairs.append(InvaderPair(names, [6, 6], target=dor))
    strength = game.rules.invaders.strength
    both = _core.win_probability(2 * (strength + 6), 8 + 4, game.rules.combat.dice, game.rules.dice.sides)
    assert terms(game, 0)["threat"] == pytest.approx(-both)
    game.state.pairs[0].at = sid(game, "Dor")
    add_general(game, "Ehud", 1, "Megiddo")
    own(game, "Megiddo", 1, garrison=1)
    [card] = give_hand(game, 1, "Assassin")
    game.run(cardplay.play_card, 1, PlayCard(card, names[0], "Ehud"))
    one = _core.win_probability(strength + 6, 8 + 4, game.rules.combat.dice, game.rules.dice.sides)
    assert terms(game, 0)["threat"] == pytest.approx(-one) and one < both
