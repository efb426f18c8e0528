"""The core of every run: a list of cells -> one queue of games -> per-cell folders and reports.

``execute`` checks everything first (cells, strategies, options, folders: nothing is written and
no worker started until all pass), locks and prepares the folders (``plsim.runner.prepare``), starts
the worker pool, and plays the games of every cell as
one queue — game k of each cell in turn, so no worker idles between cells and an interrupted grid
has comparable cells. Each result goes to its cell's sink as it arrives; each fault to the cell's
``faults.csv``. At the end every cell's parts are combined and its report written, whatever
stopped the run; then ``GameFailed``, ``RunInterrupted`` or ``PoolFailed`` is raised if the run did
not play every game, carrying every cell's ``RunResult``.

``run_cells`` is the library call for a grid (the sweep): each cell is an ordinary run folder
``out/cells/<name>/``, all cells share the run's game seeds and seat rotations.
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import polars as pl
from plsim.report import write_report
from plsim.runner.progress import progress_bar
from plsim.runfolder import (
    CELLS_DIR, EMPTY, FAULT, KINDS, WORKERS_LOG, Fault, RunConfigError, SinkGroup, check_out, code_record, fault_row,
    scan_frames, scenario_reference, write_grid, write_run_info,
)
from plsim.runner.cell import Cell
from plsim.runner.dispatch import Dispatcher, FaultReport
from plsim.runner.integrity import cell_fingerprint
from plsim.runner.options import RunOptions, command_line, option_arguments
from plsim.runner.pool import WORKER_MIB, Job, ProcessPool, capacity
from plsim.runner.precision import check_until_ci
from plsim.runner.prepare import CellRun, cell_info, check_resumed, lock_folders, open_cell
from plsim.runner.results import GameFailed, NothingPlayed, PoolFailed, RunInterrupted, RunResult
from plsim.runner.salvage import catch_all
from plsim.runner.worker import CellTask, Played, board_cached, peak_rss_mib, resolve_cached
from plsim.stopping import STOP, Stopped, StopRequests
from plsim.strategy.registry import StrategyLoadError

TOTAL_KEYS = ("games", "faults", "decisions", "seconds_in_games", "wall_seconds")


# --- checking the input ----------------------------------------------------------------------

def check_entries(entries: Sequence[str], known: Mapping[str, str] | None = None) -> dict[str, str]:
    """Resolve every entry and make one instance of each, before any game.

    Returns the entries as other processes must resolve them (``StrategySpec.ref``). A
    plugin that exits or raises KeyboardInterrupt while loading is one ``StrategyLoadError`` too.
    """
    refs = {}
    known = known or {}
    for entry in dict.fromkeys(entries):
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                spec = resolve_cached(known.get(entry) or entry)
                if getattr(spec.cls, "asks_person", False):
                    raise StrategyLoadError(
                        f"strategy {entry!r} is a person at the terminal: it sits at one game, "
                        f"plsim play --players {entry},...; a batch plays strategies and programs (exec:COMMAND)")
                spec.make(0, 0)
        except StrategyLoadError:
            raise
        except (Exception, SystemExit, KeyboardInterrupt) as exc:
            raise StrategyLoadError(
                f"strategy {entry!r} cannot be loaded and constructed: {type(exc).__name__}: {exc}"
            ) from None
        refs[entry] = known.get(entry) or spec.ref
    return refs


def check_cells(cells: Sequence[Cell]) -> dict[str, str]:
    """Every cell playable: counts, line-ups, map and strategies; returns the entries' refs."""
    if not cells:
        raise RunConfigError("no cell to play")
    names = [c.name for c in cells]
    if len(cells) > 1 and (len(set(names)) != len(names) or not all(names)):
        raise RunConfigError("the cells of a grid need distinct, non-empty names")
    for name in names:
        if name and (Path(name).name != name or name in (".", "..")):
            raise RunConfigError(f"the cell name {name!r} is not a plain folder name")
    if len(cells) > 1 and any(cell.until_ci is not None for cell in cells):
        raise RunConfigError("--until-ci stops a single run; a grid plays every cell to the same number of games")
    for cell in cells:
        if cell.until_ci is not None:
            check_until_ci(cell.until_ci)
        scen, count = cell.scenario, cell.games_per_lineup
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RunConfigError(f"the number of games must be at least 1, got {count}")
        if not cell.lineups:
            raise RunConfigError("no table to play")
        for lineup in cell.lineups:
            if not lineup:
                raise RunConfigError("a table with no strategies")
            if len(lineup) > scen.players:
                raise RunConfigError(
                    f"scenario {scen.name} has {scen.players} seats but {len(lineup)} strategies were given "
                    f"({','.join(lineup)}); give at most {scen.players} (a shorter list is cycled) "
                    f"or pick a scenario with more players, e.g. standard-{len(lineup)}p"
                )
        board_cached(scen.map)
    known = {e: r for cell in cells for e, r in cell.refs.items()}
    return check_entries([e for cell in cells for e in cell.entries], known)


