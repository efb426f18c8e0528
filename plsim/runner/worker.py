"""The worker's side of a run: play one game of a cell and hand back plain rows or a fault.

``play_job`` is the whole job of a worker, the same in a worker process of the process pool
(``python -m plsim.runner.worker``, served by ``serve``) and in a Dask task. It never raises for
anything a game or a strategy does: a game ends as ``Played`` (its ``games`` row and ``rounds``
rows, plain tuples that are cheap to send) or as ``Faulted`` (what went wrong and in which seat).

A worker process leaves Ctrl-C to its parent, dies with its parent (``PR_SET_PDEATHSIG`` on Linux,
and a thread that watches the parent's pid everywhere), and stops the game it is playing with
``GameTimeout`` when the parent sends ``SIGUSR1`` because the game is past its deadline.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import re
import signal
import struct
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, NamedTuple

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None

from plsim.board import load_board
from plsim.engine.game import StrategyError, play_game
from plsim.runner.frames import CardColumns, GameRecord, card_columns, game_row, round_rows
from plsim.runner.plan import Plan
from plsim.scenario import Scenario
from plsim.strategy.registry import resolve

STOP_SIGNAL = getattr(signal, "SIGUSR1", None)  # parent -> worker: the game is past its deadline
PARENT_CHECK_S = 0.5
PR_SET_PDEATHSIG = 1


class GameTimeout(BaseException):
    """The parent stopped a game past its deadline. A BaseException, so that the engine's
    ``except Exception`` around a strategy's call does not take it for the strategy's error."""


@dataclass(frozen=True)
class CellTask:
    """Everything a worker needs to play any game of one cell; picklable, sent once per worker."""

    scenario: Scenario
    plan: Plan
    refs: dict[str, str]  # entry as written -> entry to resolve (plugin paths made absolute)
    check: bool = False


class Played(NamedTuple):
    game: int
    games_row: tuple
    rounds_rows: list[tuple]
    cards: CardColumns
    decisions: int
    seconds: float
    peak_rss_mib: float


class Faulted(NamedTuple):
    game: int
    kind: str  # strategy | engine | timeout
    seat: int | None
    message: str
    traceback: str
    seconds: float
    peak_rss_mib: float


_PLAYING: dict[str, list[Any]] = {"strategies": []}  # the strategies of the game being played

# A worker resolves each strategy entry and loads each map once, however many games it plays.
_SPECS: dict[str, Any] = {}
_BOARDS: dict[str, Any] = {}


def resolve_cached(ref: str):
    """``registry.resolve`` with a per-process cache (plugin files are imported once)."""
    spec = _SPECS.get(ref)
    if spec is None:
        spec = _SPECS[ref] = resolve(ref)
    return spec


def board_cached(name: str):
    board = _BOARDS.get(name)
    if board is None:
        board = _BOARDS[name] = load_board(name)
    return board


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (0 where ``resource`` is missing)."""
    if resource is None:  # pragma: no cover - Windows
        return 0.0
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / (1024 * 1024) if sys.platform == "darwin" else kib / 1024


_SEAT_IN_MESSAGE = re.compile(r"\(seat (\d+)\)")


def seat_in_frames(frame: Any, strategies: list[Any]) -> int | None:
    """The seat of the outermost strategy method on the stack ending at ``frame``."""
    seats = {id(s): i for i, s in enumerate(strategies)}
    seat = None
    while frame is not None:
        owner = frame.f_locals.get("self")
        if owner is not None and id(owner) in seats:
            seat = seats[id(owner)]
        frame = frame.f_back
    return seat


def seat_of(exc: BaseException, strategies: list[Any]) -> int | None:
    """The seat whose strategy was running when ``exc`` was raised, if it can be told.

    The exception's own ``seat``, else the first frame of a strategy object in its traceback (or
    its cause's), else the engine's "(seat N)" in the message.
    """
    seat = getattr(exc, "seat", None)
    if isinstance(seat, int):
        return seat
    seats = {id(s): i for i, s in enumerate(strategies)}
    for error in (exc, exc.__cause__, exc.__context__):
        if error is None:
            continue
        for frame, _ in traceback.walk_tb(error.__traceback__):
            owner = frame.f_locals.get("self")
            if owner is not None and id(owner) in seats:
                return seats[id(owner)]
    match = _SEAT_IN_MESSAGE.search(str(exc))
    return int(match.group(1)) if match else None


def one_line(text: str) -> str:
    return " ".join(text.split())


