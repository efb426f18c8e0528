"""The rule arithmetic as the strategies call it: strengths, fortifications, defences, odds,
losses, Plague, loot, income and Tax, region status, the Prophet's owner and the invaders'
next targets.

Every rule here is the core's (``plsim._core``): the engine resolves the game with it and a
strategy estimates the game with the very same code, so a rule cannot drift between the two.
Functions of the game take the strategy's ``View`` as their state (or a ``Table``'s view);
functions of the rules alone take the ``Rules`` and plain values or a view's records. Only the
catalogue's data (a general's moves and strength, an item's kind) is read here directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

from plsim import _core
from plsim.engine.cards import ARK, CATALOGUE, kind_of
from plsim.engine.native import core_rules
from plsim.rules import Rules

PublicState = Any  # a strategy's ``View`` (``plsim.engine.view`` imports this module, not the other way)


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
    return _strength(core_rules(rules), general.name, general.troops if troops is None else troops,
                     tuple(general.items), open_plain)


@lru_cache(maxsize=65536)  # the same generals are weighed again and again in a decision and the next
def _strength(rules: Any, name: str, troops: int, items: tuple[str, ...], open_plain: bool) -> int:
    return _core.general_strength(rules, name, troops, list(items), open_plain)


def army_strength(rules: Rules, generals: Iterable[Any], open_plain: bool) -> int:
    """CB-3: the sum of the fighting generals' strengths."""
    return sum(general_strength(rules, g, open_plain) for g in generals)


def ark_bonus(rules: Rules, defenders: Iterable[Any]) -> int:
    """CB-3, Ark: the defending side's bonus while its carrier defends the hex."""
    return rules.defence.ark if any(carries(g, ARK) for g in defenders) else 0


def invader_strength(rules: Rules, troops: Iterable[int]) -> int:
    """W-4: an invader pair fights as one side, each invader its strength plus its troops."""
    return _core.invader_strength(core_rules(rules), list(troops))


# settlements and sieges (ST-4, ST-8, CB-3)
def siege_rounds(state: PublicState, hex_id: int) -> int:
    """Whole rounds since the siege of the hex began (0 without a siege, and in its first round)."""
    return state.siege_rounds(hex_id)


def fortification(rules: Rules, settlement: Any, rounds_besieged: int, wall_cancelled: bool = False) -> int:
    """ST-4, ST-8: a Judge's city bonus or a wall's, melting with each round of siege (the last
    value holds after). Siege Weapons and Secret Passage (``wall_cancelled``) cancel a wall,
    never a city."""
    return _core.fortification(core_rules(rules), settlement.city, settlement.wall, rounds_besieged, wall_cancelled)


def is_open_plain(state: PublicState, hex_id: int) -> bool:
    """CB-3, War Chariot: a plain hex with no standing settlement on it."""
    return state.open_plain(hex_id)


def hex_defence(state: PublicState, hex_id: int, rounds_besieged: int | None = None,
                wall_cancelled: bool = False, attacker: int | None = None) -> tuple[int, int | None]:
    """CB-3 before the dice: (the defending strength, the defending side) of a hex against an
    attack by ``attacker`` (``View.hex_defence``)."""
    return state.hex_defence(hex_id, rounds_besieged, wall_cancelled, attacker)


# the dice (CB-3, CB-4)
def win_probability(attack: float, defence: float, dice: int = 1, sides: int = 6) -> float:
    """CB-3, CB-4: the chance that attack + ``dice`` dice beats defence + as many dice (each die
    of ``sides`` faces); a tie goes to the defender."""
    return _core.win_probability(attack, defence, dice, sides)


def strength_to_win(chance: float, defence: float, dice: int = 1, sides: int = 6) -> int:
    """CB-3, CB-4 read backwards: the smallest attack strength that beats ``defence`` with at
    least ``chance`` (one that always wins, when ``chance`` asks for more than certainty)."""
    return _core.strength_to_win(chance, defence, dice, sides)


def battle_losses(rules: Rules, loser_troops: int) -> int:
    """CB-6: the troops the winner of a battle loses: a share of the loser's (rounded down)."""
    return _core.battle_losses(core_rules(rules), loser_troops)


def plague_losses(rules: Rules, troops: int) -> int:
    """9.4: the troops a Plague's hit takes: half, rounded up (``plague.loss_share``)."""
    return _core.plague_losses(core_rules(rules), troops)


