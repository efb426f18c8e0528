"""The core of every run: a list of cells -> one queue of games -> per-cell folders and reports.

``execute`` checks everything first (cells, strategies, options, folders: nothing is written and
no worker started until all pass), starts the worker pool, and plays the games of every cell as
one queue — game k of each cell in turn, so no worker idles between cells and an interrupted grid
has comparable cells. Each result goes to its cell's sink as it arrives; each fault to the cell's
``faults.csv``. At the end every cell's parts are combined and its report written, whatever
stopped the run; then ``GameFailed``, ``RunInterrupted`` or ``PoolFailed`` is raised if the run did
not play every game, carrying every cell's ``RunResult``.

``run_cells`` is the library call for a grid (the sweep): each cell is an ordinary run folder
``out/cells/<name>/``, all cells share the run's game seeds and seat rotations.
"""

from __future__ import annotations

import json
import platform
import sys
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

import polars as pl
from tqdm import tqdm

from plsim import __version__
from plsim.runner.dispatch import Dispatcher, FaultReport
from plsim.runner.faults import FaultLog, drop_stopped
from plsim.runner.folders import (
    CELLS_DIR, GRID_FILE, FolderLock, check_out, create_out, scenario_reference, write_scenario_file,
)
from plsim.runner.frames import FAULT, fault_row
from plsim.runner.options import RunOptions, command_line, invoked_command, option_arguments
from plsim.runner.plan import Cell, Plan
from plsim.runner.pool import Job, ProcessPool
from plsim.runner.precision import PrecisionGate, check_until_ci
from plsim.runner.report import read_run_info, write_report, write_run_info
from plsim.runner.results import (
    Fault, GameFailed, PoolFailed, RunConfigError, RunInterrupted, RunResult,
)
from plsim.runner.signals import StopRequests
from plsim.runner.worker import CellTask, Played, board_cached, peak_rss_mib, resolve_cached
from plsim.runner.writer import EMPTY, KINDS, RowSink, SinkGroup, combine_parts, scan_frames
from plsim.strategy.registry import StrategyLoadError

TOTAL_KEYS = ("games", "faults", "decisions", "seconds_in_games", "wall_seconds")


# --- checking the input ----------------------------------------------------------------------

def absolute_ref(entry: str) -> str:
    """A ``path/file.py:Class[:params]`` entry with its path made absolute, for other processes."""
    head, sep, rest = entry.partition(".py:")
    if not sep:
        return entry
    path = Path(head + ".py")
    return entry if path.is_absolute() else str(path.resolve()) + ":" + rest


def check_entries(entries: Sequence[str], known: Mapping[str, str] | None = None) -> dict[str, str]:
    """Resolve every entry and make one instance of each, before any game.

    Returns the entries as other processes must resolve them (plugin paths made absolute). A
    plugin that exits or raises KeyboardInterrupt while loading is one ``StrategyLoadError`` too.
    """
    refs = {}
    known = known or {}
    for entry in dict.fromkeys(entries):
        ref = known.get(entry) or absolute_ref(entry)
        try:
            spec = resolve_cached(ref)
            spec.make(0, 0)
        except StrategyLoadError:
            raise
        except (Exception, SystemExit, KeyboardInterrupt) as exc:
            raise StrategyLoadError(
                f"strategy {entry!r} cannot be loaded and constructed: {type(exc).__name__}: {exc}"
            ) from None
        refs[entry] = ref
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
        scen, count = cell.scenario, cell.games_per_table
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RunConfigError(f"the number of games must be at least 1, got {count}")
        if not cell.tables:
            raise RunConfigError("no table to play")
        for table in cell.tables:
            if not table:
                raise RunConfigError("a table with no strategies")
            if len(table) > scen.players:
                raise RunConfigError(
                    f"scenario {scen.name} has {scen.players} seats but {len(table)} strategies were given "
                    f"({','.join(table)}); give at most {scen.players} (a shorter list is cycled) "
                    f"or pick a scenario with more players, e.g. standard-{len(table)}p"
                )
        board_cached(scen.map)
    known = {e: r for cell in cells for e, r in cell.refs.items()}
    return check_entries([e for cell in cells for e in cell.entries], known)


def versions() -> dict[str, str]:
    return {"plsim": __version__, "python": platform.python_version(), "polars": pl.__version__}


