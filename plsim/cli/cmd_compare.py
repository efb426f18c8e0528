"""`plsim compare A B`: is A better than B? Paired games on common seeds and seats."""

from __future__ import annotations

import click

from plsim.cli import main
from plsim.cli.runs import batch_errors, batch_options, echo_result, options_from
from plsim.runner import SEAT_MODES
from plsim.runs import run_compare


@main.command("compare")
@click.argument("a")
@click.argument("b")
@click.argument("scenario", required=False)
@click.option("--field", default="random", show_default=True,
              help="Strategies in the other seats (comma-separated, cycled).")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Paired games: each is played once with A and once with B.")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="How the focal seat moves from game to game.")
@batch_options
def compare_command(a, b, scenario, field, games, seating, **params) -> None:
    """Is strategy A better than B? Play --games games of SCENARIO with A in one seat and --field
    in the others, and the same games (same seeds, same seats) with B in A's place.

    Reports each win rate with its 95% Wilson interval, the paired difference with a 95% interval
    (Newcombe) and the exact McNemar p-value; a pair with a fault in either game is left out.
    Faults, Ctrl-C and --resume work as for plsim run.

    Examples:

    \b
      plsim compare prophet schemer --games 500 --seed 1
      plsim compare warlord economist standard-3p --field judge-rush,random --games 1000
      plsim compare my_bot.py:Bot random --games 200 --out reports/bot
    """
    params["seating"] = seating
    with batch_errors():
        result = run_compare(a, b, games, scenario, options_from(params), field=field)
    echo_result(result)
