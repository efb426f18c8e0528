"""What a search's answer is worth in wins: the searches' choices judged by whole games.

At Movement and Acquisitions positions of 4-player judge-rush games (seat 0, two a game, the
positions of benchmarks/search_noise.py), each search named by ``--searches`` answers the
decision. Every answer that differs from the default policy's (judge-rush) is then played to the
end of the game ``--worlds`` times, and so is the policy's answer: world k deals the hidden
cards, the deck and the dice anew from what seat 0 knows (``view.determinise``) and is shared by
every option of the position (common random numbers), and judge-rush plays every seat from
there. A search's worth at a position is its answer's win rate less the policy's answer's (0
where they agree); the mean over positions, with a 95% interval over positions, says whether its
departures from the plan win games or lose them (the whole effect on the decisions sampled,
not only the departures), measured on the same worlds for both answers.

It judges in judge-rush's world (every rival plays judge-rush, as in
``plsim compare SEARCH judge-rush --field judge-rush``), at the decisions sampled, one decision
at a time (the rest of the game is played by judge-rush, not by the search).

    python benchmarks/decision_quality.py --positions 40 --worlds 60 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search_noise import positions  # noqa: E402  (a sibling benchmark, run as a script)

from plsim.strategy import DecisionKind  # noqa: E402
from plsim.strategy.registry import resolve  # noqa: E402
from strategies.simulation import Policies, play_out  # noqa: E402

POLICY = "judge-rush"
_TABLES: list = []


def _tables(count: int) -> list:
    """The positions, built once per worker process (they are the same in every process)."""
    if len(_TABLES) < count:
        _TABLES[:] = positions(count)
    return _TABLES


def answer(task: tuple[int, int, str]) -> tuple[int, str, int, float]:
    """(position, search, the index of its answer among the options, seconds it took)."""
    count, index, spec = task
    table = _tables(count)[index]
    decision, view = table.decision, table.view(0)
    strategy = resolve(spec).make(0, 1000 + index)
    start = time.perf_counter()
    choice = strategy.choose(view, decision)
    spent = time.perf_counter() - start
    return index, spec, decision.options.index(choice), spent


def outcomes(task: tuple[int, int, int, int]) -> tuple[int, int, list[float], list[float]]:
    """(position, option, seat 0's win in each world, its final VP margin in each world)."""
    count, index, option_index, worlds = task
    table = _tables(count)[index]
    view = table.view(0)
    policy = resolve(POLICY).cls
    wins, margins = [], []
    for k in range(worlds):
        rng = random.Random(7919 * index + k)
        world = view.determinise(rng)
        policies = Policies(policy, view.n_players, random.Random(rng.getrandbits(64)))
        world.apply(world.decision.options[option_index])
        play_out(world, policies, last_round=sys.maxsize, cap=sys.maxsize)  # to the game's end
        result = world.result
        wins.append(1.0 if result.winner == 0 else 0.0)
        vp = result.final_vp
        margins.append(vp[0] - max(vp[1:]))
    return index, option_index, wins, margins


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half  # by hand: scipy's t.interval gives nan at a spread of 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=60, help="whole-game play-outs per option")
    parser.add_argument("--searches", default="lookahead,rollout,mcts,mcts:iterations=200",
                        help="comma-separated strategy entries (',' inside an entry's parameters: use ';')")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    searches = [s.replace(";", ",") for s in args.searches.split(",")]
    count = args.positions
    tables = _tables(count)
    with ProcessPoolExecutor(args.workers) as pool:
        chosen: dict[tuple[int, str], int] = {}
        seconds: dict[str, list[float]] = {s: [] for s in searches}
        for index, spec, choice, spent in pool.map(answer, [(count, i, s) for i in range(count)
                                                             for s in [POLICY, *searches]]):
            chosen[index, spec] = choice
            if spec != POLICY:
                seconds[spec].append(spent)
        needed = sorted({(i, chosen[i, s]) for i in range(count) for s in [POLICY, *searches]
                         if s == POLICY or chosen[i, s] != chosen[i, POLICY]})
        print(f"{count} positions ({sum(1 for t in tables if t.decision.kind is DecisionKind.MOVEMENT)} Movement); "
              f"{len(needed)} options played to the end, {args.worlds} worlds each", flush=True)
        wins: dict[tuple[int, int], list[float]] = {}
        margins: dict[tuple[int, int], list[float]] = {}
        for index, option, w, m in pool.map(outcomes, [(count, i, o, args.worlds) for i, o in needed]):
            wins[index, option], margins[index, option] = w, m
    base = statistics.fmean(statistics.fmean(wins[i, chosen[i, POLICY]]) for i in range(count))
    print(f"{POLICY}'s answers win {base:.1%} of the play-outs (fair share 25%)\n")
    print(f"{'search':28s} {'departs':>8s} {'win - policy, pp [95%]':>26s} {'VP margin - policy':>24s} "
          f"{'s/decision':>10s}")
    for spec in searches:
        win_gain, vp_gain, departs = [], [], 0
        for i in range(count):
            mine, policy = chosen[i, spec], chosen[i, POLICY]
            departs += mine != policy
            win_gain.append(100 * (statistics.fmean(wins[i, mine]) - statistics.fmean(wins[i, policy])))
            vp_gain.append(statistics.fmean(margins[i, mine]) - statistics.fmean(margins[i, policy]))
        w, wl, wh = interval(win_gain)
        v, vl, vh = interval(vp_gain)
        print(f"{spec:28s} {departs:4d}/{count:<3d} {w:+7.2f} [{wl:+6.2f}, {wh:+6.2f}] "
              f"{v:+7.3f} [{vl:+6.3f}, {vh:+6.3f}] {statistics.fmean(seconds[spec]):10.2f}")


if __name__ == "__main__":
    main()
