"""The position evaluation the search strategies score their simulations with.

A seat's *worth* is a weighted sum of what it holds and what it is about to get or lose, read
from the public state with the engine's rule arithmetic (the ``View``'s methods and the functions
``plsim.strategy`` exports; no rule is computed here a second time):

- ``vp``: victory points (V-1), the only thing that wins;
- ``titles``: Judge titles in reach (TI-1): per region that can still get a Judge and has none,
  the share of its standing settlements the seat owns, squared (the last settlement counts
  most), and a bonus once it owns the region whole with a walled village (the title can be
  bought);
- ``income``: what its settlements earn a round (IN-1), ``coins``: its purse (capped, so hoarding
  is not worth more than spending);
- ``army``: troops in its garrisons plus the fighting strength of its free generals (GN-1);
- ``settlements``: how many it owns, each counted by how firmly it is held: whole with a
  garrison, partly when only a general of its own keeps it (the general is tied down), not at all
  with neither (ST-9: it falls unowned at the end of the phase); income and the regions' shares
  count them the same way;
- ``reach``: per free general, the best settlement it could take: the chance of winning there
  (CB-3, CB-4 against the settlement's defence; a free settlement is taken by walking in) times
  what the settlement is worth to the seat, discounted by ``REACH_DECAY`` per Movement beyond
  the next that it needs to get there, counted in fractions (route cost over the general's
  moves, TR-1), so that every step toward a target is worth something;
- ``threat``: per settlement of the seat, the chance that the strongest rival general within
  one move, or an invader pair aimed at it (W-3, W-5), wins there, times its worth (subtracted).

The *value* of a position for a seat is its chance of winning as the evaluation reads it: its
worth minus the best rival's, through a logistic of ``scale`` shifted so that a seat level with
its best rival has 1 in n (``value_of_margin``); a finished game is 1 for a sole winner, 1/k for
one of k tied winners and 0 otherwise. Every weight is a strategy parameter
(``EVALUATION_PARAMS``). The defaults are fitted to who wins: the weights under which this value
is the most likely chance of winning, at the first decision of every phase of 600 games of the
strategies that do not search, drawn at random into the seats (``scripts/fit_evaluation.py``,
maximum likelihood; its held-out log-loss is printed beside the hand-set weights').
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from plsim.strategy import NO_ROUTE, PROPHET, View, carries, general_moves, invader_strength, param, settlement_value

EVALUATION_PARAMS: dict[str, Any] = {
    "w_vp": param(5.006, 0, 1000, "evaluation: weight of a victory point"),
    "w_titles": param(2.914, 0, 1000, "evaluation: weight of a Judge title in reach (a whole region owned = 1)"),
    "w_income": param(0.0, 0, 1000, "evaluation: weight of a coin of income a round"),
    "w_coins": param(0.0, 0, 1000, "evaluation: weight of a coin in the purse (up to coin_cap)"),
    "coin_cap": param(30, 0, 1000, "evaluation: coins beyond this are worth nothing more"),
    "w_army": param(0.029, 0, 1000, "evaluation: weight of a troop or a point of general strength"),
    "w_settlements": param(0.0, 0, 1000, "evaluation: weight of an owned settlement"),
    "w_reach": param(0.314, 0, 1000, "evaluation: weight of a settlement a free general could take next"),
    "w_threat": param(0.162, 0, 1000, "evaluation: weight of a settlement a rival or invader could take"),
    "scale": param(4.0, 0.01, 1000, "evaluation: a worth margin over the best rival of this much multiplies the odds of winning by e"),
}
TITLE_READY_BONUS = 0.5  # a whole region with a walled village: the title is one purchase away
WALLED_BONUS = 0.25  # a walled village of its own in a region still open: the Judge's city to be (TI-1)
GENERAL_HOLD = 0.6  # a settlement held by a general alone counts this much of one with a garrison
REACH_DECAY = 0.6  # a target one more Movement away is worth this much less


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, from a strategy's settings."""

    vp: float
    titles: float
    income: float
    coins: float
    coin_cap: int
    army: float
    settlements: float
    reach: float
    threat: float
    scale: float

    @property
    def vector(self) -> tuple[float, ...]:
        """The weights in ``FEATURES`` order."""
        return (self.vp, self.titles, self.income, self.coins, self.army, self.settlements, self.reach, self.threat)

    @classmethod
    def of(cls, settings: dict[str, Any]) -> "Weights":
        return cls(settings["w_vp"], settings["w_titles"], settings["w_income"], settings["w_coins"],
                   settings["coin_cap"], settings["w_army"], settings["w_settlements"], settings["w_reach"],
                   settings["w_threat"], settings["scale"])


def _holds(view: View, seat: int) -> dict[int, float]:
    """How firmly the seat holds each of its standing settlements: 1 with a garrison, GENERAL_HOLD
    with only a free general of its own there (tied down to keep it), 0 with neither (ST-9: it
    becomes unowned at the end of the phase)."""
    guarded = {g.hex for g in view.generals.values() if g.owner == seat and g.captor is None}
    return {st.id: 1.0 if st.garrison else GENERAL_HOLD if st.hex in guarded else 0.0
            for st in view.settlements if st.standing and st.owner == seat}


def _region_worth(view: View, seat: int, holds: dict[int, float]) -> tuple[float, dict[int, float]]:
    """Titles in reach, and what each settlement of a region still open to a Judge is worth to
    the seat (1 plus twice the share of the region it already holds)."""
    reach = 0.0
    worth: dict[int, float] = {}
    for name in view.regions:
        status = view.region_status(name, seat)
        if not status.can_hold or status.city is not None or not status.standing:
            continue
        share = sum(holds[sid] for sid in status.mine) / len(status.standing)
        reach += share * share
        if any(holds[sid] for sid in status.my_walled):
            reach += WALLED_BONUS + (TITLE_READY_BONUS if not status.missing else 0.0)
        for sid in status.standing:
            worth[sid] = 1.0 + 2.0 * share
    return reach, worth


