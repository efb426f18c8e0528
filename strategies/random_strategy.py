"""random: picks uniformly among the legal options at every decision.

Plan: none. It is the baseline every scripted strategy must beat, and the engine's fuzzer: over
many games it visits every decision point and card the rules allow.
Strengths: unpredictable; explores the whole rule space.
Weaknesses: wastes coins, walks away from its settlements, votes for rivals.
"""

from __future__ import annotations

from typing import Any

from plsim.strategy import Decision, Strategy, View


class RandomStrategy(Strategy):
    name = "random"
    description = "uniform among the legal options; the baseline and the engine's fuzzer"
    native_policy = "uniform"  # the core plays this very choice itself (plsim.engine.game.native_seats)
    core_policy = "random"  # a search with this default policy plays its simulations in the core

    def choose(self, view: View, decision: Decision) -> Any:
        return decision.options[self.rng.randrange(len(decision.options))]
