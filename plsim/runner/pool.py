"""The process pool: worker processes the parent starts, feeds one game at a time, and watches.

Each worker is ``python -m plsim.runner.worker`` with a pipe each way, in its own process group
(so Ctrl-C at the terminal reaches only the parent). Because the parent hands a worker one game
at a time, it always knows which game each worker is playing and since when; it can stop that
game (``SIGUSR1``) or kill the worker (``SIGKILL``), and a worker that dies — ``os._exit`` in a
strategy, a signal, the out-of-memory killer — is noticed at once (its pipe closes) and replaced.

``ProcessPool`` and ``plsim.runner.dask_pool.DaskPool`` offer the same calls to the dispatcher:
``idle``, ``start``, ``poll``, ``stop_game``, ``kill`` and ``close``.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
from collections import deque
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from plsim.runner.worker import STOP_SIGNAL, Channel, CellTask, Faulted, Played

STARTUP_DEATHS = 3  # workers dying before they are ready, in a row, before the pool gives up
QUEUE_DEPTH = 2  # games a worker holds: the one it plays and the next, so it never waits for the parent
REAP_S = 2.0


class Job(NamedTuple):
    """One game of one cell, and which attempt at it this is (a retried game is attempt 2)."""

    cell: int
    game: int
    attempt: int = 1


class Done(NamedTuple):
    """A worker finished its game (played, or a fault the worker caught)."""

    worker: Any
    outcome: Played | Faulted


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
    proc: subprocess.Popen
    channel: Channel
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


class ProcessPool:
    """``size`` local worker processes, replaced as they die."""

    label = "process"

    def __init__(self, size: int, cells: list[CellTask]) -> None:
        self.size = size
        self.cells = cells
        self.workers: dict[int, _Process] = {}
        self.selector = selectors.DefaultSelector()
        self.next_id = 0
        self.startup_deaths = 0
        self.peak_rss_mib = 0.0
        for _ in range(size):
            self._spawn()

    def _spawn(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", "plsim.runner.worker", str(to_child_r), str(from_child_w), str(os.getpid())],
                pass_fds=(to_child_r, from_child_w), stdin=subprocess.DEVNULL, process_group=0,
            )
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        wid = self.next_id
        self.next_id += 1
        self.workers[wid] = _Process(proc, Channel(from_child_r, to_child_w))
        self.selector.register(from_child_r, selectors.EVENT_READ, wid)

    def idle(self) -> list[int]:
        """Each ready worker once per free place in its queue, the emptiest first."""
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
                message = worker.channel.recv()
            except (EOFError, OSError):
                events += self._buried(wid)
                continue
            if isinstance(message, (Played, Faulted)):
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

    def _buried(self, wid: int) -> list[Died]:
        """Reap a dead worker, start its replacement, and report its games: the one it was
        playing, and the ones queued behind it (never started: they use up no attempt)."""
        worker = self.workers.pop(wid)
        self.selector.unregister(worker.channel.read_fd)
        worker.channel.close()
        try:
            worker.proc.wait(REAP_S)
        except subprocess.TimeoutExpired:
            worker.proc.kill()
            worker.proc.wait()
        detail = f"the worker process {exit_detail(worker.proc.returncode)}"
        if not worker.ready:
            self.startup_deaths += 1
            if self.startup_deaths >= STARTUP_DEATHS:
                raise PoolError(f"worker processes die as they start ({detail}; see the messages above)")
        self._spawn()
        return [Died(wid, job, detail, counts=place == 0) for place, job in enumerate(worker.jobs)]

    def stop_game(self, wid: int) -> None:
        """Ask the worker to stop its game (it answers with a timeout fault)."""
        worker = self.workers.get(wid)
        if worker is not None and STOP_SIGNAL is not None:
            try:
                os.kill(worker.proc.pid, STOP_SIGNAL)
            except ProcessLookupError:
                pass

    def stuck_seat(self, wid: int) -> int | None:
        """The seat whose strategy was running when the worker's game was asked to stop."""
        worker = self.workers.get(wid)
        return None if worker is None else worker.stuck_seat

    def kill(self, wid: int) -> list[Died]:
        """Kill the worker at once and replace it. The game it plays is the caller's to record;
        the games queued behind it are returned, to be played elsewhere."""
        worker = self.workers.get(wid)
        if worker is None:
            return []
        worker.proc.kill()
        queued = list(worker.jobs)[1:]
        worker.jobs.clear()
        self._buried(wid)
        return [Died(wid, job, "its worker was killed for the game before it", counts=False) for job in queued]

    def close(self, at_once: bool = False) -> None:
        """Let the workers exit (``at_once``: kill them) and reap every one; again: nothing."""
        if not self.workers:
            return
        for worker in self.workers.values():
            if at_once:
                worker.proc.kill()
            else:
                try:
                    worker.channel.send(("exit",))
                except OSError:
                    pass
        for worker in self.workers.values():
            try:
                worker.proc.wait(REAP_S)
            except subprocess.TimeoutExpired:
                worker.proc.kill()
                worker.proc.wait()
            self.selector.unregister(worker.channel.read_fd)
            worker.channel.close()
        self.workers.clear()
