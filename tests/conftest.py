"""Fixtures shared by test modules, and the check that no process outlives the tests."""

import compileall
import os
import signal
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from plsim.cli import main


@pytest.fixture(scope="session")
def real_run(tmp_path_factory):
    """Six real 2-player games of the scripted strategies, played from the command line (a test
    that changes the folder works on a copy)."""
    out = tmp_path_factory.mktemp("html") / "run"
    result = CliRunner().invoke(main, ["run", "standard-2p", "--games", "6", "--workers", "1", "--seed", "5",
                                       "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out


# --- no process outlives the tests (issue 46) -------------------------------------------------
# Every process the test session starts carries this mark in its environment (plsim commands,
# their workers and guardians, what the chaos strategies start), so one left running is found
# even after it lost its parent. The session fails if any is alive when the tests are done.
SESSION_MARK = "PLSIM_TEST_SESSION"


CHECKOUT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    os.environ.setdefault(SESSION_MARK, f"{os.getpid()}-{time.time_ns()}")
    if not hasattr(config, "workerinput"):
        compile_sources()


def compile_sources() -> None:
    """Write plsim's bytecode once, before any test starts a process: the tests start hundreds
    of Python processes (commands, workers), and where PYTHONDONTWRITEBYTECODE is set each one
    would otherwise compile every plsim module it imports anew (about 0.4 s a command)."""
    for package in ("plsim", "strategies"):
        compileall.compile_dir(CHECKOUT / package, quiet=1)


def left_behind(mark: str) -> dict[int, str]:
    """pid -> command line of the live processes carrying ``mark``, but pytest's xdist workers and
    this process's own resource tracker."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            state, parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except OSError:
            continue
        mine = int(parent) == os.getpid()
        xdist_worker = mine and "sys.stdin.readline" in command  # execnet's bootstrap
        # multiprocessing's resource tracker of this very process (pytest -n 0): it ends with it
        tracker = mine and "multiprocessing.resource_tracker" in command
        if f"{SESSION_MARK}={mark}".encode() in environ and state != "Z" and not (xdist_worker or tracker):
            found[int(entry.name)] = command
    return found


def pytest_sessionfinish(session, exitstatus):
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller checks once
        return
    deadline = time.monotonic() + 5
    while (stray := left_behind(os.environ[SESSION_MARK])) and time.monotonic() < deadline:
        time.sleep(0.2)
    if stray:
        for pid in stray:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        lines = "\n".join(f"  {pid}: {command[:200]}" for pid, command in sorted(stray.items()))
        session.config.get_terminal_writer().line(f"processes left behind by the tests (now killed):\n{lines}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
