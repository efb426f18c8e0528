"""A run's report.html: the summary, every table and figure, the replays, and the command that reproduces it."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.html import Frame, Image, Links, Section, Text, write_html
from plsim.report.model import Report
from plsim.report.summary import format_summary
from plsim.runfolder import CARD_FILES, HTML_FILE, ORACLE_FILES, PLOT_FILES, REPLAYS_DIR, REPLAYS_INDEX
from plsim.stats import METRICS_BY_NAME


def write_report_html(report: Report, title: str | None = None, leading: Sequence[Section] = ()) -> Path:
    """Write the run's report.html from what the report computed; a compare or ladder run puts its
    own sections (``leading``) and title before the run's."""
    settings = {k: v for k, v in report.run_info.items() if k != "peak_memory_mib"}  # measured after the page
    return write_html(report.out_dir / HTML_FILE, title or report_title(report), settings,
                      reproduce_command(report.run_info), [*leading, *run_sections(report)])


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
            Frame(report.summary, "Win rate per strategy (summary.csv); mean_rounds_won: rounds of the games it won",
                  percent=rate_columns),
            *image("winrates", "Win rate per strategy with 95% Wilson intervals and the fair share"),
        ]),
        Section("Game health", [
            Frame(health_display(report.health), "Game-health metrics (health.csv); shares and spreads as fractions"),
        ]),
        Section("Seats", [
            Frame(report.seats, "Win rate per seat (seats.csv, strategy all)", percent=rate_columns),
            *image("seats", "Seat win rates with 95% intervals and each seat's fair share"),
            Frame(report.seat_strategies, "Win rate per seat and strategy (seats.csv)", percent=rate_columns),
        ]),
        Section("Endings and length", [
            Frame(report.end_reasons, "How games ended (end_reasons.csv)", percent=("share",)),
            *image("length", "Game length by end reason"),
        ]),
        Section("Wrath of God", [*image("wrath", "Wrath by round, with the share of games still running")]),
        Section("Victory points", [*image("vp", "Mean VP by round per strategy, with the share of games still running")]),
        *card_sections(report),
        *replay_sections(out),
        *moment_sections(out),
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


def moment_sections(out: Path) -> list[Section]:
    """The Decisive moments section, when an oracle read some of the run's games (``--oracle``)."""
    games_file, moments_file = out / ORACLE_FILES["games"], out / ORACLE_FILES["moments"]
    if not games_file.exists() or not moments_file.exists():
        return []
    oracle = json.loads((out / ORACLE_FILES["json"]).read_text()) if (out / ORACLE_FILES["json"]).exists() else {}
    games = pl.read_csv(games_file)
    moments = pl.read_csv(moments_file)
    links = []
    for row in moments.iter_rows(named=True):
        links.append((row["replay"], f"game {row['game']}, swing {row['rank']}: seat {row['seat']} "
                                     f"{row['before']:.0%} to {row['after']:.0%}",
                      f"after {row['phase']} of round {row['round']}"))
    every = oracle.get("every", 1)
    return [Section("Decisive moments", [
        Text(f"The oracle {oracle.get('oracle', '')!r} read every seat's chance of winning "
             f"{'after every step' if every == 1 else f'every {every} steps'} of these games, and after the last "
             "(docs/metrics.md, Decisive moments). Each link "
             "opens the game's replay at the step where a seat's chance swung most; drama is the mean of the "
             "leader's chance minus the eventual winner's, the lead changes count how often the leader changed. "
             "The chances are the oracle's estimates, not facts: a stronger oracle reads them better."),
        Frame(games.drop("seed"), "Per game (oracle_games.csv; oracle.csv has every estimate)",
              percent=("lead_change_share",)),
        Links(links),
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
             "afford more, and a seat that draws more cards plays more. See docs/metrics.md; what a card does "
             "itself, plsim cards measures: the same games played with its count changed (card_effects.csv)."),
        Image(report.out_dir / CARD_FILES["plot"], "The card kinds with the largest differences"),
        Frame(shown, "Per card kind (cards.csv has every count and interval)",
              percent=("used_win_rate", "held_not_used_win_rate", "never_held_win_rate", "difference",
                       "difference_low", "difference_high")),
    ])]
