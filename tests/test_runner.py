"""run_batch: the files it writes, seeds and seats, worker-count independence, failures kept."""

import json

import polars as pl
import pytest

from plsim.runner import executors
from plsim.runner.batch import (
    GameFailed, RunConfigError, run_batch, run_tables,
)
from plsim.runner.executors import Plan
from plsim.runner.frames import GAMES_SCHEMA, ROUNDS_SCHEMA
from plsim.runner.seeding import game_seed
from plsim.scenario import ScenarioError
from plsim.strategy.registry import StrategyLoadError

BOOM = '''
from plsim.strategy.interface import Strategy

class Boom(Strategy):
    """Plays randomly, but raises in round 3 of the games whose seat seed says so."""
    name = "boom"
    description = "raises now and then"

    def choose(self, view, decision):
        if getattr(self, "doomed", None) is None:
            self.doomed = self.rng.random() < {share}
        if self.doomed and view.round >= 3:
            raise ValueError("kaboom")
        return decision.options[self.rng.randrange(len(decision.options))]
'''


def boom_plugin(tmp_path, share=0.15):
    path = tmp_path / f"boom{int(share * 100)}.py"
    path.write_text(BOOM.replace("{share}", str(share)))
    return f"{path}:Boom"


@pytest.fixture(scope="module")
def inline_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "inline"
    return run_batch("standard-3p", None, games=9, workers=1, seed=5, out=out, progress=False, chunk_size=4)


def test_run_batch_writes_every_file_and_the_totals(inline_run):
    out = inline_run.out_dir
    for name in ("games.parquet", "rounds.parquet", "summary.csv", "seats.csv", "end_reasons.csv", "run.json",
                 "winrates.png", "wrath.png", "length.png", "vp.png"):
        assert (out / name).is_file(), name
    assert not (out / "parts").exists()
    info = json.loads((out / "run.json").read_text())
    assert info["scenario"] == "standard-3p" and info["seed"] == 5 and info["status"] == "complete"
    assert info["games"] == 9 and info["decisions"] == inline_run.games["decisions"].sum()
    assert info["seconds_in_games"] > 0 and info["wall_seconds"] > 0
    assert set(info["versions"]) == {"plsim", "python", "polars"}
    assert info["rules"]["wrath"]["threshold"] > 0
    assert info["strategies"] == ["economist", "warlord", "judge-rush"]  # the scenario's defaults
    assert inline_run.totals == {k: info[k] for k in ("games", "decisions", "seconds_in_games", "wall_seconds")}


def test_frames_have_one_row_per_game_and_per_round_and_seat(inline_run):
    games = pl.read_parquet(inline_run.out_dir / "games.parquet")
    rounds = pl.read_parquet(inline_run.out_dir / "rounds.parquet")
    assert games.schema == pl.Schema(GAMES_SCHEMA) and rounds.schema == pl.Schema(ROUNDS_SCHEMA)
    assert games["game"].to_list() == list(range(9))
    assert games["seed"].to_list() == [game_seed(5, i) for i in range(9)]
    per_game = rounds.group_by("game").agg(pl.len(), pl.col("round").n_unique().alias("rounds")).sort("game")
    assert per_game["len"].to_list() == [3 * r for r in per_game["rounds"]]
    assert rounds.select(pl.struct("game", "round", "seat").is_unique().all()).item()


def test_one_worker_and_two_give_identical_frames(tmp_path, inline_run):
    two = run_batch("standard-3p", None, games=9, workers=2, seed=5, out=tmp_path / "two", progress=False,
                    chunk_size=2)
    assert two.games.drop("duration_s").equals(inline_run.games.drop("duration_s"))
    assert pl.read_parquet(two.out_dir / "rounds.parquet").equals(
        pl.read_parquet(inline_run.out_dir / "rounds.parquet"))
    assert two.run_info["executor"] == "process"


def test_chunk_size_does_not_change_the_games(tmp_path, inline_run):
    other = run_batch("standard-3p", None, games=9, workers=1, seed=5, out=tmp_path / "c", progress=False,
                      chunk_size=1)
    assert other.games.drop("duration_s").equals(inline_run.games.drop("duration_s"))


def test_strategies_rotate_over_seats(tmp_path):
    seats = Plan((("a", "b", "c"),), 6, 3, "rotate", 0).game
    assert [seats(i)[1] for i in range(4)] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b"), ("a", "b", "c")]


