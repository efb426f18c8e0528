"""``plsim sweep`` as a library call: the grid played as one queue, then its tables, plot and page.

    >>> from plsim.sweep.run import run_sweep
    >>> result = run_sweep("standard-4p", ["wrath.threshold=7,10,13,16"], games=400,
    ...                    options=RunOptions(seed=1, out="reports/wrath"))
    >>> result.tables["sweep"]

Every cell is an ordinary run folder ``DIR/cells/<key=value,…>/`` (``plsim report`` reads any of
them) and every cell plays the same game seeds and seat rotations, so differences between cells
are measured on common random numbers and the paired effects against the baseline cell use that
pairing. ``grid.json`` at the root keeps the axes and the baseline, so ``finish_sweep`` rebuilds
the sweep's own files from the folders alone (after ``--resume`` or from ``plsim report DIR``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.html import Frame, Image, Section, Text, write_html
from plsim.runfolder import (
    CELLS_DIR, GRID_FILE, RunConfigError, read_grid, read_run_info, resolve_out, scenario_reference,
)
from plsim.runner import DEFAULT_GAMES, Cell, RunOptions, RunStopped, command_line, option_arguments, run_cells
from plsim.runs import ladder_lineups, parse_tiers, resume_run, split_entries
from plsim.scenario import Scenario, as_scenario
from plsim.sweep.axes import Axis, SweepError, check_value, parse_axes
from plsim.sweep.cells import SweepCell, baseline_index, build_cells
from plsim.sweep.plot import plot_sweep
from plsim.sweep.tables import CellFrames, read_cell, sweep_tables, write_tables

SWEEP_KIND = "sweep"
PLOT_FILE = "sweep.png"
HTML_FILE = "report.html"
EFFECT_METRICS = ("win_rate", "seat_spread", "rounds_mean", "invader_release_share", "victory_share",
                  "round_limit_share", "lead_changes_mean", "comeback_share", "dominance")


@dataclass(frozen=True)
class SweepResult:
    """What a sweep left behind: its folder, axes, cells, baseline, the cells' results and tables."""

    out_dir: Path
    axes: tuple[Axis, ...]
    cells: tuple[str, ...]
    values: tuple[tuple[Any, ...], ...]
    baseline: int
    tables: dict[str, pl.DataFrame]
    files: tuple[Path, ...]
    notes: tuple[str, ...] = ()

    @property
    def baseline_cell(self) -> str:
        return self.cells[self.baseline]


def plan_sweep(scenario: str | Path | Scenario | None, vary: Sequence[str], players: str | Sequence[str] | None,
               baseline: Sequence[str] = ()) -> tuple[Scenario, tuple[Axis, ...], list[SweepCell], int]:
    """Everything a sweep will play, checked: SweepError (one line) on any bad key or value."""
    base = as_scenario(scenario)
    axes = parse_axes(vary)
    cells = build_cells(base, axes, split_entries(players))
    return base, axes, cells, baseline_index(base, axes, baseline)


def sweep_words(base: Scenario, vary: Sequence[str], players: Sequence[str] | None, games: int,
                baseline: Sequence[str], options: RunOptions, tiers: Sequence[str] = ()) -> list[str]:
    words = ["plsim", "sweep", scenario_reference(base, Path(options.out or "."))]
    for text in vary:
        words += ["--vary", text]
    if players:
        words += ["--players", ",".join(players)]
    if tiers:
        words += ["--tiers", ",".join(tiers)]
    words += ["--games", str(games)]
    for text in baseline:
        words += ["--baseline", text]
    return words + option_arguments(options)


def run_sweep(
    scenario: str | Path | Scenario | None,
    vary: Sequence[str],
    players: str | Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    options: RunOptions | None = None,
    baseline: Sequence[str] = (),
    tiers: str | Sequence[str] | None = None,
) -> SweepResult:
    """Play every cell of the grid on common seeds and write the sweep's files (module docstring).

    Raises ``SweepError`` (bad axes), the runner's input errors, or ``RunStopped`` after writing
    the sweep's files for the games that finished.
    """
    base, axes, cells, base_cell = plan_sweep(scenario, vary, players, baseline)
    ladder = parse_tiers(tiers) if tiers else []
    options = options or RunOptions()
    options = replace(options, out=resolve_out(options.out, "-sweep"))
    entries = split_entries(players)
    if options.command is None:
        options = replace(options, command=command_line(sweep_words(base, vary, entries, games, baseline, options,
                                                                    ladder)))
    runner_cells = [Cell(c.scenario, tuple(ladder_lineups(ladder, c.scenario.players)) if ladder else (c.lineup,),
                         games, name=c.name, kind="run", common_seeds=bool(ladder),
                         info={"sweep": {"axes": [a.key for a in axes], "values": _json(c.values)}})
                    for c in cells]
    notes = [note for c in cells for note in (*c.notes, *c.scenario.notes)]
    info = {"kind": SWEEP_KIND, "axes": [{"key": a.key, "values": _json(a.values)} for a in axes],
            "baseline": cells[base_cell].name, "scenario": base.name, "games_per_cell": games,
            "notes": list(dict.fromkeys(notes)), "tiers": ladder}
    try:
        run_cells(runner_cells, options, info)
    except RunStopped:
        finish_sweep(options.out)
        raise
    return finish_sweep(options.out)


def resume_sweep(folder: str | Path, **overrides: Any) -> SweepResult:
    """Play the games a sweep's cells lack (``plsim sweep --resume DIR``), then rebuild its files."""
    root = Path(folder)
    if sweep_info(root) is None:
        raise RunConfigError(f"{root} holds no sweep (no {GRID_FILE} of a sweep)")
    try:
        resume_run(root, **overrides)
    except RunStopped:
        finish_sweep(root)
        raise
    return finish_sweep(root)


