"""Intervals for any statistic of pattern weights: a composite of health metrics (a weighted sum,
a distance to a target band) gets its 95% interval from the same bootstrap the metrics use.

A *statistic* takes ``(patterns, weights)`` with ``weights`` of shape (reps, patterns) and returns
one value per row, like ``HealthMetric.values``. ``composite_interval`` resamples the games of one
run (bias-corrected percentiles); ``paired_composite_difference`` resamples the seeds two runs share, each seed carrying its
game in both, so the interval of b - a uses the pairing (common random numbers). Both use the
fixed bootstrap seed, so the intervals repeat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
import polars as pl

from plsim.stats.paired import paired_patterns
from plsim.stats.patterns import (
    BOOTSTRAP_REPS, BOOTSTRAP_SEED, GamePatterns, bias_corrected_interval, bootstrap_replicates, game_patterns,
    percentile_interval,
)

PatternStatistic = Callable[[GamePatterns, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Estimate:
    """A statistic of one run with its 95% percentile-bootstrap interval over games."""

    value: float | None
    ci_low: float | None
    ci_high: float | None
    games: int


@dataclass(frozen=True)
class PairedDifference:
    """b - a of a statistic over the seeds both runs played, with its paired 95% interval."""

    value_a: float | None
    value_b: float | None
    difference: float | None
    ci_low: float | None
    ci_high: float | None
    pairs: int


def _point(statistic: PatternStatistic, patterns: GamePatterns) -> float | None:
    value = float(statistic(patterns, patterns.counts[None, :])[0])
    return value if math.isfinite(value) else None


def composite_interval(games: pl.DataFrame | pl.LazyFrame, statistic: PatternStatistic,
                       reps: int = BOOTSTRAP_REPS, seed: int = BOOTSTRAP_SEED) -> Estimate:
    """The statistic of the played games and its bootstrap interval over games: bias-corrected (BC),
    as health.csv gives the seat spread and dominance, because a composite of them shares their
    upward bias."""
    patterns = game_patterns(games)
    value = _point(statistic, patterns)
    if value is None:
        return Estimate(None, None, None, patterns.games)
    replicates = bootstrap_replicates(patterns.counts, {"s": lambda w: statistic(patterns, w)}, reps, seed)["s"]
    low, high = bias_corrected_interval(replicates, value)
    return Estimate(value, low, high, patterns.games)


def paired_composite_difference(games_a: pl.DataFrame | pl.LazyFrame, games_b: pl.DataFrame | pl.LazyFrame,
                                statistic: PatternStatistic, reps: int = BOOTSTRAP_REPS,
                                seed: int = BOOTSTRAP_SEED) -> PairedDifference:
    """The statistic of B minus that of A over the seeds both played (paired bootstrap)."""
    a, b = paired_patterns(games_a, games_b)
    value_a, value_b = _point(statistic, a), _point(statistic, b)
    if value_a is None or value_b is None:
        return PairedDifference(value_a, value_b, None, None, None, a.games)
    replicates = bootstrap_replicates(a.counts, {"d": lambda w: statistic(b, w) - statistic(a, w)}, reps, seed)["d"]
    low, high = percentile_interval(replicates)
    return PairedDifference(value_a, value_b, value_b - value_a, low, high, a.games)


__all__ = ["Estimate", "PairedDifference", "composite_interval", "paired_composite_difference"]
