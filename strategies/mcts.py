"""mcts: information-set Monte Carlo tree search (single observer) with UCT and progressive widening.

Plan: the tree holds the seat's own decisions from the one it is asked, keyed by the answers
given; every iteration deals a new world (``view.determinise``: the other hands, the deck's order
and the future dice anew), so a node's statistics average over the worlds the seat cannot tell
apart. In a world, the rivals' decisions are answered by the default policy (``judge-rush``
unless ``policy`` says otherwise; ``rivals`` models them apart); at each of its own decisions the
iteration picks, among the node's children legal in this world, the one with the best UCT score
``mean + c * sqrt(ln(available) / visits)`` (``available``: the iterations in which the child
could have been chosen). Progressive widening keeps decisions of dozens of options (Movement
averages ~50) searchable: a node considers only its first ``ceil(widen * visits ** alpha)``
options in prior order (the default policy's answer first; at the root then the one-step values
of the evaluation; deeper, the order offered) and adds the next when that number grows. After
the tree, the default policy plays every seat to the horizon (the end of the current round, or of
``rounds`` rounds, at most ``depth`` decisions in all) and the evaluation (strategies/evaluation.py)
scores the position; the score is backed up the path. The answer is the root's most visited
child (ties to the better mean, then to the prior order); with ``margin``, the guide's answer
unless that child's mean beats it by more than the margin.
Budget: ``iterations`` per decision, deterministic for a seed; or ``ms`` milliseconds, which
depends on the machine's speed and so is not repeatable.
Native: with a policy the core plays itself (the default ``judge-rush``, any scripted strategy,
``heuristic`` or ``random``: a class that declares ``core_policy``) the whole iteration runs
inside the core (core/agents/src/tree.rs, the same search: ``View.search_tree``, ``Table.iterate``), one
crossing per iteration; only each world's draws still come from the strategy's Python generator,
so the search stays deterministic for a seed. With a default policy in Python the worlds are
stepped here, and the same statistics in the core (``View.tree_stats``, ``Table.select``) choose
at the seat's own decisions: one implementation of the tree.
Plans: with ``plans`` (strategy names joined by ``+``, e.g. ``plans=warlord+schemer+prophet``)
it searches whole plans instead of single decisions (strategies/plan_search.py): at its first
decision of every ``every``-th round, UCT over the default policy and the named strategies,
each iteration one plan played from a new world to the end of the game and scored by the win;
the seat then follows the chosen strategy until the next choice. The budget is spent only at
those choices (``iterations`` whole games each); every other decision is the plan's, at once.
Endgame: with ``endgame`` (VP) the seat answers as its default policy (or its plan) until some
player (with ``threat``, some rival) holds that many VP, and searches single decisions from then
on. Why: once the end is in sight a single decision can decide the game (an Assassin's target),
and the evaluation a few rounds ahead tracks the win there far better than in mid-game
(docs/strategies.md).
Strengths: spends its budget on the options that look best, across a whole round of its own
decisions; with ``plans``, judges by wins the choice that moves them. Weaknesses: its rivals are
modelled by one script; few iterations per option of a large decision, so without ``margin`` it
leaves its guide's plan on flukes (which lost it games against random players); a single
decision's evaluation at the round's end hardly predicts the win (docs/strategies.md).
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import Decision, DecisionKind, View, param
from plsim.strategy.params import StrategyParamError
from strategies.plan_search import PlanSearch
from strategies.search import SEARCH_PARAMS, SearchStrategy, ms_param
from strategies.simulation import Policies, play_out, policy_class, within_horizon


def searched_kinds(text: str, owner: str) -> frozenset[DecisionKind]:
    """The decision kinds ``kinds`` names (empty: none named, so every kind is searched)."""
    names = {n.strip() for n in text.split("+") if n.strip()}
    unknown = sorted(names - {k.value for k in DecisionKind})
    if unknown:
        raise StrategyParamError(f"strategy {owner!r}: parameter kinds={text!r}: no decision kind "
                                 f"{', '.join(unknown)} (kinds: {', '.join(k.value for k in DecisionKind)})")
    return frozenset(DecisionKind(n) for n in names)


class Mcts(SearchStrategy):
    name: ClassVar[str] = "mcts"
    description: ClassVar[str] = ("information-set MCTS: UCT over its own decisions, a new world per iteration, "
                                  "progressive widening, a scripted default policy; deterministic at an "
                                  "iteration budget")
    params: ClassVar[dict[str, Any]] = {
        **SEARCH_PARAMS,
        "iterations": param(48, 1, 1000000, "iterations per decision (deterministic for a seed)"),
        **ms_param("iterations"),
        "c": param(0.35, 0, 100, "UCT exploration constant"),
        "widen": param(1.5, 0.1, 1000, "progressive widening: a node considers ceil(widen * visits ** alpha) options"),
        "alpha": param(0.5, 0, 1, "progressive widening exponent"),
        "rounds": param(1, 1, 60, "horizon: the end of the current round (1) or of this many rounds"),
        "depth": param(80, 1, 100000, "horizon: at most this many decisions past the root in one iteration"),
        "plans": param("", help="strategies joined by '+': search which of them (or the default policy) to "
                                "follow, by whole games, instead of single decisions; empty: single decisions"),
        "every": param(4, 1, 1000, "with plans: rounds a chosen plan is followed before the next choice"),
        "margin": param(0.0, 0, 1, "if above 0, the guide's answer stays unless the most visited option's mean "
                                   "value beats the guide's answer's by more than this (a departure on evidence, "
                                   "not on the noise of a few iterations); 0: the most visited option"),
        "threat": param(False, help="with endgame: count only the rivals' VP, so the seat searches once a rival "
                                    "nears the end and closes its own games as its guide would"),
        "rivals": param("", help="the model of the other seats' play in the tree and its play-outs (a strategy "
                                 "that does not search); empty: the default policy"),
        "endgame": param(0, 0, 100, "if above 0, search single decisions only once some player holds this many "
                                    "VP (the end in sight), answering as the default policy (or the plan in "
                                    "force) before; 0: from the first decision"),
        "kinds": param("", help="decision kinds joined by '+' (e.g. movement+cards): search only these single "
                                "decisions and answer the others as the plan in force or the guide; empty: every kind"),
    }

    def __init__(self, seat: int, rng: Any, **params: Any) -> None:
        super().__init__(seat, rng, **params)
        self.rivals = policy_class(self.settings["rivals"], self.name, "rivals") if self.settings["rivals"] else None
        self.core_rivals: str | None = (self.rivals.__dict__.get("core_policy") if self.rivals is not None
                                        else self.core_policy)
        names = [n.strip() for n in self.settings["plans"].split("+") if n.strip()]
        self.plans = (PlanSearch(seat, rng, names, self.settings["policy"], self.settings["every"], self.name)
                      if names else None)
        self.kinds = searched_kinds(self.settings["kinds"], self.name)

    def choose(self, view: View, decision: Decision) -> Any:
        rng = self.decision_rng()
        searched = not self.kinds or decision.kind in self.kinds
        if searched and self.end_in_sight(view):
            return self.search(view, decision, rng)
        if self.plans is not None:
            return self.plans.answer(view, decision, rng, self.budget(), self.settings["c"])
        if self.settings["endgame"] or not searched:
            return self.guide.choose(view, decision)
        return self.search(view, decision, rng)

    def end_in_sight(self, view: View) -> bool:
        """Whether ``endgame`` is set and some player (with ``threat``, some rival) holds that
        many VP."""
        endgame, threat = self.settings["endgame"], self.settings["threat"]
        return bool(endgame) and max(view.vp(s) for s in range(view.n_players)
                                     if not (threat and s == self.seat)) >= endgame

    def search(self, view: View, decision: Decision, rng: Any) -> Any:
        """The root's most visited child after the budget's iterations (a lone option at once)."""
        options = decision.options
        answer = self.guide.choose(view, decision)
        if len(options) == 1:
            return answer
        values = self.one_step(view, options, rng)
        root_order = sorted(range(len(options)), key=lambda i: (options[i] != answer, -values[i], i))
        root_prior = [options[i] for i in root_order]
        budget = self.budget()
        if self.core_policy is not None and self.core_rivals is not None:
            return root_prior[self.native_search(view, root_order, rng, budget)]
        tree = view.tree_stats(root_order, self.settings["c"], self.settings["widen"], self.settings["alpha"])
        done = 0
        while done == 0 or budget(done):
            self.iterate(view, tree, rng)
            done += 1
        self.simulations = done
        return root_prior[self.answer_of(tree)]

    def kept(self, best: int, means: dict[int, float]) -> int:
        """The answer's place in the prior order: the most visited child's (``best``), unless
        ``margin`` is set and the guide's answer (place 0) was tried and its mean is within
        ``margin`` of the best's. Why: with a few dozen iterations over many options the most
        visited one is often a fluke of the worlds dealt, and such departures break the guide's
        plan (they kept the search from closing games against random players)."""
        margin = self.settings["margin"]
        if margin > 0 and best != 0 and 0 in means and means[best] - means[0] <= margin:
            return 0
        return best

    def native_search(self, view: View, root_order: list[int], rng: Any, budget: Any) -> int:
        """The answer's place in the prior order after the budget's iterations inside the core."""
        s = self.settings
        tree = view.search_tree(root_order, s["c"], s["widen"], s["alpha"], view.round + s["rounds"] - 1, s["depth"],
                                self.core_policy, self.weights.values, self.core_rivals)
        done = 0
        while done == 0 or budget(done):
            view.determinise(rng).iterate(tree, rng.getrandbits(64))
            done += 1
        self.simulations = done
        return self.answer_of(tree)

    def answer_of(self, tree: Any) -> int:
        """The answer's place in the prior order: the tree's best, or the guide's (``kept``)."""
        means = {place: mean for place, visits, mean in tree.root_children() if visits}
        return self.kept(tree.best(), means)

    def budget(self) -> Any:
        """Whether another iteration fits: ``iterations`` of them, or ``ms`` milliseconds."""
        return self.budget_of(self.settings["iterations"])

    def iterate(self, view: View, tree: Any, rng: Any) -> None:
        """One iteration with a default policy in Python: a new world, down the tree (the core's
        statistics choose at each of the seat's own decisions: ``View.tree_stats``), one new
        child, the default policy to the horizon, the evaluation backed up."""
        world = view.determinise(rng)
        policies = Policies(self.policy, view.n_players, rng, self.rivals, self.seat)
        last_round = view.round + self.settings["rounds"] - 1
        node, path, steps = 0, [0], 0
        while steps < self.settings["depth"] and within_horizon(world, last_round):
            decision = world.decision
            if decision.seat != self.seat:
                world.apply(policies.answer(world, decision))
                steps += 1
                continue
            answer = None if node == 0 else decision.options.index(policies.answer(world, decision))
            picked = world.select(tree, node, answer)
            if picked is None:
                break
            index, node, new = picked
            world.apply(decision.options[index])
            steps += 1
            path.append(node)
            if new:
                break
        play_out(world, policies, last_round, self.settings["depth"] - steps)
        tree.backup(path, self.value(world))
