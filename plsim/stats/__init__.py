"""Statistics over a run's frames: win rates with Wilson intervals, seat balance, end reasons."""

from plsim.stats.intervals import wilson_interval
from plsim.stats.tables import end_reasons, final_positions, seat_games, seat_summary, strategy_summary

__all__ = [
    "end_reasons",
    "final_positions",
    "seat_games",
    "seat_summary",
    "strategy_summary",
    "wilson_interval",
]
