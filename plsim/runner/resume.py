"""Resume a run folder (or a grid of them): play only the games it lacks.

``resume_cells`` plays them and hands back each cell's ``RunResult``; the kinds of run write
their own files on top (``plsim.runs.resume_run``).

The plan — scenario with its rules, line-ups, seed, seating, games — is rebuilt from the folder's
``run.json``, never from the current scenario files, so the resumed run's frames equal those of
a run that was never interrupted: no game twice, none missing. The games already in the folder
(its parts included) count as done; a fault recorded under ``--on-fault skip`` counts as done, one
that stopped the run (``--on-fault stop``) is played again. How the games run (workers,
executor, timeout, what a fault does) may change.

A finished (or unfinished) run may also grow: ``games_per_lineup`` larger than the plan's adds
games to every line-up. No game's seed or seating depends on how many games a line-up plays
(``Schedule.game``), so the grown run holds exactly the games of a run asked for that size at the
start: the first ones are those already played.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from plsim.board import check_playable, load_board
from plsim.rules import MAX_PLAYERS, MIN_PLAYERS, check_deck, rules_from_mapping
from plsim.runfolder import CELLS_DIR, GRID_FILE, RUN_INFO_FILE, RunConfigError, read_grid, read_run_info
from plsim.runner.cell import KINDS, Cell
from plsim.runner.cells import execute
from plsim.runner.options import RunOptions
from plsim.runner.results import RunResult
from plsim.scenario import Scenario

PLAN_KEYS = ("scenario", "players", "map", "rules", "tables", "games_per_table", "seed", "seating")


def cell_from_info(info: dict[str, Any], folder: Path) -> Cell:
    """The cell a run.json describes (its scenario rebuilt from the saved rules)."""
    missing = [key for key in PLAN_KEYS if key not in info]
    if missing:
        raise RunConfigError(f"{folder / RUN_INFO_FILE} lacks {', '.join(missing)}: cannot rebuild the run's plan")
    if info.get("kind", "run") not in KINDS:
        raise RunConfigError(f"{folder / RUN_INFO_FILE}: unknown kind of run {info.get('kind')!r}")
    lineups = tuple(tuple(lineup) for lineup in info["tables"])
    path = info.get("scenario_path")
    players = info["players"]
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RunConfigError(f"{folder / RUN_INFO_FILE} is damaged: it plans games of {players} players, and a "
                             f"game has {MIN_PLAYERS} to {MAX_PLAYERS}")
    rules = rules_from_mapping(info["rules"])
    check_deck(rules, players)  # as a scenario is checked when it loads: the saved plan can be played
    check_playable(load_board(info["map"]), players, rules)
    scenario = Scenario(
        name=info["scenario"], description=info.get("scenario_description", ""), players=players,
        map=info["map"], rules=rules,
        strategies=tuple(info.get("scenario_strategies") or lineups[0]), path=Path(path) if path else None,
    )
    return Cell(scenario, lineups, info["games_per_table"], name=info.get("cell") or "",
                common_seeds=bool(info.get("common_seeds")), kind=info.get("kind", "run"),
                refs=info.get("refs") or {}, until_ci=info.get("until_ci"))


def grown(cell: Cell, games_per_lineup: int, folder: Path) -> Cell:
    """``cell`` with ``games_per_lineup`` games in each line-up: never fewer than it plans, and not
    for an ``--until-ci`` run, whose size its precision sets."""
    if cell.until_ci is not None:
        raise RunConfigError(f"{folder} is an --until-ci run: its precision sets its size, --games cannot")
    if games_per_lineup < cell.games_per_lineup:
        raise RunConfigError(f"{folder} plans {cell.games_per_lineup:,} games per table; --games {games_per_lineup:,} "
                             "would drop some: a run grows, never shrinks")
    return replace(cell, games_per_lineup=games_per_lineup)


def options_from_info(info: dict[str, Any], folder: Path, overrides: dict[str, Any]) -> RunOptions:
    """The saved options, with ``overrides`` (how the games run) on top."""
    saved = RunOptions(
        seed=info["seed"], seating=info["seating"], workers=info.get("workers"),
        executor=info.get("executor") if info.get("executor") in ("process", "dask") else "process",
        scheduler=info.get("scheduler"), out=folder, csv=bool(info.get("csv")),
        game_timeout=info.get("game_timeout") or RunOptions.game_timeout,
        connect_timeout=info.get("connect_timeout") or RunOptions.connect_timeout,
        on_fault=info.get("on_fault", "stop"), check=bool(info.get("check")), command=info.get("command"),
    )
    if overrides.get("scheduler") or overrides.get("executor") == "process":
        saved = replace(saved, scheduler=None, executor="process")
    return replace(saved, **overrides)


def resume_cells(folder: str | Path, games_per_lineup: int | None = None, **overrides: Any) -> list[RunResult]:
    """Play the games ``folder`` lacks; one ``RunResult`` per cell. ``games_per_lineup``, if given,
    grows a one-cell run to that many games in each line-up (``grown``). ``overrides`` replace
    options that say how the games run (``workers``, ``executor``, ``scheduler``, ``connect_timeout``, ``progress``,
    ``game_timeout``, ``on_fault``, ``check``, ``csv``); every option not overridden is the one
    the run was started with (run.json), and ``force_resume`` lets it go on with other
    code than played the folder's games (``plsim.runfolder.provenance``)."""
    root = Path(folder)
    placed, options, grid = saved_plan(root, overrides)
    if games_per_lineup is not None:
        if grid is not None:
            raise RunConfigError(f"{root} is a grid of runs: only a single run, tournament, comparison or ladder "
                                 "folder grows with --games")
        placed = [(grown(placed[0][0], games_per_lineup, root), root)]
    return execute(placed, options, resume=True, grid=grid)


