"""Issue 46, deliverable 1: one stop for every command's whole life (plsim.stopping).

A stop that reaches a command while a batch writes its report, or between two batches, ends the
command: no next batch starts, the status files are true, exit 130, and ``--resume`` goes on.
Commands that play games in their own process (play, replay, report --replays) end on SIGTERM
and Ctrl-C in one line with exit 130 too, leaving no process behind.
"""

import json
import os
import signal
import threading

import polars as pl
import pytest

from chaos import descendants, plsim, wait_for, wait_gone, write_plugins, write_quick
from plsim.runner import RunInterrupted, RunOptions
from plsim.runner import cells as runner_cells
from plsim.runs import run_batch
from plsim.stopping import STOP, Stopped
from plsim.tune.run import resume_tune, run_tune

SPACE = {"economy": {"start_coins": {"low": 6, "high": 14, "step": 2}}}
GAMES = 4

pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                reason="signal handlers can only be set in the main thread")


@pytest.fixture
def installed():
    """``STOP`` installed as the console script installs it, then Python's handlers back."""
    previous = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    next_command()
    STOP.install()
    yield STOP
    for signum, handler in previous.items():
        signal.signal(signum, handler)
    STOP._installed = False
    next_command()


def next_command() -> None:
    """What a new ``plsim`` process starts with: no stop requested."""
    STOP.presses, STOP.terminated = 0, False


def signal_in_first_finish(monkeypatch, signum):
    """Send ``signum`` to this process while the first run writes its report (``finish``)."""
    original = runner_cells.finish
    sent = []

    def finish(*args, **kwargs):
        if not sent:
            sent.append(signum)
            os.kill(os.getpid(), signum)
        return original(*args, **kwargs)

    monkeypatch.setattr(runner_cells, "finish", finish)
    return sent


def trial_folders(out):
    return sorted(p.name for p in (out / "trials").iterdir())


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_a_trial_batch_writes_its_report_ends_the_tune(tmp_path, monkeypatch, installed, signum):
    """The reported bug: the stop was noted, then the study played its remaining trials and its
    confirmation and ended "complete"."""
    out = tmp_path / "t"
    sent = signal_in_first_finish(monkeypatch, signum)
    with pytest.raises(RunInterrupted) as info:
        run_tune("standard-2p", SPACE, ["seat_spread"], trials=4, games=GAMES, confirm_games=4, batch=1,
                 options=RunOptions(seed=3, workers=1, progress=False, out=out), say=lambda _: None)
    assert sent == [signum] and info.value.complete
    assert trial_folders(out) == ["trial-0000"] and not (out / "confirm").exists()
    tune = json.loads((out / "tune.json").read_text())
    run = json.loads((out / "trials" / "trial-0000" / "run.json").read_text())
    assert (tune["status"], run["status"], run["games"]) == ("stopped", "complete", GAMES)
    next_command()
    resumed = resume_tune(out, say=lambda _: None, progress=False)
    assert resumed.counted == 4 and json.loads((out / "tune.json").read_text())["status"] == "complete"


def test_a_stop_between_two_batches_ends_the_tune_with_a_true_status(tmp_path, installed):
    """Outside a run nothing is in flight: the stop is raised where the tune is (here, while it
    tells optuna the first trial), the tune writes "stopped", and a resume goes on."""
    out = tmp_path / "t"

    def say(text):
        if text.startswith("trial ") and not STOP.drain:
            os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(Stopped):
        run_tune("standard-2p", SPACE, ["seat_spread"], trials=3, games=GAMES, confirm_games=0, batch=1,
                 options=RunOptions(seed=3, workers=1, progress=False, out=out), say=say)
    assert json.loads((out / "tune.json").read_text())["status"] == "stopped"
    assert trial_folders(out) == ["trial-0000"]
    next_command()
    resumed = resume_tune(out, say=lambda _: None, progress=False)
    assert resumed.counted == 3 and json.loads((out / "tune.json").read_text())["status"] == "complete"


def test_a_stop_after_the_last_game_is_reported_without_losing_the_complete_run(tmp_path, monkeypatch):
    """A library caller's run (no installed handlers): the request during the report is counted,
    the run is complete and says so, and the run still ends as interrupted."""
    signal_in_first_finish(monkeypatch, signal.SIGINT)
    with pytest.raises(RunInterrupted) as info:
        run_batch("standard-2p", ["random"], 6, workers=1, out=tmp_path / "r", progress=False)
    assert info.value.complete and "after the last game, every game played" in str(info.value)
    assert json.loads((tmp_path / "r" / "run.json").read_text())["status"] == "complete"
    assert pl.read_parquet(tmp_path / "r" / "games.parquet").height == 6
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Python's own handler is back


@pytest.fixture(scope="module")
def slow_run(tmp_path_factory):
    """A finished run of the Told plugin (0.05 s a decision) against random, to replay; and its
    folder of marker files."""
    folder = tmp_path_factory.mktemp("slow")
    entries = write_plugins(folder)
    quick = write_quick(folder)
    run_batch(quick, [entries["Told"], "random"], 2, workers=1, out=folder / "run", progress=False)
    return folder / "run", folder / "marks"


@pytest.mark.parametrize("signame, line", [("SIGTERM", "Error: terminated (SIGTERM)"), ("SIGINT", "Error: interrupted")])
@pytest.mark.parametrize("command", ["replay", "report"])
def test_replay_and_report_end_in_one_line_and_exit_130_while_a_strategy_plays(slow_run, tmp_path, command,
                                                                              signame, line):
    """They replay games with the run's strategies in their own process; SIGTERM was a silent 143."""
    run, marks = slow_run
    args = (["replay", run, "--game", "0", "--html", tmp_path / "g.html"] if command == "replay"
            else ["report", run, "--replays", "2"])
    process = plsim(*args)
    try:
        wait_for(lambda: (marks / f"playing-{process.pid}").exists() or process.poll() is not None, 60,
                 "a game being replayed")
        assert process.poll() is None, process.communicate()
        children = descendants(process.pid)
        os.kill(process.pid, getattr(signal, signame))
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1] == line and "Traceback" not in stderr
    assert not wait_gone(children, 5)
