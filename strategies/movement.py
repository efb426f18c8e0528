"""How a scripted strategy moves its generals: placement, target assignment and routes.

Movement is one decision per general step, so the plan (targets, assignment) is recomputed each
time from the board as it now stands.
"""

from __future__ import annotations

from typing import Any

from plsim.strategy import (
    PASS, PLAGUE, PROPHET, Decision, GiveTroops, Move, PlayCard, StartAssault, StartSiege, TakeTroops, View, carries,
    general_moves, kind_of,
)
from strategies.planning import INF, Target, offered


class MovementMixin:
    """Placing and moving generals; hook: ``assign``."""

    # -- placing -----------------------------------------------------------------------------
    def decide_place_general(self, view: View, decision: Decision) -> Any:
        targets = self.targets(view)
        best, best_score = None, -INF
        threats = self.threats(view)
        for option in decision.options:
            st = view.settlements[option.value]
            score = 0.0
            for t in targets:
                d = self.dist(view, st.hex, t.hex)
                score = max(score, t.priority - 0.8 * d)
            score += 0.3 * st.garrison  # troops to take
            score += 0.2 * max(0, threats.get(st.hex, 0) - self.defence(view, st.id))
            if score > best_score:
                best, best_score = option, score
        return best

    # -- movement ----------------------------------------------------------------------------
    def decide_movement(self, view: View, decision: Decision) -> Any:
        if self._stay_round != view.round:
            self._stay_round = view.round
            self._stay = set()
        moves: dict[str, dict[int, Move]] = {}
        pmoves: dict[str, dict[int, Move]] = {}
        takes: dict[str, int] = {}
        gives: dict[str, int] = {}
        cards: list[PlayCard] = []
        starts: dict[int, dict[str, Any]] = {}
        for option in decision.options:
            t = type(option)
            if t is Move:
                by_general = pmoves if option.passage else moves
                dests = by_general.get(option.general)
                if dests is None:
                    dests = by_general[option.general] = {}
                dests[option.dest] = option
            elif t is TakeTroops:
                if option.count > takes.get(option.general, 0):
                    takes[option.general] = option.count
            elif t is GiveTroops:
                if option.count > gives.get(option.general, 0):
                    gives[option.general] = option.count
            elif t is PlayCard:
                cards.append(option)
            elif t is StartSiege or t is StartAssault:
                starts.setdefault(option.hex, {})[t] = option
        for hex_id, pair in sorted(starts.items()):
            # MV-11, MV-12: our generals stand in a hostile hex with no siege or assault of ours
            choice = self.start_attack(view, hex_id)
            if choice in pair:
                return pair[choice]
        for play in cards:
            if self.card_play_score(view, play) > 0:
                return play
        generals = [g for g in self.my_free_generals(view) if not g.moved and g.name not in self._stay]
        if not generals:
            return PASS
        targets = self.targets(view)
        assignment = self.assign(view, generals, targets)
        # generals with a job first, strongest first
        generals.sort(key=lambda g: (g.name not in assignment, -view.general_strength(g), g.name))
        for g in generals:
            action = self.general_action(view, g, assignment.get(g.name), moves.get(g.name, {}),
                                         pmoves.get(g.name, {}), takes.get(g.name, 0), gives.get(g.name, 0))
            if action is None:
                self._stay.add(g.name)
                continue
            if offered(action, decision.options):
                return action
            self._stay.add(g.name)
        return PASS

    def assign(self, view: View, generals: list, targets: list[Target]) -> dict[str, Target]:
        """Greedy: the best (priority - distance) pairs first; a hostile target takes up to 2."""
        if not targets:
            return {}
        routes = view.board.route_costs_to
        rows = [(t, routes(t.hex)) for t in targets]
        # generals already standing on a hostile target (besieging) keep it
        pairs = []  # (-score, name, sid, order, target): best first, ties in the order found
        for g in generals:
            prophet = carries(g, PROPHET)
            moves = general_moves(g.name)
            name, hx, titled = g.name, g.hex, g.title is not None
            strength = None
            for t, row in rows:
                if t.hostile and prophet:
                    continue
                d = row[hx]
                if d >= INF:
                    continue
                rounds = d / moves
                score = t.priority - 1.2 * rounds
                if t.hostile:
                    if strength is None:
                        strength = view.general_strength(g)
                    score += 0.15 * strength
                    if titled:
                        score -= 4.0
                pairs.append((-score, name, t.sid, len(pairs), t))
        pairs.sort()
        slots = {t.sid: t.slots for t in targets}
        # already committed generals of ours on a target hex use its slots
        limit = view.rules.limits.generals_per_settlement
        for t in targets:
            here = captive = 0
            for gg in view.generals_at(t.hex):
                if gg.owner == self.seat:
                    if gg.captor is None:
                        here += 1
                    else:
                        captive += 1
            # our captives there go free when we take it (CP-2): leave room for them (MV-5)
            slots[t.sid] = max(0, min(slots[t.sid], limit - captive) - here)
        out: dict[str, Target] = {}
        for negated, name, sid, _, t in pairs:
            if name in out or slots[sid] <= 0 or -negated < -3:
                continue
            out[name] = t
            slots[sid] -= 1
        return out

    def holding_duty(self, view: View, g) -> bool:
        """Whether the general must stay to keep the settlement it stands in (ST-9)."""
        board = view.board
        sid = board.settlement_at[g.hex]
        if sid < 0:
            return False
        st = view.settlements[sid]
        if st.owner != self.seat or st.garrison > 0:
            return False
        others = sum(1 for o in view.generals_at(g.hex) if o is not g and o.owner == self.seat and o.captor is None)
        return others == 0

    def general_action(self, view: View, g, target: Target | None, moves: dict[int, Move],
                       pmoves: dict[int, Move], take: int, give: int) -> Any:
        board = view.board
        here_sid = board.settlement_at[g.hex]
        here_mine = here_sid >= 0 and view.settlements[here_sid].owner == self.seat
        if g.hex in view.sieges and view.sieges[g.hex].besieger == self.seat:
            return None  # keeps its siege; Combat decides when to assault
        if self.holding_duty(view, g):
            if give > 0 and target is not None and target.hex != g.hex:
                return GiveTroops(g.name, 1)
            region = board.settlements[here_sid].region
            if (target is None or target.priority < 9 or here_sid == view.home()
                    or here_sid in self.judge_city_ids(view) or region in self.goal_regions(view)):
                return None  # stays until a troop is bought here (ST-9)
        if target is None or target.hex == g.hex:
            # idle: top up with troops if it stands in a garrisoned settlement with plenty
            if here_mine and take > 0 and not carries(g, PROPHET):
                st = view.settlements[here_sid]
                spare = st.garrison - self.wanted_garrison(view, st)
                if spare > 0 and g.troops < 3:
                    return TakeTroops(g.name, min(take, spare, 3 - g.troops))
            return None
        cap = view.rules.limits.troops_per_general
        open_plain = view.open_plain(target.hex)
        if not target.hostile and here_mine and take > 0 and g.troops < self.p["escort"] and self.plague_coming(view):
            # a general leading 0 or 1 troop dies of Plague (9.4): take an escort first
            st = view.settlements[here_sid]
            spare = st.garrison - self.wanted_garrison(view, st)
            if spare > 0:
                return TakeTroops(g.name, min(take, spare, self.p["escort"] - g.troops))
        if target.hostile:
            partners = sum(view.general_strength(o, open_plain) for o in view.generals_at(target.hex)
                           if o.owner == self.seat and o.captor is None)
            power = view.general_strength(g, open_plain)
            need_now = self.strength_needed(view, target.hex, self.p["assault"])
            need_melted = self.strength_needed(view, target.hex, self.p["march"], rounds_besieged=99)
            if here_mine and take > 0 and g.troops < cap:
                st = view.settlements[here_sid]
                spare = st.garrison - self.wanted_garrison(view, st)
                short = need_now - power - partners
                if spare > 0 and short > 0:
                    return TakeTroops(g.name, min(take, spare, short))
            if power + partners < need_melted and (target.hex in moves or target.hex in pmoves):
                # too weak to win even once the walls have melted: wait for troops or partners
                defence, _ = view.hex_defence(target.hex, rounds_besieged=99, attacker=self.seat)
                if view.win_probability(power + partners, defence) < 0.5:
                    return None
        if target.hex in moves:
            return moves[target.hex]
        if target.hex in pmoves:
            return pmoves[target.hex]
        return self.step_toward(view, g, target.hex, moves)

    def plague_coming(self, view: View) -> bool:
        return any(kind_of(e) == PLAGUE for e in view.event_area)

    def nearest_depot(self, view: View, g) -> int | None:
        """The hex of the nearest own settlement where a general could load troops."""
        best, best_d = None, INF
        for st in view.my_settlements():
            if st.hex in view.sieges:
                continue
            d = view.board.route_costs_to(st.hex)[g.hex] - 0.5 * min(st.garrison, 6)
            if d < best_d:
                best, best_d = st.hex, d
        return best

    def step_toward(self, view: View, g, dest: int, moves: dict[int, Move]) -> Move | None:
        """The reachable hex that leaves the least distance to ``dest`` (never a hostile stop)."""
        row = view.board.route_costs_to(dest)
        if dest in moves:
            return moves[dest]
        best, best_key = None, (row[g.hex], 0)
        for hx, option in moves.items():
            if self._unsafe_stop(view, hx, g):
                continue
            key = (row[hx], -self._stop_bonus(view, hx))
            if key < best_key:
                best, best_key = option, key
        return best

    def _unsafe_stop(self, view: View, dest: int, g) -> bool:
        """A hex the general should not stop on while passing: hostile ones (a fight we did
        not plan) and own settlements about to be hit by invaders."""
        board = view.board
        sid = board.settlement_at[dest]
        if sid >= 0:
            st = view.settlements[sid]
            if st.standing and st.owner is not None and st.owner != self.seat:
                return True
            if st.standing and st.owner == self.seat and sid in self.invader_next(view):
                return True
        for o in view.generals_at(dest):
            if o.captor is None and o.owner != self.seat:
                return True
        return False

    def _stop_bonus(self, view: View, dest: int) -> int:
        sid = view.board.settlement_at[dest]
        if sid >= 0 and view.settlements[sid].standing:
            owner = view.settlements[sid].owner
            return 2 if owner == self.seat else (1 if owner is None else 0)
        return 0
