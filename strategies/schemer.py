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

from plsim.strategy import ASSASSIN, MERCENARIES, REVOLT, TAX, View, kind_of, param
from strategies.base import ScriptedStrategy


class Schemer(ScriptedStrategy):
    name: ClassVar[str] = "schemer"
    description: ClassVar[str] = "Tax, Assassin, Mercenaries and kingmaking, and the Wrath that follows"
    core_policy: ClassVar[str] = "schemer"  # core/src/scripted plays it: searches simulate it there
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

    def tax_score(self, view: View, region: str) -> float:
        score = super().tax_score(view, region)
        if score <= 0:
            return score
        leader = self.leader_seat(view)
        if leader is not None:
            hit = sum(1 for sid in view.board.regions[region].settlements
                      if view.settlements[sid].standing and view.settlements[sid].owner == leader)
            score += self.p["spite"] * hit
        return score

    def revolt_score(self, view: View, region: str) -> float:
        return super().revolt_score(view, region) + 2.0 * self.p["spite"]

    def assassin_score(self, view: View, play) -> float:
        score = super().assassin_score(view, play)
        target = view.generals.get(play.target)
        if score > -4 and target is not None and target.owner == self.leader_seat(view):
            score += 2.0 * self.p["spite"]
        return score

    def card_value(self, view: View, card: str) -> float:
        kind = kind_of(card)
        if kind in (TAX, ASSASSIN, MERCENARIES):
            return 8.0
        if kind == REVOLT:
            return 3.0
        return super().card_value(view, card)

    def kingmaker_vote(self, view: View, gens: list):
        # never crown the leader; among the rest, the one furthest from winning
        leader = self.leader_seat(view)
        pool = [g for g in gens if g.owner != leader] or gens
        return min(pool, key=lambda g: (view.vp(g.owner), g.name))
