"""Salvaging a run plsim itself broke: when plsim fails after a run's folders are open, the
games already received are kept and the folders say what happened.

A full disk or an unwritable folder is ``OutputUnwritable`` (exit 2 on the command line): every
file written so far stays as it was. Anything else is ``RunCrashed`` (exit 1): the traceback
goes to ``plsim.log`` in the run's folder and the message says whether ``--resume`` can go on.
Either way each cell's buffered games are written if they can be, and its run.json says
"failed" and why.
"""

from __future__ import annotations

import errno
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

from plsim.engine.blame import cut, safe_str
from plsim.runfolder import CRASH_LOG, RunConfigError, write_run_info
from plsim.runner.results import RunStopped

STORAGE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EFBIG}


class RunCrashed(RuntimeError):
    """plsim failed during a run: ``folder`` holds the games received and ``plsim.log``."""

    def __init__(self, message: str, folder: Path, resumable: bool) -> None:
        self.folder = folder
        self.resumable = resumable
        self.detail = " ".join(message.split())  # without the resume hint, for a job of its own (tune)
        hint = f"; resume with: plsim run --resume {folder}" if resumable else ""
        super().__init__(f"{self.detail}{hint}")


class OutputUnwritable(RunCrashed):
    """The run's folder cannot take more (a full disk, a read-only or forbidden folder)."""


def is_storage_error(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in STORAGE_ERRORS


def _salvage(runs: Sequence[Any], reason: str) -> tuple[int, bool]:
    """Write each cell's buffered games and mark its run.json failed, as far as the disk lets;
    (games that could not be written, whether every run.json was)."""
    lost, recorded = 0, True
    for run in runs:
        if run.sink is not None:
            try:
                run.sink.flush()
            except OSError:
                lost += run.sink.buffered
        run.info.update(status="failed", failure={"kind": "plsim", "message": reason})
        try:
            write_run_info(run.out, run.info)
        except OSError:
            recorded = False
    return lost, recorded


@contextmanager
def catch_all(runs: Sequence[Any], home: Path) -> Iterator[None]:
    """Turn any unexpected error inside into ``RunCrashed`` or ``OutputUnwritable`` (see the
    module docstring); the run's own ways of ending (``RunStopped``, ``RunConfigError``) and
    ``BaseException`` pass through. ``home`` is where ``plsim.log`` goes."""
    try:
        yield
    except (RunStopped, RunConfigError):
        raise
    except Exception as exc:
        reason = cut(f"{type(exc).__name__}: {safe_str(exc)}")
        lost, recorded = _salvage(runs, reason)
        unsaved = f"; {lost:,} finished games could not be written" if lost else ""
        if is_storage_error(exc):
            raise OutputUnwritable(f"cannot write to {home}: {exc.strerror or reason}; every file written so far "
                                   f"is kept{unsaved}; free space or allow writing", home, recorded) from None
        where = home / CRASH_LOG
        try:
            with where.open("a") as log:
                log.write(traceback.format_exc())
            told = f"traceback in {where}"
        except OSError:
            told = "no traceback written: the folder cannot be written"
        raise RunCrashed(f"plsim failed: {reason} ({told}); the games received are kept in {home}{unsaved}",
                         home, recorded) from None
