"""The rules engine: plain-data state, the phases of a round, cards, combat, titles, Wrath."""

from plsim.engine.game import (
    Game, GameResult, InvariantError, StrategyError, TamperError, play_game, strategy_seed,
)
from plsim.engine.scoring import ROUND_COLUMNS

__all__ = [
    "Game", "GameResult", "InvariantError", "StrategyError", "TamperError", "ROUND_COLUMNS", "play_game", "strategy_seed",
]
