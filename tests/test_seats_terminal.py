"""Issue 62: a person at the terminal (``human``), played under a pseudo-terminal as a person
would: prompts read from the screen, answers typed, Ctrl-C and ``q`` to leave, ``--from`` to
come back."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from plsim.cli import main

PLSIM = str(Path(sys.executable).parent / "plsim")
PROMPT = re.compile(r"Your choice \(0-(\d+), \? board, q leave, or text to filter\): $")
LAST = lambda count, screen: str(count - 1)  # noqa: E731 - the last option: a pass where there is one


class Terminal:
    """plsim under a pseudo-terminal: what it printed, and a way to answer its prompts."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.master, slave = os.openpty()
        self.process = subprocess.Popen([PLSIM, *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                        env={**os.environ, "COLUMNS": "120"})
        os.close(slave)
        self.screen = ""

    def prompt(self, deadline_s: float = 60) -> int | None:
        """Read until the next prompt (its option count) or the end of plsim (None)."""
        start = len(self.screen)
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the other side closed: plsim ended
                    return None
                if not chunk:
                    return None
                self.screen += chunk.decode(errors="replace").replace("\r\n", "\n")
                found = PROMPT.search(self.screen, start)
                if found:
                    return int(found.group(1)) + 1
            elif self.process.poll() is not None:
                return None
        raise AssertionError(f"no prompt within {deadline_s} s; the screen ends: {self.screen[-2000:]}")

    def type(self, text: str) -> None:
        os.write(self.master, (text + "\n").encode())

    def play(self, answer=LAST, stop_after: int | None = None, stop_with: str = "q") -> int:
        """Answer every prompt with ``answer(count, screen)`` (after ``stop_after`` prompts, type
        ``stop_with``); returns plsim's exit code."""
        asked = 0
        while (count := self.prompt()) is not None:
            asked += 1
            if stop_after is not None and asked > stop_after:
                if stop_with == "ctrl-c":
                    self.process.send_signal(signal.SIGINT)
                else:
                    self.type(stop_with)
                stop_after = None
                continue
            self.type(answer(count, self.screen))
        self.asked = asked
        code = self.process.wait(30)
        os.close(self.master)
        return code


def result_line(screen: str) -> str:
    return next(line for line in reversed(screen.splitlines()) if line.startswith("Result:"))


def test_a_person_plays_a_whole_game_at_the_terminal_between_bots(tmp_path):
    term = Terminal(["play", "standard-3p", "--players", "random,human,judge-rush", "--seed", "4"], tmp_path)
    assert term.play() == 0, term.screen[-3000:]
    screen = term.screen
    assert term.asked > 20
    assert "--- seat 1, your decision ---" in screen and "--- seat 0, your decision" not in screen
    assert "Choose your home settlement (SU-2)." in screen and "You are seat 1:" in screen
    assert re.search(r"move \w+ to .+ \(cost \d+\)", screen)
    assert "== Round 2" in screen and "standings:" in screen  # the bots' turns told between the prompts
    assert result_line(screen)


def test_the_board_the_facts_and_a_filter_at_the_prompt(tmp_path):
    term = Terminal(["play", "standard-3p", "--players", "human,random,random", "--seed", "2"], tmp_path)
    assert term.prompt() is not None
    term.type("?")
    assert term.prompt() is not None
    term.type("Israel")
    assert term.prompt() is not None
    assert "Round 1, announcements; Wrath 0" in term.screen and "Outside the regions:" in term.screen
    shown = term.screen.rsplit("Your choice", 2)[-2].splitlines()
    listed = [line for line in shown if re.match(r"\s+\d+\) ", line)]
    assert listed and all("Israel" in line for line in listed)
    term.type("99")
    term.prompt()
    assert "There is no option 99" in term.screen
    term.type("q")
    assert term.process.wait(30) == 0
    os.close(term.master)


def test_q_saves_the_game_and_from_goes_on_to_the_same_end(tmp_path):
    """The game a person leaves and comes back to ends as the game played in one sitting, the
    bots replayed to what they knew (their history) without asking the person again."""
    args = ["play", "standard-3p", "--players", "human,warlord,economist", "--seed", "6"]
    whole = Terminal(args, tmp_path)
    assert whole.play() == 0
    left = Terminal(args, tmp_path)
    assert left.play(stop_after=40) == 0
    saved = tmp_path / "plsim-game-seed6.json"
    assert f"Game saved to {saved.name}; go on with: plsim play --from {saved.name}" in left.screen
    back = Terminal(["play", "--from", saved.name], tmp_path)
    assert back.play() == 0, back.screen[-2000:]
    assert left.asked + back.asked - 1 == whole.asked
    assert result_line(back.screen) == result_line(whole.screen)


def test_ctrl_c_saves_the_game_where_save_says_and_exits_130(tmp_path):
    term = Terminal(["play", "--players", "human,random,random,random", "--seed", "1", "--save", "mine.json"],
                    tmp_path)
    assert term.play(stop_after=10, stop_with="ctrl-c") == 130
    assert "Game saved to mine.json" in term.screen and (tmp_path / "mine.json").is_file()
    assert "Traceback" not in term.screen


def test_hot_seat_two_people_at_one_terminal_and_the_replay(tmp_path):
    term = Terminal(["play", "standard-3p", "--players", "human,human,random", "--seed", "3",
                     "--html", "game.html"], tmp_path)
    assert term.play() == 0, term.screen[-2000:]
    assert "--- seat 0, your decision ---" in term.screen and "--- seat 1, your decision ---" in term.screen
    assert "replay written to game.html" in term.screen and (tmp_path / "game.html").stat().st_size > 10_000


def test_a_batch_refuses_a_person_in_one_line():
    result = CliRunner().invoke(main, ["run", "--players", "human,random", "--games", "2"])
    assert result.exit_code == 2 and "is a person at the terminal" in result.output
    assert "Traceback" not in result.output


def test_a_person_who_leaves_a_game_recorded_for_html_saves_it_too(tmp_path):
    args = ["play", "standard-3p", "--players", "human,random,judge-rush", "--seed", "8", "--html", "game.html"]
    left = Terminal(args, tmp_path)
    assert left.play(stop_after=25) == 0, left.screen[-2000:]
    saved = tmp_path / "plsim-game-seed8.json"
    assert f"Game saved to {saved.name}" in left.screen and saved.is_file()
    back = Terminal(["play", "--from", saved.name], tmp_path)
    assert back.play() == 0 and result_line(back.screen)
