"""Where a scripted strategy wants to be: its home, its goal regions and the targets in them.

The region choice is shared by every other concern (purchases, movement, razing), so it lives
in one mixin; ``ScriptedStrategy`` supplies the caches it reads.
"""

from __future__ import annotations

from typing import Any, Callable

from plsim.strategy import CANAANITES, Decision, RegionStatus, View
from strategies.planning import INF, Target


class GoalsMixin:
    """Home, goal regions and movement targets; hooks: ``region_weight``, ``extra_targets``."""

    # -- goals -------------------------------------------------------------------------------
    def region_weight(self, view: View, name: str) -> float:
        """A multiplier of a region's cost; subclasses may prefer some regions."""
        return 1.0

    def settlement_cost(self, view: View, sid: int) -> float:
        """Rough coins-and-rounds price of taking one settlement."""
        st = view.settlements[sid]
        if st.owner == self.seat:
            return 0.0
        if st.owner is None:
            return 2.5
        defence = self.defence(view, sid, rounds_besieged=99)
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
        for sid in info.missing:
            cost += self.settlement_cost(view, sid)
            hx = view.settlements[sid].hex
            d = min(map(board.route_costs_to(hx).__getitem__, anchors), default=20)
            cost += 0.6 * d
        if not info.my_walled and not any(view.settlements[s].wall for s in info.canaanite + info.rival):
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
            cost -= 3.0 * self.vp_of(view, st.owner)  # the leader's titles first
        return max(1.0, cost) * appetite * self.region_weight(view, info.name)

    def anchors(self, view: View) -> list[int]:
        hexes = [s.hex for s in view.my_settlements()]
        hexes += [g.hex for g in self.my_free_generals(view)]
        return hexes

    def goal_regions(self, view: View) -> list[str]:
        """The regions the strategy is working to own, most urgent first (computed once per
        round, at its first decision from Acquisitions on, and kept for the round)."""
        key = view.round
        if self._goal_key != key or view.phase == "acquisitions" and self._goal_phase != "acquisitions":
            self._goal_key = key
            self._goal_phase = view.phase
            self._compute_goals(view)
        return self._goal

    def _compute_goals(self, view: View) -> list[str]:
        infos = self.regions_info(view)
        anchors = self.anchors(view)
        if not anchors:
            return []
        scored = []
        for name, info in infos.items():
            cost = self.region_cost(view, info, anchors)
            if cost >= INF:
                continue
            if name in self._goal:
                cost *= 0.75  # commitment: keep a plan unless another is much cheaper
            scored.append((cost, name))
        scored.sort()
        held = len(self.my_judges(view))
        count = self.max_goal_regions if held or len(scored) < 2 or scored[0][0] < 30 else 1
        goals = [name for _, name in scored[:count]]
        self._goal = goals
        return goals

    def targets(self, view: View) -> list[Target]:
        """Settlements worth sending generals to, with priorities (recomputed each decision in
        Movement, since moves change the board)."""
        infos = self.regions_info(view)
        goals = self.goal_regions(view)
        out: list[Target] = []
        seen: set[int] = set()
        for rank, name in enumerate(goals):
            info = infos[name]
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
        # invaders due next Combat at one of ours: reinforce it if it can hold (W-5)
        for sid, (strength, hold) in self.invader_plan(view).items():
            if hold:
                st = view.settlements[sid]
                out.append(Target(sid, st.hex, 12.0 if st.id in self.judge_city_ids(view) else 9.0, False, 0, 2))
        # defend: a threatened Judge's city or home gets a general
        threats = self.threats(view)
        cities = self.judge_city_ids(view)
        home = view.home()
        for st in view.my_settlements():
            if st.id not in cities and st.id != home:
                continue
            danger = threats.get(st.hex, 0) + 2
            defence = self.defence(view, st.id)
            if danger > defence:
                out.append(Target(st.id, st.hex, 7.0 if st.id in cities else 4.0, False, 0, 1))
        return out

    def _target_for(self, view: View, sid: int, priority: float) -> Target:
        st = view.settlements[sid]
        if st.owner is None:
            return Target(sid, st.hex, priority, False)
        melted = self.defence(view, sid, rounds_besieged=99)
        return Target(sid, st.hex, priority - 1.0, True, melted + 3, 2)

    def extra_targets(self, view: View, seen: set[int]) -> list[Target]:
        """Targets outside the goal regions: by default free settlements near our generals."""
        expand = self.p["expand"]
        if expand <= 0:
            return []
        out = []
        hexes = [g.hex for g in self.my_free_generals(view)]
        if not hexes:
            return out
        free = self.kept_places(view, "free", _unowned)
        columns = [self.distances_from(view, hx, free) for hx in hexes]
        nearest = columns[0] if len(columns) == 1 else map(min, *columns)
        for (sid, hx), d in zip(free, nearest):
            if d <= 6 and sid not in seen:
                out.append(Target(sid, hx, 3.0 * expand - 0.2 * d, False))
        return out

    def kept_places(self, view: View, name: str, wanted: Callable[[Any], bool]) -> tuple[tuple[int, int], ...]:
        """(id, hex) of the standing settlements ``wanted`` picks, kept under ``name`` while the
        settlements are; an equal answer is the very tuple before, so ``distances_from`` keeps
        its columns."""
        settlements = view.settlements
        kept = self._places.get(name)
        if kept is None or kept[0] is not settlements:
            places = tuple((st.id, st.hex) for st in settlements if st.standing and wanted(st))
            if kept is not None and places == kept[1]:
                places = kept[1]
            kept = self._places[name] = (settlements, places)
        return kept[1]

    def distances_from(self, view: View, hx: int, places: tuple[tuple[int, int], ...], moves: int = 0) -> tuple:
        """The route cost from hex ``hx`` to each of ``places`` ((id, hex) pairs), or with
        ``moves`` the rounds of marching (cost / moves); kept while ``places`` is the same tuple
        (route costs are fixed for the map)."""
        kept = self._distances.get(id(places))
        if kept is None or kept[0] is not places:
            if len(self._distances) > 8:
                self._distances.clear()
            kept = self._distances[id(places)] = (places, {})
        rows = kept[1]
        row = rows.get((hx, moves))
        if row is None:
            routes = view.board.route_costs_to
            row = tuple(routes(target)[hx] for _, target in places)
            if moves:
                row = tuple(d / moves for d in row)
            rows[(hx, moves)] = row
        return row

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
        board = view.board
        costs = []
        for name in view.regions:
            spec = board.regions[name]
            members = [s for s in spec.settlements if view.settlements[s].standing]
            if len(members) < view.rules.victory.region_min_settlements:
                continue
            cost = 10.0
            for s in members:
                if s == sid:
                    continue
                st = view.settlements[s]
                d = board.route_costs_to(st.hex)[hx]
                cost += 0.6 * d
                if st.owner == CANAANITES:
                    cost += 5.0 + 1.5 * st.garrison
                else:
                    cost += 2.5
                    if st.hex in other_hexes:
                        cost += 15.0
            if not any(view.settlements[s].wall for s in members):
                cost += 5
            cost *= self.region_weight(view, name)
            costs.append(cost)
        costs.sort()
        score = -(costs[0] + 0.5 * costs[1]) if len(costs) >= 2 else -costs[0] if costs else 0.0
        for oh in other_hexes:
            d = board.distance(hx, oh)
            if d < 6:
                score -= (6 - d) * 1.5
        return score


def _unowned(settlement) -> bool:
    return settlement.owner is None
