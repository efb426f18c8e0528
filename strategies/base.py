"""The shared base of the scripted strategies: ``ScriptedStrategy`` and its planning helpers.

``ScriptedStrategy`` answers every decision kind with a sensible default, built on one plan:
pick the region cheapest to own whole, walk into its free settlements, besiege and then storm
its walled ones with troops taken on the way, keep a troop in everything it owns (ST-9), buy
the Judge title (TI-1) as soon as it can, then a second region, and crown one of its Judges
(TI-10). Subclasses change the weights (``params``) and override the hooks named ``want_*`` or
``*_priority`` rather than the decision handlers.

Helpers, all pure functions of the read-only ``View``:

- ``distances_to(board, hex)``: terrain-only cost of reaching ``hex`` from every hex (TR-1),
  one reverse Dijkstra per target, cached per board for the life of the process;
- ``win_probability(att, dfn, dice)``: CB-3/CB-4 with ``dice`` d6 per side, ties to the defender;
- ``settlement_defence``, ``general_power``: strengths mirroring ``plsim.engine.combat``;
- ``region_status``: who owns what in a region, and how far it is from a Judge title;
- ``threat_to``: the strongest attack rival generals could bring against a hex next Movement.

Plans that do not change within a phase (goal regions, threats) are cached per (round, phase).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from heapq import heappop, heappush
from typing import Any, ClassVar

from plsim.board import Board, Terrain
from plsim.engine.cards import (
    AMBUSH,
    ANOINTED,
    ARK,
    ASSASSIN,
    BLESSING,
    CATALOGUE,
    CHARIOT,
    JUSTICE,
    MERCENARIES,
    PLAGUE,
    PROPHET,
    REVOLT,
    SECRET_PASSAGE,
    SIEGE_WEAPONS,
    SQUIRE,
    SWORD,
    TAX,
    kind_of,
)
from plsim.engine.state import CANAANITES, JUDGE_PREFIX, KING
from plsim.strategy.interface import Decision, Strategy, View
from plsim.strategy.options import (
    ASSAULT,
    CONQUER,
    HOLD,
    PASS,
    RAZE,
    SIEGE,
    Buy,
    Choose,
    GiveTroops,
    Move,
    PlayCard,
    TakeTroops,
)

INF = 10**9

# ---------------------------------------------------------------------------------------------
# distances


_DIST: dict[int, tuple[Board, dict[int, list[int]]]] = {}


def _board_cache(board: Board) -> dict[int, list[int]]:
    entry = _DIST.get(id(board))
    if entry is None or entry[0] is not board:
        entry = (board, {})
        _DIST[id(board)] = entry
    return entry[1]


def distances_to(board: Board, target: int) -> list[int]:
    """Cost of the cheapest land route from every hex to ``target`` (entry costs, TR-1), ignoring
    settlements and generals in the way. Cached per board and target: computed once per process."""
    cache = _board_cache(board)
    row = cache.get(target)
    if row is not None:
        return row
    row = [INF] * len(board.terrain)
    row[target] = 0
    heap = [(0, target)]
    enter = board.enter_cost
    neighbours = board.neighbours
    while heap:
        cost, here = heappop(heap)
        if cost > row[here]:
            continue
        step = cost + enter[here]  # moving from a neighbour into ``here`` costs here's terrain
        for nxt in neighbours[here]:
            if step < row[nxt]:
                row[nxt] = step
                heappush(heap, (step, nxt))
    cache[target] = row
    return row


def route_cost(board: Board, frm: int, to: int) -> int:
    return distances_to(board, to)[frm]


def all_pairs(board: Board, hexes: list[int] | None = None) -> dict[int, list[int]]:
    """The whole table (or the rows for ``hexes``), for analysis scripts."""
    targets = hexes if hexes is not None else [h for h in range(len(board.terrain)) if board.neighbours[h]]
    return {h: distances_to(board, h) for h in targets}


# ---------------------------------------------------------------------------------------------
# combat estimates (mirror plsim.engine.combat)


@lru_cache(maxsize=8)
def _diff_tail(dice: int) -> tuple[dict[int, float], int]:
    """P(sum of attacker dice - sum of defender dice > k) for every k."""
    dist = {0: 1.0}
    for _ in range(dice):
        new: dict[int, float] = {}
        for value, p in dist.items():
            for a in range(1, 7):
                new[value + a] = new.get(value + a, 0.0) + p / 6
        dist = new
    diff: dict[int, float] = {}
    for x, px in dist.items():
        for y, py in dist.items():
            diff[x - y] = diff.get(x - y, 0.0) + px * py
    span = 5 * dice
    tail = {}
    for k in range(-span - 1, span + 1):
        tail[k] = sum(p for d, p in diff.items() if d > k)
    return tail, span


def win_probability(attack: float, defence: float, dice: int = 1) -> float:
    """CB-3, CB-4: the chance that attack + dice beats defence + dice (a tie goes to the defender)."""
    if dice <= 0:
        return 1.0 if attack > defence else 0.0
    tail, span = _diff_tail(dice)
    k = int(round(defence - attack))
    if k > span:
        return 0.0
    if k < -span - 1:
        return 1.0
    return tail[k]


def has_item(general, item_kind: str) -> bool:
    return any(kind_of(card) == item_kind for card in general.items)


def base_strength(name: str) -> int:
    return CATALOGUE[name].strength


def moves_of(name: str) -> int:
    return CATALOGUE[name].moves


def general_power(view: View, general, open_plain: bool = False, troops: int | None = None) -> int:
    """GN-1, CB-3: base + troops + Goliath's Sword + War Chariot on an open plain."""
    cards = view.rules.cards
    strength = base_strength(general.name) + (general.troops if troops is None else troops)
    for card in general.items:
        kind = kind_of(card)
        if kind == SWORD:
            strength += cards.sword_strength
        elif kind == CHARIOT and open_plain:
            strength += cards.chariot_strength
    return strength


