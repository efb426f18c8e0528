"""plsim sweep over switches (issue 20): a choice's names, true/false and one seat's element.

Cells, tables and the plot name each value as the user wrote it (``setup.home_order=snake``),
and the plot puts values that have no order on a categorical axis. The games are kept short (a
5-round limit): these tests are about the plumbing, not about what a switch does to a game.
"""

from __future__ import annotations

import json

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.sweep.axes import Axis, SweepError, parse_axes, parse_axis
from plsim.sweep.plot import sweep_figure
from plsim.sweep.run import plan_sweep

GAMES = 3
SHORT = '[scenario]\nname = "short"\nextends = "standard-4p"\n[rules.victory]\nmax_rounds = 5\n'


# --- axes ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,axis", [
    ("setup.home_order=turn,reverse,snake,random", Axis("setup.home_order", ("turn", "reverse", "snake", "random"))),
    (" items.captured_prophet = keep , discard ", Axis("items.captured_prophet", ("keep", "discard"))),
    ("movement.free_settlements_block=false,true", Axis("movement.free_settlements_block", (False, True))),
    ("setup.seat_coins.3=0..6:2", Axis("setup.seat_coins.3", (0, 2, 4, 6))),
    ("setup.seat_coins[3]=0,5", Axis("setup.seat_coins.3", (0, 5))),
    ("setup.seat_coins=[0,0,0,0,0,0],[0,0,0,2,2,0]",
     Axis("setup.seat_coins", ((0, 0, 0, 0, 0, 0), (0, 0, 0, 2, 2, 0)))),
])
def test_a_choice_is_swept_by_its_names_a_bool_by_true_false_and_a_seat_by_its_element(text, axis):
    assert parse_axis(text) == axis


