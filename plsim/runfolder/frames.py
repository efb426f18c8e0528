"""Turn finished games into the two public polars frames of a run: ``games`` and ``rounds``.

The column names and types here are the documented contract users read from
``games.parquet`` and ``rounds.parquet``. Types are compact but wide enough that a strict cast
fails loudly instead of wrapping. Strategy names and end reasons are plain strings rather than
``Categorical`` so frames built in different worker processes concatenate without remapping.

Seats are stored as ``seat_0`` ... ``seat_5`` string columns (null where the game had fewer
players) as well as the comma-joined ``strategies``: flat columns filter, group and export to
CSV directly, which a list column does not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import polars as pl

from plsim.engine.cards import CATALOGUE, INVADERS, CardAction
from plsim.runfolder.rows import SEAT_COLUMNS, CardColumns, GameRecord, game_row, round_rows

ROUNDS_SCHEMA: dict[str, pl.DataType] = {
    "game": pl.Int32(),
    "round": pl.Int16(),
    "seat": pl.Int8(),
    "strategy": pl.String(),
    "vp": pl.Int16(),
    "coins": pl.Int32(),
    "income": pl.Int16(),
    "settlements": pl.Int16(),
    "cities": pl.Int16(),
    "walls": pl.Int16(),
    "developments": pl.Int16(),
    "garrison_troops": pl.Int16(),
    "commanded_troops": pl.Int16(),
    "generals": pl.Int16(),
    "captives_held": pl.Int16(),
    "judge_titles": pl.Int16(),
    "king": pl.Boolean(),
    "tabernacle": pl.Boolean(),
    "hand_size": pl.Int16(),
    "wrath": pl.Int16(),
    "invader_pairs": pl.Int16(),
}

GAMES_SCHEMA: dict[str, pl.DataType] = {
    "game": pl.Int32(),
    "seed": pl.Int64(),
    "scenario": pl.String(),
    "players": pl.Int8(),
    "strategies": pl.String(),
    **{name: pl.String() for name in SEAT_COLUMNS},
    "rounds": pl.Int16(),
    "end_reason": pl.String(),
    "winner_seat": pl.Int8(),
    "winner_strategy": pl.String(),
    "final_wrath": pl.Int16(),
    "pairs_released": pl.Int16(),
    "settlements_razed": pl.Int16(),
    "first_judge_round": pl.Int16(),
    "first_king_round": pl.Int16(),
    "lead_changes": pl.Int16(),
    "leader_two_thirds": pl.Int8(),
    "comeback": pl.Boolean(),
    "decisions": pl.Int32(),
    "duration_s": pl.Float64(),
}

# The games columns of every plsim version; the later ones are filled in where read (plsim.stats.patterns).
GAMES_ALWAYS: tuple[str, ...] = tuple(c for c in GAMES_SCHEMA if c not in ("lead_changes", "leader_two_thirds",
                                                                          "comeback"))

END_REASONS: tuple[str, ...] = ("victory", "draw", "collapse", "round_limit")
FAULT = "fault"  # the end reason of a game that a fault stopped (its row has no outcome)


CARD_NAMES: tuple[str, ...] = (*CATALOGUE, *INVADERS)
CARDS_SCHEMA: dict[str, pl.DataType] = {
    "game": pl.Int32(),
    "round": pl.Int16(),
    "seat": pl.Int8(),  # -1 where no seat is involved (a reshuffle, an event resolving, an invader)
    "card": pl.Enum(CARD_NAMES),
    "action": pl.Enum([a.value for a in CardAction]),
}


def cards_frame_from_columns(games: list[int], columns: CardColumns) -> pl.DataFrame:
    """The ``cards`` frame of buffered games: ``games`` holds each row's game index."""
    data = {"game": games, "round": columns.round, "seat": columns.seat, "card": columns.card,
            "action": columns.action}
    return pl.DataFrame(data, schema=CARDS_SCHEMA)


def _typed(rows: list[tuple[Any, ...]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """Rows to a frame with exactly ``schema``; the strict cast raises on any overflow. Built
    column by column: twice as fast as polars' row orientation on a run's hundreds of thousands
    of round rows."""
    columns = zip(*rows) if rows else ((),) * len(schema)
    return pl.DataFrame([pl.Series(name, values, strict=False).cast(dtype)
                         for (name, dtype), values in zip(schema.items(), columns)])


def fault_row(game: int, seed: int, scenario: str, seats: Sequence[str], duration_s: float = 0.0) -> tuple[Any, ...]:
    """The ``games`` row of a game a fault stopped: who sat where, end reason ``fault``, no outcome."""
    known = {
        "game": game, "seed": seed, "scenario": scenario, "players": len(seats), "strategies": ",".join(seats),
        **{f"seat_{i}": name for i, name in enumerate(seats)}, "end_reason": FAULT, "duration_s": duration_s,
    }
    return tuple(known.get(column) for column in GAMES_SCHEMA)


def games_frame_from_rows(rows: Iterable[tuple[Any, ...]]) -> pl.DataFrame:
    return _typed(list(rows), GAMES_SCHEMA)


def rounds_frame_from_rows(rows: Iterable[tuple[Any, ...]]) -> pl.DataFrame:
    return _typed(list(rows), ROUNDS_SCHEMA)


def games_frame(records: Iterable[GameRecord | tuple[Any, ...]]) -> pl.DataFrame:
    """One row per game: seed, scenario, seating, how and when it ended, its cost."""
    return games_frame_from_rows(game_row(r) for r in records)


def rounds_frame(records: Iterable[GameRecord | tuple[Any, ...]]) -> pl.DataFrame:
    """One row per game, round and seat, with the seat's strategy name beside the seat."""
    return rounds_frame_from_rows(row for r in records for row in round_rows(r))
