"""Game-health metrics of a run: how games end, how long they last, seat and strategy balance,
the Wrath, titles, and how often the lead changes hands. Definitions: docs/metrics.md.

``health_metrics(games)`` gives the health.csv table: one row per metric with its value, 95%
interval and the number of games it counts. Faulted games are left out. Every metric is also a
function of pattern weights (see ``plsim.stats.patterns``), which is what the bootstrap and the
paired differences (``plsim.stats.paired``) evaluate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import polars as pl
from scipy.special import chdtrc  # the chi-square survival function (scipy.stats.chi2.sf's own)

from plsim.stats.intervals import quantile_interval, t_interval, wilson_interval
from plsim.stats.patterns import (
    GamePatterns, bias_corrected_interval, bootstrap_replicates, expand, game_patterns, weighted_moments,
    weighted_quantile, weighted_ratio,
)

HEALTH_COLUMNS: tuple[str, ...] = ("metric", "value", "ci_low", "ci_high", "games")
HEALTH_SCHEMA = {"metric": pl.String, "value": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                 "games": pl.Int64}

PerGame = Callable[[GamePatterns], np.ndarray]  # per-pattern value, NaN where the game is not counted
Weighted = Callable[[GamePatterns, np.ndarray], np.ndarray]  # (patterns, weights (B, K)) -> (B,)


@dataclass(frozen=True)
class HealthMetric:
    """One health metric: how to compute it from pattern weights and which interval it gets.

    ``kind``: ``share`` (Wilson), ``mean`` (t), ``quantile`` (order statistics), ``bootstrap``
    (percentile bootstrap over games) or ``test`` (a test statistic or p-value; no interval).
    Share, mean and quantile metrics are given by ``per_game`` (NaN for games they do not count);
    the others by ``weighted`` and ``counted``.
    """

    name: str
    label: str
    kind: str
    per_game: PerGame | None = None
    q: float | None = None
    weighted: Weighted | None = None
    counted: PerGame | None = None

    def values(self, patterns: GamePatterns, weights: np.ndarray) -> np.ndarray:
        """The metric for every row of ``weights``."""
        if self.weighted is not None:
            return self.weighted(patterns, weights)
        x = self.per_game(patterns)
        mask = np.isfinite(x).astype(float)
        if self.kind == "quantile":
            return weighted_quantile(weights, x, self.q)
        return weighted_ratio(weights, np.nan_to_num(x) * mask, mask)

    def games(self, patterns: GamePatterns) -> int:
        """How many games of the run the metric counts."""
        mask = np.isfinite(self.per_game(patterns)) if self.per_game else self.counted(patterns) > 0
        return int(patterns.counts[mask].sum())

    @property
    def linear_over_games(self) -> bool:
        """A share or mean over games: its paired difference is a mean of per-game differences."""
        return self.kind in ("share", "mean")


def _reason(reason: str) -> PerGame:
    return lambda p: p.is_reason(reason)


def _column(name: str) -> PerGame:
    return lambda p: p.column(name)


def _released(p: GamePatterns) -> np.ndarray:
    pairs = p.column("pairs_released")
    return np.where(np.isfinite(pairs), (pairs > 0).astype(float), np.nan)


def _rates(weights: np.ndarray, wins: np.ndarray, games: np.ndarray, fair_sum: np.ndarray) -> np.ndarray:
    """Win rate minus fair share per row and column; NaN where a column had no games."""
    won, played, fair = weights @ wins, weights @ games, weights @ fair_sum
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(played > 0, (won - fair) / np.where(played > 0, played, 1), np.nan)


def seat_excess(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """Each seat's win rate minus its fair share, per row of weights: (B, seats)."""
    players = np.where(p.column("players") > 0, p.column("players"), 1)
    return _rates(weights, p.seat_won, p.occupied, p.occupied / players[:, None])