def run_words(where: str, cell: Cell, options: RunOptions) -> list[str]:
    """The ``plsim run`` command of a one-table cell."""
    until = ["--until-ci", f"{cell.until_ci:g}"] if cell.until_ci is not None else []
    return ["plsim", "run", where, "--games", str(cell.games_per_table), *until,
            "--players", ",".join(cell.tables[0]), *option_arguments(options)]


def replay_command(where: str, seed: int, seats: Sequence[str], check: bool) -> str:
    return command_line(["plsim", "play", where, "--seed", str(seed), "--players", ",".join(seats)]
                        + (["--check"] if check else []))


# --- one cell's state in the parent ------------------------------------------------------------

@dataclass
class CellRun:
    cell: Cell
    out: Path
    plan: Plan
    task: CellTask
    where: str
    info: dict[str, Any]
    done: set[int] = field(default_factory=set)
    todo: int = 0
    sink: RowSink | None = None
    faults: FaultLog | None = None
    lock: FolderLock | None = None
    first_fault: Fault | None = None
    gate: PrecisionGate | None = None


def cell_info(cell: Cell, where: str, refs: dict[str, str], options: RunOptions, command: str) -> dict[str, Any]:
    """The run.json of a cell: enough to rebuild its plan (``plsim run --resume``) and to read it."""
    scen = cell.scenario
    tables = [list(t) for t in cell.tables]
    return {
        "kind": cell.kind,
        "cell": cell.name or None,
        "scenario": scen.name,
        "scenario_path": str(scen.path) if scen.path else None,
        "scenario_ref": where,
        "scenario_description": scen.description,
        "scenario_strategies": list(scen.strategies),
        "map": scen.map,
        "players": scen.players,
        "strategies": tables[0] if len(tables) == 1 else sorted({e for t in tables for e in t}),
        "tables": tables,
        "refs": {e: refs[e] for e in cell.entries},
        "games_per_table": cell.games_per_table,
        "games_requested": cell.games,
        "until_ci": cell.until_ci,
        "seating": options.seating,
        "seed": options.seed,
        "common_seeds": cell.common_seeds,
        "rules": scen.rules.to_dict(),
        "workers": options.workers,
        "executor": options.executor,
        "scheduler": options.scheduler,
        "game_timeout": options.game_timeout,
        "on_fault": options.on_fault,
        "check": options.check,
        "csv": options.csv,
        "command": command,
        "versions": versions(),
        "started": datetime.now().isoformat(timespec="seconds"),
        "status": "running",
        **dict(cell.info),
    }


def open_pool(options: RunOptions, tasks: list[CellTask]):
    """The worker pool the options ask for (Dask is imported only when asked for)."""
    if options.executor == "dask":
        try:
            from plsim.runner import dask_pool
        except ImportError:
            raise RunConfigError("the dask executor needs dask.distributed: pip install plsim[dask]") from None
        return dask_pool.DaskPool(options, tasks)
    return ProcessPool(options.workers, tasks)


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
    check_out(root, options.force)
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
) -> list[RunResult]:
    """Play every game of every (cell, folder) — or, with ``resume``, every game the folders lack."""
    options = options.checked()
    cells = [cell for cell, _ in placed]
    refs = check_cells(cells)
    if not resume:
        for _, out in placed:
            check_out(out, options.force)
    runs = []
    for cell, out in placed:
        where = scenario_reference(cell.scenario, out)
        plan = cell.plan(options.seating, options.seed)
        command = options.command or command_line(run_words(where, cell, options))
        task = CellTask(cell.scenario, plan, {e: refs[e] for e in cell.entries}, options.check)
        runs.append(CellRun(cell, out, plan, task, where, cell_info(cell, where, refs, options, command)))
    pool = open_pool(options, [run.task for run in runs])
    try:
        if grid is not None and not resume:
            create_out(grid[0], options.force)
            (grid[0] / GRID_FILE).write_text(json.dumps(grid[1], indent=2) + "\n")
        for run in runs:
            open_cell(run, options, resume)
        return play(runs, pool, options)
    finally:
        pool.close(at_once=True)
        for run in runs:
            if run.lock is not None:
                run.lock.release()


