"""plsim tune over switches (issue 20): values = [...] of a choice, a bool or numbers (optuna's
categorical), one seat's element as a range, and every output naming the values.

The end-to-end tune keeps games to a few rounds and searches ``victory.max_rounds`` beside the
switches, so that its trials differ whatever the engine does with the switches themselves.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from optuna.distributions import CategoricalDistribution, IntDistribution

from plsim.cli import main
from plsim.scenario import as_scenario, load_scenario
from plsim.tune.files import best_toml
from plsim.tune.plot import history_figure
from plsim.tune.space import Dimension, SpaceError, load_space, space_from_mapping, space_size
from plsim.tune.trials import check_space_rules, rules_at

GAMES = 3
SHORT = '[scenario]\nname = "short-2p"\nextends = "standard-2p"\n[rules.victory]\nmax_rounds = 5\n'
SPACE = """
[setup.home_order]
values = ["snake", "random"]

[setup.seat_coins.1]
values = [0, 2]

[victory.max_rounds]
values = [3, 4]
"""


# --- the space -----------------------------------------------------------------------------------

def test_a_space_takes_a_choices_names_a_bools_values_numbers_and_one_seats_range():
    dims = space_from_mapping(tomllib.loads("""
        [setup.home_order]
        values = ["turn", "reverse", "snake", "random"]
        [movement.free_settlements_block]
        values = [false, true]
        [wrath.after_release]
        values = [0, 12]
        [setup.seat_coins.3]
        low = 0
        high = 6
        step = 2
        ["setup.seat_coins[0]"]
        values = [0, 4]
    """))
    assert [d.path for d in dims] == ["setup.home_order", "setup.seat_coins.3", "movement.free_settlements_block",
                                      "wrath.after_release", "setup.seat_coins.0"]  # TOML groups [setup.*]
    assert dims[0].distribution() == CategoricalDistribution(["turn", "reverse", "snake", "random"])
    assert dims[1] == Dimension("setup.seat_coins.3", "int", 0.0, 6.0, 2.0)
    assert dims[1].distribution() == IntDistribution(0, 6, step=2)
    assert dims[2].distribution() == CategoricalDistribution([False, True])
    assert dims[3].distribution() == CategoricalDistribution([0, 12])
    assert dims[0].decode("snake") == "snake" and dims[0].describe_value("snake") == "snake"
    rules = rules_at(as_scenario(None).rules, dims, ("snake", 4, True, 12, 2))
    assert (rules.setup.home_order, rules.movement.free_settlements_block, rules.wrath.after_release) == \
        ("snake", True, 12)
    assert rules.setup.seat_coins == (2, 0, 0, 4, 0, 0)


@pytest.mark.parametrize("text,message", [
    ('[setup.home_order]\nvalues = ["turn", "snek"]', "rules.setup.home_order = 'snek' is not one of "
                                                     "turn, reverse, snake, random"),
    ("[setup.home_order]\nvalues = [1, 2]", "rules.setup.home_order: expected one of turn, reverse, snake, random"),
    ("[setup.home_order]\nlow = 0\nhigh = 1", "setup.home_order is a choice parameter: give values = [...]"),
    ('[movement.free_settlements_block]\nvalues = ["true"]', "expected true or false, got 'true'"),
    ("[setup.seat_coins]\nlow = 0\nhigh = 4", "or search one element as [setup.seat_coins.N]"),
    ("[setup.seat_coins.6]\nlow = 0\nhigh = 4", "rules.setup.seat_coins has the elements 0..5"),
    ('["setup.seat_coins[6]"]\nlow = 0\nhigh = 4', "rules.setup.seat_coins has the elements 0..5"),
    ("[setup.seat_coins.2]\nlow = 0\nhigh = 1000", "rules.setup.seat_coins.2 = 1000 is out of range: allowed 0..999"),
    ('[setup.seat_coins.2]\nvalues = [0]\n["setup.seat_coins[2]"]\nvalues = [1]', "setup.seat_coins.2 is given twice"),
    ('["setup.seat_coins"]\nvalues = [[0, 0, 0, 0, 0, 0]]\n["setup.seat_coins.2"]\nvalues = [1]',
     "[setup.seat_coins] and [setup.seat_coins.2] both set setup.seat_coins"),
])
def test_a_bad_switch_in_a_space_is_one_line_naming_the_key(text, message):
    with pytest.raises(SpaceError) as info:
        space_from_mapping(tomllib.loads(text))
    assert message in str(info.value) and "\n" not in str(info.value)


def test_best_toml_writes_a_choice_by_name_and_a_searched_seat_as_its_whole_list(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    base = as_scenario(None)
    dims = space_from_mapping(tomllib.loads(SPACE))
    text = best_toml(base, dims, ("random", 2, 4), base.seat_strategies(), tmp_path, ["a header"])
    data = tomllib.loads(text)
    assert data["rules"]["setup"] == {"home_order": "random", "seat_coins": [0, 2, 0, 0, 0, 0]}
    (tmp_path / "best.toml").write_text(text)
    assert load_scenario(tmp_path / "best.toml").rules == rules_at(base.rules, dims, ("random", 2, 4))


def test_history_names_the_best_trials_values():
    trials = pl.DataFrame({"trial": [0, 1, 2], "objective": [0.3, 0.1, 0.2], "objective_ci_low": [0.2, 0.0, 0.1],
                           "objective_ci_high": [0.4, 0.2, 0.3]})
    figure = history_figure(trials, ["seat_spread"], ["objective"], 0, 1,
                            "setup.home_order = snake, setup.seat_coins.1 = 2")
    labels = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert any("trial 1" in label and "setup.home_order=snake" in label and "setup.seat_coins.1=2" in label
               for label in labels)


def test_the_documented_setup_space_searches_the_home_order_and_each_seats_coins():
    dims = load_space(Path(__file__).resolve().parents[1] / "docs" / "examples" / "setup-space.toml")
    assert [d.path for d in dims] == ["setup.home_order", *(f"setup.seat_coins.{seat}" for seat in range(4))]
    assert dims[0].values == ("turn", "reverse", "snake", "random") and space_size(dims) == 4 * 3 ** 4
    check_space_rules(as_scenario(None), dims)


# --- end to end ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    root = tmp_path_factory.mktemp("tune-switches")
    (root / "short-2p.toml").write_text(SHORT)
    (root / "space.toml").write_text(SPACE)
    out = root / "out"
    result = CliRunner().invoke(main, ["tune", str(root / "short-2p.toml"), "--space", str(root / "space.toml"),
                                       "--objective", "rounds_mean", "--trials", "4", "--games", str(GAMES),
                                       "--confirm-games", str(GAMES), "--seed", "1", "--workers", "1", "--quiet",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_trials_csv_names_each_trials_values(tuned):
    out, output = tuned
    trials = pl.read_csv(out / "trials.csv").filter(pl.col("counted"))
    assert trials.height == 4 and trials["setup.home_order"].dtype == pl.String
    assert set(trials["setup.home_order"]) <= {"snake", "random"} and set(trials["setup.seat_coins.1"]) <= {0, 2}
    assert "setup.home_order=" in output
    for folder, order, coins in trials.select("folder", "setup.home_order", "setup.seat_coins.1").rows():
        setup = json.loads((out / folder / "run.json").read_text())["rules"]["setup"]
        assert setup["home_order"] == order and setup["seat_coins"] == [0, coins, 0, 0, 0, 0]


def test_best_toml_and_tune_json_name_the_best_values_and_the_confirmation_plays_them(tuned):
    out, _ = tuned
    info = json.loads((out / "tune.json").read_text())
    point = info["best"]["point"]
    assert point["setup.home_order"] in ("snake", "random") and point["victory.max_rounds"] == "3"
    rules = load_scenario(out / "best.toml").rules
    assert rules.setup.home_order == point["setup.home_order"]
    assert rules.setup.seat_coins[1] == int(point["setup.seat_coins.1"])
    confirmed = json.loads((out / "confirm" / "best" / "run.json").read_text())
    assert confirmed["rules"]["setup"]["home_order"] == point["setup.home_order"]
    assert info["verdict"] == "improved"  # 3 rounds against the base's 5, on every confirmation seed
    for name in ("history.png", "importances.png", "report.html"):
        assert (out / name).stat().st_size > 0, name

