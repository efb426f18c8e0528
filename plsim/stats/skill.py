"""skill_gap: how much the better of two tiers wins more, from a run's games alone.

A *lone game* seats one player of a strategy a and every other seat with one strategy b (a ladder's
table (a, b); docs/ladder.md). From the lone games of a run, ``rate(a | b)`` is a's win rate
alone against b. For every two strategies that met both ways,

    gap(a, b) = rate(a | b) - rate(b | a)

and ``skill_gap`` is the largest gap: in a ladder whose tiers are ranked, the top tier's win rate
alone against the bottom minus the bottom's alone against the top, the widest edge any tier has
over another. 0 when skill does not matter, up to 1; undefined (NaN) for a run with no two
strategies that met both ways. Like every health metric it is a function of pattern weights, so
the same code gives the value, its bootstrap interval over games and a paired difference over
seeds (``plsim.stats.composite``), and ``plsim tune --objective -skill_gap`` maximises it.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from plsim.stats.composite import Estimate, composite_interval, paired_composite_difference
from plsim.stats.health import HEALTH_SCHEMA
from plsim.stats.paired import PAIRED_BOOTSTRAP, PAIRED_SCHEMA
from plsim.stats.patterns import GamePatterns

SKILL_GAP = "skill_gap"
SKILL_GAP_LABEL = "largest win-rate edge of one tier alone over another (ladder games)"


def _lone_masks(p: GamePatterns) -> dict[tuple[int, int], np.ndarray]:
    """(a, b) -> the patterns where a holds one seat and b every other (a != b)."""
    seats = p.occupied.sum(axis=1)
    masks: dict[tuple[int, int], np.ndarray] = {}
    count = len(p.strategies)
    for a in range(count):
        lone = p.seat_games[:, a] == 1
        for b in range(count):
            if a != b:
                mask = lone & (p.seat_games[:, b] == seats - 1) & (seats > 1)
                if mask.any():
                    masks[(a, b)] = mask.astype(float)
    return masks


def skill_gap_values(p: GamePatterns, weights: np.ndarray) -> np.ndarray:
    """skill_gap for every row of ``weights`` (module docstring)."""
    masks = _lone_masks(p)
    rates: dict[tuple[int, int], np.ndarray] = {}
    for (a, b), mask in masks.items():
        games = weights @ mask
        wins = weights @ (mask * p.strategy_won[:, a])
        with np.errstate(invalid="ignore", divide="ignore"):
            rates[(a, b)] = np.where(games > 0, wins / np.maximum(games, 1e-300), np.nan)
    gaps = [rates[(a, b)] - rates[(b, a)] for (a, b) in rates if (b, a) in rates]
    if not gaps:
        return np.full(weights.shape[0], np.nan)
    stacked = np.vstack(gaps)
    with np.errstate(invalid="ignore"):
        best = np.nanmax(np.where(np.isnan(stacked), -np.inf, stacked), axis=0)
    return np.where(np.isfinite(best), best, np.nan)


def skill_gap_estimate(games: pl.DataFrame | pl.LazyFrame) -> Estimate:
    """skill_gap of a run's played games with its bias-corrected bootstrap 95% interval."""
    return composite_interval(games, skill_gap_values)


def skill_gap_row(games: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """skill_gap as one row of a health table (metric, value, ci_low, ci_high, games)."""
    e = skill_gap_estimate(games)
    return pl.DataFrame([(SKILL_GAP, e.value, e.ci_low, e.ci_high, e.games)], schema=HEALTH_SCHEMA, orient="row")


def paired_skill_gap_row(games_a: pl.DataFrame | pl.LazyFrame, games_b: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """b - a of skill_gap over the seeds both played, as one row of a paired-effects table."""
    d = paired_composite_difference(games_a, games_b, skill_gap_values)
    return pl.DataFrame([(SKILL_GAP, None, d.value_a, d.value_b, d.difference, d.ci_low, d.ci_high, d.pairs,
                          PAIRED_BOOTSTRAP)], schema=PAIRED_SCHEMA, orient="row")


__all__ = ["SKILL_GAP", "SKILL_GAP_LABEL", "paired_skill_gap_row", "skill_gap_estimate", "skill_gap_row",
           "skill_gap_values"]