@pytest.mark.parametrize("text,message", [
    ("setup.home_order=turn,snek", "--vary setup.home_order: rules.setup.home_order = 'snek' is not one of "
                                   "turn, reverse, snake, random"),
    ("setup.home_order=turn,turn", "the value turn is given twice"),
    ("setup.home_order=1..3", "is not one of turn, reverse, snake, random"),
    ("movement.free_settlements_block=0,1", "rules.movement.free_settlements_block: expected true or false, got 0"),
    ("setup.seat_coins.3=0,1000", "rules.setup.seat_coins.3 = 1000 is out of range: allowed 0..999"),
    ("setup.seat_coins.6=0,1", "rules.setup.seat_coins has the elements 0..5"),
    ("setup.seat_coins[7]=0,1", "rules.setup.seat_coins has the elements 0..5"),
    ("wrath.threshold.1=3", "rules.wrath.threshold has no elements to set one by one"),
    ("setup.seat_coins=[0,0]", "expected a list of 6 whole numbers, got 2"),
])
def test_a_bad_switch_value_is_one_line_naming_the_key_and_the_allowed_values(text, message):
    with pytest.raises(SweepError) as info:
        parse_axis(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_seat_list_is_swept_whole_or_by_elements_not_both():
    with pytest.raises(SweepError, match="both set setup.seat_coins; vary the whole list or its elements"):
        parse_axes(["setup.seat_coins=[0,0,0,0,0,0]", "setup.seat_coins.3=0,2"])
    with pytest.raises(SweepError, match="setup.seat_coins.3 is given more than once"):
        parse_axes(["setup.seat_coins[3]=0", "setup.seat_coins.3=2"])
    assert [a.key for a in parse_axes(["setup.seat_coins.0=0,2", "setup.seat_coins.3=0,2"])] == \
        ["setup.seat_coins.0", "setup.seat_coins.3"]


def test_cells_set_the_named_values_and_the_baseline_is_the_scenarios_own_or_the_one_given():
    _, _, cells, baseline = plan_sweep(None, ["movement.free_settlements_block=true,false",
                                              "setup.home_order=snake,turn"], None)
    assert [c.name for c in cells][:2] == ["movement.free_settlements_block=true,setup.home_order=snake",
                                           "movement.free_settlements_block=true,setup.home_order=turn"]
    assert cells[baseline].name == "movement.free_settlements_block=false,setup.home_order=turn"
    rules = cells[0].scenario.rules
    assert rules.movement.free_settlements_block is True and rules.setup.home_order == "snake"
    _, _, cells, baseline = plan_sweep(None, ["setup.home_order=turn,snake"], None, ["setup.home_order=snake"])
    assert cells[baseline].name == "setup.home_order=snake"
    _, _, cells, baseline = plan_sweep(None, ["setup.seat_coins.3=0,2"], None, ["setup.seat_coins[3]=2"])
    assert cells[baseline].name == "setup.seat_coins.3=2"


# --- end to end ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def seat_sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("switches")
    (root / "short.toml").write_text(SHORT)
    out = root / "out"
    result = CliRunner().invoke(main, ["sweep", str(root / "short.toml"), "--vary", "setup.home_order=turn,snake",
                                       "--vary", "setup.seat_coins[3]=0,2", "--games", str(GAMES), "--seed", "3",
                                       "--workers", "1", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


NAMES = ["setup.home_order=snake,setup.seat_coins.3=0", "setup.home_order=snake,setup.seat_coins.3=2",
         "setup.home_order=turn,setup.seat_coins.3=0", "setup.home_order=turn,setup.seat_coins.3=2"]


def test_cell_folders_are_named_by_the_values_name_and_play_its_rules(seat_sweep):
    out, output = seat_sweep
    assert sorted(p.name for p in (out / "cells").iterdir()) == NAMES
    info = json.loads((out / "cells" / NAMES[1] / "run.json").read_text())
    assert info["rules"]["setup"]["home_order"] == "snake"
    assert info["rules"]["setup"]["seat_coins"] == [0, 0, 0, 2, 0, 0]
    assert "baseline setup.home_order=turn,setup.seat_coins.3=0" in output


def test_every_table_labels_cells_by_the_values_name(seat_sweep):
    out, _ = seat_sweep
    for name in ("sweep.csv", "sweep_seats.csv", "sweep_health.csv", "effects.csv"):
        table = pl.read_csv(out / name)
        assert table["setup.home_order"].dtype == pl.String, name
        assert set(table["setup.home_order"]) <= {"turn", "snake"} and set(table["setup.seat_coins.3"]) <= {0, 2}
        assert set(table["cell"]) <= set(NAMES), name
    effects = pl.read_csv(out / "effects.csv")
    assert set(effects["baseline"]) == {"setup.home_order=turn,setup.seat_coins.3=0"}
    assert "setup.home_order=snake" in (out / "report.html").read_text()
    assert (out / "sweep.png").stat().st_size > 0


def test_the_plot_puts_names_and_true_false_on_a_categorical_axis():
    rows = [{"cell": f"{order},{flag}", "setup.home_order": order, "movement.free_settlements_block": flag,
             "strategy": "economist", "win_rate": 0.25, "ci_low": 0.1, "ci_high": 0.4,
             **{f"{m}{s}": 0.5 for m in ("seat_spread", "rounds_mean", "invader_release_share", "victory_share")
                for s in ("", "_low", "_high")}}
            for order in ("turn", "reverse", "snake", "random") for flag in (False, True)]
    axes = parse_axes(["setup.home_order=turn,reverse,snake,random", "movement.free_settlements_block=false,true"])
    figure = sweep_figure(pl.DataFrame(rows), axes, [4])
    bottom = figure.axes[-1]
    assert [t.get_text() for t in bottom.get_xticklabels()] == ["turn", "reverse", "snake", "random"]
    assert bottom.get_xlim() == (-0.5, 3.5)
    assert not any(line.get_linestyle() == "-" and len(line.get_xdata()) > 1 for line in bottom.get_lines())
    assert "movement.free_settlements_block = true" in figure.axes[1].get_title()
    flags = sweep_figure(pl.DataFrame(rows), tuple(reversed(axes)), [4]).axes[-1]
    assert [t.get_text() for t in flags.get_xticklabels()] == ["false", "true"]
