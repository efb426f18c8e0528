"""Statistics over a run's frames: win rates with intervals, seats, end reasons, game health,
paired differences between runs that played the same seeds, card associations, pairwise
comparisons and ratings, and the ladder's figures. docs/metrics.md defines every figure."""

from plsim.lazy import lazy_exports

_EXPORTS = {
    "Estimate": "composite", "FOCAL_SCHEMA": "ladder", "GamePatterns": "patterns", "HEALTH_METRICS": "health",
    "METRICS_BY_NAME": "health", "PAIRED_BOOTSTRAP": "paired", "PairedComparison": "compare", "SKILL_GAP": "skill",
    "Swing": "drama", "adjacent_tiers": "ladder", "bonferroni_confidence": "multiplicity", "card_table": "cards",
    "cochran_armitage": "ladder", "composite_interval": "composite", "dominant_strategy": "health",
    "end_reasons": "tables", "fault_games": "tables", "final_positions": "tables", "game_drama": "drama",
    "health_metrics": "health", "holm_adjusted": "multiplicity", "lead_change_share": "drama",
    "lead_changes": "drama", "matchup_matrix": "ladder", "matrix_wide": "compare", "paired_comparison": "compare",
    "paired_composite_difference": "composite", "paired_health_differences": "paired",
    "paired_skill_gap_row": "skill", "pairwise_table": "compare", "played_games": "tables", "played_rounds": "tables",
    "quantile_interval": "intervals", "rate_strategies": "ratings", "seat_counts": "tables", "seat_games": "tables",
    "seat_outcomes": "compare", "seat_strategy_summary": "tables", "seat_summary": "tables", "seats_table": "tables",
    "skill_gap": "ladder", "skill_gap_estimate": "skill", "skill_gap_row": "skill", "skill_gap_values": "skill",
    "strategy_summary": "tables", "swings": "drama", "t_interval": "intervals", "tier_health": "ladder",
    "tier_health_differences": "ladder", "weighted_quantile": "patterns", "wilson_interval": "intervals",
}

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

__getattr__ = lazy_exports(__name__, _EXPORTS)
