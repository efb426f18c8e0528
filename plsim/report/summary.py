"""The text summary of a run, as ``plsim run`` and ``plsim report`` print it and report.html shows it."""

from __future__ import annotations

from typing import Any

import polars as pl

from plsim.report.model import Report
from plsim.runfolder import FAULTS_FILE, HTML_FILE, PLOT_FILES, RUN_INFO_FILE, TABLE_FILES
from plsim.text import percent


def _rate_table(title: str, key: str, names: list[str], table: pl.DataFrame, fair: bool = False) -> list[str]:
    """Aligned rows of games, wins, win rate and 95% interval (and fair share if ``fair``)."""
    width = max([len(key), *map(len, names)])
    lines = [title, f"  {key:<{width}}  {'games':>9}  {'wins':>8}  {'win rate':>8}  95% CI"
             + ("            fair share" if fair else "")]
    for name, row in zip(names, table.iter_rows(named=True)):
        interval = f"[{percent(row['ci_low'])}, {percent(row['ci_high'])}]"
        lines.append(
            f"  {name:<{width}}  {row['games']:>9,}  {row['wins']:>8,}  {percent(row['win_rate']):>8}  "
            + (f"{interval:<16}  {percent(row['fair_share']):>10}" if fair else interval)
        )
    return lines


def _health(report: Report) -> dict[str, dict[str, Any]]:
    return {row["metric"]: row for row in report.health.iter_rows(named=True)}


def _ci(row: dict[str, Any], fmt: str, unit: str = "") -> str:
    """``value [low, high]`` in ``fmt`` (a format spec; ``%`` shows percentages)."""
    if row["value"] is None:
        return "-"
    def show(x: float | None) -> str:
        return "?" if x is None else format(x, fmt)
    interval = f" [{show(row['ci_low'])}, {show(row['ci_high'])}]" if row["ci_low"] is not None else ""
    return f"{show(row['value'])}{unit}{interval}"


def _points(row: dict[str, Any]) -> dict[str, Any]:
    """A difference of rates in percentage points."""
    return {k: (None if row[k] is None else 100 * row[k]) if k in ("value", "ci_low", "ci_high") else row[k]
            for k in row}


def ending_lines(report: Report) -> list[str]:
    """How the played games ended: count, share and its 95% interval per end reason."""
    h = _health(report)
    lines = ["How games ended"]
    width = max(len(r) for r in report.end_reasons["end_reason"])
    for reason, count, share in report.end_reasons.iter_rows():
        row = h.get(f"{reason}_share")
        interval = f"  [{percent(row['ci_low'])}, {percent(row['ci_high'])}]" if row and row["ci_low"] is not None else ""
        lines.append(f"  {reason:<{width}}  {count:>9,}  {percent(share):>6}{interval}")
    return lines


def health_lines(report: Report) -> list[str]:
    """The compact health block of the summary (every figure with its 95% interval)."""
    h = _health(report)
    if not h or h["victory_share"]["games"] == 0:
        return []
    chi = h["seat_chi2"]
    p_value = h["seat_chi2_p"]["value"]
    if chi["value"] is None or p_value is None:
        chi_text = f"- ({chi['games']:,} won games)"
    else:
        p_text = "p < 1e-10" if p_value < 1e-10 else f"p = {p_value:.3g}"
        chi_text = f"{chi['value']:.2f}, {p_text} ({chi['games']:,} won games)"
    best = f"{report.dominant} " if report.dominant else ""
    lines = [
        "Game health (95% intervals; pp = percentage points; definitions in docs/metrics.md)",
        f"  length     mean {_ci(h['rounds_mean'], '.1f')} rounds   median {_ci(h['rounds_median'], 'g')}"
        f"   90th percentile {_ci(h['rounds_p90'], 'g')}",
        f"  seats      spread {_ci(_points(h['seat_spread']), '.1f', ' pp')}   equal-chances chi-square {chi_text}",
        f"  invaders   released in {_ci(h['invader_release_share'], '.1%')} of games   "
        f"pairs released per game {_ci(h['pairs_released_mean'], '.2f')}",
        f"  titles     first Judge, median round {_ci(h['first_judge_round_median'], 'g')}"
        f" ({h['first_judge_round_median']['games']:,} games)   first King {_ci(h['first_king_round_median'], 'g')}"
        f" ({h['first_king_round_median']['games']:,} games)",
        f"  lead       changes per game {_ci(h['lead_changes_mean'], '.2f')}   comebacks "
        f"{_ci(h['comeback_share'], '.1%')} of {h['comeback_share']['games']:,} won games"
        if h["lead_changes_mean"]["games"] else "  lead       not recorded in this run's games.parquet (an older plsim)",
        f"  dominance  {best}{_ci(_points(h['dominance']), '+.1f', ' pp')} over its fair share",
    ]
    return lines


