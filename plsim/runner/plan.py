"""What a run plays: cells of games, and which game is played at each index of a cell.

A *cell* is everything one run folder holds: a scenario (rules, map, player count), its tables
(strategy line-ups) and how many games each table plays. A plain ``plsim run`` is one cell of one
table; a tournament or a comparison is one cell of several tables; a sweep is a grid of cells.

Every game of a cell is fixed by the run's seed, the cell's tables and the game's index
(``Plan.game``), never by the worker, the executor or the order games finish in, so all cells of a
grid share their game seeds (common random numbers) and any game can be replayed on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from plsim.runner.seeding import game_seed, seat_assignment
from plsim.scenario import Scenario

KINDS = ("run", "tournament", "compare", "ladder")  # the kinds of run a cell can be (``plsim.runs``)


@dataclass(frozen=True)
class Plan:
    """Which game is played at each index of a cell.

    ``tables`` are the strategy line-ups (each cycled to ``players`` seats). Games interleave the
    tables: game ``g`` is played at table ``g % len(tables)`` as that table's game number
    ``g // len(tables)``, which sets its seating. A cell of one table is just ``games`` games
    numbered 0..games-1. With ``common_seeds`` every table's k-th game has the same seed (common
    random numbers, for comparisons); otherwise each game's seed comes from its own index.
    """

    tables: tuple[tuple[str, ...], ...]
    games_per_table: int
    players: int
    seating: str
    run_seed: int
    common_seeds: bool = False

    @property
    def games(self) -> int:
        return len(self.tables) * self.games_per_table

    def table_of(self, index: int) -> tuple[int, int]:
        """(table, the game's number at that table)."""
        return index % len(self.tables), index // len(self.tables)

    def game(self, index: int) -> tuple[int, tuple[str, ...]]:
        """(seed, the strategy entry in each seat) of game ``index``."""
        table, local = self.table_of(index)
        seats = seat_assignment(self.tables[table], self.players, local, self.seating, self.run_seed)
        return game_seed(self.run_seed, local if self.common_seeds else index), seats


@dataclass(frozen=True)
class Cell:
    """One run folder's games: a scenario, its tables and the games each table plays.

    ``name`` names the cell's folder in a grid (``cells/<name>/``); ``kind`` and ``info`` are
    written to its ``run.json`` (``kind``, one of ``KINDS``, says which kind of run made it).
    ``refs`` says how other processes resolve an entry when that is already known (a resumed run
    keeps the plugin paths it started with); other entries are resolved from the current folder.
    ``until_ci`` (a one-cell run only) stops the cell early, after a whole block of games, once
    every strategy's 95% half-width is at most that (``plsim.runner.precision``); ``games_per_table``
    is then the most it plays.
    """

    scenario: Scenario
    tables: tuple[tuple[str, ...], ...]
    games_per_table: int
    name: str = ""
    common_seeds: bool = False
    kind: str = "run"
    info: Mapping[str, Any] = field(default_factory=dict)
    refs: Mapping[str, str] = field(default_factory=dict)
    until_ci: float | None = None

    @property
    def games(self) -> int:
        return len(self.tables) * self.games_per_table

    def plan(self, seating: str, seed: int) -> Plan:
        return Plan(self.tables, self.games_per_table, self.scenario.players, seating, seed, self.common_seeds)

    @property
    def entries(self) -> list[str]:
        """Every strategy entry of the cell, once, in first-seen order."""
        return list(dict.fromkeys(e for table in self.tables for e in table))