def open_cell(run: CellRun, options: RunOptions, resume: bool) -> None:
    """Create (or reopen) the cell's folder, lock it, write run.json, and find the games it has."""
    if resume:
        run.lock = FolderLock(run.out).acquire()
        combine_parts(run.out, exclude=drop_stopped(run.out))
        if (run.out / "games.parquet").exists():
            run.done = set(pl.read_parquet(run.out / "games.parquet", columns=["game"])["game"].to_list())
        before = read_run_info(run.out)
        run.info = {**before, **{k: v for k, v in run.info.items() if k in RESUMABLE}, "status": "running",
                    "resumed": [*before.get("resumed", []), {"started": run.info["started"], "command": invoked_command()}]}
    else:
        create_out(run.out, options.force)
        run.lock = FolderLock(run.out).acquire()
        write_scenario_file(run.cell.scenario, run.out)
    run.todo = run.cell.games - len(run.done)
    if run.cell.until_ci is not None:
        run.gate = PrecisionGate(run.cell.until_ci, run.cell.games)
        if run.done:
            run.gate.add_finished(scan_frames(run.out)[0].collect())
    run.sink = RowSink(run.out, resume=resume)
    run.faults = FaultLog(run.out)
    write_run_info(run.out, run.info)


# run.json keys a resume may change (how the games run); the plan's keys never change.
RESUMABLE = ("workers", "executor", "scheduler", "game_timeout", "on_fault", "check", "versions")


def jobs_of(runs: list[CellRun]) -> Iterator[Job]:
    """Game k of every cell in turn, skipping the games a cell already has."""
    longest = max(run.cell.games for run in runs)
    for game in range(longest):
        for index, run in enumerate(runs):
            if game < run.cell.games and game not in run.done:
                yield Job(index, game)


def play(runs: list[CellRun], pool, options: RunOptions) -> list[RunResult]:
    """Dispatch the games, then finish every cell whatever stopped the run."""
    todo = sum(run.todo for run in runs)
    bar = tqdm(total=todo, unit="game", disable=not options.progress, dynamic_ncols=True, file=sys.stderr,
               desc="games", smoothing=0.05)
    say = bar.write if options.progress else (lambda text: print(text, file=sys.stderr))
    sinks = SinkGroup([run.sink for run in runs])

    def played(job: Job, outcome: Played) -> None:
        sinks.add(job.cell, outcome.games_row, outcome.rounds_rows, outcome.cards)
        gate = runs[job.cell].gate
        if gate is not None:
            gate.record_row(runs[job.cell].plan.game(job.game)[1], outcome.games_row)
        bar.update(1)

    def faulted(report: FaultReport) -> None:
        run = runs[report.job.cell]
        seed, seats = run.plan.game(report.job.game)
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
    with StopRequests(say) as stops:
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
        results = [finish(run, options, status, wall, worker_rss) for run in runs]
    if dispatcher.stopped == "fault":
        raise GameFailed(next(run.first_fault for run in runs if run.first_fault), results)
    if dispatcher.stopped == "pool":
        raise PoolFailed(dispatcher.pool_error, results)
    if dispatcher.stopped == "interrupted":
        raise RunInterrupted(results, "terminated (SIGTERM)" if stops.terminated else "interrupted")
    return results


def finish(run: CellRun, options: RunOptions, status: str, wall: float, worker_rss: float) -> RunResult:
    """Combine the cell's parts and write its report; the totals cover the whole folder."""
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
    complete = (counts["rows"] == run.cell.games or precise) and not stopped_by_fault
    info.update(
        status="complete" if complete else status,
        games=counts["rows"] - faults,
        faults=faults,
        decisions=int(counts["decisions"]),
        seconds_in_games=round(float(counts["seconds"]), 3),
        wall_seconds=round(info.get("wall_seconds", 0.0) + wall if info.get("resumed") else wall, 3),
        finished=datetime.now().isoformat(timespec="seconds"),
        peak_memory_mib={"worker": round(worker_rss, 1)},  # the parent's once the report is written
    )
    if run.gate is not None and complete:
        info["stopped_by"] = run.gate.stopped_by
    else:
        info.pop("stopped_by", None)
    if stopped_by_fault:
        info["failure"] = run.first_fault.to_dict()
    else:
        info.pop("failure", None)
    report = write_report(run.out, games, rounds, info, csv=options.csv)
    info["peak_memory_mib"]["parent"] = round(peak_rss_mib(), 1)  # the report included
    write_run_info(run.out, info)
    return RunResult(run.out, {k: info[k] for k in TOTAL_KEYS}, info, report, info["status"])


def with_command(options: RunOptions, words: list[str]) -> RunOptions:
    """``options`` with ``command`` set from ``words`` unless the caller (the CLI) gave one."""
    return options if options.command else replace(options, command=command_line(words))
