"""Scenarios: the shipped files, the lookup by name, overrides, errors, and `plsim scenarios`."""

from __future__ import annotations

import dataclasses
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.rules import Rules, param_paths
from plsim.strategy.registry import resolve
from plsim.scenario import (
    DEFAULT_STRATEGIES,
    Scenario,
    ScenarioError,
    default_scenario,
    list_scenarios,
    load_scenario,
    scenario_dirs,
    scenario_names,
)

REPO_SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
SHIPPED = {
    "standard-2p": 2,
    "standard-3p": 3,
    "standard-4p": 4,
    "standard-5p": 5,
    "standard-6p": 6,
    "strong-canaanites": 4,
    "low-wrath": 4,
    "rich-start": 4,
}


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def scenario_error(path_or_name: str | Path) -> str:
    """Load something broken and return the error message, checked to be one line."""
    with pytest.raises(ScenarioError) as info:
        load_scenario(path_or_name)
    message = str(info.value)
    assert "\n" not in message and message.strip() == message
    return message


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run from an empty directory, so that only the repository's scenarios folder is searched."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --- the shipped scenarios --------------------------------------------------------------------


def test_shipped_files_are_exactly_the_documented_set() -> None:
    assert sorted(p.stem for p in REPO_SCENARIOS.glob("*.toml")) == sorted(SHIPPED)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_each_shipped_scenario_loads(name: str, elsewhere: Path) -> None:
    scenario = load_scenario(name)
    assert scenario.name == name
    assert scenario.players == SHIPPED[name]
    assert scenario.map == "default"
    assert len(scenario.strategies) == scenario.players
    assert all(resolve(entry) for entry in scenario.strategies)  # every default strategy exists
    assert scenario.description.endswith(".") and "\n" not in scenario.description
    assert scenario.path == REPO_SCENARIOS / f"{name}.toml"


@pytest.mark.parametrize("name", [n for n in SHIPPED if n.startswith("standard-")])
def test_standard_scenarios_use_the_rulebook_rules(name: str, elsewhere: Path) -> None:
    assert load_scenario(name).rules == Rules()


@pytest.mark.parametrize("name", [n for n in SHIPPED if n.startswith("standard-")])
def test_standard_line_ups_seat_distinct_scripted_strategies(name: str, elsewhere: Path) -> None:
    """A default game is played by the scripted strategies, each at most once: no `random`."""
    seats = load_scenario(name).seat_strategies()
    assert "random" not in seats and len(set(seats)) == len(seats)


def test_standard_6p_seats_all_six_scripted_strategies_the_prophet_included(elsewhere: Path) -> None:
    assert load_scenario("standard-6p").seat_strategies() == (
        "economist", "warlord", "judge-rush", "schemer", "zealot", "prophet")


def test_standard_4p_file_matches_the_built_in_default(elsewhere: Path) -> None:
    assert dataclasses.replace(load_scenario("standard-4p"), path=None) == default_scenario()


def test_strong_canaanites_overrides_only_the_garrison(elsewhere: Path) -> None:
    """MP-5: Strong Canaanites start with 4 troops."""
    scenario = load_scenario("strong-canaanites")
    assert scenario.rules.canaanites.garrison == 4
    assert dataclasses.replace(scenario.rules, canaanites=Rules().canaanites) == Rules()


def test_low_wrath_overrides_only_the_threshold(elsewhere: Path) -> None:
    """W-2: the cup releases invaders at 8."""
    scenario = load_scenario("low-wrath")
    assert scenario.rules.wrath.threshold == 8
    assert dataclasses.replace(scenario.rules, wrath=Rules().wrath) == Rules()


def test_rich_start_overrides_only_the_start_coins(elsewhere: Path) -> None:
    """IN-4: a richer opening."""
    scenario = load_scenario("rich-start")
    assert scenario.rules.economy.start_coins == 20
    assert dataclasses.replace(scenario.rules, economy=Rules().economy) == Rules()


