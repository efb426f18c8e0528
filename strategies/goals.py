"""Where a scripted strategy wants to be: its home, its goal regions and the targets in them.

The region choice is shared by every other concern (purchases, movement, razing), so it lives
in one mixin; ``ScriptedStrategy`` supplies the plan whose knowledge it reads and adds to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plsim.strategy import CANAANITES, Decision, RegionStatus, View
from strategies.planning import INF, Target, nearest

RIVAL_HOME = 7.5  # what a rival's home costs beyond its price: its owner comes back for it


@dataclass(slots=True)
class Goals:
    """The round's goal regions, most urgent first: chosen at the round's first decision that
    needs them and again in Acquisitions, with the coins in hand, then kept for the round so
    that the armies march on one aim."""

    round: int = -1
    in_acquisitions: bool = False
    regions: list[str] = field(default_factory=list)


class GoalsMixin:
    """Home, goal regions and movement targets; hooks: ``region_weight``, ``settlement_cost``,
    ``extra_targets``, ``targets``."""

    # -- goals -------------------------------------------------------------------------------
    def region_weight(self, view: View, name: str) -> float:
        """A multiplier of a region's cost; subclasses may prefer some regions."""
        return 1.0

    def settlement_cost(self, view: View, sid: int) -> float:
        """Rough coins-and-rounds price of taking one settlement (its defence once the walls
        have melted, CB-3, ST-4, ST-8)."""
        st = view.settlements[sid]
        if st.owner == self.seat:
            return 0.0
        if st.owner is None:
            return 2.5
        defence = view.settlement_defence(sid, rounds_besieged=99)
        if st.owner == CANAANITES:
            return 5.0 + 1.5 * defence
        return 7.0 + 1.5 * defence + (2.0 if st.wall else 0.0)

    def region_cost(self, view: View, info: RegionStatus, anchors: list[int]) -> float:
        """What owning this region whole would cost from here; INF when it cannot be a goal."""
        if not info.can_hold:
            return INF
        board = view.board
        if info.city is not None:
            return self.usurp_cost(view, info, anchors)
        cost = 0.0
        price, routes, settlements = self.settlement_cost, board.route_costs_to, view.settlements
        for sid in info.missing:
            cost += price(view, sid)
            cost += 0.6 * min(map(routes(settlements[sid].hex).__getitem__, anchors), default=20)
        if not info.my_walled and not any(settlements[s].wall for s in info.canaanite + info.rival):
            cost += 5
        cost += 10  # the title
        return cost * self.region_weight(view, info.name)

    def usurp_cost(self, view: View, info: RegionStatus, anchors: list[int]) -> float:
        """A region whose title exists: taking its Judge's city brings the title along (CB-7,
        TI-5); a city left without an owner is simply walked into."""
        appetite = self.p["usurp"]
        if info.city_owner == self.seat or appetite <= 0:
            return INF
        st = view.settlements[info.city]
        if not st.standing:
            return INF
        d = min(map(view.board.route_costs_to(st.hex).__getitem__, anchors), default=20)
        cost = 6.0 + self.settlement_cost(view, st.id) + 0.6 * d
        if st.owner is not None and st.owner >= 0:
            cost -= 3.0 * view.vp(st.owner)  # the leader's titles first
        return max(1.0, cost) * appetite * self.region_weight(view, info.name)

    def anchors(self, view: View) -> list[int]:
        """The hexes a march starts from: our settlements and our free generals (each once)."""
        hexes = [s.hex for s in view.my_settlements()]
        hexes += [g.hex for g in self.my_free_generals(view)]
        return list(dict.fromkeys(hexes))

    def goal_regions(self, view: View) -> list[str]:
        """The regions the strategy is working to own, most urgent first (``Goals``)."""
        goals = self.goals
        if goals.round != view.round or (not goals.in_acquisitions and view.phase == "acquisitions"):
            goals.round, goals.in_acquisitions = view.round, view.phase == "acquisitions"
            goals.regions = self.choose_goals(view, goals.regions)
        return goals.regions

    def choose_goals(self, view: View, before: list[str]) -> list[str]:
        """The cheapest regions to own whole; the goals ``before`` keep a discount (commitment:
        a plan is kept unless another is much cheaper)."""
        anchors = self.anchors(view)
        if not anchors:
            return []
        scored = []
        for name, info in self.regions_info(view).items():
            cost = self.region_cost(view, info, anchors)
            if cost >= INF:
                continue
            if name in before:
                cost *= 0.75
            scored.append((cost, name))
        scored.sort()
        held = len(self.my_judges(view))
        count = self.max_goal_regions if held or len(scored) < 2 or scored[0][0] < 30 else 1
        return [name for _, name in scored[:count]]

    def planned_targets(self, view: View) -> list[Target]:
        """The plan's targets (``targets``, worked out once per plan)."""
        return self.known(view, "targets", self.targets)

    def targets(self, view: View) -> list[Target]:
        """Settlements worth sending generals to, with priorities: the goal regions' missing
        settlements, ``extra_targets``, our settlements the invaders hit next and can be held
        (W-5), and our threatened Judges' cities and home."""
        out: list[Target] = []
        seen: set[int] = set()
        for rank, name in enumerate(self.goal_regions(view)):
            info = self.region_info(view, name)
            base_priority = 10.0 - 3.0 * rank
            if info.city is not None:
                st = view.settlements[info.city]
                if st.standing and st.owner != self.seat:
                    seen.add(st.id)
                    out.append(self._target_for(view, st.id, base_priority + 1.0))
                continue
            for sid in info.missing:
                st = view.settlements[sid]
                if not st.standing or st.owner == self.seat:
                    continue
                seen.add(sid)
                out.append(self._target_for(view, sid, base_priority))
        out.extend(self.extra_targets(view, seen))
        cities = self.judge_city_ids(view)
        for sid, (strength, hold) in self.invader_plan(view).items():
            if hold:
                st = view.settlements[sid]
                out.append(Target(sid, st.hex, 12.0 if st.id in cities else 9.0, False, 0, 2))
        home = view.home()
        for sid in sorted(cities if home is None else cities | {home}):
            st = view.settlements[sid]
            if st.owner != self.seat or not st.standing:
                continue
            if self.threat(view, st.hex) + 2 > view.settlement_defence(sid):
                out.append(Target(sid, st.hex, 7.0 if sid in cities else 4.0, False, 0, 1))
        return out

    def _target_for(self, view: View, sid: int, priority: float) -> Target:
        st = view.settlements[sid]
        if st.owner is None:
            return Target(sid, st.hex, priority, False)
        melted = view.settlement_defence(sid, rounds_besieged=99)
        return Target(sid, st.hex, priority - 1.0, True, melted + 3, 2)

    def extra_targets(self, view: View, seen: set[int]) -> list[Target]:
        """Targets outside the goal regions: by default free settlements near our generals."""
        expand = self.p["expand"]
        if expand <= 0:
            return []
        hexes = [g.hex for g in self.my_free_generals(view)]
        out = []
        free = [(st.id, st.hex) for st in view.settlements if st.standing and st.owner is None]
        for (sid, hx), d in nearest(view, hexes, free):
            if d <= 6 and sid not in seen:
                out.append(Target(sid, hx, 3.0 * expand - 0.2 * d, False))
        return out

    # -- home --------------------------------------------------------------------------------
    def decide_home(self, view: View, decision: Decision) -> Any:
        others = [view.home(s) for s in range(view.n_players) if s != self.seat and view.home(s) is not None]
        other_hexes = [view.settlements[h].hex for h in others]
        best, best_score = None, -INF
        for option in decision.options:
            sid = option.value
            hx = view.settlements[sid].hex
            score = self.home_score(view, sid, hx, other_hexes)
            if score > best_score:
                best, best_score = option, score
        return best

    def home_score(self, view: View, sid: int, hx: int, other_hexes: list[int]) -> float:
        """SU-2: the two regions cheapest to own whole from this home (each settlement's price
        and the march to it), less the crowding of the other homes."""
        costs = []
        for weight, fixed, members in self.known(view, "home regions", self._home_regions, tuple(other_hexes)):
            cost = fixed + sum(0.6 * row[hx] + price for member, row, price in members if member != sid)
            costs.append(cost * weight)
        costs.sort()
        score = -(costs[0] + 0.5 * costs[1]) if len(costs) >= 2 else -costs[0] if costs else 0.0
        for oh in other_hexes:
            d = view.board.distance(hx, oh)
            if d < 6:
                score -= (6 - d) * 1.5
        return score

    def _home_regions(self, view: View, other_hexes: tuple[int, ...]) -> list[tuple[float, float, list]]:
        """(weight, fixed cost, [(member, its route costs, its price)]) of each region that can
        hold a Judge: what every home candidate's score is made of."""
        board = view.board
        out = []
        for name in view.regions:
            members = [s for s in board.regions[name].settlements if view.settlements[s].standing]
            if len(members) < view.rules.victory.region_min_settlements:
                continue
            fixed = 10.0 + (0.0 if any(view.settlements[s].wall for s in members) else 5.0)
            priced = []
            for member in members:
                hx = view.settlements[member].hex
                price = self.settlement_cost(view, member) + (RIVAL_HOME if hx in other_hexes else 0.0)
                priced.append((member, board.route_costs_to(hx), price))
            out.append((self.region_weight(view, name), fixed, priced))
        return out