def run_words(where: str, cell: Cell, options: RunOptions) -> list[str]:
    """The ``plsim run`` command of a cell of one line-up."""
    until = ["--until-ci", f"{cell.until_ci:g}"] if cell.until_ci is not None else []
    return ["plsim", "run", where, "--games", str(cell.games_per_lineup), *until,
            "--players", ",".join(cell.lineups[0]), *option_arguments(options)]


def replay_command(where: str, seed: int, seats: Sequence[str], check: bool) -> str:
    return command_line(["plsim", "play", where, "--seed", str(seed), "--players", ",".join(seats)]
                        + (["--check"] if check else []))


def pool_size(options: RunOptions, games: int, say: Callable[[str], None]) -> int | None:
    """How many workers to start: --workers, but never more than the games to play, nor (local
    processes) than the memory available can hold; None: every worker of a Dask cluster."""
    if options.scheduler:
        return None
    size = min(options.workers, max(games, 1))
    room = capacity() if options.executor == "process" else None
    if room is not None and room < size:
        say(f"starting {room} worker processes, not {size}: the memory available holds about {room} "
            f"at {WORKER_MIB} MiB each")
        size = room
    return size


def open_pool(options: RunOptions, tasks: list[CellTask], size: int | None, log_path: Path | None):
    """The worker pool the options ask for (Dask is imported only when asked for)."""
    if options.executor == "dask":
        try:
            from plsim.runner import dask_pool
        except ImportError:
            raise RunConfigError("the dask executor needs dask.distributed: pip install plsim[dask]") from None
        return dask_pool.DaskPool(options, tasks, size)
    return ProcessPool(size, tasks, log_path)


def opened_pool(options: RunOptions, runs: list[CellRun], size: int | None, log_path: Path):
    """``open_pool`` for the run's cells; when the pool cannot be had (a scheduler that refuses
    or never answers) or a stop comes while it is sought, every cell's run.json says so
    ("failed" and why, or "interrupted") before the one-line error, rather than "running"."""
    try:
        return open_pool(options, [run.task for run in runs], size, log_path)
    except (RunConfigError, Stopped) as exc:
        stopped = isinstance(exc, Stopped)
        for run in runs:
            run.info.update(status="interrupted" if stopped else "failed",
                            finished=datetime.now().isoformat(timespec="seconds"))
            if not stopped:
                run.info["failure"] = {"kind": "pool", "message": str(exc)}
            write_run_info(run.out, run.info)
        raise


# --- the run ---------------------------------------------------------------------------------

def run_cells(cells: Sequence[Cell], options: RunOptions, info: Mapping[str, Any] | None = None) -> list[RunResult]:
    """Play a grid: each cell into ``options.out/cells/<cell.name>/``, all as one queue of games.

    All cells share the run's seed and seating, so game k of every cell has the same seed (common
    random numbers). Writes ``grid.json`` (the cells, the command and ``info``, which says what
    made the grid — e.g. a sweep's axes) at the grid's root; ``plsim run --resume`` resumes the
    whole grid. Returns one ``RunResult`` per cell, in order.
    """
    if options.out is None:
        raise RunConfigError("a grid needs an output folder (out)")
    root = Path(options.out)
    placed = [(cell, root / CELLS_DIR / cell.name) for cell in cells]
    grid = {"kind": "grid", "cells": [cell.name for cell in cells], "command": options.command,
            "seed": options.seed, "seating": options.seating, **(info or {})}
    return execute(placed, options, grid=(root, grid))