# --- the built-in default and lookup ----------------------------------------------------------


def test_default_scenario_is_the_rulebook_four_player_game() -> None:
    scenario = default_scenario()
    assert scenario == Scenario("standard-4p", scenario.description, 4, "default", Rules(), DEFAULT_STRATEGIES, None)
    assert scenario.description


def test_default_needs_no_file(elsewhere: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("plsim.scenario.scenario_dirs", lambda: ())
    assert load_scenario("default") == default_scenario()
    assert load_scenario("standard-4p") == default_scenario()
    assert list_scenarios() == [default_scenario()]


def test_default_alias_uses_the_built_in_when_no_default_file(elsewhere: Path) -> None:
    assert load_scenario("default") == default_scenario()


def test_load_by_path_relative_and_absolute(elsewhere: Path) -> None:
    path = write(elsewhere, "mine", '[scenario]\nplayers = 3\n[rules.victory]\nmax_rounds = 30\n')
    for given in ("mine.toml", path, str(path)):
        scenario = load_scenario(given)
        assert (scenario.name, scenario.players, scenario.rules.victory.max_rounds) == ("mine", 3, 30)
        assert scenario.path == path.resolve()


def test_missing_keys_take_the_default_scenarios_values(elsewhere: Path) -> None:
    scenario = load_scenario(write(elsewhere, "bare", ""))
    standard = load_scenario("standard-4p").strategies
    note = f"scenario bare names no strategies: playing standard-4p's ({', '.join(standard)})"
    assert scenario == Scenario("bare", "", 4, "default", Rules(), standard, (elsewhere / "bare.toml").resolve(),
                                None, (note,))


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_no_strategies_takes_the_standard_scenarios_for_the_player_count_and_says_so(elsewhere: Path, players: int) -> None:
    scenario = load_scenario(write(elsewhere, "count", f"[scenario]\nplayers = {players}\n"))
    standard = load_scenario(f"standard-{players}p").seat_strategies()
    assert scenario.seat_strategies() == standard
    assert scenario.notes == (f"scenario count names no strategies: playing standard-{players}p's ({', '.join(standard)})",)


# --- variants: extends ------------------------------------------------------------------------


def test_extends_inherits_everything_not_set_and_applies_its_own_rules_on_top(elsewhere: Path) -> None:
    write(elsewhere, "base", '[scenario]\ndescription = "Base."\nplayers = 5\nstrategies = ["warlord", "zealot"]\n'
                             '[rules.wrath]\nthreshold = 9\n[rules.economy]\nstart_coins = 14\n')
    variant = load_scenario(write(elsewhere, "variant", '[scenario]\nextends = "base.toml"\n[rules.wrath]\ntax = 2\n'))
    assert (variant.players, variant.description, variant.strategies) == (5, "Base.", ("warlord", "zealot"))
    assert (variant.rules.wrath.threshold, variant.rules.wrath.tax, variant.rules.economy.start_coins) == (9, 2, 14)
    assert variant.extends == "base.toml" and variant.notes == ()


def test_extends_a_shipped_scenario_by_name(elsewhere: Path) -> None:
    variant = load_scenario(write(elsewhere, "hot", '[scenario]\nextends = "low-wrath"\n[rules.economy]\nstart_coins = 20\n'))
    low = load_scenario("low-wrath")
    assert variant.rules.wrath.threshold == 8 and variant.rules.economy.start_coins == 20
    assert (variant.players, variant.strategies, variant.map) == (low.players, low.strategies, low.map)


def test_extends_with_another_player_count_takes_that_counts_standard_strategies(elsewhere: Path) -> None:
    variant = load_scenario(write(elsewhere, "five", '[scenario]\nextends = "low-wrath"\nplayers = 5\n'))
    assert variant.strategies == load_scenario("standard-5p").seat_strategies()
    assert variant.rules.wrath.threshold == 8 and "standard-5p" in variant.notes[0]


def test_extends_chains_and_the_to_toml_text_is_complete(elsewhere: Path) -> None:
    write(elsewhere, "a", '[scenario]\nextends = "standard-3p"\n[rules.wrath]\nthreshold = 7\n')
    write(elsewhere, "b", '[scenario]\nextends = "a.toml"\n[rules.costs]\nwall = 3\n')
    b = load_scenario(elsewhere / "b.toml")
    assert (b.players, b.rules.wrath.threshold, b.rules.costs.wall) == (3, 7, 3)
    (elsewhere / "copy").mkdir()
    copy = load_scenario(write(elsewhere / "copy", "b", b.to_toml()))
    assert (copy.players, copy.rules, copy.strategies) == (b.players, b.rules, b.strategies)


def test_extends_in_a_circle_unknown_or_of_the_wrong_type_is_one_line(elsewhere: Path) -> None:
    write(elsewhere, "x", '[scenario]\nextends = "y.toml"\n')
    write(elsewhere, "y", '[scenario]\nextends = "x.toml"\n')
    assert "extends goes round in a circle (x.toml -> y.toml -> x.toml)" in scenario_error(elsewhere / "x.toml")
    assert "extends names an unknown scenario 'nope'" in scenario_error(write(elsewhere, "u", '[scenario]\nextends = "nope"\n'))
    assert "scenario.extends must be a string" in scenario_error(write(elsewhere, "t", "[scenario]\nextends = 4\n"))


def test_a_variants_out_of_range_override_names_the_key(elsewhere: Path) -> None:
    message = scenario_error(write(elsewhere, "bad", '[scenario]\nextends = "standard-4p"\n[rules.wrath]\nthreshold = 0\n'))
    assert "rules.wrath.threshold = 0 is out of range: allowed 1..99" in message


def test_current_directory_scenarios_come_first(elsewhere: Path) -> None:
    folder = elsewhere / "scenarios"
    folder.mkdir()
    write(folder, "low-wrath", '[scenario]\ndescription = "Mine."\n[rules.wrath]\nthreshold = 5\n')
    write(folder, "house", '[scenario]\ndescription = "House rules."\nplayers = 5\n')
    assert scenario_dirs() == (folder, REPO_SCENARIOS)
    assert load_scenario("low-wrath").rules.wrath.threshold == 5
    assert load_scenario("house").players == 5
    listed = {s.name: s for s in list_scenarios()}
    assert listed["low-wrath"].description == "Mine."
    assert "house" in listed and "strong-canaanites" in listed


def test_list_scenarios_is_sorted_deduplicated_and_complete(elsewhere: Path) -> None:
    scenarios = list_scenarios()
    names = [s.name for s in scenarios]
    assert names == sorted(set(names)) == sorted(SHIPPED)
    assert scenario_names() == sorted({*SHIPPED, "default"})


def test_strategies_shorter_than_players_are_cycled(elsewhere: Path) -> None:
    scenario = load_scenario(write(elsewhere, "mix", '[scenario]\nplayers = 5\nstrategies = ["a", "b"]\n'))
    assert scenario.strategies == ("a", "b")
    assert scenario.seat_strategies() == ("a", "b", "a", "b", "a")
    assert default_scenario().seat_strategies() == DEFAULT_STRATEGIES


def test_map_path_is_relative_to_the_scenario_file(elsewhere: Path) -> None:
    (elsewhere / "maps").mkdir()
    (elsewhere / "maps" / "small.json").write_text(resources.files("plsim.board").joinpath("data/default_map.json")
                                                   .read_text())  # a scenario's map must hold its players (V-2, SU-2)
    sub = elsewhere / "variants"
    sub.mkdir()
    scenario = load_scenario(write(sub, "small", '[scenario]\nmap = "../maps/small.json"\n'))
    assert scenario.map == str((elsewhere / "maps" / "small.json").resolve())


def test_to_toml_loads_back_to_the_same_scenario(elsewhere: Path) -> None:
    original = load_scenario("strong-canaanites")
    text = original.to_toml()
    assert "garrison = 4  # default 2" in text
    for section, values in Rules().to_dict().items():
        assert f"[rules.{section}]" in text
        for key in values:
            assert f"\n{key} = " in text
    copy = load_scenario(write(elsewhere, "strong-canaanites", text))
    assert dataclasses.replace(copy, path=None) == dataclasses.replace(original, path=None)


def test_to_toml_escapes_strings(elsewhere: Path) -> None:
    odd = dataclasses.replace(default_scenario(), name="odd", description='Say "hi" \\ tab\there.')
    assert load_scenario(write(elsewhere, "odd", odd.to_toml())).description == odd.description


# --- errors: one line, naming the file and the problem ----------------------------------------


def test_missing_file(elsewhere: Path) -> None:
    message = scenario_error("nowhere/absent.toml")
    assert "nowhere/absent.toml" in message and "not found" in message


def test_unknown_name_lists_known_names(elsewhere: Path) -> None:
    message = scenario_error("no-such-game")
    assert "no-such-game" in message
    for name in [*SHIPPED, "default"]:
        assert name in message


def test_toml_syntax_error_gives_the_line(elsewhere: Path) -> None:
    path = write(elsewhere, "broken", '[scenario]\nplayers = 4\nname = \n')
    message = scenario_error(path)
    assert str(path) in message and "TOML syntax error" in message and "line 3" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[scenarios]\nplayers = 4\n', ["unknown top-level", "'scenarios'", "[scenario]", "[rules]"]),
        ('players = 4\n', ["unknown top-level", "'players'"]),
        ('[scenario]\nplayer = 4\n', ["unknown key scenario.player", "players", "strategies", "map"]),
    ],
)
def test_unknown_tables_and_keys_list_the_allowed_ones(elsewhere: Path, text: str, expected: list[str]) -> None:
    message = scenario_error(write(elsewhere, "typo", text))
    assert "typo.toml" in message
    for part in expected:
        assert part in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[scenario]\nplayers = "four"\n', "scenario.players must be a whole number, got string 'four'"),
        ('[scenario]\nplayers = 4.0\n', "scenario.players must be a whole number, got float 4.0"),
        ('[scenario]\nplayers = true\n', "scenario.players must be a whole number, got boolean True"),
        ('[scenario]\ndescription = 3\n', "scenario.description must be a string, got integer 3"),
        ('[scenario]\nmap = ["default"]\n', "scenario.map must be a string, got array"),
        ('[scenario]\nmap = ""\n', "scenario.map must not be empty"),
        ('[scenario]\nstrategies = "random"\n', "scenario.strategies must be a list of strategy names"),
        ('[scenario]\nstrategies = ["random", 3]\n', "scenario.strategies must be a list of strategy names"),
        ('[scenario]\nstrategies = []\n', "scenario.strategies must name at least one strategy"),
        ('scenario = 4\n', "scenario must be a table"),
        ('rules = 4\n', "rules must be a table"),
    ],
)
def test_wrong_types(elsewhere: Path, text: str, expected: str) -> None:
    message = scenario_error(write(elsewhere, "typed", text))
    assert "typed.toml" in message and expected in message


