"""A run's highlights: the few games worth watching, picked from games.parquet, written as the
replays its report links.

The longest game, a round-limit game, the game with the most invader pairs released, the
quickest win of each seat and a game a fault stopped, in that order, each game once (its reasons
joined). They are written to ``replays/`` with an ``index.json`` that report.html reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl

from plsim.replay.build import ReplayError, replay_game
from plsim.replay.page import outcome_line
from plsim.replay.source import game_spec
from plsim.report import Report, write_report_html
from plsim.runfolder import FAULT, HTML_FILE, REPLAYS_DIR, REPLAYS_INDEX

COLUMNS = ("game", "rounds", "end_reason", "winner_seat", "pairs_released")


def games_worth_watching(games: pl.DataFrame, limit: int) -> list[tuple[int, list[str]]]:
    """Up to ``limit`` (game, reasons) worth watching, in the module's order of reasons."""
    played = games.filter(pl.col("end_reason") != FAULT)
    picks: dict[int, list[str]] = {}

    def pick(frame: pl.DataFrame, reason: str) -> None:
        if frame.height:
            row = frame.row(0, named=True)
            picks.setdefault(int(row["game"]), []).append(reason.format(**row))

    pick(played.sort(["rounds", "game"], descending=[True, False]), "the longest game ({rounds} rounds)")
    pick(played.filter(pl.col("end_reason") == "round_limit").sort("game"), "a round-limit game")
    pick(played.filter(pl.col("pairs_released") > 0).sort(["pairs_released", "game"], descending=[True, False]),
         "invaders released ({pairs_released} pairs)")
    for seat in sorted(played["winner_seat"].drop_nulls().unique().to_list()):
        pick(played.filter(pl.col("winner_seat") == seat).sort(["rounds", "game"]),
             "the quickest win of seat {winner_seat} ({rounds} rounds)")
    pick(games.filter(pl.col("end_reason") == FAULT).sort("game"), "stopped by a fault")
    return list(picks.items())[:limit]


def write_run_replays(folder: str | Path, limit: int) -> list[dict[str, Any]]:
    """Write the replays of up to ``limit`` games worth watching of the run folder and their index;
    replays an earlier index listed and this one does not are removed."""
    root = Path(folder)
    path = root / "games.parquet"
    if not path.exists():
        raise ReplayError(f"{root} holds no games.parquet: no games to pick replays from")
    games = pl.read_parquet(path, columns=list(COLUMNS))
    replays = root / REPLAYS_DIR
    entries = []
    for game, reasons in games_worth_watching(games, limit):
        replay = replay_game(game_spec(root, game), replays / f"game-{game}.html")
        entries.append({"game": game, "file": f"{REPLAYS_DIR}/{replay.path.name}", "reasons": reasons,
                        "outcome": outcome_line(replay.document)})
    index = replays / REPLAYS_INDEX
    kept = {entry["file"] for entry in entries}
    if index.exists():
        for old in json.loads(index.read_text()):
            if old["file"] not in kept:
                (root / old["file"]).unlink(missing_ok=True)
    replays.mkdir(parents=True, exist_ok=True)
    index.write_text(json.dumps(entries, indent=1) + "\n")
    return entries


def add_replays(report: Report, limit: int) -> list[dict[str, Any]]:
    """Write the run's replays and, when the run has a report.html, write it again linking them."""
    entries = write_run_replays(report.out_dir, limit)
    if (report.out_dir / HTML_FILE).exists():
        write_report_html(report)
    return entries


def replays_line(folder: str | Path, entries: list[dict[str, Any]]) -> str:
    """What a command prints once it wrote a run's replays."""
    games = ", ".join(str(entry["game"]) for entry in entries)
    return f"  replays: {Path(folder) / REPLAYS_DIR} (games {games}; linked from {HTML_FILE})"
