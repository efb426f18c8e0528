"""The process pool: worker processes the parent starts, feeds one game at a time, and watches.

Each worker is ``plsim.runner.worker_main`` with a pipe each way, below a guardian of its own
(``plsim.runner.guardian``, on Linux) in a session (and so a process group) of its own: Ctrl-C at
the terminal reaches only the parent, and whatever a strategy starts — in the worker's group or
in a session of its own — is ended by the guardian whenever the worker ends (exits, dies, is
killed or replaced), and the group killed whole after, so no process outlives its worker; the
kernel ends both when plsim dies, even by ``kill -9``. What the workers print
(strategies' output, a dying worker's last words) goes to a log file in the run's folder, never
to plsim's own stdout. Workers start when the first game asks for them, never more than the
pool's size (the caller's min of --workers, games and what the machine can hold), and a dead
one is replaced only while there are games to play.

Because the parent hands a worker one game at a time, it always knows which game each worker is
playing and since when; it can stop that game (``SIGUSR1``) or kill the worker, and a worker
that dies — ``os._exit`` in a strategy, a signal, the out-of-memory killer — is noticed at once
(its pipe closes). A message that is not the worker's answer for the game it plays (a process
a strategy forked, garbage on the pipe) is treated as that worker's death.

``ProcessPool`` and ``plsim.runner.dask_pool.DaskPool`` offer the same calls to the dispatcher:
``idle``, ``start``, ``poll``, ``stop_game``, ``kill``, ``retire`` and ``close``.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple

import plsim
from plsim.runner.worker import STOP_SIGNAL, CellTask, Faulted, Played, Tainted
from plsim.runner.worker_main import Channel

STARTUP_DEATHS = 3  # workers dying before they are ready, in a row, before the pool gives up
QUEUE_DEPTH = 2  # games a worker holds: the one it plays and the next, so it never waits for the parent
REAP_S = 2.0
WORKER_MIB = 250  # what a worker process may grow to, for the number the machine can hold
GUARDED = sys.platform.startswith("linux")  # a guardian per worker (plsim.runner.guardian) needs Linux's subreaper
WORKER_MODULE = "plsim.runner.guardian" if GUARDED else "plsim.runner.worker_main"
PLSIM_HOME = str(Path(plsim.__file__).resolve().parent.parent)  # the folder holding the parent's plsim


def worker_environment() -> dict[str, str]:
    """The parent's environment, with the folder of the parent's own plsim first on the path: a
    worker, started with ``-P`` (no current folder on its path), plays exactly the parent's code
    even when plsim runs inside another checkout of plsim."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PLSIM_HOME, env.get("PYTHONPATH")]))
    return env


