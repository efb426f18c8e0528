"""What a run plays: cells of games, and the schedule that says which game is played at each index.

A *cell* is everything one run folder holds: a scenario (rules, map, player count), its line-ups
(the strategy entries that sit down together) and how many games each line-up plays. A plain
``plsim run`` is one cell of one line-up; a tournament or a comparison is one cell of several
line-ups; a sweep is a grid of cells.

Every game of a cell is fixed by the run's seed, the cell's line-ups and the game's index
(``Schedule.game``), never by the worker, the executor or the order games finish in, so all
cells of a grid share their game seeds (common random numbers) and any game can be replayed on
its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from plsim.runner.seeding import game_seed, seat_assignment
from plsim.scenario import Scenario

KINDS = ("run", "tournament", "compare", "ladder")  # the kinds of run a cell can be (``plsim.runs``)


@dataclass(frozen=True)
class Schedule:
    """Which game is played at each index of a cell.

    ``lineups`` are the strategy line-ups (each cycled to ``players`` seats). Games interleave the
    line-ups: game ``g`` is played by line-up ``g % len(lineups)`` as that line-up's game number
    ``g // len(lineups)``, which sets its seating. A cell of one line-up is just ``games`` games
    numbered 0..games-1. With ``common_seeds`` every line-up's k-th game has the same seed (common
    random numbers, for comparisons); otherwise each game's seed comes from its own index.
    """

    lineups: tuple[tuple[str, ...], ...]
    games_per_lineup: int
    players: int
    seating: str
    run_seed: int
    common_seeds: bool = False

    @property
    def games(self) -> int:
        return len(self.lineups) * self.games_per_lineup

    def lineup_of(self, index: int) -> tuple[int, int]:
        """(line-up, the game's number in that line-up)."""
        return index % len(self.lineups), index // len(self.lineups)

    def game(self, index: int) -> tuple[int, tuple[str, ...]]:
        """(seed, the strategy entry in each seat) of game ``index``."""
        lineup, local = self.lineup_of(index)
        seats = seat_assignment(self.lineups[lineup], self.players, local, self.seating, self.run_seed)
        return game_seed(self.run_seed, local if self.common_seeds else index), seats


@dataclass(frozen=True)
class Cell:
    """One run folder's games: a scenario, its line-ups and the games each line-up plays.

    ``name`` names the cell's folder in a grid (``cells/<name>/``); ``kind`` and ``info`` are
    written to its ``run.json`` (``kind``, one of ``KINDS``, says which kind of run made it).
    ``refs`` says how other processes resolve an entry when that is already known (a resumed run
    keeps the plugin paths it started with); other entries are resolved from the current folder.
    ``until_ci`` (a one-cell run only) stops the cell early, after a whole block of games, once
    every strategy's 95% half-width is at most that (``plsim.runner.precision``);
    ``games_per_lineup`` is then the most it plays. run.json keeps the line-ups as ``tables`` and
    their size as ``games_per_table``, the words of ``plsim tournament``.
    """

    scenario: Scenario
    lineups: tuple[tuple[str, ...], ...]
    games_per_lineup: int
    name: str = ""
    common_seeds: bool = False
    kind: str = "run"
    info: Mapping[str, Any] = field(default_factory=dict)
    refs: Mapping[str, str] = field(default_factory=dict)
    until_ci: float | None = None

    @property
    def games(self) -> int:
        return len(self.lineups) * self.games_per_lineup

    def schedule(self, seating: str, seed: int) -> Schedule:
        return Schedule(self.lineups, self.games_per_lineup, self.scenario.players, seating, seed, self.common_seeds)

    @property
    def entries(self) -> list[str]:
        """Every strategy entry of the cell, once, in first-seen order."""
        return list(dict.fromkeys(e for lineup in self.lineups for e in lineup))