def play_job(task: CellTask, index: int) -> Played | Faulted:
    """Play game ``index`` of the cell; every failure becomes a ``Faulted``, never an exception."""
    seed, seats = task.plan.game(index)
    began = time.perf_counter()
    strategies: list[Any] = []
    _PLAYING["strategies"] = strategies
    try:
        specs = [resolve_cached(task.refs.get(entry, entry)) for entry in seats]
        for seat, spec in enumerate(specs):
            try:
                strategies.append(spec.make(seat, seed))
            except Exception as exc:
                raise StrategyError(f"strategy {seats[seat]!r} (seat {seat}) failed to start: "
                                    f"{type(exc).__name__}: {exc}") from exc
        result = play_game(board_cached(task.scenario.map), task.scenario.rules, strategies, seed,
                           check_invariants=task.check)
    except GameTimeout as exc:
        return _fault(index, "timeout", seat_of(exc, strategies), "the game was stopped at its deadline", began)
    except StrategyError as exc:
        return _fault(index, "strategy", seat_of(exc, strategies), str(exc), began)
    except (KeyboardInterrupt, SystemExit) as exc:  # a worker ignores Ctrl-C: a strategy raised it
        seat = seat_of(exc, strategies)
        who = "a strategy" if seat is None else f"strategy {seats[seat]!r} (seat {seat})"
        return _fault(index, "strategy", seat, f"{who} raised {type(exc).__name__}({exc})", began)
    except Exception as exc:
        return _fault(index, "engine", seat_of(exc, strategies), f"{type(exc).__name__}: {exc}", began)
    took = time.perf_counter() - began
    record = GameRecord(index, seed, task.scenario.name, seats, result, took)
    return Played(index, game_row(record), round_rows(record), card_columns(result), result.decisions, took,
                  peak_rss_mib())


def _fault(index: int, kind: str, seat: int | None, message: str, began: float) -> Faulted:
    return Faulted(index, kind, seat, one_line(message), traceback.format_exc(),
                   time.perf_counter() - began, peak_rss_mib())


# --- the worker process of the process pool ---------------------------------------------------

HEADER = struct.Struct("!Q")


class Channel:
    """Length-prefixed pickles over a pair of pipe file descriptors (one each way)."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd

    def send(self, message: Any) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(self.write_fd, view):]

    def _read(self, size: int) -> bytes:
        chunks = []
        while size:
            chunk = os.read(self.read_fd, min(size, 1 << 20))
            if not chunk:
                raise EOFError("the other end closed the pipe")
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def recv(self) -> Any:
        (size,) = HEADER.unpack(self._read(HEADER.size))
        return pickle.loads(self._read(size))

    def close(self) -> None:
        for fd in {self.read_fd, self.write_fd}:
            try:
                os.close(fd)
            except OSError:
                pass


def die_with_parent(parent_pid: int) -> None:
    """Exit as soon as the parent is gone, however it went (even ``kill -9``)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            if os.getppid() != parent_pid:
                os._exit(1)
            time.sleep(PARENT_CHECK_S)

    if os.getppid() != parent_pid:
        os._exit(1)
    threading.Thread(target=watch, name="plsim-parent-watch", daemon=True).start()


class _GameClock:
    """On the parent's stop signal, and only during a game: tells the parent which seat's
    strategy is running (in case it swallows what comes next), then raises ``GameTimeout``."""

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.playing = False

    def stop(self, signum, frame) -> None:
        if self.playing:
            self.playing = False
            try:
                self.channel.send(("stuck", seat_in_frames(frame, _PLAYING["strategies"])))
            except OSError:
                pass
            raise GameTimeout()


def serve(channel: Channel) -> None:
    """Answer the parent's messages until it says ``exit`` or closes the pipe.

    ``("cell", key, CellTask)`` stores a cell; ``("play", key, index)`` plays one game and sends
    back its ``Played`` or ``Faulted``.
    """
    clock = _GameClock(channel)
    if STOP_SIGNAL is not None:
        signal.signal(STOP_SIGNAL, clock.stop)
    cells: dict[Any, CellTask] = {}
    channel.send(("ready", os.getpid()))
    while True:
        try:
            message = channel.recv()
        except EOFError:
            return
        if message[0] == "cell":
            cells[message[1]] = message[2]
        elif message[0] == "play":
            clock.playing = True
            try:
                outcome = play_job(cells[message[1]], message[2])
            except GameTimeout:  # the signal came after the game, before this line
                outcome = _fault(message[2], "timeout", None, "the game was stopped at its deadline", time.perf_counter())
            finally:
                clock.playing = False
            channel.send(outcome)
        else:
            return


def main(argv: list[str]) -> None:
    """``python -m plsim.runner.worker READ_FD WRITE_FD PARENT_PID``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    read_fd, write_fd, parent_pid = (int(a) for a in argv[1:4])
    die_with_parent(parent_pid)
    channel = Channel(read_fd, write_fd)
    try:
        serve(channel)
    except (BrokenPipeError, EOFError):
        pass
    finally:
        channel.close()


if __name__ == "__main__":
    # Run the module under its own name, so that what it pickles unpickles in the parent.
    from plsim.runner import worker

    worker.main(sys.argv)