def strategy_excess(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """Each strategy's win rate minus its fair share, per row of weights: (B, strategies)."""
    players = np.where(p.column("players") > 0, p.column("players"), 1)
    return _rates(weights, p.strategy_won, p.seat_games, p.seat_games / players[:, None])


def _nan_range(values: np.ndarray) -> np.ndarray:
    finite = np.isfinite(values)
    high = np.where(finite, values, -np.inf).max(axis=1, initial=-np.inf)
    low = np.where(finite, values, np.inf).min(axis=1, initial=np.inf)
    return np.where(finite.any(axis=1), high - low, np.nan)


def _nan_max(values: np.ndarray) -> np.ndarray:
    finite = np.isfinite(values)
    return np.where(finite.any(axis=1), np.where(finite, values, -np.inf).max(axis=1, initial=-np.inf), np.nan)


def seat_spread(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """Highest minus lowest seat win rate (each less its fair share)."""
    return _nan_range(seat_excess(p, weights))


def dominance(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """The best strategy's win rate minus its fair share."""
    if not p.strategies:
        return np.full(weights.shape[0], np.nan)
    return _nan_max(strategy_excess(p, weights))


def _seat_chi2_parts(p: GamePatterns, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Observed and expected wins per seat over won games (expected: 1/players of each)."""
    players = np.where(p.column("players") > 0, p.column("players"), 1)
    won_game = p.seat_won.sum(axis=1)
    return weights @ p.seat_won, weights @ (p.occupied * (won_game / players)[:, None])


def seat_chi2(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """Pearson's chi-square statistic of seat wins against equal chances, per row of weights."""
    observed, expected = _seat_chi2_parts(p, weights)
    with np.errstate(invalid="ignore", divide="ignore"):
        terms = np.where(expected > 0, (observed - expected) ** 2 / np.where(expected > 0, expected, 1), 0.0)
    seats = (expected > 0).sum(axis=1)
    return np.where(seats >= 2, terms.sum(axis=1), np.nan)


def seat_chi2_test(p: GamePatterns) -> tuple[float | None, float | None, int]:
    """scipy's chi-square test of equal seat win rates on the run: statistic, p-value, seats."""
    observed, expected = (row[0] for row in _seat_chi2_parts(p, p.counts[None, :]))
    used = expected > 0
    if used.sum() < 2:
        return (None, None, int(used.sum()))
    statistic = float((((observed[used] - expected[used]) ** 2) / expected[used]).sum())  # scipy's chisquare
    return (statistic, float(chdtrc(int(used.sum()) - 1, statistic)), int(used.sum()))


def _seat_chi2_p(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    observed, expected = _seat_chi2_parts(p, weights)
    seats = (expected > 0).sum(axis=1)
    return np.where(seats >= 2, chdtrc(np.maximum(seats - 1, 1), seat_chi2(p, weights)), np.nan)


def _won_games(p: GamePatterns) -> np.ndarray:
    return p.seat_won.sum(axis=1)


def _every_game(p: GamePatterns) -> np.ndarray:
    return np.ones(p.size)


HEALTH_METRICS: tuple[HealthMetric, ...] = (
    HealthMetric("victory_share", "share of games won by one player (V-1, V-3)", "share", _reason("victory")),
    HealthMetric("draw_share", "share of games drawn (V-3)", "share", _reason("draw")),
    HealthMetric("collapse_share", "share of games ended by the land's collapse (V-2)", "share",
                 _reason("collapse")),
    HealthMetric("round_limit_share", "share of games stopped at the round limit (V-4)", "share",
                 _reason("round_limit")),
    HealthMetric("rounds_mean", "game length in rounds, mean", "mean", _column("rounds")),
    HealthMetric("rounds_median", "game length in rounds, median", "quantile", _column("rounds"), q=0.5),
    HealthMetric("rounds_p90", "game length in rounds, 90th percentile", "quantile", _column("rounds"), q=0.9),
    HealthMetric("seat_spread", "highest minus lowest seat win rate (each less its fair share)", "bootstrap",
                 weighted=seat_spread, counted=_every_game),
    HealthMetric("seat_chi2", "chi-square statistic of seat wins against equal chances", "test",
                 weighted=seat_chi2, counted=_won_games),
    HealthMetric("seat_chi2_p", "p-value of that chi-square test", "test", weighted=_seat_chi2_p,
                 counted=_won_games),
    HealthMetric("invader_release_share", "share of games where the Wrath released invaders (W-2)", "share",
                 _released),
    HealthMetric("pairs_released_mean", "invader pairs released per game, mean", "mean",
                 _column("pairs_released")),
    HealthMetric("first_judge_round_median", "round of the first Judge, median over games with one", "quantile",
                 _column("first_judge_round"), q=0.5),
    HealthMetric("first_king_round_median", "round of the first King, median over games with one", "quantile",
                 _column("first_king_round"), q=0.5),
    HealthMetric("lead_changes_mean", "lead changes per game (VP leader), mean", "mean", _column("lead_changes")),
    HealthMetric("comeback_share", "share of won games whose winner trailed two thirds of the way in", "share",
                 _column("comeback")),
    HealthMetric("dominance", "best strategy's win rate minus its fair share", "bootstrap", weighted=dominance,
                 counted=_every_game),
)
METRICS_BY_NAME = {m.name: m for m in HEALTH_METRICS}


def _interval(metric: HealthMetric, p: GamePatterns, replicates: dict[str, np.ndarray],
              value: float) -> tuple[float | None, float | None]:
    """The 95% interval the metric's kind calls for (see docs/metrics.md)."""
    if metric.kind == "bootstrap":
        return bias_corrected_interval(replicates[metric.name], value)
    if metric.kind == "test":
        return (None, None)
    x = metric.per_game(p)
    if metric.kind == "share":
        keep = np.isfinite(x)
        n = int(p.counts[keep].sum())
        return wilson_interval(int(round((p.counts[keep] * x[keep]).sum())), n) if n else (None, None)
    if metric.kind == "mean":
        mean, sd, n = weighted_moments(p.counts, x)
        low, high = t_interval(mean, sd, n)
        return (None if low is None else max(0.0, low), high)  # every mean here is of counts >= 0
    return quantile_interval(expand(p.counts, x), metric.q)


def _value(metric: HealthMetric, p: GamePatterns) -> float | None:
    if metric.name in ("seat_chi2", "seat_chi2_p"):
        statistic, p_value, _ = seat_chi2_test(p)
        return statistic if metric.name == "seat_chi2" else p_value
    value = float(metric.values(p, p.counts[None, :])[0])
    return value if np.isfinite(value) else None


def health_from_patterns(p: GamePatterns) -> pl.DataFrame:
    """The health table of games already compressed to patterns."""
    boot = {m.name: (lambda w, m=m: m.values(p, w)) for m in HEALTH_METRICS if m.kind == "bootstrap"}
    replicates = bootstrap_replicates(p.counts, boot)
    rows = []
    for metric in HEALTH_METRICS:
        value = _value(metric, p)
        low, high = _interval(metric, p, replicates, value) if value is not None else (None, None)
        rows.append((metric.name, value, low, high, metric.games(p)))
    return pl.DataFrame(rows, schema=HEALTH_SCHEMA, orient="row")


def health_metrics(games: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """The health.csv table of one run: metric, value, ci_low, ci_high, games (faults left out)."""
    return health_from_patterns(game_patterns(games))


def dominant_strategy(games: pl.DataFrame | pl.LazyFrame) -> str | None:
    """The strategy whose win rate is furthest above its fair share (the one ``dominance`` names)."""
    p = game_patterns(games)
    if not p.strategies:
        return None
    excess = strategy_excess(p, p.counts[None, :])[0]
    if not np.isfinite(excess).any():
        return None
    return p.strategies[int(np.nanargmax(excess))]


__all__ = [
    "HEALTH_COLUMNS", "HEALTH_METRICS", "HealthMetric", "METRICS_BY_NAME", "dominance", "dominant_strategy",
    "health_from_patterns", "health_metrics", "seat_chi2", "seat_chi2_test", "seat_spread",
]
