"""Adjusting for many comparisons: ``plsim cards`` tests one card kind after another against the
same base, so some of 40 intervals would leave out 0 by chance alone.

Holm's step-down method controls the family-wise error rate (the chance of any false "this kind
matters") at the level asked for, with no assumption about how the comparisons depend on each
other, and rejects everything Bonferroni rejects. Holm gives adjusted p-values; it has no interval
of its own, so the intervals beside them are Bonferroni's (each at 1 - level/m, simultaneous for
the family): a comparison can pass Holm (``p_holm`` < 0.05) while its Bonferroni interval still
touches 0, never the other way round.
"""

from __future__ import annotations

import math
from typing import Sequence

LEVEL = 0.05


def holm_adjusted(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's adjusted p-values, in the order given; None (no p-value) stays None and does not
    count towards the family's size."""
    known = [(p, i) for i, p in enumerate(p_values) if p is not None and not math.isnan(p)]
    m = len(known)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, index) in enumerate(sorted(known)):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[index] = running
    return adjusted


def bonferroni_confidence(m: int, level: float = LEVEL) -> float:
    """The confidence of each of ``m`` intervals that hold together with 1 - ``level``."""
    return 1 - level / max(m, 1)