def execute(
    placed: Sequence[tuple[Cell, Path]],
    options: RunOptions,
    *,
    resume: bool = False,
    grid: tuple[Path, dict[str, Any]] | None = None,
    report: bool = True,
) -> list[RunResult]:
    """Play every game of every (cell, folder) — or, with ``resume``, every game the folders lack.
    ``report=False`` leaves each cell's report (tables, figures, report.html) unwritten, for a
    caller that plays the same cells again at once and writes their reports once at its end.

    Ctrl-C and SIGTERM are counted from the first check on, never raised (``plsim.stopping``):
    the run ends with ``RunInterrupted`` if one came, even after its last game. Every folder is
    locked before it is touched (``prepare``), and from then on any error of plsim's own keeps
    what was received (``salvage.catch_all``)."""
    options = options.checked()
    cells = [cell for cell, _ in placed]
    say = _stderr
    with STOP.counting(say) as stops:
        refs = check_cells(cells)
        code = code_record({entry: resolve_cached(ref) for entry, ref in refs.items()})
        folders = ([grid[0]] if grid is not None else []) + [out for _, out in placed]
        if not resume:
            for out in folders:
                check_out(out, options.force)
        runs = []
        for cell, out in placed:
            where = scenario_reference(cell.scenario, out)
            schedule = cell.schedule(options.seating, options.seed)
            command = options.command or command_line(run_words(where, cell, options))
            fingerprint = cell_fingerprint(cell.scenario, board_cached(cell.scenario.map))
            task = CellTask(cell.scenario, schedule, {e: refs[e] for e in cell.entries}, options.check, fingerprint)
            runs.append(CellRun(cell, out, schedule, task, where, cell_info(cell, where, refs, options, command, code)))
        locks = lock_folders(folders, options.force, resume)
        home = folders[0]
        try:
            with catch_all(runs, home):
                if grid is not None and not resume:
                    write_grid(*grid)
                if resume:
                    check_resumed(runs)
                for run in runs:
                    open_cell(run, options, resume, say)
                size = pool_size(options, sum(run.todo for run in runs), say)
                pool = opened_pool(options, runs, size, home / WORKERS_LOG)
                try:
                    results = play(runs, pool, options, stops, report)
                finally:
                    pool.close(at_once=True)
        finally:
            for lock in reversed(locks):
                lock.release()
        if stops.drain:  # the request came after the last game: a command that chains runs starts no next one
            raise RunInterrupted(results, stops.how)
        return results


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


def jobs_of(runs: list[CellRun]) -> Iterator[Job]:
    """Game k of every cell in turn, skipping the games a cell already has."""
    longest = max(run.cell.games for run in runs)
    for game in range(longest):
        for index, run in enumerate(runs):
            if game < run.cell.games and game not in run.done:
                yield Job(index, game)


def play(runs: list[CellRun], pool, options: RunOptions, stops: StopRequests, report: bool = True) -> list[RunResult]:
    """Dispatch the games, then finish every cell whatever stopped the run."""
    todo = sum(run.todo for run in runs)
    bar = progress_bar(todo, options.progress)
    say = bar.write if options.progress else _stderr
    stops.say = say
    sinks = SinkGroup([run.sink for run in runs])

    def played(job: Job, outcome: Played) -> None:
        sinks.add(job.cell, outcome.games_row, outcome.rounds_rows, outcome.cards)
        gate = runs[job.cell].gate
        if gate is not None:
            gate.record_row(runs[job.cell].schedule.game(job.game)[1], outcome.games_row)
        bar.update(1)

    def faulted(report: FaultReport) -> None:
        run = runs[report.job.cell]
        seed, seats = run.schedule.game(report.job.game)
        fault = Fault(run.cell.name, report.job.game, seed, seats, report.kind, report.seat, report.message,
                      report.traceback, report.job.attempt, replay_command(run.where, seed, seats, options.check),
                      options.on_fault)
        run.faults.record(fault)
        sinks.add(report.job.cell, fault_row(report.job.game, seed, run.cell.scenario.name, seats, report.seconds), [])
        run.first_fault = run.first_fault or fault
        if run.gate is not None:
            run.gate.record(seats, None, FAULT)
        if options.on_fault == "skip":
            say(f"fault (skipped): {fault.describe()}; replay: {fault.replay}")
        bar.update(1)

    started = time.perf_counter()
    dispatcher = Dispatcher(pool, game_timeout=options.game_timeout, stop_on_fault=options.on_fault == "stop",
                            stops=stops, on_played=played, on_fault=faulted, say=say,
                            max_in_flight=options.workers if options.scheduler else None)
    gate = runs[0].gate
    if todo:
        dispatcher.run(gate.jobs(0, runs[0].done) if gate is not None else jobs_of(runs))
    elif gate is not None:
        gate.stopped_by = "precision" if gate.precise() else "games"
    pool.close(at_once=dispatcher.stopped is not None)
    bar.close()
    sinks.flush()
    wall = time.perf_counter() - started
    status = {None: "complete", "fault": "failed", "pool": "failed"}.get(dispatcher.stopped, "interrupted")
    worker_rss = getattr(pool, "peak_rss_mib", 0.0)
    pool_error = dispatcher.pool_error if dispatcher.stopped == "pool" else None
    results = [finish(run, options, status, wall, worker_rss, getattr(pool, "started", None), pool_error, report)
               for run in runs]
    if dispatcher.stopped == "fault":
        raise GameFailed(next(run.first_fault for run in runs if run.first_fault), results)
    if dispatcher.stopped == "pool":
        raise PoolFailed(dispatcher.pool_error, results)
    if dispatcher.stopped == "interrupted":
        raise RunInterrupted(results, stops.how)
    if all(result.totals["games"] == 0 and result.totals["faults"] for result in results):
        raise NothingPlayed(next((run.first_fault for run in runs if run.first_fault), None), results)
    return results


