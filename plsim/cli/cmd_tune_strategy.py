"""`plsim tune-strategy STRATEGY`: search a strategy's parameters for its win rate in a seat."""

from __future__ import annotations

import click

from plsim.cli import UsageFailure, main
from plsim.cli.runs import (
    batch_errors, batch_options, force_resume_option, how_overrides, options_from, refuse_lone_force_resume,
    refuse_plan_options,
)
from plsim.runfolder import resolve_out
from plsim.runner import SEAT_MODES

PLAN_OPTIONS = ("scenario", "field", "space", "games", "batch", "confirm_games", "confirm_seed", "seating", "seed",
                "out", "force")


@main.command("tune-strategy")
@click.argument("strategy", required=False)
@click.argument("scenario", required=False)
@click.option("--field", help="Strategies in the other seats (comma-separated, cycled; default: the scenario's).")
@click.option("--space", type=click.Path(dir_okay=False), metavar="SPACE.toml",
              help="The parameters to search, one table each: low, high (step, log) or values. Default: every "
                   "numeric parameter from its lower bound to twice its default, every switch both ways.")
@click.option("--trials", type=click.IntRange(min=1), help="Points to play (default 20). With --resume: as "
              "planned, or this many in all (the one plan option a resume may change).")
@click.option("--games", type=click.IntRange(min=1), default=400, show_default=True,
              help="Games per trial, on the same seeds for every trial.")
@click.option("--batch", type=click.IntRange(min=1), help="Trials played at a time (default: one per worker).")
@click.option("--confirm-games", type=click.IntRange(min=0), help="Paired games of the confirmation (default: "
              "twice --games; 0: none).")
@click.option("--confirm-seed", type=int, help="The confirmation's fresh run seed (default: --seed + 1).")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="How the tuned seat moves from game to game.")
@click.option("--resume", type=click.Path(file_okay=False), metavar="DIR",
              help="Go on with the strategy tune in DIR: finish the trials it left running, play the rest, "
                   "confirm.")
@batch_options
@force_resume_option
@click.pass_context
def tune_strategy_command(ctx, strategy, scenario, field, space, trials, games, batch, confirm_games, confirm_seed,
                          seating, resume, **params) -> None:
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
      plsim tune-strategy --resume reports/tune-warlord
    """
    from plsim.tune import SpaceError, StrategyTuneError, resume_strategy_tune, run_strategy_tune

    refuse_lone_force_resume(params, resume)
    say = None if params.get("quiet") else (lambda t: click.echo(t, err=True))
    if resume:
        refuse_plan_options(ctx, PLAN_OPTIONS, resume, "tune_strategy.json")
        if strategy:
            raise UsageFailure(f"--resume takes the plan from {resume}/tune_strategy.json; drop STRATEGY")
        with batch_errors(f"plsim tune-strategy --resume {resume}"):
            result = resume_strategy_tune(resume, trials, say, **how_overrides(params))
        click.echo(result.describe())
        return
    if not strategy:
        raise UsageFailure("plsim tune-strategy needs STRATEGY (or --resume DIR)")
    params["seating"] = seating
    root = resolve_out(params.get("out"), "-tune-strategy")
    params.update(out=str(root))
    with batch_errors(f"plsim tune-strategy --resume {root}"):
        try:
            result = run_strategy_tune(strategy, scenario, field, space, trials or 20, games, options_from(params),
                                       confirm_games, confirm_seed, batch, say=say)
        except (StrategyTuneError, SpaceError) as exc:
            raise UsageFailure(str(exc)) from None
    click.echo(result.describe())
