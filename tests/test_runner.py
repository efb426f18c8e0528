"""run_batch and run_cells: the files a run writes, seeds and seats, worker-count independence,
grids on common seeds, resuming, merging parts, and bad input refused before anything starts."""

import json

import polars as pl
import pytest

from chaos import write_quick
from plsim.rules import with_param
from plsim.runfolder import GAMES_SCHEMA, ROUNDS_SCHEMA, FrameSink, combine_parts
from plsim.runner import (
    KINDS, Cell, GameFailed, NothingPlayed, RunConfigError, RunOptions, Schedule, cells, game_seed, run_cells, worker,
)
from plsim.runs import FINISHERS, CompareResult, TournamentResult, resume_run, run_batch, run_compare, run_tournament
from plsim.scenario import ScenarioError, as_scenario, load_scenario
from plsim.strategy.registry import StrategyLoadError


def same_games(a, b) -> bool:
    """Two run folders hold the same games and rounds (timings aside)."""
    frames = [[pl.read_parquet(folder / f"{name}.parquet") for folder in (a, b)] for name in ("games", "rounds")]
    (ga, gb), (ra, rb) = frames
    return ga.drop("duration_s").equals(gb.drop("duration_s")) and ra.equals(rb)


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """A two-player scenario of six rounds (fast games)."""
    return write_quick(tmp_path_factory.mktemp("scenario"))


@pytest.fixture(scope="module")
def one_worker_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "one"
    return run_batch("standard-3p", None, games=6, workers=1, seed=5, out=out, progress=False)


def test_run_batch_writes_every_file_and_the_totals(one_worker_run):
    out = one_worker_run.out_dir
    for name in ("games.parquet", "rounds.parquet", "summary.csv", "seats.csv", "end_reasons.csv", "run.json",
                 "winrates.png", "wrath.png", "length.png", "vp.png"):
        assert (out / name).is_file(), name
    assert not (out / "parts").exists() and not (out / "faults.csv").exists()
    info = json.loads((out / "run.json").read_text())
    assert info["scenario"] == "standard-3p" and info["seed"] == 5 and info["status"] == "complete"
    assert info["games"] == info["games_requested"] == 6 and info["faults"] == 0
    assert info["decisions"] == one_worker_run.games["decisions"].sum()
    assert info["seconds_in_games"] > 0 and info["wall_seconds"] > 0
    assert set(info["versions"]) == {"plsim", "python", "polars"}
    assert info["rules"]["wrath"]["threshold"] > 0
    assert info["strategies"] == ["economist", "warlord", "judge-rush"]  # the scenario's defaults
    assert info["command"] == (f"plsim run standard-3p --games 6 --players economist,warlord,judge-rush "
                               f"--seed 5 --workers 1 --out {out}")
    assert one_worker_run.totals == {k: info[k] for k in ("games", "faults", "decisions", "seconds_in_games",
                                                          "wall_seconds")}


def test_frames_have_one_row_per_game_and_per_round_and_seat(one_worker_run):
    games = pl.read_parquet(one_worker_run.out_dir / "games.parquet")
    rounds = pl.read_parquet(one_worker_run.out_dir / "rounds.parquet")
    assert games.schema == pl.Schema(GAMES_SCHEMA) and rounds.schema == pl.Schema(ROUNDS_SCHEMA)
    assert games["game"].to_list() == list(range(6))
    assert games["seed"].to_list() == [game_seed(5, i) for i in range(6)]
    per_game = rounds.group_by("game").agg(pl.len(), pl.col("round").n_unique().alias("rounds")).sort("game")
    assert per_game["len"].to_list() == [3 * r for r in per_game["rounds"]]
    assert rounds.select(pl.struct("game", "round", "seat").is_unique().all()).item()


