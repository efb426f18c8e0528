"""plsim sweep end to end: cells are ordinary runs on common seeds, tables, effects, plot, page."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.sweep.run import finish_sweep

GAMES = 6


def sweep(*args: str):
    return CliRunner().invoke(main, ["sweep", *args, "--games", str(GAMES), "--seed", "3", "--workers", "1",
                                     "--quiet"])


@pytest.fixture(scope="module")
def threshold_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "wrath"
    result = sweep("--vary", "wrath.threshold=7,13", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out, result.output


def test_every_cell_is_an_ordinary_run_folder_on_the_same_seeds(threshold_sweep):
    out, _ = threshold_sweep
    cells = sorted(p.name for p in (out / "cells").iterdir())
    assert cells == ["wrath.threshold=13", "wrath.threshold=7"]
    seeds = [pl.read_parquet(out / "cells" / c / "games.parquet").sort("game")["seed"].to_list() for c in cells]
    assert seeds[0] == seeds[1] and len(seeds[0]) == GAMES
    info = json.loads((out / "cells" / "wrath.threshold=7" / "run.json").read_text())
    assert info["rules"]["wrath"]["threshold"] == 7 and info["status"] == "complete"
    report = CliRunner().invoke(main, ["report", str(out / "cells" / "wrath.threshold=7")])
    assert report.exit_code == 0, report.output


def test_the_default_cell_plays_exactly_the_games_of_plain_run(threshold_sweep, tmp_path):
    out, _ = threshold_sweep
    run = CliRunner().invoke(main, ["run", "--games", str(GAMES), "--seed", "3", "--workers", "1", "--quiet",
                                    "--out", str(tmp_path / "plain")])
    assert run.exit_code == 0, run.output
    plain = pl.read_parquet(tmp_path / "plain" / "games.parquet").drop("duration_s").sort("game")
    cell = pl.read_parquet(out / "cells" / "wrath.threshold=13" / "games.parquet").drop("duration_s").sort("game")
    assert cell.equals(plain)


def test_tables_have_a_row_per_cell_and_strategy_and_effects_against_the_scenarios_own_value(threshold_sweep):
    out, output = threshold_sweep
    table = pl.read_csv(out / "sweep.csv")
    assert table.height == 2 * 4 and set(table["wrath.threshold"]) == {7, 13}
    for column in ("win_rate", "ci_low", "ci_high", "seat_spread", "rounds_mean", "invader_release_share",
                   "victory_share", "cell_games"):
        assert column in table.columns
    seats = pl.read_csv(out / "sweep_seats.csv")
    assert seats.height == 2 * 4
    effects = pl.read_csv(out / "effects.csv")
    assert set(effects["baseline"]) == {"wrath.threshold=13"} and set(effects["cell"]) == {"wrath.threshold=7"}
    assert (effects["pairs"] == GAMES).all()
    assert "baseline wrath.threshold=13" in output and "Paired effects against wrath.threshold=13" in output
    for name in ("sweep.png", "report.html", "sweep_health.csv"):
        assert (out / name).stat().st_size > 0


def test_finish_sweep_rebuilds_the_same_tables_from_the_folders(threshold_sweep):
    out, _ = threshold_sweep
    before = pl.read_csv(out / "sweep.csv")
    again = finish_sweep(out)
    assert again.tables["sweep"].drop("cell").shape == before.drop("cell").shape
    assert pl.read_csv(out / "sweep.csv").equals(before)


def test_a_resumed_sweep_replays_a_lost_cell_to_the_same_games(threshold_sweep, tmp_path):
    out, _ = threshold_sweep
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    cell = copy / "cells" / "wrath.threshold=7"
    before = pl.read_parquet(cell / "games.parquet").drop("duration_s").sort("game")
    for name in ("games.parquet", "rounds.parquet"):
        (cell / name).unlink()
    result = CliRunner().invoke(main, ["sweep", "--resume", str(copy), "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert pl.read_parquet(cell / "games.parquet").drop("duration_s").sort("game").equals(before)
    refused = CliRunner().invoke(main, ["sweep", "--resume", str(copy), "--vary", "players=2"])
    assert refused.exit_code == 2 and "drop --vary" in refused.output


def test_plsim_run_resume_on_a_sweep_folder_resumes_the_sweep_and_rebuilds_its_tables(threshold_sweep, tmp_path):
    out, _ = threshold_sweep
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    cell = copy / "cells" / "wrath.threshold=7"
    for name in ("games.parquet", "rounds.parquet", "cards.parquet"):
        (cell / name).unlink()
    (copy / "sweep.csv").unlink()
    result = CliRunner().invoke(main, ["run", "--resume", str(copy), "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert pl.read_csv(copy / "sweep.csv").equals(pl.read_csv(out / "sweep.csv"))
    refused = CliRunner().invoke(main, ["run", "--resume", str(copy), "--games", "5"])
    assert refused.exit_code == 2 and "grid.json; drop --games" in refused.output


def test_a_players_sweep_cycles_the_list_and_says_who_plays(tmp_path):
    result = sweep("--vary", "players=2,5", "--baseline", "players=5", "--out", str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    table = pl.read_csv(tmp_path / "p" / "sweep.csv")
    two = table.filter(pl.col("players") == 2)
    assert sorted(two["strategy"]) == ["economist", "warlord"]
    assert "only economist, warlord of the list play" in result.output
    assert "baseline players=5" in result.output


@pytest.mark.parametrize("args,message", [
    (["--vary", "wrath.treshold=7,9"], "closest: wrath.threshold"),
    (["--vary", "wrath.threshold=0,9"], "out of range: allowed 1..99"),
    (["--vary", "players=2,3", "--baseline", "players=4"], "not one of the swept values"),
    (["--vary", "wrath.after_release=5", "--vary", "wrath.threshold=4,9"], "cell wrath.after_release=5,wrath.threshold=4"),
    ([], "needs at least one --vary"),
])
def test_bad_axes_are_one_line_and_exit_2_before_any_game(args, message, tmp_path):
    result = CliRunner().invoke(main, ["sweep", *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_scenario_files_make_cell_folders_inside_out_named_by_their_stems(tmp_path, monkeypatch):
    """Issue 19: ``scenario=../../x.toml`` made a cell folder outside --out; two files of one stem
    get distinct folders."""
    from chaos import write_quick

    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        write_quick(tmp_path / folder)
    monkeypatch.chdir(work)
    result = sweep("--vary", "scenario=../../one/quick.toml,../../two/quick.toml,standard-2p", "--out", "out")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (work / "out" / "cells").iterdir()) == [
        "scenario=quick", "scenario=quick-2", "scenario=standard-2p"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "one", "two"]
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == ["quick.toml"]
    table = pl.read_csv(work / "out" / "sweep.csv")
    assert set(table["cell"]) == {"scenario=quick", "scenario=quick-2", "scenario=standard-2p"}
