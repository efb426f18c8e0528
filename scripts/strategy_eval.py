"""Evaluate the scripted strategies (issue 5): each against three `random` players, and among
themselves.

    python scripts/strategy_eval.py                     # all five, 2000 games each vs random
    python scripts/strategy_eval.py judge-rush -n 200   # one strategy, 200 games
    python scripts/strategy_eval.py --among -n 500      # the five against each other

Against random: game i (seeds 0..N-1) puts STRATEGY in seat i % 4 and `random` in the others.
Among: each table seats 4 of the 5 scripted strategies, the left-out one and the seat order
rotating with the seed. Games run in a multiprocessing.Pool (2 workers by default) over
``plsim.engine.play_game`` with strategies made by ``plsim.strategy.registry``.
Prints games, wins, win rate with its 95% Wilson interval, mean rounds and the end reasons; for
--among also each strategy's wins and the share of games that ended (a win or a collapse)
before the round limit.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from multiprocessing import Pool

from plsim.board import default_board
from plsim.engine.game import play_game
from plsim.rules import Rules
from plsim.strategy.registry import resolve

SCRIPTED = ("economist", "warlord", "judge-rush", "zealot", "schemer")

_BOARD = None
_RULES = None


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _init() -> None:
    global _BOARD, _RULES
    _BOARD = default_board()
    _RULES = Rules()


def table_vs_random(entry: str, seed: int, players: int) -> list[str]:
    seat = seed % players
    return [entry if i == seat else "random" for i in range(players)]


def table_among(entries: list[str], seed: int, players: int) -> list[str]:
    k = len(entries)
    left_out = seed % k
    chosen = [e for i, e in enumerate(entries) if i != left_out][:players]
    shift = (seed // k) % players
    return chosen[shift:] + chosen[:shift]


def play_one(job: tuple[list[str], int]) -> dict:
    entries, seed = job
    specs = [resolve(e) for e in entries]
    strategies = [spec.make(seat, seed) for seat, spec in enumerate(specs)]
    result = play_game(_BOARD, _RULES, strategies, seed)
    return {
        "seed": seed,
        "entries": entries,
        "winner": result.winner,
        "winners": result.winners,
        "reason": result.end_reason,
        "rounds": result.rounds,
    }


def run(jobs: list[tuple[list[str], int]], workers: int) -> list[dict]:
    if workers <= 1:
        _init()
        return [play_one(job) for job in jobs]
    with Pool(workers, initializer=_init) as pool:
        return pool.map(play_one, jobs, chunksize=8)


def report_vs_random(entry: str, games: list[dict], players: int) -> None:
    n = len(games)
    wins = sum(1 for g in games if g["winner"] is not None and g["entries"][g["winner"]] == entry)
    lo, hi = wilson(wins, n)
    reasons = Counter(g["reason"] for g in games)
    mean_rounds = sum(g["rounds"] for g in games) / max(1, n)
    reason_text = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items()))
    print(f"{entry:<12} games {n:5d}  wins {wins:5d}  win rate {wins / max(1, n):6.1%}  "
          f"95% CI [{lo:6.1%}, {hi:6.1%}]  mean rounds {mean_rounds:5.1f}  ends: {reason_text}")


def report_among(games: list[dict], entries: list[str]) -> None:
    n = len(games)
    reasons = Counter(g["reason"] for g in games)
    ended = sum(1 for g in games if g["reason"] in ("victory", "draw", "collapse"))
    lo, hi = wilson(ended, n)
    mean_rounds = sum(g["rounds"] for g in games) / max(1, n)
    print(f"among {', '.join(entries)}: {n} games, mean rounds {mean_rounds:.1f}")
    print("  ends: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    print(f"  ended before the round limit (win, draw or collapse): {ended}/{n} = {ended / max(1, n):.1%} "
          f"95% CI [{lo:.1%}, {hi:.1%}]")
    seated: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for g in games:
        seated.update(g["entries"])
        if g["winner"] is not None:
            won[g["entries"][g["winner"]]] += 1
    for e in entries:
        w, s = won[e], seated[e]
        lo, hi = wilson(w, s)
        print(f"  {e:<12} seated {s:5d}  wins {w:5d}  win rate {w / max(1, s):6.1%}  95% CI [{lo:6.1%}, {hi:6.1%}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("strategies", nargs="*", help=f"strategy entries (default: {', '.join(SCRIPTED)})")
    parser.add_argument("-n", "--games", type=int, default=2000, help="games per strategy (default 2000)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--among", action="store_true", help="play the strategies against each other")
    args = parser.parse_args(argv)
    entries = args.strategies or list(SCRIPTED)
    start = time.time()
    if args.among:
        if len(entries) < args.players:
            parser.error(f"--among needs at least {args.players} strategies")
        jobs = [(table_among(entries, seed, args.players), seed) for seed in range(args.games)]
        report_among(run(jobs, args.workers), entries)
    else:
        for entry in entries:
            jobs = [(table_vs_random(entry, seed, args.players), seed) for seed in range(args.games)]
            report_vs_random(entry, run(jobs, args.workers), args.players)
            sys.stdout.flush()
    print(f"({time.time() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
