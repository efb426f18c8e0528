"""Play single games from Python, the library side of ``plsim play``.

    >>> from plsim.play import new_game
    >>> game = new_game("standard-4p", ["random"] * 4, seed=7)
    >>> result = game.play()
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Sequence

from plsim.board import Board, load_board
from plsim.engine.game import EventLog, Game, GameResult
from plsim.engine.position import load_position, position_to_dict
from plsim.rules import MAX_PLAYERS
from plsim.scenario import Scenario, as_scenario
from plsim.strategy.registry import resolve_all


def seat_entries(scenario: Scenario, players: Sequence[str] | None) -> list[str]:
    """The strategy entry of every seat, as ``plsim run`` seats them: the given list cycled to
    the scenario's seats (default: the scenario's own strategies); a longer list is refused."""
    if not players:
        return list(scenario.seat_strategies())
    entries = list(players)
    seats = scenario.players
    if len(entries) > seats:
        bigger = (f" or pick a scenario with more players, e.g. standard-{len(entries)}p" if len(entries) <= MAX_PLAYERS
                  else f"; a game has at most {MAX_PLAYERS} players (MP-3)")
        raise ValueError(
            f"scenario {scenario.name} has {seats} seats but {len(entries)} strategies were given "
            f"({','.join(entries)}); give at most {seats} (a shorter list is cycled){bigger}"
        )
    return [entries[seat % len(entries)] for seat in range(seats)]


def new_game(
    scenario: str | Path | Scenario | None = None,
    players: Sequence[str] | None = None,
    seed: int = 0,
    *,
    log: EventLog | None = None,
    check: bool = False,
) -> Game:
    """A freshly set-up game of the scenario (default: the standard 4-player game)."""
    scen = as_scenario(scenario)
    entries = seat_entries(scen, players)
    specs = resolve_all(entries)
    board = load_board(scen.map)
    strategies = [spec.make(seat, seed) for seat, spec in enumerate(specs)]
    return Game.new(
        board, scen.rules, strategies, seed, log=log, check=check, seat_names=entries, map_name=scen.map
    )


def game_from_position(
    path: str | Path,
    players: Sequence[str] | None = None,
    *,
    log: EventLog | None = None,
    check: bool = False,
) -> Game:
    """A game continued from a saved position; strategies from ``players`` or the file."""
    data = load_position(path)
    entries = list(players or data["strategies"] or [])
    n = len(data["state"].players)
    if len(entries) != n:
        raise ValueError(f"the position has {n} seats; give --players with {n} strategies")
    specs = resolve_all(entries)
    board: Board = load_board(data["map"])
    strategies = [spec.make(seat, data["seed"]) for seat, spec in enumerate(specs)]
    for strategy, rng in zip(strategies, data["strategy_rngs"]):
        if rng is not None and isinstance(getattr(strategy, "rng", None), random.Random):
            strategy.rng = rng
    game = Game(
        board, data["rules"], data["state"], strategies, data["rng"], seed=data["seed"], log=log,
        check=check, seat_names=entries, map_name=data["map"],
    )
    if check:
        game.verify("loading the position")
    return game


def save_game(game: Game, path: str | Path) -> None:
    """Write the game's position (between two phases) to JSON."""
    rngs = [s.rng if isinstance(getattr(s, "rng", None), random.Random) else None for s in game.strategies]
    data = position_to_dict(game.state, game.rules, game.map_name, game.seed, game.rng, game.seat_names, rngs)
    Path(path).write_text(json.dumps(data, indent=1))


def play(
    scenario: str | Path | Scenario | None = None,
    players: Sequence[str] | None = None,
    seed: int = 0,
    *,
    log: EventLog | None = None,
    check: bool = False,
) -> GameResult:
    """Play one whole game and return its result."""
    return new_game(scenario, players, seed, log=log, check=check).play()
