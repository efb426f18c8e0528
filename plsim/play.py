"""Play single games from Python, the library side of ``plsim play``.

    >>> from plsim.play import new_game
    >>> game = new_game("standard-4p", ["random"] * 4, seed=7)
    >>> result = game.play()
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Sequence

from plsim.board import Board, load_board
from plsim.engine.game import EventLog, Game, GameResult
from plsim.engine.table import check_pending
from plsim.engine.position import load_position, read_position
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
    keep_history: bool = False,
    prepare: Callable[[Any], None] | None = None,
) -> Game:
    """A freshly set-up game of the scenario (default: the standard 4-player game); with
    ``keep_history``, one that ``save_game`` saves to go on exactly (``Game.keep_history``);
    ``prepare`` sees each seat's strategy before the setup asks it anything."""
    scen = as_scenario(scenario)
    entries = seat_entries(scen, players)
    specs = resolve_all(entries)
    board = load_board(scen.map)
    strategies = [spec.make(seat, seed) for seat, spec in enumerate(specs)]
    for strategy in strategies if prepare is not None else ():
        prepare(strategy)
    return Game.new(
        board, scen.rules, strategies, seed, log=log, check=check, seat_names=entries, map_name=scen.map,
        keep_history=keep_history,
    )


def game_from_position(
    path: str | Path,
    players: Sequence[str] | None = None,
    *,
    log: EventLog | None = None,
    check: bool = False,
    prepare: Callable[[Any], None] | None = None,
) -> Game:
    """A game continued from a saved position; strategies from ``players`` or the file
    (``prepare`` sees each before it is asked anything). A
    position saved with its history (``save_game``) is replayed from the history's start, so
    that the strategies plan as they did and the game goes on exactly as it would have; when the
    replay does not lead to the saved state (an edited position, other strategies), the saved
    state is played on by strategies that know only what they see from there."""
    data = load_position(path)
    entries = list(players or data["strategies"] or [])
    n = len(data["state"].players)
    if len(entries) != n:
        raise ValueError(f"the position has {n} seats; give --players with {n} strategies")
    specs = resolve_all(entries)
    board: Board = load_board(data["map"])
    history = data["history"]
    if history and entries == list(data["strategies"] or []):
        start = read_position(history["start"], f"{path} (its history's start)")
        game = _game_at(start, board, specs, entries, log, check, f"{path} (its history's start)", prepare)
        if game.replay(history["answers"], data["saved_state"]):
            return game
    game = _game_at(data, board, specs, entries, log, check, str(path), prepare)
    game.keep_history()
    return game


def _game_at(data: dict, board: Board, specs: list, entries: list[str], log: EventLog | None, check: bool,
             where: str, prepare: Callable[[Any], None] | None) -> Game:
    strategies = [spec.make(seat, data["seed"]) for seat, spec in enumerate(specs)]
    for strategy in strategies if prepare is not None else ():
        prepare(strategy)
    for strategy, rng in zip(strategies, data["strategy_rngs"]):
        if rng is not None and isinstance(getattr(strategy, "rng", None), random.Random):
            strategy.rng = rng
    game = Game(  # ``read_position`` checked the state against the rules, with or without ``check``
        board, data["rules"], data["state"], strategies, data["rng"], seed=data["seed"], log=log,
        check=check, seat_names=entries, map_name=data["map"],
    )
    check_pending(game, where)
    return game


def save_game(game: Game, path: str | Path) -> None:
    """Write the game's position (at its pending decision, or between two phases) to JSON, with
    its history if it kept one (``Game.keep_history``)."""
    data = game.position()
    if game.history is not None:
        start, answers = game.history
        data["history"] = {"start": start, "answers": answers}
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
