"""Pure planning helpers of the scripted strategies: functions of the read-only ``View``.

Kept apart from ``ScriptedStrategy`` so analysis scripts and tests can use them without a
strategy, and so each mixin imports only the estimates it needs.

- ``distances_to(board, hex)``: terrain-only cost of reaching ``hex`` from every hex (TR-1),
  the board's own table;
- ``win_probability(att, dfn, dice)``: CB-3/CB-4 with ``dice`` d6 per side, ties to the defender;
- ``settlement_defence``, ``general_power``: strengths mirroring ``plsim.engine.combat``;
- ``region_status``: who owns what in a region, and how far it is from a Judge title;
- ``standing_judge_regions``: how many regions can still hold a Judge (V-2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from plsim.board import NO_ROUTE, Board, Terrain
from plsim.engine.cards import ARK, CATALOGUE, kind_of
from plsim.engine.combat import general_strength
from plsim.engine.state import CANAANITES
from plsim.strategy.interface import View

INF = NO_ROUTE

# ---------------------------------------------------------------------------------------------
# distances


def distances_to(board: Board, target: int) -> tuple[int, ...]:
    """Cost of the cheapest land route from every hex to ``target`` (the board's table, TR-1)."""
    return board.route_costs_to(target)


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
    """GN-1, CB-3: the engine's own strength of a general (with ``troops`` if given)."""
    return general_strength(view.rules, general, open_plain, troops)


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


def raze_gain_and_keep(view: View, st) -> tuple[int, float]:
    """(the loot razing ``st`` pays, what keeping it is worth), so policies differ only in the
    extra reasons they weigh."""
    loot = view.rules.loot
    gain = (loot.city if st.city else loot.village) + loot.development * st.developments
    keep = 2.0 + 4.0 * st.developments + (3.0 if st.city else 0.0) + (2.0 if st.wall else 0.0)
    return gain, keep


# ---------------------------------------------------------------------------------------------
# targets


@dataclass(slots=True)
class Target:
    """A settlement worth sending generals to, ranked for the movement plan."""

    sid: int
    hex: int
    priority: float
    hostile: bool
    need: int = 0  # attack strength wanted (before dice)
    slots: int = 1  # generals wanted there
