"""A ladder: tiers of graded skill, each alone against three of every tier (or of a fixed
field), on shared seeds.

A ladder is one cell (``plsim.runner.cells``) of k x m tables on common seeds: table (row,
column) seats one player of the row tier and the column's strategy in every other seat, the
columns being the k tiers themselves or the m strategies of ``field``; its n-th game has the same
seed at every table, and the seats rotate with n, so the focal seat is the same at every table too
(as ``plsim compare`` pairs its games). The mirror tables (a column that is the row's tier) give
the seat balance within each tier. A fixed field costs k x m tables instead of k x k, so tiers
that are dear to play are compared without playing four of them at one table. On top of the run's
report it writes the ladder's files and puts the ladder first in report.html (docs/ladder.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.html import Frame, Image, Section, Text
from plsim.plots import plot_ladder
from plsim.report import write_report_html
from plsim.runfolder import FAULT, RunConfigError
from plsim.runner import Cell, RunOptions, RunResult, option_arguments, seat_assignment
from plsim.runs.batch import options_of, play_cell, split_entries
from plsim.runs.result import KindResult
from plsim.scenario import Scenario, as_scenario
from plsim.stats import (
    FOCAL_SCHEMA, adjacent_tiers, cochran_armitage, health_metrics, matchup_matrix, seat_summary, skill_gap,
    skill_gap_estimate, tier_health, tier_health_differences,
)
from plsim.strategy.params import StrategyParamError
from plsim.strategy.registry import StrategyLoadError, resolve
from plsim.text import percent

LADDER_FILES = {"matrix": "ladder_matrix.csv", "adjacent": "ladder_adjacent.csv", "seats": "ladder_seats.csv",
                "health": "ladder_health.csv", "health_paired": "ladder_health_paired.csv", "json": "ladder.json",
                "plot": "ladder.png"}
# the health figures the printed summary shows per tier (the CSV files hold them all)
SUMMARY_HEALTH = ("seat_spread", "seat_chi2_p", "rounds_mean", "victory_share", "invader_release_share",
                  "lead_changes_mean")


@dataclass(frozen=True)
class LadderResult(KindResult):
    tiers: list[str]
    matrix: pl.DataFrame
    trend: dict[str, Any]
    adjacent: pl.DataFrame
    seats: pl.DataFrame  # per tier: seat win rates of its mirror table, the seat spread, chi-square p
    skill_gap: dict[str, Any]
    health: pl.DataFrame  # per tier: every health figure of its mirror table
    health_paired: pl.DataFrame  # each tier's health figures minus the tier's below, paired, adjusted

    def describe(self) -> str:
        """The ladder as ``plsim ladder`` prints it: its size, its figures and its files."""
        info = self.run.run_info
        k, m = len(self.tiers), len(ladder_columns(info))
        field = "" if "field" not in info["ladder"] else f" against the field {', '.join(ladder_columns(info))}"
        return "\n".join([
            f"Ladder: {k} tiers{field}, {k * m} tables, {info.get('games_per_table')} games each; "
            f"scenario {info.get('scenario')}, run seed {info.get('seed')}", "",
            ladder_text(self), "",
            f"Files in {self.run.out_dir}: {', '.join(LADDER_FILES.values())}, report.html and the run's own",
        ])


def parse_tiers(tiers: str | Sequence[str]) -> list[str]:
    """The tiers, lowest first; each resolved and built once, so a bad one is refused before any game."""
    return _entries(tiers, "--tiers", 2, "at least two tiers, lowest first")


def parse_field(field: str | Sequence[str] | None) -> list[str] | None:
    """The fixed field's strategies (None: the tiers themselves), each resolved and built once."""
    return None if field is None else _entries(field, "--field", 1, "at least one strategy")


