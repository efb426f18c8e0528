"""Issue 45: the README a newcomer reads in five minutes is true. Every command it shows runs as
printed and prints the lines the README shows under it, as the strategy manual's worked example
plays as printed (tests/test_docs.py); its set-up commands are CI's (tests/test_setup.py)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from plsim.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TRIMMED = "..."  # a line of the README's output standing for the lines left out


def examples() -> list[tuple[str, list[str]]]:
    """Each ``$ plsim ...`` line of the README's text blocks, with the output lines shown under it."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```text\n(.*?)```", README.read_text(), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif found:
                found[-1][1].append(line)
    return found


def test_the_readme_reads_in_five_minutes_and_shows_every_main_use():
    lines = README.read_text().splitlines()
    assert 150 <= len(lines) < 200
    commands = [shlex.split(command)[1] for command, _ in examples()]
    assert {"play", "run", "sweep", "tune", "compare", "ladder"} <= set(commands)


@pytest.mark.parametrize("command, shown", examples(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_readme_command_runs_verbatim_and_prints_what_the_readme_shows(command, shown, tmp_path, monkeypatch):
    """Run in a fresh folder (its reports/ start empty) that sees the checkout's docs/ (the
    example search space) and examples/ (the example bots); the lines shown must come out in that order, TRIMMED skipping some."""
    words = shlex.split(command)
    assert words[0] == "plsim"
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 0, result.output
    printed, at = result.stdout.splitlines(), 0
    for line in shown:
        if line != TRIMMED:
            assert line in printed[at:], f"{command} no longer prints {line!r} (after the lines shown before it)"
            at = printed.index(line, at) + 1