def capacity() -> int | None:
    """How many worker processes the memory available now can hold (None where unknown)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return max(1, int(line.split()[1]) // 1024 // WORKER_MIB)
    except (OSError, ValueError, IndexError):
        pass
    return None


class Job(NamedTuple):
    """One game of one cell, and which attempt at it this is (a retried game is attempt 2)."""

    cell: int
    game: int
    attempt: int = 1


class Done(NamedTuple):
    """A worker finished its game (played, a fault the worker caught, or given back untouched)."""

    worker: Any
    outcome: Played | Faulted | Tainted


class Died(NamedTuple):
    """A worker died while playing ``job``; ``counts`` is False when the game was an innocent
    bystander (another game's timeout took the worker down) and must not use up an attempt."""

    worker: Any
    job: Job
    detail: str
    counts: bool = True


class PoolError(RuntimeError):
    """The pool cannot keep workers running (they die as they start)."""


@dataclass
class _Process:
    proc: subprocess.Popen  # the leader of its own process group: the worker's guardian, or the worker
    channel: Channel
    pid: int | None = None  # the worker's, from its "ready"
    ready: bool = False
    jobs: deque[Job] = field(default_factory=deque)  # the game it plays, then the one queued behind
    cells: set = field(default_factory=set)
    stuck_seat: int | None = None  # the seat whose strategy was running when its game was stopped


def exit_detail(returncode: int | None) -> str:
    if returncode is None:
        return "its pipe closed"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exited with code {returncode}"


def _exited(pid: int) -> bool:
    """Whether child ``pid`` has exited, without reaping it: while it is a zombie its pid, and so
    its process group's id, cannot be reused, which makes killing the group afterwards safe."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _wait_exited(pid: int, seconds: float) -> None:
    """Wait up to ``seconds`` for child ``pid`` to exit (without reaping it)."""
    deadline = time.monotonic() + seconds
    while not _exited(pid) and time.monotonic() < deadline:
        time.sleep(0.005)


class ProcessPool:
    """Up to ``size`` local worker processes, started as games need them and replaced as they die."""

    label = "process"

    def __init__(self, size: int, cells: list[CellTask], log_path: Path | None = None) -> None:
        self.size = size
        self.cells = cells
        self.workers: dict[int, _Process] = {}
        self.selector = selectors.DefaultSelector()
        self.next_id = 0
        self.started = 0  # worker processes started in all
        self.startup_deaths = 0
        self.peak_rss_mib = 0.0
        self.log_path = log_path
        self.log: IO[bytes] | None = None

    def _spawn(self) -> None:
        if self.log is None and self.log_path is not None:
            self.log = self.log_path.open("ab")
        output = self.log if self.log is not None else subprocess.DEVNULL
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-P", "-m", WORKER_MODULE, str(to_child_r), str(from_child_w), str(os.getpid())],
                pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, stdout=output, stderr=output,
                start_new_session=True, env=worker_environment(),
            )
        except BaseException:
            for fd in (to_child_w, from_child_r):
                os.close(fd)
            raise
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        wid = self.next_id
        self.next_id += 1
        self.started += 1
        self.workers[wid] = _Process(proc, Channel(from_child_r, to_child_w))
        self.selector.register(from_child_r, selectors.EVENT_READ, wid)

    def idle(self, wanted: int = 1) -> list[int]:
        """Each ready worker once per free place in its queue, the emptiest first; when the caller
        has games to start (``wanted``), first start the workers the pool lacks."""
        while wanted > 0 and len(self.workers) < self.size:
            try:
                self._spawn()
            except OSError as exc:  # out of processes or memory: play on with the workers there are
                if not self.workers:
                    raise PoolError(f"cannot start a worker process: {exc.strerror or exc}") from None
                self.size = len(self.workers)
        free = [(len(w.jobs), wid) for wid, w in self.workers.items() if w.ready]
        return [wid for held, wid in sorted(free) for _ in range(QUEUE_DEPTH - held)]

    def start(self, wid: int, job: Job) -> bool:
        """Send the worker its game; False if it turned out dead (``poll`` will say so)."""
        worker = self.workers[wid]
        try:
            if job.cell not in worker.cells:
                worker.channel.send(("cell", job.cell, self.cells[job.cell]))
                worker.cells.add(job.cell)
            worker.channel.send(("play", job.cell, job.game))
        except OSError:
            worker.ready = False  # its pipe is closed: poll reports the death
            return False
        if not worker.jobs:
            worker.stuck_seat = None
        worker.jobs.append(job)
        return True

    def poll(self, timeout: float) -> list[Done | Died]:
        events: list[Done | Died] = []
        for key, _ in self.selector.select(timeout):
            wid = key.data
            worker = self.workers.get(wid)
            if worker is None:
                continue
            try:
                sender, message = worker.channel.recv_from()
            except (EOFError, OSError):
                events += self._buried(wid)
                continue
            except ValueError as exc:
                events += self._buried(wid, f"sent garbage on its pipe ({exc}; did a strategy fork it?)")
                continue
            if worker.pid is None and not isinstance(message, (Played, Faulted, Tainted)) and message[0] == "ready":
                worker.pid = sender  # the worker its guardian forked
            if sender != worker.pid:
                events += self._buried(wid, f"received a message from process {sender}, not from the worker "
                                            "(a strategy forked it)")
            elif isinstance(message, (Played, Faulted, Tainted)):
                if not worker.jobs or worker.jobs[0].game != message.game:
                    events += self._buried(wid, f"answered for game {message.game}, which it was not playing")
                    continue
                worker.jobs.popleft()
                worker.stuck_seat = None
                self.peak_rss_mib = max(self.peak_rss_mib, message.peak_rss_mib)
                events.append(Done(wid, message))
            elif message[0] == "ready":
                worker.ready = True
                self.startup_deaths = 0
            elif message[0] == "stuck":
                worker.stuck_seat = message[1]
        return events

    def _end(self, worker: _Process, gently: bool) -> None:
        """End the worker and everything below it, and reap it. ``gently``: first give it
        ``REAP_S`` to exit by itself (it was asked to). Its guardian ends what a strategy started
        (on SIGTERM, at once); the process group is killed whole after, in any case."""
        pid = worker.proc.pid
        if gently:
            _wait_exited(pid, REAP_S)
        if GUARDED and not _exited(pid):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            _wait_exited(pid, REAP_S)
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        worker.proc.wait()
        self.selector.unregister(worker.channel.read_fd)
        worker.channel.close()

    def _buried(self, wid: int, broken: str | None = None) -> list[Died]:
        """End a dead (or ``broken``: misbehaving) worker and its group, and report its games: the
        one it was playing, and the ones queued behind it (never started: they use up no
        attempt). Its replacement starts when a game needs it."""
        worker = self.workers.pop(wid)
        self._end(worker, gently=broken is None)
        detail = f"the worker process {broken or exit_detail(worker.proc.returncode)}"
        if not worker.ready:
            self.startup_deaths += 1
            if self.startup_deaths >= STARTUP_DEATHS:
                where = f"; see {self.log_path}" if self.log_path is not None else ""
                raise PoolError(f"worker processes die as they start ({detail}{where})")
        return [Died(wid, job, detail, counts=place == 0) for place, job in enumerate(worker.jobs)]

    def stop_game(self, wid: int) -> None:
        """Ask the worker to stop its game (it answers with a timeout fault)."""
        worker = self.workers.get(wid)
        if worker is not None and STOP_SIGNAL is not None:
            try:
                os.kill(worker.pid or worker.proc.pid, STOP_SIGNAL)
            except ProcessLookupError:
                pass

    def stuck_seat(self, wid: int) -> int | None:
        """The seat whose strategy was running when the worker's game was asked to stop."""
        worker = self.workers.get(wid)
        return None if worker is None else worker.stuck_seat

    def kill(self, wid: int) -> list[Died]:
        """Kill the worker (and its group) at once. The game it plays is the caller's to record;
        the games queued behind it are returned, to be played elsewhere."""
        worker = self.workers.get(wid)
        if worker is None:
            return []
        queued = list(worker.jobs)[1:]
        worker.jobs.clear()
        self.workers.pop(wid)
        self._end(worker, gently=False)
        return [Died(wid, job, "its worker was killed for the game before it", counts=False) for job in queued]

    def retire(self, wid: int) -> list[Died]:
        """Replace a worker whose last game changed what its games share; the games queued
        behind that one are returned, to be played in a clean worker."""
        worker = self.workers.pop(wid, None)
        if worker is None:
            return []
        self._end(worker, gently=True)
        return [Died(wid, job, "its worker was replaced after the game before it", counts=False)
                for job in worker.jobs]

    def close(self, at_once: bool = False) -> None:
        """Let the workers exit (``at_once``: kill them), end their groups and reap every one;
        again: nothing."""
        for worker in self.workers.values():
            if not at_once:
                try:
                    worker.channel.send(("exit",))
                except OSError:
                    pass
        for worker in self.workers.values():
            self._end(worker, gently=not at_once)
        self.workers.clear()
        if self.log is not None:
            self.log.close()
            self.log = None
