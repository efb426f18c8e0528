"""The `plsim` command line: a click group whose commands live in the `cmd_*` modules beside it.

Each command module only parses options and calls library functions; errors a user can cause
are turned into a one-line message and exit code 2 by `UsageFailure`.
"""

from __future__ import annotations

import importlib
import pkgutil

import click

from plsim import __version__
from plsim.stopping import STOP, Stopped
from plsim.text import one_line


class UsageFailure(click.ClickException):
    """A one-line error caused by the user's input (bad scenario, unknown strategy, ...): exit 2."""

    exit_code = 2


class Interrupted(click.ClickException):
    """Ctrl-C or SIGTERM ended the command (``plsim.stopping``): exit 130."""

    exit_code = 130


class OneLineCommand(click.Command):
    """A command whose option errors are one line and exit 2, like every other input error."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise UsageFailure(one_line(f"{exc.format_message()} (see: plsim {self.name} --help)")) from None


class CommandGroup(click.Group):
    command_class = OneLineCommand

    def invoke(self, ctx: click.Context):
        """A stop where no run counted it is one line and exit 130."""
        try:
            return super().invoke(ctx)
        except Stopped:
            raise stopped() from None


def stopped(then: str = "") -> Interrupted:
    """The ``Interrupted`` for the stop that came (``then`` says what was kept); a Ctrl-C's line
    starts after the terminal's ``^C``."""
    if not STOP.terminated:
        click.echo(err=True)
    return Interrupted(one_line(f"{STOP.how}{then}"))


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="plsim")
def main() -> None:
    """plsim - play Promised Land headless, in batches, and read the balance."""


for _module in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("cmd_")):
    importlib.import_module(f"{__name__}.{_module}")
