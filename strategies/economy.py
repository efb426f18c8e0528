"""What a scripted strategy spends coins on: troops, walls, developments, titles, Tax.

Purchases weigh the garrisons the threats call for against the reserve a close Judge title
needs; ``ScriptedStrategy`` supplies the goals, threats and caches they read.
"""

from __future__ import annotations

from typing import Any

from plsim.strategy import PASS, Buy, Decision, PlayCard, Purchase, View, base_strength, settlement_value


class EconomyMixin:
    """Acquisitions and Tax; hooks: ``reserve``, ``guilt_score``, ``tax_score``."""

    # -- acquisitions ------------------------------------------------------------------------
    def decide_purchase(self, view: View, decision: Decision) -> Any:
        best, best_score = PASS, 0.0
        coins = view.coins()
        reserve = self.reserve(view)
        for option in decision.options:
            if isinstance(option, PlayCard):
                score = self.card_play_score(view, option)
            elif isinstance(option, Buy):
                score = self.buy_score(view, option, coins, reserve)
            else:
                continue
            if score > best_score:
                best, best_score = option, score
        return best

    def reserve(self, view: View) -> int:
        """Coins kept back for a Judge title that is close."""
        return self.cached("reserve", self._compute_reserve, view)

    def _compute_reserve(self, view: View) -> int:
        infos = self.regions_info(view)
        cost = view.rules.costs.judge_title
        for name in self.goal_regions(view):
            info = infos[name]
            if len(info.missing) <= 1:
                return cost + (0 if info.my_walled or any(view.settlements[s].wall for s in info.missing) else view.rules.costs.wall)
        return 0

    def buy_score(self, view: View, buy: Buy, coins: int, reserve: int) -> float:
        what = buy.what
        costs = view.rules.costs
        if what == Purchase.JUDGE_TITLE:
            return 100.0 + self.judge_buy_pref(view, buy)
        if what == Purchase.TABERNACLE:
            return 90.0
        if what == Purchase.GUILT_SACRIFICE:
            return self.guilt_score(view)
        price = getattr(costs, what)
        st = view.settlements[buy.settlement]
        if what == Purchase.TROOP:
            score = self.troop_score(view, st)
        elif what == Purchase.WALL:
            score = self.wall_score(view, st)
        else:
            score = self.development_score(view, st)
        if score <= 0:
            return 0.0
        if coins - price < reserve and score < 20:
            return 0.0
        return score

    def judge_buy_pref(self, view: View, buy: Buy) -> float:
        g = view.generals[buy.general]
        st = view.settlements[buy.settlement]
        # the title holder should be a general that will not need to fight: the weakest
        return -base_strength(g.name) - 0.1 * g.troops + 0.2 * st.garrison

    def guilt_score(self, view: View) -> float:
        threshold = view.rules.wrath.threshold
        if view.wrath >= threshold - 4:
            return 30.0
        return 0.0

    def wanted_garrison(self, view: View, st) -> int:
        """Troops a settlement should hold: a floor, more for cities and home, and enough to stand
        against the generals that could reach it (capped)."""
        cities = self.judge_city_ids(view)
        important = st.id in cities or st.id == view.home()
        floor = self.p["city_garrison"] if important else self.p["garrison"]
        region = view.board.settlements[st.id].region
        if not important and region is not None and region in self.goal_regions(view):
            floor += 1  # a Plague must not empty a settlement the title needs (ST-9)
        threat = self.threats(view).get(st.hex, 0)
        if threat:
            current_other = self.defence(view, st.id) - st.garrison
            need = threat + 2 - current_other
            cap = 8 if important else 4
            floor = max(floor, min(cap, need))
        invaders = self.invader_plan(view).get(st.id)
        if invaders is not None:
            strength, hold = invaders
            if not hold:
                return min(floor, 1)
            current_other = self.defence(view, st.id) - st.garrison
            floor = max(floor, min(view.rules.limits.garrison, strength + 1 - current_other))
        return floor

    def troop_stamp(self, view: View, st) -> tuple:
        """What ``troop_score`` reads that may change within a phase: the settlement, the
        generals in its hex (its defence), its siege, the titles (Judges' cities) and the home.
        Records the view kept compare as the same object at once. A subclass whose
        ``wanted_garrison`` reads more (coins, say) adds it here."""
        return st, view.generals_at(st.hex), view.regions, view.sieges.get(st.hex), view.home()

    def troop_score(self, view: View, st) -> float:
        """How much a troop bought in ``st`` is worth; kept for the phase while ``troop_stamp``
        is unchanged (everything else it reads is fixed for the phase)."""
        memo = self.cached("troop_score", dict)
        stamp = self.troop_stamp(view, st)
        kept = memo.get(st.id)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        score = self._compute_troop_score(view, st)
        memo[st.id] = (stamp, score)
        return score

    def _compute_troop_score(self, view: View, st) -> float:
        limit = view.rules.limits
        if st.garrison >= limit.garrison:
            return 0.0
        want = self.wanted_garrison(view, st)
        infos = self.regions_info(view)
        region = view.board.settlements[st.id].region
        in_goal = region is not None and (region in self.goal_regions(view) or
                                          (infos.get(region) and infos[region].city_owner == self.seat))
        if st.garrison < want:
            urgency = 25.0 if st.garrison == 0 else 15.0
            if st.id in self.invader_plan(view):
                urgency += 20.0
            if in_goal or st.id == view.home() or st.id in self.judge_city_ids(view):
                urgency += 10
            return urgency - st.garrison
        # staging: a general here that is about to attack wants troops to take
        stage = self.staging_need(view).get(st.id, 0)
        if stage > st.garrison - want:
            return 12.0
        return 0.0

    def staging_need(self, view: View) -> dict[int, int]:
        """settlement id -> troops our generals there will take for the attacks planned."""
        return self.cached("staging", self._compute_staging, view)

    def _compute_staging(self, view: View) -> dict[int, int]:
        board = view.board
        need: dict[int, int] = {}
        targets = self.targets(view)
        cap = view.rules.limits.troops_per_general
        gens = [g for g in self.my_free_generals(view) if g.hex not in view.sieges]
        plan = self.assign(view, gens, targets)
        plague = self.plague_coming(view)
        for g in gens:
            target = plan.get(g.name)
            sid = board.settlement_at[g.hex]
            if sid < 0 or view.settlements[sid].owner != self.seat:
                continue
            if target is None or not target.hostile:
                if plague and g.troops < self.p["escort"]:
                    need[sid] = need.get(sid, 0) + self.p["escort"] - g.troops
                continue
            need_now = self.strength_needed(view, target.hex, self.p["assault"])
            want = max(0, min(cap, need_now - view.general_strength(g, troops=0)))
            if want > g.troops:
                need[sid] = need.get(sid, 0) + want - g.troops
        return need

    def wall_score(self, view: View, st) -> float:
        infos = self.regions_info(view)
        region = view.board.settlements[st.id].region
        if region is not None and region in self.goal_regions(view):
            info = infos[region]
            if not info.my_walled and not any(view.settlements[s].wall for s in info.missing):
                return 22.0 if len(info.missing) <= 2 else 8.0
        if st.city:
            return 0.0
        threat = self.threats(view).get(st.hex, 0)
        score = self.p["walls"] * (6.0 + (4.0 if st.id == view.home() else 0.0) + min(threat, 6))
        return score if view.coins() >= 12 or threat > self.defence(view, st.id) else 0.0

    def development_score(self, view: View, st) -> float:
        appetite = self.p["develop"]
        if appetite <= 0:
            return 0.0
        threat = self.threats(view).get(st.hex, 0)
        if threat > self.defence(view, st.id) + 2:
            return 0.0
        if st.id in self.invader_next(view):
            return 0.0
        rounds_left = view.rules.victory.max_rounds - view.round
        if rounds_left < 5:
            return 0.0
        score = appetite * (10.0 + (2.0 if st.city else 0.0) + (2.0 if st.wall else 0.0))
        return score if view.coins() >= view.rules.costs.development + 4 else score * 0.4

    # -- tax ---------------------------------------------------------------------------------
    def region_tax_value(self, view: View, name: str) -> tuple[int, int]:
        """(what Tax would pay me, what it takes from my own income there)."""
        total = mine = 0
        for sid in view.board.regions[name].settlements:
            st = view.settlements[sid]
            if not st.standing or st.owner is None or st.owner < 0:
                continue
            value = settlement_value(view.rules, st)  # IN-1, before this round's events
            total += value
            if st.owner == self.seat and st.hex not in view.sieges:
                mine += value
        return view.rules.income.tax_multiplier * total, mine

    def tax_score(self, view: View, region: str) -> float:
        gain, own = self.region_tax_value(view, region)
        net = gain - own
        info = self.regions_info(view).get(region)
        if info is not None and info.judge_owner == self.seat:
            return net  # no Wrath for taxing one's own Judge region (W-1)
        if self.p["tax"] <= 0 or not self.wrath_room(view):
            return 0.0
        return self.p["tax"] * (net - 3)
