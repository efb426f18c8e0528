"""A ladder's statistics: the matchup matrix, the trend test, adjacent tiers, seats within a tier.

A ladder's games come as *focal outcomes*: one row per game with the tier of the focal seat
(``row``, the one seat of its tier), the strategy of the other seats (``column``: a tier, or with a
fixed field one of the field's strategies), the game's number
at its table (``local``: the same seed and the same focal seat at every table), the focal seat
and whether it won. docs/ladder.md defines every figure:

- matrix: the focal seat's win rate per (row, column), Wilson 95% interval; fair share 1/players;
- trend: the Cochran-Armitage test for a trend in proportions, the focal seat's wins over the
  tier difference ``row - column`` (scores -(k-1)..k-1, every cell of the matrix), or over the row
  tier alone against a fixed field, one-sided (higher tiers win more), its p from the normal
  distribution;
- adjacent tiers: tier i+1 against tier i in the same seat, on the same seeds, against the same
  column: paired games, difference with Newcombe's paired interval and McNemar's exact p, Holm-
  adjusted over the k - 1 pairs; a pair is *separated* when the interval lies above 0 and the
  adjusted p is below 0.05;
- skill_gap: the top tier's win rate against the bottom minus the bottom's against the top
  (M[top, bottom] - M[bottom, top]), paired on seeds and seats the same way; 0 when skill does
  not matter, up to 1;
- health by tier: every game-health figure (plsim.stats.health) of each tier's mirror table (all
  seats that tier), and each tier's figures minus the tier's below on the same seeds (paired, as
  ``paired_health_differences``), adjusted for the k - 1 differences of each figure (Holm p,
  Bonferroni interval). Dominance and win rates by strategy are left out: a mirror table seats
  one strategy, so they say nothing there.
"""

from __future__ import annotations

import math
from typing import Sequence

import polars as pl
from scipy.special import ndtr  # the normal cdf (scipy.stats.norm's own)

from plsim.stats.compare import PairedComparison, paired_comparison
from plsim.stats.health import health_metrics
from plsim.stats.intervals import wilson_interval
from plsim.stats.multiplicity import bonferroni_confidence, holm_adjusted
from plsim.stats.paired import paired_health_differences

FOCAL_SCHEMA = {"game": pl.Int64, "row": pl.Int64, "column": pl.Int64, "local": pl.Int64, "seed": pl.Int64,
                "seat": pl.Int8, "won": pl.Boolean}
MATRIX_COLUMNS = ("row", "column", "row_tier", "column_tier", "games", "wins", "win_rate", "ci_low", "ci_high",
                  "fair_share")


def matchup_matrix(focal: pl.DataFrame, tiers: Sequence[str], players: int,
                   columns: Sequence[str] | None = None) -> pl.DataFrame:
    """One row per (row tier, column): the focal seat's games, wins and win rate with its interval.
    ``columns``: the strategies of the other seats (default: the tiers)."""
    counts = {(r, c): (n, w) for r, c, n, w in focal.group_by("row", "column").agg(
        pl.len().alias("n"), pl.col("won").sum().alias("w")).iter_rows()}
    rows = []
    for r, row_tier in enumerate(tiers):
        for c, column_tier in enumerate(tiers if columns is None else columns):
            n, w = counts.get((r, c), (0, 0))
            low, high = wilson_interval(int(w), int(n))
            rows.append((r, c, row_tier, column_tier, int(n), int(w), w / n if n else None, low, high, 1 / players))
    return pl.DataFrame(rows, schema=list(MATRIX_COLUMNS), orient="row")


def cochran_armitage(matrix: pl.DataFrame, fixed_field: bool = False) -> dict[str, float | int | None]:
    """The one-sided Cochran-Armitage trend test of wins over the score row - column, or the row
    alone when the columns are a fixed field and not the tiers (module docstring): z, p (higher
    tiers win more) and the games it counts."""
    cells = [(r if fixed_field else r - c, n, w)
             for r, c, n, w in matrix.select("row", "column", "games", "wins").iter_rows() if n]
    total = sum(n for _, n, _ in cells)
    wins = sum(w for _, _, w in cells)
    if not total or wins in (0, total):
        return {"z": None, "p_value": None, "games": total, "method": "Cochran-Armitage (undefined: no variation)"}
    share = wins / total
    statistic = sum(d * (w - n * share) for d, n, w in cells)
    spread = sum(n * d * d for d, n, _ in cells) - sum(n * d for d, n, _ in cells) ** 2 / total
    if spread <= 0:
        return {"z": None, "p_value": None, "games": total, "method": "Cochran-Armitage (undefined: one score)"}
    z = statistic / math.sqrt(share * (1 - share) * spread)
    score = "row tier (a fixed field)" if fixed_field else "row tier - column tier"
    return {"z": z, "p_value": float(ndtr(-z)), "games": total,
            "method": f"Cochran-Armitage trend in proportions, score = {score}, one-sided"}


def _paired(focal: pl.DataFrame, a: tuple[int, int], b: tuple[int, int]) -> tuple[list[bool], list[bool]]:
    """Outcomes of cell a and cell b paired by their games' number (same seed, same focal seat)."""
    def outcomes(cell: tuple[int, int]) -> dict[int, bool]:
        part = focal.filter((pl.col("row") == cell[0]) & (pl.col("column") == cell[1]))
        return dict(part.select("local", "won").iter_rows())

    first, second = outcomes(a), outcomes(b)
    shared = sorted(set(first) & set(second))
    return [first[k] for k in shared], [second[k] for k in shared]


