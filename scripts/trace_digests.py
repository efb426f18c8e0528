"""Trace digests: one hash per game of everything it did, stricter than ``game_digests.py``.

A game's trace is every event the engine logged and every decision it asked (kind, seat, the
options offered, the answer), in order. Two versions of the engine whose traces agree on many
seeds play the same games step for step, not only to the same ends: the check for a refactoring
of the engine that must change nothing.

    python scripts/trace_digests.py --players economist,warlord,judge-rush,schemer --games 50 > a.txt
    (other checkout) python scripts/trace_digests.py ... > b.txt && diff a.txt b.txt

Uses only ``play_game`` and the registry, so it runs on older checkouts too.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from plsim.board import load_board
from plsim.engine.game import play_game
from plsim.runner.seeding import game_seed
from plsim.scenario import as_scenario
from plsim.strategy.registry import resolve_all


class Traced:
    """Wraps a strategy: every decision it is asked, and its answer, go into the trace."""

    def __init__(self, inner, trace: list) -> None:
        self.inner = inner
        self.name = inner.name
        self.trace = trace

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def choose(self, view, decision):
        answer = self.inner.choose(view, decision)
        self.trace.append(("ask", str(decision.kind), decision.seat, repr(decision.options),
                           repr(dict(decision.context)), repr(answer)))
        return answer


def trace_of(board, rules, entries, specs, seed: int, check: bool) -> list:
    trace: list = []
    strategies = [Traced(spec.make(seat, seed), trace) for seat, spec in enumerate(specs)]
    result = play_game(board, rules, strategies, seed, log=lambda e: trace.append(json.dumps(e, sort_keys=True)),
                       check_invariants=check)
    trace.append(repr((result.rounds, result.end_reason, result.winners, result.final_vp, result.final_coins,
                       result.decisions, result.round_rows, result.card_events)))
    return trace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", nargs="?", default=None)
    parser.add_argument("--players", default="economist,warlord,judge-rush,schemer")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--check", action="store_true", help="play in check mode")
    args = parser.parse_args()
    scenario = as_scenario(args.scenario)
    board = load_board(scenario.map)
    entries = args.players.split(",")
    entries = [entries[seat % len(entries)] for seat in range(scenario.players)]
    specs = resolve_all(entries)
    for index in range(args.games):
        seed = game_seed(args.seed, index)
        trace = trace_of(board, scenario.rules, entries, specs, seed, args.check)
        digest = hashlib.sha256("\n".join(map(str, trace)).encode()).hexdigest()[:16]
        print(index, seed, len(trace), digest, flush=True)


if __name__ == "__main__":
    main()
