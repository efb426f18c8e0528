"""Search at the level of whole plans: which scripted strategy a seat follows, judged by wins.

Why: benchmarks/decision_quality.py found that no single decision's departure from judge-rush's
answer measurably moves its chance of winning (true effects spread at most 1.7 pp), while
benchmarks/plan_quality.py found that switching the whole plan does (warlord, schemer or prophet
from mid-game: about +2.5 pp each against judge-rush going on, among three judge-rush). So the
choice worth searching is the plan, and it can only be judged by whole games: the evaluation at
a round's end does not predict who wins.

``PlanSearch`` holds one instance of each plan for the real game (the default policy first) and
the plan in force. At a seat's first decision of every ``every``-th round it chooses again: each
iteration plays one plan from a world dealt anew (``view.determinise``) to the end of the game,
the rivals played by the default policy, and scores 1 for a win; UCT (``mean + c * sqrt(ln(n) /
visits)``) spreads the iterations over the plans. A plan's j-th play-out uses world j, the same
for every plan (common random numbers), so two plans' difference is theirs, not the deal's. The
most visited plan is followed (ties to the better mean, then to the default policy).
"""

from __future__ import annotations

import math
import random
import sys
from dataclasses import dataclass
from typing import Any, Callable

from plsim.strategy import Decision, Strategy, View
from strategies.simulation import Policies, play_out, policy_class


@dataclass
class Arm:
    """One plan's play-outs at a choice."""

    visits: int = 0
    wins: float = 0.0

    @property
    def mean(self) -> float:
        return self.wins / self.visits if self.visits else 0.0


class PlanSearch:
    """The plans a seat may follow, the one in force, and the search that chooses it."""

    def __init__(self, seat: int, rng: random.Random, names: list[str], policy: str, every: int, owner: str) -> None:
        self.seat = seat
        self.names = [policy, *dict.fromkeys(n for n in names if n != policy)]
        self.classes = [policy_class(name, owner, "plans" if i else "policy") for i, name in enumerate(self.names)]
        self.players: list[Strategy] = [cls(seat, random.Random(rng.getrandbits(64))) for cls in self.classes]
        self.every = every
        self.current: int | None = None  # index of the plan in force
        self.chosen_in = 0  # the round it was chosen in
        self.choices: list[tuple[int, str]] = []  # (round, plan) of every choice, for reports and tests

    def due(self, view: View) -> bool:
        return self.current is None or view.round >= self.chosen_in + self.every

    def answer(self, view: View, decision: Decision, rng: random.Random, budget: Callable[[int], bool],
               c: float) -> Any:
        """The decision answered by the plan in force, chosen anew first when one is due."""
        if self.due(view):
            self.current = self.choose(view, rng, budget, c)
            self.chosen_in = view.round
            self.choices.append((view.round, self.names[self.current]))
        return self.players[self.current].choose(view, decision)

    def choose(self, view: View, rng: random.Random, budget: Callable[[int], bool], c: float) -> int:
        """The plan UCT finds best over ``budget``'s iterations of whole-game play-outs."""
        arms = [Arm() for _ in self.names]
        worlds: list[int] = []
        done = 0
        while done == 0 or budget(done):
            plan = self.select(arms, done, c)
            j = arms[plan].visits
            if j == len(worlds):
                worlds.append(rng.getrandbits(64))
            arms[plan].wins += self.play(view, plan, worlds[j])
            arms[plan].visits += 1
            done += 1
        return max(range(len(arms)), key=lambda p: (arms[p].visits, arms[p].mean, -p))

    @staticmethod
    def select(arms: list[Arm], done: int, c: float) -> int:
        """Every plan once in order, then the best UCT score (the first of equals)."""
        for plan, arm in enumerate(arms):
            if not arm.visits:
                return plan
        log_done = math.log(done)
        return max(range(len(arms)), key=lambda p: (arms[p].mean + c * math.sqrt(log_done / arms[p].visits), -p))

    def play(self, view: View, plan: int, world_seed: int) -> float:
        """1 if the seat wins world ``world_seed`` following ``plan`` to the end, the rivals
        following the default policy, else 0."""
        rng = random.Random(world_seed)
        world = view.determinise(rng)
        policies = Policies(self.classes[0], view.n_players, random.Random(rng.getrandbits(64)))
        policies.players[self.seat] = self.classes[plan](self.seat, random.Random(rng.getrandbits(64)))
        play_out(world, policies, last_round=sys.maxsize, cap=sys.maxsize)
        result = world.result
        return 1.0 if result is not None and result.winner == self.seat else 0.0
