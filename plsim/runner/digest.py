"""Fingerprints of whole games, to prove that speed or refactoring work changed no game.

``game_digest`` hashes what a game's rows say happened (the columns of ``games.parquet`` and
``rounds.parquet`` that describe play, not timing), so two versions of plsim that play the same
seeds to the same ends give the same digest. ``scripts/game_digests.py`` prints one digest per
seed, to count how many games a deliberate rule or strategy change moved.
"""

from __future__ import annotations

import hashlib
from typing import Iterable, Sequence

from plsim.engine.game import GameResult, play_game
from plsim.runner.seeding import game_seed
from plsim.scenario import as_scenario
from plsim.strategy.registry import resolve_all
from plsim.board import load_board


def game_digest(result: GameResult) -> str:
    """sha256 of a game's outcome and every per-round row (16 hex digits)."""
    summary = (
        result.seed, result.players, result.rounds, result.end_reason, tuple(result.winners),
        tuple(result.final_vp), tuple(result.final_coins), result.final_wrath, result.pairs_released,
        result.settlements_razed, result.first_judge_round, result.first_king_round, result.decisions,
    )
    text = repr(summary) + "".join(repr(tuple(row)) for row in result.round_rows)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play_seeds(scenario: str | None, entries: Sequence[str], seeds: Iterable[int]) -> list[GameResult]:
    """Play one game per seed with ``entries`` in seat order (no rotation)."""
    scen = as_scenario(scenario)
    board = load_board(scen.map)
    specs = resolve_all(list(entries))
    return [play_game(board, scen.rules, [s.make(i, seed) for i, s in enumerate(specs)], seed) for seed in seeds]


def batch_digest(scenario: str | None, entries: Sequence[str], run_seed: int, games: int) -> str:
    """One digest over ``games`` games seeded as a run of ``run_seed`` would seed them."""
    seeds = [game_seed(run_seed, index) for index in range(games)]
    joined = "".join(game_digest(r) for r in play_seeds(scenario, entries, seeds))
    return hashlib.sha256(joined.encode()).hexdigest()[:16]