def plague_kills(rules: Rules, troops: int) -> bool:
    """9.4: whether a Plague's hit kills a general commanding ``troops`` instead of thinning them."""
    return _core.plague_kills(core_rules(rules), troops)


# coins (IN-1, CB-7)
def settlement_value(rules: Rules, settlement: Any, terrain_mod: int = 0) -> int:
    """IN-1: village or city, +2 per development, +-1 per Abundance/Famine on its terrain this
    round (``terrain_mod``); never below 0."""
    return _core.settlement_value(core_rules(rules), settlement.city, settlement.developments, terrain_mod)


def settlement_income(state: PublicState, sid: int) -> int:
    """IN-1: what the settlement is worth this round (before IN-2's sieges and IN-3's Tax)."""
    return state.settlement_income(sid)


def income_paid(state: PublicState, sid: int) -> int:
    """IN-1, IN-2: what the settlement pays in this round's Income, to its owner or to a taxer."""
    return state.income_paid(sid)


def tax_share(rules: Rules, paid: int) -> int:
    """IN-3: what a taxer takes from a settlement of the taxed region that pays ``paid``."""
    return _core.tax_share(core_rules(rules), paid)


def tax_gain(state: PublicState, region: str) -> int:
    """IN-1..IN-3: what taxing the region pays the taxer in this round's Income."""
    return state.tax_gain(region)


def loot(rules: Rules, settlement: Any) -> int:
    """CB-7: what a player razing the settlement takes: village or city, plus per development."""
    return _core.loot(core_rules(rules), settlement.city, settlement.developments)


# regions and titles (MP-2, MP-3, TI-1, V-2)
def region_settlements(state: PublicState, region: str, razed: int | None = None) -> list[int]:
    """The standing settlements of a region in this game (MP-2, MP-3), counting ``razed`` gone."""
    return [sid for sid in state.region_status(region).standing if sid != razed]


def can_hold_judge(state: PublicState, rules: Rules, region: str, razed: int | None = None) -> bool:
    """V-2, TI-1: a region needs at least 4 standing settlements to hold a Judge."""
    return enough_for_judge(rules, region_settlements(state, region, razed))


def enough_for_judge(rules: Rules, members: Sequence[int]) -> bool:
    """V-2, TI-1: whether a region of these standing settlements can hold a Judge."""
    return len(members) >= rules.victory.region_min_settlements


def standing_judge_regions(state: PublicState, razed: int | None = None) -> int:
    """V-2: the regions of this game that can still hold a Judge, counting ``razed`` gone."""
    return state.standing_judge_regions(razed)


def judge_owner(state: PublicState, region: str) -> int | None:
    """TI-2, W-1: the seat whose general holds the region's Judge title, if it is filled."""
    return state.region_status(region).judge_owner


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


def region_status(state: PublicState, region: str, seat: int) -> RegionStatus:
    return state.region_status(region, seat)


# the Prophet and the invaders (AN-2, W-3, W-5)
def prophet_carrier(state: PublicState, without: str | None = None) -> Any | None:
    """AN-2, W-3: the general carrying the earliest-drawn Prophet still in play (leaving out the
    general named ``without``, as if it were dead), or None."""
    return state.prophet_carrier(without)


def prophet_owner(state: PublicState, without: str | None = None) -> int | None:
    """AN-2, W-3: the seat that chooses the events' terrain and the invaders' first target."""
    return state.prophet_owner(without)


def next_on_ring(state: PublicState, after: int | None) -> int | None:
    """W-5: the next standing player-owned settlement along the ring after ``after``."""
    return state.invader_target(_Aim(after, None))


def reachable(state: PublicState, general: Any, passage: bool = False) -> dict[int, int]:
    """MV-1..MV-13: every hex the general can end a move on now, with the cost of its cheapest
    route (``View.reachable``)."""
    return state.reachable(general.name, passage)


def invader_target(state: PublicState, pair: Any) -> int | None:
    """W-3, W-5: the settlement a loose pair attacks in the next Combat: its first target while
    that is still a player's, else the next player-owned settlement along the ring."""
    return state.invader_target(pair)


@dataclass(frozen=True, slots=True)
class _Aim:
    at: int | None
    target: int | None
