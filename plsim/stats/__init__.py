"""Statistics over a run's frames: win rates with intervals, seats, end reasons, game health,
paired differences between runs that played the same seeds, card associations, pairwise
comparisons and ratings, and the ladder's figures. docs/metrics.md defines every figure."""

from plsim.stats.cards import card_table
from plsim.stats.compare import PairedComparison, matrix_wide, paired_comparison, pairwise_table, seat_outcomes
from plsim.stats.composite import Estimate, composite_interval, paired_composite_difference
from plsim.stats.drama import Swing, game_drama, lead_change_share, lead_changes, swings
from plsim.stats.health import HEALTH_METRICS, METRICS_BY_NAME, dominant_strategy, health_metrics
from plsim.stats.intervals import quantile_interval, t_interval, wilson_interval
from plsim.stats.ladder import (
    FOCAL_SCHEMA, adjacent_tiers, cochran_armitage, matchup_matrix, skill_gap, tier_health, tier_health_differences,
)
from plsim.stats.multiplicity import bonferroni_confidence, holm_adjusted
from plsim.stats.paired import PAIRED_BOOTSTRAP, paired_health_differences
from plsim.stats.patterns import GamePatterns, weighted_quantile
from plsim.stats.ratings import rate_strategies
from plsim.stats.skill import SKILL_GAP, paired_skill_gap_row, skill_gap_estimate, skill_gap_row, skill_gap_values
from plsim.stats.tables import (
    end_reasons, fault_games, final_positions, played_games, played_rounds, seat_counts, seat_games,
    seat_strategy_summary, seat_summary, seats_table, strategy_summary,
)

__all__ = [
    "Estimate", "FOCAL_SCHEMA", "GamePatterns", "HEALTH_METRICS", "METRICS_BY_NAME", "PAIRED_BOOTSTRAP",
    "PairedComparison", "SKILL_GAP", "Swing", "adjacent_tiers", "bonferroni_confidence", "card_table",
    "cochran_armitage", "composite_interval", "dominant_strategy", "end_reasons", "fault_games", "final_positions",
    "game_drama", "health_metrics", "holm_adjusted", "lead_change_share", "lead_changes", "matchup_matrix",
    "matrix_wide", "paired_comparison", "paired_composite_difference", "paired_health_differences",
    "paired_skill_gap_row", "pairwise_table", "played_games", "played_rounds", "quantile_interval", "rate_strategies",
    "seat_counts", "seat_games", "seat_outcomes", "seat_strategy_summary", "seat_summary", "seats_table", "skill_gap",
    "skill_gap_estimate", "skill_gap_row", "skill_gap_values", "strategy_summary", "swings", "t_interval",
    "tier_health", "tier_health_differences", "weighted_quantile", "wilson_interval",
]
