"""lookahead: one-step lookahead on the forward model, scored with the documented evaluation.

Plan: at every decision, deal a world the seat cannot tell from the real one (other hands, deck
order and future dice dealt anew), apply each option to a copy of it (the forced steps and
chance it sets off included, up to the next decision) and take the option whose position the
evaluation scores best (strategies/evaluation.py: victory points, Judge titles in reach, income,
purse, army, settlements within reach of its generals, minus what rivals and invaders threaten;
each weight a parameter). The default policy (judge-rush unless ``policy`` says otherwise) keeps
the plan: its answer stands unless another option scores more than ``tie`` (0.08) above it, so
the evaluation overrides the plan only where it sees a clear gain (in under 1% of its answers
against three random players). With ``samples`` above 1 each option is scored on that
many worlds.
Strengths: the policy's plan, minus the steps the evaluation, one move ahead, scores clearly
worse than another; cheap (one copy and one step per option). Weaknesses: blind beyond the next
decision, so it cannot plan a siege or a purchase that pays a round later itself; at a small
``tie`` the evaluation's myopia overrides the plan too often and it plays worse than the policy
alone (docs/strategies.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import Decision, View, param
from strategies.search import SEARCH_PARAMS, SearchStrategy, tie_param


class Lookahead(SearchStrategy):
    name: ClassVar[str] = "lookahead"
    description: ClassVar[str] = ("one-step lookahead: applies each option on a sampled copy of the game "
                                  "and scores the result with the evaluation; deterministic for a seed")
    params: ClassVar[dict[str, Any]] = {
        **SEARCH_PARAMS,
        **tie_param(0.08),
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
