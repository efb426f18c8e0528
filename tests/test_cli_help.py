"""Issue 19: every --help reads cleanly, and the batch commands show how they are used."""

import shlex

import pytest
from click.testing import CliRunner

from plsim.cli import main


def help_text(*names: str) -> str:
    result = CliRunner().invoke(main, [*names, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.output


def examples(text: str) -> list[str]:
    """The command lines of the help's Examples section."""
    section = text.split("Examples:\n", 1)[1].split("\nOptions:", 1)[0]
    return [line.strip() for line in section.splitlines() if line.strip()]


@pytest.mark.parametrize("name", main.list_commands(None))
def test_no_help_shows_a_doubled_percent_sign(name):
    assert "%%" not in help_text(name)
    assert "%%" not in help_text()


@pytest.mark.parametrize("name", ["run", "sweep", "tune", "compare", "cards"])
def test_the_batch_commands_show_two_or_three_examples_that_parse(name):
    lines = examples(help_text(name))
    assert 2 <= len(lines) <= 3
    command = main.get_command(None, name)
    for line in lines:
        words = shlex.split(line)
        assert words[:2] == ["plsim", name]
        command.make_context(name, words[2:])  # raises on an unknown option or a bad value


def test_listing_the_commands_imports_none_of_them_nor_what_they_use():
    """Issue 60: ``plsim --help`` lists the commands from ``plsim.cli.COMMANDS`` alone; no command
    module, no frame, plot or statistics library, no engine is imported for it."""
    import subprocess
    import sys

    probe = ("import sys\nfrom click.testing import CliRunner\nfrom plsim.cli import main\n"
             "result = CliRunner().invoke(main, ['--help'])\nassert result.exit_code == 0, result.output\n"
             "heavy = ('polars', 'numpy', 'scipy', 'matplotlib', 'plsim.runner', 'plsim.engine', 'plsim.cli.cmd_')\n"
             "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_command_module_is_listed_and_says_its_line():
    """A ``cmd_*`` module not in ``COMMANDS`` would never load; a listed one's short help is its line."""
    import pkgutil

    import plsim.cli
    from plsim.cli import COMMANDS

    modules = sorted(m.name[4:].replace("_", "-") for m in pkgutil.iter_modules(plsim.cli.__path__)
                     if m.name.startswith("cmd_"))  # a dash in a command's name is an underscore in its module
    assert modules == sorted(COMMANDS) == main.list_commands(None)
    for name, line in COMMANDS.items():
        command = main.get_command(None, name)
        assert command.name == name and command.get_short_help_str(limit=200) == line
        assert len(line) <= 64, name  # one line beside the names in an 80-column terminal
