"""A person at the terminal answering a seat's decisions: the decision message (``protocol``)
printed as text, answered by number.

At the prompt: a number picks that option; ``?`` prints the board; ``f`` the facts again; any
other text shows only the options whose sentence holds it (``Joab``, ``Jericho``, ``buy``);
``q`` (or the end of the input) leaves the table, which ``plsim play`` answers by saving the
game so ``--from`` goes on with it.
"""

from __future__ import annotations

import os
import select
import sys
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

from plsim.seats.describe import Describer
from plsim.seats.protocol import decision_message

if TYPE_CHECKING:
    from plsim.engine.decisions import Decision
    from plsim.engine.view import View

WAIT_S = 0.2  # the longest a pending Ctrl-C waits to be handled at the prompt
HELP = "a number picks; ? the board; f the facts; text filters the options (e.g. a general's name); q saves and leaves"


class LeftTheTable(KeyboardInterrupt):
    """The person left (``q`` or the end of the input): like Ctrl-C, the game stops and is saved."""


class TerminalSeat:
    """Asks one person, on ``stdin`` and ``stdout`` (the process's by default), for an option's index."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self._in = stdin
        self._out = stdout
        self._pending = b""  # what was read past the last line
        self._describer: Describer | None = None

    def _write(self, text: str) -> None:
        out = self._out or sys.stdout
        out.write(text + "\n")
        out.flush()

    def _read(self, prompt: str) -> str:
        out, source = self._out or sys.stdout, self._in or sys.stdin
        out.write(prompt)
        out.flush()
        line = self._readline(source)
        if not line:
            raise LeftTheTable("the input ended")
        return line.strip()

    def _readline(self, source: TextIO) -> str:
        """One line, waited for in short selects: a Ctrl-C that the kernel hands to another
        thread (polars and the allocator keep some) is then still handled within a moment,
        where a blocking read would sleep through it."""
        try:
            fd = source.fileno()
        except (AttributeError, OSError, ValueError):
            return source.readline()
        while b"\n" not in self._pending:
            ready, _, _ = select.select([fd], [], [], WAIT_S)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    line, self._pending = self._pending, b""
                    return line.decode(errors="replace")
                self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(errors="replace") + "\n"

    def ask(self, view: View, decision: Decision) -> int:
        """The index of the option the person picks."""
        if self._describer is None:
            self._describer = Describer(view.board)
        message = decision_message(view, decision, self._describer)
        board_text = partial(self._describer.board_text, view)
        options = message["options"]
        self._write(f"\n--- seat {message['seat']}, your decision ---")
        self._write(message["question"])
        self._write("\n".join(f"  {line}" for line in message["facts"]))
        shown = options
        self._show(shown)
        while True:
            answer = self._read(f"Your choice (0-{len(options) - 1}, ? board, q leave, or text to filter): ")
            if answer.isdigit():
                index = int(answer)
                if 0 <= index < len(options):
                    self._write(f"  -> {options[index]['text']}")
                    return index
                self._write(f"  There is no option {index}: choose 0 to {len(options) - 1}.")
            elif answer == "?":
                self._write(board_text())
            elif answer in ("f", "facts"):
                self._write("\n".join(f"  {line}" for line in message["facts"]))
                self._show(options)
            elif answer in ("q", "quit"):
                raise LeftTheTable("the person left the table")
            elif answer in ("", "h", "help"):
                self._write(f"  {HELP}")
                self._show(options if answer else shown)
            else:
                shown = [o for o in options if answer.lower() in o["text"].lower()]
                if not shown:
                    self._write(f"  No option mentions {answer!r}.")
                    shown = options
                self._show(shown)

    def _show(self, options: list[dict[str, Any]]) -> None:
        width = len(str(options[-1]["index"])) if options else 1
        self._write("\n".join(f"  {o['index']:>{width}}) {o['text']}" for o in options))
