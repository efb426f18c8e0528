"""The rule arithmetic, in one home: strengths, fortifications, defences, odds, losses, Plague,
loot, income and Tax, region status, the Prophet's owner and the invaders' next targets.

Pure functions of the public state (a ``GameState``, or a strategy's ``View``, which offers the
same read-only attributes), the board and the rules: the engine resolves the game with them and
the strategies estimate it with them, so a rule is written once and cannot drift between the
two. Reachability is ``plsim.engine.movement.reachable``; route costs and the Sandstorm table
are the board's (``Board.route_costs_to``, ``Board.storm_sealed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from plsim.board import Board, Terrain
from plsim.engine.cards import ARK, CATALOGUE, CHARIOT, SWORD, kind_of
from plsim.engine.state import CANAANITES
from plsim.rules import Rules

if TYPE_CHECKING:
    from plsim.engine.state import GameState

    PublicState = GameState  # or a View: the same public attributes, read-only


# generals (GN-1, CB-3)
def carries(general: Any, item_kind: str) -> bool:
    """Whether the general carries an item of that kind (9.2)."""
    for card in general.items:
        if kind_of(card) == item_kind:
            return True
    return False


def base_strength(name: str) -> int:
    """A general's printed strength (9.1)."""
    return CATALOGUE[name].strength


def general_moves(name: str) -> int:
    """A general's printed moves (9.1, MV-1)."""
    return CATALOGUE[name].moves


def general_strength(rules: Rules, general: Any, open_plain: bool, troops: int | None = None) -> int:
    """GN-1, CB-3: base + commanded troops (``troops`` to imagine another number) + Goliath's
    Sword + War Chariot on an open plain."""
    cards = rules.cards
    strength = CATALOGUE[general.name].strength + (general.troops if troops is None else troops)
    for card in general.items:
        kind = kind_of(card)
        if kind == SWORD:
            strength += cards.sword_strength
        elif kind == CHARIOT and open_plain:
            strength += cards.chariot_strength
    return strength


def army_strength(rules: Rules, generals: Iterable[Any], open_plain: bool) -> int:
    """CB-3: the sum of the fighting generals' strengths."""
    return sum(general_strength(rules, g, open_plain) for g in generals)


def ark_bonus(rules: Rules, defenders: Iterable[Any]) -> int:
    """CB-3, Ark: +3 to the defending side while its carrier defends the hex."""
    return rules.defence.ark if any(carries(g, ARK) for g in defenders) else 0


def invader_strength(rules: Rules, troops: Iterable[int]) -> int:
    """W-4: an invader pair fights as one side, each invader its strength plus its troops."""
    return sum(rules.invaders.strength + t for t in troops)


# settlements and sieges (ST-4, ST-8, CB-3)
def siege_rounds(state: PublicState, hex_id: int) -> int:
    """Whole rounds since the siege of the hex began (0 without a siege, and in its first round)."""
    siege = state.sieges.get(hex_id)
    return state.round - siege.started if siege is not None else 0


def fortification(rules: Rules, settlement: Any, rounds_besieged: int, wall_cancelled: bool = False) -> int:
    """ST-4, ST-8: a Judge's city bonus or a wall's, melting with each round of siege (the last
    value holds after). Siege Weapons and Secret Passage (``wall_cancelled``) cancel a wall,
    never a city."""
    defence = rules.defence
    if settlement.city:
        table = defence.city_by_siege_round
    elif settlement.wall:
        if wall_cancelled:
            return 0
        table = defence.wall_by_siege_round
    else:
        return 0
    return table[min(max(rounds_besieged, 0), len(table) - 1)]


def is_open_plain(state: PublicState, board: Board, hex_id: int) -> bool:
    """CB-3, War Chariot: a plain hex with no standing settlement on it."""
    sid = board.settlement_at[hex_id]
    in_settlement = sid >= 0 and state.settlements[sid].standing
    return not in_settlement and board.terrain[hex_id] == Terrain.PLAIN


def hex_defence(
    state: PublicState,
    board: Board,
    rules: Rules,
    hex_id: int,
    rounds_besieged: int | None = None,
    wall_cancelled: bool = False,
    attacker: int | None = None,
) -> tuple[int, int | None]:
    """CB-3 before the dice: (the defending strength, the defending side) of a hex against an
    attack by ``attacker``: a standing settlement's garrison, fortification (after
    ``rounds_besieged`` rounds of siege, None: as now), its owner's free generals and the Ark;
    in the open field, the free generals of the first other side standing there."""
    sid = board.settlement_at[hex_id]
    if rounds_besieged is None:
        rounds_besieged = siege_rounds(state, hex_id)
    settlement = state.settlements[sid] if sid >= 0 else None
    if settlement is not None and settlement.standing:
        side = settlement.owner
        if side is None:
            return 0, None
        total = settlement.garrison + fortification(rules, settlement, rounds_besieged, wall_cancelled)
        open_plain = False
    else:
        side = None
        total = 0
        open_plain = board.terrain[hex_id] == Terrain.PLAIN
    ark = False
    for g in state.generals_at(hex_id):
        if g.captor is not None:
            continue
        if side is None:  # the open field: the first side other than the attacker's defends
            if g.owner == attacker:
                continue
            side = g.owner
        elif g.owner != side:
            continue
        total += general_strength(rules, g, open_plain)
        ark = ark or carries(g, ARK)
    return total + (rules.defence.ark if ark else 0), side


