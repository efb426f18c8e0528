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
from typing import Any, NamedTuple, Protocol

import polars as pl

from plsim.engine.cards import CATALOGUE, INVADERS, CardAction

MAX_SEATS = 6

ROUND_COLUMNS: tuple[str, ...] = (
    "round", "seat", "vp", "coins", "income", "settlements", "cities", "walls", "developments",
    "garrison_troops", "commanded_troops", "generals", "captives_held", "judge_titles", "king",
    "tabernacle", "hand_size", "wrath", "invader_pairs",
)

SEAT_COLUMNS: tuple[str, ...] = tuple(f"seat_{i}" for i in range(MAX_SEATS))

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


class GameResultLike(Protocol):
    """The fields of the engine's ``GameResult`` that the frames read."""

    winner: int | None
    end_reason: str
    rounds: int
    decisions: int
    final_wrath: int
    pairs_released: int
    settlements_razed: int
    first_judge_round: int | None
    first_king_round: int | None
    round_rows: Sequence[Sequence[Any]]


class GameRecord(NamedTuple):
    """One finished game as the runner hands it over: where it came from and what happened."""

    game: int
    seed: int
    scenario: str
    seats: tuple[str, ...]
    result: GameResultLike
    duration_s: float


CARD_NAMES: tuple[str, ...] = (*CATALOGUE, *INVADERS)
CARDS_SCHEMA: dict[str, pl.DataType] = {
    "game": pl.Int32(),
    "round": pl.Int16(),
    "seat": pl.Int8(),  # -1 where no seat is involved (a reshuffle, an event resolving, an invader)
    "card": pl.Enum(CARD_NAMES),
    "action": pl.Enum([a.value for a in CardAction]),
}


class CardColumns(NamedTuple):
    """A game's card events column by column (``round, seat, card, action``): compact to send."""

    round: list[int]
    seat: list[int]
    card: list[str]
    action: list[str]


def card_columns(result: Any) -> CardColumns:
    """The card events of a finished game (``GameResult.card_events``) as columns."""
    events = result.card_events
    if not events:
        return CardColumns([], [], [], [])
    rounds, seats, cards, actions = zip(*events)
    return CardColumns(list(rounds), list(seats), list(cards), [str(a) for a in actions])


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


class LeadStory(NamedTuple):
    """Who led a game on victory points and when (see docs/metrics.md)."""

    lead_changes: int
    leader_two_thirds: int | None
    comeback: bool | None


def two_thirds_round(rounds: int) -> int:
    """The round two thirds of the way through a game of ``rounds`` rounds (at least round 1)."""
    return max(1, -(-2 * rounds // 3))


def lead_story(round_rows: Sequence[Sequence[Any]], rounds: int, winner: int | None) -> LeadStory:
    """Lead changes, the leader two thirds of the way through, and whether the winner came back.

    The leader after a round is the one seat with strictly the most VP (none on a tie). A lead
    change is a round whose leader differs from the last seat that led alone. A comeback is a
    won game whose winner had fewer VP than some other seat after ``two_thirds_round``.
    """
    vp_by_round: dict[int, dict[int, int]] = {}
    for row in round_rows:
        vp_by_round.setdefault(row[0], {})[row[1]] = row[2]
    changes, last_leader = 0, None
    leaders: dict[int, int | None] = {}
    for round_no in sorted(vp_by_round):
        vps = vp_by_round[round_no]
        top = max(vps.values())
        at_top = [seat for seat, vp in vps.items() if vp == top]
        leader = at_top[0] if len(at_top) == 1 else None
        leaders[round_no] = leader
        if leader is not None:
            if last_leader is not None and leader != last_leader:
                changes += 1
            last_leader = leader
    check = vp_by_round.get(two_thirds_round(rounds))
    comeback = None
    if winner is not None and check is not None and winner in check:
        comeback = check[winner] < max(check.values())
    return LeadStory(changes, leaders.get(two_thirds_round(rounds)), comeback)


def game_row(record: GameRecord) -> tuple[Any, ...]:
    """The ``games`` row of one finished game, in ``GAMES_SCHEMA`` order (plain values, cheap to
    send from a worker to the parent). The lead columns come from the round rows here, in the
    worker, so the statistics never need the whole rounds frame."""
    game, seed, scenario, seats, result, duration_s = record
    if len(seats) > MAX_SEATS:
        raise ValueError(f"game {game} has {len(seats)} seats; at most {MAX_SEATS} fit the frame")
    winner = result.winner
    lead = lead_story(result.round_rows, result.rounds, winner)
    return (
        game, seed, scenario, len(seats), ",".join(seats),
        *seats, *([None] * (MAX_SEATS - len(seats))),
        result.rounds, result.end_reason, winner,
        None if winner is None else seats[winner],
        result.final_wrath, result.pairs_released, result.settlements_razed,
        result.first_judge_round, result.first_king_round, *lead, result.decisions, duration_s,
    )


def round_rows(record: GameRecord) -> list[tuple[Any, ...]]:
    """The ``rounds`` rows of one finished game, in ``ROUNDS_SCHEMA`` order."""
    game, _seed, _scenario, seats, result, _duration = record
    rows = []
    for row in result.round_rows:
        if len(row) != len(ROUND_COLUMNS):
            raise ValueError(f"game {game}: round row has {len(row)} values, expected {len(ROUND_COLUMNS)}")
        rows.append((game, row[0], row[1], seats[row[1]], *row[2:]))
    return rows


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
