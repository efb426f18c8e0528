"""The shared base of the scripted strategies: ``ScriptedStrategy``.

``ScriptedStrategy`` answers every decision kind with a sensible default, built on one plan:
pick the region cheapest to own whole, walk into its free settlements, besiege and then storm
its walled ones with troops taken on the way, keep a troop in everything it owns (ST-9), buy
the Judge title (TI-1) as soon as it can, then a second region, and crown one of its Judges
(TI-10). Subclasses change the weights (``params``) and override the hooks named ``want_*`` or
``*_priority`` rather than the decision handlers.

The class joins one mixin per concern (``goals``, ``economy``, ``movement``, ``combat``,
``politics``) and keeps here what they all share: the dispatch, the per-phase cache and the
knowledge it caches (regions, threats, invaders). Every estimate rests on the engine's rule
arithmetic (the ``View``'s methods and ``plsim.strategy``); the plan's own helpers live in
``strategies.planning``.

Plans that do not change within a phase (goal regions, threats) are cached per (round, phase).
"""

from __future__ import annotations

from typing import Any, ClassVar

from plsim.strategy import (
    MERCENARIES, PASS, PROPHET, Decision, DecisionKind, RegionStatus, Strategy, View, carries,
    general_moves, invader_strength, kind_of, param,
)
from strategies.combat import CombatMixin
from strategies.economy import EconomyMixin
from strategies.goals import GoalsMixin
from strategies.movement import MovementMixin
from strategies.planning import INF, UNSEEN, Target, offered, raze_gain_and_keep
from strategies.politics import PoliticsMixin


BASE_PARAMS: dict[str, Any] = {
    "assault": param(0.72, 0, 1, "win chance needed to assault at once (MV-12) rather than besiege"),
    "storm": param(0.62, 0, 1, "win chance a besieger needs to assault in Combat"),
    "march": param(0.85, 0, 1, "win chance (against the melted defence) a general wants before marching"),
    "garrison": param(1, 0, 99, "troops kept in every ordinary settlement"),
    "escort": param(2, 0, 99, "troops a general takes along when a Plague is coming (9.4: 0 or 1 and it dies)"),
    "city_garrison": param(3, 0, 99, "troops kept in a Judge's city and at home"),
    "expand": param(1.0, 0, 10, "appetite for free settlements outside the goal regions (0 = none)"),
    "develop": param(0.3, 0, 10, "appetite for developments (0 = never, 1 = whenever affordable)"),
    "walls": param(0.3, 0, 10, "appetite for walls beyond the one a Judge title needs"),
    "wrath_cap": param(8, 0, 99, "Wrath above which the strategy never adds Wrath itself"),
    "mercenaries": param(0.5, 0, 10, "appetite for Mercenaries (0 = never)"),
    "tax": param(0.5, 0, 10, "appetite for Tax on rivals' regions (own Judge regions are always taxed)"),
    "assassin": param(0.5, 0, 10, "appetite for Assassins"),
    "raze": param(0.3, 0, 10, "appetite for razing conquered settlements outside its goal regions"),
    "usurp": param(1.0, 0, 10, "cost multiplier for taking a rival Judge's city (and its title); 0 = never"),
}


