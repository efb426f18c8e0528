"""`plsim ladder`: tiers of graded skill against each other; matchup matrix, trend test, seats per tier."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.cli.runs import batch_errors, batch_options, fault_note, options_from, totals_line
from plsim.runner.ladder import LADDER_FILES, LadderResult, ladder_text, run_ladder


def format_ladder(result: LadderResult) -> str:
    """What plsim ladder prints at the end (and plsim run --resume of a ladder)."""
    info = result.run.run_info
    k = len(result.tiers)
    return "\n".join([
        f"Ladder: {k} tiers, {k * k} tables, {info.get('games_per_table')} games each; "
        f"scenario {info.get('scenario')}, run seed {info.get('seed')}", "",
        ladder_text(result), "",
        f"Files in {result.run.out_dir}: {', '.join(LADDER_FILES.values())}, report.html and the run's own",
    ])


@main.command("ladder")
@click.argument("scenario", required=False)
@click.option("--tiers", required=True,
              help="Comma-separated strategy entries, lowest tier first, at least two, each once "
                   "(e.g. random,judge-rush,lookahead,mcts:iterations=200).")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games at each of the tiers x tiers tables (seats rotate; the same seeds at every table).")
@batch_options
def ladder_command(scenario, tiers, games, **params) -> None:
    """Play every tier alone against three of every tier of SCENARIO (default standard-4p).

    Table (row, column) seats one player of the row tier and the column tier everywhere else; all
    tables play the same seeds with the row tier in the same seat, so tiers are compared in pairs.
    Prints and writes the matchup matrix with 95% Wilson intervals (ladder_matrix.csv,
    ladder.png), a one-sided Cochran-Armitage test that higher tiers win more and the adjacent
    tiers it does not separate (ladder_adjacent.csv, ladder.json), skill_gap, and the seat balance
    within each tier from its mirror table (ladder_seats.csv), all in report.html first
    (docs/ladder.md). Faults, Ctrl-C, --resume (plsim run --resume DIR) and Dask work as for plsim run.
    """
    with batch_errors():
        result = run_ladder(tiers, games, scenario, options_from(params))
    click.echo(format_ladder(result))
    click.echo(totals_line(result.run))
    fault_note(result.run)
