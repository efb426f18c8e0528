"""What choosing a plan is worth in wins: whole strategies judged as departures from judge-rush.

benchmarks/decision_quality.py found that no single decision's departure from judge-rush's
answer measurably changes its chance of winning. This asks the same of whole plans: at the same
positions (seat 0's Movement and Acquisitions decisions of 4-player judge-rush games, rounds 3-4
and 7-8), seat 0 switches to another strategy (``--plans``: any strategy entries) and plays it
to the end of the game, or for ``--rounds`` rounds and then judge-rush again, while the rivals go
on playing judge-rush. World k deals the hidden cards, the deck and the dice anew from what seat
0 knows (``view.determinise``) and is shared by every plan at the position, and so are the
rivals' generators (common random numbers), so a plan's gain is its own, not the deal's. Every
plan starts afresh there, judge-rush going on included; the plan ``own`` is seat 0's own player
from the game (replayed to the position), which keeps the goals it committed to.

It prints each plan's win gain over judge-rush going on (mean over positions, 95% interval), how
widely the true gains spread over positions and plans once the worlds' noise is taken out, and
what a search that chooses the plan by whole-game play-outs would gain: the plan with the best
win rate on ``m`` worlds (judge-rush kept on ties), scored on the other worlds (cross-fitted both
ways, so the choice's luck is not counted as its worth), for several ``m``. With ``--searches``
(``mcts:plans=...`` entries, their plans among ``--plans``) each search chooses a plan at every
position on worlds of its own, and its choice is scored on the study's worlds.

    python benchmarks/plan_quality.py --positions 40 --worlds 60 --workers 2
    python benchmarks/plan_quality.py --plans "economist,judge-rush:assault=0.9" --rounds 1
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from decision_quality import POLICY, interval, position_tables, true_spread  # noqa: E402  (sibling benchmarks)
from search_noise import game_positions  # noqa: E402

from plsim.runs import split_entries  # noqa: E402
from plsim.strategy.registry import resolve  # noqa: E402
from strategies.simulation import Policies, play_out  # noqa: E402

OWN = "own"  # seat 0's own judge-rush player from the game, with its plan and goals so far
_ORIGINS: list[tuple[int, int]] = []  # (game seed, ordinal in that game) of every position


def own_player(count: int, index: int):
    """Seat 0's player of the game of position ``index``, as it stood there: the game replayed."""
    if not _ORIGINS:
        seed = 100
        while len(_ORIGINS) < count:
            seed += 1
            _ORIGINS.extend((seed, n) for n, _ in enumerate(game_positions(seed)))
    seed, ordinal = _ORIGINS[index]
    for n, (_, players) in enumerate(game_positions(seed)):
        if n == ordinal:
            return players[0]
    raise AssertionError(f"position {index} not found again")


def outcomes(task: tuple[int, int, str, int, int]) -> tuple[int, str, list[float], list[float], float]:
    """(position, plan, seat 0's win in each world, its final VP margin, CPU seconds): seat 0
    plays ``plan`` from the position for ``rounds`` rounds (0: to the end), judge-rush after."""
    began = time.process_time()
    count, index, plan, rounds, worlds = task
    table = position_tables(count)[index]
    view = table.view(0)
    policy = resolve(POLICY).cls
    chosen = None if plan == OWN else resolve(plan)
    wins, margins = [], []
    for k in range(worlds):
        rng = random.Random(7919 * index + k)
        world = view.determinise(rng)
        policies = Policies(policy, view.n_players, random.Random(rng.getrandbits(64)))
        own = policies.players[0]
        seed = rng.getrandbits(64)
        policies.players[0] = own_player(count, index) if chosen is None else chosen.make(0, seed)
        last = view.round + rounds - 1 if rounds else sys.maxsize
        play_out(world, policies, last_round=last, cap=sys.maxsize)
        policies.players[0] = own
        play_out(world, policies, last_round=sys.maxsize, cap=sys.maxsize)
        result = world.result
        wins.append(1.0 if result.winner == 0 else 0.0)
        vp = result.final_vp
        margins.append(vp[0] - max(vp[1:]))
    return index, plan, wins, margins, time.process_time() - began


def search_choice(task: tuple[int, int, str]) -> tuple[int, str, str, float]:
    """(position, search, the plan it chose there, seconds the choice took)."""
    count, index, spec = task
    table = position_tables(count)[index]
    strategy = resolve(spec).make(0, 1000 + index)
    start = time.perf_counter()
    strategy.choose(table.view(0), table.decision)
    spent = time.perf_counter() - start
    return index, spec, strategy.plans.choices[-1][1], spent


