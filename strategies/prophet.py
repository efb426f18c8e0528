"""prophet: wields the Wrath of God, and brings the invaders down on its rivals.

Plan: builds a region and a title like the others, but its weapon is the cup. It keeps a
Prophet carrier (AN-2, W-3) safe: a Squire on it first, an escort against Plague, and a
sanctuary (its best-defended settlement away from the invaders' path) whenever invaders are
loose or a release is near; a rival's carrier is assassinated, which strips that rival of the
choice and adds 4 Wrath (W-1). While it holds the first Prophet it keeps the cup one short of
the threshold (Tax on rivals' regions, Mercenaries, Assassins), which also locks the other
strategies out of their own Wrath cards. When the cup is near full it plays out, on copies of
the game (the engine's ``invader_path``), where a pair let loose now would go: the first target
it would name, then settlement after settlement along the ring (W-5), each battle fought by the
engine with its dice and losses (CB-3, CB-6, W-4), and what each raze would cost whom. When
that path hurts its rivals enough, most of all the VP leader (a Judge's city razed ends its
title, CB-7), and little of the damage falls on itself, it tips the cup: Tax in Draw Cards, an
Assassin in the Movement window after everyone has moved (the victim cannot reinforce before
Combat), or Mercenaries in a battle. It names that first target, and walls and garrisons its
own settlements the pair would reach (the ring, W-5) so that the pair dies on its walls.
Strengths: a release aimed at the leader's heartland razes a Judge's city and the villages
around it; a full cup keeps rivals' Tax, Mercenaries and Assassins in their hands.
Weaknesses: only two Prophets in 88 cards, and without one it releases only when the average
random target favours it; invaders go round the ring and reach it in the end; it spends cards
and coins on the cup rather than on armies, and razing brings the land closer to collapse (V-2).
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import param
from strategies.base import ScriptedStrategy


class Prophet(ScriptedStrategy):
    name: ClassVar[str] = "prophet"
    description: ClassVar[str] = "keeps a Prophet, fills the cup and sends the invaders at the leader's heartland"
    variant: ClassVar[str] = "prophet"
    core_policy: ClassVar[str] = "prophet"  # searches simulate it in the core
    params: ClassVar[dict[str, Any]] = {
        "zeal": param(1.0, 0, 10, "how eagerly it tips the cup: 0 never releases on purpose, 2 for half the damage"),
        "safety": param(0.25, 0, 1, "largest share of a release's expected damage it accepts on its own settlements"),
        "blind": param(0.5, 0, 10, "appetite for a release nobody aims (no Prophet in play: a random first target)"),
        "forecasts": param(24, 1, 1000, "paths each planned release is played out on copies of the game"),
        "wrath_cap": 12,  # fills the cup to one short of the rulebook's threshold (W-2)
        "tax": 0.8,
        "mercenaries": 0.6,
        "assassin": 0.8,
        "walls": 0.5,
        "city_garrison": 4,
        "develop": 0.2,
        "raze": 0.2,
    }
