"""The ``plsim`` console script: the command line, with the ends a terminal can bring.

Loading the commands takes a second or two (polars, matplotlib): Ctrl-C meanwhile, or anywhere
outside a run (which counts Ctrl-C itself), is one line and exit 130, not a traceback or
click's "Aborted!" with exit 1 — also when a library being imported swallows the interrupt. A
closed stdout (``plsim run | head``) ends quietly.
"""

from __future__ import annotations

import os
import signal
import sys

import click

INTERRUPTED = 130


def _load_commands() -> click.Group:
    """``plsim.cli.main``; KeyboardInterrupt if Ctrl-C came while it loaded, even if an import
    caught the KeyboardInterrupt it raised."""
    pressed: list[int] = []

    def interrupted(signum, frame) -> None:
        pressed.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        from plsim.cli import main as commands
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt
    return commands


def main() -> None:
    try:
        code = _load_commands().main(standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        code = exc.exit_code
    except (click.Abort, KeyboardInterrupt):
        print("Error: interrupted", file=sys.stderr)
        code = INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        code = 1
    sys.exit(code if isinstance(code, int) else 0)