def test_one_worker_and_two_give_identical_frames(tmp_path, one_worker_run):
    two = run_batch("standard-3p", None, games=6, workers=2, seed=5, out=tmp_path / "two", progress=False)
    assert same_games(two.out_dir, one_worker_run.out_dir)
    assert two.run_info["executor"] == "process" and two.run_info["workers"] == 2


def test_options_come_as_one_dataclass(tmp_path, quick):
    options = RunOptions(seed=3, workers=2, out=tmp_path / "o", progress=False, seating="fixed")
    result = run_batch(quick, ["random"], 4, options)
    assert result.run_info["seed"] == 3 and result.run_info["seating"] == "fixed"
    with pytest.raises(RunConfigError, match="unknown run option"):
        run_batch(quick, ["random"], 4, options, chunk_size=2)


def test_strategies_rotate_over_seats():
    seats = Schedule((("a", "b", "c"),), 6, 3, "rotate", 0).game
    assert [seats(i)[1] for i in range(4)] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b"), ("a", "b", "c")]


def test_a_schedule_interleaves_lineups_and_can_share_seeds():
    schedule = Schedule((("a", "b"), ("c", "d")), 3, 2, "fixed", 9)
    assert schedule.games == 6
    assert [schedule.game(g)[1] for g in range(4)] == [("a", "b"), ("c", "d"), ("a", "b"), ("c", "d")]
    assert schedule.game(0)[0] != schedule.game(1)[0]
    shared = Schedule((("a", "b"), ("c", "d")), 3, 2, "fixed", 9, common_seeds=True)
    assert shared.game(2)[0] == shared.game(3)[0] == game_seed(9, 1)


