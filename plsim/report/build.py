"""Building a run's report: the balance and health tables as CSV, the figures and report.html.

``write_report`` works from frames in memory (a lazy ``rounds`` is fine and keeps memory flat:
it is only ever aggregated by polars' streaming engine, never collected); ``rebuild_report``
does the same from a run directory, which is what ``plsim report DIR`` runs, including on a
directory left with only part files by an interrupted run. Games a fault stopped are left out
of every statistic and the summary says how many.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import polars as pl

from plsim.plots import plot_cards, plot_length, plot_seats, plot_vp, plot_winrates, plot_wrath
from plsim.report.model import Report
from plsim.report.page import write_report_html
from plsim.rules import Rules
from plsim.runfolder import (
    CARD_FILES, PLOT_FILES, TABLE_FILES, FolderLock, check_frames, combine_parts, has_parts, read_run_info,
    refuse_damage, scan_cards, scan_frames, set_aside, write_csv_copies, write_run_info,
)
from plsim.stats import (
    card_table, dominant_strategy, end_reasons, fault_games, health_metrics, played_games, seat_strategy_summary,
    seat_summary, strategy_summary,
)


def wrath_threshold(run_info: dict[str, Any]) -> float:
    """The Wrath threshold the run played with: explicit key, saved rules, else the rulebook's."""
    if "wrath_threshold" in run_info:
        return run_info["wrath_threshold"]
    saved = run_info.get("rules", {}).get("wrath", {}).get("threshold")
    return Rules().wrath.threshold if saved is None else saved


def effective_players(games: pl.DataFrame | pl.LazyFrame) -> float:
    """The player count whose fair share 1/n equals the run's mean fair share per game.

    At one player count it is exactly that count (a float mean of 1/3 would give 3.0000000000000036,
    and the summary would wrongly speak of mixed player counts); at mixed counts, 1/mean(1/n).
    """
    counts = (games.lazy().group_by("players").agg(n=pl.len()).sort("players")
              .collect(engine="streaming"))
    if counts.height == 0:
        return 1.0
    if counts.height == 1:
        return float(counts["players"][0])
    return float(counts["n"].sum() / (counts["n"] / counts["players"].cast(pl.Float64)).sum())


def played_count(games: pl.DataFrame | pl.LazyFrame) -> int:
    """How many rows the (played) games frame has, counted without collecting it."""
    return int(games.lazy().select(pl.len()).collect().item())


def recorded_faults(games: pl.DataFrame | pl.LazyFrame, run_info: dict[str, Any]) -> int:
    """Games a fault stopped: their rows in the games frame, else what run.json counted."""
    in_frame = fault_games(games)
    noted = run_info.get("faults")
    if in_frame or noted is None:
        return in_frame
    return noted if isinstance(noted, int) else len(noted)


def write_report(
    out_dir: str | Path,
    games: pl.DataFrame | pl.LazyFrame,
    rounds: pl.DataFrame | pl.LazyFrame,
    run_info: dict[str, Any],
    csv: bool = False,
    html: bool = True,
) -> Report:
    """Write run.json, the balance and health CSVs, the PNGs and report.html (and the data CSVs
    if ``csv``). Neither frame is collected whole: every statistic aggregates them (lazy scans of
    the run's Parquet files keep the memory flat however many games there are)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    played = played_games(games)
    players = effective_players(played)
    seats = seat_summary(played)
    seat_strategies = seat_strategy_summary(played)
    tables = {
        "summary": strategy_summary(played, rounds),
        "seats": pl.concat([seats, seat_strategies]),
        "end_reasons": end_reasons(played),
        "health": health_metrics(played),
    }
    files = [write_run_info(out, run_info)]
    for key, name in TABLE_FILES.items():
        tables[key].write_csv(out / name)
        files.append(out / name)
    files += [
        plot_winrates(tables["summary"], players, out / PLOT_FILES["winrates"]),
        plot_seats(tables["seats"], out / PLOT_FILES["seats"]),
        plot_wrath(rounds, played, wrath_threshold(run_info), out / PLOT_FILES["wrath"]),
        plot_length(played, out / PLOT_FILES["length"]),
        plot_vp(rounds, played, out / PLOT_FILES["vp"]),
    ]
    cards = scan_cards(out)
    cards_table = card_table(cards, played) if cards is not None else pl.DataFrame()
    if cards is not None:
        cards_table.write_csv(out / CARD_FILES["table"])
        files += [out / CARD_FILES["table"], plot_cards(cards_table, out / CARD_FILES["plot"])]
    if csv:
        files += write_csv_copies(out, games, rounds)
    report = Report(out, dict(run_info), played_count(played), players, tables["summary"], seats,
                    tables["end_reasons"], tuple(files), tables["health"], seat_strategies,
                    recorded_faults(games, run_info), dominant_strategy(played), cards_table)
    if html:
        report = replace(report, files=(*report.files, write_report_html(report)))
    return report


def rebuild_report(out_dir: str | Path, csv: bool | None = None, html: bool = True) -> Report:
    """Recompute a run directory's report from its Parquet files, combining parts first.

    ``csv=None`` refreshes the data CSVs if the run asked for them (``"csv"`` in run.json) or
    they are already there. The folder is locked meanwhile: a run still writing it is refused
    (``RunConfigError``). Every frame is checked first (``plsim.runfolder.damage``): combined
    files that are damaged, missing beside the others or whose games' rows do not add up are
    refused (``RunConfigError``, one line naming the file; nothing is moved), and parts that cannot
    be read are set aside, not combined, and named in ``Report.damaged``: ``plsim run --resume``
    plays their games again.
    """
    out = Path(out_dir)
    with FolderLock(out):
        run_info = read_run_info(out)
        frames = check_frames(out, run_info)
        refuse_damage(frames)
        _, damaged = set_aside(frames)
        if has_parts(out):
            combine_parts(out)
        if not (out / "games.parquet").exists():
            raise FileNotFoundError(f"{out} holds no games.parquet and no part files: nothing to report")
        if csv is None:
            csv = bool(run_info.get("csv")) or (out / "games.csv").exists()
        games, rounds = scan_frames(out)
        report = write_report(out, games, rounds, run_info, csv=csv, html=html)
    return replace(report, damaged=tuple(damaged))
