"""The Dask pool: the same calls as the process pool, on a Dask cluster (``pip install plsim[dask]``).

Either a ``LocalCluster`` this process starts (``--executor dask``) or an existing cluster
(``--scheduler tcp://HOST:PORT``). The parent does its own scheduling, as with the process pool:
each worker thread is a slot, and a game is submitted pinned to a slot's worker
(``allow_other_workers=False``) only when that slot is idle, so the parent knows which game each
worker is playing and since when, and Dask never reruns a game behind the parent's back.

- a game past its deadline is stopped politely (``GameTimeout`` raised in the worker thread that
  plays it), then its worker process is killed by its nanny, which starts a fresh one (a worker
  without a nanny is made to exit);
- a worker that leaves the cluster (killed, out of memory, restarted) is noticed on the next
  look at the scheduler: its games are reported dead, and the dispatcher retries them;
- workers of a ``LocalCluster`` ignore Ctrl-C, which is the parent's to handle, and exit with it.
"""

from __future__ import annotations

import ctypes
import itertools
import logging
import os
import signal
import threading
import time
import uuid
from typing import Any

import dask
from dask.distributed import Client, LocalCluster, get_worker, wait
from distributed.client import FuturesCancelledError
from distributed.diagnostics.plugin import WorkerPlugin

from plsim.runfolder import RunConfigError
from plsim.stopping import STOP, Stopped
from plsim.runner.options import RunOptions
from plsim.runner.pool import Died, Done, Job, PoolError
from plsim.runner.worker import (
    CellTask, Faulted, GameTimeout, Played, Tainted, board_cached, play_checked, resolve_cached, stopped_at_deadline,
)

WORKERS_WAIT_S = 30.0
REFRESH_S = 0.5  # how often the parent looks at the cluster's workers
RESULT_S = 10.0  # fetching a finished game's result; longer means the worker holding it is gone
QUIETED_LOGS = ("distributed.client", "distributed.core", "distributed.comm")  # what a lost scheduler makes them say
UNSURE_S = 2.0  # a result that cannot be had: this long to tell a dead worker from a scheduler gone silent

_RUNNING: dict[str, int] = {}  # on a worker: task key -> the thread playing it
_LOCK = threading.Lock()


def play_on_worker(task: CellTask, index: int) -> Played | Faulted | Tainted:
    """The Dask task: one game, in a worker thread the parent can stop."""
    key = str(get_worker().get_current_task())
    started = time.perf_counter()
    try:
        with _LOCK:
            _RUNNING[key] = threading.get_ident()
        try:
            outcome = play_checked(task, index)
        finally:
            with _LOCK:
                _RUNNING.pop(key, None)
        return outcome
    except GameTimeout:
        return stopped_at_deadline(index, started)


def warm_up(cells: list[CellTask]) -> int:
    """Run on a new worker before its first game: import plsim, the strategies and the maps, so
    that no game's deadline pays for them (and a worker that cannot play says so at once)."""
    for task in cells:
        board_cached(task.scenario.map)
        for ref in task.refs.values():
            resolve_cached(ref)
    return os.getpid()


def stop_task(key: str) -> bool:
    """Run on a worker: raise ``GameTimeout`` in the thread playing ``key``."""
    with _LOCK:
        ident = _RUNNING.get(key)
        if ident is None:
            return False
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(GameTimeout))
    return True


def kill_worker_process(dask_worker) -> bool:
    """Run on a nanny: SIGKILL its worker process, however stuck; the nanny starts a fresh one."""
    process = getattr(getattr(dask_worker, "process", None), "process", None)
    pid = getattr(process, "pid", None)
    if not pid:
        return False
    os.kill(pid, signal.SIGKILL)
    return True


class IgnoreInterrupts(WorkerPlugin):
    """Workers of our own LocalCluster leave Ctrl-C to the parent (they share its terminal)."""

    def setup(self, worker) -> None:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: nothing to do
            pass


def _in_background(function, *args, **kwargs) -> None:
    """Call a blocking client method without holding up the parent's loop."""
    threading.Thread(target=function, args=args, kwargs=kwargs, daemon=True).start()


def _connect(address: str, seconds: float) -> Client:
    """A client of the scheduler at ``address``; TimeoutError if it has not answered within
    ``seconds`` (``--connect-timeout``). Dask's own connect waits on a scheduler that
    accepts the connection and never answers for as long as the peer keeps it open, deaf to
    Ctrl-C and SIGTERM: the connection is made on a thread of its own, and a stop request is
    answered at once."""
    made: list[Client] = []
    failed: list[BaseException] = []

    def connect() -> None:
        try:
            made.append(Client(address, timeout=seconds, set_as_default=False))
        except BaseException as exc:  # handed to the caller's thread
            failed.append(exc)

    thread = threading.Thread(target=connect, name="plsim-dask-connect", daemon=True)
    thread.start()
    deadline = time.monotonic() + seconds
    while thread.is_alive() and time.monotonic() < deadline:
        thread.join(0.1)
        if STOP.drain:
            raise Stopped(STOP.how)
    if failed:
        raise failed[0]
    if not made:
        raise TimeoutError(f"no answer within {seconds:g} s (a Dask scheduler answers at once)")
    return made[0]


