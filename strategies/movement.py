"""How a scripted strategy moves its generals: placement, marching orders and routes.

Movement is one decision per general step. The plan made at the seat's first Movement decision
holds its ``Orders``: the targets, which general goes to which, and the order they act in. Each
decision then carries out the next general's orders with the board as it now stands (the troops
to take, the step toward the target); the plan is re-made when something it rests on changed,
such as a settlement taken on the way or a siege begun.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Iterator

from plsim.strategy import (
    PASS, PLAGUE, PROPHET, Decision, GiveTroops, Move, PlayCard, StartAssault, StartSiege, TakeTroops, View, carries,
    general_moves, kind_of,
)
from strategies.planning import INF, Target, offered


@dataclass(slots=True)
class Orders:
    """Where the generals go this Movement: each one's target, the order they act in (those
    with a target first, strongest first), and those that acted on them or hold."""

    targets: list[Target]
    assignment: dict[str, Target]
    sequence: list[str]
    done: set[str]


class MovementMixin:
    """Placing and moving generals; hooks: ``assign``, ``general_action``."""

    # -- placing -----------------------------------------------------------------------------
    def decide_place_general(self, view: View, decision: Decision) -> Any:
        targets = self.planned_targets(view)
        best, best_score = None, -INF
        rows = [(t.priority, view.board.route_costs_to(t.hex)) for t in targets]
        for option in decision.options:
            st = view.settlements[option.value]
            score = 0.0
            for priority, row in rows:
                score = max(score, priority - 0.8 * row[st.hex])
            score += 0.3 * st.garrison  # troops to take
            score += 0.2 * max(0, self.threat(view, st.hex) - view.settlement_defence(st.id))
            if score > best_score:
                best, best_score = option, score
        return best

    # -- movement ----------------------------------------------------------------------------
    def decide_movement(self, view: View, decision: Decision) -> Any:
        options = decision.options
        waiting = self.waiting(view, self.orders(view))
        name = next(waiting, None)
        cards, starts, own = sort_options(options, name)
        for hex_id, pair in sorted(starts.items()):
            # MV-11, MV-12: our generals stand in a hostile hex with no siege or assault of ours
            choice = self.start_attack(view, hex_id)
            if choice in pair:
                return pair[choice]
        for play in cards:
            if self.card_play_score(view, play) > 0:
                return play
        orders = self.orders(view)
        while name is not None:
            action = self.general_action(view, view.generals[name], orders.assignment.get(name), *own)
            if action is not None and offered(action, options):
                return action
            self.hold(view, orders, name)
            name = next(waiting, None)
            own = options_of(options, name)
        return PASS

    def waiting(self, view: View, orders: Orders) -> Iterator[str]:
        """The generals still to act on their orders, in the marching order as it stood when
        asked (one that holds reorders the rest only from the next decision on)."""
        generals = view.generals
        for name in orders.sequence:
            if name in orders.done:
                continue
            g = generals.get(name)
            if g is None or g.moved or g.owner != self.seat or g.captor is not None:
                orders.done.add(name)
                continue
            yield name

    def orders(self, view: View) -> Orders:
        """The plan's ``Orders``, made at its first Movement decision."""
        return self.known(view, "orders", self._make_orders)

    def _make_orders(self, view: View) -> Orders:
        generals = [g for g in self.my_free_generals(view) if not g.moved]
        targets = self.planned_targets(view)
        assignment = self.assign(view, generals, targets)
        return Orders(targets, assignment, self.marching_order(view, generals, assignment), set())

    def marching_order(self, view: View, generals: list, assignment: dict[str, Target]) -> list[str]:
        """The generals with a target first, strongest first (ties by name)."""
        ranked = sorted(generals, key=lambda g: (g.name not in assignment, -view.general_strength(g), g.name))
        return [g.name for g in ranked]

    def hold(self, view: View, orders: Orders, name: str) -> None:
        """The general stays this round: the target it leaves is offered to the generals still
        waiting, while those already sent keep theirs."""
        orders.done.add(name)
        if orders.assignment.pop(name, None) is None:
            return
        waiting = [g for g in self.my_free_generals(view) if not g.moved and g.name not in orders.done]
        names = {g.name for g in waiting}
        sent = {other: t for other, t in orders.assignment.items() if other not in names}
        generals = view.generals
        on_the_way = Counter(t.sid for other, t in sent.items() if other in generals and generals[other].hex != t.hex)
        targets = [replace(t, slots=t.slots - on_the_way[t.sid]) if t.sid in on_the_way else t for t in orders.targets]
        orders.assignment = {**sent, **self.assign(view, waiting, targets)}
        orders.sequence = self.marching_order(view, waiting, orders.assignment)

    def assign(self, view: View, generals: list, targets: list[Target]) -> dict[str, Target]:
        """Greedy: the best (priority - rounds of marching) pairs first, each target taking as
        many generals as its ``slots`` less ours already standing there; a Prophet's carrier
        never goes to a hostile one (MV-7) and a titled general only reluctantly."""
        if not targets or not generals:
            return {}
        routes = view.board.route_costs_to
        rows = [(t, routes(t.hex), t.priority, t.hostile) for t in targets]
        pairs = []  # (-score, name, sid, order, target): best first, ties in the order found
        for g in generals:
            prophet = carries(g, PROPHET)
            moves = general_moves(g.name)
            name, hx, titled = g.name, g.hex, g.title is not None
            strength = None
            for t, row, priority, hostile in rows:
                if hostile and prophet:
                    continue
                d = row[hx]
                if d >= INF:
                    continue
                score = priority - 1.2 * (d / moves)
                if hostile:
                    if strength is None:
                        strength = view.general_strength(g)
                    score += 0.15 * strength
                    if titled:
                        score -= 4.0
                if score >= -3:  # worse is never worth the march
                    pairs.append((-score, name, t.sid, len(pairs), t))
        pairs.sort()
        # our generals on a target hex already fill its slots; our captives there go free when
        # we take it (CP-2), so room is left for them (MV-5)
        here: dict[int, int] = {}
        captive: dict[int, int] = {}
        for g in view.generals.values():
            if g.owner == self.seat:
                counts = here if g.captor is None else captive
                counts[g.hex] = counts.get(g.hex, 0) + 1
        limit = view.rules.limits.generals_per_settlement
        slots = {t.sid: max(0, min(t.slots, limit - captive.get(t.hex, 0)) - here.get(t.hex, 0)) for t in targets}
        out: dict[str, Target] = {}
        for _, name, sid, _, t in pairs:
            if name not in out and slots[sid] > 0:
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
        return not any(o.name != g.name and o.owner == self.seat and o.captor is None for o in view.generals_at(g.hex))

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
        if not target.hostile and here_mine and take > 0 and self.plague_coming(view):
            escort = self.escort(view)  # too few troops and a Plague's hit kills the general (9.4)
            if g.troops < escort:
                st = view.settlements[here_sid]
                spare = st.garrison - self.wanted_garrison(view, st)
                if spare > 0:
                    return TakeTroops(g.name, min(take, spare, escort - g.troops))
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

    def escort(self, view: View) -> int:
        """Troops a general leads when a Plague is coming: ``escort``, and always enough that a
        Plague's hit thins them instead of killing the general (9.4)."""
        troops = self.p["escort"]
        while view.plague_kills(troops):
            troops += 1
        return troops

    def step_toward(self, view: View, g, dest: int, moves: dict[int, Move]) -> Move | None:
        """The reachable hex that leaves the least distance to ``dest`` (never a hostile stop)."""
        row = view.board.route_costs_to(dest)
        if dest in moves:
            return moves[dest]
        best, best_key = None, (row[g.hex], 0)
        for d, _, hx in sorted((row[hx], order, hx) for order, hx in enumerate(moves)):  # nearest first
            if d > best_key[0]:
                break  # neither closer than the best found nor than staying put
            if not self._unsafe_stop(view, hx, g):
                key = (d, -self._stop_bonus(view, hx))
                if key < best_key:
                    best, best_key = moves[hx], key
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


