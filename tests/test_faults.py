"""Faults under the process executor: each misbehaviour ends as exactly the fault it should, the
finished games are kept, and a real ``plsim run`` survives signals and resumes after kill -9.

The plugins (``tests/chaos.py``) misbehave in the games where their first draw says so; the tests
compute those games from the seeds and check every game's outcome.
"""

import json
import os
import signal
import time

import polars as pl
import pytest
from click.testing import CliRunner

from chaos import (
    alive, descendants, doomed_games, has_parts, plsim, unhurried, wait_for, wait_gone, write_plugins, write_quick,
)
from plsim.cli import main
from plsim.runfolder import FAULT, read_faults
from plsim.runner import Schedule
from plsim.runs import run_batch

GAMES = 8


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The plugins and the quick scenario, written once."""
    folder = tmp_path_factory.mktemp("lab")
    return {"entries": write_plugins(folder), "quick": write_quick(folder), "folder": folder}


def same_games(a, b) -> bool:
    frames = [[pl.read_parquet(folder / f"{name}.parquet") for folder in (a, b)] for name in ("games", "rounds")]
    (ga, gb), (ra, rb) = frames
    return ga.drop("duration_s").equals(gb.drop("duration_s")) and ra.equals(rb)


def check_outcomes(out, entry, kind, attempts, seat_known=True):
    """Every game of the run at ``out`` is played, except the doomed ones: faults of ``kind``."""
    info = json.loads((out / "run.json").read_text())
    doomed = doomed_games(Schedule(((entry, "random"),), GAMES, 2, "rotate", 0), entry)
    assert doomed, "the seeds doom no game: the test would prove nothing"
    games = pl.read_parquet(out / "games.parquet")
    assert games["game"].to_list() == list(range(GAMES))
    faults = games.filter(pl.col("end_reason") == FAULT)
    assert faults["game"].to_list() == sorted(doomed)
    assert faults["winner_seat"].null_count() == faults.height and faults["rounds"].null_count() == faults.height
    rows = sorted(read_faults(out), key=lambda r: int(r["game"]))
    assert [int(r["game"]) for r in rows] == sorted(doomed)
    for row in rows:
        assert row["kind"] == kind and int(row["attempts"]) == attempts and row["on_fault"] == "skip"
        if seat_known:
            assert int(row["seat"]) == doomed[int(row["game"])] and row["strategy"] == entry
        assert row["replay"].startswith("plsim play ") and f"--seed {row['seed']}" in row["replay"]
    assert (info["status"], info["games"], info["faults"]) == ("complete", GAMES - len(doomed), len(doomed))


@pytest.mark.parametrize("name, kind, attempts, seat_known", [
    ("Raise", "strategy", 1, True),
    ("Interrupt", "strategy", 1, True),  # KeyboardInterrupt raised by a strategy is its fault
    ("SysExit", "strategy", 1, True),
    ("Exit", "worker", 2, False),  # os._exit: retried once in a fresh worker, then a fault
    ("Hang", "timeout", 1, True),  # time.sleep swallowing every exception: the parent kills it
    ("Cancel", "strategy", 1, True),  # issue 19: a BaseException of the strategy's, not a dead worker
    ("Nameless", "strategy", 1, True),  # issue 19: its own name raising is its fault, not the engine's
    ("UnprintableAnswer", "strategy", 1, True),  # an answer whose repr raises, too
])
def test_each_fault_ends_as_its_own_fault_and_the_run_goes_on(tmp_path, lab, name, kind, attempts, seat_known):
    entry = lab["entries"][name]
    started = time.monotonic()
    result = run_batch(lab["quick"], [entry, "random"], GAMES, workers=2, out=tmp_path / "o", progress=False,
                       on_fault="skip", game_timeout=2.0)
    check_outcomes(result.out_dir, entry, kind, attempts, seat_known)
    assert time.monotonic() - started < 60
    if kind == "timeout":
        assert "did not finish within 2 s; its worker did not stop it and was killed" in \
            (result.out_dir / "faults.csv").read_text()


def test_a_worker_killed_mid_game_loses_nothing(tmp_path, lab):
    entry = lab["entries"]["Flaky"]  # SIGKILLs its own worker the first time, like the OOM killer
    doomed = doomed_games(Schedule(((entry, "random"),), GAMES, 2, "rotate", 0), entry)
    assert doomed
    result = run_batch(lab["quick"], [entry, "random"], GAMES, workers=2, out=tmp_path / "killed", progress=False)
    assert result.status == "complete" and result.totals["faults"] == 0
    assert len(list((lab["folder"] / "marks").iterdir())) >= len(doomed)
    again = run_batch(lab["quick"], [entry, "random"], GAMES, workers=1, out=tmp_path / "again", progress=False)
    assert same_games(result.out_dir, again.out_dir)


def test_a_fault_under_stop_keeps_the_games_exits_2_and_resumes(tmp_path, lab):
    entry = lab["entries"]["Raise"]
    out = tmp_path / "stopped"
    result = CliRunner().invoke(main, ["run", str(lab["quick"]), "--players", f"{entry},random", "--games", "40",
                                       "--workers", "2", "--out", str(out), "--quiet"])
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: a strategy failed in game ") and "\n" not in message
    assert "kaboom" in message and "plsim play" in message and f"--resume {out}" in message
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "failed" and info["failure"]["kind"] == "strategy"
    assert info["games"] >= 1 and info["games"] + info["faults"] < 40
    assert [r["on_fault"] for r in read_faults(out)] == ["stop"] * info["faults"]
    resumed = CliRunner().invoke(main, ["run", "--resume", str(out), "--on-fault", "skip", "--quiet"])
    assert resumed.exit_code == 0, resumed.output
    info = json.loads((out / "run.json").read_text())
    doomed = doomed_games(Schedule(((entry, "random"),), 40, 2, "rotate", 0), entry)
    assert (info["status"], info["games"], info["faults"]) == ("complete", 40 - len(doomed), len(doomed))
    assert all(r["on_fault"] == "skip" for r in read_faults(out))


@pytest.mark.parametrize("value", ["inf", "0", "-1", "nan", "soon"])
def test_a_game_timeout_must_be_positive_and_finite(tmp_path, value):
    result = CliRunner().invoke(main, ["run", "--game-timeout", value, "--out", str(tmp_path / "o"), "--quiet"])
    assert result.exit_code == 2 and result.stderr.startswith("Error: ") and "\n" not in result.stderr.strip()
    assert "game-timeout" in result.stderr and not (tmp_path / "o").exists()


# --- a real plsim run, signalled -----------------------------------------------------------------

def start(lab, out, entry="Slow", games=400):
    process = plsim("run", lab["quick"], "--players", f"{lab['entries'][entry]},random", "--games", games,
                    "--workers", 2, "--out", out, "--quiet")
    wait_for(lambda: has_parts(out) or process.poll() is not None, what="finished games on disk")
    return process, descendants(process.pid)


@pytest.mark.parametrize("signals, entry", [
    (("SIGINT",), "Slow"),  # Ctrl-C once: the games in flight finish
    (("SIGINT", "SIGINT"), "Slower"),  # twice: stop at once, games in flight dropped
    (("SIGTERM",), "Slower"),  # like twice
])
def test_signals_stop_the_run_keep_the_games_and_leave_no_process(tmp_path, lab, signals, entry):
    out = tmp_path / "o"
    process, workers = start(lab, out, entry)
    try:
        assert process.poll() is None and len(workers) == 4  # two workers, each below its guardian
        for name in signals:
            os.killpg(process.pid, getattr(signal, name))  # like the terminal: to the whole group
            time.sleep(0.3)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 130, stderr
        assert stderr.strip().splitlines()[-1].startswith("Error: ")
        assert "--resume" in stderr
        info = json.loads((out / "run.json").read_text())
        games = pl.read_parquet(out / "games.parquet")
        assert info["status"] == "interrupted" and 1 <= info["games"] == games.height < 400
        assert (out / "summary.csv").is_file() and not (out / "parts").exists()
        assert not wait_gone(workers, 5)
    finally:
        for pid in alive(workers | {process.pid}):
            os.kill(pid, signal.SIGKILL)


def test_kill_9_of_the_parent_then_resume_equals_a_clean_run(tmp_path, lab):
    out = tmp_path / "killed"
    process, workers = start(lab, out, games=100)
    try:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
        assert not wait_gone(workers, 5), "workers outlived their parent"
        assert json.loads((out / "run.json").read_text())["status"] == "running"
        with unhurried(lab["folder"]):
            resumed = plsim("run", "--resume", out, "--quiet")
            _, stderr = resumed.communicate(timeout=300)
        assert resumed.returncode == 0, stderr
    finally:
        for pid in alive(workers):
            os.kill(pid, signal.SIGKILL)
    with unhurried(lab["folder"]):
        clean = run_batch(lab["quick"], [lab["entries"]["Slow"], "random"], 100, workers=2, out=tmp_path / "clean",
                          progress=False)
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete" and info["games"] == 100 and len(info["resumed"]) == 1
    assert same_games(out, clean.out_dir)


@pytest.mark.parametrize("name", ["Bloat", "HugeAnswer"])
def test_a_20_mb_message_or_repr_is_cut_to_a_sane_length_saying_how_long_it_was(tmp_path, lab, name):
    """Issue 19: one answer with a 20 MB repr wrote 80 MB to stderr and 160 MB to faults.log."""
    entry = lab["entries"][name]
    result = CliRunner().invoke(main, ["run", str(lab["quick"]), "--players", f"{entry},random", "--games", str(GAMES),
                                       "--workers", "2", "--out", str(tmp_path / "o"), "--quiet"])
    assert result.exit_code == 2, result.output[:3000]
    assert len(result.stderr) < 5000 and "[cut: 20,000,000 characters]" in result.stderr
    assert (tmp_path / "o" / "faults.log").stat().st_size < 50_000
    assert (tmp_path / "o" / "faults.csv").stat().st_size < 10_000
