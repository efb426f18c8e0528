"""What ``plsim run``, ``tournament``, ``compare``, ``ladder``, ``sweep`` and ``tune`` share: their
options, their exit codes and how a finished run is printed.

The options become one ``RunOptions``; every way a run can end becomes one line and a documented
exit code: bad input 2 (nothing played); a fault under ``--on-fault stop`` 2 (1 if the engine
failed, an engine bug); every game a fault under ``--on-fault skip`` 2; a full disk or an unwritable folder 2; workers that cannot be kept
running, or any error of plsim's own, 1; Ctrl-C or SIGTERM 130. Whatever the end, the finished
games were kept.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, Protocol

import click
from click.core import ParameterSource

from plsim.board import MapError
from plsim.cli import Interrupted, UsageFailure
from plsim.rules import RulesError
from plsim.runfolder import RunConfigError
from plsim.runner import (
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_GAME_TIMEOUT, EXECUTORS, ON_FAULT, GameFailed, NothingPlayed, OutputUnwritable, PoolFailed, RunCrashed,
    RunInterrupted, RunOptions, check_timeout, invoked_command,
)
from plsim.scenario import ScenarioError
from plsim.strategy.registry import StrategyLoadError
from plsim.text import one_line

USER_ERRORS = (ScenarioError, StrategyLoadError, MapError, RulesError, RunConfigError)


class EngineFailure(click.ClickException):
    """A failure that is not the user's input (an engine bug, workers that keep dying): exit 1."""

    exit_code = 1


def resume_hint(exc: Exception, command: str | None = None) -> str:
    """How to go on: ``command`` (a command whose runs are parts of a larger whole, such as a
    strategy tune), or plsim run --resume on the run's folder."""
    if command:
        return f"; resume with: {command}"
    folder = exc.result.out_dir if len(exc.results) == 1 else exc.result.out_dir.parent.parent
    return f"; resume with: plsim run --resume {folder}"


@contextmanager
def batch_errors(resume: str | None = None) -> Iterator[None]:
    """Turn a run's exceptions into one-line messages and the documented exit codes; ``resume``:
    the command that goes on after a stop, when it is not plsim run --resume."""
    try:
        yield
    except USER_ERRORS as exc:
        raise UsageFailure(one_line(exc)) from None
    except GameFailed as exc:
        if exc.is_strategy_error:
            raise UsageFailure(one_line(f"{exc}{resume_hint(exc, resume)}")) from None
        raise EngineFailure(one_line(f"{exc} (traceback in {exc.fault_folder / 'faults.log'})"
                                     f"{resume_hint(exc, resume)}")) from None
    except PoolFailed as exc:  # the machines', not plsim's: workers that cannot be kept, a scheduler gone
        raise UsageFailure(one_line(f"{exc}{resume_hint(exc, resume)}")) from None
    except NothingPlayed as exc:
        raise UsageFailure(one_line(exc)) from None
    except RunInterrupted as exc:
        raise Interrupted(one_line(f"{exc}; the report covers them"
                                   f"{'' if exc.complete else resume_hint(exc, resume)}")) from None
    except OutputUnwritable as exc:
        raise UsageFailure(one_line(exc)) from None
    except RunCrashed as exc:
        raise EngineFailure(one_line(exc)) from None


class Printable(Protocol):
    """A finished run of any kind: ``plsim.runner.RunResult`` or a ``plsim.runs`` result."""

    def text(self) -> str: ...

    def note(self) -> str | None: ...


def echo_result(result: Printable) -> None:
    """Print what a run prints when it ends: its text, and its note (faults left out) on stderr."""
    click.echo(result.text())
    note = result.note()
    if note:
        click.echo(note, err=True)