def fortification_now(view: View, sid: int, rounds_besieged: int, wall_cancelled: bool = False) -> int:
    """ST-4, ST-8: the wall or city bonus after ``rounds_besieged`` rounds of siege."""
    st = view.settlements[sid]
    defence = view.rules.defence
    if st.city:
        table = defence.city_by_siege_round
    elif st.wall:
        if wall_cancelled:
            return 0
        table = defence.wall_by_siege_round
    else:
        return 0
    return table[min(max(rounds_besieged, 0), len(table) - 1)]


def siege_rounds(view: View, hex_id: int, extra: int = 0) -> int:
    siege = view.sieges.get(hex_id)
    if siege is None:
        return extra
    return view.round - siege.started + extra


def is_open_plain(view: View, hex_id: int) -> bool:
    board = view.board
    sid = board.settlement_at[hex_id]
    in_settlement = sid >= 0 and view.settlements[sid].standing
    return not in_settlement and board.terrain[hex_id] == Terrain.PLAIN


def hex_defence(view: View, hex_id: int, rounds_besieged: int | None = None, wall_cancelled: bool = False,
                exclude_seat: int | None = None) -> tuple[int, int | None]:
    """(defensive strength, defending side) of a hex against an attack by ``exclude_seat``:
    a settlement's garrison, fortification, its owner's generals and the Ark; or, in the open
    field, the generals standing there."""
    board = view.board
    sid = board.settlement_at[hex_id]
    if rounds_besieged is None:
        rounds_besieged = siege_rounds(view, hex_id)
    if sid >= 0 and view.settlements[sid].standing:
        st = view.settlements[sid]
        owner = st.owner
        if owner is None:
            return 0, None
        total = st.garrison + fortification_now(view, sid, rounds_besieged, wall_cancelled)
        ark = False
        for g in view.generals_at(hex_id):
            if g.captor is None and g.owner == owner:
                total += general_power(view, g, False)
                ark = ark or has_item(g, ARK)
        if ark:
            total += view.rules.defence.ark
        return total, owner
    open_plain = is_open_plain(view, hex_id)
    total = 0
    side = None
    ark = False
    for g in view.generals_at(hex_id):
        if g.captor is None and g.owner != exclude_seat:
            if side is None:
                side = g.owner
            if g.owner == side:
                total += general_power(view, g, open_plain)
                ark = ark or has_item(g, ARK)
    if ark:
        total += view.rules.defence.ark
    return total, side


def settlement_defence(view: View, sid: int, rounds_besieged: int | None = None, wall_cancelled: bool = False) -> int:
    return hex_defence(view, view.settlements[sid].hex, rounds_besieged, wall_cancelled)[0]


# ---------------------------------------------------------------------------------------------
# regions


@dataclass(slots=True)
class RegionInfo:
    name: str
    standing: list[int]  # standing settlement ids
    mine: list[int] = field(default_factory=list)
    free: list[int] = field(default_factory=list)
    canaanite: list[int] = field(default_factory=list)
    rival: list[int] = field(default_factory=list)
    my_walled: list[int] = field(default_factory=list)
    city: int | None = None
    city_owner: int | None = None
    judge_owner: int | None = None  # seat of the title holder, if filled and not lapsed
    can_hold: bool = False  # >= region_min_settlements standing (V-2, TI-1)

    @property
    def missing(self) -> list[int]:
        return self.free + self.canaanite + self.rival


def region_status(view: View, name: str) -> RegionInfo:
    board = view.board
    settlements = view.settlements
    standing = [sid for sid in board.regions[name].settlements if settlements[sid].standing]
    info = RegionInfo(name, standing)
    me = view.seat
    for sid in standing:
        st = settlements[sid]
        if st.owner == me:
            info.mine.append(sid)
            if st.wall and not st.city:
                info.my_walled.append(sid)
        elif st.owner is None:
            info.free.append(sid)
        elif st.owner == CANAANITES:
            info.canaanite.append(sid)
        else:
            info.rival.append(sid)
    region = view.regions.get(name)
    if region is not None:
        info.city = region.city
        if region.city is not None:
            info.city_owner = settlements[region.city].owner
        if region.holder is not None and not region.lapsed:
            holder = view.generals.get(region.holder)
            info.judge_owner = holder.owner if holder is not None else None
    info.can_hold = len(standing) >= view.rules.victory.region_min_settlements
    return info


def standing_judge_regions(view: View, razed: int | None = None) -> int:
    """V-2: regions in this game that still have enough standing settlements for a Judge,
    counting ``razed`` as gone."""
    need = view.rules.victory.region_min_settlements
    count = 0
    for name in view.regions:
        n = sum(1 for sid in view.board.regions[name].settlements
                if view.settlements[sid].standing and sid != razed)
        count += n >= need
    return count


# ---------------------------------------------------------------------------------------------
# the strategy


