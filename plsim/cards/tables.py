"""card_effects.csv: per card kind and metric (and strategy, for win rates), the paired effect of
the kind's change (cell minus base over the seeds both played), its 95% interval, and the same
adjusted for the number of kinds compared.

The family is every kind compared on one metric (one strategy's win rate, or the seat spread, ...):
``p_holm`` is Holm's adjusted p-value over that family, ``adj_low``/``adj_high`` the Bonferroni
interval at 1 - 0.05/m for its m kinds (``plsim.stats.multiplicity`` says why the two differ).
Rows: metric by metric, the largest effect first.
"""

from __future__ import annotations

from typing import Sequence

import polars as pl

from plsim.cards.plan import KindChange
from plsim.stats import bonferroni_confidence, holm_adjusted, paired_health_differences
from plsim.sweep import CellFrames

# The metrics a card's effect is read on, in the table's order.
METRICS = ("win_rate", "seat_spread", "rounds_mean", "invader_release_share", "pairs_released_mean")
ADJUSTMENT = "Holm p; Bonferroni interval"
COLUMNS = ("metric", "strategy", "kind", "count_base", "count_cell", "value_base", "value_cell", "difference",
           "ci_low", "ci_high", "p_value", "p_holm", "adj_low", "adj_high", "family", "adjustment", "pairs", "method")


def card_effects(base: CellFrames, cells: Sequence[tuple[KindChange, CellFrames]]) -> pl.DataFrame:
    """The table of the module docstring from the base cell and each kind's cell."""
    confidence = bonferroni_confidence(len(cells))
    parts = []
    for change, cell in cells:
        paired = paired_health_differences(base.games, cell.games, adjusted=confidence)
        parts.append(paired.filter(pl.col("metric").is_in(METRICS)).select(
            "metric", "strategy", pl.lit(change.kind).alias("kind"), pl.lit(change.before).alias("count_base"),
            pl.lit(change.after).alias("count_cell"), pl.col("value_a").alias("value_base"),
            pl.col("value_b").alias("value_cell"), "difference", "ci_low", "ci_high", "p_value", "adj_low",
            "adj_high", "pairs", "method"))
    if not parts:
        return pl.DataFrame(schema={c: pl.String for c in COLUMNS})
    table = pl.concat(parts, how="diagonal_relaxed")
    family = ["metric", "strategy"]
    table = table.with_columns(
        p_holm=pl.col("p_value").map_batches(lambda p: pl.Series(holm_adjusted(p.to_list()), dtype=pl.Float64),
                                             return_dtype=pl.Float64).over(family),
        family=pl.col("p_value").is_not_null().sum().over(family).cast(pl.Int64),
        adjustment=pl.lit(ADJUSTMENT),
        _order=pl.col("metric").replace_strict({m: i for i, m in enumerate(METRICS)}, return_dtype=pl.Int64),
    )
    return (table.sort(["_order", "strategy", pl.col("difference").abs()], descending=[False, False, True],
                       nulls_last=True)
            .select(COLUMNS))