def _timeout(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is None:
        return None
    try:
        return check_timeout(value)
    except RunConfigError as exc:
        raise click.BadParameter(str(exc)) from None


def _connect_timeout(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is None:
        return None
    try:
        return check_timeout(value, "the connect timeout")
    except RunConfigError as exc:
        raise click.BadParameter(str(exc)) from None


def batch_options(func):
    """Options shared by run, tournament and compare."""
    for decorator in reversed([
        click.option("--seed", type=int, default=0, show_default=True,
                     help="The run's seed; each game's seed derives from it and the game's index."),
        click.option("--workers", type=click.IntRange(min=1),
                     help="Worker processes (default: every core; with --scheduler: every worker thread)."),
        click.option("--out", type=click.Path(file_okay=False), help="Report folder (default: reports/<timestamp>)."),
        click.option("--force", is_flag=True, help="Overwrite a folder that already holds a run."),
        click.option("--csv", is_flag=True, help="Write games.csv and rounds.csv beside the Parquet files."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
        click.option("--game-timeout", type=float, callback=_timeout,
                     help=f"Seconds one game may take; past it the parent kills its worker and records "
                          f"a fault (a positive number; default {DEFAULT_GAME_TIMEOUT:g})."),
        click.option("--on-fault", type=click.Choice(ON_FAULT),
                     help="A game that fails (a strategy raises or hangs, a worker dies): stop finishes the "
                          "games in flight and stops (exit 2); skip records it in faults.csv and goes on. "
                          "Default: stop."),
        click.option("--check/--no-check", default=None,
                     help="Play every game in the engine's check mode (invariants, and any change a strategy makes "
                          "to the game), or not. Default: not, or as the run being resumed was started."),
        click.option("--executor", type=click.Choice(EXECUTORS),
                     help="process: local worker processes (default); dask: a local Dask cluster (pip install plsim[dask])."),
        click.option("--scheduler", metavar="TCP://HOST:PORT",
                     help="Send the games to an existing Dask cluster (implies --executor dask); see docs/scale-out.md."),
        click.option("--connect-timeout", type=float, callback=_connect_timeout, metavar="SECONDS",
                     help=f"With --scheduler: seconds the scheduler may take to answer, at the start or when it "
                          f"stops answering mid-run, before the run gives it up (default {DEFAULT_CONNECT_TIMEOUT:g})."),
    ]):
        func = decorator(func)
    return func


def oracle_options(func):
    """``--oracle`` and its two settings, shared by ``plsim run`` and ``plsim report``."""
    func = click.option("--oracle-every", type=click.IntRange(min=1), default=7, show_default=True, metavar="N",
                        help="With --oracle: read the chances after every N-th step of the replay (7: once a "
                             "round, after its Victory phase).")(func)
    func = click.option("--oracle-games", type=click.IntRange(min=1), default=3, show_default=True, metavar="K",
                        help="With --oracle: read up to K games worth watching (the games --replays picks).")(func)
    return click.option("--oracle", metavar="STRATEGY",
                        help="Read every seat's chance of winning along some games with this search strategy "
                             "(e.g. rollout:oracle_worlds=32): oracle.csv, oracle_games.csv, moments.csv, their "
                             "replays, and the Decisive moments of report.html, linked to the replay at each "
                             "swing.")(func)


def refuse_plan_options(ctx: click.Context, names: tuple[str, ...], folder: str, plan_file: str) -> None:
    """--resume takes the plan from the folder: an option that would change it is one line, exit 2."""
    given = [f"--{name.replace('_', '-')}" if name != "scenario" else "SCENARIO" for name in names
             if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE]
    if given:
        raise UsageFailure(f"--resume takes the plan from {folder}/{plan_file}; drop {', '.join(given)}")


def how_overrides(params: dict[str, Any]) -> dict[str, Any]:
    """The options given on the command line that say how the games run (for --resume too: an
    option not given is not here, so a resume keeps what the run was started with)."""
    given = {
        "workers": params.get("workers"), "executor": params.get("executor"), "scheduler": params.get("scheduler"),
        "connect_timeout": params.get("connect_timeout"), "game_timeout": params.get("game_timeout"), "on_fault": params.get("on_fault"), "check": params.get("check"),
        "csv": params.get("csv") or None,  # a flag: given, or not said
    }
    overrides = {key: value for key, value in given.items() if value is not None}
    overrides["progress"] = not params.get("quiet")
    if params.get("force_resume"):
        overrides["force_resume"] = True
    return overrides


def force_resume_option(func):
    """``--force-resume``, for the commands that take ``--resume DIR``."""
    return click.option("--force-resume", is_flag=True,
                        help="With --resume: go on although plsim or a strategy's files changed since the run "
                             "started (refused otherwise); its games then mix versions, and run.json says so.")(func)


def refuse_lone_force_resume(params: dict[str, Any], resume: str | None) -> None:
    if params.get("force_resume") and not resume:
        raise UsageFailure("--force-resume goes with --resume DIR")


def options_from(params: dict[str, Any]) -> RunOptions:
    """``RunOptions`` from a command's parsed options."""
    return RunOptions(
        seed=params["seed"], seating=params.get("seating") or "rotate", out=params.get("out"),
        force=params["force"], command=invoked_command(), **how_overrides(params),
    )
