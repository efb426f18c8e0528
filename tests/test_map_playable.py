"""Issue 46 (V-2, SU-2, SU-4): a map too small for its scenario's player count is refused as the scenario
loads, in one line saying what is missing, exit 2 (every game collapsed in round 1, or a seat
had no home)."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from click.testing import CliRunner

from plsim.board import check_playable, default_board
from plsim.cli import main
from plsim.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

SHIPPED = json.loads(resources.files("plsim.board").joinpath("data/default_map.json").read_text())


def two_regions() -> dict:
    keep = {"Gilead", "Israel", None}
    return dict(SHIPPED, name="two-regions", standard=False,
                regions={k: v for k, v in SHIPPED["regions"].items() if k in keep},
                settlements=[s for s in SHIPPED["settlements"] if s.get("region") in keep])


def three_free() -> dict:
    free = [s["name"] for s in SHIPPED["settlements"] if not s.get("canaanite")][3:]
    return dict(SHIPPED, name="three-free", standard=False,
                settlements=[dict(s, canaanite=True) if s["name"] in free else s for s in SHIPPED["settlements"]])


@pytest.mark.parametrize("command, make, message", [
    ("run", two_regions, "map two-regions cannot hold 4 players (V-2, SU-2): V-2 needs 3 regions of at least 4 "
     "settlements (victory.min_judge_regions, victory.region_min_settlements), it has 2 (Gilead, Israel), so every "
     "game would collapse in round 1"),
    ("play", three_free, "map three-free cannot hold 4 players (V-2, SU-2): SU-2 gives each player a home, 4 settlements "
     "free of Canaanites and at least 2 hexes apart (setup.home_min_distance); it has 3 free settlements but not 4 "
     "that far apart"),
])
def test_a_map_too_small_for_its_players_is_refused_in_one_line(tmp_path, command, make, message):
    (tmp_path / "small.json").write_text(json.dumps(make()))
    scenario = tmp_path / "small.toml"
    scenario.write_text('[scenario]\nplayers = 4\nmap = "small.json"\n')
    args = ["run", str(scenario), "--games", "2", "--workers", "1", "--quiet", "--out", str(tmp_path / "out")] \
        if command == "run" else ["play", str(scenario), "--quiet"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [f"Error: {scenario}: {message}"]
    assert not (tmp_path / "out").exists()


def test_the_shipped_map_holds_every_player_count():
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        check_playable(default_board(), players, Rules())


def huge() -> dict:
    """The shipped map widened past 65,535 hexes (a 100,000-hex map once loaded, then failed every game)."""
    width = SHIPPED["width"] + 100000 // len(SHIPPED["terrain"])
    return dict(SHIPPED, name="huge", standard=False, width=width,
                terrain=[row + "P" * (width - len(row)) for row in SHIPPED["terrain"]])


def many_regions() -> dict:
    regions = dict(SHIPPED["regions"], **{f"R{i}": {"colour": "#123456"} for i in range(300)})
    return dict(SHIPPED, name="many-regions", standard=False, regions=regions)


@pytest.mark.parametrize("make, message", [
    (huge, "a map holds at most 65,535 hexes (the engine numbers hexes in 16 bits), got "),
    (many_regions, "a map holds at most 255 regions (the engine numbers regions in 8 bits), got 30"),
])
def test_a_map_larger_than_the_engine_holds_is_refused_as_the_scenario_loads(tmp_path, make, message):
    """Issue 61: every size the engine's types cannot carry is refused in one line naming the limit."""
    (tmp_path / "big.json").write_text(json.dumps(make()))
    scenario = tmp_path / "big.toml"
    scenario.write_text('[scenario]\nplayers = 4\nmap = "big.json"\n')
    result = CliRunner().invoke(main, ["run", str(scenario), "--games", "2", "--workers", "1", "--quiet",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert line.startswith("Error: ") and message in line, line
    assert not (tmp_path / "out").exists()
