"""Issue 46, deliverable 2: nothing outlives a run.

Workers die with plsim even while a strategy holds their interpreter in a C call (the kernel's
parent-death signal, not Python code), and whatever a strategy starts — in a session of its own,
its parent gone — is found and ended: by the worker's guardian (a subreaper) when the worker
ends or plsim dies, and by plsim itself for the strategies it plays in its own process.
"""

import os
import signal
from pathlib import Path

import pytest

from chaos import alive, descendants, plsim, wait_for, wait_gone, write_plugins, write_quick
from plsim.runs import run_batch


@pytest.fixture
def lab(tmp_path):
    return {"entries": write_plugins(tmp_path), "quick": write_quick(tmp_path), "marks": tmp_path / "marks"}


def escaped(marks: Path) -> set[int]:
    """The pids of the sleeps the Escape strategies started (their marker files)."""
    return {int(f.read_text()) for f in marks.glob("escaped-*") if f.read_text().strip()}


def test_what_a_strategy_starts_in_a_session_of_its_own_ends_with_the_run(lab, tmp_path):
    result = run_batch(lab["quick"], [lab["entries"]["Escape"], "random"], 4, workers=2, out=tmp_path / "o",
                       progress=False)
    assert result.totals["games"] == 4
    sleeps = escaped(lab["marks"])
    assert len(sleeps) == 4, "every game's strategy started one"
    assert not wait_gone(sleeps, 5), "a process a strategy started outlived the run"


def test_kill_9_of_plsim_while_a_strategy_holds_the_interpreter_leaves_no_process(lab, tmp_path):
    """The worker is inside a ten-minute C call that keeps the GIL: no handler or thread of its
    can run. Its strategy has also started a process in a session of its own."""
    process = plsim("run", lab["quick"], "--players", f"{lab['entries']['Hold']},random", "--games", 2,
                    "--workers", 1, "--out", tmp_path / "o", "--quiet")
    try:
        wait_for(lambda: any(lab["marks"].glob("held-*")) or process.poll() is not None, 60, "the held worker")
        assert process.poll() is None, process.communicate()
        below = descendants(process.pid) | escaped(lab["marks"])
        assert len(below) >= 3  # the guardian, the worker and the escaped sleep
        os.kill(process.pid, signal.SIGKILL)
        process.communicate(timeout=30)
        assert not wait_gone(below, 5), "processes outlived plsim"
    finally:
        for pid in alive(descendants(process.pid) | escaped(lab["marks"])):
            os.kill(pid, signal.SIGKILL)


def test_plsim_play_ends_what_its_strategies_started(lab):
    """``plsim play`` plays the strategies in its own process: plsim is their subreaper."""
    process = plsim("play", lab["quick"], "--players", f"{lab['entries']['Escape']},random", "--quiet")
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    sleeps = escaped(lab["marks"])
    assert len(sleeps) == 1
    assert not wait_gone(sleeps, 5), "a process the strategy started outlived plsim play"


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGSEGV])
def test_a_guardian_ends_as_its_worker_did_so_the_pool_reports_the_real_death(signum):
    """The pool tells "killed by SIGKILL" (the out-of-memory killer) from a crash by the
    guardian's own end: it must die of the worker's signal, not exit with an error of its own."""
    import pickle
    import struct
    import subprocess
    import sys

    to_worker_r, to_worker_w = os.pipe()
    from_worker_r, from_worker_w = os.pipe()
    guardian = subprocess.Popen([sys.executable, "-P", "-m", "plsim.runner.guardian", str(to_worker_r),
                                 str(from_worker_w), str(os.getpid())], pass_fds=(to_worker_r, from_worker_w),
                                start_new_session=True)
    os.close(to_worker_r)
    os.close(from_worker_w)
    try:
        (size,) = struct.unpack("!Q", os.read(from_worker_r, 8))
        worker, message = pickle.loads(os.read(from_worker_r, size))
        assert message == ("ready", worker) and worker != guardian.pid
        os.kill(worker, signum)
        assert guardian.wait(timeout=30) == -signum
    finally:
        guardian.kill()
        os.close(to_worker_w)
        os.close(from_worker_r)
