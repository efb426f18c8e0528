"""The position evaluation the search strategies score their simulations with.

A seat's *worth* is a weighted sum of what it holds and what it is about to get or lose, read
from the public state with the engine's rule arithmetic. The core computes it
(core/agents/src/evaluation.rs, its one home, through ``View.seat_features`` and
``Table.position_value``: one crossing a call); this module holds its parameters and names its terms:

- ``vp``: victory points (V-1), the only thing that wins;
- ``titles``: Judge titles in reach (TI-1): per region that can still get a Judge and has none,
  the share of its standing settlements the seat owns, squared (the last settlement counts
  most), a bonus for a walled village of its own there (the Judge's city to be, 0.25) and another
  once it also owns the region whole (the title can be bought, 0.5);
- ``income``: what its settlements earn a round (IN-1), ``coins``: its purse (capped, so hoarding
  is not worth more than spending);
- ``army``: troops in its garrisons plus the fighting strength of its free generals (GN-1);
- ``settlements``: how many it owns, each counted by how firmly it is held: whole with a
  garrison, 0.6 when only a general of its own keeps it (the general is tied down), not at all
  with neither (ST-9: it falls unowned at the end of the phase); income and the regions' shares
  count them the same way;
- ``reach``: per free general, the best settlement it could take: the chance of winning there
  (CB-3, CB-4 against the settlement's defence; a free settlement is taken by walking in) times
  what the settlement is worth to the seat, discounted by 0.6 per Movement beyond the next that
  it needs to get there, counted in fractions (route cost over the general's moves, TR-1), so
  that every step toward a target is worth something;
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

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from plsim.strategy import View, WeightValues, outcome_value, param, value_of_margin

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

    @cached_property
    def values(self) -> WeightValues:
        """All ten, in field order, as the core reads them (``WeightValues``)."""
        return (self.vp, self.titles, self.income, self.coins, self.coin_cap, self.army, self.settlements, self.reach,
                self.threat, self.scale)

    @classmethod
    def of(cls, settings: dict[str, Any]) -> "Weights":
        return cls(settings["w_vp"], settings["w_titles"], settings["w_income"], settings["w_coins"],
                   settings["coin_cap"], settings["w_army"], settings["w_settlements"], settings["w_reach"],
                   settings["w_threat"], settings["scale"])


FEATURES = ("vp", "titles", "income", "coins", "army", "settlements", "reach", "threat")


def seat_features(view: View, seat: int, coin_cap: int, *, reach: bool = True, threat: bool = True) -> tuple[float, ...]:
    """The seat's terms of the worth, in ``FEATURES`` order (the purse capped at ``coin_cap``,
    the threat as a loss), from any seat's view of the position; ``reach`` or ``threat`` False
    leaves that term 0 uncomputed."""
    return view.seat_features(seat, coin_cap, reach, threat)


def seat_worth(view: View, seat: int, weights: Weights) -> float:
    """The seat's worth (module docstring), from any seat's view of the same position; a term of
    weight 0 is not computed."""
    return view.seat_worth(seat, weights.values)


def position_value(table: Any, seat: int, weights: Weights) -> float:
    """The value of a table's position for the seat, in (0, 1): ``value_of_margin`` of its worth
    minus the best rival's; the game's outcome (``outcome_value``) once it is over."""
    return table.position_value(seat, weights.values)


__all__ = ["EVALUATION_PARAMS", "FEATURES", "Weights", "outcome_value", "position_value", "seat_features", "seat_worth",
           "value_of_margin"]
