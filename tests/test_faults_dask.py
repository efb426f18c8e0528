"""The same guarantees under Dask: a LocalCluster, and a real cluster started from the command
line (``dask scheduler`` and two ``dask worker`` processes on localhost, random free ports) that
``--scheduler`` sends the games to. Every process a test starts is gone when it ends."""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import pytest

pytest.importorskip("dask.distributed")

from chaos import (  # noqa: E402 - after the skip
    alive, descendants, doomed_games, plsim, unhurried, wait_for, wait_for_parts, wait_gone, write_plugins, write_quick,
)
from plsim.runfolder import FAULT, read_faults  # noqa: E402
from click.testing import CliRunner  # noqa: E402
from plsim.cli import main  # noqa: E402
from plsim.runner import RunOptions, Schedule  # noqa: E402
from plsim.runs import resume_run, run_batch  # noqa: E402
from dask.distributed import Client  # noqa: E402

GAMES = 8
DASK = Path(sys.executable).parent / "dask"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def same_games(a, b) -> bool:
    frames = [[pl.read_parquet(folder / f"{name}.parquet") for folder in (a, b)] for name in ("games", "rounds")]
    (ga, gb), (ra, rb) = frames
    return ga.drop("duration_s").equals(gb.drop("duration_s")) and ra.equals(rb)


