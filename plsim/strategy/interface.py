"""The strategy base class: how a strategy is built (seat, generator, parameters) and asked.

The engine's vocabulary (``View``, ``Decision``, ``DecisionKind``, the options) lives in
``plsim.engine``; plugin authors import all of it from ``plsim.strategy``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from plsim.engine.decisions import Decision
from plsim.engine.view import View
from plsim.strategy.params import check_params, defaults


class Strategy:
    """Base class of every strategy: one instance per game and seat.

    Subclasses set ``name`` and ``description``, declare their parameters in ``params`` (bare
    defaults, or ``param(default, low, high, help)``) and implement ``choose``. Parameters given
    as ``name:key=value`` on the command line arrive as keyword arguments, checked against the
    declarations; ``self.settings`` holds every parameter's value. ``self.rng`` is the strategy's
    own generator, seeded from the game's seed and the seat: use it and no other randomness.
    """

    name: ClassVar[str] = "strategy"
    description: ClassVar[str] = ""
    params: ClassVar[dict[str, Any]] = {}

    def __init__(self, seat: int, rng: random.Random, **params: Any) -> None:
        self.seat = seat
        self.rng = rng
        self.settings = {**defaults(type(self)), **check_params(type(self), params)}

    def choose(self, view: View, decision: Decision) -> Any:
        raise NotImplementedError
