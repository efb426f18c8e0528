"""The tune's search space: SPACE.toml checked against the rule tree before any game."""

import tomllib

import pytest
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

from plsim.tune.space import Dimension, SpaceError, load_space, space_from_mapping

GOOD = """
[economy.start_coins]
low = 6
high = 20
step = 2

[turns.rotate_first_player]
values = [true, false]

[combat.winner_losses]
low = 0.1
high = 0.9

["wrath.threshold"]
low = 5
high = 20
log = true

[defence.wall_by_siege_round]
values = [[4, 2, 0], [6, 3, 0]]
"""


def test_a_space_gives_one_typed_dimension_per_table_in_file_order(tmp_path):
    path = tmp_path / "space.toml"
    path.write_text(GOOD)
    dims = load_space(path)
    assert [d.path for d in dims] == ["economy.start_coins", "turns.rotate_first_player", "combat.winner_losses",
                                      "wrath.threshold", "defence.wall_by_siege_round"]
    assert dims[0].distribution() == IntDistribution(6, 20, step=2)
    assert dims[1].distribution() == CategoricalDistribution([True, False])
    assert dims[2].distribution() == FloatDistribution(0.1, 0.9)
    assert dims[3].distribution() == IntDistribution(5, 20, log=True)
    assert dims[4].decode("6,3,0") == (6, 3, 0)
    assert isinstance(dims[0].decode(8.0), int) and dims[0].decode(8.0) == 8


def test_a_step_that_does_not_reach_high_stops_at_the_last_value():
    (dim,) = space_from_mapping({"economy": {"start_coins": {"low": 6, "high": 20, "step": 4}}})
    assert dim == Dimension("economy.start_coins", "int", 6.0, 18.0, 4.0)


@pytest.mark.parametrize("text,message", [
    ("[economy.start_coin]\nlow = 1\nhigh = 2", "unknown rule parameter 'economy.start_coin' (closest: economy.start_coins"),
    ("[economy.start_coins]\nlow = 10\nhigh = 5", "low = 10 must be below high = 5"),
    ("[economy.start_coins]\nlow = -1\nhigh = 5", "rules.economy.start_coins = -1 is out of range: allowed 0..999"),
    ("[economy.start_coins]\nlow = 1.5\nhigh = 5", "expected a whole number, got 1.5"),
    ("[turns.rotate_first_player]\nlow = 0\nhigh = 1", "is a bool parameter: give values"),
    ("[economy.start_coins]\nlow = 1\nhigh = 5\nstep = 0.5", "needs a whole step"),
    ("[economy.start_coins]\nlow = 1\nhigh = 5\nstep = 9", "step 9 is larger than the range 1..5"),
    ("[economy.start_coins]\nlow = 0\nhigh = 5\nlog = true", "log = true needs low > 0"),
    ("[economy.start_coins]\nlow = 1\nhigh = 5\nlog = true\nstep = 1", "step and log = true cannot be combined"),
    ("[economy.start_coins]\nvalues = [1, 1]", "lists a value twice"),
    ("[economy.start_coins]\nvalues = [1, 1000]", "rules.economy.start_coins = 1000 is out of range"),
    ("[economy.start_coins]\nvalues = []", "values must be a non-empty list"),
    ("[economy.start_coins]\nlow = 1", "a range needs high"),
    ("[economy.start_coins]\nlow = 1\nhigh = 3\nfoo = 1", "unknown key 'foo'"),
    ("[economy.start_coins]\nlow = 1\nhigh = 3\nvalues = [1]", "either values or low/high"),
    ("", "the space names no parameter"),
    ("[wrath]\nthreshold = 3", "wrath.threshold must be a table"),
])
def test_an_impossible_space_is_refused_in_one_line_naming_the_key(text, message):
    with pytest.raises(SpaceError) as info:
        space_from_mapping(tomllib.loads(text))
    assert message in str(info.value) and "\n" not in str(info.value)


def test_file_problems_name_the_file(tmp_path):
    with pytest.raises(SpaceError, match="space file not found"):
        load_space(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[economy.start_coins\n")
    with pytest.raises(SpaceError, match=r"bad\.toml: TOML syntax error"):
        load_space(bad)
