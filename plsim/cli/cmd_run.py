"""`plsim run`: a batch of games on worker processes, streamed to Parquet, with a report."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import click

from plsim.board import MapError
from plsim.cli import UsageFailure, main, one_line
from plsim.rules import RulesError
from plsim.runner.batch import (
    DEFAULT_GAMES, EXECUTORS, ChunkLost, GameFailed, RunConfigError, RunInterrupted, RunResult, run_batch,
)
from plsim.runner.report import format_summary
from plsim.runner.seeding import SEAT_MODES
from plsim.scenario import ScenarioError
from plsim.strategy.registry import StrategyLoadError

USER_ERRORS = (ScenarioError, StrategyLoadError, MapError, RulesError, RunConfigError)


class EngineFailure(click.ClickException):
    """A failure that is not the user's input (an engine bug, a dead worker): exit 1."""

    exit_code = 1


class Interrupted(click.ClickException):
    exit_code = 130


@contextmanager
def batch_errors() -> Iterator[None]:
    """Turn a batch's exceptions into one-line messages and the documented exit codes.

    Bad input: 2. A strategy that raised or answered illegally: 2 (after the finished games were
    kept and reported). An engine bug or a lost worker: 1. Ctrl-C: 130.
    """
    try:
        yield
    except USER_ERRORS as exc:
        raise UsageFailure(one_line(exc)) from None
    except GameFailed as exc:
        if exc.is_strategy_error:
            raise UsageFailure(one_line(exc)) from None
        raise EngineFailure(one_line(f"{exc} (traceback in {exc.result.out_dir / 'error.txt'})")) from None
    except ChunkLost as exc:
        raise EngineFailure(one_line(exc)) from None
    except RunInterrupted as exc:
        raise Interrupted(one_line(f"{exc}; the report covers them")) from None


def totals_line(result: RunResult) -> str:
    t = result.totals
    wall = t["wall_seconds"] or 1e-9
    return (
        f"Played {t['games']:,} games, {t['decisions']:,} decisions in {t['wall_seconds']:.1f} s "
        f"({t['games'] / wall:,.1f} games/s; {t['seconds_in_games']:.1f} s inside games "
        f"on {result.run_info.get('workers', 1)} worker(s))"
    )


def batch_options(func):
    """Options shared by run, tournament and compare."""
    for decorator in reversed([
        click.option("--seed", type=int, default=0, show_default=True, help="The run's seed; each game's seed derives from it and the game's index."),
        click.option("--workers", type=click.IntRange(min=1), help="Worker processes (default: every core; 1 plays in this process)."),
        click.option("--out", type=click.Path(file_okay=False), help="Report folder (default: reports/<timestamp>)."),
        click.option("--force", is_flag=True, help="Overwrite a folder that already holds a run."),
        click.option("--csv", is_flag=True, help="Write games.csv and rounds.csv beside the Parquet files."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        click.option("--chunk-size", type=click.IntRange(min=1), help="Games per chunk a worker plays (default: up to 50)."),
        click.option("--game-timeout", type=click.FloatRange(min=0), default=600, show_default=True,
                     help="Seconds one game may take before the run stops as if the engine failed (0: no limit)."),
        click.option("--executor", type=click.Choice(EXECUTORS), default="process", show_default=True,
                     help="process: a local process pool; dask: a dask.distributed LocalCluster (pip install plsim[dask])."),
    ]):
        func = decorator(func)
    return func


@main.command("run")
@click.argument("scenario", required=False)
@click.option("--games", type=click.IntRange(min=1), default=DEFAULT_GAMES, show_default=True, help="How many games.")
@click.option("--players", help="Comma-separated strategy entries, one per seat; a shorter list is cycled (default: the scenario's).")
@click.option("--seating", type=click.Choice(SEAT_MODES), default="rotate", show_default=True,
              help="rotate: each entry visits every seat in turn; random: shuffled per game; fixed: as listed.")
@batch_options
def run_command(scenario, games, players, seating, seed, workers, out, force, csv, quiet, chunk_size,
                game_timeout, executor) -> None:
    """Play a batch of SCENARIO games (default: standard-4p, its strategies, 1,000 games) and report.

    Writes games.parquet, rounds.parquet, summary.csv, seats.csv, end_reasons.csv, run.json and
    winrates.png, wrath.png, length.png, vp.png into the --out folder. Each game's seed comes
    from --seed and the game's index only: any --workers gives the same games.

    If a game fails, or on Ctrl-C, the finished games are kept and reported; the exit code is 2
    for a strategy's error (the message tells how to replay the game with plsim play), 1 for an
    engine error or a game past --game-timeout, 130 for Ctrl-C. Bad input exits 2 before any game is played.
    """
    with batch_errors():
        result = run_batch(
            scenario, players, games=games, workers=workers, seed=seed, out=out, seating=seating,
            csv=csv, progress=not quiet, chunk_size=chunk_size, executor=executor, force=force,
            game_timeout=game_timeout or None,
        )
    click.echo(format_summary(result.report))
    click.echo(totals_line(result))
