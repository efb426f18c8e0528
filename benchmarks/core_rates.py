"""The forward model's speed for one plsim checkout, as JSON on stdout (issue 44's targets).

    CHECKOUT/.venv/bin/python benchmarks/core_rates.py CHECKOUT [--states 8] [--repeat 400]

``bench_engine.py --baseline`` runs this under both checkouts' Pythons in turns. It uses only the
API both share: ``Table.new``, ``decision``, ``apply``, ``clone``, ``determinise``. Per CPU second
of this process: clones and determinised copies of mid-game 4-player states (random answers to
round 8), applies with random answers over whole games, and random play-outs from determinised
copies to the end of the state's round, the answers drawn in Python as a search strategy of the
baseline did; where the checkout's core plays a play-out itself (``Table.playout``), that
figure too.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path


def round_of(table) -> int:
    return table.round if hasattr(type(table), "round") else table.state.round


def states(count: int, board, rules, Table) -> list:
    """Mid-game tables: 4-player games answered at random up to round 8."""
    tables, seed = [], 0
    while len(tables) < count:
        seed += 1
        rng = random.Random(seed)
        table = Table.new(board, rules, seed, players=4)
        while table.decision is not None and round_of(table) < 8:
            table.apply(rng.choice(table.decision.options))
        if table.decision is not None:
            tables.append(table)
    return tables


def per_cpu_second(work, repeat: int) -> float:
    began = time.process_time()
    for _ in range(repeat):
        work()
    return repeat / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--states", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=400, help="clones of each state (determinised: a fifth)")
    parser.add_argument("--games", type=int, default=4, help="random games for the cost of apply")
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))
    from plsim.board import default_board
    from plsim.engine import Table
    from plsim.rules import Rules

    board, rules = default_board(), Rules()
    tables = states(args.states, board, rules, Table)
    clones = sum(per_cpu_second(t.clone, args.repeat) for t in tables) / len(tables)
    rng = random.Random(0)
    redeals = sum(per_cpu_second(lambda t=t: t.determinise(t.decision.seat, rng), max(1, args.repeat // 5))
                  for t in tables) / len(tables)
    applies = decisions = 0
    began = time.process_time()
    for seed in range(args.games):
        answers = random.Random(seed)
        table = Table.new(board, rules, seed, players=4)
        while (decision := table.decision) is not None:
            table.apply(answers.choice(decision.options))
            applies += 1
    applies_per_s = applies / (time.process_time() - began)
    playouts = []
    answers = random.Random(1)
    began = time.process_time()
    driven = 16 * len(tables)  # about 150 ms for the baseline: a shorter window is mostly noise
    for i in range(driven):
        table = tables[i % len(tables)]
        copy = table.determinise(table.decision.seat, answers)
        start = round_of(copy)
        while (decision := copy.decision) is not None and round_of(copy) == start:
            copy.apply(answers.choice(decision.options))
            decisions += 1
    playouts.append(driven / (time.process_time() - began))
    native = None
    if hasattr(tables[0], "playout"):
        began = time.process_time()
        count = 400 * len(tables)  # about 70 ms: the first 320 (the memo warming up) run 10% slower
        for i in range(count):
            table = tables[i % len(tables)]
            table.determinise(table.decision.seat, answers).playout(i, "round")
        native = count / (time.process_time() - began)
    print(json.dumps({"clones": clones, "determinised": redeals, "applies": applies_per_s,
                      "playouts": playouts[0], "native_playouts": native}))


if __name__ == "__main__":
    main()
