"""The rule parameter tree: defaults are the rulebook's numbers, overrides are checked, dicts round-trip.

Each default test names the rule it pins (RULES.md and docs/rules.md), so `grep -r IN-4 tests/`
finds it.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import re

from plsim.rules import (
    MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError, param_spec, param_specs, rules_from_dict, rules_from_mapping,
    with_param,
)

R = Rules()


# --- defaults: the rulebook's numbers ---------------------------------------------------------


def test_rd_3_first_player_rotates() -> None:
    """RD-3: the first player moves one seat on each round."""
    assert R.turns.rotate_first_player is True


def test_mp_5_medium_garrison() -> None:
    """MP-5: Canaanite settlements start with the Medium garrison, 2 troops."""
    assert R.canaanites.garrison == 2


def test_st_10_default_costs() -> None:
    """ST-10: wall 5, development 6, troop 2; a garrison holds at most 10."""
    assert (R.costs.wall, R.costs.development, R.costs.troop) == (5, 6, 2)
    assert R.limits.garrison == 10


def test_st_4_wall_melts_4_2_0() -> None:
    """ST-4: a wall gives +4, +2, then 0 from the siege's third round."""
    assert R.defence.wall_by_siege_round == (4, 2, 0)


def test_st_8_city_melts_6_4_2_0() -> None:
    """ST-8: a Judge's city gives +6, +4, +2, then 0 from the fourth round."""
    assert R.defence.city_by_siege_round == (6, 4, 2, 0)


def test_st_5_developments() -> None:
    """ST-5: +2 income, at most 2 per settlement and 7 on the board, +6 loot each."""
    assert R.income.development == 2
    assert (R.limits.developments_per_settlement, R.limits.developments_on_board) == (2, 7)
    assert R.loot.development == 6


def test_st_7_tabernacle_and_guilt_sacrifice() -> None:
    """ST-7: the Tabernacle costs 30; a Guilt Sacrifice costs 20 for -3 Wrath (W-1)."""
    assert (R.costs.tabernacle, R.costs.guilt_sacrifice, R.wrath.guilt_sacrifice) == (30, 20, 3)


def test_in_1_settlement_values() -> None:
    """IN-1: a village yields 1, a city 3."""
    assert (R.income.village, R.income.city) == (1, 3)


def test_in_3_tax_collects_double() -> None:
    """IN-3: whoever plays Tax collects double the region's values."""
    assert R.income.tax_multiplier == 2


def test_in_4_start_coins() -> None:
    """IN-4: every player starts with 10 coins."""
    assert R.economy.start_coins == 10


def test_su_2_home_garrison_and_distance() -> None:
    """SU-2 (and SU-4): a home starts with 2 troops; homes are not adjacent, i.e. 2+ hexes apart."""
    assert (R.setup.home_garrison, R.setup.home_min_distance) == (2, 2)


def test_su_3_generals_and_cards() -> None:
    """SU-3: each player receives 2 generals and 2 cards."""
    assert (R.setup.generals, R.setup.cards) == (2, 2)


def test_dr_1_draw_one_card() -> None:
    """DR-1: each player draws 1 card a round."""
    assert R.cards.draw_per_round == 1


def test_dr_2_hand_limit() -> None:
    """DR-2: a hand holds at most 5 one-use cards."""
    assert R.cards.hand_limit == 5


def test_dr_3_event_slots() -> None:
    """DR-3: the Event Area has 3 slots."""
    assert R.cards.event_slots == 3


def test_cards_strengths_and_blessing() -> None:
    """Cards 9.2/9.3, CD-1: Blessing draws 2; Mercenaries +4, War Chariot +3, Goliath's Sword +3, Ark +3."""
    assert R.cards.blessing_draw == 2
    assert (R.cards.mercenaries_strength, R.cards.chariot_strength, R.cards.sword_strength) == (4, 3, 3)
    assert R.defence.ark == 3


def test_gn_1_mv_10_six_troops_per_general() -> None:
    """GN-1, MV-10: a general commands at most 6 troops."""
    assert R.limits.troops_per_general == 6


def test_mv_5_two_generals_per_settlement() -> None:
    """MV-5: a settlement holds at most 2 of one player's generals."""
    assert R.limits.generals_per_settlement == 2


def test_cb_5_mv_8_two_captives_per_settlement() -> None:
    """CB-5, MV-8: at most 2 captives per settlement; a captor moves a captive 2 hexes."""
    assert (R.limits.captives_per_settlement, R.limits.captive_moves) == (2, 2)


def test_cb_3_one_die_per_side() -> None:
    """CB-3, AN-2, 9.4: one six-sided die per side; the same die picks an event's terrain and
    rolls for Plague."""
    assert (R.combat.dice, R.dice.sides) == (1, 6)


def test_mp_3_two_to_six_players_in_one_home() -> None:
    """MP-3: a game has 2 to 6 players; maps, scenarios and plsim play read the same constants."""
    from plsim.board import loader
    from plsim import play, scenario

    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 6)
    assert loader.MIN_PLAYERS is MIN_PLAYERS and scenario.MAX_PLAYERS is MAX_PLAYERS
    assert play.MAX_PLAYERS is MAX_PLAYERS


