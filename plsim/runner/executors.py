"""Where a batch's games are played: the chunk worker and the executors that run it.

A batch is cut into chunks of consecutive game indices. ``run_chunk`` plays one chunk and returns
its ``games``/``rounds`` frames; it is a module-level function of one picklable ``ChunkTask`` so
that it runs the same in the parent (``InlineExecutor``), in a process pool started with
``forkserver``/``spawn`` (``ProcessExecutor``) or on a dask cluster (``DaskExecutor``).

Everything about a game comes from ``Plan.game(index)``: its table, seats and seed depend on the
run's seed and the game's index only, so a batch gives the same frames whatever the number of
workers, the chunk size or the order chunks finish in.

A game that fails does not raise out of the worker: the chunk stops there and returns the games it
finished together with a ``GameFailure`` naming the game, its seed and seats, so the parent can
keep every finished game and tell the user how to replay the one that broke.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import polars as pl

from plsim.engine.game import StrategyError, play_game
from plsim.runner.frames import GameRecord, games_frame, rounds_frame
from plsim.runner.seeding import game_seed, seat_assignment
from plsim.scenario import Scenario


@dataclass(frozen=True)
class Plan:
    """Which game is played at each index of a run.

    ``tables`` are the strategy line-ups (each cycled to ``players`` seats). Games interleave the
    tables: game ``g`` is played at table ``g % len(tables)`` as that table's game number
    ``g // len(tables)``, which sets its seating. A run of one table is just ``games`` games
    numbered 0..games-1. With ``common_seeds`` every table's k-th game has the same seed (common
    random numbers, for comparisons); otherwise each game's seed comes from its own index.
    """

    tables: tuple[tuple[str, ...], ...]
    games_per_table: int
    players: int
    seating: str
    run_seed: int
    common_seeds: bool = False

    @property
    def games(self) -> int:
        return len(self.tables) * self.games_per_table

    def table_of(self, index: int) -> tuple[int, int]:
        """(table, the game's number at that table)."""
        return index % len(self.tables), index // len(self.tables)

    def game(self, index: int) -> tuple[int, tuple[str, ...]]:
        """(seed, the strategy entry in each seat) of game ``index``."""
        table, local = self.table_of(index)
        seats = seat_assignment(self.tables[table], self.players, local, self.seating, self.run_seed)
        return game_seed(self.run_seed, local if self.common_seeds else index), seats


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of work, everything a worker needs, picklable."""

    scenario: Scenario
    plan: Plan
    refs: dict[str, str]  # entry as written -> entry to resolve (file paths made absolute)
    start: int
    stop: int  # exclusive
    game_timeout: float | None = None  # seconds one game may take (pool and inline workers)

    @property
    def label(self) -> str:
        return f"games {self.start}-{self.stop - 1}"


@dataclass(frozen=True)
class GameFailure:
    """The game that stopped a chunk: enough to replay it with ``plsim play``."""

    game: int
    seed: int
    seats: tuple[str, ...]
    kind: str  # "strategy" (the user's strategy raised or answered illegally) | "engine" | "timeout"
    message: str
    traceback: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "seats": list(self.seats), "kind": self.kind,
                "message": self.message}


@dataclass
class ChunkResult:
    games: pl.DataFrame
    rounds: pl.DataFrame
    played: int
    decisions: int
    seconds: float  # time spent inside games
    failure: GameFailure | None = None
    interrupted: bool = False
    peak_rss_mib: float = 0.0  # the worker process's peak resident memory so far


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (0 where ``resource`` is missing)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0.0
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / (1024 * 1024) if sys.platform == "darwin" else kib / 1024


# A worker resolves each strategy entry and loads each map once, however many chunks it plays.
_SPECS: dict[str, Any] = {}
_BOARDS: dict[str, Any] = {}


def resolve_cached(ref: str):
    """``registry.resolve`` with a per-process cache (plugin files are imported once)."""
    from plsim.strategy.registry import resolve

    spec = _SPECS.get(ref)
    if spec is None:
        spec = _SPECS[ref] = resolve(ref)
    return spec


def board_cached(name: str):
    from plsim.board import load_board

    board = _BOARDS.get(name)
    if board is None:
        board = _BOARDS[name] = load_board(name)
    return board


class GameTimeout(BaseException):
    """A game ran past its deadline. A BaseException, so that the engine's ``except Exception``
    around a strategy's call does not take it for the strategy's own error."""


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise ``GameTimeout`` in this thread after ``seconds`` (main thread on Unix only; else no-op)."""
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise GameTimeout(f"the game did not finish within {seconds:g} s (an endless loop?)")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Play games ``task.start .. task.stop-1`` and return their frames (the worker function)."""
    scenario, plan = task.scenario, task.plan
    board = board_cached(scenario.map)
    records: list[GameRecord] = []
    decisions = 0
    seconds = 0.0
    failure = None
    interrupted = False
    for index in range(task.start, task.stop):
        seed, seats = plan.game(index)
        began = time.perf_counter()
        try:
            specs = [resolve_cached(task.refs.get(entry, entry)) for entry in seats]
            try:
                strategies = [spec.make(seat, seed) for seat, spec in enumerate(specs)]
            except Exception as exc:
                raise StrategyError(
                    f"a strategy of {', '.join(seats)} failed to start: {type(exc).__name__}: {exc}"
                ) from exc
            with deadline(task.game_timeout):
                result = play_game(board, scenario.rules, strategies, seed)
        except KeyboardInterrupt:  # only in-process: pool workers ignore SIGINT
            interrupted = True
            break
        except GameTimeout as exc:
            failure = GameFailure(index, seed, seats, "timeout", str(exc), traceback.format_exc())
            break
        except Exception as exc:
            kind = "strategy" if isinstance(exc, StrategyError) else "engine"
            message = str(exc) if kind == "strategy" else f"{type(exc).__name__}: {exc}"
            failure = GameFailure(index, seed, seats, kind, " ".join(message.split()),
                                  traceback.format_exc())
            break
        took = time.perf_counter() - began
        seconds += took
        decisions += result.decisions
        records.append(GameRecord(index, seed, scenario.name, seats, result, took))
    return ChunkResult(games_frame(records), rounds_frame(records), len(records), decisions, seconds,
                       failure, interrupted, peak_rss_mib())


def _ignore_sigint() -> None:
    """Pool workers leave Ctrl-C to the parent, which decides what to keep."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- executors -------------------------------------------------------------------------------

Handler = Callable[[ChunkTask, "ChunkResult | BaseException"], bool]
"""Called in the parent as each chunk ends, with its result or the exception that lost it;
returns False to stop submitting further chunks."""


class InlineExecutor:
    """Plays the chunks one after another in this process (``workers=1``)."""

    workers = 1

    def run(self, tasks: Iterator[ChunkTask], handle: Handler) -> None:
        for task in tasks:
            try:
                result = run_chunk(task)
            except Exception as exc:  # noqa: BLE001 - reported by the handler
                result = exc
            keep_going = handle(task, result)
            if isinstance(result, ChunkResult) and result.interrupted:
                raise KeyboardInterrupt
            if not keep_going:
                return


class _PoolDriver:
    """The loop shared by the pool executors: a bounded window of chunks in flight.

    Only ``2 * workers`` chunks are submitted at a time and each result is handed over as it
    arrives, so the parent never holds more than a few chunks however long the run. After a
    failure nothing more is submitted; chunks already running are still collected. On Ctrl-C the
    running chunks are collected too (a second Ctrl-C abandons them).
    """

    workers: int
    say: Callable[[str], None] | None = None  # where to tell the user what Ctrl-C does

    def _submit(self, task: ChunkTask) -> Any: ...
    def _wait_first(self, futures: list) -> set: ...
    def _abandon(self) -> None: ...

    def _cancel(self, future: Any) -> None:
        """Drop a chunk that has not started (one already running is let finish)."""
        future.cancel()

    def _drive(self, tasks: Iterator[ChunkTask], handle: Handler) -> None:
        pending: dict[Any, ChunkTask] = {}
        stopped = False

        def fill() -> None:
            nonlocal stopped
            while not stopped and len(pending) < 2 * self.workers:
                task = next(tasks, None)
                if task is None:
                    return
                try:
                    pending[self._submit(task)] = task
                except Exception as exc:  # noqa: BLE001 - e.g. a broken pool: report and stop
                    handle(task, exc)
                    stopped = True
                    return

        def collect(futures) -> None:
            nonlocal stopped
            for future in futures:
                task = pending.pop(future)
                if future.cancelled():
                    continue
                try:
                    result = future.result()
                except (CancelledError, KeyboardInterrupt):
                    continue
                except BaseException as exc:  # noqa: BLE001 - a lost chunk is reported, not raised
                    result = exc
                if not handle(task, result) and not stopped:
                    stopped = True
                    for other in pending:
                        self._cancel(other)

        try:
            fill()
            while pending:
                collect(self._wait_first(list(pending)))
                fill()
        except KeyboardInterrupt:
            stopped = True
            for future in pending:
                self._cancel(future)
            if self.say is not None and pending:
                self.say("interrupted: finishing the chunks already running (Ctrl-C again to drop them)")
            try:
                while pending:
                    collect(self._wait_first(list(pending)))
            except KeyboardInterrupt:
                self._abandon()
            raise


class ProcessExecutor(_PoolDriver):
    """A ``ProcessPoolExecutor`` over ``forkserver`` (or ``spawn``) worker processes."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    @staticmethod
    def context():
        methods = multiprocessing.get_all_start_methods()
        if "forkserver" in methods:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload([__name__])
            return ctx
        return multiprocessing.get_context("spawn")

    def _submit(self, task: ChunkTask) -> Future:
        return self.pool.submit(run_chunk, task)

    def _wait_first(self, futures: list) -> set:
        return wait(futures, return_when=FIRST_COMPLETED).done

    def _abandon(self) -> None:
        for process in list(getattr(self.pool, "_processes", {}).values()):
            process.terminate()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def run(self, tasks: Iterator[ChunkTask], handle: Handler) -> None:
        self.pool = ProcessPoolExecutor(self.workers, mp_context=self.context(), initializer=_ignore_sigint)
        try:
            self._drive(tasks, handle)
        finally:
            self.pool.shutdown(wait=True, cancel_futures=True)


def dask_available() -> bool:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


class DaskExecutor(_PoolDriver):
    """A local dask.distributed cluster (``pip install plsim[dask]``), one thread per worker."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.client = None

    def _submit(self, task: ChunkTask) -> Any:
        return self.client.submit(run_chunk, task, pure=False)

    def _wait_first(self, futures: list) -> set:
        from dask.distributed import wait as dask_wait

        return set(dask_wait(futures, return_when="FIRST_COMPLETED").done)

    def _abandon(self) -> None:
        self.client.close()

    def _cancel(self, future: Any) -> None:
        """Dask would cancel a running chunk too and lose its games: let the few in flight finish."""

    def run(self, tasks: Iterator[ChunkTask], handle: Handler) -> None:
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            self.client = client
            self._drive(tasks, handle)


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def absolute_ref(entry: str) -> str:
    """A ``path/file.py:Class[:params]`` entry with its path made absolute, for other processes."""
    head, sep, rest = entry.partition(".py:")
    if not sep:
        return entry
    path = Path(head + ".py")
    return str(path.resolve()) + ":" + rest if not path.is_absolute() else entry


__all__ = [
    "ChunkResult", "ChunkTask", "DaskExecutor", "GameFailure", "InlineExecutor", "Plan",
    "ProcessExecutor", "absolute_ref", "dask_available", "default_workers", "run_chunk",
]
