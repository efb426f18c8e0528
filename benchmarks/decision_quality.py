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

On the way to the end, each play-out passes the searches' horizon (the end of the round, at
most ``depth`` decisions) and the ends of the next two rounds: the evaluation's value there, on
the same worlds, is what a search with unlimited play-outs to that horizon would rank the
options by. Over every departure played
(the searches', and with ``--alternatives`` the best one-step options too) it prints how far
the evaluation's gain predicts the win gain: the slope (a calibrated evaluation gives +100 pp a
unit) and the correlation, how widely the departures' true effects spread once the worlds'
noise is taken out, and what telling options apart by whole games would cost (``--detect``).

It judges in judge-rush's world (every rival plays judge-rush, as in
``plsim compare SEARCH judge-rush --field judge-rush``), at the decisions sampled, one decision
at a time (the rest of the game is played by judge-rush, not by the search).

    python benchmarks/decision_quality.py --positions 40 --worlds 60 --workers 2
    python benchmarks/decision_quality.py --positions 40 --worlds 80 --alternatives 2 --csv dq.csv
"""

from __future__ import annotations

import argparse
import csv
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

from plsim.runs import split_entries  # noqa: E402
from plsim.strategy import DecisionKind  # noqa: E402
from plsim.strategy.registry import resolve  # noqa: E402
from strategies.evaluation import Weights, position_value  # noqa: E402
from strategies.simulation import Policies, play_out  # noqa: E402

POLICY = "judge-rush"
HORIZONS = (1, 2, 3)  # the ends of this round and of the next two (at most ``depth`` decisions a round)
_TABLES: list = []
_LATE = [0]  # ``--late``, set in every worker process by ``set_late``


def set_late(late: int) -> None:
    _LATE[0] = late


def position_tables(count: int) -> list:
    """The positions, built once per worker process (they are the same in every process)."""
    if len(_TABLES) < count:
        _TABLES[:] = positions(count, _LATE[0])
    return _TABLES


def answer(task: tuple[int, int, str]) -> tuple[int, str, int, float]:
    """(position, search, the index of its answer among the options, seconds it took)."""
    count, index, spec = task
    table = position_tables(count)[index]
    decision, view = table.decision, table.view(0)
    strategy = resolve(spec).make(0, 1000 + index)
    start = time.perf_counter()
    choice = strategy.choose(view, decision)
    spent = time.perf_counter() - start
    return index, spec, decision.options.index(choice), spent


def outcomes(task: tuple[int, int, int, int]) -> tuple[int, int, list[float], list[float], list[list[float]], float]:
    """(position, option, seat 0's win in each world, its final VP margin, the evaluation's
    value in each world at each of the ``HORIZONS`` passed on the way, and the CPU seconds the
    play-outs took)."""
    began = time.process_time()
    count, index, option_index, worlds = task
    table = position_tables(count)[index]
    view = table.view(0)
    policy = resolve(POLICY).cls
    horizon = resolve("rollout").make(0, 0).settings  # the searches' horizon and evaluation, at their defaults
    weights = Weights.of(horizon)
    wins, margins, values = [], [], [[] for _ in HORIZONS]
    for k in range(worlds):
        rng = random.Random(7919 * index + k)
        world = view.determinise(rng)
        policies = Policies(policy, view.n_players, random.Random(rng.getrandbits(64)))
        world.apply(world.decision.options[option_index])
        played = 0
        for rounds, at in zip(HORIZONS, values):
            played += play_out(world, policies, last_round=view.round + rounds - 1, cap=rounds * horizon["depth"] - played)
            at.append(position_value(world, 0, weights))
        play_out(world, policies, last_round=sys.maxsize, cap=sys.maxsize)  # on to the game's end
        result = world.result
        wins.append(1.0 if result.winner == 0 else 0.0)
        vp = result.final_vp
        margins.append(vp[0] - max(vp[1:]))
    return index, option_index, wins, margins, values, time.process_time() - began


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% t interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half  # by hand: scipy's t.interval gives nan at a spread of 0


def alternatives(task: tuple[int, int, int]) -> tuple[int, list[int]]:
    """(position, the ``k`` options other than the policy's answer that score best one step
    ahead, as ``rollout`` ranks its candidates)."""
    count, index, k = task
    table = position_tables(count)[index]
    rollout = resolve("rollout").make(0, 2000 + index)
    kept = rollout.candidates(table.view(0), table.decision, random.Random(index))[1:k + 1]
    options = table.decision.options
    return index, [options.index(o) for o in kept]


def departures(count: int, chosen: dict, wins: dict, values: dict) -> list[tuple[float, float, list[float]]]:
    """(win gain in pp, its standard error over the worlds, the value gain at each horizon) of
    every option played that is not the policy's answer, each against the policy's answer there."""
    out = []
    for i in range(count):
        policy = chosen[i, POLICY]
        others = {o for (j, o) in wins if j == i and o != policy}
        for option in sorted(others):
            diffs = [100 * (a - b) for a, b in zip(wins[i, option], wins[i, policy])]
            se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
            out.append((statistics.fmean(diffs), se,
                        [statistics.fmean(a) - statistics.fmean(b) for a, b in zip(values[i, option], values[i, policy])]))
    return out


def true_spread(rows: list[tuple]) -> tuple[float, float, float]:
    """(the worlds' noise variance, the true effects' standard deviation, its one-sided 95% upper
    bound) of gains given as (gain, its standard error, ...) rows: the observed variance less the
    mean squared standard error, bounded by the observed variance's own standard error (normal
    approximation)."""
    gains = [r[0] for r in rows]
    noise = statistics.fmean(r[1] ** 2 for r in rows)
    observed = statistics.variance(gains)
    true_sd = math.sqrt(max(0.0, observed - noise))
    bound = math.sqrt(max(0.0, observed - noise + stats.norm.ppf(0.95) * observed * math.sqrt(2 / (len(gains) - 1))))
    return noise, true_sd, bound


def report_evaluation(rows: list[tuple[float, float, list[float]]], worlds: int, playout_seconds: float,
                      detect: float) -> None:
    """Does the evaluation at a horizon, on the same worlds, predict which departures win? And
    what would judging options by whole games cost: the paired play-outs an option needs to
    tell a difference of ``detect`` pp of win chance (one-sided 5%, power 80%), at the
    ``playout_seconds`` one play-out to the end took here."""
    if len(rows) < 3:
        print("too few departures to relate the evaluation to the wins")
        return
    gains = [r[0] for r in rows]
    noise, true_sd, bound = true_spread(rows)
    print(f"\n{len(rows)} departures played (every search's, and the alternatives'):")
    print(f"  win gain over the policy's answer: mean {statistics.fmean(gains):+.2f} pp, spread {statistics.stdev(gains):.2f} pp, "
          f"of which the worlds' noise {math.sqrt(noise):.2f} pp: true effects spread about {true_sd:.2f} pp "
          f"(at most {bound:.1f} pp, one-sided 95%)")
    paired_sd = math.sqrt(noise * worlds)  # a departure's win difference in one world, paired
    needed = ((stats.norm.ppf(0.95) + stats.norm.ppf(0.80)) * paired_sd / detect) ** 2
    print(f"  judging by whole games: one world's paired difference spreads {paired_sd:.0f} pp, so telling "
          f"{detect:g} pp apart (one-sided 5%, power 80%) takes about {needed:,.0f} play-outs to the end an option; "
          f"one took {playout_seconds:.2f} s of a core here, so {needed * playout_seconds / 60:.0f} minutes a candidate")
    print("  the evaluation's gain on the same worlds, at the end of the round and of the next rounds, "
          "against the win gain (a calibrated evaluation: +100 pp a unit):")
    for h, rounds in enumerate(HORIZONS):
        value_gains = [r[2][h] for r in rows]
        fit = stats.linregress(value_gains, gains)
        half = stats.t.ppf(0.975, len(rows) - 2) * fit.stderr
        r = stats.pearsonr(value_gains, gains)
        low, high = r.confidence_interval(0.95)
        print(f"    {rounds} round{'s' if rounds > 1 else ' '}: value gain mean {statistics.fmean(value_gains):+.4f}, "
              f"spread {statistics.stdev(value_gains):.4f}; {fit.slope:+7.1f} pp a unit [{fit.slope - half:+.1f}, "
              f"{fit.slope + half:+.1f}], correlation {r.statistic:+.2f} [{low:+.2f}, {high:+.2f}]")


def write_csv(path: str, count: int, chosen: dict, searches: list[str], wins: dict, margins: dict,
              values: dict) -> None:
    """One row per position and option played: who chose it and what it came to."""
    tables = position_tables(count)
    with open(path, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["position", "round", "kind", "option", "answer", "chosen_by", "worlds", "win_rate",
                      "vp_margin", *(f"value_{h}_rounds" for h in HORIZONS)])
        for (i, o) in sorted(wins):
            decision = tables[i].decision
            by = [s for s in [POLICY, *searches] if chosen[i, s] == o]
            out.writerow([i, tables[i].round, decision.kind.name, o, repr(decision.options[o]), ";".join(by),
                          len(wins[i, o]), statistics.fmean(wins[i, o]), statistics.fmean(margins[i, o]),
                          *(statistics.fmean(v) for v in values[i, o])])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=60, help="whole-game play-outs per option")
    parser.add_argument("--searches", default="lookahead,rollout,mcts,mcts:iterations=200",
                        help="comma-separated strategy entries, as --players takes them (';' also separates an entry's "
                             "parameters)")
    parser.add_argument("--alternatives", type=int, default=0,
                        help="also play this many of the best one-step options a position (more departures "
                             "to relate the evaluation to the wins)")
    parser.add_argument("--csv", help="write each position's options and outcomes to this CSV file")
    parser.add_argument("--detect", type=float, default=2.0,
                        help="the difference in win chance, in pp, whose cost of detection by play-outs is printed")
    parser.add_argument("--late", type=int, default=0,
                        help="sample instead decisions of any kind once some player holds this many VP "
                             "(the end of the game in sight), two rounds a game")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    set_late(args.late)
    searches = split_entries(args.searches.replace(";", ","))
    count = args.positions
    tables = position_tables(count)
    with ProcessPoolExecutor(args.workers, initializer=set_late, initargs=(args.late,)) as pool:
        chosen: dict[tuple[int, str], int] = {}
        seconds: dict[str, list[float]] = {s: [] for s in searches}
        for index, spec, choice, spent in pool.map(answer, [(count, i, s) for i in range(count)
                                                             for s in [POLICY, *searches]]):
            chosen[index, spec] = choice
            if spec != POLICY:
                seconds[spec].append(spent)
        extra: dict[int, list[int]] = dict(pool.map(alternatives, [(count, i, args.alternatives) for i in range(count)]))
        needed = sorted({(i, chosen[i, s]) for i in range(count) for s in [POLICY, *searches]}
                        | {(i, o) for i in range(count) for o in extra[i]})
        print(f"{count} positions ({sum(1 for t in tables if t.decision.kind is DecisionKind.MOVEMENT)} Movement); "
              f"{len(needed)} options played to the end, {args.worlds} worlds each", flush=True)
        wins: dict[tuple[int, int], list[float]] = {}
        margins: dict[tuple[int, int], list[float]] = {}
        values: dict[tuple[int, int], list[float]] = {}
        cpu = 0.0
        for index, option, w, m, v, spent in pool.map(outcomes, [(count, i, o, args.worlds) for i, o in needed]):
            wins[index, option], margins[index, option], values[index, option] = w, m, v
            cpu += spent
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
    report_evaluation(departures(count, chosen, wins, values), args.worlds, cpu / (len(needed) * args.worlds), args.detect)
    if args.csv:
        write_csv(args.csv, count, chosen, searches, wins, margins, values)
        print(f"\nwrote {args.csv}")


if __name__ == "__main__":
    main()
