"""Everything a strategy plugin needs, in one stable import surface.

    from plsim.strategy import Strategy, View, Decision, DecisionKind, PASS, Move, ...

``Strategy`` is the base class; the engine's vocabulary (the view, decisions and their kinds,
the options, titles, card kinds) and its rule arithmetic are re-exported here from
``plsim.engine`` so that a plugin never imports the engine's modules directly. See
docs/strategies.md.
"""

from plsim.board import NO_ROUTE, Board, Terrain
from plsim.engine.cards import (
    ABUNDANCE, AMBUSH, ANOINTED, ARK, ASSASSIN, BLESSING, BRIDE, CATALOGUE, CHARIOT, FAMINE, JUSTICE, MERCENARIES,
    PLAGUE, PROPHET, REVOLT, SANDSTORM, SECRET_PASSAGE, SIEGE_WEAPONS, SQUIRE, SWORD, TAX, CardKind, Category, Phase,
    category_of, kind_of,
)
from plsim.engine.arithmetic import (
    RegionStatus, army_strength, ark_bonus, base_strength, battle_losses, can_hold_judge, carries, fortification,
    general_moves, general_strength, hex_defence, income_paid, invader_strength, invader_target, is_open_plain,
    judge_owner, loot, next_on_ring, plague_kills, plague_losses, prophet_carrier, prophet_owner, region_settlements,
    region_status, settlement_income, settlement_value, siege_rounds, standing_judge_regions, strength_to_win,
    tax_gain, tax_share, win_probability,
)
from plsim.engine.decisions import Decision, DecisionKind
from plsim.engine.evaluation import WeightValues, outcome_value, value_of_margin
from plsim.engine.forecast import InvaderPath, InvaderStrike, invader_path
from plsim.engine.arithmetic import reachable
from plsim.engine.options import (
    ASSAULT, CONQUER, HOLD, PASS, RAZE, SIEGE, Buy, Choose, EndSiege, GiveTroops, Move, MoveCaptive, Option,
    Pass, PlayCard, Purchase, StartAssault, StartSiege, TakeTroops,
)
from plsim.engine.state import ASSASSIN_TITLE, CANAANITES, KING, Title, TitleKind, judge_title
from plsim.engine.view import NativeScripted, View
from plsim.strategy.interface import Strategy
from plsim.strategy.params import Param, StrategyParamError, param

__all__ = [
    "ABUNDANCE", "AMBUSH", "ANOINTED", "ARK", "ASSASSIN", "BLESSING", "BRIDE", "CATALOGUE", "CHARIOT", "FAMINE",
    "JUSTICE", "MERCENARIES", "PLAGUE", "PROPHET", "REVOLT", "SANDSTORM", "SECRET_PASSAGE", "SIEGE_WEAPONS", "SQUIRE",
    "SWORD", "TAX", "CardKind", "Category", "Phase", "category_of", "kind_of",
    "NO_ROUTE", "Board", "Terrain",
    "RegionStatus", "army_strength", "ark_bonus", "base_strength", "battle_losses", "can_hold_judge", "carries",
    "fortification", "general_moves", "general_strength", "hex_defence", "income_paid", "invader_strength",
    "invader_target", "is_open_plain", "judge_owner", "loot", "next_on_ring", "plague_kills", "plague_losses",
    "prophet_carrier", "prophet_owner", "reachable", "region_settlements", "region_status", "settlement_income",
    "settlement_value", "siege_rounds", "standing_judge_regions", "strength_to_win", "tax_gain", "tax_share",
    "win_probability", "InvaderPath", "InvaderStrike", "invader_path", "WeightValues", "outcome_value",
    "value_of_margin",
    "ASSASSIN_TITLE", "ASSAULT", "CANAANITES", "CONQUER", "HOLD", "KING", "PASS", "RAZE", "SIEGE", "Buy", "Choose",
    "Decision", "DecisionKind", "EndSiege", "GiveTroops", "Move", "MoveCaptive", "Option", "Pass", "PlayCard",
    "Purchase", "StartAssault", "StartSiege", "Strategy", "TakeTroops", "Title", "TitleKind", "View",
    "judge_title", "Param", "StrategyParamError", "param", "NativeScripted",
]
