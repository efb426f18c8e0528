"""exec: a program, in any language, plays the seat over JSON lines (docs/protocol.md).

``--players exec:"python3 mybot.py"`` (or ``exec:command=python3 mybot.py,timeout=5``) starts the
program when the seat's first decision comes, sends it the game (``start``: its seat, the map,
the rules, a seed of its own) and then each decision with the seat's sealed view and the options
numbered, and plays the option whose index it answers. One program per seat and game; it is told
only what the seat may see. A program that cannot start, exits, answers after ``timeout``
seconds or answers anything but an offered index is at fault as any strategy is: the run's
``--on-fault`` applies.

Plan: the program's. Strengths and weaknesses: the program's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from plsim.seats.describe import Describer
from plsim.seats.program import Program, ProgramError, program_words
from plsim.seats.protocol import decision_message, read_answer, start_message
from plsim.strategy import Decision, Strategy, View, param


class ExecStrategy(Strategy):
    name = "exec"
    description = "a program in any language playing over JSON lines: exec:\"python3 mybot.py\""
    params = {
        "command": param("", help="the program and its arguments, as a shell would split them (no commas)"),
        "timeout": param(10.0, 0.01, 3600.0, help="seconds the program may take over one answer"),
    }

    def __init__(self, seat: int, rng: Any, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        try:
            program_words(self.settings["command"])
        except ProgramError as exc:
            raise ValueError(f"exec: {exc}") from None
        self.name = f"exec:{self.settings['command']}"
        self._program: Program | None = None
        self._describer: Describer | None = None

    @staticmethod
    def program_files(params: dict[str, Any]) -> list[Path]:
        """The files the command names (the program's script): a resume after editing one is refused."""
        try:
            words = program_words(params.get("command", ""))
        except ProgramError:
            return []
        return [Path(word) for word in words if Path(word).is_file()]

    def choose(self, view: View, decision: Decision) -> Any:
        if self._program is None:
            self._program = Program(self.settings["command"])
            self._describer = Describer(view.board)
            self._program.tell(start_message(view, self.rng.getrandbits(63)))
        answer = self._program.ask(decision_message(view, decision, self._describer), self.settings["timeout"])
        try:
            return decision.options[read_answer(answer, len(decision.options))]
        except ValueError as exc:
            raise ProgramError(str(exc)) from None