@pytest.mark.parametrize("players", [0, 1, 7, -4])
def test_players_outside_2_to_6(elsewhere: Path, players: int) -> None:
    message = scenario_error(write(elsewhere, "crowd", f"[scenario]\nplayers = {players}\n"))
    assert "crowd.toml" in message and f"players = {players}" in message and "2..6" in message


def test_more_strategies_than_players(elsewhere: Path) -> None:
    message = scenario_error(write(elsewhere, "many", '[scenario]\nplayers = 2\nstrategies = ["a", "b", "c"]\n'))
    assert "many.toml" in message and "3 strategies" in message and "players = 2" in message


def test_name_must_match_the_file_name(elsewhere: Path) -> None:
    message = scenario_error(write(elsewhere, "copy", '[scenario]\nname = "standard-4p"\n'))
    assert "copy.toml" in message and "'standard-4p'" in message and "'copy'" in message


def test_missing_map_file(elsewhere: Path) -> None:
    message = scenario_error(write(elsewhere, "nomap", '[scenario]\nmap = "maps/none.json"\n'))
    assert "nomap.toml" in message and "maps/none.json" in message and "not found" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[rules.canaanites]\ngarison = 4\n", "rules.canaanites.garison"),
        ("[rules.canaanite]\ngarrison = 4\n", "rules.canaanite"),
        ('[rules.wrath]\nthreshold = "8"\n', "rules.wrath.threshold"),
        ("[rules.turns]\nrotate_first_player = 1\n", "rules.turns.rotate_first_player"),
        ("[rules]\neconomy = 20\n", "rules.economy"),
    ],
)
def test_rule_override_errors_name_the_file_and_key(elsewhere: Path, text: str, expected: str) -> None:
    message = scenario_error(write(elsewhere, "badrule", text))
    assert "badrule.toml" in message and expected in message


