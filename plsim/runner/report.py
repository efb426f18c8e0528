"""The end-of-run report: balance and health tables as CSV, the figures, report.html, a summary.

``write_report`` works from frames in memory (a lazy ``rounds`` is fine and keeps memory flat:
it is only ever aggregated by polars' streaming engine, never collected); ``rebuild_report``
does the same from a run directory, which is what ``plsim report DIR`` runs, including on a
directory left with only part files by an interrupted run. Games a fault stopped are left out
of every statistic and the summary says how many.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.html import Image, Links, Section, Table, Text, write_html
from plsim.plots.cards_plot import plot_cards
from plsim.plots.report_plots import plot_length, plot_seats, plot_vp, plot_winrates, plot_wrath
from plsim.rules import Rules
from plsim.runner.lock import FolderLock
from plsim.runner.results import RunConfigError
from plsim.runner.writer import combine_parts, has_parts, scan_cards, scan_frames, set_aside_damaged, write_csv_copies
from plsim.stats import (
    dominant_strategy, end_reasons, fault_games, health_metrics, played_games, seat_strategy_summary,
    seat_summary, strategy_summary,
)
from plsim.stats.cards import card_table
from plsim.stats.health import METRICS_BY_NAME

RUN_INFO_FILE = "run.json"
HTML_FILE = "report.html"
REPLAYS_DIR = "replays"  # the replays a report links (plsim.replay.telling writes them)
REPLAYS_INDEX = "index.json"
FAULTS_FILE = "faults.csv"
TABLE_FILES = {"summary": "summary.csv", "seats": "seats.csv", "end_reasons": "end_reasons.csv",
               "health": "health.csv"}
PLOT_FILES = {"winrates": "winrates.png", "seats": "seats.png", "wrath": "wrath.png", "length": "length.png",
              "vp": "vp.png"}
CARD_FILES = {"table": "cards.csv", "plot": "cards.png"}  # written when the run recorded cards.parquet


def _empty() -> pl.DataFrame:
    return pl.DataFrame()


@dataclass(frozen=True)
class Report:
    """What a report computed and wrote, for printing or further use in a notebook.

    ``games`` counts the played games (faults left out, see ``faults``); ``seats`` is per seat,
    ``seat_strategies`` per seat and strategy (seats.csv holds both); ``dominant`` is the
    strategy the ``dominance`` metric names.
    """

    out_dir: Path
    run_info: dict[str, Any]
    games: int
    players: float
    summary: pl.DataFrame
    seats: pl.DataFrame
    end_reasons: pl.DataFrame
    files: tuple[Path, ...]
    health: pl.DataFrame = field(default_factory=_empty)
    seat_strategies: pl.DataFrame = field(default_factory=_empty)
    faults: int = 0
    dominant: str | None = None
    cards: pl.DataFrame = field(default_factory=_empty)
    damaged: tuple[str, ...] = ()  # part files set aside as unreadable (rebuild_report)


def write_run_info(out_dir: str | Path, run_info: dict[str, Any]) -> Path:
    """Save the run's settings as ``run.json``; write it at the start so partial runs keep it."""
    path = Path(out_dir) / RUN_INFO_FILE
    path.write_text(json.dumps(run_info, indent=2, sort_keys=True, default=str) + "\n")
    return path


def read_run_info(out_dir: str | Path) -> dict[str, Any]:
    """The saved ``run.json``, or an empty dict if the run never wrote one; ``RunConfigError``
    (one line) for one that is not a JSON object."""
    path = Path(out_dir) / RUN_INFO_FILE
    if not path.exists():
        return {}
    try:
        info = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunConfigError(f"{path} cannot be read: {getattr(exc, 'msg', None) or exc}") from None
    if not isinstance(info, dict):
        raise RunConfigError(f"{path} is not a run's record (a JSON object)")
    return info


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
    cards_table = card_table(cards, played) if cards is not None else _empty()
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


def write_report_html(report: Report, title: str | None = None, leading: Sequence[Section] = ()) -> Path:
    """Write the run's report.html from what the report computed; a compare or ladder run puts its
    own sections (``leading``) and title before the run's."""
    settings = {k: v for k, v in report.run_info.items() if k != "peak_memory_mib"}  # measured after the page
    return write_html(report.out_dir / HTML_FILE, title or report_title(report), settings,
                      reproduce_command(report.run_info), [*leading, *run_sections(report)])


