"""The strategy base class: how a strategy is built (seat, generator, parameters) and asked.

The engine's vocabulary (``View``, ``Decision``, ``DecisionKind``, the options) lives in
``plsim.engine``; plugin authors import all of it from ``plsim.strategy``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from plsim.engine.decisions import Decision
from plsim.engine.view import View


class Strategy:
    """Base class of every strategy: one instance per game and seat.

    Subclasses set ``name`` and ``description`` and implement ``choose``. Parameters given as
    ``name:key=value`` on the command line arrive as keyword arguments; ``params`` lists the
    accepted ones with their defaults.
    """

    name: ClassVar[str] = "strategy"
    description: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}

    def __init__(self, seat: int, rng: random.Random, **params: Any) -> None:
        unknown = set(params) - set(self.params)
        if unknown:
            known = ", ".join(sorted(self.params)) or "none"
            raise ValueError(f"strategy {self.name!r} has no parameter {', '.join(sorted(unknown))} (known: {known})")
        self.seat = seat
        self.rng = rng
        self.settings = {**self.params, **params}

    def choose(self, view: View, decision: Decision) -> Any:
        raise NotImplementedError
