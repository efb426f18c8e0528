"""Shadow check of the native scripted strategies: real games played by the Python ones, each
decision also asked of the core's ``Scripted`` for the same seat, answers compared.

Every seat of a scripted strategy carries its native twin, asked the very same decisions in the
same order (so the twin's plan and goals live the same life). The first decision where the
answers, the count of plans made or the goal regions differ is printed with its place in the
game, and that game stops there.

    python scripts/scripted_parity.py --scenario standard-4p --players judge-rush --games 50 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys

from plsim import _core
from plsim.board import load_board
from plsim.engine.game import play_game, strategy_seed
from plsim.engine.view import source_of
from plsim.runner.seeding import game_seed
from plsim.scenario import as_scenario
from plsim.strategy.registry import resolve_all

NATIVE = ("judge-rush", "economist", "warlord", "schemer", "zealot", "prophet")


class Diverged(Exception):
    """The native answer differs from the Python one."""


class Shadow:
    """A Python scripted strategy whose native twin answers every decision beside it."""

    def __init__(self, inner, board, forecast_seed=None) -> None:
        self.inner = inner
        self.name = inner.name
        params = {k: float(v) for k, v in inner.settings.items()}
        self.native = _core.Scripted(inner.name, inner.seat, params, forecast_seed)
        self.regions = list(board.regions)
        self.plans = 0
        self.last_plan = None
        self.asked = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def choose(self, view, decision):
        answer = self.inner.choose(view, decision)
        self.asked += 1
        if self.inner.plan is not self.last_plan:
            self.last_plan = self.inner.plan
            self.plans += 1
        index = decision.options.index(answer)
        native = source_of(view).core.scripted_choice(self.native)
        goals = [self.regions[r] for r in self.native.goal_regions]
        if native != index or self.native.serial != self.plans or goals != self.inner.goals.regions:
            raise Diverged(
                f"seat {decision.seat} ({self.name}) decision {self.asked}: round {view.round} {view.phase} "
                f"{decision.kind} context {dict(decision.context)}\n"
                f"  python answer {index} {answer!r}, native {native} "
                f"{decision.options[native] if native is not None else None!r}\n"
                f"  plans python {self.plans} native {self.native.serial}; goals python {self.inner.goals.regions} "
                f"native {goals}\n  options {list(decision.options)!r}")
        return answer


def forecast_seed(strategy, seed: int, seat: int) -> int | None:
    """The seed a prophet drew for its forecasts when made (``spec.make`` seeds its generator
    with ``strategy_seed``; the prophet's first draw is that seed), checked against its own."""
    if not hasattr(strategy, "forecast_rng"):
        return None
    drawn = random.Random(strategy_seed(seed, seat)).getrandbits(64)
    if random.Random(drawn).getstate() != strategy.forecast_rng.getstate():
        raise RuntimeError(f"seat {seat}: the prophet's forecast seed is not its generator's first draw")
    return drawn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="standard-4p")
    parser.add_argument("--players", default="judge-rush")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-going", action="store_true", help="go on to the next game after a divergence")
    args = parser.parse_args()
    scenario = as_scenario(args.scenario)
    board = load_board(scenario.map)
    entries = args.players.split(",")
    entries = [entries[seat % len(entries)] for seat in range(scenario.players)]
    specs = resolve_all(entries)
    failed = 0
    for index in range(args.games):
        seed = game_seed(args.seed, index)
        strategies = []
        for seat, spec in enumerate(specs):
            strategy = spec.make(seat, seed)
            strategies.append(Shadow(strategy, board, forecast_seed(strategy, seed, seat))
                              if strategy.name in NATIVE else strategy)
        try:
            result = play_game(board, scenario.rules, strategies, seed)
        except Diverged as err:
            failed += 1
            print(f"game {index} seed {seed} DIVERGED at {err}", flush=True)
            if not args.keep_going:
                return 1
            continue
        asked = sum(s.asked for s in strategies if isinstance(s, Shadow))
        print(f"game {index} seed {seed} same: {asked} decisions, {result.rounds} rounds", flush=True)
    print(f"END games {args.games} diverged {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
