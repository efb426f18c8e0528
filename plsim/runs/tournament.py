"""A tournament: every table of the scenario's size drawn from a list of strategies.

A tournament is one cell with several tables (``plsim.runner.cells``), games interleaving the
tables; on top of the run's report it writes the pairwise matrix, ratings and README.txt.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import polars as pl

from plsim.plots import plot_matrix
from plsim.runfolder import FAULT, RunConfigError
from plsim.runner import Cell, RunOptions, RunResult, option_arguments
from plsim.runs.batch import options_of, play_cell, split_entries
from plsim.runs.result import KindResult
from plsim.scenario import Scenario, as_scenario
from plsim.stats import matrix_wide, pairwise_table, rate_strategies, seat_outcomes
from plsim.text import percent

TOURNAMENT_README = """plsim tournament: {tables} tables of {players} seats, {per_table} games each, seats rotated.

Tables: every combination of {players} distinct strategies from the list (itertools.combinations);
with fewer strategies than seats, one table per strategy: the list cycled to fill the seats,
starting from that strategy (a,b,c at 4 seats: a,b,c,a / b,c,a,b / c,a,b,c).

Files
  games.parquet, rounds.parquet   every game and every round and seat (as plsim run)
  summary.csv, seats.csv          win rate per strategy and per seat, with 95% Wilson intervals
  pairwise.csv                    one row per ordered pair (a, b): meetings, a_ahead, b_ahead, ties,
                                  share = (a_ahead + ties/2) / meetings, 95% Wilson interval
  matrix.csv, matrix.png          share as a square: row finished ahead of column
  ratings.csv                     openskill Plackett-Luce rating: mu, sigma, ordinal = mu - 3 sigma

Definitions
  finished ahead   a seat that won the game is ahead of every other seat; otherwise the seat with
                   more final VP is ahead; equal standing is a tie (counted half in share).
  meeting          one pair of seats (a seat of A, a seat of B) in a game where both sat.
  ratings          games rated in index order (tables interleaved), seats ranked by
                   (won, final VP); a strategy in two seats of a game takes both updates.
"""


def tournament_lineups(strategies: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups of a tournament, its tables (see TOURNAMENT_README)."""
    names = list(strategies)
    if len(names) >= players:
        return list(itertools.combinations(names, players))
    return [tuple((names[j:] + names[:j])[i % len(names)] for i in range(players)) for j in range(len(names))]


@dataclass(frozen=True)
class TournamentResult(KindResult):
    lineups: list[tuple[str, ...]]
    pairwise: pl.DataFrame
    matrix: pl.DataFrame
    ratings: pl.DataFrame
    summary: pl.DataFrame  # per-strategy win rates with Wilson intervals

    def describe(self) -> str:
        """The tables, win rates, ratings and pairwise matrix, as ``plsim tournament`` prints them."""
        run = self.run
        lines = [
            f"Tournament: {len(self.lineups)} table(s) of {len(self.lineups[0])} seats, "
            f"{run.run_info.get('games_per_table')} games each, {run.totals['games']:,} games; "
            f"scenario {run.run_info.get('scenario')}, run seed {run.run_info.get('seed')}",
            "",
        ]
        names = self.ratings["strategy"].to_list()
        width = max([8, *map(len, names)])
        lines.append("Win rate per strategy (seat-games; 95% Wilson interval)")
        lines.append(f"  {'strategy':<{width}}  {'games':>8}  {'wins':>7}  {'win rate':>8}  95% CI")
        for row in self.summary.iter_rows(named=True):
            lines.append(f"  {row['strategy']:<{width}}  {row['games']:>8,}  {row['wins']:>7,}  "
                         f"{percent(row['win_rate']):>8}  [{percent(row['ci_low'])}, {percent(row['ci_high'])}]")
        lines += ["", "Rating (openskill Plackett-Luce; ordinal = mu - 3 sigma)"]
        lines.append(f"  {'strategy':<{width}}  {'mu':>7}  {'sigma':>6}  {'ordinal':>7}")
        for row in self.ratings.iter_rows(named=True):
            lines.append(f"  {row['strategy']:<{width}}  {row['mu']:>7.2f}  {row['sigma']:>6.2f}  {row['ordinal']:>7.2f}")
        lines += ["", "Pairwise: share of meetings the row finished ahead of the column "
                  "(ahead = won, else more final VP; ties half)"]
        short = {n: (n if len(n) <= 10 else n[:9] + "~") for n in names}
        lines.append(f"  {'':<{width}}  " + "  ".join(f"{short[n]:>10}" for n in names))
        for row in self.matrix.iter_rows():
            name, cells = row[0], row[1:]
            lines.append(f"  {name:<{width}}  " + "  ".join(f"{'' if c is None else f'{c:.0%}':>10}" for c in cells))
        lines += ["", f"Files in {run.out_dir}: pairwise.csv, matrix.csv, matrix.png, ratings.csv, README.txt "
                  "(definitions), and the run's games/rounds Parquet, summary.csv, seats.csv, plots"]
        return "\n".join(lines)


def write_tournament_files(run: RunResult) -> TournamentResult:
    """The tournament's own files, from the run's games (finished ones only after a stop)."""
    info = run.run_info
    strategies = info["tournament_strategies"]
    lineups = [tuple(lineup) for lineup in info["tables"]]
    out = run.out_dir
    played = run.games.filter(pl.col("end_reason") != FAULT)  # a fault has no outcome to rate
    outcomes = seat_outcomes(played, run.rounds())
    ratings = rate_strategies(outcomes)
    rated = ratings["strategy"].to_list()
    order = rated + [s for s in strategies if s not in rated]
    pairs = pairwise_table(outcomes, order)
    matrix = matrix_wide(pairs, order)
    pairs.write_csv(out / "pairwise.csv")
    matrix.write_csv(out / "matrix.csv")
    ratings.write_csv(out / "ratings.csv")
    plot_matrix(pairs, order, out / "matrix.png")
    (out / "README.txt").write_text(TOURNAMENT_README.format(
        tables=len(lineups), players=len(lineups[0]), per_table=info.get("games_per_table")))
    summary = run.report.summary if run.report is not None else pl.DataFrame()
    return TournamentResult(run, lineups, pairs, matrix, ratings, summary)


def run_tournament(
    strategies: str | Sequence[str],
    games_per_lineup: int = 100,
    scenario: str | Path | Scenario | None = None,
    options: RunOptions | None = None,
    **overrides: Any,
) -> TournamentResult:
    """Every table of the scenario's size from ``strategies``, ``games_per_lineup`` games each.

    Seats rotate within each table (``options.seating`` is not used). Writes a normal run folder
    plus pairwise.csv, matrix.csv, matrix.png, ratings.csv and README.txt (the definitions). On a
    stopped run the files cover the finished games and the exception is raised again.
    """
    options = options_of(options, overrides)
    options = options_of(options, {"seating": "rotate"})
    scen = as_scenario(scenario)
    names = split_entries(strategies) or []
    if len(names) < 2:
        raise RunConfigError(f"a tournament needs at least two strategies, got {len(names)}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RunConfigError(f"the tournament list names {', '.join(repeated)} more than once")
    lineups = tournament_lineups(names, scen.players)
    cell = Cell(scen, tuple(lineups), games_per_lineup, kind="tournament", info={"tournament_strategies": names})

    def words(where: str) -> list[str]:
        return ["plsim", "tournament", where, "--players", ",".join(names), "--games-per-table",
                str(games_per_lineup), *option_arguments(options, seating=False)]

    return play_cell(cell, options, "-tournament", words, write_tournament_files)