def chosen_gain(wins: dict, count: int, plans: list[str], m: int, rng: random.Random) -> list[float]:
    """Per position, the held-out win gain over judge-rush of the plan a search would choose by
    its win rate on ``m`` worlds (judge-rush on ties), cross-fitted: the worlds are split at
    random into ``m`` to choose and the rest to score, and then the other way round when the
    rest has ``m`` too."""
    worlds = len(wins[0, POLICY])
    gains = []
    for i in range(count):
        order = list(range(worlds))
        rng.shuffle(order)
        folds = [(order[:m], order[m:])]
        if worlds - m >= m:
            folds.append((order[m:2 * m], order[:m] + order[2 * m:]))
        fold_gains = []
        for pick, score in folds:
            def rate(plan: str, ks: list[int]) -> float:
                return statistics.fmean(wins[i, plan][k] for k in ks)
            best = max([POLICY, *plans], key=lambda p: (rate(p, pick), p == POLICY))
            fold_gains.append(100 * (rate(best, score) - rate(POLICY, score)))
        gains.append(statistics.fmean(fold_gains))
    return gains


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=60, help="whole-game play-outs per plan and position")
    parser.add_argument("--plans", default="economist,warlord,zealot,schemer,prophet",
                        help="comma-separated strategy entries seat 0 may switch to (as --players takes them); "
                             f"{OWN!r}: the game's own judge-rush player going on, with its plan and goals so far "
                             "(every other plan, judge-rush included, starts afresh)")
    parser.add_argument("--rounds", type=int, default=0,
                        help="play the plan for this many rounds, then judge-rush again (0: to the end)")
    parser.add_argument("--searches", default="",
                        help="comma-separated mcts:plans=... entries (as --players takes them) whose choices "
                             "are scored; their plans must be among --plans")
    parser.add_argument("--csv", help="write each position's plans and their outcomes to this CSV file")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    plans = split_entries(args.plans.replace(";", ","))
    searches = split_entries(args.searches.replace(";", ",")) if args.searches else []
    for entry in [*plans, *searches]:
        if entry != OWN:
            resolve(entry)  # an unknown entry fails here, before any play-out
    for search in searches:
        outside = set(resolve(search).make(0, 0).plans.names) - {POLICY, *plans}
        if outside:
            parser.error(f"{search}: plans {sorted(outside)} are not among --plans")
    count = args.positions
    position_tables(count)
    tasks = [(count, i, p, args.rounds, args.worlds) for i in range(count) for p in [POLICY, *plans]]
    wins: dict[tuple[int, str], list[float]] = {}
    margins: dict[tuple[int, str], list[float]] = {}
    cpu = 0.0
    chosen: dict[tuple[int, str], str] = {}
    seconds: dict[str, list[float]] = {s: [] for s in searches}
    with ProcessPoolExecutor(args.workers) as pool:
        for index, spec, plan, spent in pool.map(search_choice, [(count, i, s) for i in range(count) for s in searches]):
            chosen[index, spec] = plan
            seconds[spec].append(spent)
        for index, plan, w, m, spent in pool.map(outcomes, tasks):
            wins[index, plan], margins[index, plan] = w, m
            cpu += spent
    span = f"for {args.rounds} round{'s' if args.rounds != 1 else ''}, then judge-rush" if args.rounds else "to the end"
    base = statistics.fmean(statistics.fmean(wins[i, POLICY]) for i in range(count))
    print(f"{count} positions, {args.worlds} worlds each; seat 0 plays the plan {span}; "
          f"{cpu / len(tasks) / args.worlds:.2f} s of a core a play-out")
    print(f"judge-rush going on wins {base:.1%} of the play-outs (fair share 25%)\n")
    print(f"{'plan':28s} {'win - judge-rush, pp [95%]':>28s} {'VP margin - judge-rush':>26s}")
    rows = []
    for plan in plans:
        win_gain, vp_gain = [], []
        for i in range(count):
            diffs = [100 * (a - b) for a, b in zip(wins[i, plan], wins[i, POLICY])]
            rows.append((statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))))
            win_gain.append(statistics.fmean(diffs))
            vp_gain.append(statistics.fmean(margins[i, plan]) - statistics.fmean(margins[i, POLICY]))
        w, wl, wh = interval(win_gain)
        v, vl, vh = interval(vp_gain)
        print(f"{plan:28s} {w:+8.2f} [{wl:+7.2f}, {wh:+7.2f}] {v:+9.3f} [{vl:+6.3f}, {vh:+6.3f}]")
    gains = [r[0] for r in rows]
    noise, true_sd, bound = true_spread(rows)
    print(f"\n{len(rows)} plan departures: win gains spread {statistics.stdev(gains):.2f} pp, of which the worlds' "
          f"noise {math.sqrt(noise):.2f} pp: true gains spread about {true_sd:.2f} pp (at most {bound:.1f} pp, "
          f"one-sided 95%) over positions and plans")
    print("\na search choosing the plan by whole-game play-outs (judge-rush kept on ties), scored on other worlds:")
    rng = random.Random(1)
    for m in sorted({5, 10, 20, args.worlds // 2} - {0}):
        if m >= args.worlds:
            continue
        g, gl, gh = interval(chosen_gain(wins, count, plans, m, rng))
        cost = m * (len(plans) + 1) * cpu / len(tasks) / args.worlds
        print(f"  {m:3d} play-outs a plan ({cost:6.0f} s of a core a choice): {g:+6.2f} pp [{gl:+6.2f}, {gh:+6.2f}]")
    for spec in searches:
        gain = [100 * (statistics.fmean(wins[i, chosen[i, spec]]) - statistics.fmean(wins[i, POLICY]))
                for i in range(count)]
        g, gl, gh = interval(gain)
        picks = Counter(chosen[i, spec] for i in range(count)).most_common()
        print(f"\n{spec}: chose {', '.join(f'{plan} {n}' for plan, n in picks)} of {count} positions, "
              f"{statistics.fmean(seconds[spec]):.1f} s a choice; on the study's worlds its choices win "
              f"{g:+.2f} pp [{gl:+.2f}, {gh:+.2f}] over judge-rush going on")
    if args.csv:
        with open(args.csv, "w", newline="") as handle:
            out = csv.writer(handle)
            out.writerow(["position", "round", "kind", "plan", "worlds", "win_rate", "vp_margin", "chosen_by"])
            for (i, plan) in sorted(wins):
                table = position_tables(count)[i]
                out.writerow([i, table.round, table.decision.kind.name, plan, len(wins[i, plan]),
                              statistics.fmean(wins[i, plan]), statistics.fmean(margins[i, plan]),
                              ";".join(s for s in searches if chosen[i, s] == plan)])
        print(f"\nwrote {args.csv}")


if __name__ == "__main__":
    main()
