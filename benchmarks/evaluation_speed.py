"""The search strategies' evaluation's cost: CPU microseconds per ``position_value`` call.

    python benchmarks/evaluation_speed.py [--repeats 5]

Scores every seat of the positions ``scripts/evaluation_fixture.py`` plays (200 positions of 2 to
6 players) at the default weights, each call on a copy of its table that nothing has read yet, as
a search scores the copy it just played on (the copies are made before the clock starts). Prints
the best of ``--repeats`` passes, in CPU time: this machine's speed drifts while others work.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from evaluation_fixture import tables, weights_of  # noqa: E402

from strategies.evaluation import position_value  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    seats = [(table, position[1]) for position, table in tables(args.positions, 47) if not table.over]
    weights = weights_of({})
    best = float("inf")
    for _ in range(args.repeats):
        calls = [(table.clone(), seat) for table, players in seats for seat in range(players)]
        began = time.process_time()
        for table, seat in calls:
            position_value(table, seat, weights)
        best = min(best, (time.process_time() - began) / len(calls))
    print(f"position_value: {best * 1e6:.1f} µs a call (best of {args.repeats} passes of {len(calls)} calls)")


if __name__ == "__main__":
    main()
