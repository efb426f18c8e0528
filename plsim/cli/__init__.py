"""The `plsim` command line: a click group whose commands live in the `cmd_*` modules beside it.

Each command module only parses options and calls library functions; errors a user can cause
are turned into a one-line message and exit code 2 by `UsageFailure`.
"""

from __future__ import annotations

import importlib

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


#: every command: its module is ``plsim.cli.cmd_<name>``, loaded only when the command is asked
#: for, and its line in ``plsim --help`` (its short help: one declaration), so that listing the
#: commands imports none of them and what they use (tests/test_cli_help.py)
COMMANDS = {
    "cards": "Each card kind's paired effect, on common seeds and seats.",
    "compare": "Is strategy A better than B? Paired games on common seeds.",
    "ladder": "Tiers of graded skill against each other, and their trend.",
    "map": "Draw a board to a PNG.",
    "play": "Play one game and tell it round by round.",
    "replay": "One game of a run folder as an HTML page.",
    "report": "Rebuild a run folder's tables, plots and report.html.",
    "run": "Play a batch of games and report.",
    "scenarios": "List the scenarios, or every rule value of one.",
    "strategies": "List the strategies, or describe one.",
    "sweep": "One batch per cell of a grid of rules or player counts.",
    "tournament": "Every table from a list of strategies, and their ratings.",
    "tune": "Search rule values for an objective, confirmed on fresh seeds.",
    "tune-strategy": "Search a strategy's parameters for its win rate in a seat.",
}


class CommandGroup(click.Group):
    command_class = OneLineCommand

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command, its module imported on first use."""
        if name in COMMANDS and name not in self.commands:
            importlib.import_module(f"{__name__}.cmd_{name.replace('-', '_')}")
            self.commands[name].short_help = COMMANDS[name]
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands' lines from ``COMMANDS``, without importing any command."""
        with formatter.section("Commands"):
            formatter.write_dl(sorted(COMMANDS.items()))

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
