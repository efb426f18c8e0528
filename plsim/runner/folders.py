"""Run folders: choosing, checking, clearing and locking them, and naming their scenario.

A folder that holds a run is never overwritten without ``force``, and ``force`` removes exactly
the files a run writes. While a run plays, its folder is locked (``flock``), so a second run or a
resume of the same folder is refused instead of mixing two runs' games.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import shutil
from datetime import datetime
from pathlib import Path

from plsim.runner.faults import FAULTS_FILE, FAULTS_LOG
from plsim.runner.report import CARD_FILES, HTML_FILE, PLOT_FILES, REPLAYS_DIR, RUN_INFO_FILE, TABLE_FILES
from plsim.runner.results import RunConfigError
from plsim.runner.writer import MERGE_DIR, PARTS_DIR
from plsim.scenario import Scenario, ScenarioError, as_scenario

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock
    fcntl = None

GRID_FILE = "grid.json"
CELLS_DIR = "cells"
LOCK_FILE = ".plsim.lock"
# Files a run writes into its folder; --force removes exactly these, nothing else.
RUN_FILES = (
    RUN_INFO_FILE, FAULTS_FILE, FAULTS_LOG, GRID_FILE, "error.txt", "games.parquet", "rounds.parquet",
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
    """Refuse a folder that is a file, or holds a run (unless ``force``). Writes nothing."""
    if out.exists() and not out.is_dir():
        raise RunConfigError(f"output {out} exists and is not a folder")
    if holds_run(out) and not force:
        raise RunConfigError(f"{out} already holds a run (run.json, games.parquet or parts/); "
                             "choose another --out, pass --force to overwrite it, or --resume it")


def create_out(out: Path, force: bool) -> None:
    """Make the folder; with ``force``, first remove the files of the run it holds."""
    if force and out.is_dir():
        for folder in (PARTS_DIR, MERGE_DIR, CELLS_DIR, REPLAYS_DIR):
            shutil.rmtree(out / folder, ignore_errors=True)
        for name in RUN_FILES:
            (out / name).unlink(missing_ok=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunConfigError(f"cannot create the output folder {out}: {exc.strerror or exc}") from None


class FolderLock:
    """An exclusive lock on a run folder for as long as a run writes it."""

    def __init__(self, out: Path) -> None:
        self.path = out / LOCK_FILE
        self.handle = None

    def acquire(self) -> "FolderLock":
        if fcntl is None:
            return self
        handle = self.path.open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            owner = handle.read().strip() or "?"
            handle.close()
            raise RunConfigError(f"{self.path.parent} is being written by a running plsim (pid {owner}); "
                                 "wait for it or stop it first") from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self.handle = handle
        return self

    def release(self) -> None:
        if self.handle is not None:
            self.path.unlink(missing_ok=True)
            self.handle.close()
            self.handle = None


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
