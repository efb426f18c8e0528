"""The ``plsim`` console script: the command line, with the ends a terminal can bring.

Loading the commands takes a second or two (polars, matplotlib): Ctrl-C meanwhile, or anywhere
outside a run (which counts Ctrl-C itself), is one line and exit 130, not a traceback or
click's "Aborted!" with exit 1. A closed stdout (``plsim run | head``) ends quietly.
"""

from __future__ import annotations

import os
import sys

import click

INTERRUPTED = 130


def main() -> None:
    try:
        from plsim.cli import main as commands

        code = commands.main(standalone_mode=False)
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