def fault_line(report: Report) -> str | None:
    if not report.faults:
        return None
    games = "game" if report.faults == 1 else "games"
    return f"{report.faults:,} {games} stopped by a fault {'is' if report.faults == 1 else 'are'} left out ({FAULTS_FILE})"


def versions_line(report: Report) -> str | None:
    """A run resumed with --force-resume: its games mix versions of the code."""
    changed = report.run_info.get("mixed_versions")
    if not changed:
        return None
    shown = "; ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    return f"these games mix versions of the code (resumed with --force-resume after {shown} changed)"


def precision_line(report: Report) -> str | None:
    """What stopped a run played with --until-ci: the intervals' width, or the --games limit."""
    info = report.run_info
    target, stopped_by = info.get("until_ci"), info.get("stopped_by")
    if target is None or stopped_by is None:
        return None
    limit = info.get("games_requested", 0)
    if stopped_by == "precision":
        return (f"stopped by precision (--until-ci {target:g}): every strategy's 95% interval is within "
                f"±{100 * target:.1f} pp after {info.get('games', 0) + info.get('faults', 0):,} games (at most {limit:,})")
    widths = report.summary.select("strategy", half=(pl.col("ci_high") - pl.col("ci_low")) / 2).sort("half", descending=True)
    widest = f" (widest: {widths['strategy'][0]} ±{100 * widths['half'][0]:.1f} pp)" if widths.height else ""
    return f"stopped at --games {limit:,} before every strategy's 95% interval was within ±{100 * target:.1f} pp{widest}"


def fair_share_text(report: Report) -> str:
    fair = percent(1 / report.players)
    if float(report.players).is_integer():
        return f"fair share at {report.players:g} players: {fair}"
    return f"fair share, mean over games of mixed player counts: {fair}"


def format_summary(report: Report, files: bool = True) -> str:
    """A readable text summary: strategies, game health, seat balance, where the files are
    (unless not ``files``)."""
    info = report.run_info
    head = [f"{report.games:,} games"]
    for key, label in (("scenario", "scenario"), ("seating", "seating"), ("seed", "run seed")):
        if key in info:
            head.append(f"{label} {info[key]}")
    lines = [", ".join(head)]
    for note in (precision_line(report), fault_line(report), versions_line(report)):
        if note:
            lines.append(note)
    lines.append("")
    mixed = not float(report.players).is_integer()
    lines += _rate_table("Win rate per strategy (seat-games; draws count as not won)", "strategy",
                         report.summary["strategy"].to_list(), report.summary, fair=mixed)
    lines += [f"  {fair_share_text(report)}", ""] if report.games else [""]
    lines += ending_lines(report) + [""]
    health = health_lines(report)
    if health:
        lines += health + [""]
    seat_names = [f"seat {s}" for s in report.seats["seat"]]
    lines += _rate_table("Seat balance", "seat", seat_names, report.seats, fair=mixed)
    if not files:
        return "\n".join(lines)
    lines += ["", f"Files in {report.out_dir}:"]
    data = [n for n in ("games.parquet", "rounds.parquet", "cards.parquet", "games.csv", "rounds.csv", FAULTS_FILE)
            if (report.out_dir / n).exists()]
    if data:
        lines.append(f"  data:   {', '.join(data)}")
    cards = not report.cards.is_empty()
    lines.append(f"  tables: {', '.join(TABLE_FILES.values())}{', cards.csv' if cards else ''}, {RUN_INFO_FILE}")
    lines.append(f"  plots:  {', '.join(PLOT_FILES.values())}{', cards.png' if cards else ''}")
    if (report.out_dir / HTML_FILE).exists():
        lines.append(f"  report: {report.out_dir / HTML_FILE}")
    return "\n".join(lines)
