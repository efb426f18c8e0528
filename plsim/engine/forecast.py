"""What a pair of invaders would do: its path along the ring played on a copy of the game.

A strategy weighing a release (or bracing for a loose pair) asks where the pair would go, whom it
would raze and whether the land would collapse. The core plays the pair's attacks on a copy with
its own steps — the battle, its dice, the attrition, the raze with its titles and Tabernacle, the
jump to the next settlement — Combat after Combat, with nobody else acting between them but for
the troops the caller says a victim buys (``buy``) before it is struck. Battle cards are passed,
and the Sandstorm (CB-1, one round's event) is left out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from plsim.engine.table import Table


@dataclass(frozen=True, slots=True)
class InvaderStrike:
    """One attack of the pair: where, whose, with what strength (W-4), and whether it razed."""

    sid: int
    owner: int
    strength: int
    razed: bool


@dataclass(frozen=True, slots=True)
class InvaderPath:
    """A pair's attacks in order, and whether the last raze collapsed the land (V-2)."""

    strikes: tuple[InvaderStrike, ...]
    collapsed: bool


def invader_path(table: Table, rng: random.Random, *, first: int | None = None, pair: tuple[str, ...] | None = None,
                 steps: int = 8, buy: Callable[[int, int], int] | None = None) -> InvaderPath:
    """The attacks of one pair, played on a copy of ``table`` with dice from a generator seeded
    by ``rng.getrandbits(64)``: the loose pair named ``pair`` (its invaders' names), or a new
    pair of the rule's troops aimed first at ``first`` (W-3). At most ``steps`` attacks; before
    each, up to ``buy(sid, step)`` troops are bought for the settlement struck, as far as
    Acquisitions would offer them (ST-10). The other loose pairs are left out."""
    strikes, collapsed = table.core.invader_path(rng.getrandbits(64), first, list(pair) if pair else None, steps, buy)
    return InvaderPath(tuple(InvaderStrike(*s) for s in strikes), collapsed)