class DaskPool:
    """Slots on the workers of a Dask cluster; see the module docstring."""

    label = "dask"

    def __init__(self, options: RunOptions, cells: list[CellTask], size: int | None = None) -> None:
        self.cells = cells
        self.where = f"the Dask scheduler {options.scheduler}" if options.scheduler else "the local Dask cluster's scheduler"
        self.connect_timeout = options.connect_timeout
        self.silent_since: float | None = None  # when the scheduler last stopped answering
        self.unsure: dict[Any, float] = {}  # future whose result could not be had -> when that was seen
        self.cluster = None
        self.config = None
        self.token = uuid.uuid4().hex[:8]
        self.serial = itertools.count()
        self.peak_rss_mib = 0.0
        # a scheduler that goes away is said in one line (``_scheduler_workers``), not in the client's log
        self.quieted = {name: logging.getLogger(name).level for name in QUIETED_LOGS}
        for name in QUIETED_LOGS:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            if options.scheduler:
                self.client = _connect(options.scheduler, options.connect_timeout)
            else:
                # A LocalCluster gives up on a worker that stays gone 15 s (its default
                # lost-worker-timeout): after a few deaths in a row it would close every nanny.
                self.config = dask.config.set({"distributed.deploy.lost-worker-timeout": "1 day"})
                # No dashboard; the scheduler still serves its HTTP routes, on 8787 unless told, which a
                # second run (or anything else) may hold: a free port on localhost instead.
                self.cluster = LocalCluster(n_workers=size or options.workers, threads_per_worker=1, processes=True,
                                            dashboard_address=None, silence_logs=logging.ERROR,
                                            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
                self.client = Client(self.cluster, set_as_default=False)
                self.client.register_plugin(IgnoreInterrupts(), name="plsim-ignore-interrupts")
            self.client.wait_for_workers(1, timeout=WORKERS_WAIT_S)
        except (OSError, TimeoutError) as exc:
            self.close()
            where = options.scheduler or "a local Dask cluster"
            raise RunConfigError(f"cannot use {where}: {type(exc).__name__}: {' '.join(str(exc).split())}") from None
        self.workers: dict[str, dict[str, Any]] = {}  # address -> the scheduler's worker info
        self.killed: set[str] = set()  # workers we restarted, ignored until they have left
        self.slots: dict[tuple[str, int], tuple[Any, Job] | None] = {}
        self.last_refresh = 0.0
        self.alone_since: float | None = None  # when the cluster was last seen without a worker
        self.warming: dict[Any, str] = {}  # warm-up task -> the new worker it prepares
        self._refresh()

    # the cluster's workers ----------------------------------------------------------------

    def _refresh(self) -> list[Died]:
        """Add slots for new workers; report the games of workers that left."""
        self.last_refresh = time.monotonic()
        found = self._scheduler_workers()
        if found is None:
            return []
        events: list[Died] = []
        for address in list(self.workers):
            if address not in found:
                events += self._drop(address, f"the dask worker {address} left the cluster", counts=True)
        self.killed &= set(found)
        for address, info in found.items():
            if address not in self.workers and address not in self.killed:
                self.workers[address] = info
                future = self.client.submit(warm_up, self.cells, key=f"plsim-{self.token}-warm-{next(self.serial)}",
                                            workers=[address], allow_other_workers=False, pure=False)
                self.warming[future] = address
        if self.slots or self.warming:
            self.alone_since = None
        elif self.alone_since is None:
            self.alone_since = self.last_refresh
        elif self.last_refresh - self.alone_since > WORKERS_WAIT_S:
            raise PoolError(f"the Dask cluster has had no worker for {WORKERS_WAIT_S:g} s")
        return events

    def _scheduler_workers(self) -> dict[str, Any] | None:
        """The workers the scheduler knows; None while it does not answer; PoolError once it has
        not answered for the connect timeout (it went away: killed, its machine gone)."""
        try:
            answered = self.client.status == "running" and self.client.scheduler_info(n_workers=-1).get("workers")
        except (OSError, TimeoutError):
            answered = None
        if isinstance(answered, dict):
            self.silent_since = None
            return answered
        now = time.monotonic()
        self.silent_since = self.silent_since or now
        if now - self.silent_since > self.connect_timeout:
            raise PoolError(f"{self.where} is gone (no answer for {self.connect_timeout:g} s)")
        return None

    def _drop(self, address: str, detail: str, counts: bool) -> list[Died]:
        """Forget a worker and its slots; the games it was playing are reported dead."""
        self.workers.pop(address, None)
        for future in [f for f, a in self.warming.items() if a == address]:
            del self.warming[future]
            future.cancel()
        events = []
        for slot in [s for s in self.slots if s[0] == address]:
            running = self.slots.pop(slot)
            if running is not None:
                running[0].cancel()
                events.append(Died(slot, running[1], detail, counts))
        return events

    # the pool's calls -------------------------------------------------------------------------

    def idle(self, wanted: int = 1) -> list[tuple[str, int]]:
        return [slot for slot, running in self.slots.items() if running is None]

    def start(self, slot: tuple[str, int], job: Job) -> bool:
        key = f"plsim-{self.token}-{job.cell}-{job.game}-{next(self.serial)}"
        future = self.client.submit(play_on_worker, self.cells[job.cell], job.game, key=key, workers=[slot[0]],
                                    allow_other_workers=False, pure=False, retries=0)
        self.slots[slot] = (future, job)
        return True

    def poll(self, timeout: float) -> list[Done | Died]:
        events: list[Done | Died] = []
        if self.silent_since is not None and self._scheduler_workers() is None:
            time.sleep(timeout)  # the scheduler is not answering: nothing to learn from its futures
            return events
        if time.monotonic() - self.last_refresh > REFRESH_S:
            events += self._refresh()
        running = {running[0]: slot for slot, running in self.slots.items() if running is not None}
        if not running and not self.warming:
            time.sleep(timeout)
            return events
        try:
            with self.client.as_current():
                done = wait([*running, *self.warming], timeout=timeout, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            return events
        except FuturesCancelledError:
            done = {f for f in [*running, *self.warming] if f.status != "pending"}
        for future in done:
            if future in self.warming:
                self._warmed(future)
                continue
            slot = running[future]
            job = self.slots[slot][1]
            self.slots[slot] = None
            outcome = None
            if future not in self.unsure:
                try:
                    outcome = future.result(timeout=RESULT_S) if future.status == "finished" else None
                except Exception:  # noqa: BLE001 - the result went with its worker, or with the scheduler
                    outcome = None
            status = future.status
            if outcome is None:
                # a dead worker or a scheduler going silent: told apart once the client has had a moment
                first = self.unsure.setdefault(future, time.monotonic())
                if self._scheduler_workers() is None or time.monotonic() - first < UNSURE_S:
                    self.slots[slot] = (future, job)  # still in flight as far as the run knows
                    continue
                del self.unsure[future]
            future.release()
            if outcome is None:
                # "lost": the worker died holding the result, so it is gone (whatever the scheduler says yet)
                events.append(Died(slot, job, f"the dask worker {slot[0]} lost the game ({status})"))
                events += self._drop(slot[0], f"the dask worker {slot[0]} died", counts=True)
                continue
            self.peak_rss_mib = max(self.peak_rss_mib, outcome.peak_rss_mib)
            events.append(Done(slot, outcome))
        if not events and self.unsure:
            time.sleep(min(timeout, 0.1))  # the unsure futures are done: waiting on them returns at once
        return events

    def _warmed(self, future) -> None:
        """A new worker is ready: its slots join the pool (or it cannot play at all)."""
        address = self.warming.pop(future)
        status = future.status
        error = future.exception(timeout=RESULT_S) if status == "error" else None
        future.release()
        if error is not None and address in self.workers:
            raise PoolError(f"the dask worker {address} cannot play plsim games: {type(error).__name__}: {error} "
                            "(it needs plsim and the strategies installed, and the plugin files at the same paths)")
        info = self.workers.get(address)
        if status == "finished" and info is not None:  # else lost with its worker: the next look drops it
            for slot in range(max(1, int(info.get("nthreads", 1)))):
                self.slots[(address, slot)] = None

    def stop_game(self, slot: tuple[str, int]) -> None:
        running = self.slots.get(slot)
        if running is not None:
            _in_background(self.client.run, stop_task, str(running[0].key), workers=[slot[0]], on_error="ignore")

    def stuck_seat(self, slot: tuple[str, int]) -> int | None:
        """Unknown on Dask: a strategy that swallows the stop leaves no word of its seat."""
        return None

    def kill(self, slot: tuple[str, int]) -> list[Died]:
        """Restart the slot's worker; the other games it was playing are innocent bystanders."""
        address = slot[0]
        info = self.workers.get(address, {})
        running = self.slots.get(slot)
        if running is not None:
            running[0].cancel()
            self.slots[slot] = None
        self.killed.add(address)
        victims = self._drop(address, f"its dask worker {address} was restarted for another game's timeout",
                             counts=False)
        if info.get("nanny"):
            _in_background(self.client.run, kill_worker_process, workers=[address], nanny=True, on_error="ignore")
        else:
            _in_background(self.client.run, os._exit, 1, workers=[address], on_error="ignore")
        return victims

    def retire(self, slot: tuple[str, int]) -> list[Died]:
        """Restart the worker whose game changed what its games share (its other games go back)."""
        return self.kill(slot)

    def close(self, at_once: bool = False) -> None:
        """Cancel what is left, disconnect, and shut down our own cluster (never someone else's)."""
        client, self.client = getattr(self, "client", None), None
        if client is not None:
            pending = [running[0] for running in getattr(self, "slots", {}).values() if running is not None]
            if pending:
                client.cancel(pending)
            client.close()
        cluster, self.cluster = self.cluster, None
        if cluster is not None:
            cluster.close()
        config, self.config = self.config, None
        if config is not None:
            config.__exit__(None, None, None)
        for name, level in self.quieted.items():
            logging.getLogger(name).setLevel(level)
