"""The ``plsim`` console script: the command line, with the ends a terminal can bring.

Ctrl-C and SIGTERM are handled one way for the command's whole life (``plsim.stopping``), from
before the commands load (a second or two: polars, matplotlib): a stop is one line and exit 130,
not a traceback, click's "Aborted!" with exit 1 or a silent 143 — also when a library being
imported swallows the interrupt. A closed stdout (``plsim run | head``) ends quietly. Nothing a
strategy started in this process (``play``, ``replay``) outlives the command: plsim is their
subreaper and ends them as it ends (``plsim.reaping``; worker processes have guardians of their own).
"""

from __future__ import annotations

import os
import sys

import click

from plsim import reaping
from plsim.stopping import STOP, Stopped

INTERRUPTED = 130


def _load_commands() -> click.Group:
    """``plsim.cli.main``; ``Stopped`` if Ctrl-C came while it loaded, even if an import caught
    the ``Stopped`` it raised or turned it into an error of its own (an extension module's
    "initialization failed")."""
    try:
        from plsim.cli import main as commands
    except Exception:
        if STOP.drain:
            raise Stopped(STOP.how) from None
        raise
    STOP.check()
    return commands


def main() -> None:
    STOP.install()
    reaping.become_subreaper()
    try:
        code = _load_commands().main(standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (click.Abort, KeyboardInterrupt):  # click turns a KeyboardInterrupt into Abort
        print(f"Error: {STOP.how}", file=sys.stderr)
        code = INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        code = 1
    finally:
        reaping.end_descendants()  # what a strategy played in this process started (play, replay)
    sys.exit(code if isinstance(code, int) else 0)
