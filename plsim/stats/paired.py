"""Paired differences between two runs that played the same seeds (common random numbers).

A sweep's cells and a tune's trials play the same game seeds, so game k of run A and game k of
run B share their dice, deck and seating; only the rule under test differs. Comparing them seed
by seed removes most of the game-to-game noise. ``paired_health_differences`` aligns the two
runs' games by seed, drops seeds missing or stopped by a fault in either, and gives every health
metric and every strategy's win rate as b - a with a 95% interval that uses the pairing:

- ``paired t``: for shares and means over every game (and a win rate whose strategy holds the
  same number of seats in every game of both runs), the t interval of the mean per-seed
  difference (for a share or a win rate cut to -1..1, the differences two shares can have);
- ``paired bootstrap``: for everything else (seat spread, dominance, medians, percentiles,
  shares over a subset of games such as comebacks), the percentile interval of b - a over
  resamples of seeds, each seed carrying both of its games; the bootstrap seed is fixed, so the
  intervals repeat.

With ``adjusted`` (a confidence level such as Bonferroni's 1 - 0.05/m for m comparisons), each row
also gets a two-sided ``p_value`` of "no difference" from the same method (the paired t test, or
the bootstrap's share of resamples on the far side of 0, doubled) and the interval at that level
(``adj_low``, ``adj_high``): what ``plsim cards`` needs to adjust for the number of kinds compared.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from plsim.stats.health import HEALTH_METRICS, HealthMetric
from plsim.stats.intervals import t_interval, t_p_value
from plsim.stats.patterns import (
    BOOTSTRAP_REPS, BOOTSTRAP_SEED, PATTERN_COLUMNS, GamePatterns, bootstrap_replicates, patterns_from_rows,
    bootstrap_p_value, percentile_interval, weighted_moments, weighted_ratio, with_pattern_columns,
)
from plsim.stats.tables import played_games

PAIRED_COLUMNS: tuple[str, ...] = (
    "metric", "strategy", "value_a", "value_b", "difference", "ci_low", "ci_high", "pairs", "method",
)
PAIRED_SCHEMA = {
    "metric": pl.String, "strategy": pl.String, "value_a": pl.Float64, "value_b": pl.Float64,
    "difference": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "pairs": pl.Int64,
    "method": pl.String,
}
ADJUSTED_SCHEMA = {"p_value": pl.Float64, "adj_low": pl.Float64, "adj_high": pl.Float64}
PAIRED_T, PAIRED_BOOTSTRAP = "paired t", "paired bootstrap"
WIN_RATE = "win_rate"
NOT_PAIRED = ("seat_chi2_p",)  # a difference of p-values means nothing


def _side(games: pl.DataFrame | pl.LazyFrame, prefix: str) -> pl.LazyFrame:
    """The played games keyed by (seed, occurrence), their pattern columns prefixed."""
    return (
        with_pattern_columns(played_games(games))
        .sort("game")
        .with_columns(occurrence=pl.int_range(pl.len()).over("seed"))
        .select("seed", "occurrence", *[pl.col(c).alias(prefix + c) for c in PATTERN_COLUMNS])
    )


def paired_patterns(games_a: pl.DataFrame | pl.LazyFrame,
                    games_b: pl.DataFrame | pl.LazyFrame) -> tuple[GamePatterns, GamePatterns]:
    """Both runs' games aligned by seed and compressed to joint patterns (one weight per pair).

    A seed that appears several times in a run (common seeds across tables) pairs its n-th
    game in A with its n-th game in B, in game order.
    """
    a_cols = ["a_" + c for c in PATTERN_COLUMNS]
    b_cols = ["b_" + c for c in PATTERN_COLUMNS]
    joint = (
        _side(games_a, "a_").join(_side(games_b, "b_"), on=["seed", "occurrence"], how="inner")
        .group_by(a_cols + b_cols)
        .agg(count=pl.len())
        .sort(a_cols + b_cols, nulls_last=True)
        .collect()
    )
    counts = joint["count"].to_numpy()
    names = {n for c in a_cols + b_cols if "seat_" in c for n in joint[c].drop_nulls().to_list()}
    strategies = tuple(sorted(names))

    def side(cols: list[str]) -> GamePatterns:
        rows = joint.select([pl.col(c).alias(c[2:]) for c in cols])
        return patterns_from_rows(rows, counts, strategies)

    return side(a_cols), side(b_cols)


def _paired_t(weights: np.ndarray, differences: np.ndarray, adjusted: float | None,
              bound: float | None = None) -> tuple[float | None, ...]:
    """The 95% interval of the mean per-pair difference; with ``adjusted``, its p-value and the
    interval at that level too; with ``bound``, the intervals cut to -bound..bound."""
    mean, sd, n = weighted_moments(weights, differences)

    def interval(*confidence: float) -> tuple[float | None, ...]:
        found = t_interval(mean, sd, n, *confidence)
        return found if bound is None else tuple(None if x is None else min(bound, max(-bound, x)) for x in found)

    return interval() if adjusted is None else (*interval(), t_p_value(mean, sd, n), *interval(adjusted))


def _bootstrapped(replicates: np.ndarray, adjusted: float | None) -> tuple[float | None, ...]:
    found = percentile_interval(replicates)
    if adjusted is None:
        return found
    return (*found, bootstrap_p_value(replicates), *percentile_interval(replicates, adjusted))


def _scalar(values: np.ndarray) -> float | None:
    value = float(values[0])
    return value if np.isfinite(value) else None


def _constant_seats(a: GamePatterns, b: GamePatterns, t: int) -> float | None:
    """The seats strategy ``t`` holds in every game of both runs, if that number never varies."""
    seats = np.concatenate([a.seat_games[:, t], b.seat_games[:, t]])
    return float(seats[0]) if seats.size and seats[0] > 0 and np.all(seats == seats[0]) else None


def paired_health_differences(games_a: pl.DataFrame | pl.LazyFrame, games_b: pl.DataFrame | pl.LazyFrame,
                              reps: int = BOOTSTRAP_REPS, seed: int = BOOTSTRAP_SEED,
                              adjusted: float | None = None) -> pl.DataFrame:
    """Every health metric and strategy win rate of B minus A over the seeds both played.

    Columns: metric, strategy (win rates only), value_a, value_b, difference (b - a),
    ci_low, ci_high (95%), pairs (seeds used), method (``paired t`` or ``paired bootstrap``);
    with ``adjusted`` (a confidence level) also p_value, adj_low, adj_high (module docstring).
    """
    extra = [None] * len(ADJUSTED_SCHEMA) if adjusted is not None else []
    a, b = paired_patterns(games_a, games_b)
    counts = a.counts
    point = counts[None, :]
    rows: list[list] = []
    pending: dict[str, tuple[list, object]] = {}  # bootstrap key -> (its row, the statistic of b - a)

    def add(metric: str, strategy: str | None, value_a: np.ndarray, value_b: np.ndarray,
            differences: np.ndarray | None, statistic, share: bool = False) -> None:
        """One row; ``differences`` (per pair) means a paired t interval, else bootstrap ``statistic``;
        a ``share``'s t interval is cut to the differences two shares can have, -1 to 1."""
        va, vb = _scalar(value_a), _scalar(value_b)
        defined = va is not None and vb is not None
        row = [metric, strategy, va, vb, vb - va if defined else None, None, None, a.games,
               PAIRED_T if differences is not None else PAIRED_BOOTSTRAP, *extra]
        if differences is not None and defined:
            _fill(row, _paired_t(counts, differences, adjusted, bound=1.0 if share else None))
        elif differences is None and defined:
            pending[f"{metric}:{strategy}"] = (row, statistic)
        rows.append(row)

    for metric in HEALTH_METRICS:
        if metric.name in NOT_PAIRED:
            continue
        add(metric.name, None, metric.values(a, point), metric.values(b, point),
            _linear_differences(metric, a, b),
            lambda w, m=metric: m.values(b, w) - m.values(a, w), share=metric.kind == "share")
    for t, name in enumerate(a.strategies):
        rate_a = weighted_ratio(point, a.strategy_won[:, t], a.seat_games[:, t])
        rate_b = weighted_ratio(point, b.strategy_won[:, t], b.seat_games[:, t])
        seats = _constant_seats(a, b, t)
        differences = None if seats is None else (b.strategy_won[:, t] - a.strategy_won[:, t]) / seats
        add(WIN_RATE, name, rate_a, rate_b, differences,
            lambda w, t=t: weighted_ratio(w, b.strategy_won[:, t], b.seat_games[:, t])
            - weighted_ratio(w, a.strategy_won[:, t], a.seat_games[:, t]), share=True)

    statistics = {key: statistic for key, (_, statistic) in pending.items()}
    replicates = bootstrap_replicates(counts, statistics, reps=reps, seed=seed) if statistics else {}
    for key, (row, _) in pending.items():
        _fill(row, _bootstrapped(replicates[key], adjusted))
    schema = PAIRED_SCHEMA if adjusted is None else {**PAIRED_SCHEMA, **ADJUSTED_SCHEMA}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _fill(row: list, found: tuple[float | None, ...]) -> None:
    """The 95% interval into its columns, and p_value, adj_low, adj_high after the method."""
    row[5], row[6] = found[:2]
    row[9:] = found[2:]


def _linear_differences(metric: HealthMetric, a: GamePatterns, b: GamePatterns) -> np.ndarray | None:
    """Per-pair b - a of a share or mean that counts every game of both runs, else None."""
    if not metric.linear_over_games:
        return None
    xa, xb = metric.per_game(a), metric.per_game(b)
    if not (np.isfinite(xa).all() and np.isfinite(xb).all()):
        return None
    return xb - xa


__all__ = ["PAIRED_COLUMNS", "PAIRED_BOOTSTRAP", "PAIRED_T", "paired_health_differences", "paired_patterns"]
