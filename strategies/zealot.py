"""zealot: keeps the Wrath of God low, seeks the Ark and the Tabernacle, uses Justice, offers
Guilt Sacrifices.

Plan: never adds Wrath itself (no Tax outside its own Judge regions, no Mercenaries, no Assassin
unless it reigns), executes assassins with Justice, and offers a Guilt Sacrifice (ST-7) whenever
the cup fills. Its points come from Judge titles and the crown like the others, plus the
Tabernacle: the Ark goes to a Judge who stays in the Judge's city, and the Tabernacle (30 coins)
is built there as soon as it can, worth a point while the Ark stands on it.
Strengths: fewer invaders for everyone, and it is least exposed to them with strong garrisons;
a third road to victory that nobody else uses.
Weaknesses: the Ark is one card of 88; refusing Mercenaries loses close battles; saving for the
Tabernacle and sacrifices slows its armies.
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import param
from strategies.base import ScriptedStrategy


class Zealot(ScriptedStrategy):
    name: ClassVar[str] = "zealot"
    description: ClassVar[str] = "keeps Wrath low, seeks the Ark and the Tabernacle, uses Justice and Guilt Sacrifices"
    variant: ClassVar[str] = "zealot"
    core_policy: ClassVar[str] = "zealot"  # searches simulate it in the core
    params: ClassVar[dict[str, Any]] = {
        "wrath_cap": 0,  # never adds Wrath itself
        "mercenaries": 0.0,
        "tax": 0.0,
        "assassin": 0.0,
        "raze": 0.0,
        "piety": param(6, 0, 99, "Wrath at which it offers a Guilt Sacrifice (when it has a Tabernacle)"),
        "city_garrison": 4,
        "develop": 0.3,
        "walls": 0.4,
        "usurp": 1.3,
    }
