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

from plsim.strategy import CANAANITES, PROPHET, View, carries, general_moves, param
from strategies.base import INF, ScriptedStrategy, Target, raze_gain_and_keep
from strategies.planning import nearest


class Warlord(ScriptedStrategy):
    name: ClassVar[str] = "warlord"
    description: ClassVar[str] = "troops and sieges; takes rivals' settlements and Judge cities, razes when it pays"
    core_policy: ClassVar[str] = "warlord"  # core/src/scripted plays it: searches simulate it there
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

    def extra_targets(self, view: View, seen: set[int]) -> list[Target]:
        out = super().extra_targets(view, seen)
        aggression = self.p["aggression"]
        if aggression <= 0:
            return out
        marchers = [g for g in self.my_free_generals(view) if not carries(g, PROPHET)]
        hexes, moves = [g.hex for g in marchers], [general_moves(g.name) for g in marchers]
        cities = self.judge_city_ids(view)
        rivals = [(st.id, st.hex) for st in view.settlements
                  if st.standing and st.owner is not None and st.owner not in (self.seat, CANAANITES)]
        for (sid, _), d in nearest(view, hexes, rivals, moves):
            if d > 4 or sid in seen:
                continue
            st = view.settlements[sid]
            melted = view.settlement_defence(sid, rounds_besieged=99)
            value = 3.0 + (6.0 if sid in cities else 0.0) + 1.5 * st.developments + view.vp(st.owner)
            priority = aggression * value - 0.15 * melted - 0.5 * d
            if priority > 0:
                out.append(Target(sid, st.hex, priority, True, melted + 3, 2))
        return out

    def want_raze(self, view: View, sid: int) -> bool:
        """CB-7: raze what it cannot hold (far from its other settlements), what denies a rival
        a nearly complete region, or what carries rich loot; never in its own goal regions and
        never when the land would come within one region of collapse (V-2)."""
        if self.raze_ruled_out(view, sid):
            return False
        appetite = self.p["raze"]
        st = view.settlements[sid]
        region = view.board.settlements[sid].region
        gain, keep = raze_gain_and_keep(view, st)
        others = [s.hex for s in view.my_settlements() if s.id != sid]
        far = min((view.board.route_costs_to(st.hex)[h] for h in others), default=INF) > 6
        deny = 0.0
        if region is not None and view.regions[region].city is None:
            members = [m for m in view.board.regions[region].settlements if view.settlements[m].standing]
            for seat in range(view.n_players):
                if seat != self.seat and sum(1 for m in members if view.settlements[m].owner == seat) >= len(members) - 2:
                    deny = 6.0
        return appetite * (gain + deny + (3.0 if far else 0.0)) > keep

    def settlement_cost(self, view: View, sid: int) -> float:
        # the warlord does not mind taking a region from a rival
        cost = super().settlement_cost(view, sid)
        st = view.settlements[sid]
        if st.owner is not None and st.owner not in (self.seat, CANAANITES):
            cost *= 1.0 - 0.4 * self.p["aggression"]
        return cost