BASE_PARAMS: dict[str, Any] = {
    "assault": 0.72,  # win chance needed to assault at once (MV-12) rather than besiege
    "storm": 0.62,  # win chance a besieger needs to assault in Combat
    "march": 0.85,  # win chance (against the melted defence) a general wants before marching
    "garrison": 1,  # troops kept in every ordinary settlement
    "escort": 2,  # troops a general takes along when a Plague is coming (9.4: 0 or 1 and it dies)
    "city_garrison": 3,  # troops kept in a Judge's city and at home
    "expand": 1.0,  # appetite for free settlements outside the goal regions (0 = none)
    "develop": 0.3,  # appetite for developments (0 = never, 1 = whenever affordable)
    "walls": 0.3,  # appetite for walls beyond the one a Judge title needs
    "wrath_cap": 8,  # Wrath above which the strategy never adds Wrath itself
    "mercenaries": 0.5,  # appetite for Mercenaries (0 = never)
    "tax": 0.5,  # appetite for Tax on rivals' regions (own Judge regions are always taxed)
    "assassin": 0.5,  # appetite for Assassins
    "raze": 0.3,  # appetite for razing conquered settlements outside its goal regions
    "usurp": 1.0,  # cost multiplier for taking a rival Judge's city (and its title); 0 = never
}


@dataclass(slots=True)
class Target:
    sid: int
    hex: int
    priority: float
    hostile: bool
    need: int = 0  # attack strength wanted (before dice)
    slots: int = 1  # generals wanted there


