"""`plsim tune`: search a space of rule values for the objective(s), confirm the best on fresh seeds."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import click

from plsim.cli import Interrupted, UsageFailure, main, stopped
from plsim.cli.runs import (
    EngineFailure, batch_errors, batch_options, force_resume_option, how_overrides, options_from,
    refuse_lone_force_resume, refuse_plan_options,
)
from plsim.runfolder import resolve_out
from plsim.runner import GameFailed, OutputUnwritable, PoolFailed, RunCrashed, RunInterrupted, RunStopped
from plsim.text import one_line
from plsim.tune import (
    TUNE_FILE, ObjectiveError, SpaceError, TuneError, format_tune, read_tune_info, resume_tune, run_tune,
)

PLAN_OPTIONS = ("scenario", "space", "objective", "games", "players", "tiers", "seed", "out", "force", "confirm_games",
                "confirm_seed", "batch")


@contextmanager
def tune_errors(root: Path) -> Iterator[None]:
    """One line and the documented exit code for every way a tune ends early."""
    hint = f"; the tune's files cover what finished; resume with: plsim tune --resume {root}"
    try:
        with batch_errors():
            try:
                yield
            except RunStopped as exc:
                if isinstance(exc, GameFailed) and exc.is_strategy_error:
                    raise UsageFailure(one_line(f"{exc}{hint}")) from None
                if isinstance(exc, (GameFailed, PoolFailed)):
                    raise EngineFailure(one_line(f"{exc}{hint}")) from None
                if isinstance(exc, RunInterrupted):
                    raise Interrupted(one_line(f"{interrupted_batch(root, exc)}{hint}")) from None
                raise
            except RunCrashed as exc:
                failure = UsageFailure if isinstance(exc, OutputUnwritable) else EngineFailure
                raise failure(one_line(f"{exc.detail}{hint}")) from None
            except KeyboardInterrupt:  # a stop between two batches (plsim.stopping)
                raise stopped(hint) from None
    except (SpaceError, ObjectiveError, TuneError) as exc:
        raise UsageFailure(one_line(exc)) from None


def interrupted_batch(root: Path, exc: RunInterrupted) -> str:
    """A stop inside a batch, in the tune's own terms: the trials tune.json counts, and the
    finished games of the batch's unfinished trials, which a resume keeps and completes."""
    counted = (read_tune_info(root) or {}).get("trials_counted", 0)
    games = sum(result.totals["games"] for result in exc.results)
    return (f"{exc.how}: {counted} trial{'s' if counted != 1 else ''} finished and counted in tune.json; the batch in "
            f"flight stopped with {games:,} finished game{'s' if games != 1 else ''} of its trials, kept for the "
            f"resume to complete")


@main.command("tune")
@click.argument("scenario", required=False)
@click.option("--space", type=click.Path(dir_okay=False), metavar="SPACE.toml",
              help="The search space: one table per rule parameter, a range (low, high, step or log) or "
                   "values = [...]; see docs/tune.md.")
@click.option("--objective", multiple=True, metavar="EXPR",
              help="What to minimise, from the health metrics: seat_spread, 'seat_spread + 0.5*dominance', "
                   "'rounds_mean in 20..35', 'victory_share >= 0.9'. Several make a Pareto front "
                   "(NSGA-II). Default: seat_spread.")
@click.option("--trials", type=click.IntRange(min=1), help="Points of the space to play (default 20). With "
              "--resume: as planned, or this many in all (the one plan option a resume may change).")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True, help="Games per trial.")
@click.option("--players", help="Comma-separated strategy entries, cycled to the seats (default: the scenario's).")
@click.option("--tiers", help="A ladder's tiers, lowest first (docs/ladder.md): every trial plays the ladder's "
                             "tables instead of --players; needed by --objective skill_gap (e.g. -skill_gap to "
                             "maximise it).")
@click.option("--confirm-games", type=click.IntRange(min=0),
              help="Games of the best and of the base on fresh seeds (default: twice --games; 0: no confirmation).")
@click.option("--confirm-seed", type=int, help="The confirmation's seed (default: --seed plus 1; never --seed).")
@click.option("--batch", type=click.IntRange(min=1),
              help="Trials asked from optuna and played as one queue of games (default: one per worker).")
@click.option("--resume", type=click.Path(file_okay=False), metavar="DIR",
              help="Go on with the tune in DIR: finish the trials it left running, play the rest, confirm.")
@batch_options
@force_resume_option
@click.pass_context
def tune_command(ctx, scenario, space, objective, trials, games, players, tiers, confirm_games, confirm_seed,
                 batch, resume, **params) -> None:
    """Search SCENARIO's rules (default standard-4p) for values that minimise the --objective.

    Every trial is an ordinary run folder DIR/trials/trial-NNNN/ and all trials play the same game
    seeds and seat rotations; optuna (TPE, or NSGA-II for several objectives) proposes the points,
    a batch at a time, played as one queue of games. The study is kept in DIR/study.db. Writes
    trials.csv, history.png, importances.png, best.toml (a scenario for plsim run), the best
    against the base on fresh seeds (confirm/, confirm.csv) with a verdict, tune.json and
    report.html. Everything is checked before a game runs.

    Examples:

    \b
      plsim tune --space docs/examples/seats-space.toml --objective seat_spread --trials 10 --games 100
      plsim tune --space space.toml --objective seat_spread --objective 'rounds_mean in 20..35' --trials 30
      plsim tune --resume reports/tune-seats --trials 20
    """
    refuse_lone_force_resume(params, resume)
    if resume:
        refuse_plan_options(ctx, PLAN_OPTIONS, resume, TUNE_FILE)
        with tune_errors(Path(resume)):
            result = resume_tune(resume, trials, **how_overrides(params))
        click.echo(format_tune(result))
        return
    if not space:
        raise UsageFailure("plsim tune needs --space SPACE.toml (one table per rule parameter; see docs/tune.md)")
    root = resolve_out(params.get("out"), "-tune")
    params.update(out=str(root))
    with tune_errors(root):
        result = run_tune(scenario, space, list(objective), trials or 20, games, players, options_from(params),
                          confirm_games, confirm_seed, batch, tiers=tiers)
    click.echo(format_tune(result))
