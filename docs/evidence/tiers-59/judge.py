"""Judge the tiers' ladder of docs/evidence/tiers-59 by the rules its README fixed before the first
game: each tier against judge-rush in the same seat (item 3), the adjacent tiers (item 4) and the
cost of a game at each tier's table. Run after the ladder: ``python judge.py RUN_FOLDER``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl

from plsim.runner.results import RunResult
from plsim.runs.ladder import focal_outcomes
from plsim.stats.compare import paired_comparison

BONFERRONI_P = 0.05 / 4  # four adjacent pairs
GOALS = {"strong": (0.10, 1.0), "expert": (0.20, 10.0)}  # issue 59, item 3: (difference, seconds a game)


def outcomes(focal: pl.DataFrame, row: int) -> dict[int, bool]:
    return dict(focal.filter(pl.col("row") == row).select("local", "won").iter_rows())


def main(folder: Path) -> None:
    run = RunResult(folder, {}, json.loads((folder / "run.json").read_text()))
    tiers = run.run_info["ladder"]["tiers"]
    focal = focal_outcomes(run)
    games = run.games.with_columns(row=(pl.col("game") % len(tiers)))
    cost = dict(games.group_by("row").agg(pl.col("duration_s").mean()).iter_rows())
    print(f"{run.games.height} games, {int((run.games['end_reason'] == 'fault').sum())} faulted")
    for row, tier in enumerate(tiers):
        print(f"  {tier}: {cost[row]:.2f} s a game at its table (mean over its games)")
    verdicts = {}
    print("Item 4: adjacent tiers, paired (Newcombe 95%, exact McNemar), separated if the interval is above 0 "
          f"and p < {BONFERRONI_P}")
    for upper in range(1, len(tiers)):
        a, b = outcomes(focal, upper), outcomes(focal, upper - 1)
        shared = sorted(set(a) & set(b))
        c = paired_comparison(tiers[upper], tiers[upper - 1], [a[k] for k in shared], [b[k] for k in shared])
        separated = c.difference_ci[0] > 0 and c.p_value < BONFERRONI_P
        verdicts[f"{tiers[upper]} - {tiers[upper - 1]}"] = separated
        print(f"  {c.a} - {c.b}: {c.a_rate:.1%} against {c.b_rate:.1%}, {c.difference:+.1%} "
              f"[{c.difference_ci[0]:+.1%}, {c.difference_ci[1]:+.1%}], p = {c.p_value:.3g}, {c.pairs} pairs: "
              f"{'separated' if separated else 'NOT separated'}")
    print(f"Item 4: the ladder {'separates' if all(verdicts.values()) else 'does NOT separate'}")
    base = tiers.index("judge-rush")
    print("Item 3: each tier against judge-rush in its seat, paired")
    for tier, (goal, seconds) in GOALS.items():
        row = tiers.index(tier)
        a, b = outcomes(focal, row), outcomes(focal, base)
        shared = sorted(set(a) & set(b))
        c = paired_comparison(tier, "judge-rush", [a[k] for k in shared], [b[k] for k in shared])
        strength = c.difference >= goal and c.difference_ci[0] > 0
        cheap = cost[row] <= seconds
        print(f"  {tier} - judge-rush: {c.a_rate:.1%} against {c.b_rate:.1%}, {c.difference:+.1%} "
              f"[{c.difference_ci[0]:+.1%}, {c.difference_ci[1]:+.1%}], p = {c.p_value:.3g}, {c.pairs} pairs; "
              f"{cost[row]:.2f} s a game: strength goal (at least {goal:+.0%}, interval above 0) "
              f"{'met' if strength else 'NOT met'}, cost goal (at most {seconds:g} s) {'met' if cheap else 'NOT met'}")
    print(json.dumps({"adjacent_separated": verdicts}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
