"""Misbehaving strategy plugins for the fault tests, and what they are expected to do.

``write_plugins(folder)`` writes ``chaos.py``; each class plays uniformly at random but, in the
games where its first draw says it is *doomed* (``DOOM`` of them, deterministically from the
game's seed and its seat), misbehaves at its fourth decision: raises, exits the process, hangs in
``time.sleep`` swallowing every exception, raises KeyboardInterrupt or SystemExit, or kills its own
worker with SIGKILL once (a marker file makes the retry play normally); and the misbehaviours of
issue 19: rewriting a frozen rule, patching an engine class, leaving a child process behind,
forking the worker, printing, raising CancelledError or a 20 MB message, answering with an
object whose repr is 20 MB or raises, a ``name`` that raises. ``doomed_games`` tells
which games of a run those are, so a test can assert every game's exact outcome.
"""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from plsim.engine.game import strategy_seed
from plsim.reaping import descendants  # noqa: F401 - the tests' too
from plsim.runner import Schedule

DOOM = 0.2

PLUGIN = '''
import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from plsim.strategy.interface import Strategy

MARKS = Path({marks!r})


class Chaos(Strategy):
    name = "chaos"

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        self.doomed = rng.random() < {doom}
        self.calls = 0

    def choose(self, view, decision):
        self.calls += 1
        if self.doomed and self.calls == 4:
            self.misbehave()
        return decision.options[self.rng.randrange(len(decision.options))]


class Raise(Chaos):
    def misbehave(self):
        raise ValueError("kaboom")


class Exit(Chaos):
    def misbehave(self):
        os._exit(3)


class Hang(Chaos):
    def misbehave(self):
        while True:
            try:
                time.sleep(5)
            except BaseException:
                pass


class Interrupt(Chaos):
    def misbehave(self):
        raise KeyboardInterrupt


class SysExit(Chaos):
    def misbehave(self):
        sys.exit(4)


class Flaky(Chaos):
    """Kills its own worker the first time it is doomed in a game (like the OOM killer would)."""

    def misbehave(self):
        mark = MARKS / f"{{self.rng.random()!r}}"
        if not mark.exists():
            mark.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)


class Slow(Chaos):
    """Never misbehaves; takes a little time per decision, for runs to interrupt, unless the
    marker file "unhurried" exists (the same games, played at full speed once a test is past
    its interruptions)."""

    delay = 0.002

    def choose(self, view, decision):
        if not (MARKS / "unhurried").exists():
            time.sleep(self.delay)
        return decision.options[self.rng.randrange(len(decision.options))]


class Slower(Slow):
    """Games of a few seconds: still in flight when a signal comes."""

    delay = 0.05


class Told(Slower):
    """A Slower that says it is playing: the marker file "playing-PID" of its process."""

    def choose(self, view, decision):
        (MARKS / f"playing-{{os.getpid()}}").touch()
        return super().choose(view, decision)


class Tamper(Chaos):
    """Rewrites a frozen rule through its view (while the marker file "tamper" exists)."""

    def choose(self, view, decision):
        self.view = view
        return super().choose(view, decision)

    def misbehave(self):
        if (MARKS / "tamper").exists():
            object.__setattr__(self.view.rules.economy, "start_coins", 60)


class Patch(Chaos):
    """Patches a class of the engine."""

    def misbehave(self):
        from plsim.engine.view import View

        View.patched_by_a_strategy = True


class Spawn(Chaos):
    """Starts ``sleep 300`` and leaves it running (its pid in a marker file)."""

    def misbehave(self):
        child = subprocess.Popen(["sleep", "300"])
        (MARKS / f"sleep-{{child.pid}}").write_text("")


class Escape(Chaos):
    """At its first decision of a game, starts ``sleep 300`` that leaves the worker's session and
    loses its parent (a shell in a new session starts it in the background and exits); the
    sleep's pid in the marker file "escaped-PID"."""

    def choose(self, view, decision):
        if self.calls == 0:
            subprocess.run(["sh", "-c", f"sleep 300 & echo $! > {{MARKS}}/escaped-{{os.getpid()}}-$$"],
                           start_new_session=True, check=True)
        return super().choose(view, decision)


class Hold(Escape):
    """Escapes, then holds its interpreter in one C call of ten minutes (no Python code of its
    process can run meanwhile: no signal handler, no thread); "held-PID" says it is in it."""

    def choose(self, view, decision):
        super().choose(view, decision)
        (MARKS / f"held-{{os.getpid()}}").touch()
        import ctypes
        ctypes.PyDLL(None).sleep(600)


class Fork(Chaos):
    """Forks its worker (while the marker file "fork" exists); both copies play on."""

    def misbehave(self):
        if (MARKS / "fork").exists() and os.fork() == 0:
            (MARKS / f"fork-{{os.getpid()}}").write_text("")


class Loud(Chaos):
    """Prints at every decision, on stdout and stderr."""

    def choose(self, view, decision):
        print("loud on stdout", self.seat)
        print("loud on stderr", self.seat, file=sys.stderr)
        return decision.options[self.rng.randrange(len(decision.options))]


class Cancel(Chaos):
    def misbehave(self):
        raise asyncio.CancelledError()


class Bloat(Chaos):
    """Raises an error whose message is 20 MB long."""

    def misbehave(self):
        raise ValueError("x" * 20_000_000)


class Huge:
    def __repr__(self):
        return "y" * 20_000_000


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr")


class Answer(Chaos):
    """Answers with an ``answer()`` object nobody offered."""

    answer = None

    def choose(self, view, decision):
        self.calls += 1
        if self.doomed and self.calls == 4:
            return type(self).answer()
        return decision.options[self.rng.randrange(len(decision.options))]


class HugeAnswer(Answer):
    answer = Huge


class UnprintableAnswer(Answer):
    answer = Unprintable


class Nameless(Chaos):
    """Its ``name`` raises (in its doomed games)."""

    @property
    def name(self):
        if self.doomed:
            raise RuntimeError("no name")
        return "nameless"
'''

