"""The base of the search strategies: ``SearchStrategy``.

A search strategy answers a decision by trying its options on copies of the game
(``View.determinise``: the forward model on what the seat could know) and
scoring the positions they lead to with ``strategies.evaluation``. Its randomness all comes from
``self.rng``: each decision draws one seed from it, and every world and default policy of that
decision is seeded from there, so one game seed gives one game at an iteration budget.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, ClassVar, Sequence

from plsim.strategy import Decision, Strategy, View, param
from strategies.evaluation import EVALUATION_PARAMS, Weights, position_value
from strategies.simulation import TIME_BUDGET_NOTE, Policies, play_out, policy_class

SEARCH_PARAMS: dict[str, Any] = {
    **EVALUATION_PARAMS,
    "policy": param("judge-rush", help="default policy: the strategy that plays every other decision of a "
                                         "simulation (a registered name of a strategy that does not search); "
                                         "heuristic and random are played inside the core"),
    "guide": param("", help="the strategy whose answer the search starts from and keeps unless another option "
                            "scores better by more than tie (a registered strategy that does not search); "
                            "empty: the default policy"),
    "oracle_worlds": param(16, 1, 100000, "as an oracle (plsim report --oracle): worlds played out to the end "
                                          "of the round for one estimate of every seat's chances"),
}
ORACLE_CAP = 10_000  # decisions of one oracle play-out at most (a round takes a few hundred)


def ms_param(unit: str) -> dict[str, Any]:
    """The ``ms`` parameter: a time budget per decision instead of a count of ``unit``."""
    return {"ms": param(0, 0, 600000, f"if above 0, a budget in milliseconds per decision instead of {unit}: "
                                      f"{TIME_BUDGET_NOTE}")}


def tie_param(default: float) -> dict[str, Any]:
    """The ``tie`` parameter at a strategy's own default (its values have their own spread)."""
    return {"tie": param(default, 0, 1, "values within this of the best count as a tie, settled by the "
                                        "guide's own answer (the default policy's) when it is among them")}


class SearchStrategy(Strategy):
    """Shared parameters (the evaluation's weights, the default policy) and the one-step scores."""

    searches: ClassVar[bool] = True  # a search strategy is never another one's default policy
    params: ClassVar[dict[str, Any]] = dict(SEARCH_PARAMS)

    def __init__(self, seat: int, rng: random.Random, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        self.weights = Weights.of(self.settings)
        self.policy = policy_class(self.settings["policy"], self.name)
        # the core's own policy of that name when the class declares one (a subclass that
        # overrides it is played in Python): its simulations then run inside the core
        self.core_policy: str | None = self.policy.__dict__.get("core_policy")
        guide = policy_class(self.settings["guide"], self.name, "guide") if self.settings["guide"] else self.policy
        self.guide = guide(seat, random.Random(rng.getrandbits(64)))  # answers in this seat of the real game
        self.simulations = 0  # the play-outs the last searched decision ran (benchmarks count them)

    def guided_best(self, view: View, decision: Decision, values: Sequence[float]) -> Any:
        """The option of the best value; among values within ``tie`` of it, the guide's answer if
        it is one of them (the evaluation cannot tell them apart; the guide's plan can), else the
        first offered."""
        top = max(values)
        near = [i for i, v in enumerate(values) if v >= top - self.settings["tie"]]
        if len(near) > 1:
            answer = self.guide.choose(view, decision)
            for i in near:
                if decision.options[i] == answer:
                    return decision.options[i]
        return decision.options[near[0]]

    def decision_rng(self) -> random.Random:
        """A generator for one decision, drawn from the strategy's own."""
        return random.Random(self.rng.getrandbits(64))

    def budget_of(self, count: int) -> Callable[[int], bool]:
        """Whether another iteration fits, given how many were done: ``count`` of them, or until
        ``ms`` milliseconds have passed when that is set."""
        if not self.settings.get("ms"):
            return lambda done: done < count
        deadline = time.perf_counter() + self.settings["ms"] / 1000
        return lambda done: time.perf_counter() < deadline

    def value(self, table: Any) -> float:
        """The evaluation of the table for the seat; ``one_step``, ``Table.simulate`` and the
        native tree compute this same value inside the core."""
        return position_value(table, self.seat, self.weights)

    def one_step(self, view: View, options: Sequence[Any], rng: random.Random) -> list[float]:
        """Each of the decision's ``options``' value after it is applied (with the forced steps
        and chance it sets off) on one sampled world, all options on the same world (one
        crossing into the core: ``Table.simulate`` with no decision played past the option)."""
        world = view.determinise(rng)
        return world.simulate(self.seat, list(range(len(options))), 0, "random", view.round, 0, self.weights.values)

    def win_chances(self, table: Any, rng: random.Random) -> tuple[float, ...]:
        """Every seat's chance of winning from ``table`` as this search reads positions (an oracle:
        ``plsim report --oracle``): the evaluation's value for each seat at the end of the round,
        averaged over ``oracle_worlds`` worlds dealt from each seat's information in turn and played
        out by the default policy (inside the core when it plays it), normalised to sum 1 (all 0
        when no world ends with a winner); the outcome once the game is over."""
        if table.over:
            return tuple(table.position_values(self.weights.values))
        players = table.view(0).n_players
        totals = [0.0] * players
        for i in range(self.settings["oracle_worlds"]):
            world = table.determinise(i % players, rng)
            seed = rng.getrandbits(64)
            if self.core_policy is not None:
                world.playout(seed, "round", decisions=ORACLE_CAP, policy=self.core_policy)
            else:
                play_out(world, Policies(self.policy, players, random.Random(seed)), world.round, ORACLE_CAP)
            for seat, value in enumerate(world.position_values(self.weights.values)):
                totals[seat] += value
        total = sum(totals)
        return tuple(t / total if total > 0 else 0.0 for t in totals)
