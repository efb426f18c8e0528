"""warlord: troops, sieges before assaults, rivals' settlements taken, razed when it pays.

Plan: buys troops before anything else and marches its generals with full companies (six each).
It besieges walled places until the walls have melted (ST-4, ST-8) and assaults only when the
odds are good, takes its goal region from whoever holds it, attacks rival settlements and field
armies within reach when it can win, goes for rivals' Judge cities (conquering one brings the
title with it, CB-7) and razes what it cannot or need not keep when the loot is worth it (never
when it would bring the land closer to collapse, V-2).
Strengths: grows by taking; punishes thinly held villages; steals titles instead of buying them.
Weaknesses: troops cost money and income stays low; razing shrinks the land and feeds nothing;
its long sieges leave home exposed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import param
from strategies.base import ScriptedStrategy


class Warlord(ScriptedStrategy):
    name: ClassVar[str] = "warlord"
    description: ClassVar[str] = "troops and sieges; takes rivals' settlements and Judge cities, razes when it pays"
    variant: ClassVar[str] = "warlord"
    core_policy: ClassVar[str] = "warlord"  # searches simulate it in the core
    params: ClassVar[dict[str, Any]] = {
        "aggression": param(0.7, 0, 10, "appetite for attacking rivals (0 = only its goal regions)"),
        "assault": 0.75,
        "storm": 0.62,
        "expand": 0.8,
        "develop": 0.1,
        "walls": 0.2,
        "mercenaries": 0.7,
        "tax": 0.3,
        "assassin": 0.4,
        "raze": 0.6,
        "wrath_cap": 9,
        "usurp": 0.6,  # rivals' Judge cities look cheap to a warlord
    }
