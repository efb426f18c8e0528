"""economist: income first, walls and developments, then titles bought with a full purse.

Plan: settle many free villages near home (a troop in each), wall them, build developments in
the safest ones (the board allows only seven), and tax its own Judge regions (no Wrath). With
the purse full it buys big armies at once, takes a region whole, buys the Judge title and goes
for the second; it keeps Wrath low (Tax only where it is Judge, few Mercenaries) because the
invaders hit settlements, and it has the most of them.
Strengths: hard to break: walls everywhere, garrisons that survive a Plague, money for any
emergency; late in the game it outbuys everyone.
Weaknesses: slow start; spread thin, so a rival army can pick off villages; developments are
loot for a warlord who razes them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import param
from strategies.base import ScriptedStrategy


class Economist(ScriptedStrategy):
    name: ClassVar[str] = "economist"
    description: ClassVar[str] = "income, walls and developments first, then titles bought with a full purse"
    variant: ClassVar[str] = "economist"
    core_policy: ClassVar[str] = "economist"  # searches simulate it in the core
    params: ClassVar[dict[str, Any]] = {
        "expand": 1.6,
        "develop": 1.0,
        "walls": 0.8,
        "garrison": 1,
        "city_garrison": 4,
        "tax": 0.2,
        "mercenaries": 0.3,
        "assassin": 0.2,
        "raze": 0.0,
        "wrath_cap": 6,
        "greed": param(1.0, 0, 10, "weight of income when choosing home and goal regions"),
    }
