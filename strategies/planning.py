"""What the scripted strategies plan with that is strategy, not rule: the targets of the
movement plan, the distances from its generals, and what a settlement is worth keeping.

The rule arithmetic under every estimate (strengths, defences, odds, loot, region status, route
costs) is the engine's own: the ``View`` offers it on its state and ``plsim.strategy``
re-exports the rest, so a strategy never keeps a copy of a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import is_, truediv
from typing import Any, Sequence

from plsim.strategy import NO_ROUTE, View

INF = NO_ROUTE  # farther than any route, and below any score


@dataclass(slots=True)
class Target:
    """A settlement worth sending generals to, ranked for the movement plan."""

    sid: int
    hex: int
    priority: float
    hostile: bool
    need: int = 0  # attack strength wanted (before dice)
    slots: int = 1  # generals wanted there


def new_table(view: View) -> dict:
    """An empty table of plan knowledge, filled as it is asked for (a ``make`` for ``known``)."""
    return {}


def offered(choice: Any, options: tuple) -> bool:
    """Whether ``choice`` is among ``options``: the very object first, in C, then an equal one."""
    return any(map(is_, options, repeat(choice))) or choice in options


def raze_gain_and_keep(view: View, st) -> tuple[int, float]:
    """(the loot razing ``st`` pays, CB-7; what keeping it is worth), so policies differ only in
    the extra reasons they weigh."""
    keep = 2.0 + 4.0 * st.developments + (3.0 if st.city else 0.0) + (2.0 if st.wall else 0.0)
    return view.loot(st.id), keep


def nearest(view: View, hexes: Sequence[int], spots: Sequence[tuple[int, int]],
            moves: Sequence[int] | None = None) -> list[tuple[tuple[int, int], float]]:
    """Each of ``spots`` ((id, hex) pairs) with its TR-1 route cost from the nearest of ``hexes``,
    or with ``moves`` (one per hex) the fewest rounds of marching (cost / moves)."""
    if not hexes:
        return []
    routes = view.board.route_costs_to
    if moves is None:
        return [(spot, min(map(routes(spot[1]).__getitem__, hexes))) for spot in spots]
    return [(spot, min(map(truediv, map(routes(spot[1]).__getitem__, hexes), moves))) for spot in spots]
