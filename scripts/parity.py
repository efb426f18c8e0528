"""Play the Python engine and the Rust core side by side and stop at the first difference.

    python scripts/parity.py --games 1000 --players 2-6 --seed 1 [--switches] [--check]

It needs both engines: run it in a checkout of commit f7f88af (the Python engine and the core
beside it, as plsim.engine.native.NativeTable), with the core's sources of the commit to check
copied in and built. Since the Python rules code was deleted, tests/test_parity.py compares the
core with the games this engine recorded (scripts/parity_digests.py).

Each game is seeded alike in both engines and answered alike, at random among the options (from
a generator of its own); after every answer the pending decision (seat, kind, options in order,
context), the events logged since and, at the end, the result and the saved state must agree.
Prints one line per thousand games and the first difference in full; exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time

from plsim.board import default_board
from plsim.engine.native import NativeTable
from plsim.engine.position import state_to_dict
from plsim.engine.table import Table
from plsim.rules import Rules, with_params

from parity_digests import SWITCHES  # the rule sets the run cycles through, one home for both scripts


class Difference(Exception):
    pass


def decision_of(table) -> tuple | None:
    d = table.decision
    if d is None:
        return None
    return (d.seat, str(d.kind), tuple(d.options), dict(d.context))


def play_pair(board, rules: Rules, seed: int, players: int, check: bool) -> int:
    """One game in both engines; the number of decisions; Difference at the first disagreement."""
    ours: list[dict] = []
    theirs: list[dict] = []
    py = Table.new(board, rules, seed, players, log=ours.append, check=check)
    nat = NativeTable.new(board, rules, seed, players, log=theirs.append, check=check)
    answers = random.Random(seed * 7919 + players)
    step = 0
    while True:
        if ours != theirs:
            first = next(i for i, (a, b) in enumerate(itertools.zip_longest(ours, theirs)) if a != b)
            raise Difference(f"seed {seed}, {players} players, after answer {step}: event {first} differs:\n"
                             f"  python: {ours[first] if first < len(ours) else None}\n"
                             f"  native: {theirs[first] if first < len(theirs) else None}")
        ours.clear()
        theirs.clear()
        a, b = decision_of(py), decision_of(nat)
        if a != b:
            raise Difference(f"seed {seed}, {players} players, after answer {step}: decision differs:\n"
                             f"  python: {a}\n  native: {b}")
        if a is None:
            break
        index = answers.randrange(len(a[2]))
        py.apply(py.decision.options[index])
        nat.answer_index(index)
        step += 1
    if py.result != nat.result:
        raise Difference(f"seed {seed}, {players} players: results differ:\n  python: {py.result}\n  native: {nat.result}")
    saved = json.loads(json.dumps(state_to_dict(py.state)))
    if saved != nat.state_dict():
        raise Difference(f"seed {seed}, {players} players: final states differ")
    return step


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", default="2-6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--switches", action="store_true", help="cycle through the rule switches and deck changes")
    parser.add_argument("--check", action="store_true", help="check mode in both engines (slower)")
    args = parser.parse_args()
    low, _, high = args.players.partition("-")
    counts = list(range(int(low), int(high or low) + 1))
    board = default_board()
    variants = [with_params(Rules(), s) for s in SWITCHES] if args.switches else [Rules()]
    began = time.perf_counter()
    decisions = 0
    for i in range(args.games):
        seed = args.seed * 1_000_003 + i
        players = counts[i % len(counts)]
        rules = variants[(i // len(counts)) % len(variants)]
        try:
            decisions += play_pair(board, rules, seed, players, args.check)
        except Difference as diff:
            print(f"DIFFERENCE in game {i} (rules {SWITCHES[variants.index(rules)] if args.switches else {}}):\n{diff}")
            sys.exit(1)
        if (i + 1) % 1000 == 0:
            print(f"{i + 1} games identical ({decisions} decisions, {time.perf_counter() - began:.0f} s)", flush=True)
    print(f"all {args.games} games identical: {decisions} decisions, {len(counts)} player counts, "
          f"{len(variants)} rule sets, {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