def sort_options(options: tuple, name: str | None) -> tuple[list[PlayCard], dict[int, dict[type, Any]], tuple]:
    """In one pass over a Movement decision's options: the card plays, the sieges and assaults
    that may start (hex -> kind -> option), and ``options_of`` the general ``name``."""
    cards: list[PlayCard] = []
    starts: dict[int, dict[type, Any]] = {}
    moves: dict[int, Move] = {}
    passages: dict[int, Move] = {}
    take = give = 0
    for option in options:
        t = type(option)
        if t is Move:
            if option.general == name:
                (passages if option.passage else moves)[option.dest] = option
        elif t is TakeTroops:
            if option.general == name and option.count > take:
                take = option.count
        elif t is GiveTroops:
            if option.general == name and option.count > give:
                give = option.count
        elif t is PlayCard:
            cards.append(option)
        elif t is StartSiege or t is StartAssault:
            starts.setdefault(option.hex, {})[t] = option
    return cards, starts, (moves, passages, take, give)


def options_of(options: tuple, name: str | None) -> tuple[dict[int, Move], dict[int, Move], int, int]:
    """The general's offered moves (hex -> Move), its moves through a Secret Passage (MV-9), and
    the most troops it may take and give (MV-10)."""
    return sort_options(options, name)[2]
