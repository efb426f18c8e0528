"""plsim run --until-ci: blocks of games until every strategy's interval is narrow enough, the
games exactly a fixed run's first N, run.json and the summary saying which limit stopped it."""

import json

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.runner import Cell, RunConfigError, RunOptions, run_cells
from plsim.runner.dispatch import WAIT
from plsim.runner.pool import Job
from plsim.runner.precision import BLOCK, PrecisionGate
from plsim.runs import resume_run, run_batch
from plsim.scenario import as_scenario


QUICK_WINS = """[scenario]
name = "quick-wins"
players = 2
strategies = ["random"]
[rules.victory]
max_rounds = 12
points = 1
"""


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """Two random players, twelve rounds, one victory point to win: about one game in three is
    won, in a hundredth of a second."""
    path = tmp_path_factory.mktemp("scenario") / "quick-wins.toml"
    path.write_text(QUICK_WINS)
    return path


def frames_equal(a, b) -> bool:
    return all(
        pl.read_parquet(a / f"{name}.parquet").drop("duration_s", strict=False)
        .equals(pl.read_parquet(b / f"{name}.parquet").drop("duration_s", strict=False))
        for name in ("games", "rounds", "cards")
    )


def test_the_gate_waits_for_a_whole_block_then_stops_when_every_interval_is_narrow():
    gate = PrecisionGate(target=0.3, limit=1000, block=4)
    jobs = gate.jobs(0, done=set())
    first = [next(jobs) for _ in range(4)]
    assert first == [Job(0, g) for g in range(4)]
    assert next(jobs) is WAIT and next(jobs) is WAIT  # nothing more until the block is in
    for _ in range(3):
        gate.record(["a", "b"], 0, "victory")
    assert next(jobs) is WAIT
    gate.record(["a", "b"], 1, "victory")
    assert gate.half_widths()["a"] > 0.3  # 3 of 4: still too wide, so the next block comes
    assert [next(jobs) for _ in range(4)] == [Job(0, g) for g in range(4, 8)]
    for _ in range(4):
        gate.record(["a", "b"], None, "draw")
    assert max(gate.half_widths().values()) <= 0.3
    assert next(jobs, None) is None and gate.stopped_by == "precision"


def test_the_gate_stops_at_the_limit_and_skips_games_a_resumed_run_has():
    gate = PrecisionGate(target=0.001, limit=6, block=4)
    jobs = gate.jobs(0, done={1, 2})
    assert [next(jobs), next(jobs)] == [Job(0, 0), Job(0, 3)]
    gate.record(["a"], 0, "victory")
    gate.record(["a"], 0, "victory")
    assert [next(jobs), next(jobs)] == [Job(0, 4), Job(0, 5)]
    gate.record(["a"], 0, "fault")
    gate.record(["a"], 0, "victory")
    assert next(jobs, None) is None and gate.stopped_by == "games"
    assert gate.seat_games["a"] == 3  # the fault adds no outcome


def test_until_ci_stops_after_whole_blocks_with_the_games_of_a_fixed_run(quick, tmp_path):
    gated = run_batch(quick, "random,random", games=5000, until_ci=0.04, workers=2, seed=4,
                      out=tmp_path / "gated", progress=False)
    info = gated.run_info
    played = info["games"]
    assert info["status"] == "complete" and info["stopped_by"] == "precision" and info["until_ci"] == 0.04
    assert played % BLOCK == 0 and BLOCK < played < 5000
    assert gated.games["game"].sort().to_list() == list(range(played))
    assert all(row["ci_high"] - row["ci_low"] <= 2 * 0.04 for row in gated.report.summary.iter_rows(named=True))
    fixed = run_batch(quick, "random,random", games=played, workers=1, seed=4, out=tmp_path / "fixed",
                      progress=False)
    assert frames_equal(gated.out_dir, fixed.out_dir)
    # one block fewer was not precise enough: the rule stopped at the first block that was
    shorter = run_batch(quick, "random,random", games=played - BLOCK, until_ci=0.04, workers=1, seed=4,
                        out=tmp_path / "shorter", progress=False)
    assert shorter.run_info["stopped_by"] == "games" and shorter.run_info["status"] == "complete"


def test_until_ci_at_the_games_limit_says_so_and_resume_plays_nothing_more(quick, tmp_path):
    out = tmp_path / "capped"
    result = CliRunner().invoke(main, ["run", str(quick), "--players", "random,random", "--games", "150",
                                       "--until-ci", "0.01", "--workers", "1", "--seed", "2", "--quiet",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "stopped at --games 150 before every strategy's 95% interval was within ±1.0 pp (widest: random" in result.output
    info = json.loads((out / "run.json").read_text())
    assert (info["games"], info["stopped_by"], info["status"]) == (150, "games", "complete")
    assert "--until-ci 0.01" in info["command"]
    (again,) = resume_run(out, progress=False)
    assert again.run_info["games"] == 150 and again.run_info["stopped_by"] == "games"


def test_a_resumed_until_ci_run_counts_the_games_it_already_has(quick, tmp_path):
    out = tmp_path / "resumed"
    first = run_batch(quick, "random,random", games=BLOCK, until_ci=0.04, workers=1, seed=4, out=out, progress=False)
    assert first.run_info["stopped_by"] == "games"
    info = json.loads((out / "run.json").read_text())
    info["games_requested"] = info["games_per_table"] = 5000  # as if the run had been stopped at game 100
    (out / "run.json").write_text(json.dumps(info))
    (resumed,) = resume_run(out, progress=False, workers=2)
    straight = run_batch(quick, "random,random", games=5000, until_ci=0.04, workers=2, seed=4,
                         out=tmp_path / "straight", progress=False)
    assert resumed.run_info["stopped_by"] == straight.run_info["stopped_by"] == "precision"
    assert frames_equal(out, straight.out_dir)


@pytest.mark.parametrize("value", ["0", "0.5", "-0.1", "nan"])
def test_a_bad_until_ci_is_one_line_and_exit_2(value, tmp_path):
    result = CliRunner().invoke(main, ["run", "--until-ci", value, "--out", str(tmp_path / "x"), "--quiet"])
    assert result.exit_code == 2
    assert "--until-ci must be" in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_until_ci_is_refused_for_a_grid(quick, tmp_path):
    scen = as_scenario(quick)
    cells = [Cell(scen, (("random",),), 10, name=n, until_ci=0.05) for n in ("a", "b")]
    with pytest.raises(RunConfigError, match="single run"):
        run_cells(cells, RunOptions(workers=1, out=tmp_path / "grid", progress=False))