def _reach(view: View, seat: int, worth: dict[int, float]) -> float:
    """Per free general, its best target: a settlement it does not own, worth its chance of
    winning there (1 for a free one) times its worth, times REACH_DECAY to the power of the
    Movements beyond the next that the general needs to get there (TR-1 route cost over its
    moves, a fraction: every step closer counts)."""
    board = view.board
    targets = [(st, board.route_costs_to(st.hex), worth.get(st.id, 1.0))
               for st in view.settlements if st.standing and st.owner != seat]
    defences: dict[int, tuple[int, bool]] = {}  # looked up only for targets that could be a general's best

    def defence_of(st: Any) -> tuple[int, bool]:
        if st.id not in defences:
            defence, side = view.hex_defence(st.hex, attacker=seat)
            defences[st.id] = (defence, side is None)
        return defences[st.id]

    total = 0.0
    for general in view.generals.values():
        if general.owner != seat or general.captor is not None:
            continue
        moves = general_moves(general.name)
        strength = view.general_strength(general)
        peaceful = carries(general, PROPHET)  # MV-7: a Prophet's carrier enters no hostile hex
        here = general.hex
        best = 0.0
        for st, routes, value in targets:
            cost = routes[here]
            if cost >= NO_ROUTE:
                continue
            bound = value * REACH_DECAY ** max(0.0, cost / moves - 1.0)
            if bound <= best:
                continue  # even a sure win there would not beat the best so far
            defence, free = defence_of(st)
            if not free and peaceful:
                continue
            best = max(best, bound if free else bound * view.win_probability(strength, defence))
        total += best
    return total


def _threat(view: View, seat: int, worth: dict[int, float]) -> float:
    """Per settlement of the seat, the chance the strongest rival general in reach or an invader
    pair aimed at it takes it, times its worth."""
    board = view.board
    mine = [st for st in view.settlements if st.standing and st.owner == seat]
    if not mine:
        return 0.0
    rivals = [(g, general_moves(g.name), view.general_strength(g)) for g in view.generals.values()
              if g.owner != seat and g.owner is not None and g.captor is None and not carries(g, PROPHET)]
    invaders: dict[int, int] = {}
    for pair in view.pairs:
        target = view.invader_target(pair)
        if target is not None:
            invaders[target] = invaders.get(target, 0) + invader_strength(view.rules, pair.troops)
    total = 0.0
    for st in mine:
        defence = view.hex_defence(st.hex)[0]
        routes = board.route_costs_to(st.hex)
        attack = max((strength for g, moves, strength in rivals if routes[g.hex] <= moves), default=0)
        attack = max(attack, invaders.get(st.id, 0))
        if attack:
            total += view.win_probability(attack, defence) * worth.get(st.id, 1.0)
    return total


FEATURES = ("vp", "titles", "income", "coins", "army", "settlements", "reach", "threat")


def seat_features(view: View, seat: int, coin_cap: int, *, reach: bool = True, threat: bool = True) -> tuple[float, ...]:
    """The seat's terms of the worth, in ``FEATURES`` order (the purse capped at ``coin_cap``,
    the threat as a loss); ``reach`` or ``threat`` False leaves that term 0 uncomputed."""
    rules = view.rules
    holds = _holds(view, seat)
    titles, worth = _region_worth(view, seat, holds)
    income = settlements = 0.0
    garrison = 0
    for sid, hold in holds.items():
        st = view.settlements[sid]
        settlements += hold
        garrison += st.garrison
        income += hold * settlement_value(rules, st)
    strength = sum(view.general_strength(g) for g in view.generals.values() if g.owner == seat and g.captor is None)
    return (float(view.vp(seat)), titles, income, float(min(view.coins(seat), coin_cap)), float(garrison + strength),
            settlements, _reach(view, seat, worth) if reach else 0.0, -_threat(view, seat, worth) if threat else 0.0)


def seat_worth(view: View, seat: int, weights: Weights) -> float:
    """The seat's worth (module docstring), from any seat's view of the same position."""
    terms = seat_features(view, seat, weights.coin_cap, reach=bool(weights.reach), threat=bool(weights.threat))
    return sum(w * t for w, t in zip(weights.vector, terms))


def outcome_value(result: Any, seat: int) -> float:
    """A finished game: 1 for a sole winner, 1/k for one of k tied winners, 0 otherwise."""
    winners = tuple(result.winners or ())
    return 1.0 / len(winners) if seat in winners else 0.0


def value_of_margin(margin: float, scale: float, players: int) -> float:
    """A seat's chance of winning read off its worth minus the best rival's: the logistic of
    ``margin / scale`` shifted so that a seat level with its best rival has 1 in ``players``
    (``1 / (1 + (players - 1) * exp(-margin / scale))``)."""
    return 1.0 / (1.0 + (players - 1) * math.exp(-margin / scale))


def position_value(table: Any, seat: int, weights: Weights) -> float:
    """The value of a table's position for the seat, in (0, 1): ``value_of_margin`` of its worth
    minus the best rival's; the game's outcome once it is over."""
    if table.over:
        return outcome_value(table.result, seat)
    view = table.view(seat)
    worths = [seat_worth(view, s, weights) for s in range(view.n_players)]
    mine = worths[seat]
    best_rival = max(w for s, w in enumerate(worths) if s != seat)
    return value_of_margin(mine - best_rival, weights.scale, view.n_players)
