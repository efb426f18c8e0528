"""The shared base of the scripted strategies: ``ScriptedStrategy``.

``ScriptedStrategy`` answers every decision kind with a sensible default, built on one plan:
pick the region cheapest to own whole, walk into its free settlements, besiege and then storm
its walled ones with troops taken on the way, keep a troop in everything it owns (ST-9), buy
the Judge title (TI-1) as soon as it can, then a second region, and crown one of its Judges
(TI-10). Subclasses change the weights (``params``) and override the hooks (``region_weight``,
``extra_targets``, ``wanted_garrison``, ``want_raze``, ``tax_score``, ``card_value``...) rather
than the decision handlers.

It plans, then acts: at its first decision of a phase it makes a ``Plan`` (``strategies.plan``)
and answers the phase's decisions from it. Everything it works out (the regions' status, the
threats, the invaders' next targets, the targets and the generals' orders, what each settlement
should hold, what its cards are worth) is the plan's knowledge, asked for with ``known`` and kept
while the plan's basis holds; the next decision after anything else changed starts a new plan.

The class joins one mixin per concern (``goals``, ``economy``, ``movement``, ``combat``,
``politics``) and keeps here what they all share: the dispatch, the plan and the knowledge every
concern reads. Every estimate rests on the engine's rule arithmetic (the ``View``'s methods and
``plsim.strategy``); the plan's own helpers live in ``strategies.planning``.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar

from plsim.strategy import (
    MERCENARIES, PASS, PROPHET, Decision, DecisionKind, RegionStatus, Strategy, View, carries, general_moves,
    invader_strength, kind_of, param,
)
from strategies.combat import CombatMixin
from strategies.economy import EconomyMixin
from strategies.goals import Goals, GoalsMixin
from strategies.movement import MovementMixin
from strategies.plan import Plan
from strategies.planning import INF, Target, offered, raze_gain_and_keep
from strategies.politics import PoliticsMixin


BASE_PARAMS: dict[str, Any] = {
    "assault": param(0.72, 0, 1, "win chance needed to assault at once (MV-12) rather than besiege"),
    "storm": param(0.62, 0, 1, "win chance a besieger needs to assault in Combat"),
    "march": param(0.85, 0, 1, "win chance (against the melted defence) a general wants before marching"),
    "garrison": param(1, 0, 99, "troops kept in every ordinary settlement"),
    "escort": param(2, 0, 99, "troops a general takes along when a Plague is coming (enough to survive a hit, 9.4)"),
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

    max_goal_regions: ClassVar[int] = 2  # regions worked on at once

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        self.p = self.settings
        self.plan: Plan | None = None  # the plan in force
        self._known: dict[Any, Any] = {}  # its knowledge
        self.goals = Goals()  # the round's goal regions (a commitment, not knowledge)
        self._asked = 0  # decisions asked so far
        self._checked = -1  # the decision at which the plan's basis was last checked
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
        self._asked += 1
        choice = self.handlers[decision.kind](view, decision)  # an unknown kind is a KeyError, never a guess
        if choice is None or not offered(choice, decision.options):
            return self.fallback(decision)
        return choice

    @staticmethod
    def fallback(decision: Decision) -> Any:
        """A handler that finds nothing it wants passes, or takes the first option."""
        return PASS if PASS in decision.options else decision.options[0]

    # -- the plan ----------------------------------------------------------------------------
    def plan_for(self, view: View) -> Plan:
        """The plan this decision is answered from: the one in force while its basis holds (checked
        once per decision, when first asked for), else a new one."""
        plan = self.plan
        if self._checked != self._asked:
            self._checked = self._asked
            if plan is None or not plan.basis.holds(view):
                plan = self.plan = Plan(view)
                self._known = plan.known
        return plan

    def known(self, view: View, name: Any, make: Callable[..., Any], *args: Any) -> Any:
        """The plan's knowledge under ``name``: ``make(view, *args)``, worked out once per plan."""
        if self._checked != self._asked:
            self.plan_for(view)
        known = self._known
        if name in known:
            return known[name]
        value = known[name] = make(view, *args)
        return value

    # -- what every concern reads ------------------------------------------------------------
    def dist(self, view: View, frm: int, to: int) -> int:
        """TR-1: the cheapest land route from hex ``frm`` to hex ``to``."""
        return view.board.route_costs_to(to)[frm]

    def my_free_generals(self, view: View) -> list:
        """The seat's generals that are not captives, as they stand now."""
        seat = self.seat
        return [g for g in view.generals.values() if g.owner == seat and g.captor is None]

    def my_judges(self, view: View) -> list:
        return [g for g in view.generals.values()
                if g.owner == self.seat and g.title is not None and g.title.is_judge
                and not view.regions[g.title.region].lapsed]

    def judge_city_ids(self, view: View) -> frozenset[int]:
        return self.known(view, "cities", _judge_cities)

    def leader_seat(self, view: View, seat: int | None = None) -> int | None:
        """``seat``'s (default: this seat's) rival with the most VP (ties: most settlements), or
        None while nobody has any."""
        me = self.seat if seat is None else seat
        return self.known(view, ("leader", me), _leader, me)

    def wrath_room(self, view: View, amount: int = 1) -> bool:
        """Whether adding ``amount`` Wrath stays under the strategy's cap and below the cup."""
        return view.wrath + amount <= min(self.p["wrath_cap"], view.rules.wrath.threshold - 1)

    def region_info(self, view: View, name: str) -> RegionStatus | None:
        """The region's status (None for a region not in this game)."""
        return self.known(view, ("region", name), _region_status, name)

    def regions_info(self, view: View) -> dict[str, RegionStatus]:
        """Every region's status."""
        return {name: self.region_info(view, name) for name in view.regions}

    def threat(self, view: View, hex_id: int) -> int:
        """The strongest attack (before dice) rival generals could bring on the hex next
        Movement: the two strongest within a move of it, or weakened, within two."""
        return self.known(view, ("threat", hex_id), self._threat_at, hex_id)

    def _threat_at(self, view: View, hex_id: int) -> int:
        row = view.board.route_costs_to(hex_id)
        powers = []
        for here, moves, power in self.known(view, "rivals", self._rival_powers):
            d = row[here]
            if d <= moves:
                powers.append(power)
            elif d <= 2 * moves:
                powers.append(power - 2)
        if len(powers) > 2:
            powers.sort(reverse=True)
        return sum(powers[:2])

    def _rival_powers(self, view: View) -> list[tuple[int, int, int]]:
        """(hex, moves, strength) of every free rival general that could attack (not a
        Prophet's carrier, MV-7), counting a part of the troops it could take where it stands."""
        board = view.board
        carry_limit = view.rules.limits.troops_per_general
        out = []
        for g in view.generals.values():
            if g.captor is not None or g.owner == self.seat or carries(g, PROPHET):
                continue
            power = view.general_strength(g)
            sid_here = board.settlement_at[g.hex]
            if sid_here >= 0 and view.settlements[sid_here].owner == g.owner:
                # it could take troops this round and come next round: count a part of them
                power += min(carry_limit - g.troops, view.settlements[sid_here].garrison) // 2
            out.append((g.hex, general_moves(g.name), power))
        return out

    def invader_next(self, view: View) -> dict[int, int]:
        """settlement id -> strength of the invader pairs expected to attack it next Combat (W-5)."""
        return self.known(view, "invaders", _invaders_next)

    def invader_plan(self, view: View) -> dict[int, tuple[int, bool]]:
        """Our settlements the invaders hit next Combat: sid -> (their strength, whether it can
        be held with the troops we can still buy and the generals that can get there)."""
        return self.known(view, "invader_plan", self._compute_invader_plan)

    def _compute_invader_plan(self, view: View) -> dict[int, tuple[int, bool]]:
        out = {}
        limits = view.rules.limits
        for sid, strength in self.invader_next(view).items():
            st = view.settlements[sid]
            if st.owner != self.seat:
                continue
            defence = view.settlement_defence(sid)
            if view.phase in ("announcements", "draw", "income", "acquisitions"):
                defence += min(limits.garrison - st.garrison, view.coins() // max(1, view.rules.costs.troop))
            if view.phase != "combat":
                here = [g for g in view.generals_at(st.hex) if g.owner == self.seat and g.captor is None]
                room = max(0, limits.generals_per_settlement - len(here))
                row = view.board.route_costs_to(st.hex)
                helpers = sorted((view.general_strength(g) for g in self.my_free_generals(view)
                                  if g.hex != st.hex and not g.moved and row[g.hex] <= general_moves(g.name)),
                                 reverse=True)
                defence += sum(helpers[:room])
            if self.p["mercenaries"] > 0 and any(kind_of(c) == MERCENARIES for c in view.hand):
                defence += view.rules.cards.mercenaries_strength
            out[sid] = (strength, view.win_probability(strength, defence) <= 0.45)
        return out


def _judge_cities(view: View) -> frozenset[int]:
    return frozenset(r.city for r in view.regions.values() if r.city is not None)


def _region_status(view: View, name: str) -> RegionStatus | None:
    return view.region_status(name) if name in view.regions else None


def _leader(view: View, seat: int) -> int | None:
    best, best_key = None, (0, 0)
    for other in range(view.n_players):
        if other == seat:
            continue
        vp = view.vp(other)
        if vp <= 0:
            continue
        key = (vp, sum(1 for s in view.settlements if s.owner == other and s.standing))
        if key > best_key:
            best, best_key = other, key
    return best


def _invaders_next(view: View) -> dict[int, int]:
    out: dict[int, int] = {}
    for pair in view.pairs:
        target = view.invader_target(pair)
        if target is not None:
            out[target] = out.get(target, 0) + invader_strength(view.rules, pair.troops)
    return out


__all__ = ["BASE_PARAMS", "INF", "ScriptedStrategy", "Target", "raze_gain_and_keep"]