def adjacent_tiers(focal: pl.DataFrame, tiers: Sequence[str], columns: int | None = None) -> pl.DataFrame:
    """Each tier against the one below it, over every column (module docstring); ``columns``: how
    many there are (default: one per tier). A pair is separated when its interval lies above 0
    and its McNemar p, Holm-adjusted over the k - 1 pairs, is below 0.05."""
    comparisons = []
    for upper in range(1, len(tiers)):
        ups, downs = [], []
        for column in range(len(tiers) if columns is None else columns):
            u, d = _paired(focal, (upper, column), (upper - 1, column))
            ups += u
            downs += d
        comparisons.append(paired_comparison(tiers[upper], tiers[upper - 1], ups, downs))
    adjusted = holm_adjusted([c.p_value if c.pairs else None for c in comparisons])
    rows = [_comparison_row(c) | {"p_holm": p, "separated": c.pairs > 0 and c.difference_ci[0] > 0
                                  and p is not None and p < 0.05}
            for c, p in zip(comparisons, adjusted)]
    return pl.DataFrame(rows, schema={"upper": pl.String, "lower": pl.String, "pairs": pl.Int64,
                                      "upper_rate": pl.Float64, "lower_rate": pl.Float64,
                                      "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                                      "p_value": pl.Float64, "p_holm": pl.Float64, "separated": pl.Boolean})


def skill_gap(focal: pl.DataFrame, tiers: Sequence[str], columns: Sequence[str] | None = None) -> PairedComparison:
    """The top tier alone against the bottom, against the bottom alone against the top (paired);
    ``columns``: the strategies of the columns when they are not the tiers (both must be among them)."""
    top, bottom = len(tiers) - 1, 0
    columns = list(tiers if columns is None else columns)
    up, down = _paired(focal, (top, columns.index(tiers[bottom])), (bottom, columns.index(tiers[top])))
    return paired_comparison(tiers[top], tiers[bottom], up, down)


MIRROR_ONLY = ("dominance", "win_rate")  # one strategy at a mirror table: nothing to compare
TIER_HEALTH_COLUMNS = ("tier", "metric", "value", "ci_low", "ci_high", "games")
TIER_DIFFERENCE_COLUMNS = ("upper", "lower", "metric", "value_lower", "value_upper", "difference", "ci_low",
                           "ci_high", "p_value", "p_holm", "adj_low", "adj_high", "pairs", "method")


def tier_health(mirrors: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Per tier, every health figure of its mirror table's played games (module docstring)."""
    parts = [health_metrics(games).filter(~pl.col("metric").is_in(MIRROR_ONLY)).with_columns(tier=pl.lit(tier))
             for tier, games in mirrors.items() if not games.is_empty()]
    if not parts:
        return pl.DataFrame(schema={c: pl.String for c in TIER_HEALTH_COLUMNS})
    return pl.concat(parts).select(TIER_HEALTH_COLUMNS)


def tier_health_differences(mirrors: dict[str, pl.DataFrame], tiers: Sequence[str]) -> pl.DataFrame:
    """Each tier's health figures minus the tier's below, paired by seed, adjusted for the k - 1
    differences of each figure (module docstring)."""
    confidence = bonferroni_confidence(len(tiers) - 1)
    parts = []
    for lower, upper in zip(tiers, tiers[1:]):
        a, b = mirrors.get(lower), mirrors.get(upper)
        if a is None or b is None or a.is_empty() or b.is_empty():
            continue
        paired = paired_health_differences(a, b, adjusted=confidence)
        parts.append(paired.filter(~pl.col("metric").is_in(MIRROR_ONLY)).select(
            pl.lit(upper).alias("upper"), pl.lit(lower).alias("lower"), "metric",
            pl.col("value_a").alias("value_lower"), pl.col("value_b").alias("value_upper"), "difference",
            "ci_low", "ci_high", "p_value", "adj_low", "adj_high", "pairs", "method"))
    if not parts:
        return pl.DataFrame(schema={c: pl.String for c in TIER_DIFFERENCE_COLUMNS})
    table = pl.concat(parts)
    holm = pl.col("p_value").map_batches(lambda p: pl.Series(holm_adjusted(p.to_list()), dtype=pl.Float64),
                                         return_dtype=pl.Float64)
    return table.with_columns(p_holm=holm.over("metric")).select(TIER_DIFFERENCE_COLUMNS)


def _comparison_row(c: PairedComparison) -> dict[str, object]:
    return {"upper": c.a, "lower": c.b, "pairs": c.pairs, "upper_rate": c.a_rate, "lower_rate": c.b_rate,
            "difference": c.difference, "ci_low": c.difference_ci[0], "ci_high": c.difference_ci[1],
            "p_value": c.p_value}


__all__ = ["FOCAL_SCHEMA", "MATRIX_COLUMNS", "TIER_DIFFERENCE_COLUMNS", "TIER_HEALTH_COLUMNS", "adjacent_tiers",
           "cochran_armitage", "matchup_matrix", "skill_gap", "tier_health", "tier_health_differences"]
