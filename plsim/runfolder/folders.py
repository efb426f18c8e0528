"""Run folders: choosing, checking and clearing them, and naming their scenario.

A folder that holds a run, or files plsim did not write, is never written without ``force``,
and ``force`` removes exactly the files a run writes. While a run plays, its folder is locked
(``plsim.runfolder.lock``), and the lock is taken before the folder is checked or cleared, so a
second run, a resume or ``--force`` of the same folder is refused instead of mixing or deleting
another run's games.
"""

from __future__ import annotations

import dataclasses
import itertools
import shutil
from datetime import datetime
from pathlib import Path

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.lock import FolderLock
from plsim.runfolder.paths import check_path
from plsim.runfolder.names import (
    CARD_FILES, CELLS_DIR, CRASH_LOG, DAMAGED_DIR, FAULTS_FILE, FAULTS_LOG, GRID_FILE, HTML_FILE, LOCK_FILE,
    MERGE_DIR, PARTS_DIR, PLOT_FILES, REPLAYS_DIR, RUN_INFO_FILE, TABLE_FILES, WORKERS_LOG,
)
from plsim.scenario import Scenario, ScenarioError, as_scenario

# Files a run writes into its folder; --force removes exactly these, nothing else.
RUN_FILES = (
    RUN_INFO_FILE, FAULTS_FILE, FAULTS_LOG, GRID_FILE, CRASH_LOG, WORKERS_LOG, "error.txt", "games.parquet",
    "rounds.parquet",
    "cards.parquet", "games.csv", "rounds.csv", HTML_FILE, *TABLE_FILES.values(), *PLOT_FILES.values(),
    *CARD_FILES.values(),
    "pairwise.csv", "matrix.csv", "matrix.png", "ratings.csv", "compare.csv", "compare.json", "README.txt",
)


def holds_run(out: Path) -> bool:
    return out.is_dir() and any((out / name).exists() for name in (RUN_INFO_FILE, GRID_FILE, "games.parquet", PARTS_DIR))


def resolve_out(out: str | Path | None, suffix: str = "") -> Path:
    """The run's folder: ``out``, or a new ``reports/<timestamp><suffix>`` (nothing is created)."""
    if out is not None:
        return Path(out)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S") + suffix
    base = Path("reports") / stamp
    for n in itertools.count(2):
        if not base.exists():
            return base
        base = base.with_name(f"{stamp}-{n}")
    raise AssertionError("unreachable")


def check_out(out: Path, force: bool) -> None:
    """Refuse a folder that is a file, holds a run, or holds files plsim did not write (unless
    ``force``), or a path no folder can have (``check_path``). Writes nothing."""
    check_path(out)
    if out.exists() and not out.is_dir():
        raise RunConfigError(f"output {out} exists and is not a folder")
    if force or not out.is_dir():
        return
    if holds_run(out):
        raise RunConfigError(f"{out} already holds a run (run.json, games.parquet or parts/); "
                             "choose another --out, pass --force to overwrite it, or --resume it")
    foreign = sorted(entry.name for entry in out.iterdir() if entry.name != LOCK_FILE)
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise RunConfigError(f"{out} holds files plsim did not write ({shown}); choose another --out, or pass "
                             "--force to write there anyway (it removes only the files a run writes)")


def clear_out(out: Path) -> None:
    """Remove the files a run writes from ``out`` (``--force``), and nothing else."""
    for folder in (PARTS_DIR, MERGE_DIR, DAMAGED_DIR, CELLS_DIR, REPLAYS_DIR):
        shutil.rmtree(out / folder, ignore_errors=True)
    for name in RUN_FILES:
        (out / name).unlink(missing_ok=True)


def open_out(out: Path, force: bool) -> FolderLock:
    """Lock ``out`` (creating it if needed), then check it and, with ``force``, clear it: under the
    lock, so that nothing of a folder another plsim is writing is ever touched."""
    lock = FolderLock(out).acquire()
    try:
        check_out(out, force)
        if force:
            clear_out(out)
    except BaseException:
        lock.release()
        raise
    return lock


def _same(a: Scenario, b: Scenario) -> bool:
    return dataclasses.replace(a, path=None) == dataclasses.replace(b, path=None)


def scenario_reference(scenario: Scenario, folder: Path) -> str:
    """What to pass ``plsim play``/``plsim run`` to get this scenario back: its name, else its
    file, else a file written into the run's folder (``write_scenario_file``)."""
    for reference in (scenario.name, scenario.path):
        if reference is None:
            continue
        try:
            if _same(as_scenario(reference), scenario):
                return str(reference)
        except ScenarioError:
            continue
    return str(scenario_file(scenario, folder))


def scenario_file(scenario: Scenario, folder: Path) -> Path:
    return folder / f"{scenario.name}.toml"


def write_scenario_file(scenario: Scenario, folder: Path) -> None:
    """Save the scenario into the run's folder when nothing else can name it."""
    if scenario_reference(scenario, folder) == str(scenario_file(scenario, folder)):
        scenario_file(scenario, folder).write_text(scenario.to_toml())
