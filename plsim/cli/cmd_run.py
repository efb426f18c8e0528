"""`plsim run`: a batch of games on worker processes, streamed to Parquet, with a report."""

from __future__ import annotations

from pathlib import Path

import click
from click.core import ParameterSource

from plsim.cards import cards_info, resume_cards
from plsim.cli import UsageFailure, main
from plsim.cli.runs import (
    batch_errors, batch_options, echo_result, force_resume_option, how_overrides, options_from, oracle_options,
    refuse_lone_force_resume, refuse_plan_options,
)
from plsim.replay import add_moments, add_replays, moments_line, oracle_of, replays_line
from plsim.runfolder import GRID_FILE, RUN_INFO_FILE
from plsim.runner import DEFAULT_GAMES, DEFAULT_UNTIL_CI_GAMES, SEAT_MODES
from plsim.runs import resume_run, run_batch
from plsim.sweep import format_sweep, resume_sweep, sweep_info
from plsim.text import one_line

PLAN_OPTIONS = ("scenario", "games", "players", "seating", "seed", "out", "force", "until_ci")


@main.command("run")
@click.argument("scenario", required=False)
@click.option("--games", type=click.IntRange(min=1), default=DEFAULT_GAMES, show_default=True,
              help="How many games; with --resume, how many a table the run grows to (a comparison: pairs).")
@click.option("--players", help="Comma-separated strategy entries, one per seat; a shorter list is cycled (default: the scenario's).")
@click.option("--until-ci", type=float, metavar="HALF_WIDTH",
              help="Play in blocks of 100 games until every strategy's 95% interval is at most ±HALF_WIDTH "
                   f"(e.g. 0.02), or --games are played (default with --until-ci: {DEFAULT_UNTIL_CI_GAMES:,}).")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="rotate: each entry visits every seat in turn; random: shuffled per game; fixed: as listed.")
@click.option("--resume", "resume", type=click.Path(file_okay=False), metavar="DIR",
              help="Play only the games the run folder DIR lacks (a run, tournament, comparison or grid), "
                   "with the plan saved in its run.json.")
@click.option("--replays", type=click.IntRange(min=0), default=0, metavar="K",
              help="Write replays of up to K telling games (the longest, a round-limit game, invaders, a win "
                   "of each seat, a fault) into the run's replays/ folder, linked from report.html.")
@oracle_options
@batch_options
@force_resume_option
@click.pass_context
def run_command(ctx, scenario, games, players, seating, until_ci, resume, replays, oracle, oracle_games, oracle_every,
                **params) -> None:
    """Play a batch of SCENARIO games (default: standard-4p, its strategies, 1,000 games) and report.

    Writes games.parquet, rounds.parquet, summary.csv, seats.csv, end_reasons.csv, run.json and
    winrates.png, wrath.png, length.png, vp.png into the --out folder, and faults.csv if a game
    failed. Each game's seed comes from --seed and the game's index only: any --workers or
    executor gives the same games.

    A game that fails is a fault: with --on-fault stop (the default) the games in flight finish
    and the run stops, exit 2 (1 for an engine error), the message telling how to replay the game
    with plsim play; with --on-fault skip it is recorded in faults.csv and the run goes on.
    Ctrl-C once finishes the games in flight, twice (or SIGTERM) stops at once; exit 130. Every
    finished game is kept and reported, and --resume DIR plays the rest. With --resume, --games N
    grows the run (a comparison: to N pairs; a tournament or ladder: N games a table): the games
    already played are the first N's, so the grown run equals one asked for N at the start. Bad
    input exits 2 before any game is played.

    --until-ci 0.02 plays games 0, 1, 2 ... in blocks and stops after the first whole block at
    which every strategy's win rate is known to ±2 percentage points (95% interval), or at
    --games: the games are exactly the first N of a fixed run, and the summary and run.json
    (stopped_by) say which limit stopped it.

    Examples:

    \b
      plsim run --games 400 --seed 1 --out reports/tour
      plsim run standard-4p --players prophet,economist,warlord,judge-rush --until-ci 0.02
      plsim run --resume reports/tour --games 2000 --on-fault skip
    """
    refuse_lone_force_resume(params, resume)
    if resume:
        if replays:
            raise UsageFailure(f"--replays does not go with --resume: once the run is complete, "
                               f"plsim report {resume} --replays {replays} writes them")
        if oracle:
            raise UsageFailure(f"--oracle does not go with --resume: once the run is complete, "
                               f"plsim report {resume} --oracle {oracle} reads its games")
        if sweep_info(Path(resume)) is not None:
            refuse_plan_options(ctx, PLAN_OPTIONS, resume, GRID_FILE)
            with batch_errors():
                click.echo(format_sweep(resume_sweep(resume, **how_overrides(params))))
            return
        if cards_info(Path(resume)) is not None:
            refuse_plan_options(ctx, PLAN_OPTIONS, resume, GRID_FILE)
            with batch_errors():
                echo_result(resume_cards(resume, **how_overrides(params)))
            return
        refuse_plan_options(ctx, tuple(name for name in PLAN_OPTIONS if name != "games"), resume, RUN_INFO_FILE)
        grow = games if ctx.get_parameter_source("games") == ParameterSource.COMMANDLINE else None
        with batch_errors():
            results = resume_run(resume, games_per_lineup=grow, **how_overrides(params))
        for result in results:
            echo_result(result)
        return
    if oracle:
        try:
            oracle_of(oracle)
        except ValueError as exc:
            raise UsageFailure(one_line(exc)) from None
    params.update(seed=params["seed"], seating=seating)
    if until_ci is not None and ctx.get_parameter_source("games") != ParameterSource.COMMANDLINE:
        games = DEFAULT_UNTIL_CI_GAMES
    with batch_errors():
        result = run_batch(scenario, players, games, options_from(params), until_ci=until_ci)
    echo_result(result)
    if replays:
        try:
            written = add_replays(result.report, replays)
        except (OSError, ValueError) as exc:
            raise UsageFailure(one_line(exc)) from None
        click.echo(replays_line(result.out_dir, written))
    if oracle:
        try:
            read = add_moments(result.report, oracle, oracle_games, oracle_every)
        except (OSError, ValueError) as exc:
            raise UsageFailure(one_line(exc)) from None
        click.echo(moments_line(result.out_dir, read))