def test_plan_interleaves_tables_and_can_share_seeds():
    plan = Plan((("a", "b"), ("c", "d")), 3, 2, "fixed", 9)
    assert plan.games == 6
    assert [plan.game(g)[1] for g in range(4)] == [("a", "b"), ("c", "d"), ("a", "b"), ("c", "d")]
    assert plan.game(0)[0] != plan.game(1)[0]
    shared = Plan((("a", "b"), ("c", "d")), 3, 2, "fixed", 9, common_seeds=True)
    assert shared.game(2)[0] == shared.game(3)[0] == game_seed(9, 1)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_strategy_keeps_the_finished_games(tmp_path, workers):
    entry = boom_plugin(tmp_path)
    with pytest.raises(GameFailed) as caught:
        run_batch("standard-2p", [entry, "random"], games=24, workers=workers, seed=1, out=tmp_path / "o",
                  progress=False, chunk_size=3)
    failure, result = caught.value.failure, caught.value.result
    assert failure.kind == "strategy" and caught.value.is_strategy_error
    assert "kaboom" in failure.message and failure.seed == game_seed(1, failure.game)
    assert f"--seed {failure.seed}" in caught.value.replay and "\n" not in str(caught.value)
    games = pl.read_parquet(tmp_path / "o" / "games.parquet")
    assert games.height == result.totals["games"] >= 1
    assert failure.game not in games["game"].to_list()
    assert games["game"].is_sorted()
    info = json.loads((tmp_path / "o" / "run.json").read_text())
    assert info["status"] == "failed" and info["failure"]["game"] == failure.game
    assert (tmp_path / "o" / "error.txt").is_file() and (tmp_path / "o" / "summary.csv").is_file()


def test_an_engine_error_is_reported_as_such(tmp_path, monkeypatch):
    real = executors.play_game

    def flaky(board, rules, strategies, seed):
        if seed == game_seed(0, 2):
            raise KeyError("engine bug")
        return real(board, rules, strategies, seed)

    monkeypatch.setattr(executors, "play_game", flaky)
    with pytest.raises(GameFailed) as caught:
        run_batch("standard-2p", None, games=4, workers=1, out=tmp_path / "o", progress=False, chunk_size=4)
    assert caught.value.failure.kind == "engine" and caught.value.failure.game == 2
    assert "KeyError" in caught.value.failure.message
    assert caught.value.result.games["game"].to_list() == [0, 1]


@pytest.mark.parametrize("kwargs, error", [
    ({"games": 0}, RunConfigError),
    ({"workers": 0}, RunConfigError),
    ({"seating": "sideways"}, RunConfigError),
    ({"executor": "cloud"}, RunConfigError),
    ({"players": ["no-such-strategy"]}, StrategyLoadError),
    ({"players": ["random"] * 5}, RunConfigError),
    ({"scenario": "no-such-scenario"}, ScenarioError),
])
def test_bad_input_fails_before_anything_is_written(tmp_path, kwargs, error):
    args = {"scenario": None, "games": 3, "workers": 1, "out": tmp_path / "o", "progress": False, **kwargs}
    with pytest.raises(error):
        run_batch(**args)
    assert not (tmp_path / "o").exists()


def test_a_folder_holding_a_run_is_refused_unless_forced(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    run_batch("standard-2p", None, games=2, workers=1, out=out, progress=False)
    with pytest.raises(RunConfigError, match="already holds a run"):
        run_batch("standard-2p", None, games=2, workers=1, out=out, progress=False)
    again = run_batch("standard-2p", None, games=3, workers=1, out=out, progress=False, force=True)
    assert again.games.height == 3 and (out / "notes.txt").read_text() == "mine"


def test_dask_executor_without_dask_says_how_to_install(tmp_path):
    if executors.dask_available():
        pytest.skip("dask is installed")
    with pytest.raises(RunConfigError, match=r"pip install plsim\[dask\]"):
        run_tables(None, [["random"]], 2, workers=1, out=tmp_path / "o", executor="dask", progress=False)


def test_dask_executor_gives_the_same_games(tmp_path):
    pytest.importorskip("dask.distributed")
    inline = run_batch("standard-2p", None, games=4, workers=1, out=tmp_path / "a", progress=False)
    dask = run_batch("standard-2p", None, games=4, workers=2, out=tmp_path / "b", progress=False, executor="dask")
    assert dask.games.drop("duration_s").equals(inline.games.drop("duration_s"))


def test_a_game_past_its_deadline_stops_the_run_with_the_finished_games_kept(tmp_path):
    plugin = tmp_path / "slow.py"
    plugin.write_text(
        "import time\n"
        "from plsim.strategy.interface import Strategy\n"
        "class Slow(Strategy):\n"
        "    name = 'slow'\n"
        "    def choose(self, view, decision):\n"
        "        if view.round >= 2 and self.rng.random() < 0.01:\n"
        "            time.sleep(30)\n"
        "        return decision.options[self.rng.randrange(len(decision.options))]\n"
    )
    with pytest.raises(GameFailed) as caught:
        run_batch("standard-2p", [f"{plugin}:Slow", "random"], games=8, workers=1, out=tmp_path / "o",
                  progress=False, chunk_size=8, game_timeout=0.5)
    assert caught.value.failure.kind == "timeout" and not caught.value.is_strategy_error
    assert "did not finish within 0.5 s" in str(caught.value)
    assert caught.value.result.games.height == caught.value.failure.game
