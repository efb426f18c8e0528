"""The worker's side of a run: play one game of a cell and hand back plain rows or a fault.

``play_checked`` is the whole job of a worker, the same in a worker process of the process pool
(``python -m plsim.runner.worker_main``) and in a Dask task. It never raises for anything a game
or a strategy does: a game ends as ``Played`` (its ``games`` row and ``rounds`` rows, plain
tuples that are cheap to send) or as ``Faulted`` (what went wrong and in which seat). Around
``play_job`` it checks what the worker's games share (``plsim.runner.integrity``): a game that
changed it is a fault that retires the worker (``Faulted.retire``), and a worker that finds it
changed before a game gives the game back untouched (``Tainted``).
"""

from __future__ import annotations

import pickle
import re
import signal
import sys
import time
import traceback
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None

from plsim.board import default_board, load_board
from plsim.board.loader import DEFAULT_MAP_NAMES
from plsim.engine.blame import LIMIT, Interruption, cut, passes_through, safe_str
from plsim.engine.game import StrategyError, TamperError, core_answers, play_game
from plsim.runfolder import CardColumns, GameRecord, card_columns, game_row, round_rows
from plsim.runner.cell import Schedule
from plsim.runner.integrity import Guard
from plsim.scenario import Scenario
from plsim.strategy.registry import resolve
from plsim.text import one_line

STOP_SIGNAL = getattr(signal, "SIGUSR1", None)  # parent -> worker: the game is past its deadline


class GameTimeout(Interruption):
    """The parent stopped a game past its deadline: an ``Interruption``, so that the engine does
    not take it for the strategy's error."""


@dataclass(frozen=True)
class CellTask:
    """Everything a worker needs to play any game of one cell; picklable, sent once per worker."""

    scenario: Scenario
    schedule: Schedule
    refs: dict[str, str]  # entry as written -> entry to resolve (plugin paths made absolute)
    check: bool = False
    fingerprint: tuple[str, str] | None = None  # the parent's (rules, board): plsim.runner.integrity


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
    retire: bool = False  # the game changed what its worker's games share: replace the worker


class Tainted(NamedTuple):
    """The worker found what its games share changed before game ``game`` began (a thread a
    strategy left running): the game was not played, and the worker must be replaced."""

    game: int
    reason: str
    peak_rss_mib: float


_PLAYING: dict[str, list[Any]] = {"strategies": []}  # the strategies of the game being played

# A worker resolves each strategy entry and loads each map once, however many games it plays.
_SPECS: dict[str, Any] = {}
_BOARDS: dict[str, Any] = {}


def resolve_cached(ref: str):
    """``registry.resolve`` with a per-process cache (plugin files are imported once), kept under
    the entry and under its reference (``StrategySpec.ref``), which other processes are given."""
    spec = _SPECS.get(ref)
    if spec is None:
        spec = _SPECS[ref] = resolve(ref)
        _SPECS.setdefault(spec.ref, spec)
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


def seat_in_traceback(exc: BaseException, strategies: list[Any]) -> int | None:
    """The seat of the first strategy object whose method is in ``exc``'s traceback (or its
    cause's): its code was running when it was raised."""
    seats = {id(s): i for i, s in enumerate(strategies)}
    for error in (exc, exc.__cause__, exc.__context__):
        if error is None:
            continue
        for frame, _ in traceback.walk_tb(error.__traceback__):
            owner = frame.f_locals.get("self")
            if owner is not None and id(owner) in seats:
                return seats[id(owner)]
    return None


def seat_of(exc: BaseException, strategies: list[Any]) -> int | None:
    """The seat whose strategy was running when ``exc`` was raised, if it can be told.

    The exception's own ``seat``, else the first frame of a strategy object in its traceback (or
    its cause's), else the engine's "(seat N)" in the message.
    """
    seat = getattr(exc, "seat", None)
    if isinstance(seat, int):
        return seat
    seat = seat_in_traceback(exc, strategies)
    if seat is not None:
        return seat
    match = _SEAT_IN_MESSAGE.search(safe_str(exc))
    return int(match.group(1)) if match else None