def finish(run: CellRun, options: RunOptions, status: str, wall: float, worker_rss: float,
           workers_started: int | None, pool_error: str | None = None, report: bool = True) -> RunResult:
    """Combine the cell's parts and write its report (``report``; else run.json alone); the
    totals cover the whole folder.
    ``workers_started``: the worker processes the pool started (None on Dask); ``pool_error``:
    why the workers could not be kept, when that stopped the run."""
    if not run.sink.close() and not (run.out / "games.parquet").exists():
        for kind in KINDS:
            EMPTY[kind]().write_parquet(run.out / f"{kind}.parquet")
    games, rounds = scan_frames(run.out)
    counts = games.select(
        rows=pl.len(), faults=(pl.col("end_reason") == FAULT).sum(),
        decisions=pl.col("decisions").fill_null(0).sum(), seconds=pl.col("duration_s").fill_null(0).sum(),
    ).collect().row(0, named=True)
    faults = int(counts["faults"])
    info = run.info
    stopped_by_fault = run.first_fault is not None and options.on_fault == "stop"  # a resume plays it again
    precise = run.gate is not None and run.gate.stopped_by == "precision" and status == "complete"
    played_none = faults == counts["rows"] > 0  # every game a fault: nothing to report, no success
    complete = (counts["rows"] == run.cell.games or precise) and not stopped_by_fault and not played_none
    info.update(
        status="complete" if complete else "failed" if played_none and status == "complete" else status,
        games=counts["rows"] - faults,
        faults=faults,
        decisions=int(counts["decisions"]),
        seconds_in_games=round(float(counts["seconds"]), 3),
        wall_seconds=round(info.get("wall_seconds", 0.0) + wall if info.get("resumed") else wall, 3),
        finished=datetime.now().isoformat(timespec="seconds"),
        peak_memory_mib={"worker": round(worker_rss, 1)},  # the parent's once the report is written
        workers_started=workers_started,
    )
    if run.gate is not None and complete:
        info["stopped_by"] = run.gate.stopped_by
    else:
        info.pop("stopped_by", None)
    if pool_error is not None:
        info["failure"] = {"kind": "pool", "message": pool_error}
    elif run.first_fault is not None and (stopped_by_fault or played_none):
        info["failure"] = run.first_fault.to_dict()
    elif not played_none:
        info.pop("failure", None)
    written = write_report(run.out, games, rounds, info, csv=options.csv) if report else None
    info["peak_memory_mib"]["parent"] = round(peak_rss_mib(), 1)  # the report included
    write_run_info(run.out, info)
    return RunResult(run.out, {k: info[k] for k in TOTAL_KEYS}, info, written, info["status"], left=run.todo)


def with_command(options: RunOptions, words: list[str]) -> RunOptions:
    """``options`` with ``command`` set from ``words`` unless the caller (the CLI) gave one."""
    return options if options.command else replace(options, command=command_line(words))
