"""`plsim tournament`: every table from a list of strategies; pairwise matrix, win rates, ratings."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.cli.runs import batch_errors, batch_options, fault_note, options_from, totals_line
from plsim.runner.tournament import TournamentResult, run_tournament


def _pct(x) -> str:
    return "-" if x is None else f"{x:.1%}"


def format_tournament(t: TournamentResult) -> str:
    run = t.run
    lines = [
        f"Tournament: {len(t.tables)} table(s) of {len(t.tables[0])} seats, "
        f"{run.run_info.get('games_per_table')} games each, {run.totals['games']:,} games; "
        f"scenario {run.run_info.get('scenario')}, run seed {run.run_info.get('seed')}",
        "",
    ]
    names = t.ratings["strategy"].to_list()
    width = max([8, *map(len, names)])
    lines.append("Win rate per strategy (seat-games; 95% Wilson interval)")
    lines.append(f"  {'strategy':<{width}}  {'games':>8}  {'wins':>7}  {'win rate':>8}  95% CI")
    for row in t.summary.iter_rows(named=True):
        lines.append(f"  {row['strategy']:<{width}}  {row['games']:>8,}  {row['wins']:>7,}  "
                     f"{_pct(row['win_rate']):>8}  [{_pct(row['ci_low'])}, {_pct(row['ci_high'])}]")
    lines += ["", "Rating (openskill Plackett-Luce; ordinal = mu - 3 sigma)"]
    lines.append(f"  {'strategy':<{width}}  {'mu':>7}  {'sigma':>6}  {'ordinal':>7}")
    for row in t.ratings.iter_rows(named=True):
        lines.append(f"  {row['strategy']:<{width}}  {row['mu']:>7.2f}  {row['sigma']:>6.2f}  {row['ordinal']:>7.2f}")
    lines += ["", "Pairwise: share of meetings the row finished ahead of the column "
              "(ahead = won, else more final VP; ties half)"]
    short = {n: (n if len(n) <= 10 else n[:9] + "~") for n in names}
    lines.append(f"  {'':<{width}}  " + "  ".join(f"{short[n]:>10}" for n in names))
    for row in t.matrix.iter_rows():
        name, cells = row[0], row[1:]
        lines.append(f"  {name:<{width}}  " + "  ".join(f"{'' if c is None else f'{c:.0%}':>10}" for c in cells))
    lines += ["", f"Files in {run.out_dir}: pairwise.csv, matrix.csv, matrix.png, ratings.csv, README.txt "
              "(definitions), and the run's games/rounds Parquet, summary.csv, seats.csv, plots"]
    return "\n".join(lines)


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
    click.echo(format_tournament(result))
    click.echo(totals_line(result.run))
    fault_note(result.run)
