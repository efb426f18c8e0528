"""A run's faults: the ``Fault`` record, ``faults.csv`` (one row each) and ``faults.log`` (tracebacks).

Both are appended to as each fault arrives, so a run killed later keeps them. A fault recorded
under ``--on-fault stop`` stopped the run; resuming the run plays that game again, so
``drop_stopped`` removes those rows first.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.names import FAULTS_FILE, FAULTS_LOG

FAULT_KINDS = {
    "strategy": "a strategy failed",  # raised, answered illegally, changed the game, exited, never passed
    "engine": "the engine failed",  # an engine bug: never the strategy's fault
    "timeout": "a game ran too long",  # past --game-timeout: the parent stopped it
    "worker": "a worker died",  # os._exit, a signal, the out-of-memory killer; twice in a row
}
ON_FAULT = ("stop", "skip")  # what a run did about a fault
COLUMNS = ("game", "seed", "kind", "seat", "strategy", "error", "attempts", "on_fault", "seats", "replay")


@dataclass(frozen=True)
class Fault:
    """A game that did not end normally, with what it takes to replay it with ``plsim play``."""

    cell: str
    game: int
    seed: int
    seats: tuple[str, ...]
    kind: str  # a key of FAULT_KINDS
    seat: int | None  # the seat whose strategy was playing, when known
    message: str
    traceback: str
    attempts: int
    replay: str
    on_fault: str  # what the run did about it: stop | skip

    @property
    def strategy(self) -> str | None:
        return None if self.seat is None else self.seats[self.seat]

    def to_dict(self) -> dict[str, Any]:
        return {"cell": self.cell, "game": self.game, "seed": self.seed, "seats": list(self.seats),
                "kind": self.kind, "seat": self.seat, "strategy": self.strategy, "message": self.message,
                "attempts": self.attempts, "replay": self.replay, "on_fault": self.on_fault}

    def describe(self) -> str:
        """One line: what failed, where, and the error."""
        where = f"game {self.game} (seed {self.seed}"
        if self.seat is not None:
            where += f", seat {self.seat}: {self.strategy}"
        where += ")"
        if self.cell:
            where += f" of cell {self.cell}"
        return f"{FAULT_KINDS.get(self.kind, self.kind)} in {where}: {' '.join(self.message.split())}"


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
    """The rows of faults.csv (none if there is none); ``RunConfigError`` (one line, naming the file
    and the row) for a file that is not one: a resume trusts its game numbers and what each fault
    did (``drop_stopped``)."""
    path = out_dir / FAULTS_FILE
    if not path.exists():
        return []
    try:
        with path.open(newline="") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RunConfigError(f"{path} cannot be read: {' '.join(str(exc).split())}") from None
    for number, row in enumerate(rows, start=1):
        if not (row.get("game") or "").isdigit() or row.get("on_fault") not in ON_FAULT:
            raise RunConfigError(f"{path} is damaged: its row {number} has no game number or no on_fault "
                                 f"({' or '.join(ON_FAULT)}), which every fault's row has")
    return rows


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
