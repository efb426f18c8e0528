"""How a run plays its games: one typed, checked set of options shared by every kind of run.

``RunOptions`` says *how* (seed and seating, where the games run, where the results go, what a
fault does); a ``Cell`` (``plsim.runner.cell``) says *what*. ``run_batch``, tournaments,
comparisons and grids all take the same ``RunOptions``.
"""

from __future__ import annotations

import math
import os
import re
import shlex
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from plsim.runfolder import RunConfigError
from plsim.runner.seeding import SEAT_MODES

EXECUTORS = ("process", "dask")
ON_FAULT = ("stop", "skip")
DEFAULT_GAMES = 1000
DEFAULT_UNTIL_CI_GAMES = 100_000  # the most games --until-ci plays when --games is not given
DEFAULT_GAME_TIMEOUT = 600.0  # seconds; a game takes well under a second
DEFAULT_CONNECT_TIMEOUT = 15.0  # seconds a Dask scheduler may take to answer (it answers at once), or to come back


@dataclass(frozen=True)
class RunOptions:
    """The options of a run.

    ``workers=None`` uses every core (with ``scheduler``: every worker thread of the cluster).
    ``scheduler`` (``tcp://host:port``) sends the games to an existing Dask cluster and implies
    ``executor="dask"``; ``connect_timeout`` is how long it may take to answer, at the start or
    when it stops answering during the run, before the run gives it up. ``game_timeout`` is the seconds one game may take before the parent
    kills its worker and records a fault. ``on_fault``: ``stop`` finishes the games in flight and
    stops; ``skip`` records the fault and goes on. ``check`` runs every game in the engine's check
    mode. ``command`` is the command line that reproduces the run (the CLI passes its own; a
    library call gets one rebuilt from the options). ``force_resume`` lets a resume go on with
    other code than played the folder's games (the run then says they mix versions).
    """

    seed: int = 0
    seating: str = "rotate"
    workers: int | None = None
    executor: str = "process"
    scheduler: str | None = None
    out: str | Path | None = None
    force: bool = False
    csv: bool = False
    progress: bool = True
    game_timeout: float = DEFAULT_GAME_TIMEOUT
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT
    on_fault: str = "stop"
    check: bool = False
    command: str | None = None
    force_resume: bool = False

    def checked(self) -> "RunOptions":
        """These options with defaults filled in; ``RunConfigError`` (one line) if one is bad."""
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise RunConfigError(f"the seed must be a whole number, got {self.seed!r}")
        if self.seating not in SEAT_MODES:
            raise RunConfigError(f"unknown seating {self.seating!r} (choose {', '.join(SEAT_MODES)})")
        executor = "dask" if self.scheduler else self.executor
        if executor not in EXECUTORS:
            raise RunConfigError(f"unknown executor {self.executor!r} (choose {', '.join(EXECUTORS)})")
        if self.scheduler is not None:
            check_scheduler(self.scheduler)
        workers = self.workers
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise RunConfigError(f"workers must be at least 1, got {workers}")
        if workers is None and not self.scheduler:
            workers = default_workers()
        check_timeout(self.game_timeout)
        check_timeout(self.connect_timeout, "the scheduler's connect timeout")
        if self.on_fault not in ON_FAULT:
            raise RunConfigError(f"unknown --on-fault {self.on_fault!r} (choose {', '.join(ON_FAULT)})")
        return replace(self, executor=executor, workers=workers, game_timeout=float(self.game_timeout),
                       connect_timeout=float(self.connect_timeout))


def check_timeout(seconds: object, what: str = "the game timeout") -> float:
    """A timeout must be a positive, finite number of seconds."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise RunConfigError(f"{what} must be a number of seconds, got {seconds!r}")
    if not (math.isfinite(seconds) and seconds > 0):
        raise RunConfigError(f"{what} must be a positive, finite number of seconds, got {seconds}")
    return float(seconds)


# Dask's address forms: an optional protocol, a host (an IPv6 one in brackets) and a port.
SCHEDULER_ADDRESS = re.compile(r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]@]+):(?P<port>[0-9]{1,5})")


def check_scheduler(address: object) -> None:
    """A scheduler address Dask can dial, checked before anything connects: a malformed one made
    Dask raise deep inside its client (exit 1, a traceback at exit) or wait for a port no TCP has."""
    text = str(address).strip()
    if not text:
        raise RunConfigError("the dask scheduler address is empty (give tcp://HOST:PORT)")
    found = SCHEDULER_ADDRESS.fullmatch(text)
    if found is None or not 1 <= int(found["port"]) <= 65535:
        raise RunConfigError(f"the dask scheduler address {text!r} is not tcp://HOST:PORT (a port 1..65535)")


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def option_arguments(options: RunOptions, *, seating: bool = True) -> list[str]:
    """The command-line options that give ``options`` (defaults left out), for ``command``."""
    args = ["--seed", str(options.seed)]
    if seating and options.seating != "rotate":
        args += ["--seating", options.seating]
    if options.scheduler:
        args += ["--scheduler", str(options.scheduler)]
        if options.connect_timeout != DEFAULT_CONNECT_TIMEOUT:
            args += ["--connect-timeout", f"{options.connect_timeout:g}"]
    elif options.executor != "process":
        args += ["--executor", options.executor]
    if options.workers is not None:
        args += ["--workers", str(options.workers)]
    if options.out is not None:
        args += ["--out", str(options.out)]
    if options.csv:
        args.append("--csv")
    if options.game_timeout != DEFAULT_GAME_TIMEOUT:
        args += ["--game-timeout", f"{options.game_timeout:g}"]
    if options.on_fault != "stop":
        args += ["--on-fault", options.on_fault]
    if options.check:
        args.append("--check")
    return args


def command_line(words: list[str]) -> str:
    """``words`` as one shell-quoted line."""
    return shlex.join(words)


def invoked_command() -> str | None:
    """The command line as typed, when plsim was started as ``plsim`` (None in a library call)."""
    return command_line(["plsim", *sys.argv[1:]]) if Path(sys.argv[0]).name == "plsim" else None
