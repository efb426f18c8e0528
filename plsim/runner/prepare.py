"""Preparing a run's folders before the first game: locked first, then checked, cleared or
resumed, then run.json.

``lock_folders`` takes every folder's lock — a grid's root before its cells — before anything in
them is touched: a fresh run then checks each folder and clears it if ``--force`` (``open_out``);
a resume first checks every cell's frames (``check_resumed``: ``plsim.runfolder.damage``), then
that the code is the one that played the folder's games (``provenance``), sets what is damaged
aside — its games are played again — combines the rest and checks that its games are the plan's
(``planned``): ``open_cell``. Each cell's state in the parent while it plays is a ``CellRun``.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence

import polars as pl

from plsim import __version__
from plsim.runfolder import (
    Fault, FaultLog, FolderLock, FrameCheck, RowSink, check_frames, check_same_code, combine_parts,
    cut_list, drop_stopped, for_entries, open_out, read_faults, read_run_info, scan_frames, set_aside, write_run_info,
    write_scenario_file,
)
from plsim.runner.cell import Cell, Schedule
from plsim.runner.options import RunOptions, invoked_command
from plsim.runner.planned import check_planned
from plsim.runner.precision import PrecisionGate
from plsim.runner.worker import CellTask

# run.json keys a resume may change (how the games run); the plan's keys never change.
RESUMABLE = ("workers", "executor", "scheduler", "connect_timeout", "game_timeout", "on_fault", "check", "csv", "versions")
# run.json keys of the plan's size, which a resume may grow (``plsim.runner.resume.grown``)
SIZE_KEYS = ("games_per_table", "games_requested")


@dataclass
class CellRun:
    """One cell's state in the parent while it plays."""

    cell: Cell
    out: Path
    schedule: Schedule
    task: CellTask
    where: str
    info: dict[str, Any]
    done: set[int] = field(default_factory=set)
    todo: int = 0
    sink: RowSink | None = None
    faults: FaultLog | None = None
    first_fault: Fault | None = None
    gate: PrecisionGate | None = None
    frames: FrameCheck | None = None  # a resume's check of the folder's frames (``check_resumed``)


def versions() -> dict[str, str]:
    return {"plsim": __version__, "python": platform.python_version(), "polars": pl.__version__}


def cell_info(cell: Cell, where: str, refs: dict[str, str], options: RunOptions, command: str,
              code: dict[str, Any]) -> dict[str, Any]:
    """The run.json of a cell: enough to rebuild its plan (``plsim run --resume``), to read it,
    and to tell whether a resume runs the same code (``code``)."""
    scen = cell.scenario
    lineups = [list(lineup) for lineup in cell.lineups]
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
        "strategies": lineups[0] if len(lineups) == 1 else sorted({e for lineup in lineups for e in lineup}),
        "tables": lineups,
        "refs": {e: refs[e] for e in cell.entries},
        "games_per_table": cell.games_per_lineup,
        "games_requested": cell.games,
        "until_ci": cell.until_ci,
        "seating": options.seating,
        "seed": options.seed,
        "common_seeds": cell.common_seeds,
        "rules": scen.rules.to_dict(),
        "workers": options.workers,
        "executor": options.executor,
        "scheduler": options.scheduler,
        "connect_timeout": options.connect_timeout,
        "game_timeout": options.game_timeout,
        "on_fault": options.on_fault,
        "check": options.check,
        "csv": options.csv,
        "command": command,
        "versions": versions(),
        "code": for_entries(code, cell.entries),
        "started": datetime.now().isoformat(timespec="seconds"),
        "status": "running",
        **dict(cell.info),
    }


def lock_folders(folders: Sequence[Path], force: bool, resume: bool) -> list[FolderLock]:
    """Lock each folder in order (a grid's root first); a fresh run's are checked and, with
    ``force``, cleared under their lock. All or none: a refusal releases the locks taken."""
    locks: list[FolderLock] = []
    try:
        for out in folders:
            locks.append(FolderLock(out).acquire() if resume else open_out(out, force))
    except BaseException:
        for lock in reversed(locks):
            lock.release()
        raise
    return locks


def check_resumed(runs: Sequence[CellRun]) -> None:
    """Check every frame and faults.csv of every folder a resume opens before any of them is
    touched: a game in two rows or a damaged faults.csv is refused (``RunConfigError``); what is
    damaged among the frames is set aside by ``open_cell``."""
    for run in runs:
        run.frames = check_frames(run.out, read_run_info(run.out))
        read_faults(run.out)


def open_cell(run: CellRun, options: RunOptions, resume: bool, say: Callable[[str], None]) -> None:
    """Write the cell's run.json and find the games it has (a resume: after checking the code
    and setting aside what ``check_resumed`` found damaged, each file named in one line). The
    folder is locked already."""
    if resume:
        before = read_run_info(run.out)
        changed = check_same_code(run.out, before.get("code"), run.info["code"], options.force_resume)
        frames = run.frames if run.frames is not None else check_frames(run.out, before)
        said, damaged = set_aside(frames)
        for line in said:
            say(line)
        combine_parts(run.out, exclude=drop_stopped(run.out) | frames.left_out)
        check_planned(run.out, run.schedule)
        if (run.out / "games.parquet").exists():
            run.done = set(pl.read_parquet(run.out / "games.parquet", columns=["game"])["game"].to_list())
        resumed = {"started": run.info["started"], "command": invoked_command()}
        if before.get("games_per_table") != run.info["games_per_table"]:
            resumed["grown"] = {"from": before.get("games_per_table"), "to": run.info["games_per_table"]}
        if damaged:
            resumed["damaged"] = damaged
        if frames.left_out:
            resumed["left_out"] = len(frames.left_out)
        if changed:
            resumed["mixed_versions"] = changed
            say(f"resuming {run.out} with --force-resume: its games mix versions ({'; '.join(cut_list(changed))} "
                "changed since the run started)")
        run.info = {**before, **{k: v for k, v in run.info.items() if k in RESUMABLE + SIZE_KEYS}, "status": "running",
                    "resumed": [*before.get("resumed", []), resumed]}
        if changed:
            run.info["mixed_versions"] = [*before.get("mixed_versions", []), *changed]
    else:
        write_scenario_file(run.cell.scenario, run.out)
    run.todo = run.cell.games - len(run.done)
    if run.cell.until_ci is not None:
        run.gate = PrecisionGate(run.cell.until_ci, run.cell.games)
        if run.done:
            run.gate.add_finished(scan_frames(run.out)[0].collect())
    run.sink = RowSink(run.out, resume=resume)
    run.faults = FaultLog(run.out)
    write_run_info(run.out, run.info)