def play_job(task: CellTask, index: int, board: Any = None) -> Played | Faulted:
    """Play game ``index`` of the cell (on ``board``, default the worker's own copy of the cell's
    map); every failure becomes a ``Faulted``, never an exception."""
    seed, seats = task.schedule.game(index)
    began = time.perf_counter()
    strategies: list[Any] = []
    _PLAYING["strategies"] = strategies
    try:
        specs = [resolve_cached(task.refs.get(entry, entry)) for entry in seats]
        for seat, spec in enumerate(specs):
            try:
                strategies.append(spec.make(seat, seed))
            except GameTimeout:
                raise
            except BaseException as exc:
                raise StrategyError(f"strategy {seats[seat]!r} (seat {seat}) failed to start: "
                                    f"{type(exc).__name__}: {safe_str(exc)}") from exc
        result = play_game(board or board_cached(task.scenario.map), task.scenario.rules, strategies, seed,
                           check_invariants=task.check)
    except GameTimeout as exc:
        return stopped_at_deadline(index, began, seat_of(exc, strategies))
    except StrategyError as exc:
        fault = _fault(index, "strategy", seat_of(exc, strategies), safe_str(exc, LIMIT), began)  # bounded already
        return fault._replace(retire=isinstance(exc, TamperError))
    except BaseException as exc:  # a worker ignores Ctrl-C: whatever else came, came from the game
        seat = seat_in_traceback(exc, strategies)
        if seat is None and not passes_through(exc) and isinstance(exc, Exception):
            return _fault(index, "engine", seat_of(exc, strategies), f"{type(exc).__name__}: {safe_str(exc)}", began)
        who = "a strategy" if seat is None else f"strategy {seats[seat]!r} (seat {seat})"
        return _fault(index, "strategy", seat, f"{who} raised {type(exc).__name__}: {safe_str(exc)}", began)
    took = time.perf_counter() - began
    record = GameRecord(index, seed, task.scenario.name, seats, result, took)
    return Played(index, game_row(record), round_rows(record), card_columns(result), result.decisions, took,
                  peak_rss_mib())


TRACEBACK_LIMIT = 20 * LIMIT  # characters of a fault's traceback in faults.log


def bounded_traceback() -> str:
    """The traceback being handled, every line cut, and the whole cut too."""
    lines = traceback.format_exc().splitlines()
    return cut("\n".join(cut(line) for line in lines), TRACEBACK_LIMIT)


def stopped_at_deadline(index: int, began: float, seat: int | None = None) -> Faulted:
    """The fault of a game the parent stopped at its deadline (``seat``: whose code was running)."""
    return _fault(index, "timeout", seat, "the game was stopped at its deadline", began)


def _fault(index: int, kind: str, seat: int | None, message: str, began: float) -> Faulted:
    return Faulted(index, kind, seat, one_line(cut(message)), bounded_traceback(),
                   time.perf_counter() - began, peak_rss_mib())


_GUARD = Guard()
_FOREIGN = {"ran": False}  # whether a strategy's own code has run in this worker (a game not _core_only)


def play_checked(task: CellTask, index: int, pristine: bytes | None = None) -> Played | Faulted | Tainted:
    """``play_job`` between two checks of what the worker's games share. ``pristine`` is the
    task as it was pickled before any game; with it, a game that changed the rules or the board
    is replayed in check mode on fresh copies, which names the seat that did it. In a worker
    where no code but plsim's has run, nothing can have changed what was checked once: the check
    before a game is the first one's of its cell, and a game of such strategies needs none after."""
    board = board_cached(task.scenario.map)
    if _FOREIGN["ran"] or not _GUARD.checked(task.scenario, board):
        changed = _GUARD.changed(task.fingerprint, task.scenario, board, engine=False)
        if changed:
            return Tainted(index, f"{', '.join(changed)} had changed before game {index} began, though the games "
                                  "before it left them as they were (a thread or process a strategy left running?)",
                           peak_rss_mib())
    if _core_only(task, index):
        return play_job(task, index)
    _FOREIGN["ran"] = True
    _GUARD.remember_caches(board)
    outcome = play_job(task, index)
    changed = _GUARD.changed(task.fingerprint, task.scenario, board)
    if not changed or (isinstance(outcome, Faulted) and outcome.retire):
        return outcome
    seat, found = None, ""
    if pristine is not None and any(not part.startswith("the engine") for part in changed):
        seat, found = _replay_for_the_seat(pickle.loads(pristine), index)
    who = "the game" if seat is None else f"strategy {task.schedule.game(index)[1][seat]!r} (seat {seat})"
    message = (f"{who} changed {', '.join(changed)}, which every game of its worker shares; the worker was "
               f"replaced{found or ' (a replay in check mode did not show which seat did it)'}")
    return Faulted(index, "strategy", seat, cut(message), "", outcome.seconds, peak_rss_mib(), retire=True)


def _core_only(task: CellTask, index: int) -> bool:
    """Whether no code but plsim's own ran in game ``index``: every seat a shipped strategy the
    core plays itself (``core_answers``), so the engine's Python classes and tables, the dearest
    part of the check (a fifth of a scripted game's time), cannot have changed."""
    return all(core_answers(resolve_cached(task.refs.get(entry, entry)).cls) for entry in task.schedule.game(index)[1])


def _replay_for_the_seat(task: CellTask, index: int) -> tuple[int | None, str]:
    """Replay game ``index`` in check mode on fresh rules and a fresh board: the tamper check
    names the seat whose decision changed them."""
    name = task.scenario.map
    board = default_board.__wrapped__() if name in DEFAULT_MAP_NAMES else load_board(name)
    outcome = play_job(replace(task, check=True), index, board)
    if isinstance(outcome, Faulted) and outcome.retire:
        return outcome.seat, f"; replayed in check mode: {outcome.message}"
    return None, ""
