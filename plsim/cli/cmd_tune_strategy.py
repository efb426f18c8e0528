"""`plsim tune-strategy STRATEGY`: search a strategy's parameters for its win rate in a seat."""

from __future__ import annotations

import click

from plsim.cli import UsageFailure, main
from plsim.cli.runs import batch_errors, batch_options, options_from
from plsim.runner import SEAT_MODES


@main.command("tune-strategy")
@click.argument("strategy")
@click.argument("scenario", required=False)
@click.option("--field", help="Strategies in the other seats (comma-separated, cycled; default: the scenario's).")
@click.option("--space", type=click.Path(dir_okay=False), metavar="SPACE.toml",
              help="The parameters to search, one table each: low, high (step, log) or values. Default: every "
                   "numeric parameter from its lower bound to twice its default, every switch both ways.")
@click.option("--trials", type=click.IntRange(min=1), default=20, show_default=True, help="Points to play.")
@click.option("--games", type=click.IntRange(min=1), default=400, show_default=True,
              help="Games per trial, on the same seeds for every trial.")
@click.option("--batch", type=click.IntRange(min=1), help="Trials played at a time (default: one per worker).")
@click.option("--confirm-games", type=click.IntRange(min=0), help="Paired games of the confirmation (default: "
              "twice --games; 0: none).")
@click.option("--confirm-seed", type=int, help="The confirmation's fresh run seed (default: --seed + 1).")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="How the tuned seat moves from game to game.")
@batch_options
def tune_strategy_command(strategy, scenario, field, space, trials, games, batch, confirm_games, confirm_seed,
                          seating, **params) -> None:
    """Tune STRATEGY's parameters for its win rate in one seat against --field on SCENARIO.

    Every trial plays the strategy at one point of its parameters, on the same seeds and seats
    (optuna's TPE proposes the points); the best point is then played against the strategy as
    given, in the same seat on fresh seeds, and the paired difference (Newcombe interval,
    McNemar's p) says whether its gain holds. DIR/best.toml names the best point: --players
    DIR/best.toml plays it anywhere a strategy goes.

    Examples:

    \b
      plsim tune-strategy warlord --trials 20 --games 400 --seed 1 --out reports/tune-warlord
      plsim tune-strategy judge-rush standard-3p --field economist,warlord --space space.toml
    """
    from plsim.tune import SpaceError, StrategyTuneError, run_strategy_tune

    params["seating"] = seating
    with batch_errors():
        try:
            result = run_strategy_tune(strategy, scenario, field, space, trials, games, options_from(params),
                                       confirm_games, confirm_seed, batch,
                                       say=None if params.get("quiet") else lambda t: click.echo(t, err=True))
        except (StrategyTuneError, SpaceError) as exc:
            raise UsageFailure(str(exc)) from None
    click.echo(result.describe())
