"""Statistics over a run's frames: win rates with intervals, seats, end reasons, game health,
and paired differences between runs that played the same seeds."""

from plsim.stats.health import dominant_strategy, health_metrics
from plsim.stats.intervals import quantile_interval, t_interval, wilson_interval
from plsim.stats.paired import paired_health_differences
from plsim.stats.tables import (
    end_reasons, fault_games, final_positions, played_games, seat_games, seat_strategy_summary, seat_summary,
    seats_table, strategy_summary,
)

__all__ = [
    "dominant_strategy",
    "end_reasons",
    "fault_games",
    "final_positions",
    "health_metrics",
    "paired_health_differences",
    "played_games",
    "quantile_interval",
    "seat_games",
    "seat_strategy_summary",
    "seat_summary",
    "seats_table",
    "strategy_summary",
    "t_interval",
    "wilson_interval",
]
