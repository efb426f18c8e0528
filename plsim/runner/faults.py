"""The record of a run's faults: ``faults.csv`` (one row each) and ``faults.log`` (tracebacks).

Both are appended to as each fault arrives, so a run killed later keeps them. A fault recorded
under ``--on-fault stop`` stopped the run; resuming the run plays that game again, so
``drop_stopped`` removes those rows first.
"""

from __future__ import annotations

import csv
from pathlib import Path

from plsim.runner.results import Fault

FAULTS_FILE = "faults.csv"
FAULTS_LOG = "faults.log"
COLUMNS = ("game", "seed", "kind", "seat", "strategy", "error", "attempts", "on_fault", "seats", "replay")


def _row(fault: Fault) -> dict[str, object]:
    return {"game": fault.game, "seed": fault.seed, "kind": fault.kind,
            "seat": "" if fault.seat is None else fault.seat, "strategy": fault.strategy or "",
            "error": fault.message, "attempts": fault.attempts, "on_fault": fault.on_fault,
            "seats": ",".join(fault.seats), "replay": fault.replay}


class FaultLog:
    """Appends a cell's faults to its folder as they happen."""

    def __init__(self, out_dir: Path) -> None:
        self.csv_path = out_dir / FAULTS_FILE
        self.log_path = out_dir / FAULTS_LOG
        self.count = 0

    def record(self, fault: Fault) -> None:
        new = not self.csv_path.exists()
        with self.csv_path.open("a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS)
            if new:
                writer.writeheader()
            writer.writerow(_row(fault))
        with self.log_path.open("a") as handle:
            handle.write(f"== {fault.describe()}\nreplay: {fault.replay}\n{fault.traceback or '(no traceback: the worker was gone)'}\n")
        self.count += 1


def read_faults(out_dir: Path) -> list[dict[str, str]]:
    path = out_dir / FAULTS_FILE
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def drop_stopped(out_dir: Path) -> set[int]:
    """Remove the faults that stopped the run from faults.csv; returns their games."""
    rows = read_faults(out_dir)
    stopped = {int(r["game"]) for r in rows if r["on_fault"] == "stop"}
    if stopped:
        with (out_dir / FAULTS_FILE).open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(r for r in rows if r["on_fault"] != "stop")
    return stopped
