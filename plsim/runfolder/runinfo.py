"""``run.json`` and ``grid.json``: what a run folder (or a grid of them) says about itself.

run.json is written when the run starts, so a partial run keeps its plan, and again at the end
with the totals; a resume, ``plsim report`` and a replay read it back.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from plsim.runfolder.errors import RunConfigError
from plsim.runfolder.names import GRID_FILE, RUN_INFO_FILE
from plsim.runfolder.runinfo_check import check_run_info


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader (or a stop, or a full disk) never meets half of
    it: a temporary file beside it, renamed over it."""
    temporary = path.with_name(path.name + ".tmp")
    try:
        temporary.write_text(text)
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


def write_run_info(out_dir: str | Path, run_info: dict[str, Any]) -> Path:
    """Save the run's settings as ``run.json``; write it at the start so partial runs keep it."""
    path = Path(out_dir) / RUN_INFO_FILE
    write_whole(path, json.dumps(run_info, indent=2, sort_keys=True, default=str) + "\n")
    return path


def read_run_info(out_dir: str | Path) -> dict[str, Any]:
    """The saved ``run.json``, or an empty dict if the run never wrote one; ``RunConfigError``
    (one line) for one that is not a JSON object, or a key of it plsim reads that does not have
    the type a run writes (``check_run_info``)."""
    path = Path(out_dir) / RUN_INFO_FILE
    if not path.exists():
        return {}
    try:
        info = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RunConfigError(f"{path} cannot be read: {getattr(exc, 'msg', None) or exc}") from None
    if not isinstance(info, dict):
        raise RunConfigError(f"{path} is not a run's record (a JSON object)")
    return check_run_info(info, path)


def write_grid(root: Path, grid: dict[str, Any]) -> None:
    """Save a grid's ``grid.json``: its cells, the command and what made it."""
    write_whole(root / GRID_FILE, json.dumps(grid, indent=2) + "\n")


def read_grid(root: Path) -> dict[str, Any]:
    """A grid's grid.json; ``RunConfigError`` (one line) if it is not one."""
    path = root / GRID_FILE
    try:
        info = json.loads(path.read_text())
        if not isinstance(info, dict) or not all(isinstance(name, str) for name in info["cells"]):
            raise TypeError("no list of cell names")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, KeyError, TypeError) as exc:
        raise RunConfigError(f"{path} cannot be read as a grid: {getattr(exc, 'msg', None) or exc}") from None
    return info
