"""Confidence intervals for rates, means and quantiles.

Win rates and other shares use the Wilson score interval rather than the normal approximation:
it stays inside [0, 1] and keeps sensible coverage for the small samples and extreme rates
(0 or all wins) that short batch runs and lopsided strategies produce. Means use Student's t;
medians and other quantiles the distribution-free interval between two order statistics. The
Wilson interval is its closed form (scipy's ``proportion_ci(method="wilson")``, checked equal in
tests/test_stats.py): a run's report then needs no scipy, whose import costs half a second; the
others import scipy when first called.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    import numpy as np

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
    z = NormalDist().inv_cdf(0.5 + 0.5 * confidence)
    rate = successes / n
    centre = (2 * n * rate + z * z) / (2 * (n + z * z))
    half = z * math.sqrt(z * z + 4 * n * rate * (1 - rate)) / (2 * (n + z * z))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
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
    from scipy.special import stdtrit  # Student's t quantile (scipy.stats.t.ppf's own)

    half = float(stdtrit(n - 1, 0.5 + 0.5 * confidence)) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def t_p_value(mean: float, sd: float, n: int) -> float | None:
    """The two-sided p-value of Student's t test that the mean of ``n`` values is 0."""
    if n < 2 or math.isnan(sd):
        return None
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    from scipy.special import stdtr  # Student's t distribution function (scipy.stats.t.sf's own)

    return float(2 * stdtr(n - 1, -abs(mean) / (sd / math.sqrt(n))))


def quantile_interval(sample: Sequence[float] | np.ndarray, p: float,
                      confidence: float = CONFIDENCE) -> tuple[float | None, float | None]:
    """The order-statistic interval for the ``p`` quantile (None where the sample is too small):
    the order statistics at the binomial(n, p) quantiles of the two tails, as scipy's
    ``quantile_test(...).confidence_interval`` takes them."""
    _check_confidence(confidence)
    import numpy as np
    from scipy.special import bdtr, bdtrc  # the binomial distribution function and its tail

    values = np.sort(np.asarray(sample, dtype=float))
    n = values.size
    if n == 0:
        return (None, None)
    tail = (1 - confidence) / 2
    ks = np.arange(n + 1)
    low_index = int(np.argmax(bdtr(ks, n, p) >= tail)) - 1  # binom.ppf(tail) - 1
    high_index = int(np.argmax(bdtrc(ks, n, p) <= tail))  # binom.isf(tail)
    low = float(values[low_index]) if low_index >= 0 else None
    high = float(values[high_index]) if high_index < n else None
    return (low, high)