# the dice (CB-3, CB-4)
@lru_cache(maxsize=16)
def _beats(dice: int, sides: int) -> tuple[dict[int, float], int]:
    """P(attacker's dice - defender's dice > k) for every k in reach, and the reach."""
    totals = {0: 1.0}
    for _ in range(dice):
        rolled: dict[int, float] = {}
        for value, p in totals.items():
            for face in range(1, sides + 1):
                rolled[value + face] = rolled.get(value + face, 0.0) + p / sides
        totals = rolled
    difference: dict[int, float] = {}
    for x, px in totals.items():
        for y, py in totals.items():
            difference[x - y] = difference.get(x - y, 0.0) + px * py
    span = (sides - 1) * dice
    return {k: sum(p for d, p in difference.items() if d > k) for k in range(-span - 1, span + 1)}, span


def win_probability(attack: float, defence: float, dice: int = 1, sides: int = 6) -> float:
    """CB-3, CB-4: the chance that attack + ``dice`` dice beats defence + as many dice (each die
    of ``sides`` faces); a tie goes to the defender."""
    if dice <= 0:
        return 1.0 if attack > defence else 0.0
    beats, span = _beats(dice, sides)
    k = int(round(defence - attack))
    if k > span:
        return 0.0
    if k < -span - 1:
        return 1.0
    return beats[k]


def strength_to_win(chance: float, defence: float, dice: int = 1, sides: int = 6) -> int:
    """CB-3, CB-4 read backwards: the smallest attack strength that beats ``defence`` with at
    least ``chance`` (one that always wins, when ``chance`` asks for more than certainty)."""
    return _strength_to_win(chance, math.ceil(defence), max(0, dice), sides)


@lru_cache(maxsize=4096)
def _strength_to_win(chance: float, defence: int, dice: int, sides: int) -> int:
    reach = dice * sides  # what the dice can add at most: beyond it an attack always wins
    attack = max(0, defence - reach)
    while attack <= defence + reach and win_probability(attack, defence, dice, sides) < chance:
        attack += 1
    return attack


def battle_losses(rules: Rules, loser_troops: int) -> int:
    """CB-6: the troops the winner of a battle loses: a share of the loser's (rounded down)."""
    return int(loser_troops * rules.combat.winner_losses)


def plague_losses(rules: Rules, troops: int) -> int:
    """9.4: the troops a Plague's hit takes: half, rounded up (``plague.loss_share``)."""
    return math.ceil(round(troops * rules.plague.loss_share, 9))


def plague_kills(rules: Rules, troops: int) -> bool:
    """9.4: whether a Plague's hit kills a general commanding ``troops`` instead of thinning them
    (``plague.dies_at_or_below``)."""
    return troops <= rules.plague.dies_at_or_below


# coins (IN-1, CB-7)
def settlement_value(rules: Rules, settlement: Any, terrain_mod: int = 0) -> int:
    """IN-1: village or city, +2 per development, +-1 per Abundance/Famine on its terrain this
    round (``terrain_mod``); never below 0."""
    income = rules.income
    value = (income.city if settlement.city else income.village) + income.development * settlement.developments
    return max(0, value + terrain_mod)


def settlement_income(state: PublicState, board: Board, rules: Rules, sid: int) -> int:
    """IN-1: what the settlement is worth this round, this round's Abundance or Famine on its
    terrain included (before IN-2's sieges and IN-3's Tax)."""
    settlement = state.settlements[sid]
    return settlement_value(rules, settlement, state.terrain_mods[board.terrain[settlement.hex]])


def income_paid(state: PublicState, board: Board, rules: Rules, sid: int) -> int:
    """IN-1, IN-2: what the settlement pays in this round's Income, to its owner or to a taxer:
    nothing unless a player's standing settlement, nothing while besieged."""
    settlement = state.settlements[sid]
    owner = settlement.owner
    if not settlement.standing or owner is None or owner < 0 or settlement.hex in state.sieges:
        return 0
    return settlement_income(state, board, rules, sid)


def tax_share(rules: Rules, paid: int) -> int:
    """IN-3: what a taxer takes from a settlement of the taxed region that pays ``paid``."""
    return rules.income.tax_multiplier * paid


def tax_gain(state: PublicState, board: Board, rules: Rules, region: str) -> int:
    """IN-1..IN-3: what taxing the region pays the taxer in this round's Income: its share of
    every settlement there that pays (besieged ones pay nothing)."""
    return sum(tax_share(rules, income_paid(state, board, rules, sid)) for sid in board.regions[region].settlements)


