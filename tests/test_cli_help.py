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


@pytest.mark.parametrize("name", sorted(main.commands))
def test_no_help_shows_a_doubled_percent_sign(name):
    assert "%%" not in help_text(name)
    assert "%%" not in help_text()


@pytest.mark.parametrize("name", ["run", "sweep", "tune", "compare", "cards"])
def test_the_batch_commands_show_two_or_three_examples_that_parse(name):
    lines = examples(help_text(name))
    assert 2 <= len(lines) <= 3
    command = main.commands[name]
    for line in lines:
        words = shlex.split(line)
        assert words[:2] == ["plsim", name]
        command.make_context(name, words[2:])  # raises on an unknown option or a bad value