def _entries(text: str | Sequence[str], option: str, least: int, needs: str) -> list[str]:
    """The strategy entries of ``option``: at least ``least``, each once, each one that makes a
    seat; anything else is refused in one line."""
    names = split_entries(text) or []
    if len(names) < least:
        raise RunConfigError(f"{option} needs {needs}; got {len(names)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RunConfigError(f"{option} names {', '.join(repeated)} more than once")
    for name in names:
        try:
            resolve(name).make(0, 0)
        except StrategyParamError as exc:
            raise StrategyLoadError(str(exc)) from None
    return names


def ladder_lineups(tiers: Sequence[str], players: int, field: Sequence[str] | None = None) -> list[tuple[str, ...]]:
    """The ladder's tables as line-ups: table (row, column) at index row * m + column (m columns:
    the field's strategies, or the tiers), one seat of the row tier and the rest the column's."""
    return [(row, *([column] * (players - 1))) for row in tiers for column in (tiers if field is None else field)]


def ladder_columns(info: dict[str, Any]) -> list[str]:
    """The strategies of a ladder's columns, from its run information: the field, or the tiers."""
    return list(info["ladder"].get("field") or info["ladder"]["tiers"])


def focal_outcomes(run: RunResult) -> pl.DataFrame:
    """One row per played game: its table's row and column, its number there, seed, focal seat, won."""
    info = run.run_info
    players, m = info["players"], len(ladder_columns(info))
    tables = len(info["ladder"]["tiers"]) * m
    played = run.games.filter(pl.col("end_reason") != FAULT)
    slots = tuple(str(i) for i in range(players))
    rows = []
    for game, seed, winner, reason in played.select("game", "seed", "winner_seat", "end_reason").iter_rows():
        table, local = game % tables, game // tables
        seat = seat_assignment(slots, players, local, info["seating"], info["seed"]).index("0")
        won = winner is not None and reason != "draw" and winner == seat
        rows.append((game, table // m, table % m, local, seed, seat, won))
    return pl.DataFrame(rows, schema=FOCAL_SCHEMA, orient="row")


def mirror_games(run: RunResult, tiers: Sequence[str]) -> dict[str, pl.DataFrame]:
    """Per tier that is also a column, the played games of its mirror table (every seat that tier)."""
    played = run.games.filter(pl.col("end_reason") != FAULT)
    columns = ladder_columns(run.run_info)
    m = len(columns)
    return {tier: played.filter((pl.col("game") % (len(tiers) * m)) == i * m + columns.index(tier))
            for i, tier in enumerate(tiers) if tier in columns}


def tier_seats(mirrors: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Per tier, from its mirror table: each seat's win rate with its interval, the seat spread
    with its bootstrap interval and the chi-square p of equal seat chances (docs/metrics.md)."""
    frames = []
    for tier, mirror in mirrors.items():
        if mirror.is_empty():
            continue
        health = {r["metric"]: r for r in health_metrics(mirror).iter_rows(named=True)}
        spread, chi2 = health["seat_spread"], health["seat_chi2_p"]
        frames.append(seat_summary(mirror).drop("strategy").with_columns(
            tier=pl.lit(tier), seat_spread=pl.lit(spread["value"], pl.Float64),
            spread_ci_low=pl.lit(spread["ci_low"], pl.Float64), spread_ci_high=pl.lit(spread["ci_high"], pl.Float64),
            seat_chi2_p=pl.lit(chi2["value"], pl.Float64)))
    if not frames:
        return pl.DataFrame()
    table = pl.concat(frames, how="vertical_relaxed")
    return table.select("tier", *[c for c in table.columns if c != "tier"])


def write_ladder_files(run: RunResult) -> LadderResult:
    """The ladder's own files and report.html, from the run's finished games."""
    info = run.run_info
    tiers, columns = list(info["ladder"]["tiers"]), ladder_columns(info)
    fixed = "field" in info["ladder"]
    out = run.out_dir
    focal = focal_outcomes(run)
    matrix = matchup_matrix(focal, tiers, info["players"], columns)
    trend = cochran_armitage(matrix, fixed_field=fixed)
    adjacent = adjacent_tiers(focal, tiers, len(columns))
    mirrors = mirror_games(run, tiers)
    seats = tier_seats(mirrors)
    health = tier_health(mirrors)
    health_paired = tier_health_differences(mirrors, tiers)
    widest = skill_gap_estimate(run.games)
    gap_row: dict[str, Any] = {"skill_gap": widest.value, "ci_low": widest.ci_low, "ci_high": widest.ci_high,
                               "games": widest.games, "top": tiers[-1], "bottom": tiers[0]}
    if tiers[0] in columns and tiers[-1] in columns:  # both tables of the top against the bottom were played
        gap = skill_gap(focal, tiers, columns)
        gap_row |= {"pairs": gap.pairs, "top_rate": gap.a_rate, "bottom_rate": gap.b_rate,
                    "top_minus_bottom": gap.difference, "top_minus_bottom_ci": list(gap.difference_ci),
                    "top_minus_bottom_p": gap.p_value}
    matrix.write_csv(out / LADDER_FILES["matrix"])
    adjacent.write_csv(out / LADDER_FILES["adjacent"])
    seats.write_csv(out / LADDER_FILES["seats"])
    health.write_csv(out / LADDER_FILES["health"])
    health_paired.write_csv(out / LADDER_FILES["health_paired"])
    (out / LADDER_FILES["json"]).write_text(json.dumps(
        {"tiers": tiers, **({"field": columns} if fixed else {}), "trend": trend, "skill_gap": gap_row,
         "not_separated": [f"{r['lower']} < {r['upper']}" for r in adjacent.iter_rows(named=True)
                           if not r["separated"]]},
        indent=2) + "\n")
    plot_ladder(matrix, tiers, trend, out / LADDER_FILES["plot"], columns)
    result = LadderResult(run, tiers, matrix, trend, adjacent, seats, gap_row, health, health_paired)
    if run.report is not None:
        write_report_html(run.report, f"plsim ladder: {info.get('scenario', '')}, {run.report.games:,} games",
                          ladder_sections(result))
    return result


def ladder_text(result: LadderResult) -> str:
    """The ladder's printed summary: matrix, trend, adjacent tiers, skill gap, seats per tier."""
    tiers, m = result.tiers, result.matrix
    columns = ladder_columns(result.run.run_info)
    width = max(8, *map(len, tiers))
    players = result.run.run_info["players"]
    column = "column tier" if columns == tiers else "column's strategy"
    lines = [f"Matchup matrix: win rate of one seat of the row tier against {players - 1} of the {column} "
             f"(95% Wilson interval; fair share {1 / players:.0%})"]
    cell = max(18, *map(len, columns))
    lines.append(f"  {'':<{width}}  " + "  ".join(f"{t:>{cell}}" for t in columns))
    for r, tier in enumerate(tiers):
        cells = []
        for row in m.filter(pl.col("row") == r).sort("column").iter_rows(named=True):
            text = "-" if row["win_rate"] is None else (
                f"{row['win_rate']:.0%} [{row['ci_low']:.0%}, {row['ci_high']:.0%}]")
            cells.append(f"{text:>{cell}}")
        lines.append(f"  {tier:<{width}}  " + "  ".join(cells))
    counts = sorted(set(m["games"].to_list()))
    lines.append(f"  games per cell: {', '.join(map(str, counts))}")
    t = result.trend
    p = "undefined" if t["p_value"] is None else f"z = {t['z']:.2f}, one-sided p = {t['p_value']:.3g}"
    lines += ["", f"Trend (higher tiers win more): {p} ({t['games']:,} games)", f"  {t['method']}"]
    lines.append("Adjacent tiers: upper - lower, same seats and seeds (paired; Newcombe 95% interval, McNemar p and "
                 "Holm's over the pairs; separated: interval above 0 and Holm p below 0.05)")
    for row in result.adjacent.iter_rows(named=True):
        verdict = "separated" if row["separated"] else "NOT separated"
        holm = "-" if row["p_holm"] is None else f"{row['p_holm']:.3g}"
        lines.append(f"  {row['upper']} - {row['lower']}: {row['difference']:+.1%} [{row['ci_low']:+.1%}, "
                     f"{row['ci_high']:+.1%}], p = {row['p_value']:.3g} (Holm {holm}), {row['pairs']:,} pairs: "
                     f"{verdict}")
    g = result.skill_gap
    if "top_minus_bottom" in g:
        low, high = g["top_minus_bottom_ci"]
        lines.append(f"Top against bottom: {g['top']} alone vs {g['bottom']} minus {g['bottom']} alone vs {g['top']}, "
                     f"paired: {g['top_minus_bottom']:+.1%} [{low:+.1%}, {high:+.1%}], "
                     f"p = {g['top_minus_bottom_p']:.3g}, {g['pairs']:,} pairs")
        widest = "undefined" if g["skill_gap"] is None else (
            f"{g['skill_gap']:+.1%} [{percent(g['ci_low'])}, {percent(g['ci_high'])}] (bootstrap, {g['games']:,} games)")
        lines.append(f"skill_gap (the widest such edge between two tiers, docs/ladder.md): {widest}")
    else:
        lines.append(f"Top against bottom and skill_gap: not played (the field is fixed: {g['bottom']} and "
                     f"{g['top']} never sit three to a table)")
    lines.append("Seats within each tier, from its mirror table: win rate per seat; spread = highest - lowest")
    lines.append("  (bootstrap 95% interval); p of the chi-square test of equal seat chances")
    if not result.seats.is_empty():
        for tier in tiers:
            part = result.seats.filter(pl.col("tier") == tier)
            if part.is_empty():
                continue
            first = part.row(0, named=True)
            rates = ", ".join(f"seat {r['seat']} {r['win_rate']:.0%}" for r in part.iter_rows(named=True))
            spread = "-" if first["seat_spread"] is None else (
                f"{first['seat_spread']:.1%} [{percent(first['spread_ci_low'])}, {percent(first['spread_ci_high'])}]")
            chi = "-" if first["seat_chi2_p"] is None else f"{first['seat_chi2_p']:.3g}"
            lines.append(f"  {tier:<{width}}  {rates} ({first['games']:,} games); spread {spread}; p = {chi}")
    lines += ["", *health_text(result, width)]
    return "\n".join(lines)


def _is_share(metric: str) -> bool:
    return metric.endswith(("_share", "_spread"))


def _figure(metric: str, value: float | None) -> str:
    if value is None:
        return "-"
    if _is_share(metric):
        return f"{value:.1%}"
    return f"{value:.3g}" if metric.endswith("_p") else f"{value:.2f}"


def _difference(metric: str, value: float) -> str:
    """A difference in percentage points for shares, else as a number."""
    return f"{100 * value:+.1f} pp" if _is_share(metric) else f"{value:+.2f}"


def health_wide(result: LadderResult) -> pl.DataFrame:
    """The health figures with a column per tier, each "value [low, high]", for the page."""
    if result.health.is_empty():
        return result.health
    cells: dict[str, dict[str, str]] = {}
    for row in result.health.iter_rows(named=True):
        metric = row["metric"]
        text = _figure(metric, row["value"])
        if row["ci_low"] is not None and row["ci_high"] is not None:
            text += f" [{_figure(metric, row['ci_low'])}, {_figure(metric, row['ci_high'])}]"
        cells.setdefault(metric, {})[row["tier"]] = text
    return pl.DataFrame([{"metric": m, **{t: found.get(t, "-") for t in result.tiers}} for m, found in cells.items()],
                        schema={"metric": pl.String, **{t: pl.String for t in result.tiers}})


def health_text(result: LadderResult, width: int) -> list[str]:
    """Some health figures per tier (mirror tables) and where adjacent tiers differ in them."""
    if result.health.is_empty():
        return []
    lines = ["Health by tier, from each mirror table (every figure, with intervals: ladder_health.csv)"]
    cell = max(12, *map(len, SUMMARY_HEALTH))
    lines.append(f"  {'':<{width}}  " + "  ".join(f"{m:>{cell}}" for m in SUMMARY_HEALTH))
    for tier in result.tiers:
        values = dict(result.health.filter(pl.col("tier") == tier).select("metric", "value").iter_rows())
        if values:
            lines.append(f"  {tier:<{width}}  " + "  ".join(f"{_figure(m, values.get(m)):>{cell}}"
                                                              for m in SUMMARY_HEALTH))
    paired = result.health_paired
    if paired.is_empty():
        return lines
    apart = paired.filter(pl.col("adj_low").is_not_null() & ((pl.col("adj_low") > 0) | (pl.col("adj_high") < 0)))
    lines.append("Upper tier minus lower, same seeds (paired; intervals adjusted for the "
                 f"{len(result.tiers) - 1} differences of each figure: ladder_health_paired.csv):")
    if apart.is_empty():
        lines.append("  no health figure differs between adjacent tiers beyond its adjusted interval")
    for row in apart.iter_rows(named=True):
        metric = row["metric"]
        lines.append(f"  {row['upper']} - {row['lower']}: {metric} {_difference(metric, row['difference'])} "
                     f"[{_difference(metric, row['adj_low'])}, {_difference(metric, row['adj_high'])}], "
                     f"Holm p = {row['p_holm']:.3g}, {row['pairs']:,} pairs")
    return lines


def ladder_sections(result: LadderResult) -> list[Section]:
    """The ladder's sections of report.html, before the run's own."""
    out = result.run.out_dir
    plot = out / LADDER_FILES["plot"]
    return [
        Section("Ladder", [
            Text("Every tier alone in one seat against each column's strategy filling every other seat (the "
                 "tiers, or a fixed field), on the same seeds and seats at every table; the figures are defined "
                 "in docs/ladder.md."),
            Text(ladder_text(result), preformatted=True),
            *([Image(plot, "Matchup matrix: the row tier's win rate alone against the column tier, 95% interval")]
              if plot.exists() else []),
            Frame(result.matrix, "Matchup matrix (ladder_matrix.csv)",
                  percent=("win_rate", "ci_low", "ci_high", "fair_share")),
            Frame(result.adjacent, "Adjacent tiers, paired (ladder_adjacent.csv)",
                  percent=("upper_rate", "lower_rate", "difference", "ci_low", "ci_high")),
            Frame(result.seats, "Seats within each tier, from its mirror table (ladder_seats.csv)",
                  percent=("win_rate", "ci_low", "ci_high", "seat_spread", "spread_ci_low", "spread_ci_high")),
            Frame(health_wide(result), "Health by tier, from each mirror table: value [95% interval] "
                                       "(ladder_health.csv)"),
            Frame(result.health_paired, "Health, upper tier minus lower on the same seeds, adjusted "
                                        "(ladder_health_paired.csv)"),
        ]),
    ]


def run_ladder(
    tiers: str | Sequence[str],
    games: int = 100,
    scenario: str | Path | Scenario | None = None,
    options: RunOptions | None = None,
    field: str | Sequence[str] | None = None,
    **overrides: Any,
) -> LadderResult:
    """``games`` games at each of the k x k tables of ``tiers`` (lowest first), or the k x m tables
    of the tiers against the m strategies of ``field``, on common seeds.

    Writes a run folder plus ladder_matrix.csv, ladder_adjacent.csv, ladder_seats.csv, ladder.json,
    ladder.png and a report.html that opens with the ladder. On a stopped run the files cover the
    finished games and the exception is raised again.
    """
    options = options_of(options, overrides)
    options = replace(options, seating="rotate")
    scen = as_scenario(scenario)
    names = parse_tiers(tiers)
    columns = parse_field(field)
    if columns == names:  # the tiers themselves: the ordinary ladder, named one way only
        columns = None
    ladder = {"tiers": names} | ({} if columns is None else {"field": columns})
    cell = Cell(scen, tuple(ladder_lineups(names, scen.players, columns)), games, common_seeds=True, kind="ladder",
                info={"ladder": ladder})

    def words(where: str) -> list[str]:
        return ["plsim", "ladder", where, "--tiers", ",".join(names),
                *([] if columns is None else ["--field", ",".join(columns)]), "--games", str(games),
                *option_arguments(options, seating=False)]

    return play_cell(cell, options, "-ladder", words, write_ladder_files)
