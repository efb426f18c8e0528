"""Games compressed to their distinct patterns, and the bootstrap over games that uses them.

Every health metric depends on a game only through a handful of columns (player count, who sat
where, who won, how it ended, its length, ...). Games with equal values in those columns form one
*pattern*; a run of 100,000 games has far fewer patterns than games. A metric is then a function
of how many games of each pattern there are, the *weights*: the run itself is one weight vector
(the pattern counts), and a bootstrap resample of games is another, drawn from the multinomial
distribution over patterns. That is exactly the distribution of counts that resampling games
with replacement gives, at a cost bounded by the number of patterns, not of games.

Metrics take ``(patterns, weights)`` with ``weights`` of shape (reps, patterns) and return one
value per row, so the point estimate and every bootstrap replicate share one code path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import polars as pl
from scipy.special import ndtr, ndtri  # the normal cdf and quantile (scipy.stats.norm's own)

from plsim.runfolder import MAX_SEATS, SEAT_COLUMNS
from plsim.stats.tables import played_games

BOOTSTRAP_SEED = 20240517  # fixed, so a report's intervals repeat exactly
BOOTSTRAP_REPS = 2000
MAX_BLOCK_CELLS = 4_000_000  # reps x patterns held at once

# The games columns the metrics read, with the type a missing (older) column is filled with.
PATTERN_COLUMNS: dict[str, pl.DataType] = {
    "players": pl.Int8(),
    **{name: pl.String() for name in SEAT_COLUMNS},
    "end_reason": pl.String(),
    "winner_seat": pl.Int8(),
    "rounds": pl.Int16(),
    "pairs_released": pl.Int16(),
    "first_judge_round": pl.Int16(),
    "first_king_round": pl.Int16(),
    "lead_changes": pl.Int16(),
    "comeback": pl.Boolean(),
}


def with_pattern_columns(games: pl.DataFrame | pl.LazyFrame) -> pl.LazyFrame:
    """``games`` with every pattern column present (null where an older run lacks it)."""
    lazy = games.lazy()
    present = set(lazy.collect_schema().names())
    missing = [pl.lit(None, dtype=dtype).alias(name) for name, dtype in PATTERN_COLUMNS.items()
               if name not in present]
    return lazy.with_columns(missing) if missing else lazy


@dataclass(frozen=True)
class GamePatterns:
    """Distinct games as arrays: one row per pattern, ``counts`` games of each in the run."""

    counts: np.ndarray  # (K,) games of each pattern
    columns: dict[str, np.ndarray]  # per-pattern values, float, NaN for null
    end_reason: np.ndarray  # (K,) strings
    occupied: np.ndarray  # (K, S) 1 where the seat sat in the game
    seat_won: np.ndarray  # (K, S) 1 for the winning seat
    strategies: tuple[str, ...]
    seat_games: np.ndarray  # (K, T) seats the strategy held
    strategy_won: np.ndarray  # (K, T) 1 when a seat of the strategy won

    @property
    def games(self) -> int:
        return int(self.counts.sum())

    @property
    def size(self) -> int:
        return int(self.counts.size)

    def column(self, name: str) -> np.ndarray:
        return self.columns[name]

    def is_reason(self, reason: str) -> np.ndarray:
        return (self.end_reason == reason).astype(float)


def patterns_from_rows(rows: pl.DataFrame, counts: np.ndarray, strategies: tuple[str, ...] | None = None) -> GamePatterns:
    """Build the arrays from one row per pattern (``PATTERN_COLUMNS``) and its game count."""
    k = rows.height
    players = rows["players"].cast(pl.Float64).to_numpy()
    seat_names = [rows[name].to_list() for name in SEAT_COLUMNS]
    occupied = np.array([[name is not None for name in col] for col in seat_names], dtype=float).T.reshape(k, MAX_SEATS)
    reasons = np.array(rows["end_reason"].to_list(), dtype=object)
    winner = rows["winner_seat"].to_list()
    seat_won = np.zeros((k, MAX_SEATS))
    for i, (seat, reason) in enumerate(zip(winner, reasons)):
        if seat is not None and reason != "draw":
            seat_won[i, seat] = 1.0
    if strategies is None:
        strategies = tuple(sorted({n for col in seat_names for n in col if n is not None}))
    index = {name: t for t, name in enumerate(strategies)}
    seat_games = np.zeros((k, len(strategies)))
    strategy_won = np.zeros((k, len(strategies)))
    for s, col in enumerate(seat_names):
        for i, name in enumerate(col):
            if name is not None and name in index:
                seat_games[i, index[name]] += 1
                strategy_won[i, index[name]] += seat_won[i, s]
    columns = {
        name: rows[name].cast(pl.Float64).fill_null(float("nan")).to_numpy()
        for name in PATTERN_COLUMNS if name not in SEAT_COLUMNS and name != "end_reason"
    }
    columns["players"] = players
    return GamePatterns(np.asarray(counts, dtype=float), columns, reasons, occupied, seat_won,
                        tuple(strategies), seat_games, strategy_won)


def game_patterns(games: pl.DataFrame | pl.LazyFrame) -> GamePatterns:
    """The played games of a run (faults left out) compressed to patterns."""
    grouped = (
        with_pattern_columns(played_games(games))
        .select(list(PATTERN_COLUMNS))
        .group_by(list(PATTERN_COLUMNS))
        .agg(count=pl.len())
        .sort(list(PATTERN_COLUMNS), nulls_last=True)
        .collect(engine="streaming")
    )
    return patterns_from_rows(grouped, grouped["count"].to_numpy())


Statistic = Callable[[np.ndarray], np.ndarray]  # weights (B, K) -> values (B,)


def bootstrap_replicates(counts: np.ndarray, statistics: dict[str, Statistic], reps: int = BOOTSTRAP_REPS,
                         seed: int = BOOTSTRAP_SEED) -> dict[str, np.ndarray]:
    """``reps`` values of each statistic on the same resamples of the games (multinomial over
    patterns); every statistic sees the same resamples, so their differences pair up too."""
    n = int(counts.sum())
    if n == 0:
        return {name: np.full(reps, np.nan) for name in statistics}
    rng = np.random.default_rng(seed)
    probabilities = counts / n
    block = max(1, min(reps, MAX_BLOCK_CELLS // max(1, counts.size)))
    values: dict[str, list[np.ndarray]] = {name: [] for name in statistics}
    for start in range(0, reps, block):
        weights = rng.multinomial(n, probabilities, size=min(block, reps - start)).astype(float)
        for name, statistic in statistics.items():
            values[name].append(statistic(weights))
    return {name: np.concatenate(parts) for name, parts in values.items()}


def percentile_interval(replicates: np.ndarray, confidence: float = 0.95) -> tuple[float | None, float | None]:
    """The percentile bootstrap interval; None if the statistic is undefined in most resamples."""
    finite = replicates[np.isfinite(replicates)]
    if finite.size < replicates.size / 2 or finite.size == 0:
        return (None, None)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return (float(low), float(high))


def bootstrap_p_value(replicates: np.ndarray) -> float | None:
    """The two-sided p-value of "the statistic is 0" that matches ``percentile_interval``: twice
    the share of resamples on the far side of 0 (counting the data once, so never 0), at most 1;
    None where the interval is undefined."""
    finite = replicates[np.isfinite(replicates)]
    if finite.size < replicates.size / 2 or finite.size == 0:
        return None
    far = min(np.sum(finite <= 0), np.sum(finite >= 0))
    return float(min(1.0, 2 * (far + 1) / (finite.size + 1)))


def bias_corrected_interval(replicates: np.ndarray, estimate: float,
                            confidence: float = 0.95) -> tuple[float | None, float | None]:
    """The bias-corrected percentile bootstrap interval (Efron's BC).

    A maximum or range of noisy rates (seat spread, dominance) comes out larger in most resamples
    than in the data, so the plain percentile interval sits above the estimate and can even
    exclude it. BC moves the percentiles by the share of resamples below the estimate: with no
    bias it is the percentile interval, with bias it shifts back toward the estimate.
    """
    finite = replicates[np.isfinite(replicates)]
    if finite.size < replicates.size / 2 or finite.size == 0:
        return (None, None)
    below = (np.sum(finite < estimate) + 0.5 * np.sum(finite == estimate)) / finite.size
    below = min(max(below, 0.5 / finite.size), 1 - 0.5 / finite.size)
    z0 = ndtri(below)
    z = ndtri(1 - (1 - confidence) / 2)
    low, high = np.percentile(finite, [100 * ndtr(2 * z0 - z), 100 * ndtr(2 * z0 + z)])
    return (float(low), float(high))


# --- weighted statistics, vectorised over rows of weights --------------------------------------

def weighted_ratio(weights: np.ndarray, numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """sum(w * numerator) / sum(w * denominator) per row; NaN where the denominator is 0."""
    num = weights @ numerator
    den = weights @ denominator
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def weighted_quantile(weights: np.ndarray, values: np.ndarray, q: float) -> np.ndarray:
    """The smallest value with at least ``q`` of the weight at or below it (inverted CDF), per row.

    NaN values are left out; a row with no weight on the rest gives NaN.
    """
    keep = np.isfinite(values)
    order = np.argsort(values[keep], kind="stable")
    sorted_values = values[keep][order]
    if sorted_values.size == 0:
        return np.full(weights.shape[0], np.nan)
    cumulative = np.cumsum(weights[:, keep][:, order], axis=1)
    total = cumulative[:, -1]
    reached = cumulative >= q * total[:, None] - 1e-9 * np.maximum(total[:, None], 1)
    reached &= cumulative > 0
    index = np.argmax(reached, axis=1)
    return np.where(total > 0, sorted_values[index], np.nan)


def weighted_moments(weights: np.ndarray, values: np.ndarray) -> tuple[float, float, int]:
    """Mean, sample standard deviation and count of ``values`` (NaN left out) for one weight row."""
    keep = np.isfinite(values) & (weights > 0)
    w, x = weights[keep], values[keep]
    n = int(w.sum())
    if n == 0:
        return (float("nan"), float("nan"), 0)
    mean = float((w * x).sum() / n)
    sd = float(np.sqrt((w * (x - mean) ** 2).sum() / (n - 1))) if n > 1 else float("nan")
    return (mean, sd, n)


def expand(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The sample the weights stand for: each finite value repeated its weight's times."""
    keep = np.isfinite(values) & (weights > 0)
    return np.repeat(values[keep], weights[keep].astype(np.int64))