def test_unreadable_encoding(elsewhere: Path) -> None:
    path = elsewhere / "latin.toml"
    path.write_bytes(b'[scenario]\ndescription = "caf\xe9"\n')
    assert "not a UTF-8" in scenario_error(path)


def test_a_broken_file_in_a_scenario_folder_is_named_by_list(elsewhere: Path) -> None:
    folder = elsewhere / "scenarios"
    folder.mkdir()
    write(folder, "broken", "[scenario\n")
    with pytest.raises(ScenarioError, match="broken.toml"):
        list_scenarios()


# --- the command line -------------------------------------------------------------------------


def test_cli_lists_every_scenario_one_line_each(elsewhere: Path) -> None:
    result = CliRunner().invoke(main, ["scenarios"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == sorted(SHIPPED)
    low = next(line for line in lines if line.startswith("low-wrath "))
    assert "4 players" in low and load_scenario("low-wrath").description in low


def test_cli_show_prints_every_parameter(elsewhere: Path) -> None:
    result = CliRunner().invoke(main, ["scenarios", "--show", "low-wrath"])
    assert result.exit_code == 0, result.output
    assert "threshold = 8  # default 13" in result.output
    for section, values in Rules().to_dict().items():
        assert f"[rules.{section}]" in result.output
        assert all(f"\n{key} = " in result.output for key in values)


def test_cli_show_unknown_name_exits_2_with_one_line(elsewhere: Path) -> None:
    result = CliRunner().invoke(main, ["scenarios", "--show", "no-such-game"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "unknown scenario 'no-such-game'" in result.output


def test_cli_lists_the_good_files_and_one_line_per_broken_file(elsewhere: Path) -> None:
    folder = elsewhere / "scenarios"
    folder.mkdir()
    write(folder, "broken", "[scenario]\nplayers = 9\n")
    write(folder, "awful", "[scenario\n")
    result = CliRunner().invoke(main, ["scenarios"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == sorted({*SHIPPED, "broken", "awful"})
    broken = next(line for line in lines if line.startswith("broken "))
    assert "cannot be loaded" in broken and "broken.toml" in broken and "2..6" in broken
    assert sum("cannot be loaded" in line for line in lines) == 2


def test_cli_params_lists_every_rule_parameter_with_type_default_and_range(elsewhere: Path) -> None:
    result = CliRunner().invoke(main, ["scenarios", "--params"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 + len(param_paths())
    threshold = next(line for line in lines if line.startswith("wrath.threshold "))
    assert threshold.split() == ["wrath.threshold", "int", "13", "1..99"]
