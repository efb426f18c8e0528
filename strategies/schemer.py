"""schemer: Tax, Assassin, Mercenaries and kingmaking, and the Wrath that follows.

Plan: builds a region and a title like the others but with cards as its weapons. It taxes the
richest region held by rivals every round it can (double income for itself), follows a Tax with
a Revolt where rivals' garrisons are, hires Mercenaries to win close battles, and sends
Assassins after rivals' Judges and Kings when someone nears victory. With no candidate of its own
it votes to keep the leader off the throne, and when the invaders come (it plans for them) it
sends them at the leader.
Strengths: rich early; knocks down whoever leads; wins close fights.
Weaknesses: its Wrath brings invaders upon everyone, itself included; its assassins carry a
title that Justice can punish and that bars them from being Judges.
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import param
from strategies.base import ScriptedStrategy


class Schemer(ScriptedStrategy):
    name: ClassVar[str] = "schemer"
    description: ClassVar[str] = "Tax, Assassin, Mercenaries and kingmaking, and the Wrath that follows"
    variant: ClassVar[str] = "schemer"
    core_policy: ClassVar[str] = "schemer"  # searches simulate it in the core
    params: ClassVar[dict[str, Any]] = {
        "tax": 1.0,
        "assassin": 1.0,
        "mercenaries": 1.0,
        "wrath_cap": 11,
        "raze": 0.3,
        "develop": 0.2,
        "walls": 0.3,
        "spite": param(1.0, 0, 10, "how much it prefers hurting the leader over helping itself"),
    }
