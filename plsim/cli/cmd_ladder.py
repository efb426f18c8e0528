"""`plsim ladder`: tiers of graded skill against each other; matchup matrix, trend test, seats per tier."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.cli.runs import batch_errors, batch_options, echo_result, options_from
from plsim.runs import run_ladder


@main.command("ladder")
@click.argument("scenario", required=False)
@click.option("--tiers", required=True,
              help="Comma-separated strategy entries, lowest tier first, at least two, each once "
                   "(e.g. random,judge-rush,lookahead,mcts:iterations=200).")
@click.option("--field", default=None,
              help="Comma-separated strategies to fill the other seats instead of the tiers: tiers x field "
                   "tables (e.g. --field judge-rush: every tier alone against three judge-rush), fewer games of "
                   "the dear tiers; no skill_gap then, and seats and health only for tiers in the field.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games at each of the tiers x tiers (or tiers x field) tables (seats rotate; the same seeds "
                   "at every table).")
@batch_options
def ladder_command(scenario, tiers, field, games, **params) -> None:
    """Play every tier alone against three of every tier of SCENARIO (default standard-4p), or
    against three of each strategy of --field.

    Table (row, column) seats one player of the row tier and the column's strategy everywhere else; all
    tables play the same seeds with the row tier in the same seat, so tiers are compared in pairs.
    Prints and writes the matchup matrix with 95% Wilson intervals (ladder_matrix.csv,
    ladder.png), a one-sided Cochran-Armitage test that higher tiers win more and the adjacent
    tiers it does not separate (ladder_adjacent.csv, ladder.json), skill_gap, and the seat balance
    within each tier from its mirror table (ladder_seats.csv), all in report.html first
    (docs/ladder.md). Faults, Ctrl-C, --resume (plsim run --resume DIR) and Dask work as for plsim run.
    """
    with batch_errors():
        result = run_ladder(tiers, games, scenario, options_from(params), field=field)
    echo_result(result)