def test_cb_6_losses() -> None:
    """CB-6: the winner loses half the loser's troops, rounded down."""
    assert R.combat.winner_losses == 0.5


def test_cb_7_loot() -> None:
    """CB-7: razing yields 3 for a village, 8 for a city, +6 per development."""
    assert (R.loot.village, R.loot.city, R.loot.development) == (3, 8, 6)


def test_w_1_wrath_sources() -> None:
    """W-1: Tax, Mercenaries, Assassin +1 each; killing a Prophet's carrier +3; Guilt Sacrifice -3."""
    w = R.wrath
    assert (w.tax, w.mercenaries, w.assassin, w.prophet_killed, w.guilt_sacrifice) == (1, 1, 1, 3, 3)


def test_w_2_threshold() -> None:
    """W-2: invaders at 13 Wrath, the cup empties to 0, at most 4 pairs loose."""
    assert (R.wrath.threshold, R.wrath.after_release, R.wrath.max_pairs) == (13, 0, 4)


def test_invaders_strength_and_troops() -> None:
    """Invaders 9.5, W-2, W-4: each invader has strength 3 and 6 troops; they come in pairs."""
    assert (R.invaders.strength, R.invaders.troops, R.invaders.per_pair) == (3, 6, 2)


def test_plague_hits_on_4_and_kills_at_1() -> None:
    """Plague 9.4: a d6 of 4-6 hits, taking half the troops rounded up; a general commanding 0
    or 1 troop dies."""
    assert (R.plague.hit_on, R.plague.dies_at_or_below, R.plague.loss_share) == (4, 1, 0.5)


def test_ti_1_judge_title_costs_10_and_needs_4_settlements() -> None:
    """TI-1: a Judge title costs 10 and needs a region of at least 4 settlements."""
    assert R.costs.judge_title == 10
    assert R.victory.region_min_settlements == 4


def test_v_1_three_points_win() -> None:
    """V-1: 3 VP win."""
    assert R.victory.points == 3


def test_v_2_collapse_below_three_regions() -> None:
    """V-2: the land collapses when fewer than 3 regions can still hold a Judge."""
    assert R.victory.min_judge_regions == 3


def test_v_4_max_rounds() -> None:
    """V-4: a game still running after 60 rounds ends with no winner."""
    assert R.victory.max_rounds == 60


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        R.wrath.threshold = 8  # type: ignore[misc]


# --- overrides ---------------------------------------------------------------------------------


def test_override_changes_only_the_named_parameter() -> None:
    rules = rules_from_mapping({"wrath": {"threshold": 8}, "canaanites": {"garrison": 4}})
    assert (rules.wrath.threshold, rules.canaanites.garrison) == (8, 4)
    assert dataclasses.replace(rules, wrath=R.wrath, canaanites=R.canaanites) == R


def test_override_applies_to_a_given_base() -> None:
    base = rules_from_mapping({"economy": {"start_coins": 20}})
    rules = rules_from_mapping({"wrath": {"threshold": 8}}, base)
    assert (rules.economy.start_coins, rules.wrath.threshold) == (20, 8)


def test_empty_overrides_give_the_defaults() -> None:
    assert rules_from_mapping(None) == rules_from_mapping({}) == R


def test_ints_are_accepted_for_floats_and_lists_become_tuples() -> None:
    rules = rules_from_mapping({"combat": {"winner_losses": 1}, "defence": {"wall_by_siege_round": [3, 0]}})
    assert rules.combat.winner_losses == 1.0 and isinstance(rules.combat.winner_losses, float)
    assert rules.defence.wall_by_siege_round == (3, 0)


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"wrath": {"treshold": 8}}, "rules.wrath.treshold"),
        ({"warth": {"threshold": 8}}, "rules.warth"),
        ({"wrath": 8}, "rules.wrath"),
    ],
)
def test_unknown_key_errors_name_the_key(overrides: dict, named: str) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_mapping(overrides)
    message = str(info.value)
    assert named in message
    assert "known:" in message or "table" in message


def test_unknown_key_lists_the_known_keys() -> None:
    with pytest.raises(RulesError, match=r"rules\.wrath\.treshold .*threshold"):
        rules_from_mapping({"wrath": {"treshold": 8}})


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"wrath": {"threshold": "8"}}, "rules.wrath.threshold"),
        ({"wrath": {"threshold": 8.5}}, "rules.wrath.threshold"),
        ({"wrath": {"threshold": True}}, "rules.wrath.threshold"),
        ({"turns": {"rotate_first_player": 1}}, "rules.turns.rotate_first_player"),
        ({"combat": {"winner_losses": "half"}}, "rules.combat.winner_losses"),
        ({"combat": {"winner_losses": False}}, "rules.combat.winner_losses"),
        ({"defence": {"wall_by_siege_round": 4}}, "rules.defence.wall_by_siege_round"),
        ({"defence": {"wall_by_siege_round": []}}, "rules.defence.wall_by_siege_round"),
        ({"defence": {"wall_by_siege_round": [4, "2"]}}, "rules.defence.wall_by_siege_round[1]"),
    ],
)
def test_wrong_type_errors_name_the_key(overrides: dict, named: str) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_mapping(overrides)
    assert named in str(info.value)
    assert isinstance(info.value, ValueError)


