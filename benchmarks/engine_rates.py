"""One process's engine speed for one plsim checkout, as JSON on stdout.

    CHECKOUT/.venv/bin/python benchmarks/engine_rates.py CHECKOUT --games 30 [--players 2,3,4,5,6]

``bench_engine.py`` runs this under the current checkout's Python and under a ``--baseline``
checkout's, so that both are measured by the same code in the same run. It uses only the API both
share (``load_scenario``, ``load_board``, ``resolve``, ``game_seed``, ``play_game``). Rates are per
CPU second of this process (the machine is shared: CPU time is what one core gives a game) and per
wall second; a game with the same seed is played before the clock starts, so the board's tables
and the imports are not counted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

KINDS = ("random", "scripted")


class Timed:
    """A strategy asked from Python at every decision (never played by the core in stretches, as
    ``play_game`` plays a seat whose class declares ``native_policy``), its ``choose`` adding the
    CPU time it takes to ``clock[0]``."""

    def __init__(self, strategy, clock: list[float]) -> None:
        self.strategy, self.clock = strategy, clock
        self.name, self.seat = strategy.name, strategy.seat

    def choose(self, view, decision):
        began = time.process_time()
        try:
            return self.strategy.choose(view, decision)
        finally:
            self.clock[0] += time.process_time() - began


def measure(players: int, games: int, kind: str, seed: int, split: bool = False) -> dict:
    """Play ``games`` games of ``standard-{players}p`` with ``random`` or the scenario's strategies;
    with ``split``, also the CPU time spent inside the strategies' ``choose``, each asked from
    Python (a separate pass, since the clock calls cost a little)."""
    # imported here: which checkout's plsim is imported is only known once main() set sys.path
    from plsim.board import load_board
    from plsim.engine.game import play_game
    from plsim.runner.seeding import game_seed
    from plsim.scenario import load_scenario
    from plsim.strategy.registry import resolve

    scenario = load_scenario(f"standard-{players}p")
    board = load_board(scenario.map)
    entries = scenario.seat_strategies() if kind == "scripted" else ("random",) * players
    specs = [resolve(entry) for entry in entries]

    clock = [0.0]

    def one(index: int):
        s = game_seed(seed, index)
        strategies = [spec.make(seat, s) for seat, spec in enumerate(specs)]
        if split:
            strategies = [Timed(strategy, clock) for strategy in strategies]
        return play_game(board, scenario.rules, strategies, s)

    one(0)
    decisions = rounds = 0
    clock[0] = 0.0
    cpu, wall = time.process_time(), time.perf_counter()
    for index in range(games):
        result = one(index)
        decisions += result.decisions
        rounds += result.rounds
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"kind": kind, "players": players, "games": games, "cpu_s": cpu, "wall_s": wall,
            "decisions": decisions, "rounds": rounds, **({"strategy_cpu_s": clock[0]} if split else {})}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="the plsim checkout whose code is measured")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", default="2,3,4,5,6")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", action="store_true", help="also time the strategies (a slower pass)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.checkout.resolve()))
    rows = [measure(int(players), args.games, kind, args.seed, args.split)
            for kind in args.kinds.split(",") for players in args.players.split(",")]
    json.dump(rows, sys.stdout)


if __name__ == "__main__":
    main()
