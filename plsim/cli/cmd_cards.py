"""`plsim cards`: the paired effect of changing each card kind's count, on common seeds."""

from __future__ import annotations

import click
from click.core import ParameterSource

from plsim.cards import CardsError, resume_cards, run_cards
from plsim.cli import UsageFailure, main
from plsim.cli.runs import (
    batch_errors, batch_options, echo_result, force_resume_option, how_overrides, options_from,
    refuse_lone_force_resume, refuse_plan_options,
)
from plsim.runfolder import GRID_FILE
from plsim.runner import DEFAULT_GAMES, DEFAULT_UNTIL_CI_GAMES
from plsim.text import one_line

PLAN_OPTIONS = ("scenario", "games", "change", "kinds", "players", "until_ci", "seed", "out", "force")


@main.command("cards")
@click.argument("scenario", required=False)
@click.option("--games", type=click.IntRange(min=1), default=DEFAULT_GAMES, show_default=True,
              help=f"Games per cell (with --until-ci: the most a kind plays; default then {DEFAULT_UNTIL_CI_GAMES:,}).")
@click.option("--change", default="remove", show_default=True, metavar="remove|double|COUNT",
              help="What each kind's cell does to its deck.<kind> count: remove it (0), double it, or set it to COUNT.")
@click.option("--kinds", metavar="A,B,...",
              help="Only these card kinds (deck keys: assassin, goliaths_sword, ...; default: every kind).")
@click.option("--players", help="Comma-separated strategy entries, cycled to the seats (default: the scenario's).")
@click.option("--until-ci", type=float, metavar="HALF_WIDTH",
              help="Play in blocks of 100 games from game 0; a kind stops once every paired win-rate effect's 95% "
                   "half-width is at most HALF_WIDTH, or at --games; the base plays as long as the longest kind.")
@click.option("--resume", type=click.Path(file_okay=False), metavar="DIR",
              help="Play only the games the cards folder DIR lacks (and its remaining --until-ci blocks), then "
                   "rebuild its files.")
@batch_options
@force_resume_option
@click.pass_context
def cards_command(ctx, scenario, games, change, kinds, players, until_ci, resume, **params) -> None:
    """Play SCENARIO (default standard-4p) and, on the same seeds and seats, one cell per card kind
    with that kind's count changed; report each kind's paired effect.

    Every cell is an ordinary run folder DIR/cells/<name>/ (base, deck.<kind>=<count>). Writes
    card_effects.csv: per kind and metric (every strategy's win rate, seat spread, mean rounds,
    invader releases) the effect (cell minus base over shared seeds) with its 95% interval, Holm's
    adjusted p-value over the kinds compared (p_holm) and the Bonferroni interval at 1 - 0.05/m
    for m kinds (adj_low, adj_high); card_effects.png (a forest plot), report.html and the sweep's
    per-cell tables. These are causal effects of the change in these games with these strategies;
    a cell's cards.csv shows associations (cards winners held), not effects.

    Kinds the change cannot apply to are skipped with a note: a count already 0, a general
    doubled (a general is one card), and any removal the rules cannot play (fewer generals than
    setup deals). A named kind (--kinds) set to a count the rules refuse is an error (exit 2).

    Examples:

    \b
      plsim cards --games 400 --seed 1
      plsim cards standard-4p --kinds assassin,ambush,plague --change double --games 1000
      plsim cards --until-ci 0.03 --games 3000 --out reports/cards
    """
    refuse_lone_force_resume(params, resume)
    if resume:
        refuse_plan_options(ctx, PLAN_OPTIONS, resume, GRID_FILE)
        with batch_errors():
            result = resume_cards(resume, **how_overrides(params))
        echo_result(result)
        return
    if until_ci is not None and ctx.get_parameter_source("games") != ParameterSource.COMMANDLINE:
        games = DEFAULT_UNTIL_CI_GAMES
    try:
        with batch_errors():
            result = run_cards(scenario, games, change, kinds, players, options_from(params), until_ci=until_ci)
    except CardsError as exc:
        raise UsageFailure(one_line(exc)) from None
    echo_result(result)
