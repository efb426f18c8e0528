"""Switches in the rule tree (issue 20): booleans, named choices and per-seat list elements.

The readings the manual leaves open are parameters a scenario sets by name, `plsim scenarios`
lists with their allowed values, and a sweep or a tune varies like any number. These tests pin
the plumbing (declare, parse, check, list, round-trip); what the engine does with each switch is
tested with the rule (GN-2, MV-2, SU-2) itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.engine.position import load_position
from plsim.runner.resume import cell_from_info
from plsim.rules import (
    MAX_PLAYERS, Rules, RulesError, as_overrides, choice, get_param, param_spec, param_specs, rules_from_dict,
    rules_from_mapping, with_param, with_params,
)
from plsim.scenario import load_scenario

R = Rules()
NEW_KEYS = {"items": None, "movement": None, "setup": ("home_order", "seat_coins")}


# --- the new parameters and their defaults (today's rulebook readings) ---------------------------

def test_gn_2_a_captured_carrier_keeps_the_prophet_by_default() -> None:
    """GN-2: `items.captured_prophet` is `keep` (the Prophet survives capture) or `discard`."""
    spec = param_spec("items.captured_prophet")
    assert R.items.captured_prophet == "keep"
    assert (spec.type_name, spec.choices) == ("choice", ("keep", "discard"))


def test_mv_2_free_settlements_do_not_block_by_default() -> None:
    """MV-2: `movement.free_settlements_block` is a bool, false by default."""
    assert R.movement.free_settlements_block is False
    assert param_spec("movement.free_settlements_block").type_name == "bool"


def test_su_2_homes_are_chosen_in_turn_order_with_no_extra_coins_by_default() -> None:
    """SU-2: `setup.home_order` is turn, reverse, snake or random; `setup.seat_coins` is one
    extra-coin count per seat, all 0."""
    assert R.setup.home_order == "turn"
    assert param_spec("setup.home_order").choices == ("turn", "reverse", "snake", "random")
    assert R.setup.seat_coins == (0,) * MAX_PLAYERS
    spec = param_spec("setup.seat_coins")
    assert (spec.type_name, spec.length, spec.low, spec.high) == ("list of 6 int", 6, 0, 999)


def test_a_choice_is_declared_with_its_default_first_and_at_least_one_other_name() -> None:
    assert choice("a", "b").metadata["choices"] == ("a", "b")
    for bad in (("a",), ("a", "a"), ("a", 3)):
        with pytest.raises(TypeError):
            choice(*bad)


# --- setting them: by name, checked, one line naming the key -----------------------------------

def test_a_scenario_table_sets_a_choice_by_name_and_a_bool_and_the_whole_seat_list() -> None:
    rules = rules_from_mapping({"setup": {"home_order": "snake", "seat_coins": [0, 0, 0, 3, 0, 0]},
                                "items": {"captured_prophet": "discard"},
                                "movement": {"free_settlements_block": True}})
    assert rules.setup.home_order == "snake" and rules.setup.seat_coins == (0, 0, 0, 3, 0, 0)
    assert rules.items.captured_prophet == "discard" and rules.movement.free_settlements_block is True


@pytest.mark.parametrize("overrides,message", [
    ({"setup": {"home_order": "snek"}},
     "rules.setup.home_order = 'snek' is not one of turn, reverse, snake, random"),
    ({"setup": {"home_order": 2}}, "rules.setup.home_order: expected one of turn, reverse, snake, random"),
    ({"items": {"captured_prophet": True}}, "rules.items.captured_prophet: expected one of keep, discard"),
    ({"movement": {"free_settlements_block": "true"}},
     "rules.movement.free_settlements_block: expected true or false, got 'true'"),
    ({"movement": {"free_settlements_block": 1}}, "rules.movement.free_settlements_block: expected true or false"),
    ({"setup": {"seat_coins": [1, 2]}}, "rules.setup.seat_coins: expected a list of 6 whole numbers, got 2"),
    ({"setup": {"seat_coins": [0, 0, 0, 1000, 0, 0]}}, "rules.setup.seat_coins[3] = 1000 is out of range: allowed 0..999"),
    ({"setup": {"seat_coins": 3}}, "rules.setup.seat_coins: expected a non-empty list of whole numbers"),
    ({"movement": {"free_settlement_block": True}}, "unknown rule parameter rules.movement.free_settlement_block"),
])
def test_a_wrong_switch_value_is_one_line_naming_the_key_and_what_is_allowed(overrides, message) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_mapping(overrides)
    assert message in str(info.value) and "\n" not in str(info.value)


# --- one seat's element: setup.seat_coins.N (or [N]) ---------------------------------------------

def test_one_element_of_the_seat_list_is_addressed_by_its_index_in_either_spelling() -> None:
    for path in ("setup.seat_coins.3", "setup.seat_coins[3]"):
        spec = param_spec(path)
        assert (spec.path, spec.parameter, spec.index, spec.kind, spec.low, spec.high) == \
            ("setup.seat_coins.3", "setup.seat_coins", 3, int, 0, 999)
    rules = with_param(R, "setup.seat_coins[3]", 5)
    assert rules.setup.seat_coins == (0, 0, 0, 5, 0, 0) and get_param(rules, "setup.seat_coins.3") == 5
    assert with_param(rules, "setup.seat_coins.0", 2).setup.seat_coins == (2, 0, 0, 5, 0, 0)


@pytest.mark.parametrize("path,value,message", [
    ("setup.seat_coins.3", 1000, "rules.setup.seat_coins.3 = 1000 is out of range: allowed 0..999"),
    ("setup.seat_coins.3", "2", "rules.setup.seat_coins.3: expected a whole number"),
    ("setup.seat_coins.6", 1, "rules.setup.seat_coins has the elements 0..5"),
    ("setup.seat_coins[6]", 1, "rules.setup.seat_coins has the elements 0..5"),
    ("setup.seat_coin.1", 1, "unknown rule parameter 'setup.seat_coin.1' (closest: "),
    ("wrath.threshold.1", 1, "rules.wrath.threshold has no elements to set one by one"),
    ("defence.wall_by_siege_round.0", 1, "rules.defence.wall_by_siege_round has no elements to set one by one"),
])
def test_a_bad_element_is_refused_in_one_line(path, value, message) -> None:
    with pytest.raises(RulesError) as info:
        with_param(R, path, value)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_overrides_set_a_whole_list_from_its_elements_and_refuse_both_at_once() -> None:
    base = with_param(R, "setup.seat_coins", [1, 1, 1, 1, 1, 1])
    assert as_overrides({"setup.seat_coins.2": 4, "setup.home_order": "snake"}, base) == \
        {"setup": {"seat_coins": [1, 1, 4, 1, 1, 1], "home_order": "snake"}}
    with pytest.raises(RulesError, match="set both whole and element by element"):
        as_overrides({"setup.seat_coins": [0] * 6, "setup.seat_coins.2": 4}, R)
    with pytest.raises(RulesError, match="rules.setup.seat_coins.2 is given twice"):
        as_overrides({"setup.seat_coins.2": 4, "setup.seat_coins[2]": 5}, R)


def test_several_values_are_checked_as_one_change() -> None:
    """A home garrison above today's limit is fine when the limit is raised in the same change."""
    rules = with_params(R, {"setup.home_garrison": 12, "limits.garrison": 12})
    assert (rules.setup.home_garrison, rules.limits.garrison) == (12, 12)
    with pytest.raises(RulesError, match="exceeds rules.limits.garrison"):
        with_param(R, "setup.home_garrison", 12)