class ScriptedStrategy(Strategy):
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
        self._stay: set[str] = set()
        self._stay_round = -1
        self._goal: list[str] = []
        self._goal_key = -1
        self._goal_phase = ""
        self._handlers = {
            "home": self.decide_home,
            "place_general": self.decide_place_general,
            "attach_item": self.decide_attach_item,
            "discard": self.decide_discard,
            "cards": self.decide_cards,
            "purchase": self.decide_purchase,
            "movement": self.decide_movement,
            "siege_or_assault": self.decide_siege_or_assault,
            "siege_assault": self.decide_siege_assault,
            "battle_cards": self.decide_battle_cards,
            "conquer_or_raze": self.decide_conquer_or_raze,
            "assign_title": self.decide_assign_title,
            "appoint": self.decide_appoint,
            "vote": self.decide_vote,
            "successor": self.decide_successor,
            "prophet_terrain": self.decide_prophet_terrain,
            "invader_target": self.decide_invader_target,
        }

    # -- dispatch ----------------------------------------------------------------------------
    def choose(self, view: View, decision: Decision) -> Any:
        key = (view.round, view.phase)
        if key != self._cache_key:
            self._cache_key = key
            self._cache = {}
        handler = self._handlers.get(decision.kind)
        choice = handler(view, decision) if handler is not None else None
        if choice is None or choice not in decision.options:
            return self.fallback(decision)
        return choice

    @staticmethod
    def fallback(decision: Decision) -> Any:
        return PASS if PASS in decision.options else decision.options[0]

    def cached(self, name: str, fn):
        value = self._cache.get(name)
        if value is None:
            value = fn()
            self._cache[name] = value
        return value

    # -- knowledge helpers -------------------------------------------------------------------
    def dist(self, view: View, frm: int, to: int) -> int:
        return distances_to(view.board, to)[frm]

    def my_free_generals(self, view: View) -> list:
        return [g for g in view.generals.values() if g.owner == self.seat and g.captor is None]

    def my_judges(self, view: View) -> list:
        return [g for g in view.generals.values()
                if g.owner == self.seat and g.title is not None and g.title.startswith(JUDGE_PREFIX)
                and not view.regions[g.title[len(JUDGE_PREFIX):]].lapsed]

    def judge_city_ids(self, view: View) -> set[int]:
        return {r.city for r in view.regions.values() if r.city is not None}

    def leader_seat(self, view: View) -> int | None:
        """The rival with the most VP (ties: most settlements), or None when nobody has any."""
        best, best_key = None, (0, 0)
        for seat in range(view.n_players):
            if seat == self.seat:
                continue
            vp = view.vp(seat)
            if vp <= 0:
                continue
            key = (vp, sum(1 for s in view.settlements if s.owner == seat and s.standing))
            if key > best_key:
                best, best_key = seat, key
        return best

    def regions_info(self, view: View) -> dict[str, RegionInfo]:
        return self.cached("regions", lambda: {name: region_status(view, name) for name in view.regions})

    def threats(self, view: View) -> dict[int, int]:
        """hex -> the strongest attack (before dice) rival generals could bring next Movement."""
        return self.cached("threats", lambda: self._compute_threats(view))

    def _compute_threats(self, view: View) -> dict[int, int]:
        board = view.board
        mine = [s.hex for s in view.settlements if s.owner == self.seat and s.standing]
        threat: dict[int, list[int]] = {h: [] for h in mine}
        for g in view.generals.values():
            if g.captor is not None or g.owner == self.seat:
                continue
            if has_item(g, PROPHET):
                continue
            moves = moves_of(g.name)
            power = general_power(view, g)
            sid_here = board.settlement_at[g.hex]
            if sid_here >= 0 and view.settlements[sid_here].owner == g.owner:
                # it could take troops this round and come next round: count a part of them
                power += min(view.rules.limits.troops_per_general - g.troops, view.settlements[sid_here].garrison) // 2
            for h in mine:
                d = distances_to(board, h)[g.hex]
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
        return self.cached("invaders", lambda: self._compute_invaders(view))

    def _compute_invaders(self, view: View) -> dict[int, int]:
        out: dict[int, int] = {}
        ring = view.board.ring
        settlements = view.settlements
        strength = view.rules.invaders.strength
        for pair in view.pairs:
            target = pair.target
            if target is None or not settlements[target].standing or settlements[target].owner in (None, CANAANITES):
                after = pair.at if target is None else target
                start = ring.index(after) + 1 if after is not None else 0
                target = None
                for step in range(len(ring)):
                    st = settlements[ring[(start + step) % len(ring)]]
                    if st.standing and st.owner is not None and st.owner >= 0:
                        target = st.id
                        break
            if target is not None:
                out[target] = out.get(target, 0) + sum(strength + t for t in pair.troops)
        return out

    def invader_plan(self, view: View) -> dict[int, tuple[int, bool]]:
        """Our settlements the invaders hit next Combat: sid -> (their strength, whether it can
        be held with the troops we can still buy and the generals that can get there)."""
        return self.cached("invader_plan", lambda: self._compute_invader_plan(view))

    def _compute_invader_plan(self, view: View) -> dict[int, tuple[int, bool]]:
        out = {}
        limits = view.rules.limits
        for sid, strength in self.invader_next(view).items():
            st = view.settlements[sid]
            if st.owner != self.seat:
                continue
            defence = settlement_defence(view, sid)
            if view.phase in ("announcements", "draw", "income", "acquisitions"):
                defence += min(limits.garrison - st.garrison, view.coins() // max(1, view.rules.costs.troop))
            if view.phase != "combat":
                here = [g for g in view.generals_at(st.hex) if g.owner == self.seat and g.captor is None]
                room = max(0, limits.generals_per_settlement - len(here))
                helpers = sorted((general_power(view, g) for g in self.my_free_generals(view)
                                  if g.hex != st.hex and not g.moved
                                  and distances_to(view.board, st.hex)[g.hex] <= moves_of(g.name)), reverse=True)
                defence += sum(helpers[:room])
            if MERCENARIES in {kind_of(c) for c in view.hand} and self.p["mercenaries"] > 0:
                defence += view.rules.cards.mercenaries_strength
            hold = win_probability(strength, defence, view.rules.combat.dice) <= 0.45
            out[sid] = (strength, hold)
        return out

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
        defence = settlement_defence(view, sid, rounds_besieged=99)
        if st.owner == CANAANITES:
            return 5.0 + 1.5 * defence
        return 7.0 + 1.5 * defence + (2.0 if st.wall else 0.0)

    def region_cost(self, view: View, info: RegionInfo, anchors: list[int]) -> float:
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
            d = min((distances_to(board, hx)[a] for a in anchors), default=20)
            cost += 0.6 * d
        if not info.my_walled and not any(view.settlements[s].wall for s in info.canaanite + info.rival):
            cost += 5
        cost += 10  # the title
        return cost * self.region_weight(view, info.name)

    def usurp_cost(self, view: View, info: RegionInfo, anchors: list[int]) -> float:
        """A region whose title exists: taking its Judge's city brings the title along (CB-7,
        TI-5); a city left without an owner is simply walked into."""
        appetite = self.p["usurp"]
        if info.city_owner == self.seat or appetite <= 0:
            return INF
        st = view.settlements[info.city]
        if not st.standing:
            return INF
        d = min((distances_to(view.board, st.hex)[a] for a in anchors), default=20)
        cost = 6.0 + self.settlement_cost(view, st.id) + 0.6 * d
        if st.owner is not None and st.owner >= 0:
            cost -= 3.0 * view.vp(st.owner)  # the leader's titles first
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
            defence = settlement_defence(view, st.id)
            if danger > defence:
                out.append(Target(st.id, st.hex, 7.0 if st.id in cities else 4.0, False, 0, 1))
        return out

    def _target_for(self, view: View, sid: int, priority: float) -> Target:
        st = view.settlements[sid]
        if st.owner is None:
            return Target(sid, st.hex, priority, False)
        melted = settlement_defence(view, sid, rounds_besieged=99)
        return Target(sid, st.hex, priority - 1.0, True, melted + 3, 2)

    def extra_targets(self, view: View, seen: set[int]) -> list[Target]:
        """Targets outside the goal regions: by default free settlements near our generals."""
        expand = self.p["expand"]
        if expand <= 0:
            return []
        out = []
        gens = self.my_free_generals(view)
        for st in view.settlements:
            if st.id in seen or not st.standing or st.owner is not None:
                continue
            d = min((self.dist(view, g.hex, st.hex) for g in gens), default=INF)
            if d <= 6:
                out.append(Target(st.id, st.hex, 3.0 * expand - 0.2 * d, False))
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
                d = distances_to(board, st.hex)[hx]
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

    # -- cards drawn -------------------------------------------------------------------------
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
            score += 0.2 * max(0, threats.get(st.hex, 0) - settlement_defence(view, st.id))
            if score > best_score:
                best, best_score = option, score
        return best

    def decide_attach_item(self, view: View, decision: Decision) -> Any:
        kind = kind_of(decision.context.get("card", ""))
        names = [o.value for o in decision.options]
        gens = [view.generals[n] for n in names]

        def pick(key):
            return Choose(max(gens, key=key).name)

        if kind in (SWORD, CHARIOT):
            return pick(lambda g: (g.title is None, base_strength(g.name) + g.troops, moves_of(g.name)))
        if kind == PROPHET:  # the carrier never attacks: the weakest, or a Judge (votes twice)
            return pick(lambda g: (g.title is not None and g.title.startswith(JUDGE_PREFIX), -base_strength(g.name)))
        if kind == ANOINTED:  # crowned at once: an untitled general, so no Judge title falls vacant
            return pick(lambda g: (g.title is None, -base_strength(g.name)))
        if kind == ARK:  # a defender: a Judge, else the weakest
            return pick(lambda g: (g.title is not None and g.title.startswith(JUDGE_PREFIX), -base_strength(g.name)))
        if kind == SQUIRE:  # protects the most valuable general
            return pick(lambda g: (g.title in (KING,) or (g.title or "").startswith(JUDGE_PREFIX),
                                   not has_item(g, SQUIRE), base_strength(g.name)))
        return pick(lambda g: -base_strength(g.name))

    def card_value(self, view: View, card: str) -> float:
        """How much the strategy wants to keep a one-use card (for discards)."""
        return {
            SIEGE_WEAPONS: 5, MERCENARIES: 4, BLESSING: 6, AMBUSH: 4, ASSASSIN: 4, JUSTICE: 3,
            TAX: 3, REVOLT: 1, SECRET_PASSAGE: 2,
        }.get(kind_of(card), 1)

    def decide_discard(self, view: View, decision: Decision) -> Any:
        return min(decision.options, key=lambda o: (self.card_value(view, o.value), o.value))

    # -- card windows ------------------------------------------------------------------------
    def decide_cards(self, view: View, decision: Decision) -> Any:
        best, best_score = PASS, 0.0
        for option in decision.options:
            if not isinstance(option, PlayCard):
                continue
            score = self.card_play_score(view, option)
            if score > best_score:
                best, best_score = option, score
        return best

    def card_play_score(self, view: View, play: PlayCard) -> float:
        """How much playing this card now is worth (> 0: play it); cached per phase."""
        scores = self._cache.get("card_scores")
        if scores is None:
            scores = self._cache["card_scores"] = {}
        key = (play, view.wrath, len(view.hand))
        value = scores.get(key)
        if value is None:
            value = scores[key] = self._card_play_score(view, play)
        return value

    def _card_play_score(self, view: View, play: PlayCard) -> float:
        kind = kind_of(play.card)
        if kind == BLESSING:
            return 10.0
        if kind == JUSTICE:
            return self.justice_score(view, play)
        if kind == TAX:
            return self.tax_score(view, play.target)
        if kind == REVOLT:
            return self.revolt_score(view, play.target)
        if kind == ASSASSIN:
            return self.assassin_score(view, play)
        return 0.0

    def wrath_room(self, view: View, amount: int = 1) -> bool:
        """Whether adding ``amount`` Wrath stays under the strategy's cap and below the cup."""
        return view.wrath + amount <= min(self.p["wrath_cap"], view.rules.wrath.threshold - 1)

    def justice_score(self, view: View, play: PlayCard) -> float:
        target = view.generals.get(play.target)
        if target is None or target.owner == self.seat:
            return 0.0
        return 5.0 + base_strength(target.name)

    def region_tax_value(self, view: View, name: str) -> tuple[int, int]:
        """(what Tax would pay me, what it takes from my own income there)."""
        total = mine = 0
        income = view.rules.income
        for sid in view.board.regions[name].settlements:
            st = view.settlements[sid]
            if not st.standing or st.owner is None or st.owner < 0:
                continue
            value = (income.city if st.city else income.village) + income.development * st.developments
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

    def revolt_score(self, view: View, region: str) -> float:
        rival = mine = 0
        for sid in view.board.regions[region].settlements:
            st = view.settlements[sid]
            if not st.standing:
                continue
            if st.owner == self.seat:
                mine += st.garrison + 2
            elif st.owner is not None and st.owner >= 0:
                rival += st.garrison + 1
        for g in view.generals.values():
            if g.captor is None and view.board.settlement_at[g.hex] in view.board.regions[region].settlements:
                if g.owner == self.seat:
                    mine += 3
                else:
                    rival += 2
        return rival - 2 * mine - 2

    def assassin_score(self, view: View, play: PlayCard) -> float:
        if self.p["assassin"] <= 0:
            return 0.0
        target = view.generals.get(play.target)
        if target is None or target.owner == self.seat or target.owner < 0:
            return 0.0
        royal = self._i_reign(view)
        if not royal and not self.wrath_room(view):
            return 0.0
        if has_item(target, SQUIRE):
            return 0.0
        value = 0.0
        owner_vp = view.vp(target.owner)
        if target.title == KING:
            # a dead King's player names a successor among its own free generals (TI-13): only
            # worth it when none is left to succeed, or the Anointed would crown one of ours
            heirs = sum(1 for g in view.generals.values()
                        if g.owner == target.owner and g.captor is None and g is not target)
            value += (6 + 3 * owner_vp) if heirs == 0 else -2
        elif target.title and target.title.startswith(JUDGE_PREFIX):
            value += 4 + 3 * owner_vp
        if has_item(target, PROPHET):
            if not royal and not self.wrath_room(view, 4):
                return 0.0
            value -= 3
        value += 0.3 * general_power(view, target)
        if owner_vp >= view.rules.victory.points - 1:
            value += 4
        if play.blame is not None:
            blamed = view.generals.get(play.blame)
            if blamed is not None:
                value -= 0.5 * base_strength(blamed.name)  # a titled general can never be a Judge
        return self.p["assassin"] * value - 4.0

    def _i_reign(self, view: View) -> bool:
        king = view.generals.get(view.king) if view.king else None
        return king is not None and king.owner == self.seat and king.captor is None

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
        return self.cached("reserve", lambda: self._compute_reserve(view))

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
        if what == "judge":
            return 100.0 + self.judge_buy_pref(view, buy)
        if what == "tabernacle":
            return 90.0
        if what == "guilt_sacrifice":
            return self.guilt_score(view)
        price = {"troop": costs.troop, "wall": costs.wall, "development": costs.development}[what]
        st = view.settlements[buy.settlement]
        if what == "troop":
            score = self.troop_score(view, st)
        elif what == "wall":
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
            current_other = settlement_defence(view, st.id) - st.garrison
            need = threat + 2 - current_other
            cap = 8 if important else 4
            floor = max(floor, min(cap, need))
        invaders = self.invader_plan(view).get(st.id)
        if invaders is not None:
            strength, hold = invaders
            if not hold:
                return min(floor, 1)
            current_other = settlement_defence(view, st.id) - st.garrison
            floor = max(floor, min(view.rules.limits.garrison, strength + 1 - current_other))
        return floor

    def troop_score(self, view: View, st) -> float:
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
        return self.cached("staging", lambda: self._compute_staging(view))

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
            want = max(0, min(cap, need_now - general_power(view, g, troops=0)))
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
        return score if view.coins() >= 12 or threat > settlement_defence(view, st.id) else 0.0

    def development_score(self, view: View, st) -> float:
        appetite = self.p["develop"]
        if appetite <= 0:
            return 0.0
        threat = self.threats(view).get(st.hex, 0)
        if threat > settlement_defence(view, st.id) + 2:
            return 0.0
        if st.id in self.invader_next(view):
            return 0.0
        rounds_left = view.rules.victory.max_rounds - view.round
        if rounds_left < 5:
            return 0.0
        score = appetite * (10.0 + (2.0 if st.city else 0.0) + (2.0 if st.wall else 0.0))
        return score if view.coins() >= view.rules.costs.development + 4 else score * 0.4

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
                (pmoves if option.passage else moves).setdefault(option.general, {})[option.dest] = option
            elif t is TakeTroops:
                if option.count > takes.get(option.general, 0):
                    takes[option.general] = option.count
            elif t is GiveTroops:
                if option.count > gives.get(option.general, 0):
                    gives[option.general] = option.count
            elif t is PlayCard:
                cards.append(option)
            elif t.__name__ in ("StartSiege", "StartAssault"):
                starts.setdefault(option.hex, {})[t.__name__] = option
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
        generals.sort(key=lambda g: (g.name not in assignment, -general_power(view, g), g.name))
        for g in generals:
            action = self.general_action(view, g, assignment.get(g.name), moves.get(g.name, {}),
                                         pmoves.get(g.name, {}), takes.get(g.name, 0), gives.get(g.name, 0))
            if action is None:
                self._stay.add(g.name)
                continue
            if action in decision.options:
                return action
            self._stay.add(g.name)
        return PASS

    def assign(self, view: View, generals: list, targets: list[Target]) -> dict[str, Target]:
        """Greedy: the best (priority - distance) pairs first; a hostile target takes up to 2."""
        if not targets:
            return {}
        board = view.board
        # generals already standing on a hostile target (besieging) keep it
        pairs = []
        for g in generals:
            prophet = has_item(g, PROPHET)
            moves = moves_of(g.name)
            for t in targets:
                if t.hostile and prophet:
                    continue
                d = distances_to(board, t.hex)[g.hex]
                if d >= INF:
                    continue
                rounds = d / moves
                score = t.priority - 1.2 * rounds
                if t.hostile:
                    score += 0.15 * general_power(view, g)
                    if g.title is not None:
                        score -= 4.0
                pairs.append((score, g.name, t.sid, t))
        pairs.sort(key=lambda x: (-x[0], x[1], x[2]))
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
        for score, name, sid, t in pairs:
            if name in out or slots[sid] <= 0 or score < -3:
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

    def strength_needed(self, view: View, hex_id: int, threshold: float, rounds_besieged: int | None = None) -> int:
        """The smallest attack strength (before dice) that wins at ``hex_id`` with the given
        chance, against its defence after ``rounds_besieged`` rounds of siege (None: as now)."""
        defence, side = hex_defence(view, hex_id, rounds_besieged=rounds_besieged, exclude_seat=self.seat)
        if side is None:
            return 0
        dice = view.rules.combat.dice
        strength = max(0, defence - 6 * dice)
        while win_probability(strength, defence, dice) < threshold and strength < defence + 6 * dice:
            strength += 1
        return strength

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
            if here_mine and take > 0 and not has_item(g, PROPHET):
                st = view.settlements[here_sid]
                spare = st.garrison - self.wanted_garrison(view, st)
                if spare > 0 and g.troops < 3:
                    return TakeTroops(g.name, min(take, spare, 3 - g.troops))
            return None
        cap = view.rules.limits.troops_per_general
        open_plain = is_open_plain(view, target.hex)
        if not target.hostile and here_mine and take > 0 and g.troops < self.p["escort"] and self.plague_coming(view):
            # a general leading 0 or 1 troop dies of Plague (9.4): take an escort first
            st = view.settlements[here_sid]
            spare = st.garrison - self.wanted_garrison(view, st)
            if spare > 0:
                return TakeTroops(g.name, min(take, spare, self.p["escort"] - g.troops))
        if target.hostile:
            partners = sum(general_power(view, o, open_plain) for o in view.generals_at(target.hex)
                           if o.owner == self.seat and o.captor is None)
            power = general_power(view, g, open_plain)
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
                defence, _ = hex_defence(view, target.hex, rounds_besieged=99, exclude_seat=self.seat)
                if win_probability(power + partners, defence, view.rules.combat.dice) < 0.5:
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
            d = distances_to(view.board, st.hex)[g.hex] - 0.5 * min(st.garrison, 6)
            if d < best_d:
                best, best_d = st.hex, d
        return best

    def step_toward(self, view: View, g, dest: int, moves: dict[int, Move]) -> Move | None:
        """The reachable hex that leaves the least distance to ``dest`` (never a hostile stop)."""
        row = distances_to(view.board, dest)
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

    # -- combat ------------------------------------------------------------------------------
    def attack_power_at(self, view: View, hex_id: int) -> int:
        open_plain = is_open_plain(view, hex_id)
        return sum(general_power(view, g, open_plain) for g in view.generals_at(hex_id)
                   if g.owner == self.seat and g.captor is None)

    def start_attack(self, view: View, hex_id: int) -> str:
        """For generals already standing in a hostile hex: "StartAssault" or "StartSiege"."""
        return "StartAssault" if self.assault_now(view, hex_id) else "StartSiege"

    def decide_siege_or_assault(self, view: View, decision: Decision) -> Any:
        return ASSAULT if self.assault_now(view, decision.context.get("hex")) else SIEGE

    def assault_now(self, view: View, hex_id: int) -> bool:
        attack = self.attack_power_at(view, hex_id)
        defence, _ = hex_defence(view, hex_id, rounds_besieged=0, wall_cancelled=self._wall_cancelled(view, hex_id),
                                 exclude_seat=self.seat)
        bonus = self._card_bonus(view, hex_id)
        dice = view.rules.combat.dice
        p = win_probability(attack + bonus, defence, dice)
        melted, _ = hex_defence(view, hex_id, rounds_besieged=99, exclude_seat=self.seat)
        p_later = win_probability(attack, melted, dice)
        return p >= 0.9 or (p >= self.p["assault"] and p_later - p < 0.2)

    def _wall_cancelled(self, view: View, hex_id: int) -> bool:
        return any(g.passage for g in view.generals_at(hex_id) if g.owner == self.seat and g.captor is None)

    def _card_bonus(self, view: View, hex_id: int) -> int:
        """Strength our battle cards could still add (Siege Weapons counted as the wall)."""
        bonus = 0
        kinds = {kind_of(c) for c in view.hand}
        sid = view.board.settlement_at[hex_id]
        if SIEGE_WEAPONS in kinds and sid >= 0 and view.settlements[sid].wall and not view.settlements[sid].city:
            bonus += fortification_now(view, sid, siege_rounds(view, hex_id))
        if MERCENARIES in kinds and self.p["mercenaries"] > 0 and self.wrath_room(view):
            bonus += view.rules.cards.mercenaries_strength
        return bonus

    def decide_siege_assault(self, view: View, decision: Decision) -> Any:
        hex_id = decision.context.get("hex")
        attack = self.attack_power_at(view, hex_id)
        rounds = siege_rounds(view, hex_id)
        defence, _ = hex_defence(view, hex_id, rounds_besieged=rounds, exclude_seat=self.seat)
        dice = view.rules.combat.dice
        p = win_probability(attack + self._card_bonus(view, hex_id), defence, dice)
        later, _ = hex_defence(view, hex_id, rounds_besieged=rounds + 1, exclude_seat=self.seat)
        if p >= self.p["storm"] and (later >= defence or p >= 0.9):
            return ASSAULT
        if later >= defence and p >= 0.45 and rounds >= 3:
            return ASSAULT  # nothing more will melt; do not sit forever
        return HOLD

    def decide_battle_cards(self, view: View, decision: Decision) -> Any:
        hex_id = decision.context.get("hex")
        attacking = view.assaults.get(hex_id) == self.seat
        dice = view.rules.combat.dice
        sid = view.board.settlement_at[hex_id]
        invader = sid >= 0 and any(p.at == sid for p in view.pairs) and not attacking
        if attacking:
            mine = self.attack_power_at(view, hex_id)
            rounds = siege_rounds(view, hex_id)
            theirs, _ = hex_defence(view, hex_id, rounds_besieged=rounds,
                                    wall_cancelled=self._wall_cancelled(view, hex_id), exclude_seat=self.seat)
        elif invader:
            strength = view.rules.invaders.strength
            theirs = sum(sum(strength + t for t in p.troops) for p in view.pairs if p.at == sid)
            mine, _ = hex_defence(view, hex_id)
        else:
            mine, _ = hex_defence(view, hex_id)
            theirs = sum(general_power(view, g, is_open_plain(view, hex_id)) for g in view.generals_at(hex_id)
                         if g.owner != self.seat and g.captor is None and g.owner == view.assaults.get(hex_id))
        p = win_probability(mine, theirs, dice)
        best, best_gain = PASS, 0.0
        for option in decision.options:
            if not isinstance(option, PlayCard):
                continue
            kind = kind_of(option.card)
            gain = 0.0
            if kind == SIEGE_WEAPONS and attacking and sid >= 0:
                wall = fortification_now(view, sid, siege_rounds(view, hex_id), self._wall_cancelled(view, hex_id))
                if view.settlements[sid].city:
                    wall = 0
                gain = win_probability(mine, theirs - wall, dice) - p
            elif kind == MERCENARIES:
                if self.p["mercenaries"] <= 0:
                    continue
                if not self.wrath_room(view):
                    if not (invader and view.wrath + 1 < view.rules.wrath.threshold):
                        continue
                gain = (win_probability(mine + view.rules.cards.mercenaries_strength, theirs, dice) - p)
                gain *= max(self.p["mercenaries"], 0.6 if invader else 0.0)
                gain -= 0.05
            elif kind == AMBUSH:
                enemy_gens = [g for g in view.generals_at(hex_id) if g.owner != self.seat and g.captor is None
                              and not has_item(g, SQUIRE)]
                if attacking:
                    enemy_gens = [g for g in enemy_gens if g.owner == view.settlements[sid].owner] if sid >= 0 else enemy_gens
                removed = sum(base_strength(g.name) + g.troops + (3 if has_item(g, SWORD) else 0) for g in enemy_gens)
                if any(has_item(g, PROPHET) for g in enemy_gens) and not self.wrath_room(view, 3):
                    continue
                gain = win_probability(mine, theirs - removed, dice) - p + 0.05 * len(enemy_gens)
            elif kind == ASSASSIN:
                continue  # kept for the card windows
            if gain > best_gain + 0.08:
                best, best_gain = option, gain
        return best

    def decide_conquer_or_raze(self, view: View, decision: Decision) -> Any:
        sid = decision.context.get("settlement")
        return RAZE if self.want_raze(view, sid) else CONQUER

    def want_raze(self, view: View, sid: int) -> bool:
        appetite = self.p["raze"]
        if appetite <= 0:
            return False
        spec = view.board.settlements[sid]
        st = view.settlements[sid]
        if spec.region is not None:
            if spec.region in self.goal_regions(view):
                return False
            info = self.regions_info(view).get(spec.region)
            if info is not None and info.city_owner == self.seat:
                return False
            # V-2: never bring the land closer to collapse than one region of slack
            if standing_judge_regions(view, razed=sid) < view.rules.victory.min_judge_regions + 1:
                return False
        loot = view.rules.loot
        gain = (loot.city if st.city else loot.village) + loot.development * st.developments
        keep_value = 2.0 + 4.0 * st.developments + (3.0 if st.city else 0.0) + (2.0 if st.wall else 0.0)
        if spec.region is not None and st.city:
            return appetite >= 0.5  # razing a rival Judge's city ends the title (CB-7)
        return appetite * gain > keep_value

    # -- titles ------------------------------------------------------------------------------
    def title_holder_score(self, view: View, g) -> float:
        """Who should hold a title: safe, weak generals (strong ones fight)."""
        sid = view.board.settlement_at[g.hex]
        safe = sid >= 0 and view.settlements[sid].owner == self.seat
        return (3.0 if safe else 0.0) - base_strength(g.name) - 0.2 * g.troops - (5.0 if has_item(g, ANOINTED) else 0.0)

    def decide_assign_title(self, view: View, decision: Decision) -> Any:
        own = [view.generals[o.value] for o in decision.options if o.value is not None]
        own = [g for g in own if g.owner == self.seat]
        if not own:
            return Choose(None)
        return Choose(max(own, key=lambda g: (self.title_holder_score(view, g), g.name)).name)

    def decide_appoint(self, view: View, decision: Decision) -> Any:
        gens = [view.generals[o.value] for o in decision.options]
        own = [g for g in gens if g.owner == self.seat]
        if own:
            return Choose(max(own, key=lambda g: (self.title_holder_score(view, g), g.name)).name)
        # forced to give a rival the title: the one furthest from winning
        return Choose(min(gens, key=lambda g: (view.vp(g.owner), base_strength(g.name), g.name)).name)

    def decide_vote(self, view: View, decision: Decision) -> Any:
        gens = [view.generals[o.value] for o in decision.options]
        own = [g for g in gens if g.owner == self.seat]
        if own:
            # crown an untitled... all candidates are Judges: keep the one holding the weaker
            # region; the vacancy is refilled by our own King next Announcements (TI-6)
            return Choose(min(own, key=lambda g: (base_strength(g.name), g.name)).name)
        return Choose(self.kingmaker_vote(view, gens).name)

    def kingmaker_vote(self, view: View, gens: list):
        """With no candidate of our own: the rival furthest from winning."""
        return min(gens, key=lambda g: (view.vp(g.owner), g.name))

    def decide_successor(self, view: View, decision: Decision) -> Any:
        gens = [view.generals[o.value] for o in decision.options]
        # an untitled general keeps every Judge title in place (TI-15)
        return Choose(max(gens, key=lambda g: (g.title is None, -base_strength(g.name), g.name)).name)

    # -- events and invaders -----------------------------------------------------------------
    def decide_prophet_terrain(self, view: View, decision: Decision) -> Any:
        event = decision.context.get("event")
        board = view.board
        mine = {t: 0.0 for t in (Terrain.PLAIN, Terrain.MOUNTAIN, Terrain.DESERT)}
        theirs = dict(mine)
        if event == "Plague":
            for st in view.settlements:
                if st.standing and st.owner is not None and st.owner >= 0:
                    (mine if st.owner == self.seat else theirs)[board.terrain[st.hex]] += st.garrison
            for g in view.generals.values():
                t = board.terrain[g.hex]
                if t in mine:
                    (mine if g.owner == self.seat else theirs)[t] += g.troops + (3 if g.troops <= 1 else 0)
            score = {t: theirs[t] / max(1, view.n_players - 1) - mine[t] for t in mine}
        else:
            for st in view.settlements:
                if st.standing and st.owner is not None and st.owner >= 0:
                    (mine if st.owner == self.seat else theirs)[board.terrain[st.hex]] += 1
            sign = 1 if event == "Abundance" else -1
            score = {t: sign * (mine[t] - theirs[t] / max(1, view.n_players - 1)) for t in mine}
        best = max(score, key=lambda t: (score[t], -int(t)))
        return Choose(best.name.lower())

    def decide_invader_target(self, view: View, decision: Decision) -> Any:
        leader = self.leader_seat(view)
        best, best_score = None, -INF
        cities = self.judge_city_ids(view)
        for option in decision.options:
            st = view.settlements[option.value]
            if st.owner == self.seat:
                continue
            score = view.vp(st.owner) * 5.0 + (4.0 if st.owner == leader else 0.0)
            if st.id in cities:
                score += 6.0
            score -= 0.2 * settlement_defence(view, st.id)
            spec = view.board.settlements[st.id]
            if spec.region is not None and standing_judge_regions(view, razed=st.id) < view.rules.victory.min_judge_regions + 1:
                score -= 50.0
            if score > best_score:
                best, best_score = option, score
        return best if best is not None else decision.options[0]


__all__ = [
    "BASE_PARAMS", "ScriptedStrategy", "Target", "RegionInfo", "distances_to", "route_cost", "all_pairs",
    "win_probability", "general_power", "hex_defence", "settlement_defence", "region_status",
    "standing_judge_regions", "fortification_now",
]
