"""`plsim sweep`: one batch per cell of a grid of rule values, player counts or scenarios."""

from __future__ import annotations

import click

from plsim.cli import UsageFailure, main
from plsim.cli.runs import (
    batch_errors, batch_options, force_resume_option, how_overrides, options_from, refuse_lone_force_resume,
    refuse_plan_options,
)
from plsim.runfolder import GRID_FILE
from plsim.runner import DEFAULT_GAMES, SEAT_MODES
from plsim.sweep import SweepError, format_sweep, resume_sweep, run_sweep
from plsim.text import one_line

PLAN_OPTIONS = ("scenario", "vary", "games", "players", "tiers", "seating", "seed", "out", "force", "baseline")


@main.command("sweep")
@click.argument("scenario", required=False)
@click.option("--vary", multiple=True, metavar="KEY=VALUES",
              help="A swept key and its values: a rule path (plsim scenarios --params), players or scenario; "
                   "VALUES a comma list or a range a..b / a..b:step. Up to three --vary, full grid.")
@click.option("--games", type=click.IntRange(min=1), default=DEFAULT_GAMES, show_default=True, help="Games per cell.")
@click.option("--players", help="Comma-separated strategy entries, cycled to each cell's seats (default: the scenario's).")
@click.option("--tiers", help="A ladder's tiers, lowest first (docs/ladder.md): every cell plays the ladder's tables "
                             "on common seeds instead of --players, and skill_gap joins its health and effects.")
@click.option("--baseline", multiple=True, metavar="KEY=VALUE",
              help="The cell the paired effects compare against (default: the scenario's own value when swept, "
                   "else the first).")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="rotate: each entry visits every seat in turn; random: shuffled per game; fixed: as listed.")
@click.option("--resume", type=click.Path(file_okay=False), metavar="DIR",
              help="Play only the games the sweep folder DIR lacks, then rebuild its tables.")
@batch_options
@force_resume_option
@click.pass_context
def sweep_command(ctx, scenario, vary, games, players, tiers, baseline, seating, resume, **params) -> None:
    """Play SCENARIO (default standard-4p) at every combination of the --vary values.

    Every cell is an ordinary run folder DIR/cells/<key=value,...>/ (plsim report reads it) and all
    cells play the same game seeds and seat rotations, as one queue of games for the workers.
    Writes sweep.csv (per cell and strategy: win rate with its 95% interval and the cell's health
    metrics), sweep_seats.csv, sweep_health.csv, effects.csv (each cell against the baseline,
    paired on seeds, with 95% intervals), sweep.png and report.html. Every key and value is checked
    before a game runs.

    Examples:

    \b
      plsim sweep --vary wrath.threshold=7,10,13,16 --games 400 --seed 1
      plsim sweep --vary players=2..6 --players economist,warlord,judge-rush,schemer,zealot --games 300
      plsim sweep --vary scenario=standard-4p,variants/short.toml --games 200 --out reports/variants
    """
    refuse_lone_force_resume(params, resume)
    if resume:
        refuse_plan_options(ctx, PLAN_OPTIONS, resume, GRID_FILE)
        with batch_errors():
            result = resume_sweep(resume, **how_overrides(params))
        click.echo(format_sweep(result))
        return
    if not vary:
        raise UsageFailure("plsim sweep needs at least one --vary KEY=VALUES, e.g. --vary wrath.threshold=7,10,13 "
                           "(keys: plsim scenarios --params)")
    params.update(seating=seating)
    try:
        with batch_errors():
            result = run_sweep(scenario, list(vary), players, games, options_from(params), list(baseline), tiers)
    except SweepError as exc:
        raise UsageFailure(one_line(exc)) from None
    click.echo(format_sweep(result))
