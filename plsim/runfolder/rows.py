"""A finished game as plain rows: what a worker sends its parent, built without polars.

``game_row`` and ``round_rows`` give a game's rows in the column order of ``games.parquet`` and
``rounds.parquet`` (``plsim.runfolder.frames`` holds the schemas and turns rows into frames, in
the parent); ``card_columns`` its card events. A worker process imports only this module of the
run folder, so it never loads polars (38 MiB a worker).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

MAX_SEATS = 6

ROUND_COLUMNS: tuple[str, ...] = (
    "round", "seat", "vp", "coins", "income", "settlements", "cities", "walls", "developments",
    "garrison_troops", "commanded_troops", "generals", "captives_held", "judge_titles", "king",
    "tabernacle", "hand_size", "wrath", "invader_pairs",
)

SEAT_COLUMNS: tuple[str, ...] = tuple(f"seat_{i}" for i in range(MAX_SEATS))

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
