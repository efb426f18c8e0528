"""lookahead: one-step lookahead on the forward model, scored with the documented evaluation.

Plan: at every decision, deal a world the seat cannot tell from the real one (other hands, deck
order and future dice dealt anew), apply each option to a copy of it (the forced steps and
chance it sets off included, up to the next decision) and take the option whose position the
evaluation scores best (strategies/evaluation.py: victory points, Judge titles in reach, income,
purse, army, settlements within reach of its generals, minus what rivals and invaders threaten;
each weight a parameter). Options within ``tie`` of the best go to the default policy's answer
(judge-rush unless ``policy`` says otherwise) when it is among them. With ``samples`` above 1
each option is scored on that many worlds.
Strengths: never takes a move the evaluation sees as clearly worse; cheap (one copy and one step
per option). Weaknesses: blind beyond the next decision: it cannot plan a siege or a purchase
that pays a round later, and it is only as good as its evaluation (against three random players
it wins less often than judge-rush does: docs/strategies.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import Decision, View, param
from strategies.search import SEARCH_PARAMS, TIE_PARAM, SearchStrategy


class Lookahead(SearchStrategy):
    name: ClassVar[str] = "lookahead"
    description: ClassVar[str] = ("one-step lookahead: applies each option on a sampled copy of the game "
                                  "and scores the result with the evaluation; deterministic for a seed")
    params: ClassVar[dict[str, Any]] = {
        **SEARCH_PARAMS,
        **TIE_PARAM,
        "samples": param(1, 1, 64, "worlds each option is scored on (their mean is its value)"),
    }

    def choose(self, view: View, decision: Decision) -> Any:
        rng = self.decision_rng()
        options = decision.options
        totals = [0.0] * len(options)
        for _ in range(self.settings["samples"]):
            for i, value in enumerate(self.one_step(view, options, rng)):
                totals[i] += value
        return self.guided_best(view, decision, [t / self.settings["samples"] for t in totals])
