"""Sweep axes: --vary KEY=VALUES is parsed, typed and checked before any game runs."""

import pytest

from plsim.sweep.axes import Axis, SweepError, cell_name, grid, parse_axes, parse_axis


@pytest.mark.parametrize("text,key,values", [
    ("wrath.threshold=7,10,13,16", "wrath.threshold", (7, 10, 13, 16)),
    ("players=2..6", "players", (2, 3, 4, 5, 6)),
    ("economy.start_coins=6..20:4", "economy.start_coins", (6, 10, 14, 18)),
    ("combat.winner_losses=0.25..0.75:0.25", "combat.winner_losses", (0.25, 0.5, 0.75)),
    ("combat.winner_losses=0,1", "combat.winner_losses", (0.0, 1.0)),
    ("turns.rotate_first_player=true,false", "turns.rotate_first_player", (True, False)),
    ("defence.wall_by_siege_round=[4,2,0],[6,3,0]", "defence.wall_by_siege_round", ((4, 2, 0), (6, 3, 0))),
    ("scenario=standard-4p,low-wrath", "scenario", ("standard-4p", "low-wrath")),
    (" wrath.threshold = 7 , 9 ", "wrath.threshold", (7, 9)),
])
def test_values_are_lists_or_inclusive_ranges_in_the_parameters_own_type(text, key, values):
    axis = parse_axis(text)
    assert axis == Axis(key, values)
    assert [type(v) for v in axis.values] == [type(v) for v in values]


@pytest.mark.parametrize("text,message", [
    ("wrath.treshold=7,9", "unknown key 'wrath.treshold' (closest: wrath.threshold"),
    ("start_coins=6,8", "closest: economy.start_coins"),
    ("wrath.threshold=0,13", "rules.wrath.threshold = 0 is out of range: allowed 1..99"),
    ("costs.wall=1.5", "rules.costs.wall: expected a whole number, got 1.5"),
    ("turns.rotate_first_player=1", "expected true or false"),
    ("wrath.threshold=abc", "'abc' is not a value"),
    ("players=1..3", "1 is not a player count (2..6)"),
    ("scenario=no-such", "unknown scenario 'no-such'"),
    ("wrath.threshold=9..7", "runs backwards"),
    ("wrath.threshold=7..9:0", "step of '7..9:0' must be positive"),
    ("wrath.threshold=7,7", "the value 7 is given twice"),
    ("wrath.threshold", "expected KEY=VALUES"),
    ("wrath.threshold=1..99999", "at most 200 per axis"),
])
def test_a_bad_axis_is_one_line_naming_the_key_or_value(text, message):
    with pytest.raises(SweepError) as info:
        parse_axis(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_one_to_three_axes_each_key_once():
    with pytest.raises(SweepError, match="at least one"):
        parse_axes([])
    with pytest.raises(SweepError, match="at most 3"):
        parse_axes(["players=2,3", "wrath.threshold=7", "costs.wall=1", "costs.troop=1"])
    with pytest.raises(SweepError, match="more than once"):
        parse_axes(["players=2,3", "players=4"])


def test_the_grid_is_full_and_the_first_axis_varies_slowest():
    axes = parse_axes(["players=2,3", "wrath.threshold=7,10,13"])
    cells = grid(axes)
    assert len(cells) == 6 and cells[:3] == [(2, 7), (2, 10), (2, 13)]
    assert cell_name(axes, cells[4]) == "players=3,wrath.threshold=10"
    assert cell_name(parse_axes(["combat.winner_losses=0,1"]), (1.0,)) == "combat.winner_losses=1.0"
