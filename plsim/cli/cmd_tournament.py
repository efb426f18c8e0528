"""`plsim tournament`: every table from a list of strategies; pairwise matrix, win rates, ratings."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.cli.runs import batch_errors, batch_options, echo_result, options_from
from plsim.runs import run_tournament


@main.command("tournament")
@click.argument("scenario", required=False)
@click.option("--players", required=True, help="Comma-separated strategies, at least two, each once.")
@click.option("--games-per-table", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games at each table (seats rotate within a table).")
@batch_options
def tournament_command(scenario, players, games_per_table, **params) -> None:
    """Play every table of SCENARIO's size (default standard-4p) drawn from --players.

    Tables are the combinations of distinct strategies; with fewer strategies than seats, one
    table per strategy, the list cycled from it (a,b,c at 4 seats: a,b,c,a / b,c,a,b / c,a,b,c).
    Writes a pairwise win matrix (matrix.csv, matrix.png, pairwise.csv), win rates with 95%
    Wilson intervals (summary.csv) and openskill ratings (ratings.csv). Faults, Ctrl-C and
    --resume work as for plsim run.
    """
    with batch_errors():
        result = run_tournament(players, games_per_table, scenario, options_from(params))
    echo_result(result)
