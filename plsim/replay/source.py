"""Which game a run folder played at an index: its scenario, seats and seed, from run.json alone.

Every kind of run folder works the same way — a run, a tournament, a comparison, a sweep's cell
(``cells/<name>/``), a tune's trial (``trials/trial-NNNN/``) or confirmation — because each
holds the plan of its games in its run.json (``plsim.runner.cell``). A folder above run folders
(a sweep's or a tune's root) is answered with the run folders it holds.
"""

from __future__ import annotations

import json
from pathlib import Path

from plsim.replay.build import GameSpec, ReplayError
from plsim.runfolder import FAULT_KINDS, RUN_INFO_FILE, RunConfigError, read_faults, read_run_info
from plsim.runner import cell_from_info, command_line

SHOWN_FOLDERS = 4


def run_folders_below(root: Path) -> list[Path]:
    """The run folders one or two levels below ``root`` (a sweep's cells, a tune's trials)."""
    found = [p.parent for pattern in ("*/" + RUN_INFO_FILE, "*/*/" + RUN_INFO_FILE) for p in root.glob(pattern)]
    return sorted(found)


def not_a_run(root: Path, game: int) -> ReplayError:
    below = run_folders_below(root)
    if not below:
        return ReplayError(f"{root} is not a run folder (no {RUN_INFO_FILE}): give the --out folder of a "
                           "plsim run, tournament, compare, or one cell of a sweep or trial of a tune")
    shown = ", ".join(str(p) for p in below[:SHOWN_FOLDERS]) + (", ..." if len(below) > SHOWN_FOLDERS else "")
    return ReplayError(f"{root} holds {len(below)} run folders, not one run: replay a game of one of them, "
                       f"e.g. plsim replay {below[0]} --game {game} ({shown})")


def game_spec(folder: str | Path, game: int) -> GameSpec:
    """The game ``game`` of the run folder, as the run played it (ReplayError if it cannot be)."""
    root = Path(folder)
    if not root.is_dir():
        raise ReplayError(f"{root} is not a folder")
    if not (root / RUN_INFO_FILE).exists():
        raise not_a_run(root, game)
    try:
        info = read_run_info(root)
        cell = cell_from_info(info, root)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{root / RUN_INFO_FILE} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except (RunConfigError, ValueError, KeyError, TypeError) as exc:
        raise ReplayError(f"{root / RUN_INFO_FILE} does not describe a run's plan: {exc}") from None
    schedule = cell.schedule(info["seating"], info["seed"])
    if not 0 <= game < schedule.games:
        raise ReplayError(f"there is no game {game} in {root}: its games are 0 to {schedule.games - 1}")
    seed, seats = schedule.game(game)
    fault = next((row for row in read_faults(root) if row.get("game") == str(game)), None)
    if fault is not None and fault.get("kind") == "worker":
        raise ReplayError(f"game {game} of {root} killed its worker ({FAULT_KINDS['worker']}: {fault.get('error')}); "
                          "replaying it here would kill this process too")
    timeout = info.get("game_timeout") if fault is not None and fault.get("kind") == "timeout" else None
    kind = info.get("kind", "run")
    return GameSpec(
        cell.scenario, tuple(seats), seed,
        title=f"Game {game} of the {kind} in {root} ({cell.scenario.name}, seed {seed})",
        refs=dict(cell.refs), check=bool(info.get("check")), command=command_line(["plsim", "replay", str(root), "--game", str(game)]),
        timeout=timeout,
    )