def start_worker(address: str) -> subprocess.Popen:
    return subprocess.Popen([str(DASK), "worker", address, "--nthreads", "1", "--no-dashboard"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def worker_count(address: str) -> int:
    with Client(address, timeout=10, set_as_default=False) as client:
        return len(client.scheduler_info(n_workers=-1)["workers"])


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    return {"entries": write_plugins(folder), "quick": write_quick(folder), "folder": folder}


@pytest.fixture(scope="module")
def cluster():
    """``dask scheduler`` and two ``dask worker`` processes, as a user would start them."""
    address = f"tcp://127.0.0.1:{free_port()}"
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
    processes = [scheduler]
    try:
        time.sleep(1)
        processes += [start_worker(address) for _ in range(2)]
        wait_for(lambda: worker_count(address) == 2, 60, "two dask workers")
        yield {"address": address, "processes": processes}
    finally:
        tree = set()
        for process in processes:
            tree |= descendants(process.pid) | {process.pid}
        for process in processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for pid in wait_gone(tree, 10):
            os.kill(pid, signal.SIGKILL)
        for process in processes:
            process.wait(10)


def test_a_local_cluster_plays_the_same_games(tmp_path, lab):
    local = run_batch(lab["quick"], ["random"], GAMES, workers=2, out=tmp_path / "process", progress=False)
    dask = run_batch(lab["quick"], ["random"], GAMES, workers=2, out=tmp_path / "dask", progress=False,
                     executor="dask")
    assert dask.run_info["executor"] == "dask" and same_games(dask.out_dir, local.out_dir)


def test_a_local_cluster_run_leaves_port_8787_alone_and_warns_of_nothing(tmp_path, lab):
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            squatter.bind(("", 8787))
            squatter.listen()
        except OSError:
            pass  # already held by something else: the same situation
        process = plsim("run", lab["quick"], "--players", "random", "--games", GAMES, "--executor", "dask",
                        "--workers", 1, "--out", tmp_path / "o", "--quiet")
        _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert "8787" not in stderr and "Warning" not in stderr, stderr


def test_a_run_on_an_existing_cluster_equals_the_local_run(tmp_path, lab, cluster):
    out = tmp_path / "remote"
    process = plsim("run", lab["quick"], "--players", "random", "--games", GAMES, "--scheduler", cluster["address"],
                    "--out", out, "--quiet")
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    assert "Played 8 games" in stdout and "on the cluster's workers" in stdout
    info = json.loads((out / "run.json").read_text())
    assert info["executor"] == "dask" and info["scheduler"] == cluster["address"]
    assert f"--scheduler {cluster['address']}" in info["command"]
    local = run_batch(lab["quick"], ["random"], GAMES, workers=2, out=tmp_path / "local", progress=False)
    assert same_games(out, local.out_dir)


def test_a_worker_killed_midway_loses_no_game(tmp_path, lab, cluster):
    extra = start_worker(cluster["address"])  # the one to kill, so the cluster keeps its two
    try:
        wait_for(lambda: worker_count(cluster["address"]) == 3, 60, "the third worker")
        tree = descendants(extra.pid) | {extra.pid}
        killer = threading.Timer(1.5, lambda: [os.kill(pid, signal.SIGKILL) for pid in alive(tree)])
        killer.start()
        result = run_batch(lab["quick"], [lab["entries"]["Slow"], "random"], 60, scheduler=cluster["address"],
                           out=tmp_path / "killed", progress=False)
        killer.join()
        extra.wait(10)
        assert extra.returncode == -signal.SIGKILL
    finally:
        for pid in alive(descendants(extra.pid) | {extra.pid}):
            os.kill(pid, signal.SIGKILL)
    assert result.status == "complete" and result.totals == {**result.totals, "games": 60, "faults": 0}
    with unhurried(lab["folder"]):
        local = run_batch(lab["quick"], [lab["entries"]["Slow"], "random"], 60, workers=2, out=tmp_path / "local",
                          progress=False)
    assert same_games(result.out_dir, local.out_dir)


@pytest.mark.parametrize("name, kind, attempts, seat_known", [
    ("Raise", "strategy", 1, True),
    ("Interrupt", "strategy", 1, True),
    ("Exit", "worker", 2, False),
    ("Hang", "timeout", 1, False),  # the stop is swallowed: the nanny kills the worker, seat unknown
])
def test_each_fault_ends_as_its_own_fault_on_the_cluster(tmp_path, lab, cluster, name, kind, attempts, seat_known):
    entry = lab["entries"][name]
    result = run_batch(lab["quick"], [entry, "random"], GAMES, scheduler=cluster["address"], out=tmp_path / "o",
                       progress=False, on_fault="skip", game_timeout=2.0)
    doomed = doomed_games(Schedule(((entry, "random"),), GAMES, 2, "rotate", 0), entry)
    assert doomed
    games = result.games
    assert games["game"].to_list() == list(range(GAMES))
    assert games.filter(pl.col("end_reason") == FAULT)["game"].to_list() == sorted(doomed)
    rows = sorted(read_faults(result.out_dir), key=lambda r: int(r["game"]))
    assert [int(r["game"]) for r in rows] == sorted(doomed)
    for row in rows:
        assert (row["kind"], int(row["attempts"])) == (kind, attempts)
        assert row["seat"] == (str(doomed[int(row["game"])]) if seat_known else "")
    assert (result.status, result.totals["games"], result.totals["faults"]) == \
        ("complete", GAMES - len(doomed), len(doomed))
    wait_for(lambda: worker_count(cluster["address"]) == 2, 60, "the restarted workers")


def test_a_worker_that_kills_itself_is_retried_on_the_cluster(tmp_path, lab, cluster):
    entry = lab["entries"]["Flaky"]
    result = run_batch(lab["quick"], [entry, "random"], GAMES, scheduler=cluster["address"], out=tmp_path / "o",
                       progress=False)
    assert result.status == "complete" and result.totals["faults"] == 0 and result.games.height == GAMES
    again = run_batch(lab["quick"], [entry, "random"], GAMES, workers=1, out=tmp_path / "again", progress=False)
    assert same_games(result.out_dir, again.out_dir)
    wait_for(lambda: worker_count(cluster["address"]) == 2, 60, "the restarted workers")


def test_ctrl_c_then_kill_9_of_a_local_cluster_run_leave_no_process_and_resume(tmp_path, lab):
    out = tmp_path / "o"
    # 300 games, so that the resumed run is still playing when its first part is on disk: with 120,
    # a quiet machine could finish the rest between two flushes and leave no part to wait for.
    process = plsim("run", lab["quick"], "--players", f"{lab['entries']['Slow']},random", "--games", 300,
                    "--executor", "dask", "--workers", 2, "--out", out, "--quiet")
    try:
        wait_for_parts(process, out)
        tree = descendants(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # the whole group, as the terminal does
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 130, stderr
        assert json.loads((out / "run.json").read_text())["status"] == "interrupted"
        assert not wait_gone(tree, 10)
        resumed = plsim("run", "--resume", out, "--quiet")
        wait_for_parts(resumed, out)
        tree = descendants(resumed.pid)
        os.kill(resumed.pid, signal.SIGKILL)
        resumed.communicate(timeout=30)
        assert not wait_gone(tree, 10), "dask workers outlived their parent"
    finally:
        for pid in alive(descendants(process.pid)):
            os.kill(pid, signal.SIGKILL)
    with unhurried(lab["folder"]):
        (result,) = resume_run(out, progress=False)
        local = run_batch(lab["quick"], [lab["entries"]["Slow"], "random"], 300, workers=2, out=tmp_path / "local",
                          progress=False)
    assert result.status == "complete" and len(result.run_info["resumed"]) == 2
    assert same_games(out, local.out_dir)


class SilentScheduler:
    """A TCP server on a free port that accepts every connection and never answers (the issue's
    "scheduler that accepts the connection and never answers"), until closed."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.held.append(self.server.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.fixture
def silent():
    scheduler = SilentScheduler()
    yield scheduler
    scheduler.close()


def test_a_scheduler_that_never_answers_is_given_up_in_one_line_and_run_json_says_so(tmp_path, silent):
    """Issue 61: it held the run until the peer closed (and was deaf to SIGTERM meanwhile)."""
    out = tmp_path / "run"
    started = time.monotonic()
    proc = plsim("run", "--players", "random", "--games", 2, "--scheduler", f"tcp://127.0.0.1:{silent.port}",
                 "--connect-timeout", 2, "--out", out, "--quiet")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and time.monotonic() - started < 20
    assert err.strip().splitlines() == [f"Error: cannot use tcp://127.0.0.1:{silent.port}: TimeoutError: no answer "
                                        "within 2 s (a Dask scheduler answers at once)"]
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "failed" and info["failure"]["kind"] == "pool"


def test_the_connect_timeout_is_15_s_unless_given():
    """The stated default (the test above gives 2 s, to be quick)."""
    assert RunOptions().connect_timeout == 15.0 == RunOptions(scheduler="tcp://127.0.0.1:1").connect_timeout
    help_text = " ".join(CliRunner().invoke(main, ["run", "--help"]).output.split())
    assert "before the run gives it up (default 15)." in help_text


def test_sigterm_while_waiting_for_a_silent_scheduler_ends_the_run_at_once(tmp_path, silent):
    out = tmp_path / "run"
    proc = plsim("run", "--players", "random", "--games", 2, "--scheduler", f"tcp://127.0.0.1:{silent.port}",
                 "--out", out, "--quiet")
    wait_for(lambda: (out / "run.json").exists(), 30)
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    started = time.monotonic()
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and time.monotonic() - started < 5, err
    assert err.strip().splitlines()[-1] == "Error: terminated (SIGTERM)"
    assert json.loads((out / "run.json").read_text())["status"] == "interrupted"


def test_a_scheduler_killed_mid_run_ends_in_one_line_with_the_games_kept_and_the_resume_given(tmp_path, lab):
    """Issue 61, item 7: it ended in "plsim failed: KeyError: 'workers'", exit 1."""
    address = f"tcp://127.0.0.1:{free_port()}"
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                  "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
    worker = None
    try:
        time.sleep(1)
        worker = start_worker(address)
        wait_for(lambda: worker_count(address) == 1, 60, "a dask worker")
        out = tmp_path / "run"
        proc = plsim("run", lab["quick"], "--players", f"{lab['entries']['Slow']},random", "--games", 400,
                     "--scheduler", address, "--connect-timeout", 3, "--out", out, "--quiet")
        wait_for_parts(proc, out)
        os.killpg(scheduler.pid, signal.SIGKILL)
        started = time.monotonic()
        _, err = proc.communicate(timeout=120)
    finally:
        for process in (scheduler, worker):
            if process is not None:
                for pid in alive(descendants(process.pid) | {process.pid}):
                    os.kill(pid, signal.SIGKILL)
                process.wait(10)
    lines = err.strip().splitlines()
    assert proc.returncode == 2 and time.monotonic() - started < 60, err
    assert len(lines) == 1 and f"the Dask scheduler {address} is gone" in lines[0], err
    assert "KeyError" not in err and "plsim run --resume" in lines[0]
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "failed" and info["failure"]["kind"] == "pool"
    kept = pl.read_parquet(out / "games.parquet").height
    assert 0 < kept < 400 and f"{kept} finished game" in lines[0]


def test_the_connect_timeout_is_a_flag(tmp_path, silent):
    out = tmp_path / "run"
    started = time.monotonic()
    proc = plsim("run", "--players", "random", "--games", 2, "--scheduler", f"tcp://127.0.0.1:{silent.port}",
                 "--connect-timeout", 2, "--out", out, "--quiet")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2 and time.monotonic() - started < 15
    assert "no answer within 2 s" in err
    assert json.loads((out / "run.json").read_text())["connect_timeout"] == 2
