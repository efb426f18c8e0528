"""rollout: flat Monte Carlo on the forward model, play-outs to a horizon scored by the evaluation.

Plan: at every decision, score each option one step ahead (as ``lookahead`` does) and keep the
``candidates`` best, the default policy's own answer always among them. Then play ``playouts``
play-outs spread evenly over the candidates: play-out j deals world j (``view.determinise``: the
other hands, the deck's order and the future dice anew), applies the candidate and lets the
default policy (``judge-rush`` unless ``policy`` says otherwise) answer every decision of every
seat up to the horizon (the end of the current round, or of ``rounds`` rounds, at most ``depth``
decisions); the evaluation (strategies/evaluation.py) scores the position reached. All
candidates of play-out j share world j and the policy's generators (common random numbers), so
their difference is the option's, not the deal's. The best mean wins; near ties go to the
default policy's answer. With a policy the core plays itself (the default ``judge-rush``, any
scripted strategy, ``heuristic`` or ``random``: a class that declares ``core_policy``) each
world's play-outs run inside the core in one call (``Table.simulate``), each world's draws still
taken from the strategy's generator. Budget: ``playouts`` per decision, deterministic for a seed;
or ``ms`` milliseconds, worlds dealt until the time is up (not repeatable).
Strengths: sees a round ahead (a purchase that pays in Movement, a march that ends in a battle).
Weaknesses: the default policy plays every seat, itself included, so it values an option by how
the script would go on from it; costs a play-out per candidate per world.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from plsim.strategy import Decision, View, param
from strategies.search import SEARCH_PARAMS, SearchStrategy, ms_param, tie_param
from strategies.simulation import Policies, play_out


class Rollout(SearchStrategy):
    name: ClassVar[str] = "rollout"
    description: ClassVar[str] = ("flat Monte Carlo: play-outs of the best options to the end of the round "
                                  "with a scripted policy, scored by the evaluation; deterministic for a seed")
    params: ClassVar[dict[str, Any]] = {
        **SEARCH_PARAMS,
        **tie_param(0.02),
        "playouts": param(24, 1, 100000, "play-outs per decision, spread evenly over the candidates"),
        "candidates": param(4, 1, 1000, "options given play-outs: the best by one-step value, plus the "
                                        "default policy's answer"),
        "rounds": param(1, 1, 60, "horizon: the end of the current round (1) or of this many rounds"),
        "depth": param(80, 1, 100000, "horizon: at most this many decisions in one play-out"),
        **ms_param("playouts"),
    }

    def candidates(self, view: View, decision: Decision, rng: Any) -> list[Any]:
        """The options worth play-outs: the default policy's answer, then the best one-step values."""
        options = decision.options
        values = self.one_step(view, options, rng)
        order = sorted(range(len(options)), key=lambda i: (-values[i], i))
        answer = self.guide.choose(view, decision)
        kept = [o for o in options if o == answer][:1]
        for i in order:
            if len(kept) >= self.settings["candidates"]:
                break
            if options[i] != answer:
                kept.append(options[i])
        return kept

    def choose(self, view: View, decision: Decision) -> Any:
        rng = self.decision_rng()
        kept = self.candidates(view, decision, rng)
        if len(kept) == 1:
            return kept[0]
        budget = self.budget_of(max(1, self.settings["playouts"] // len(kept)))
        totals = [0.0] * len(kept)
        worlds = 0
        while worlds == 0 or budget(worlds):
            for i, value in enumerate(self.world_values(view, decision, kept, rng)):
                totals[i] += value
            worlds += 1
        self.simulations = worlds * len(kept)
        means = [t / worlds for t in totals]
        top = max(means)
        near = [i for i, m in enumerate(means) if m >= top - self.settings["tie"]]
        return kept[near[0]]  # kept[0] is the policy's answer: a near tie goes to it

    def world_values(self, view: View, decision: Decision, kept: list[Any], rng: Any) -> list[float]:
        """Each candidate's value after a play-out on one new world, all with the same policy seed."""
        world = view.determinise(rng)
        policy_seed = rng.getrandbits(64)
        last_round = view.round + self.settings["rounds"] - 1
        if self.core_policy is not None:
            indices = [decision.options.index(option) for option in kept]
            return world.simulate(self.seat, indices, policy_seed, self.core_policy, last_round,
                                  self.settings["depth"], self.weights.values)
        values = []
        for option in kept:
            copy = world.clone()
            copy.apply(option)
            play_out(copy, Policies(self.policy, view.n_players, random.Random(policy_seed)), last_round,
                     self.settings["depth"])
            values.append(self.value(copy))
        return values
