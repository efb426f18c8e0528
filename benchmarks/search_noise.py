"""How many play-outs tell a decision's options apart: the budget question of issue 23, measured.

At Movement and Acquisitions positions of 4-player judge-rush games (seat 0, two per game, in
rounds 3-4 and 7-8), the default policy's answer and the best one-step options (``rollout``'s
candidates) each get ``--playouts`` play-outs to the end of the round with the search
strategies' default policy, scored by the evaluation; play-out j deals world j for every option.
For the best alternative against the policy's answer it prints the mean difference, its spread
paired (the same worlds, as ``rollout`` plays them) and unpaired (a world of its own per
play-out, as ``mcts`` iterations are), and the play-outs per option each needs for the
difference to stand out (1.96 standard errors).

    python benchmarks/search_noise.py --positions 30 --playouts 40
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.game import choose
from plsim.rules import Rules
from plsim.strategy import DecisionKind
from plsim.strategy.registry import resolve
from strategies.simulation import Policies, play_out

KINDS = (DecisionKind.MOVEMENT, DecisionKind.PURCHASE)


def positions(count: int, late: int = 0) -> list[Table]:
    """Tables stopped at seat 0's decisions of judge-rush games, two a game (``late``: see
    ``game_positions``)."""
    found: list[Table] = []
    seed = 100
    while len(found) < count:
        seed += 1
        found += [table.clone() for table, _ in game_positions(seed, late)]
    return found[:count]


def game_positions(seed: int, late: int = 0):
    """The positions of the judge-rush game of ``seed``, as (the table, the game's players) at
    each in turn: the players are the game's own, with everything they planned so far. Two a
    game: Movement or Acquisitions decisions of more than 4 options in rounds 3-4 and 7-8; or,
    with ``late`` above 0, the first decisions of any kind with a choice in two rounds in which
    some player already holds ``late`` VP (the end of the game in sight)."""
    players = [resolve("judge-rush").make(s, seed) for s in range(4)]
    table = Table.new(default_board(), Rules(), seed, players=4)
    taken, last_round = 0, None
    while (d := table.decision) is not None and taken < 2:
        if late:
            wanted = (len(d.options) > 1 and table.round != last_round
                      and max(table.view(0).vp(s) for s in range(4)) >= late)
        else:
            wanted = (d.kind in KINDS and len(d.options) > 4
                      and table.round in (3 + 4 * taken, 4 + 4 * taken))
        if d.seat == 0 and wanted:
            yield table, players
            taken, last_round = taken + 1, table.round
        table.apply(choose(table, players, d))


def needed(z_spread: float, difference: float) -> float:
    """Play-outs for a mean difference to stand 1.96 of its standard errors from 0."""
    return (1.96 * z_spread / abs(difference)) ** 2 if difference else math.inf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--playouts", type=int, default=40)
    parser.add_argument("--candidates", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for table in positions(args.positions):
        decision, view = table.decision, table.view(0)
        strategy = resolve(f"rollout:candidates={args.candidates}").make(0, 7)
        rng = random.Random(3)
        kept = strategy.candidates(view, decision, rng)
        if len(kept) < 2:
            continue
        values: list[list[float]] = [[] for _ in kept]
        for _ in range(args.playouts):
            world, policy_seed = view.determinise(rng), rng.getrandbits(64)
            for i, option in enumerate(kept):
                copy = world.clone()
                copy.apply(option)
                play_out(copy, Policies(strategy.policy, 4, random.Random(policy_seed)), view.round, 80)
                values[i].append(strategy.value(copy))
        means = [statistics.fmean(v) for v in values]
        best = max(range(1, len(kept)), key=lambda i: means[i])
        diffs = [a - b for a, b in zip(values[best], values[0])]
        difference, paired = statistics.fmean(diffs), statistics.stdev(diffs)
        unpaired = math.sqrt(statistics.variance(values[best]) + statistics.variance(values[0]))
        rows.append((decision.kind, len(decision.options), difference, paired, unpaired,
                     needed(paired, difference), needed(unpaired, difference)))
        print(f"{decision.kind:9s} {len(decision.options):3d} options: best alternative - policy's answer "
              f"{difference:+.4f}, spread paired {paired:.4f} unpaired {unpaired:.4f}, play-outs needed "
              f"paired {rows[-1][5]:.0f} unpaired {rows[-1][6]:.0f}", flush=True)
    above = sum(1 for r in rows if r[2] > 0 and r[5] <= args.playouts)
    print(f"\n{len(rows)} positions; an alternative stands above the policy's answer at {args.playouts} paired "
          f"play-outs in {above}")
    print(f"median |difference| {statistics.median(abs(r[2]) for r in rows):.4f}; median play-outs per option "
          f"to separate it: paired {statistics.median(r[5] for r in rows):.1f}, "
          f"unpaired {statistics.median(r[6] for r in rows):.1f}")


if __name__ == "__main__":
    main()
