"""``plsim cards`` as a library call: the base and one cell per card kind, played as a grid on
common seeds, then card_effects.csv, its forest plot and the page.

    >>> from plsim.cards import run_cards
    >>> result = run_cards("standard-4p", games=400, change="remove", options=RunOptions(seed=1, out="reports/cards"))
    >>> result.tables["card_effects"]

Every cell is an ordinary run folder ``DIR/cells/<name>/`` (``base``, ``deck.<kind>=<count>``), all
on the same game seeds and seat rotations (``plsim.runner.run_cells``), so a kind's effect is
measured on common random numbers. grid.json keeps the plan, so ``finish_cards`` rebuilds every
file from the folders and ``resume_cards`` plays what an interrupted run lacks.

With ``until_ci`` the cells play in blocks of ``block`` games from game 0: after each block a kind
whose paired win-rate effects all have a 95% half-width of at most ``until_ci`` stops
("precision"), the others and the base play the next block, up to ``games`` ("games"). The
base always holds as many games as the longest kind. Whether a kind stops depends only on its
games, so a resumed run stops each kind where an uninterrupted one would.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.cards.page import PLOT_FILE, card_sections
from plsim.cards.plan import BASE, CardsError, KindChange, plan_cards
from plsim.cards.plot import plot_card_effects
from plsim.cards.result import CardsResult, Stop
from plsim.cards.tables import card_effects
from plsim.html import write_html
from plsim.runfolder import CELLS_DIR, GRID_FILE, RunConfigError, read_grid, resolve_out, scenario_reference, write_grid
from plsim.runner import (
    DEFAULT_GAMES, Cell, RunOptions, RunStopped, check_until_ci, command_line, grow_cells, option_arguments, run_cells,
)
from plsim.report import rebuild_report
from plsim.runs import resume_run
from plsim.scenario import Scenario
from plsim.stats import paired_health_differences
from plsim.stopping import STOP
from plsim.sweep import Axis, CellFrames, read_cell, sweep_tables, write_tables

CARDS_KIND = "cards"
BLOCK = 100  # games between two looks at the kinds' precision
EFFECTS_FILE = "card_effects.csv"
HTML_FILE = "report.html"
AXES = (Axis("kind", ()), Axis("count", ()))  # the columns that name a cell in the sweep's tables


def run_cards(
    scenario: str | Path | Scenario | None,
    games: int = DEFAULT_GAMES,
    change: str | int = "remove",
    kinds: str | Sequence[str] | None = None,
    players: str | Sequence[str] | None = None,
    options: RunOptions | None = None,
    until_ci: float | None = None,
    block: int = BLOCK,
) -> CardsResult:
    """Play the base and every kind's cell on common seeds and write the files (module docstring).

    Raises ``CardsError`` or the runner's input errors before any game, or ``RunStopped`` after
    writing the files for the games that finished.
    """
    plan = plan_cards(scenario, change, kinds, players)
    if until_ci is not None:
        check_until_ci(until_ci)
    if block < 1:
        raise CardsError(f"a block must hold at least 1 game, got {block}")
    options = options or RunOptions()
    options = replace(options, out=resolve_out(options.out, "-cards"))
    if options.command is None:
        words = ["plsim", "cards", scenario_reference(plan.base, Path(options.out)), "--games", str(games),
                 "--change", str(plan.change), "--kinds", ",".join(c.kind for c in plan.changes),
                 "--players", ",".join(plan.lineup)]
        words += ["--until-ci", f"{until_ci:g}"] if until_ci is not None else []
        options = replace(options, command=command_line(words + option_arguments(options)))
    first = games if until_ci is None else min(games, block)
    cells = [Cell(plan.base, (plan.lineup,), first, name=BASE, info={CARDS_KIND: {"kind": BASE}})]
    cells += [Cell(plan.scenario_of(c), (plan.lineup,), first, name=c.cell,
                   info={CARDS_KIND: {"kind": c.kind, "count": c.after, "base_count": c.before}})
              for c in plan.changes]
    info = {"kind": CARDS_KIND, "scenario": plan.base.name, "change": plan.change, "games_per_cell": games,
            "kinds": [{"kind": c.kind, "before": c.before, "after": c.after} for c in plan.changes],
            "notes": list(plan.notes), "until_ci": None if until_ci is None else {"target": until_ci, "block": block}}
    root = Path(options.out)
    try:
        run_cells(cells, options, info)
        if until_ci is not None:
            play_blocks(root, how(options))
    except RunStopped:
        finish_cards(root)
        raise
    return finish_cards(root)


def resume_cards(folder: str | Path, **overrides: Any) -> CardsResult:
    """Play the games an interrupted ``plsim cards`` lacks (and, with --until-ci, the blocks it had
    still to play), then rebuild its files."""
    root = Path(folder)
    info = cards_info(root)
    if info is None:
        raise RunConfigError(f"{root} holds no card effects (no {GRID_FILE} of plsim cards)")
    try:
        resume_run(root, **overrides)
        if info.get("until_ci"):
            play_blocks(root, overrides)
    except RunStopped:
        finish_cards(root)
        raise
    return finish_cards(root)


def how(options: RunOptions) -> dict[str, Any]:
    """The options that say how games run, for the blocks after the first."""
    given = {"workers": options.workers, "executor": options.executor, "scheduler": options.scheduler,
             "connect_timeout": options.connect_timeout, "game_timeout": options.game_timeout, "on_fault": options.on_fault, "check": options.check,
             "progress": options.progress, "force_resume": options.force_resume}
    return {key: value for key, value in given.items() if value is not None}


def play_blocks(root: Path, overrides: dict[str, Any]) -> None:
    """Grow the kinds that are not yet precise, and the base with them, a block at a time. A grown
    cell's report (six figures and a page) is written once, when the blocks end or stop, not
    after every block: for the whole deck at 3,000 pairs that would be thousands of reports."""
    info = read_grid(root)
    target, block, limit = info["until_ci"]["target"], info["until_ci"]["block"], info["games_per_cell"]
    grown: set[str] = set()
    try:
        while True:
            stops = kind_stops(root, info, target, limit)
            write_grid(root, {**info, "until_ci": {**info["until_ci"], "stops": [s.to_json() for s in stops]}})
            going = [s for s in stops if s.stopped_by is None]
            if not going:
                break
            size = min(limit, max(s.games for s in going) + block)
            sizes = {BASE: max(size, games_of(root, BASE)), **{s.cell: size for s in going}}
            grown |= set(sizes)
            grow_cells(root, sizes, report=False, **overrides)
    except BaseException:
        write_reports(root, grown, stopping=True)
        raise
    write_reports(root, grown)


def write_reports(root: Path, cells: set[str], stopping: bool = False) -> None:
    """Each cell's report, from its folder's frames. ``stopping``: the blocks were stopped; a cell
    whose folder cannot be reported now (a damaged or unfinished frame) keeps what it has, and
    the error that stopped the blocks is the one told (``plsim report`` on the cell says more)."""
    with STOP.counting():  # a second Ctrl-C does not cut a report short
        for cell in sorted(cells):
            try:
                rebuild_report(root / CELLS_DIR / cell)
            except (RunConfigError, OSError):
                if not stopping:
                    raise


def kind_stops(root: Path, info: dict[str, Any], target: float, limit: int) -> list[Stop]:
    """Each kind's games and what stopped it: precision, games, or nothing yet (None)."""
    base = pl.read_parquet(root / CELLS_DIR / BASE / "games.parquet")
    stops = []
    for kind in info["kinds"]:
        cell = KindChange(kind["kind"], kind["before"], kind["after"]).cell
        games = pl.read_parquet(root / CELLS_DIR / cell / "games.parquet")
        rates = paired_health_differences(base, games).filter(pl.col("metric") == "win_rate")
        half = [(r["ci_high"] - r["ci_low"]) / 2 if r["ci_low"] is not None else None
                for r in rates.iter_rows(named=True)]
        precise = bool(half) and all(h is not None and h <= target for h in half)
        stopped_by = "precision" if precise else "games" if games.height >= limit else None
        stops.append(Stop(kind["kind"], cell, games.height, stopped_by, max((h for h in half if h is not None),
                                                                            default=None)))
    return stops