# --- to_dict round trips -----------------------------------------------------------------------


def test_to_dict_covers_every_field_and_round_trips() -> None:
    data = R.to_dict()
    assert list(data) == [f.name for f in dataclasses.fields(Rules)]
    for section, values in data.items():
        assert list(values) == [f.name for f in dataclasses.fields(getattr(R, section))]
    assert rules_from_dict(data) == R


def test_to_dict_is_json_friendly() -> None:
    data = R.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["defence"]["wall_by_siege_round"] == [4, 2, 0]
    assert rules_from_dict(json.loads(json.dumps(data))) == R


def test_to_dict_is_a_valid_rules_table_in_toml() -> None:
    rules = rules_from_mapping({"wrath": {"threshold": 8}, "combat": {"winner_losses": 0.25}})
    text = "\n".join(
        f"[{section}]\n" + "\n".join(f"{k} = {json.dumps(v)}" for k, v in values.items())
        for section, values in rules.to_dict().items()
    )
    assert rules_from_mapping(tomllib.loads(text)) == rules


def _int_overrides() -> st.SearchStrategy[dict]:
    """Random overrides of whole-number parameters, over every section."""
    specs = {tuple(path.split(".")): spec for path, spec in param_specs().items() if spec.kind is int}
    picks = st.dictionaries(st.sampled_from(sorted(specs)), st.just(0), max_size=len(specs)).flatmap(
        lambda chosen: st.fixed_dictionaries(
            {leaf: st.integers(int(specs[leaf].low), int(specs[leaf].high)) for leaf in chosen}))

    def nest(flat: dict) -> dict:
        out: dict = {}
        for (section, key), value in flat.items():
            out.setdefault(section, {})[key] = value
        return out

    return picks.map(nest)


@given(_int_overrides())
def test_to_dict_round_trips_any_override(overrides: dict) -> None:
    try:
        rules = rules_from_mapping(overrides)
    except RulesError as exc:  # two in-range values that contradict each other
        assume("must be below" not in str(exc) and "exceeds" not in str(exc))
        raise
    assert rules_from_dict(rules.to_dict()) == rules
    for section, values in overrides.items():
        for key, value in values.items():
            assert rules.to_dict()[section][key] == value


# --- ranges: out-of-range values are refused when a scenario loads ---------------------------



def test_every_default_lies_in_its_range() -> None:
    for path, spec in param_specs().items():
        assert spec.check(spec.default) == spec.default, path


@pytest.mark.parametrize("overrides,message", [
    ({"wrath": {"threshold": 0}}, "rules.wrath.threshold = 0 is out of range: allowed 1..99"),
    ({"costs": {"wall": -1}}, "rules.costs.wall = -1 is out of range: allowed 0..999"),
    ({"economy": {"start_coins": -5}}, "rules.economy.start_coins = -5 is out of range"),
    ({"victory": {"max_rounds": 0}}, "rules.victory.max_rounds = 0 is out of range: allowed 1..5000"),
    ({"cards": {"hand_limit": -1}}, "rules.cards.hand_limit = -1 is out of range: allowed 0..50"),
    ({"combat": {"winner_losses": 1.5}}, "rules.combat.winner_losses = 1.5 is out of range: allowed 0..1"),
    ({"combat": {"winner_losses": float("nan")}}, "must be a finite number"),
    ({"defence": {"wall_by_siege_round": [4, -2]}}, "rules.defence.wall_by_siege_round[1] = -2 is out of range"),
    ({"plague": {"hit_on": 7}}, "rules.plague.hit_on = 7 exceeds rules.dice.sides = 6"),
    ({"dice": {"sides": 1}}, "rules.dice.sides = 1 is out of range: allowed 2..100"),
    ({"invaders": {"per_pair": 0}}, "rules.invaders.per_pair = 0 is out of range: allowed 1..8"),
    ({"plague": {"loss_share": 1.5}}, "rules.plague.loss_share = 1.5 is out of range: allowed 0..1"),
    ({"wrath": {"after_release": 13}}, "must be below rules.wrath.threshold = 13"),
    ({"setup": {"home_garrison": 11}}, "exceeds rules.limits.garrison = 10"),
])
def test_out_of_range_values_are_refused_naming_the_key_and_range(overrides: dict, message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        rules_from_mapping(overrides)


def test_unknown_paths_name_the_closest_known_ones() -> None:
    with pytest.raises(RulesError, match=r"closest: wrath\.threshold"):
        param_spec("wrath.treshold")
    with pytest.raises(RulesError, match=r"closest: economy\.start_coins"):
        param_spec("start_coins")


def test_with_param_changes_one_checked_value() -> None:
    rules = with_param(Rules(), "wrath.threshold", 7)
    assert rules.wrath.threshold == 7 and rules.costs == Rules().costs
    with pytest.raises(RulesError, match="out of range"):
        with_param(Rules(), "wrath.threshold", 100)
