"""Confidence intervals for rates, means and quantiles, from scipy.

Win rates and other shares use the Wilson score interval rather than the normal approximation:
it stays inside [0, 1] and keeps sensible coverage for the small samples and extreme rates
(0 or all wins) that short batch runs and lopsided strategies produce. Means use Student's t;
medians and other quantiles the distribution-free interval between two order statistics.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from scipy import stats

CONFIDENCE = 0.95


def _check_confidence(confidence: float) -> None:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


def wilson_interval(successes: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n``; ``(0.0, 1.0)`` when ``n`` is 0."""
    _check_confidence(confidence)
    if n < 0 or not 0 <= successes <= max(n, 0):
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return (0.0, 1.0)
    ci = stats.binomtest(int(successes), int(n)).proportion_ci(confidence, method="wilson")
    low = 0.0 if successes == 0 else max(0.0, float(ci.low))
    high = 1.0 if successes == n else min(1.0, float(ci.high))
    return (low, high)


def newcombe_interval(successes_a: int, n_a: int, successes_b: int, n_b: int,
                      confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Newcombe's hybrid score interval for rate A minus rate B (independent samples), built from
    the two Wilson intervals; ``n_a`` and ``n_b`` must be positive."""
    low_a, high_a = wilson_interval(successes_a, n_a, confidence)
    low_b, high_b = wilson_interval(successes_b, n_b, confidence)
    rate_a, rate_b = successes_a / n_a, successes_b / n_b
    difference = rate_a - rate_b
    return (difference - math.hypot(rate_a - low_a, high_b - rate_b),
            difference + math.hypot(high_a - rate_a, rate_b - low_b))


def t_interval(mean: float, sd: float, n: int, confidence: float = CONFIDENCE) -> tuple[float | None, float | None]:
    """Student's t interval for a mean of ``n`` values with sample standard deviation ``sd``."""
    _check_confidence(confidence)
    if n < 2 or math.isnan(sd):
        return (None, None)
    if sd == 0:
        return (mean, mean)
    low, high = stats.t.interval(confidence, n - 1, loc=mean, scale=sd / math.sqrt(n))
    return (float(low), float(high))


def t_p_value(mean: float, sd: float, n: int) -> float | None:
    """The two-sided p-value of Student's t test that the mean of ``n`` values is 0."""
    if n < 2 or math.isnan(sd):
        return None
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    return float(2 * stats.t.sf(abs(mean) / (sd / math.sqrt(n)), n - 1))


def quantile_interval(sample: Sequence[float] | np.ndarray, p: float,
                      confidence: float = CONFIDENCE) -> tuple[float | None, float | None]:
    """The order-statistic interval for the ``p`` quantile (None where the sample is too small)."""
    _check_confidence(confidence)
    values = np.asarray(sample, dtype=float)
    if values.size == 0:
        return (None, None)
    ci = stats.quantile_test(values, q=float(np.median(values)), p=p).confidence_interval(confidence)
    return tuple(None if not math.isfinite(float(x)) else float(x) for x in (ci.low, ci.high))