def games_of(root: Path, cell: str) -> int:
    return pl.scan_parquet(root / CELLS_DIR / cell / "games.parquet").select(pl.len()).collect().item()


def cards_info(root: Path) -> dict[str, Any] | None:
    """The grid.json of ``plsim cards``, or None when ``root`` is not one."""
    if not (Path(root) / GRID_FILE).exists():
        return None
    info = read_grid(Path(root))
    return info if info.get("kind") == CARDS_KIND else None


def finish_cards(root: str | Path) -> CardsResult:
    """Rebuild card_effects.csv, card_effects.png, the sweep's per-cell tables and report.html
    from the cells' folders (a cell with no finished game is left out and named in the notes)."""
    root = Path(root)
    info = cards_info(root)
    if info is None:
        raise RunConfigError(f"{root} holds no card effects")
    notes = list(info.get("notes", []))
    changes = [KindChange(k["kind"], k["before"], k["after"]) for k in info["kinds"]]
    frames: dict[str, CellFrames] = {}
    for name, values in [(BASE, (BASE, "")), *((c.cell, (c.kind, c.after)) for c in changes)]:
        folder = root / CELLS_DIR / name
        if (folder / "games.parquet").exists():
            frames[name] = read_cell(folder, name, values)
        else:
            notes.append(f"cell {name} has no finished games yet")
    if BASE not in frames:
        raise RunConfigError(f"{root}: the base cell has no finished games to compare with")
    played = [(c, frames[c.cell]) for c in changes if c.cell in frames]
    cells = [frames[BASE], *(cell for _, cell in played)]
    tables = sweep_tables(AXES, cells, 0)
    tables["card_effects"] = card_effects(frames[BASE], played)
    files = write_tables(root, tables)
    tables["card_effects"].write_csv(root / EFFECTS_FILE)
    title = f"Card effects in {info['scenario']}: --change {info['change']}"
    files += [root / EFFECTS_FILE, plot_card_effects(tables["card_effects"], [c.kind for c, _ in played], title,
                                                     root / PLOT_FILE)]
    stops = tuple(Stop.from_json(s) for s in (info.get("until_ci") or {}).get("stops", []))
    result = CardsResult(root, info["scenario"], info["change"], tuple(c for c, _ in played), tables, tuple(files),
                         tuple(notes), stops, (info.get("until_ci") or {}).get("target"))
    files.append(write_html(root / HTML_FILE, f"plsim cards: {info['scenario']}, {len(played)} kinds",
                            {k: v for k, v in info.items() if k != "cells"}, info.get("command") or "",
                            card_sections(result, cells)))
    return replace(result, files=tuple(files))
