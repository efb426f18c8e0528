"""The invaders' forecast (plsim.engine.forecast): a pair's path played on copies of the game by
the engine's own steps (W-3, W-4, W-5, CB-4, V-2), never touching the game it copies."""

from __future__ import annotations

import json
import random

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.arithmetic import invader_strength, next_on_ring
from plsim.engine.forecast import invader_path
from plsim.engine.game import choose
from plsim.engine.position import state_to_dict
from plsim.rules import Rules
from plsim.strategy.registry import resolve_all

BOARD = default_board()
RULES = Rules()


def mid_game(seed: int = 11, decisions: int = 500) -> Table:
    players = [spec.make(seat, seed) for seat, spec in enumerate(resolve_all(["economist", "warlord", "judge-rush",
                                                                              "schemer"]))]
    table = Table.new(BOARD, RULES, seed, players=4)
    for _ in range(decisions):
        table.apply(choose(table, players, table.decision))
    return table


def player_settlements(table: Table) -> list[int]:
    return [st.id for st in table.state.settlements if st.standing and st.owner is not None and st.owner >= 0]


def test_w3_w4_a_new_pair_strikes_its_first_target_first_at_its_rule_strength():
    table = mid_game()
    first = player_settlements(table)[0]
    path = invader_path(table, random.Random(1), first=first)
    strike = path.strikes[0]
    assert strike.sid == first and strike.owner == table.state.settlements[first].owner
    troops = [RULES.invaders.troops] * RULES.invaders.per_pair
    assert strike.strength == invader_strength(RULES, troops)


def test_the_game_forecast_on_is_untouched_and_one_generator_gives_one_path():
    table = mid_game()
    before = json.dumps(state_to_dict(table.state), sort_keys=True)
    rng_state = table.rng.getstate()
    first = player_settlements(table)[3]
    paths = [invader_path(table, random.Random(5), first=first) for _ in range(2)]
    assert paths[0] == paths[1]
    assert json.dumps(state_to_dict(table.state), sort_keys=True) == before
    assert table.rng.getstate() == rng_state


def test_cb4_the_first_attack_razes_as_often_as_the_battle_odds_say():
    table = mid_game()
    view = table.view(0)
    rng = random.Random(2)
    strength = invader_strength(RULES, [RULES.invaders.troops] * RULES.invaders.per_pair)
    odds = {sid: view.win_probability(strength, view.settlement_defence(sid)) for sid in player_settlements(table)}
    uncertain = [sid for sid, p in odds.items() if 0.05 < p < 0.95]
    assert uncertain  # the position has battles whose outcome the dice decide
    for first in uncertain + [sid for sid, p in odds.items() if p >= 0.95][:2]:
        runs = 400
        razed = sum(invader_path(table, rng, first=first, steps=1).strikes[0].razed for _ in range(runs))
        p = odds[first]
        assert abs(razed / runs - p) <= 4 * (p * (1 - p) / runs) ** 0.5 + 0.01, (first, razed / runs, p)


def test_w5_after_each_raze_the_pair_jumps_to_the_next_player_settlement_on_the_ring():
    table = mid_game()
    rng = random.Random(3)
    long_paths = 0
    for first in player_settlements(table):
        path = invader_path(table, rng, first=first, steps=6)
        land = table.clone().state
        for before, after in zip(path.strikes, path.strikes[1:]):
            assert before.razed
            land.settlements[before.sid].razed = True
            land.settlements[before.sid].owner = None
            razed_land = Table.from_state(BOARD, RULES, land).view(0)
            assert after.sid == next_on_ring(razed_land, before.sid)
            long_paths += 1
        assert path.strikes[-1].razed or not path.collapsed
    assert long_paths > 0


def test_troops_bought_before_the_attack_make_it_fail_more_often():
    table = mid_game()
    first = player_settlements(table)[1]
    garrison = RULES.limits.garrison
    runs = 200
    plain = sum(invader_path(table, random.Random(i), first=first, steps=1).strikes[0].razed for i in range(runs))
    braced = sum(invader_path(table, random.Random(i), first=first, steps=1, buy=lambda sid, step: garrison)
                 .strikes[0].razed for i in range(runs))
    assert braced < plain