def rebuild_report(out_dir: str | Path, csv: bool | None = None, html: bool = True) -> Report:
    """Recompute a run directory's report from its Parquet files, combining parts first.

    ``csv=None`` refreshes the data CSVs if the run asked for them (``"csv"`` in run.json) or
    they are already there. The folder is locked meanwhile: a run still writing it is refused
    (``RunConfigError``). Parts that cannot be read are set aside, not combined, and named in
    ``Report.damaged``: ``plsim run --resume`` plays their games again.
    """
    out = Path(out_dir)
    with FolderLock(out):
        run_info = read_run_info(out)
        damaged = set_aside_damaged(out)
        if has_parts(out):
            combine_parts(out)
        if not (out / "games.parquet").exists():
            raise FileNotFoundError(f"{out} holds no games.parquet and no part files: nothing to report")
        if csv is None:
            csv = bool(run_info.get("csv")) or (out / "games.csv").exists()
        games, rounds = scan_frames(out)
        report = write_report(out, games, rounds, run_info, csv=csv, html=html)
    return replace(report, damaged=tuple(damaged))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _rate_table(title: str, key: str, names: list[str], table: pl.DataFrame, fair: bool = False) -> list[str]:
    """Aligned rows of games, wins, win rate and 95% interval (and fair share if ``fair``)."""
    width = max([len(key), *map(len, names)])
    lines = [title, f"  {key:<{width}}  {'games':>9}  {'wins':>8}  {'win rate':>8}  95% CI"
             + ("            fair share" if fair else "")]
    for name, row in zip(names, table.iter_rows(named=True)):
        interval = f"[{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]"
        lines.append(
            f"  {name:<{width}}  {row['games']:>9,}  {row['wins']:>8,}  {_pct(row['win_rate']):>8}  "
            + (f"{interval:<16}  {_pct(row['fair_share']):>10}" if fair else interval)
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
        interval = f"  [{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]" if row and row["ci_low"] is not None else ""
        lines.append(f"  {reason:<{width}}  {count:>9,}  {_pct(share):>6}{interval}")
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
    fair = _pct(1 / report.players)
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


# --- report.html -------------------------------------------------------------------------------

def reproduce_command(run_info: dict[str, Any]) -> str:
    """The command that reproduces the run: as the runner recorded it, else rebuilt from run.json;
    followed by the resumes that grew it (``plsim run --resume DIR --games N``), since the first
    command alone asked for fewer games."""
    recorded = run_info.get("command")
    growths = [step.get("command") or f"plsim run --resume DIR --games {step['grown']['to']}"
               for step in run_info.get("resumed") or [] if isinstance(step, dict) and step.get("grown")]
    if recorded:
        first = recorded if isinstance(recorded, str) else shlex.join(map(str, recorded))
        return " && ".join([first, *growths])
    kind = run_info.get("kind", "run")
    scenario = run_info.get("scenario_path") or run_info.get("scenario")
    where = [scenario] if scenario else []
    seed = ["--seed", str(run_info.get("seed", 0))]
    if kind == "tournament":
        parts = ["plsim", "tournament", *where, "--players", ",".join(run_info.get("tournament_strategies", [])),
                 "--games-per-table", str(run_info.get("games_per_table", "")), *seed]
    elif kind == "compare":
        compare = run_info.get("compare", {})
        parts = ["plsim", "compare", compare.get("a", "A"), compare.get("b", "B"), *where,
                 "--field", ",".join(compare.get("field", [])), "--games", str(run_info.get("games_per_table", "")),
                 "--seating", str(run_info.get("seating", "rotate")), *seed]
    else:
        games = run_info.get("games_requested", run_info.get("games_per_table"))
        parts = ["plsim", "run", *where]
        if games is not None:
            parts += ["--games", str(games)]
        if run_info.get("strategies"):
            parts += ["--players", ",".join(run_info["strategies"])]
        parts += ["--seating", str(run_info.get("seating", "rotate")), *seed]
    return shlex.join(parts)


def report_title(report: Report) -> str:
    info = report.run_info
    kind = info.get("kind", "run")
    scenario = info.get("scenario", "")
    return f"plsim {kind}: {scenario}, {report.games:,} games".replace(": , ", ": ")


def health_display(health: pl.DataFrame) -> pl.DataFrame:
    """The health table with a plain-words label beside each metric name."""
    labels = [METRICS_BY_NAME[m].label if m in METRICS_BY_NAME else m for m in health["metric"]]
    return health.with_columns(meaning=pl.Series(labels, dtype=pl.String)).select(
        "metric", "meaning", "value", "ci_low", "ci_high", "games")


def run_sections(report: Report) -> list[Section]:
    """The sections of a run's report.html (a sweep or tune can add its own around them)."""
    out = report.out_dir
    rate_columns = ("win_rate", "ci_low", "ci_high", "fair_share")

    def image(key: str, caption: str) -> list[Image]:
        path = out / PLOT_FILES[key]
        return [Image(path, caption)] if path.exists() else []

    return [
        Section("Summary", [
            Text("Every rate has its 95% interval and the number of games it counts; the metrics are "
                 "defined in docs/metrics.md. Games a fault stopped are left out of every figure."),
            Text(format_summary(report, files=False), preformatted=True),
        ]),
        Section("Win rates", [
            Table(report.summary, "Win rate per strategy (summary.csv); mean_rounds_won: rounds of the games it won",
                  percent=rate_columns),
            *image("winrates", "Win rate per strategy with 95% Wilson intervals and the fair share"),
        ]),
        Section("Game health", [
            Table(health_display(report.health), "Game-health metrics (health.csv); shares and spreads as fractions"),
        ]),
        Section("Seats", [
            Table(report.seats, "Win rate per seat (seats.csv, strategy all)", percent=rate_columns),
            *image("seats", "Seat win rates with 95% intervals and each seat's fair share"),
            Table(report.seat_strategies, "Win rate per seat and strategy (seats.csv)", percent=rate_columns),
        ]),
        Section("Endings and length", [
            Table(report.end_reasons, "How games ended (end_reasons.csv)", percent=("share",)),
            *image("length", "Game length by end reason"),
        ]),
        Section("Wrath of God", [*image("wrath", "Wrath by round, with the share of games still running")]),
        Section("Victory points", [*image("vp", "Mean VP by round per strategy, with the share of games still running")]),
        *card_sections(report),
        *replay_sections(out),
    ]


def replay_sections(out: Path) -> list[Section]:
    """The Replays section, when replays of some of the run's games were written (``plsim run
    --replays K``, ``plsim report --replays K``)."""
    index = out / REPLAYS_DIR / REPLAYS_INDEX
    if not index.exists():
        return []
    entries = json.loads(index.read_text())
    return [Section("Replays", [
        Text("Watch a game: each page replays one game of this run step by step on the board (open it beside "
             f"this report; it needs nothing else). plsim replay {out} --game N writes any other."),
        Links([(entry["file"], f"game {entry['game']}: {'; '.join(entry['reasons'])}", entry["outcome"])
               for entry in entries]),
    ])]


def card_sections(report: Report) -> list[Section]:
    """The Cards section, when the run recorded what happened to its cards."""
    if report.cards.is_empty():
        return []
    shown = report.cards.select(
        "card", "category", "games_drawn", "games_used", "used_seat_games", "used_win_rate",
        "held_not_used_seat_games", "held_not_used_win_rate", "never_held_seat_games", "never_held_win_rate",
        "difference", "difference_low", "difference_high").sort("difference", descending=True, nulls_last=True)
    return [Section("Cards", [
        Text("Win rates of the seats that put a card to use (played it, attached it; for an event: drew it), "
             "that held it and never used it, and that never held it, with 95% intervals; difference = used minus "
             "never held (Newcombe interval). These are associations, not causes: a seat that is winning can "
             "afford more, and a seat that draws more cards plays more. See docs/metrics.md."),
        Image(report.out_dir / CARD_FILES["plot"], "The card kinds with the largest differences"),
        Table(shown, "Per card kind (cards.csv has every count and interval)",
              percent=("used_win_rate", "held_not_used_win_rate", "never_held_win_rate", "difference",
                       "difference_low", "difference_high")),
    ])]