def grow_cells(folder: str | Path, sizes: dict[str, int], report: bool = True, **overrides: Any) -> list[RunResult]:
    """Grow the named cells of a grid to ``sizes[name]`` games per line-up and play what they lack;
    the other cells are left as they are. What ``plsim cards --until-ci`` does between its blocks:
    a grown cell holds exactly the first games of a run asked for that size (module docstring).
    ``report=False``: the grown cells' reports are left for the caller to write (``execute``)."""
    root = Path(folder)
    placed, options, grid = saved_plan(root, overrides)
    if grid is None:
        raise RunConfigError(f"{root} is not a grid of runs")
    unknown = sorted(set(sizes) - {out.name for _, out in placed})
    if unknown:
        raise RunConfigError(f"{root} has no cell {', '.join(unknown)}")
    placed = [(grown(cell, sizes[out.name], out), out) for cell, out in placed if out.name in sizes]
    return execute(placed, options, resume=True, grid=grid, report=report)


def saved_plan(root: Path, overrides: dict[str, Any]) -> tuple[list[tuple[Cell, Path]], RunOptions,
                                                               tuple[Path, dict[str, Any]] | None]:
    """The cells and options a folder's run.json files describe, and its grid.json if it is a grid."""
    if not root.is_dir():
        raise RunConfigError(f"{root} is not a folder: nothing to resume")
    grid = None
    if (root / GRID_FILE).exists():
        grid_info = read_grid(root)
        folders = [root / CELLS_DIR / name for name in grid_info["cells"]]
        grid = (root, grid_info)
    else:
        folders = [root]
    infos = [read_run_info(f) for f in folders]
    for f, info in zip(folders, infos):
        if not info:
            raise RunConfigError(f"{f} holds no {RUN_INFO_FILE}: nothing to resume")
    try:
        placed = [(cell_from_info(info, f), f) for info, f in zip(infos, folders)]
        options = options_from_info(infos[0], root, overrides)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, RunConfigError):
            raise
        raise RunConfigError(f"{root}: its {RUN_INFO_FILE} does not describe a run plsim can rebuild "
                             f"({type(exc).__name__}: {exc})") from None
    return placed, options, grid
