"""What can go wrong in a game, and whose fault it is."""

from __future__ import annotations


class StrategyError(RuntimeError):
    """A strategy raised, answered with an option it was not offered, or never passed: the core
    stops a seat that acts 5,000 times in one turn (rules that bring a card back again and again),
    and says which in ``seat``."""


class TamperError(StrategyError):
    """Check mode: a strategy changed the game while deciding (VW-2)."""


class IllegalOption(ValueError):
    """``Table.apply`` was given an answer the pending decision did not offer (or none is pending)."""


class InvariantError(AssertionError):
    """A state that the rules forbid was reached: an engine bug, never a strategy's fault."""


class BadField(ValueError):
    """A field of a position that is not what the game can hold: ``field`` names it."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        super().__init__(f"{field}: {problem}")
