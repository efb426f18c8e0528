"""The rules engine: plain-data state, the phases of a round, cards, combat, titles, Wrath; a
game the caller steps (``Table``) and the loop that asks strategies (``play_game``)."""

from plsim.engine.errors import IllegalOption, InvariantError, StrategyError, TamperError
from plsim.engine.game import Game, play_game, strategy_seed
from plsim.engine.result import GameResult
from plsim.engine.scoring import ROUND_COLUMNS
from plsim.engine.table import Table

__all__ = [
    "Game", "GameResult", "IllegalOption", "InvariantError", "StrategyError", "Table", "TamperError", "ROUND_COLUMNS",
    "play_game", "strategy_seed",
]
