"""What a scripted strategy spends coins on: troops, walls, developments, titles, Tax.

Purchases weigh the garrisons the threats call for against the reserve a close Judge title
needs. The plan made at the first purchase decision holds what each settlement should hold
(``troop_wish``); each decision then scores only the options offered, from the plan and the
garrisons and coins as they now stand. ``ScriptedStrategy`` supplies the plan and the goals,
threats and invaders it reads.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from plsim.strategy import PASS, Buy, Decision, PlayCard, Purchase, View, base_strength


class TroopWish(NamedTuple):
    """What the plan wants of a settlement's garrison: ``want`` troops (``wanted_garrison``),
    bought with ``urgency`` added while short of them."""

    want: int
    urgency: float


class EconomyMixin:
    """Acquisitions and Tax; hooks: ``reserve``, ``guilt_score``, ``tax_score``."""

    # -- acquisitions ------------------------------------------------------------------------
    def decide_purchase(self, view: View, decision: Decision) -> Any:
        best, best_score = PASS, 0.0
        coins = view.coins()
        reserve = self.known(view, "reserve", self.reserve)
        cards = self.card_scores(view)
        for option in decision.options:
            t = type(option)
            if t is Buy:
                score = self.buy_score(view, option, coins, reserve)
            elif t is PlayCard:
                score = self.card_play_score(view, option, cards)
            else:
                continue
            if score > best_score:
                best, best_score = option, score
        return best

    def reserve(self, view: View) -> int:
        """Coins kept back for a Judge title that is close."""
        cost = view.rules.costs.judge_title
        for name in self.goal_regions(view):
            info = self.region_info(view, name)
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
        threat = self.threat(view, st.hex)
        if threat:
            current_other = view.settlement_defence(st.id) - st.garrison
            need = threat + 2 - current_other
            cap = 8 if important else 4
            floor = max(floor, min(cap, need))
        invaders = self.invader_plan(view).get(st.id)
        if invaders is not None:
            strength, hold = invaders
            if not hold:
                return min(floor, 1)
            current_other = view.settlement_defence(st.id) - st.garrison
            floor = max(floor, min(view.rules.limits.garrison, strength + 1 - current_other))
        return floor

    def troop_score(self, view: View, st) -> float:
        """How much a troop bought in ``st`` is worth now, from the plan's ``troop_wish``."""
        garrison = st.garrison
        if garrison >= view.rules.limits.garrison:
            return 0.0
        wish = self.known(view, ("troops", st.id), self.troop_wish, st)
        if garrison < wish.want:
            return (25.0 if garrison == 0 else 15.0) + wish.urgency - garrison
        # staging: a general here that is about to attack wants troops to take
        return 12.0 if self.staging_at(view, st) > garrison - wish.want else 0.0

    def staging_at(self, view: View, st) -> int:
        """The troops our generals in ``st`` will take for the attacks planned (``staging_need``,
        worked out only once a settlement where one of them stands asks)."""
        return self.known(view, ("staging at", st.id), self._staging_at, st)

    def _staging_at(self, view: View, st) -> int:
        seat = self.seat
        if st.hex in view.sieges or not any(g.owner == seat and g.captor is None for g in view.generals_at(st.hex)):
            return 0
        return self.staging_need(view).get(st.id, 0)

    def troop_wish(self, view: View, st) -> TroopWish:
        """The plan's wish for the settlement's garrison (``TroopWish``)."""
        region = view.board.settlements[st.id].region
        info = self.region_info(view, region) if region is not None else None
        in_goal = region is not None and (region in self.goal_regions(view) or
                                          (info is not None and info.city_owner == self.seat))
        urgency = 20.0 if st.id in self.invader_plan(view) else 0.0
        if in_goal or st.id == view.home() or st.id in self.judge_city_ids(view):
            urgency += 10.0
        return TroopWish(self.wanted_garrison(view, st), urgency)

    def staging_need(self, view: View) -> dict[int, int]:
        """settlement id -> troops our generals there will take for the attacks planned."""
        return self.known(view, "staging", self._staging_need)

    def _staging_need(self, view: View) -> dict[int, int]:
        board = view.board
        need: dict[int, int] = {}
        cap = view.rules.limits.troops_per_general
        gens = [g for g in self.my_free_generals(view) if g.hex not in view.sieges]
        assignment = self.assign(view, gens, self.planned_targets(view))
        escort = self.escort(view) if self.plague_coming(view) else 0
        for g in gens:
            target = assignment.get(g.name)
            sid = board.settlement_at[g.hex]
            if sid < 0 or view.settlements[sid].owner != self.seat:
                continue
            if target is None or not target.hostile:
                if g.troops < escort:
                    need[sid] = need.get(sid, 0) + escort - g.troops
                continue
            need_now = self.strength_needed(view, target.hex, self.p["assault"])
            want = max(0, min(cap, need_now - view.general_strength(g, troops=0)))
            if want > g.troops:
                need[sid] = need.get(sid, 0) + want - g.troops
        return need

    def wall_score(self, view: View, st) -> float:
        """The wall a goal region's Judge's city needs (TI-1) first; else the appetite for walls,
        indulged with a comfortable purse or against a threat the settlement cannot stand."""
        needed, appetite, threat = self.known(view, ("wall", st.id), self._wall_worth, st)
        if needed:
            return needed
        if st.city:
            return 0.0
        return appetite if view.coins() >= 12 or threat > view.settlement_defence(st.id) else 0.0

    def _wall_worth(self, view: View, st) -> tuple[float, float, int]:
        """(the worth of a wall a goal region's title needs, or 0; the appetite for it; the threat)."""
        needed = 0.0
        region = view.board.settlements[st.id].region
        if region is not None and region in self.goal_regions(view):
            info = self.region_info(view, region)
            if not info.my_walled and not any(view.settlements[s].wall for s in info.missing):
                needed = 22.0 if len(info.missing) <= 2 else 8.0
        threat = self.threat(view, st.hex)
        appetite = self.p["walls"] * (6.0 + (4.0 if st.id == view.home() else 0.0) + min(threat, 6))
        return needed, appetite, threat

    def development_score(self, view: View, st) -> float:
        appetite = self.p["develop"]
        if appetite <= 0:
            return 0.0
        threat = self.threat(view, st.hex)
        if threat > view.settlement_defence(st.id) + 2:
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
        """(what Tax on the region would pay me, what it takes from my own income there): the
        engine's IN-1..IN-3 for this round (a besieged settlement pays nothing)."""
        mine = sum(view.income_paid(sid) for sid in view.board.regions[name].settlements
                   if view.settlements[sid].owner == self.seat)
        return view.tax_gain(name), mine

    def tax_score(self, view: View, region: str) -> float:
        gain, own = self.region_tax_value(view, region)
        net = gain - own
        info = self.region_info(view, region)
        if info is not None and info.judge_owner == self.seat:
            return net  # no Wrath for taxing one's own Judge region (W-1)
        if self.p["tax"] <= 0 or not self.wrath_room(view, view.rules.wrath.tax):
            return 0.0
        return self.p["tax"] * (net - 3)
