"""A run: ``games`` games of one scenario and one line-up — the library behind ``plsim run``.

    >>> from plsim.runner import RunOptions
    >>> from plsim.runs import run_batch
    >>> result = run_batch("standard-4p", ["random"], games=200, options=RunOptions(workers=2, seed=1, out="out/r1"))
    >>> result.games.group_by("winner_strategy").len()

A run is one cell of one line-up (``plsim.runner.cells``): everything is checked first, the games
stream to the folder as they finish, and the report is written from every finished game whatever
stops the run. ``GameFailed`` (a fault under ``on_fault="stop"``), ``RunInterrupted`` (Ctrl-C,
SIGTERM) and ``PoolFailed`` carry the partial ``RunResult``.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Sequence

from plsim.runfolder import RunConfigError, resolve_out, scenario_reference
from plsim.runner import DEFAULT_GAMES, Cell, RunOptions, RunResult, RunStopped, execute, run_words, with_command
from plsim.scenario import Scenario, as_scenario


def split_entries(players: str | Sequence[str] | None) -> list[str] | None:
    """A comma list (or a sequence) of strategy entries; None when not given.

    Commas also separate one entry's parameters (``mcts:endgame=2,iterations=48``): a piece that is
    only ``key=value`` goes on the entry before it when that entry already has parameters, so a
    search with several parameters can sit in a line-up (``random,mcts:endgame=2,iterations=48``).
    """
    if players is None:
        return None
    if isinstance(players, str):
        players = _join_parameters(players.split(","))
    entries = [p.strip() for p in players]
    if not entries or any(not e for e in entries):
        raise RunConfigError(f"an empty strategy name in the player list {','.join(entries)!r}")
    return entries


def _join_parameters(pieces: Sequence[str]) -> list[str]:
    entries: list[str] = []
    for piece in pieces:
        key, eq, _ = piece.partition("=")
        if eq and ":" not in key and entries and "=" in entries[-1]:
            entries[-1] += "," + piece
        else:
            entries.append(piece)
    return entries


def line_up(entries: Sequence[str], players: int) -> tuple[str, ...]:
    """The list cycled to ``players`` seats (its first entries when it is longer)."""
    return tuple(itertools.islice(itertools.cycle(entries), players))


def options_of(options: RunOptions | None, overrides: dict[str, Any]) -> RunOptions:
    """``options`` (default ``RunOptions()``) with ``overrides`` by field name, for notebooks."""
    try:
        return replace(options or RunOptions(), **overrides)
    except TypeError as exc:
        raise RunConfigError(f"unknown run option: {exc}") from None


def play_cell(cell: Cell, options: RunOptions, suffix: str, words: Callable[[str], list[str]],
              finish: Callable[[RunResult], Any] = lambda run: run) -> Any:
    """Play one cell in its own folder and ``finish`` it (a job's own files) — also when the run
    stopped early, before the exception goes on with the files covering the finished games.

    ``words(where)`` gives the command line that reproduces the job, ``where`` being how that
    command names the scenario; ``suffix`` ends the name of a default folder.
    """
    out = resolve_out(options.out, suffix)
    options = with_command(options, words(scenario_reference(cell.scenario, out)))
    try:
        (run,) = execute([(cell, out)], replace(options, out=out))
    except RunStopped as exc:
        finish(exc.result)
        raise
    return finish(run)


def run_batch(
    scenario: str | Path | Scenario | None = None,
    players: str | Sequence[str] | None = None,
    games: int = DEFAULT_GAMES,
    options: RunOptions | None = None,
    *,
    until_ci: float | None = None,
    **overrides: Any,
) -> RunResult:
    """Play ``games`` games of ``scenario`` and write a report folder (see the module docstring).

    ``players`` lists one strategy entry per seat (a shorter list is cycled; default: the
    scenario's strategies). ``options`` says how (``RunOptions``); keyword ``overrides`` replace
    single fields of it (``run_batch(..., workers=2, seed=1)``). With ``until_ci`` (e.g. 0.02) the
    run stops early, after a whole block, once every strategy's 95% half-width is at most that;
    ``games`` is then the most it plays and ``run_info["stopped_by"]`` says which limit ended it. Raises ``ScenarioError``,
    ``StrategyLoadError``, ``MapError`` or ``RunConfigError`` before any game is played.
    """
    options = options_of(options, overrides)
    scen = as_scenario(scenario)
    entries = split_entries(players) or list(scen.seat_strategies())
    cell = Cell(scen, (tuple(entries),), games, until_ci=until_ci)
    return play_cell(cell, options, "", lambda where: run_words(where, cell, options))