# --- files written before the switches existed ---------------------------------------------------

def _without_new_keys(data: dict) -> dict:
    old = {section: dict(values) for section, values in data.items() if section not in ("items", "movement")}
    for key in NEW_KEYS["setup"]:
        old["setup"].pop(key)
    return old


def test_rules_saved_without_the_new_keys_load_with_their_defaults() -> None:
    assert rules_from_dict(_without_new_keys(R.to_dict())) == R


def test_an_old_position_file_without_the_new_keys_loads(tmp_path: Path) -> None:
    position = tmp_path / "pos.json"
    saved = CliRunner().invoke(main, ["play", "--players", "random,random", "--seed", "2", "--quiet",
                                      "--rounds", "2", "--save", str(position)])
    assert saved.exit_code == 0, saved.output
    data = json.loads(position.read_text())
    data["rules"] = _without_new_keys(data["rules"])
    position.write_text(json.dumps(data))
    assert load_position(position)["rules"] == R
    assert CliRunner().invoke(main, ["play", "--from", str(position), "--quiet"]).exit_code == 0


def test_an_old_run_folder_without_the_new_keys_resumes_and_reports(tmp_path: Path) -> None:
    (tmp_path / "short.toml").write_text('[scenario]\nextends = "standard-4p"\n[rules.victory]\nmax_rounds = 3\n')
    out = tmp_path / "run"
    played = CliRunner().invoke(main, ["run", str(tmp_path / "short.toml"), "--games", "2", "--workers", "1",
                                       "--quiet", "--out", str(out)])
    assert played.exit_code == 0, played.output
    info = json.loads((out / "run.json").read_text())
    info["rules"] = _without_new_keys(info["rules"])
    (out / "run.json").write_text(json.dumps(info))
    assert cell_from_info(info, out).scenario.rules == with_param(R, "victory.max_rounds", 3)
    for command in (["run", "--resume", str(out), "--workers", "1", "--quiet"], ["report", str(out)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 0, result.output


# --- plsim scenarios: --params lists the allowed values, --show prints them -------------------

def _params_line(output: str, path: str) -> list[str]:
    line = next(line for line in output.splitlines() if line.startswith(path + " "))
    return line.split(None, 3)


def test_params_lists_each_choices_names_booleans_as_true_or_false_and_the_seat_elements() -> None:
    result = CliRunner().invoke(main, ["scenarios", "--params"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].split() == ["parameter", "type", "default", "allowed"]
    assert _params_line(result.output, "setup.home_order") == \
        ["setup.home_order", "choice", "turn", "turn, reverse, snake, random"]
    assert _params_line(result.output, "items.captured_prophet")[1:] == ["choice", "keep", "keep, discard"]
    assert _params_line(result.output, "movement.free_settlements_block")[1:] == ["bool", "false", "true or false"]
    coins = next(line for line in result.output.splitlines() if line.startswith("setup.seat_coins "))
    assert "list of 6 int" in coins and "0,0,0,0,0,0" in coins and "setup.seat_coins.N, N = 0..5" in coins


def test_show_prints_a_choice_by_name_with_its_allowed_names_and_loads_back(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "seats.toml").write_text('[scenario]\nextends = "standard-4p"\n[rules.setup]\nhome_order = "snake"\n'
                                         "seat_coins = [0, 0, 0, 2, 0, 0]\n")
    result = CliRunner().invoke(main, ["scenarios", "--show", "seats.toml"])
    assert result.exit_code == 0, result.output
    assert 'home_order = "snake"  # default "turn"; one of turn, reverse, snake, random' in result.output
    assert 'captured_prophet = "keep"  # one of keep, discard' in result.output
    (tmp_path / "copy.toml").write_text(result.output.replace('name = "seats"', 'name = "copy"'))
    assert load_scenario(tmp_path / "copy.toml").rules == load_scenario(tmp_path / "seats.toml").rules


@pytest.mark.parametrize("table,message", [
    ('[rules.setup]\nhome_order = "snek"', "rules.setup.home_order = 'snek' is not one of turn, reverse, snake, random"),
    ("[rules.setup]\nhome_order = 1", "rules.setup.home_order: expected one of turn, reverse, snake, random"),
    ('[rules.movement]\nfree_settlements_block = "no"', "rules.movement.free_settlements_block: expected true or false"),
])
def test_a_scenario_with_a_bad_switch_is_one_line_and_exit_2(tmp_path: Path, table: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'[scenario]\nextends = "standard-4p"\n{table}\n')
    for command in (["scenarios", "--show", str(path)], ["run", str(path), "--games", "1", "--out", str(tmp_path / "o")]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, result.output
        assert message in result.output and len(result.output.strip().splitlines()) == 1
        assert not (tmp_path / "o").exists()


def test_every_switch_default_is_allowed() -> None:
    for path, spec in param_specs().items():
        if spec.choices or spec.kind is bool:
            assert spec.check(spec.default) == spec.default, path