def loot(rules: Rules, settlement: Any) -> int:
    """CB-7: what a player razing the settlement takes: village or city, plus per development."""
    table = rules.loot
    return (table.city if settlement.city else table.village) + table.development * settlement.developments


# regions and titles (MP-2, MP-3, TI-1, V-2)
def region_settlements(state: PublicState, board: Board, region: str, razed: int | None = None) -> list[int]:
    """The standing settlements of a region in this game (MP-2, MP-3), counting ``razed`` gone."""
    settlements = state.settlements
    return [sid for sid in board.regions[region].settlements if settlements[sid].standing and sid != razed]


def can_hold_judge(state: PublicState, board: Board, rules: Rules, region: str, razed: int | None = None) -> bool:
    """V-2, TI-1: a region needs at least 4 standing settlements to hold a Judge."""
    return enough_for_judge(rules, region_settlements(state, board, region, razed))


def enough_for_judge(rules: Rules, members: Sequence[int]) -> bool:
    """V-2, TI-1: whether a region of these standing settlements (``region_settlements``) can hold a
    Judge: for a caller that has them already."""
    return len(members) >= rules.victory.region_min_settlements


def standing_judge_regions(state: PublicState, board: Board, rules: Rules, razed: int | None = None) -> int:
    """V-2: the regions of this game that can still hold a Judge, counting ``razed`` gone."""
    return sum(1 for name in state.regions if can_hold_judge(state, board, rules, name, razed))


def judge_owner(state: PublicState, region: str) -> int | None:
    """TI-2, W-1: the seat whose general holds the region's Judge title, if it is filled."""
    held = state.regions.get(region)
    if held is None or held.holder is None or held.lapsed:
        return None
    holder = state.generals.get(held.holder)
    return holder.owner if holder is not None else None


@dataclass(frozen=True, slots=True)
class RegionStatus:
    """Who holds what in a region, seen from one seat, and whether it can hold a Judge."""

    name: str
    standing: tuple[int, ...]  # standing settlement ids, in map order
    mine: tuple[int, ...]
    free: tuple[int, ...]
    canaanite: tuple[int, ...]
    rival: tuple[int, ...]
    my_walled: tuple[int, ...]  # the seat's walled villages (TI-1: the Judge's city to be)
    city: int | None  # the Judge's city, once a title was bought
    city_owner: int | None
    judge_owner: int | None  # the seat of the title's holder, if filled
    can_hold: bool  # V-2, TI-1: enough standing settlements for a Judge

    @property
    def missing(self) -> tuple[int, ...]:
        """What the seat lacks to own the region whole."""
        return self.free + self.canaanite + self.rival


def region_status(state: PublicState, board: Board, rules: Rules, region: str, seat: int) -> RegionStatus:
    settlements = state.settlements
    standing = region_settlements(state, board, region)
    mine, free, canaanite, rival, walled = [], [], [], [], []
    for sid in standing:
        st = settlements[sid]
        if st.owner == seat:
            mine.append(sid)
            if st.wall and not st.city:
                walled.append(sid)
        elif st.owner is None:
            free.append(sid)
        elif st.owner == CANAANITES:
            canaanite.append(sid)
        else:
            rival.append(sid)
    held = state.regions.get(region)
    city = held.city if held is not None else None
    return RegionStatus(
        region, tuple(standing), tuple(mine), tuple(free), tuple(canaanite), tuple(rival), tuple(walled), city,
        settlements[city].owner if city is not None else None, judge_owner(state, region),
        len(standing) >= rules.victory.region_min_settlements,
    )


# the Prophet and the invaders (AN-2, W-3, W-5)
def prophet_carrier(state: PublicState, without: str | None = None) -> Any | None:
    """AN-2, W-3: the general carrying the earliest-drawn Prophet still in play (leaving out the
    general named ``without``, as if it were dead), or None."""
    generals = state.generals.values()
    for card in state.prophets:
        for general in generals:
            if card in general.items and general.name != without:
                return general
    return None


def prophet_owner(state: PublicState, without: str | None = None) -> int | None:
    """AN-2, W-3: the seat that chooses the events' terrain and the invaders' first target: the
    owner of ``prophet_carrier``, or None."""
    carrier = prophet_carrier(state, without)
    return carrier.owner if carrier is not None else None


def next_on_ring(state: PublicState, board: Board, after: int | None) -> int | None:
    """W-5: the next standing player-owned settlement along the ring after ``after``."""
    ring = board.ring
    start = ring.index(after) + 1 if after is not None else 0
    settlements = state.settlements
    for step in range(len(ring)):
        st = settlements[ring[(start + step) % len(ring)]]
        if st.standing and st.owner is not None and st.owner >= 0:
            return st.id
    return None


def invader_target(state: PublicState, board: Board, pair: Any) -> int | None:
    """W-3, W-5: the settlement a loose pair attacks in the next Combat: its first target while
    that is still a player's, else the next player-owned settlement along the ring."""
    target = pair.target
    if target is None or not state.settlements[target].standing or state.settlements[target].owner in (None, CANAANITES):
        target = next_on_ring(state, board, pair.at if target is None else target)
    return target