def test_a_game_the_engine_breaks_is_an_engine_fault_naming_the_seed(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("engine bug")

    monkeypatch.setattr(worker, "play_game", broken)
    scenario = load_scenario("standard-2p")
    task = worker.CellTask(scenario, Schedule((("random",),), 3, 2, "rotate", 0), {"random": "random"})
    outcome = worker.play_job(task, 2)
    assert isinstance(outcome, worker.Faulted)
    assert (outcome.game, outcome.kind, outcome.seat) == (2, "engine", None)
    assert outcome.message == "KeyError: 'engine bug'" and "Traceback" in outcome.traceback


@pytest.mark.parametrize("kwargs, error", [
    ({"games": 0}, RunConfigError),
    ({"workers": 0}, RunConfigError),
    ({"seating": "sideways"}, RunConfigError),
    ({"executor": "cloud"}, RunConfigError),
    ({"on_fault": "ignore"}, RunConfigError),
    ({"game_timeout": float("inf")}, RunConfigError),
    ({"game_timeout": 0}, RunConfigError),
    ({"game_timeout": -1.0}, RunConfigError),
    ({"game_timeout": float("nan")}, RunConfigError),
    ({"players": ["no-such-strategy"]}, StrategyLoadError),
    ({"players": ["random"] * 5}, RunConfigError),
    ({"scenario": "no-such-scenario"}, ScenarioError),
])
def test_bad_input_fails_before_anything_is_written(tmp_path, kwargs, error):
    args = {"scenario": None, "games": 3, "workers": 1, "out": tmp_path / "o", "progress": False, **kwargs}
    with pytest.raises(error):
        run_batch(**args)
    assert not (tmp_path / "o").exists()


def test_a_plugin_that_exits_on_import_is_one_load_error(tmp_path):
    plugin = tmp_path / "leaves.py"
    plugin.write_text("import sys\nsys.exit(5)\n")
    with pytest.raises(StrategyLoadError, match="leaves.py"):
        run_batch(None, [f"{plugin}:Gone"], games=2, workers=1, out=tmp_path / "o", progress=False)
    assert not (tmp_path / "o").exists()


def test_a_folder_holding_a_run_is_refused_unless_forced(tmp_path, quick):
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(RunConfigError, match=r"holds files plsim did not write \(notes.txt\)"):
        run_batch(quick, None, games=2, workers=1, out=out, progress=False)  # issue 19: needs --force
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    run_batch(quick, None, games=2, workers=1, out=out, progress=False, force=True)
    with pytest.raises(RunConfigError, match="already holds a run"):
        run_batch(quick, None, games=2, workers=1, out=out, progress=False)
    again = run_batch(quick, None, games=3, workers=1, out=out, progress=False, force=True)
    assert again.games.height == 3 and (out / "notes.txt").read_text() == "mine"


def test_a_scenario_no_file_names_is_saved_into_the_folder_for_replays(tmp_path, quick):
    variant = as_scenario(quick)
    variant = type(variant)(**{**variant.__dict__, "rules": with_param(variant.rules, "victory.max_rounds", 3),
                               "path": None})
    result = run_batch(variant, ["random"], 2, workers=1, out=tmp_path / "v", progress=False)
    saved = tmp_path / "v" / "quick.toml"
    assert saved.is_file() and f"plsim run {saved} " in result.run_info["command"]
    assert as_scenario(saved).rules == variant.rules


def test_grid_cells_share_seeds_and_each_equals_a_separate_run(tmp_path, quick):
    base = as_scenario(quick)
    short = type(base)(**{**base.__dict__, "rules": with_param(base.rules, "victory.max_rounds", 3)})
    cells = [Cell(base, (("random",),), 5, name="rounds=6"), Cell(short, (("random",),), 5, name="rounds=3")]
    options = RunOptions(seed=8, workers=2, out=tmp_path / "grid", progress=False)
    results = run_cells(cells, options)
    assert [r.out_dir for r in results] == [tmp_path / "grid" / "cells" / name for name in ("rounds=6", "rounds=3")]
    assert json.loads((tmp_path / "grid" / "grid.json").read_text())["cells"] == ["rounds=6", "rounds=3"]
    assert results[0].games["seed"].to_list() == results[1].games["seed"].to_list()
    assert results[1].games["rounds"].max() <= 3 < results[0].games["rounds"].max()
    for cell, result in zip(cells, results):
        alone = run_batch(cell.scenario, ["random"], 5, workers=1, seed=8, out=tmp_path / f"alone-{cell.name}",
                          progress=False)
        assert same_games(result.out_dir, alone.out_dir)


def test_resume_plays_only_the_missing_games(tmp_path, quick):
    clean = run_batch(quick, ["random"], 12, workers=2, seed=4, out=tmp_path / "clean", progress=False)
    cut = tmp_path / "cut"
    run_batch(quick, ["random"], 12, workers=2, seed=4, out=cut, progress=False)
    # leave the folder as a run killed after 7 games would: some games in parts, run.json "running"
    games = pl.read_parquet(cut / "games.parquet")
    rounds = pl.read_parquet(cut / "rounds.parquet")
    for path in cut.glob("*.parquet"):
        path.unlink()
    sink = FrameSink(cut)
    kept = [0, 1, 2, 4, 5, 8, 9]
    sink.write(games.filter(pl.col("game").is_in(kept)), rounds.filter(pl.col("game").is_in(kept)))
    info = json.loads((cut / "run.json").read_text())
    (cut / "run.json").write_text(json.dumps({**info, "status": "running"}))
    (result,) = resume_run(cut, progress=False)
    assert result.status == "complete" and result.run_info["resumed"]
    assert same_games(cut, clean.out_dir)
    assert sorted(result.games["game"].to_list()) == list(range(12))


def test_a_comparison_grown_by_resume_equals_one_asked_for_that_size(tmp_path, quick):
    asked = run_compare("economist", "warlord", 6, quick, workers=2, seed=3, out=tmp_path / "asked", progress=False)
    grown = tmp_path / "grown"
    run_compare("economist", "warlord", 3, quick, workers=2, seed=3, out=grown, progress=False)
    (result,) = resume_run(grown, games_per_lineup=6, progress=False)
    assert isinstance(result, CompareResult) and result.run.status == "complete"
    assert same_games(grown, asked.run.out_dir)
    assert pl.read_csv(grown / "compare.csv").equals(pl.read_csv(asked.run.out_dir / "compare.csv"))
    info = json.loads((grown / "run.json").read_text())
    assert (info["games_per_table"], info["games_requested"], info["games"]) == (6, 12, 12)
    assert info["resumed"][-1]["grown"] == {"from": 3, "to": 6}


def test_a_tournament_and_a_run_grow_to_the_games_of_one_asked_for_that_size(tmp_path, quick):
    asked = run_tournament(["random", "economist", "warlord"], 4, quick, workers=1, seed=2,
                           out=tmp_path / "asked", progress=False)
    run_tournament(["random", "economist", "warlord"], 2, quick, workers=1, seed=2, out=tmp_path / "t",
                   progress=False)
    (result,) = resume_run(tmp_path / "t", games_per_lineup=4, progress=False)
    assert isinstance(result, TournamentResult) and same_games(tmp_path / "t", asked.run.out_dir)
    alone = run_batch(quick, ["random"], 5, workers=1, seed=6, out=tmp_path / "alone", progress=False)
    run_batch(quick, ["random"], 2, workers=1, seed=6, out=tmp_path / "r", progress=False)
    (again,) = resume_run(tmp_path / "r", games_per_lineup=5, progress=False)
    assert again.games.height == 5 and same_games(tmp_path / "r", alone.out_dir)


def test_a_run_never_shrinks_and_an_until_ci_run_does_not_grow(tmp_path, quick):
    run_batch(quick, ["random"], 3, workers=1, seed=1, out=tmp_path / "r", progress=False)
    with pytest.raises(RunConfigError, match=r"plans 3 games per table; --games 2 would drop some"):
        resume_run(tmp_path / "r", games_per_lineup=2, progress=False)
    assert json.loads((tmp_path / "r" / "run.json").read_text())["games_per_table"] == 3
    run_batch(quick, ["random"], 100, workers=1, seed=1, out=tmp_path / "ci", progress=False, until_ci=0.4)
    with pytest.raises(RunConfigError, match="--until-ci run: its precision sets its size"):
        resume_run(tmp_path / "ci", games_per_lineup=200, progress=False)


def test_combine_merges_parts_with_the_earlier_files_once_each_in_game_order(tmp_path, quick):
    run = run_batch(quick, ["random"], 6, workers=1, out=tmp_path / "r", progress=False)
    games = pl.read_parquet(run.out_dir / "games.parquet")
    rounds = pl.read_parquet(run.out_dir / "rounds.parquet")
    sink = FrameSink(run.out_dir)
    sink.write(games.filter(pl.col("game") >= 4), rounds.filter(pl.col("game") >= 4))  # already there
    assert combine_parts(run.out_dir, exclude={1})
    assert pl.read_parquet(run.out_dir / "games.parquet")["game"].to_list() == [0, 2, 3, 4, 5]
    assert pl.read_parquet(run.out_dir / "rounds.parquet").equals(rounds.filter(pl.col("game") != 1))


CHEAT = '''
import gc

from plsim.strategy.interface import Strategy


class Cheat(Strategy):
    """Finds the live table through the garbage collector and deals its core's dice anew (the
    state a table hands out is a snapshot: changing that would change no game)."""

    name = "cheat"

    def choose(self, view, decision):
        for obj in gc.get_objects():
            if type(obj).__name__ in ("Table", "Game"):
                obj.core.reseed(12345)
        return decision.options[0]
'''


def test_check_mode_turns_a_change_to_the_game_into_a_fault_naming_the_seat(tmp_path, quick):
    plugin = tmp_path / "cheat.py"
    plugin.write_text(CHEAT)
    entry = f"{plugin}:Cheat"
    unchecked = run_batch(quick, [entry, "random"], 2, workers=1, out=tmp_path / "unchecked", progress=False)
    assert unchecked.totals["faults"] == 0
    with pytest.raises(NothingPlayed) as nothing:  # every game a fault: no success (issue 46)
        run_batch(quick, [entry, "random"], 2, workers=1, out=tmp_path / "checked", progress=False, check=True,
                  on_fault="skip")
    checked = nothing.value.result
    assert checked.run_info["check"] is True and checked.totals["faults"] == 2
    faults = pl.read_csv(checked.out_dir / "faults.csv")
    assert faults["kind"].to_list() == ["strategy", "strategy"]
    assert faults["seat"].to_list() == [0, 1] and faults["strategy"].to_list() == [entry, entry]
    assert all(replay.endswith(" --check") for replay in faults["replay"])


def test_a_stopped_tournament_resumes_into_its_own_files(tmp_path, quick):
    boom = tmp_path / "boom.py"
    boom.write_text("from plsim.strategy.interface import Strategy\n"
                    "class Boom(Strategy):\n"
                    "    name = 'boom'\n"
                    "    def choose(self, view, decision):\n"
                    "        raise ValueError('kaboom')\n")
    names = ["random", f"{boom}:Boom"]
    with pytest.raises(GameFailed) as stopped:
        run_tournament(names, 3, quick, workers=1, out=tmp_path / "t", progress=False)
    assert stopped.value.result.status == "failed" and (tmp_path / "t" / "matrix.csv").is_file()
    with pytest.raises(NothingPlayed) as nothing:  # every game a fault: no success (issue 46)
        resume_run(tmp_path / "t", on_fault="skip", progress=False)
    resumed = nothing.value.result
    assert resumed.status == "failed" and (tmp_path / "t" / "matrix.csv").is_file()
    assert resumed.games.height == 3 and resumed.totals["faults"] == 3
    assert json.loads((tmp_path / "t" / "run.json").read_text())["kind"] == "tournament"


def test_a_grid_resumes_every_cell_as_one_queue(tmp_path, quick):
    base = as_scenario(quick)
    short = type(base)(**{**base.__dict__, "rules": with_param(base.rules, "victory.max_rounds", 3)})
    cells = [Cell(base, (("random",),), 6, name="a"), Cell(short, (("random",),), 6, name="b")]
    clean = run_cells(cells, RunOptions(seed=2, workers=2, out=tmp_path / "clean", progress=False))
    cut = run_cells(cells, RunOptions(seed=2, workers=2, out=tmp_path / "cut", progress=False))
    for result, kept in zip(cut, ([0, 3], [])):
        games, rounds = (pl.read_parquet(result.out_dir / f"{n}.parquet") for n in ("games", "rounds"))
        for path in result.out_dir.glob("*.parquet"):
            path.unlink()
        FrameSink(result.out_dir).write(games.filter(pl.col("game").is_in(kept)),
                                        rounds.filter(pl.col("game").is_in(kept)))
    with pytest.raises(RunConfigError, match="is a grid of runs: only a single run"):
        resume_run(tmp_path / "cut", games_per_lineup=8, progress=False)
    resumed = resume_run(tmp_path / "cut", progress=False)
    assert [r.status for r in resumed] == ["complete", "complete"]
    for before, after in zip(clean, resumed):
        assert same_games(before.out_dir, after.out_dir)


def test_the_progress_bar_moves_once_per_game(tmp_path, quick, monkeypatch):
    moves = []

    class Bar:
        def __init__(self, total, shown):
            self.total = total

        def update(self, n):
            moves.append(n)

        def write(self, text):
            pass

        def close(self):
            pass

    monkeypatch.setattr(cells, "progress_bar", Bar)
    run_batch(quick, ["random"], 7, workers=2, out=tmp_path / "o", progress=True)
    assert moves == [1] * 7


def test_every_kind_of_run_a_cell_can_be_has_its_finisher():
    """A resume rebuilds any kind the runner accepts, and plsim.runs finishes each of them."""
    assert set(FINISHERS) == set(KINDS)
