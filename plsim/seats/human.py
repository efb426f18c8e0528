"""human: a person at the terminal plays the seat (``plsim play`` only).

``plsim play --players human,judge-rush,strong,economist`` asks each of the seat's decisions on
the terminal: the question, the facts it turns on (coins, hand, generals with their strength,
the battle's totals and the attacker's chance) and the options numbered, each with what it costs
or loots; ``?`` prints the board. Several ``human`` seats share the terminal (hot-seat). Ctrl-C
or ``q`` saves the game, and ``plsim play --from FILE`` goes on with it.

Plan: yours.
"""

from __future__ import annotations

from typing import Any, Protocol

from plsim.seats.terminal import TerminalSeat
from plsim.strategy import Decision, Strategy, View


class Human(Strategy):
    name = "human"
    description = "a person at the terminal, asked each decision with its options numbered (plsim play only)"
    asks_person = True  # not asked again when a saved game is replayed; refused by batch commands

    def __init__(self, seat: int, rng: Any, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        self.asker: Asker = TerminalSeat()  # ``plsim play --serve`` seats the person in the browser instead

    def choose(self, view: View, decision: Decision) -> Any:
        return decision.options[self.asker.ask(view, decision)]


class Asker(Protocol):
    """Where a person is asked: the terminal, the browser."""

    def ask(self, view: View, decision: Decision) -> int: ...
