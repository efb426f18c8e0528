"""Engine and runner speed: a script, not a test.

    python benchmarks/bench_engine.py [--games 30] [--batch-games 200] [--workers 2]

Prints, for the ``random`` strategy and for each scenario's own scripted strategies at 2..6
players in this one process: games per second (per core), decisions per second and mean rounds; the peak resident memory (getrusage maxrss) of this
process and of the worker processes; and the speed-up of ``run_batch`` with more workers over one.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from plsim.board import load_board  # noqa: E402
from plsim.engine.game import play_game  # noqa: E402
from plsim.runner.seeding import game_seed  # noqa: E402
from plsim.scenario import load_scenario  # noqa: E402
from plsim.strategy.registry import resolve  # noqa: E402


def engine_speed(players: int, games: int, scripted: bool, seed: int = 0) -> dict:
    """One process: ``random`` in every seat, or the scenario's scripted strategies."""
    scenario = load_scenario(f"standard-{players}p")
    board = load_board(scenario.map)
    entries = scenario.seat_strategies() if scripted else ("random",) * players
    specs = [resolve(entry) for entry in entries]
    decisions = rounds = 0
    began = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        result = play_game(board, scenario.rules, [spec.make(seat, s) for seat, spec in enumerate(specs)], s)
        decisions += result.decisions
        rounds += result.rounds
    seconds = time.perf_counter() - began
    return {"players": players, "games": games, "seconds": seconds, "games_per_s": games / seconds,
            "decisions_per_s": decisions / seconds, "mean_rounds": rounds / games,
            "decisions_per_game": decisions / games}


def batch_speed(games: int, workers: int, folder: Path) -> dict:
    from plsim.runner.batch import run_batch

    began = time.perf_counter()
    result = run_batch("standard-4p", None, games=games, workers=workers, seed=1, out=folder / f"w{workers}",
                       progress=False)
    wall = time.perf_counter() - began
    return {"workers": workers, "wall": wall, "run_wall": result.totals["wall_seconds"],
            "in_games": result.totals["seconds_in_games"], "games_per_s": games / wall,
            "games": result.games.drop("duration_s"), "memory": result.run_info["peak_memory_mib"]}


def mib(kib: int) -> float:
    return kib / 1024  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per player count (one process)")
    parser.add_argument("--batch-games", type=int, default=200, help="games for the worker speed-up")
    parser.add_argument("--workers", type=int, default=2, help="workers to compare with one")
    args = parser.parse_args()

    print(f"plsim engine benchmark: Python {platform.python_version()}, {os.cpu_count()} cores, "
          f"{platform.machine()}")
    print()
    for scripted, title in ((False, "strategy random in every seat"), (True, "each scenario's scripted strategies")):
        print(f"One process, {title}")
        print(f"  {'players':>7}  {'games':>5}  {'games/s':>8}  {'decisions/s':>11}  {'decisions/game':>14}  {'rounds':>6}")
        for players in range(2, 7):
            r = engine_speed(players, args.games, scripted)
            print(f"  {players:>7}  {r['games']:>5}  {r['games_per_s']:>8.1f}  {r['decisions_per_s']:>11,.0f}"
                  f"  {r['decisions_per_game']:>14,.0f}  {r['mean_rounds']:>6.1f}")
        print()
    print(f"  peak memory of this process so far: {mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss):.0f} MiB")
    print()

    print(f"run_batch, standard-4p, {args.batch_games} games (wall time includes pool start-up and the report)")
    with tempfile.TemporaryDirectory() as tmp:
        one = batch_speed(args.batch_games, 1, Path(tmp))
        many = batch_speed(args.batch_games, args.workers, Path(tmp))
    for r in (one, many):
        print(f"  workers={r['workers']}: {r['wall']:6.1f} s wall, {r['games_per_s']:6.1f} games/s, "
              f"{r['in_games']:6.1f} s inside games")
    busy = many["in_games"] / (args.workers * many["wall"])
    print(f"  workers busy inside games {busy:.0%} of the wall time (the rest: start-up, frames, report);"
          f" if 'inside games' grows with workers, other processes are taking the cores")
    print(f"  speed-up with {args.workers} workers: x{one['wall'] / many['wall']:.2f}"
          f" (games frames identical: {one['games'].equals(many['games'])})")
    print(f"  peak memory (maxrss): this process {mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss):.0f} MiB "
          f"(engine, polars, matplotlib and the report), largest worker {many['memory']['worker']:.0f} MiB")


if __name__ == "__main__":
    main()
