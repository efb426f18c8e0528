"""The confirmation of a tune: the best point against the base on fresh seeds, and the verdict.

The best of many noisy trials looks better than it is (it was picked *because* its games went
well). So the tune plays the base and ``best.toml`` again, each ``confirm_games`` games on a seed
the search never used, both on the same seeds and seat rotations, and measures best - base paired
by seed: every health metric and win rate (``paired_health_differences``) and each objective (its
metric's own paired interval when it is one metric, else a paired bootstrap over seeds). The
verdict is *improved* only when an objective's 95% interval lies wholly below 0 and none lies
above; otherwise the tune says plainly that no point it found beats the base beyond the noise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import polars as pl

from plsim.stats import PAIRED_BOOTSTRAP, paired_composite_difference, paired_health_differences
from plsim.tune.objective import Objective

CONFIRM_DIR = "confirm"
BASE_CELL, BEST_CELL = "base", "best"
IMPROVED, NOT_IMPROVED, UNCONFIRMED = "improved", "not_improved", "unconfirmed"


@dataclass(frozen=True)
class ObjectiveDifference:
    """One objective on the confirmation's seeds: base, best, best - base with its 95% interval."""

    objective: str
    base: float | None
    best: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    pairs: int
    method: str

    @property
    def better(self) -> bool:
        return self.ci_high is not None and self.ci_high < 0

    @property
    def worse(self) -> bool:
        return self.ci_low is not None and self.ci_low > 0

    def to_dict(self) -> dict:
        return {"objective": self.objective, "base": self.base, "best": self.best, "difference": self.difference,
                "ci_low": self.ci_low, "ci_high": self.ci_high, "pairs": self.pairs, "method": self.method}


def objective_difference(objective: Objective, base_games: pl.DataFrame, best_games: pl.DataFrame,
                         paired: pl.DataFrame) -> ObjectiveDifference:
    """best - base of one objective over the seeds both played (module docstring)."""
    metric = objective.single_metric
    if metric is not None:
        rows = paired.filter((pl.col("metric") == metric) & pl.col("strategy").is_null())
        if rows.height:
            row = rows.row(0, named=True)
            return ObjectiveDifference(objective.text, row["value_a"], row["value_b"], row["difference"],
                                       row["ci_low"], row["ci_high"], row["pairs"], row["method"])
    diff = paired_composite_difference(base_games, best_games, objective.values)
    return ObjectiveDifference(objective.text, diff.value_a, diff.value_b, diff.difference, diff.ci_low,
                               diff.ci_high, diff.pairs, PAIRED_BOOTSTRAP)


def confirmation_tables(objectives: Sequence[Objective], base_games: pl.DataFrame,
                        best_games: pl.DataFrame) -> tuple[tuple[ObjectiveDifference, ...], pl.DataFrame]:
    """The objectives' differences and every health metric's and win rate's (best - base)."""
    paired = paired_health_differences(base_games, best_games)
    return tuple(objective_difference(o, base_games, best_games, paired) for o in objectives), paired


def _signed(value: float | None) -> str:
    return "?" if value is None else f"{value:+.3g}"


def difference_text(diff: ObjectiveDifference) -> str:
    return (f"{diff.objective}: best - base = {_signed(diff.difference)} "
            f"[{_signed(diff.ci_low)}, {_signed(diff.ci_high)}]")


def verdict(differences: Sequence[ObjectiveDifference], best_trial: int, trials: int) -> tuple[str, str]:
    """(code, one paragraph) from the confirmation's objective differences."""
    pairs = differences[0].pairs if differences else 0
    shown = "; ".join(difference_text(d) for d in differences)
    where = f"on {pairs:,} fresh seeds (95% paired intervals)"
    if any(d.better for d in differences) and not any(d.worse for d in differences):
        return IMPROVED, (f"Improved: the best point (trial {best_trial}) beats the base beyond the noise {where}: "
                          f"{shown}.")
    if any(d.worse for d in differences):
        why = "the base does better, so the search's best was luck of the search seeds"
    elif any(d.difference is None for d in differences):
        why = "an objective is undefined on the confirmation's games"
    else:
        why = "every interval includes 0"
    return NOT_IMPROVED, (f"No improvement: no point this tune found ({trials} trials) beats the base beyond the "
                          f"noise. The best point (trial {best_trial}) {where}: {shown}; {why}.")


def base_is_best_verdict(best_trial: int, trials: int) -> tuple[str, str]:
    return NOT_IMPROVED, (f"No improvement: the best of {trials} trials is the base scenario itself (trial "
                          f"{best_trial}); no point of this space did better on the search seeds.")


def unconfirmed_verdict(reason: str) -> tuple[str, str]:
    return UNCONFIRMED, (f"Not confirmed: {reason}. The best trial's value comes from the search seeds and is "
                         f"optimistic (it is the best of several noisy trials).")


__all__ = ["BASE_CELL", "BEST_CELL", "CONFIRM_DIR", "IMPROVED", "NOT_IMPROVED", "ObjectiveDifference",
           "UNCONFIRMED", "base_is_best_verdict", "confirmation_tables", "unconfirmed_verdict", "verdict"]