class ScriptedStrategy(GoalsMixin, EconomyMixin, MovementMixin, CombatMixin, PoliticsMixin, Strategy):
    """Defaults for every decision kind; subclasses tune ``params`` and override hooks."""

    name: ClassVar[str] = "scripted"
    description: ClassVar[str] = "shared base of the scripted strategies"
    params: ClassVar[dict[str, Any]] = dict(BASE_PARAMS)

    # region preferences: a subclass may weight regions (name -> multiplier of cost)
    max_goal_regions: ClassVar[int] = 2

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        self.p = self.settings
        self._cache_key: tuple | None = None
        self._cache: dict[str, Any] = {}
        self._now: dict[Any, Any] = {}  # what one decision computed, forgotten at the next
        self._stay: set[str] = set()
        self._stay_round = -1
        self._goal: list[str] = []
        self._goal_key = -1
        self._goal_phase = ""
        self._beat_memo: dict[tuple[int, float], int] = {}
        self._places: dict[str, tuple] = {}  # name -> (the settlements read, their (id, hex) pairs)
        self._distances: dict[int, tuple] = {}  # id(places) -> (places, {(hex, moves): row})
        self.handlers = {
            DecisionKind.HOME: self.decide_home,
            DecisionKind.PLACE_GENERAL: self.decide_place_general,
            DecisionKind.ATTACH_ITEM: self.decide_attach_item,
            DecisionKind.DISCARD: self.decide_discard,
            DecisionKind.CARDS: self.decide_cards,
            DecisionKind.PURCHASE: self.decide_purchase,
            DecisionKind.MOVEMENT: self.decide_movement,
            DecisionKind.SIEGE_OR_ASSAULT: self.decide_siege_or_assault,
            DecisionKind.SIEGE_ASSAULT: self.decide_siege_assault,
            DecisionKind.BATTLE_CARDS: self.decide_battle_cards,
            DecisionKind.CONQUER_OR_RAZE: self.decide_conquer_or_raze,
            DecisionKind.ASSIGN_TITLE: self.decide_assign_title,
            DecisionKind.APPOINT: self.decide_appoint,
            DecisionKind.VOTE: self.decide_vote,
            DecisionKind.SUCCESSOR: self.decide_successor,
            DecisionKind.PROPHET_TERRAIN: self.decide_prophet_terrain,
            DecisionKind.INVADER_TARGET: self.decide_invader_target,
        }

    # -- dispatch ----------------------------------------------------------------------------
    def choose(self, view: View, decision: Decision) -> Any:
        key = (view.round, view.phase)
        if key != self._cache_key:
            self._cache_key = key
            self._cache = {}
        self._now = {}
        choice = self.handlers[decision.kind](view, decision)  # an unknown kind is a KeyError, never a guess
        if choice is None or not offered(choice, decision.options):
            return self.fallback(decision)
        return choice

    @staticmethod
    def fallback(decision: Decision) -> Any:
        """A handler that finds nothing it wants passes, or takes the first option."""
        return PASS if PASS in decision.options else decision.options[0]

    def now(self, name: Any, fn, *args):
        """``fn(*args)``, computed once per decision (the view does not change within one)."""
        value = self._now.get(name, UNSEEN)
        if value is UNSEEN:
            value = self._now[name] = fn(*args)
        return value

    def cached(self, name: str, fn, *args):
        """``fn(*args)``, computed once per phase (at the first decision of the phase that asks)."""
        value = self._cache.get(name)
        if value is None:
            value = fn(*args)
            self._cache[name] = value
        return value

    # -- knowledge helpers -------------------------------------------------------------------
    def dist(self, view: View, frm: int, to: int) -> int:
        return view.board.route_costs_to(to)[frm]

    def my_free_generals(self, view: View) -> list:
        """The seat's free generals (the list is shared within a decision: do not change it)."""
        return self.now("free", self._free_generals, view)

    def _free_generals(self, view: View) -> list:
        return [g for g in view.generals.values() if g.owner == self.seat and g.captor is None]

    def my_judges(self, view: View) -> list:
        return [g for g in view.generals.values()
                if g.owner == self.seat and g.title is not None and g.title.is_judge
                and not view.regions[g.title.region].lapsed]

    def judge_city_ids(self, view: View) -> set[int]:
        return self.now("cities", self._judge_cities, view)

    @staticmethod
    def _judge_cities(view: View) -> set[int]:
        return {r.city for r in view.regions.values() if r.city is not None}

    def defence(self, view: View, sid: int, rounds_besieged: int | None = None) -> int:
        """``view.settlement_defence`` (the engine keeps each hex's answer until a write lands on it)."""
        return view.settlement_defence(sid, rounds_besieged)

    def vp_of(self, view: View, seat: int) -> int:
        """``view.vp(seat)``, computed once per decision."""
        key = ("vp", seat)
        value = self._now.get(key)
        if value is None:
            value = self._now[key] = view.vp(seat)
        return value

    def leader_seat(self, view: View) -> int | None:
        """The rival with the most VP (ties: most settlements), or None when nobody has any
        (computed once per decision)."""
        return self.now("leader", self._compute_leader, view)

    def _compute_leader(self, view: View) -> int | None:
        best, best_key = None, (0, 0)
        for seat in range(view.n_players):
            if seat == self.seat:
                continue
            vp = self.vp_of(view, seat)
            if vp <= 0:
                continue
            key = (vp, sum(1 for s in view.settlements if s.owner == seat and s.standing))
            if key > best_key:
                best, best_key = seat, key
        return best

    def wrath_room(self, view: View, amount: int = 1) -> bool:
        """Whether adding ``amount`` Wrath stays under the strategy's cap and below the cup."""
        return view.wrath + amount <= min(self.p["wrath_cap"], view.rules.wrath.threshold - 1)

    def regions_info(self, view: View) -> dict[str, RegionStatus]:
        """Every region's status, read once per phase."""
        return self.cached("regions", self._regions_now, view)

    @staticmethod
    def _regions_now(view: View) -> dict[str, RegionStatus]:
        return {name: view.region_status(name) for name in view.regions}

    def threats(self, view: View) -> dict[int, int]:
        """hex -> the strongest attack (before dice) rival generals could bring next Movement."""
        return self.cached("threats", self._compute_threats, view)

    def _compute_threats(self, view: View) -> dict[int, int]:
        board = view.board
        mine = [s.hex for s in view.settlements if s.owner == self.seat and s.standing]
        rows = [(h, board.route_costs_to(h)) for h in mine]
        threat: dict[int, list[int]] = {h: [] for h in mine}
        for g in view.generals.values():
            if g.captor is not None or g.owner == self.seat:
                continue
            if carries(g, PROPHET):
                continue
            moves = general_moves(g.name)
            power = view.general_strength(g)
            sid_here = board.settlement_at[g.hex]
            if sid_here >= 0 and view.settlements[sid_here].owner == g.owner:
                # it could take troops this round and come next round: count a part of them
                power += min(view.rules.limits.troops_per_general - g.troops, view.settlements[sid_here].garrison) // 2
            here = g.hex
            for h, row in rows:
                d = row[here]
                if d <= moves:
                    threat[h].append(power)
                elif d <= 2 * moves:
                    threat[h].append(power - 2)
        out = {}
        for h, powers in threat.items():
            powers.sort(reverse=True)
            out[h] = sum(powers[:2])
        return out

    def invader_next(self, view: View) -> dict[int, int]:
        """settlement id -> strength of the invader pair expected to attack it next Combat (W-5)."""
        return self.cached("invaders", self._compute_invaders, view)

    def _compute_invaders(self, view: View) -> dict[int, int]:
        out: dict[int, int] = {}
        for pair in view.pairs:
            target = view.invader_target(pair)
            if target is not None:
                out[target] = out.get(target, 0) + invader_strength(view.rules, pair.troops)
        return out

    def invader_plan(self, view: View) -> dict[int, tuple[int, bool]]:
        """Our settlements the invaders hit next Combat: sid -> (their strength, whether it can
        be held with the troops we can still buy and the generals that can get there)."""
        return self.cached("invader_plan", self._compute_invader_plan, view)

    def _compute_invader_plan(self, view: View) -> dict[int, tuple[int, bool]]:
        out = {}
        limits = view.rules.limits
        for sid, strength in self.invader_next(view).items():
            st = view.settlements[sid]
            if st.owner != self.seat:
                continue
            defence = self.defence(view, sid)
            if view.phase in ("announcements", "draw", "income", "acquisitions"):
                defence += min(limits.garrison - st.garrison, view.coins() // max(1, view.rules.costs.troop))
            if view.phase != "combat":
                here = [g for g in view.generals_at(st.hex) if g.owner == self.seat and g.captor is None]
                room = max(0, limits.generals_per_settlement - len(here))
                helpers = sorted((view.general_strength(g) for g in self.my_free_generals(view)
                                  if g.hex != st.hex and not g.moved
                                  and view.board.route_costs_to(st.hex)[g.hex] <= general_moves(g.name)), reverse=True)
                defence += sum(helpers[:room])
            if MERCENARIES in {kind_of(c) for c in view.hand} and self.p["mercenaries"] > 0:
                defence += view.rules.cards.mercenaries_strength
            hold = view.win_probability(strength, defence) <= 0.45
            out[sid] = (strength, hold)
        return out


__all__ = ["BASE_PARAMS", "INF", "ScriptedStrategy", "Target", "raze_gain_and_keep"]