QUICK = """[scenario]
name = "quick"
players = 2
strategies = ["random"]
[rules.victory]
max_rounds = 6
"""


def write_plugins(folder: Path) -> dict[str, str]:
    """Write chaos.py (and its marker folder) into ``folder``; entry of each class by name."""
    marks = folder / "marks"
    marks.mkdir(exist_ok=True)
    path = folder / "chaos.py"
    path.write_text(PLUGIN.format(marks=str(marks), doom=DOOM))
    names = ("Raise", "Exit", "Hang", "Interrupt", "SysExit", "Flaky", "Slow", "Slower", "Told", "Tamper", "Patch", "Spawn",
             "Escape", "Hold", "Fork", "Loud", "Cancel", "Bloat", "HugeAnswer", "UnprintableAnswer", "Nameless")
    return {name: f"{path}:{name}" for name in names}


@contextlib.contextmanager
def unhurried(lab_folder: Path):
    """``Slow`` and its kin play at full speed inside the block (the same games)."""
    mark = lab_folder / "marks" / "unhurried"
    mark.touch()
    try:
        yield
    finally:
        mark.unlink(missing_ok=True)


def write_quick(folder: Path) -> Path:
    """A two-player scenario of six rounds: games of a few hundredths of a second."""
    path = folder / "quick.toml"
    path.write_text(QUICK)
    return path


def doomed_games(schedule: Schedule, entry: str) -> dict[int, int]:
    """game -> seat, for the games where ``entry`` is doomed (its first seat in seat order)."""
    doomed = {}
    for game in range(schedule.games):
        seed, seats = schedule.game(game)
        for seat, name in enumerate(seats):
            if name == entry and random.Random(strategy_seed(seed, seat)).random() < DOOM:
                doomed.setdefault(game, seat)
    return doomed


def plsim(*args, **popen) -> subprocess.Popen:
    """``plsim ARGS`` as a real process of its own session (so a test can signal its group)."""
    command = [str(Path(sys.executable).parent / "plsim"), *map(str, args)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **popen)


def alive(pids: set[int]) -> set[int]:
    """The processes of ``pids`` still running (zombies count as gone)."""
    living = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            living.add(pid)
    return living


def wait_gone(pids: set[int], seconds: float = 10.0) -> set[int]:
    """Wait until none of ``pids`` runs; the ones still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


def wait_for(predicate, seconds: float = 60.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds:g} s for {what}")
        time.sleep(0.1)


def wait_for_parts(process: subprocess.Popen, folder: Path, seconds: float = 60.0) -> None:
    """Wait until a running ``plsim`` flushes finished games; a run that ends first fails with its stderr."""
    wait_for(lambda: has_parts(folder) or process.poll() is not None, seconds, f"finished games in {folder}")
    if not has_parts(folder):
        raise AssertionError(f"plsim ended with {process.returncode} before any game was on disk: "
                             f"{process.communicate()[1]}")


def has_parts(folder: Path) -> bool:
    """Whether a running run has flushed finished games to its folder."""
    return any((folder / "parts").glob("games-*.parquet")) if (folder / "parts").is_dir() else False


def kill_tree(process: subprocess.Popen) -> None:
    """Clean-up after a test: kill the process's session if anything of it is left."""
    try:
        os.killpg(process.pid, 9)
    except ProcessLookupError:
        pass
