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

from plsim.strategy import ARK, ASSASSIN, JUSTICE, MERCENARIES, TAX, Buy, Purchase, View, carries, kind_of, param
from strategies.base import ScriptedStrategy, Target


class Zealot(ScriptedStrategy):
    name: ClassVar[str] = "zealot"
    description: ClassVar[str] = "keeps Wrath low, seeks the Ark and the Tabernacle, uses Justice and Guilt Sacrifices"
    core_policy: ClassVar[str] = "zealot"  # core/src/scripted plays it: searches simulate it there
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

    def guilt_score(self, view: View) -> float:
        if view.wrath >= self.p["piety"]:
            return 40.0
        return 0.0

    def justice_score(self, view, play) -> float:
        score = super().justice_score(view, play)
        return score + 5.0 if score > 0 else 0.0

    def card_value(self, view: View, card: str) -> float:
        kind = kind_of(card)
        if kind in (MERCENARIES, TAX, ASSASSIN) and not self.my_judges(view):
            return 0.5
        if kind == JUSTICE:
            return 8.0
        return super().card_value(view, card)

    def reserve(self, view: View) -> int:
        base = super().reserve(view)
        if self.ark_carrier(view) is not None and self.my_cities(view) and not self.tabernacle_built(view):
            base = max(base, view.rules.costs.tabernacle)
        return base

    def ark_carrier(self, view: View):
        for g in self.my_free_generals(view):
            if carries(g, ARK):
                return g
        return None

    def my_cities(self, view: View) -> list:
        return [st for st in view.my_settlements() if st.city]

    def tabernacle_built(self, view: View) -> bool:
        return any(st.tabernacle and st.standing for st in view.settlements)

    def targets(self, view: View) -> list[Target]:
        out = super().targets(view)
        carrier = self.ark_carrier(view)
        if carrier is None:
            return out
        # the Ark's carrier goes to the Tabernacle, or to the city where one can be built
        home = [st for st in view.my_settlements() if st.tabernacle]
        if not home and not self.tabernacle_built(view):
            home = self.my_cities(view)
        if home:
            st = min(home, key=lambda s: self.dist(view, carrier.hex, s.hex))
            out.append(Target(st.id, st.hex, 20.0, False, 0, 1))
        return out

    def assign(self, view, generals, targets):
        plan = super().assign(view, generals, targets)
        carrier = self.ark_carrier(view)
        if carrier is not None:
            ark_targets = [t for t in targets if t.priority >= 20.0]
            if ark_targets and carrier in generals:
                plan = {k: v for k, v in plan.items() if v.priority < 20.0}
                plan[carrier.name] = ark_targets[0]
        return plan

    def general_action(self, view, g, target, moves, pmoves, take, give):
        if carries(g, ARK):
            sid = view.board.settlement_at[g.hex]
            if sid >= 0 and view.settlements[sid].owner == self.seat and (
                    view.settlements[sid].tabernacle or (view.settlements[sid].city and not self.tabernacle_built(view))):
                return None  # the Ark stays on the Tabernacle (ST-7)
        return super().general_action(view, g, target, moves, pmoves, take, give)

    def buy_score(self, view: View, buy: Buy, coins: int, reserve: int) -> float:
        score = super().buy_score(view, buy, coins, reserve)
        if buy.what == Purchase.DEVELOPMENT and self.ark_carrier(view) is not None and not self.tabernacle_built(view):
            return 0.0
        return score

    def title_holder_score(self, view: View, g) -> float:
        return super().title_holder_score(view, g) + (10.0 if carries(g, ARK) else 0.0)
