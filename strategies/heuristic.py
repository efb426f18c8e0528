"""heuristic: the core's cheap default policy (core/agents/src/policy.rs), as a strategy.

Plan: score each option with the engine's own rule arithmetic and take the best, uniformly among
equals: buy a Judge title, then developments, walls and troops; march into free settlements and
into battles it wins at 60% or better, else toward the nearest settlement it could take (route
costs); keep a settlement it alone holds; assault at good odds, conquer rather than raze; vote
and appoint its own generals; kill a rival King or Judge with the Assassin or Justice, never its
own; play battle cards; pass otherwise.
Strengths: answers in microseconds inside the core, so the search strategies play it in their
simulations (``policy=heuristic``) at native speed; clearly beats ``random``.
Weaknesses: no plan beyond the next settlement; no reading of rivals' threats or of cards.
"""

from __future__ import annotations

from typing import Any

from plsim.strategy import Decision, Strategy, View


class Heuristic(Strategy):
    name = "heuristic"
    description = "the core's cheap native default policy: greedy by rule arithmetic; the searches' fast play-outs"
    core_policy = "heuristic"  # a search with this default policy plays its simulations in the core

    def choose(self, view: View, decision: Decision) -> Any:
        return decision.options[view.policy_choice(self.rng.getrandbits(64), self.core_policy)]
