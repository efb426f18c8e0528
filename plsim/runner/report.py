"""The end-of-run report: balance tables as CSV, the four figures, and a text summary.

``write_report`` works from frames in memory (a lazy ``rounds`` is fine and keeps memory flat);
``rebuild_report`` does the same from a run directory, which is what ``plsim report DIR`` runs,
including on a directory left with only part files by an interrupted run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from plsim.plots.report_plots import plot_length, plot_vp, plot_winrates, plot_wrath
from plsim.rules import Rules
from plsim.runner.writer import combine_parts, has_parts, scan_frames, write_csv_copies
from plsim.stats import end_reasons, seat_summary, strategy_summary

RUN_INFO_FILE = "run.json"
TABLE_FILES = {"summary": "summary.csv", "seats": "seats.csv", "end_reasons": "end_reasons.csv"}
PLOT_FILES = {"winrates": "winrates.png", "wrath": "wrath.png", "length": "length.png", "vp": "vp.png"}


@dataclass(frozen=True)
class Report:
    """What a report computed and wrote, for printing or further use in a notebook."""

    out_dir: Path
    run_info: dict[str, Any]
    games: int
    players: float
    summary: pl.DataFrame
    seats: pl.DataFrame
    end_reasons: pl.DataFrame
    files: tuple[Path, ...]


def write_run_info(out_dir: str | Path, run_info: dict[str, Any]) -> Path:
    """Save the run's settings as ``run.json``; write it at the start so partial runs keep it."""
    path = Path(out_dir) / RUN_INFO_FILE
    path.write_text(json.dumps(run_info, indent=2, sort_keys=True, default=str) + "\n")
    return path


def read_run_info(out_dir: str | Path) -> dict[str, Any]:
    """The saved ``run.json``, or an empty dict if the run never wrote one."""
    path = Path(out_dir) / RUN_INFO_FILE
    return json.loads(path.read_text()) if path.exists() else {}


def wrath_threshold(run_info: dict[str, Any]) -> float:
    """The Wrath threshold the run played with: explicit key, saved rules, else the rulebook's."""
    if "wrath_threshold" in run_info:
        return run_info["wrath_threshold"]
    saved = run_info.get("rules", {}).get("wrath", {}).get("threshold")
    return Rules().wrath.threshold if saved is None else saved


def effective_players(games: pl.DataFrame) -> float:
    """The player count whose fair share 1/n equals the run's mean fair share per seat-game."""
    if games.height == 0:
        return 1.0
    return 1 / float((1 / games["players"].cast(pl.Float64)).mean())


def write_report(
    out_dir: str | Path,
    games: pl.DataFrame | pl.LazyFrame,
    rounds: pl.DataFrame | pl.LazyFrame,
    run_info: dict[str, Any],
    csv: bool = False,
) -> Report:
    """Write run.json, the balance CSVs and the four PNGs (and data CSVs if ``csv``)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    games = games.lazy().collect()
    players = effective_players(games)
    tables = {
        "summary": strategy_summary(games, rounds),
        "seats": seat_summary(games),
        "end_reasons": end_reasons(games),
    }
    files = [write_run_info(out, run_info)]
    for key, name in TABLE_FILES.items():
        tables[key].write_csv(out / name)
        files.append(out / name)
    files += [
        plot_winrates(tables["summary"], players, out / PLOT_FILES["winrates"]),
        plot_wrath(rounds, games, wrath_threshold(run_info), out / PLOT_FILES["wrath"]),
        plot_length(games, out / PLOT_FILES["length"]),
        plot_vp(rounds, out / PLOT_FILES["vp"]),
    ]
    if csv:
        files += write_csv_copies(out, games, rounds)
    return Report(out, dict(run_info), games.height, players, tables["summary"],
                  tables["seats"], tables["end_reasons"], tuple(files))


def rebuild_report(out_dir: str | Path, csv: bool | None = None) -> Report:
    """Recompute a run directory's report from its Parquet files, combining parts first.

    ``csv=None`` refreshes the data CSVs if the run asked for them (``"csv"`` in run.json) or
    they are already there.
    """
    out = Path(out_dir)
    run_info = read_run_info(out)
    if has_parts(out):
        combine_parts(out)
    if not (out / "games.parquet").exists():
        raise FileNotFoundError(f"{out} holds no games.parquet and no part files: nothing to report")
    if csv is None:
        csv = bool(run_info.get("csv")) or (out / "games.csv").exists()
    games, rounds = scan_frames(out)
    return write_report(out, games.collect(), rounds, run_info, csv=csv)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _rate_table(title: str, key: str, names: list[str], table: pl.DataFrame) -> list[str]:
    """Aligned rows of games, wins, win rate and 95% interval."""
    width = max([len(key), *map(len, names)])
    lines = [title, f"  {key:<{width}}  {'games':>9}  {'wins':>8}  {'win rate':>8}  95% CI"]
    for name, row in zip(names, table.iter_rows(named=True)):
        lines.append(
            f"  {name:<{width}}  {row['games']:>9,}  {row['wins']:>8,}  {_pct(row['win_rate']):>8}"
            f"  [{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]"
        )
    return lines


def format_summary(report: Report) -> str:
    """A readable text summary: strategies, end reasons, seat balance, where the files are."""
    info = report.run_info
    head = [f"{report.games:,} games"]
    for key, label in (("scenario", "scenario"), ("seating", "seating"), ("seed", "run seed")):
        if key in info:
            head.append(f"{label} {info[key]}")
    lines = [", ".join(head), ""]
    lines += _rate_table("Win rate per strategy (seat-games; draws count as not won)", "strategy",
                         report.summary["strategy"].to_list(), report.summary)
    fair = _pct(1 / report.players)
    if report.games == 0:
        lines.append("")
    elif float(report.players).is_integer():
        lines += [f"  fair share at {report.players:g} players: {fair}", ""]
    else:
        lines += [f"  fair share, mean over games of mixed player counts: {fair}", ""]
    lines.append("How games ended")
    width = max(len(r) for r in report.end_reasons["end_reason"])
    for reason, count, share in report.end_reasons.iter_rows():
        lines.append(f"  {reason:<{width}}  {count:>9,}  {_pct(share):>6}")
    lines.append("")
    seat_names = [f"seat {s}" for s in report.seats["seat"]]
    lines += _rate_table("Seat balance", "seat", seat_names, report.seats)
    lines += ["", f"Files in {report.out_dir}:"]
    data = [n for n in ("games.parquet", "rounds.parquet", "games.csv", "rounds.csv")
            if (report.out_dir / n).exists()]
    if data:
        lines.append(f"  data:   {', '.join(data)}")
    lines.append(f"  tables: {', '.join(TABLE_FILES.values())}, {RUN_INFO_FILE}")
    lines.append(f"  plots:  {', '.join(PLOT_FILES.values())}")
    return "\n".join(lines)