def sweep_info(root: Path) -> dict[str, Any] | None:
    """The sweep's grid.json, or None when ``root`` is not a sweep."""
    if not (Path(root) / GRID_FILE).exists():
        return None
    info = read_grid(Path(root))
    return info if info.get("kind") == SWEEP_KIND else None


def finish_sweep(root: str | Path) -> SweepResult:
    """Rebuild sweep.csv, sweep_seats.csv, sweep_health.csv, effects.csv, sweep.png and report.html
    from the cells' folders (cells with no finished game are left out and named in the notes)."""
    root = Path(root)
    info = sweep_info(root)
    if info is None:
        raise RunConfigError(f"{root} holds no sweep")
    axes = tuple(Axis(a["key"], tuple(check_value(a["key"], v) for v in a["values"])) for a in info["axes"])
    names = info["cells"]
    cells, notes = [], list(info.get("notes", []))
    for name in names:
        folder = root / CELLS_DIR / name
        run = read_run_info(folder)
        values = tuple(check_value(k, v) for k, v in zip(run.get("sweep", {}).get("axes", []),
                                                          run.get("sweep", {}).get("values", [])))
        if not (folder / "games.parquet").exists() or not values:
            notes.append(f"cell {name} has no finished games yet")
            continue
        cells.append(read_cell(folder, name, values))
    if not cells:
        raise RunConfigError(f"{root}: no cell of the sweep has finished games to report")
    present = [c.name for c in cells]
    baseline = present.index(info["baseline"]) if info["baseline"] in present else 0
    tables = sweep_tables(axes, cells, baseline, skill=bool(info.get("tiers")))
    files = write_tables(root, tables)
    players = sorted({int(p) for c in cells for p in c.games["players"].unique().to_list()})
    files.append(plot_sweep(tables["sweep"], axes, root / PLOT_FILE, players))
    result = SweepResult(root, axes, tuple(present), tuple(c.values for c in cells), baseline, tables,
                         tuple(files), tuple(notes))
    files.append(write_html(root / HTML_FILE, f"plsim sweep: {info.get('scenario', '')}, {len(cells)} cells",
                            {k: v for k, v in info.items() if k != "cells"}, info.get("command") or "",
                            sweep_sections(result, cells)))
    return replace(result, files=tuple(files))


def effects_display(effects: pl.DataFrame) -> pl.DataFrame:
    """The paired effects a reader looks at first: win rates and the main health metrics."""
    if effects.is_empty():
        return effects
    return effects.filter(pl.col("metric").is_in(EFFECT_METRICS)).select(
        "cell", "metric", "strategy", "value_a", "value_b", "difference", "ci_low", "ci_high", "pairs")


def sweep_sections(result: SweepResult, cells: Sequence[CellFrames]) -> list[Section]:
    axes_text = "; ".join(f"{a.key} = {', '.join(a.label(v) for v in a.values)}" for a in result.axes)
    text = (f"Axes: {axes_text}. {len(result.cells)} cells, every one a run folder under cells/ with its own "
            f"report.html; all play the same game seeds and seat rotations. Effects are differences against "
            f"the baseline cell {result.baseline_cell} over the seeds both played (paired), with 95% intervals; "
            f"they measure what changing the setting did in these games, with these strategies.")
    blocks: list = [Text(text)]
    blocks += [Text("Notes: " + " ".join(result.notes))] if result.notes else []
    return [
        Section("Sweep", [*blocks, Image(result.out_dir / PLOT_FILE, "Outcomes along the first axis with 95% bands")]),
        cells_section(result.tables),
        Section("Effects against the baseline", [
            Frame(effects_display(result.tables["effects"]),
                  f"Paired differences (cell minus {result.baseline_cell}) with 95% intervals (effects.csv)"),
        ]),
        seats_section(result.tables),
        folders_section(cells),
    ]


def cells_section(tables: dict[str, pl.DataFrame]) -> Section:
    """One row per cell and strategy: its win rate and main health metrics (sweep.csv)."""
    shown = tables["sweep"].select("cell", "strategy", "games", "wins", "win_rate", "ci_low", "ci_high",
                                   "seat_spread", "rounds_mean", "invader_release_share", "victory_share")
    return Section("Cells", [Frame(shown, "One row per cell and strategy (sweep.csv has every health metric)",
                                   percent=("win_rate", "ci_low", "ci_high", "seat_spread", "invader_release_share",
                                            "victory_share"))])


def seats_section(tables: dict[str, pl.DataFrame]) -> Section:
    return Section("Seats", [Frame(tables["seats"].select("cell", "seat", "games", "wins", "win_rate", "ci_low",
                                                          "ci_high", "fair_share"),
                                   "Win rate per cell and seat (sweep_seats.csv)",
                                   percent=("win_rate", "ci_low", "ci_high", "fair_share"))])


def folders_section(cells: Sequence[CellFrames]) -> Section:
    return Section("Run folders", [Text("\n".join(f"cells/{c.name}/report.html" for c in cells), preformatted=True)])


def _json(values: Sequence[Any]) -> list[Any]:
    return [list(v) if isinstance(v, tuple) else v for v in values]


__all__ = ["SweepError", "SweepResult", "cells_section", "finish_sweep", "folders_section", "plan_sweep",
           "resume_sweep", "run_sweep", "seats_section", "sweep_info"]
