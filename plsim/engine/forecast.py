"""What a pair of invaders would do: its path along the ring played on copies of the game.

A strategy weighing a release (or bracing for a loose pair) asks where the pair would go, whom it
would raze and whether the land would collapse. Rather than re-deriving W-4, W-5, CB-3..CB-7 and
V-2, ``invader_path`` plays the pair's attacks on a clone with the engine's own steps — the
battle, its dice, the attrition, the raze with its titles and Tabernacle, the jump to the next
settlement — Combat after Combat, with nobody else acting between them but for the troops the
caller says a victim buys (``buy``) before it is struck. Battle cards are passed, and the
Sandstorm (CB-1, one round's event) is left out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from plsim.engine.arithmetic import invader_strength, invader_target, standing_judge_regions
from plsim.engine.combat import invaders_attack
from plsim.engine.options import PASS, Buy, Purchase
from plsim.engine.phases import buy as apply_buy
from plsim.engine.phases import troop_offered
from plsim.engine.state import InvaderPair
from plsim.engine.steps import Step
from plsim.engine.table import Table

FORECAST_INVADER = "forecast invader"  # the names of a pair that exists only in a forecast


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
    """The attacks of one pair, played on a clone of ``table`` with dice from ``rng``: the loose
    pair named ``pair`` (its invaders' names), or a new pair of the rule's troops aimed first at
    ``first`` (W-3). At most ``steps`` attacks; before each, up to ``buy(sid, step)`` troops are
    bought for the settlement struck, as far as Acquisitions would offer them (ST-10). The
    other loose pairs are left out, so the path is this pair's alone."""
    copy = table.clone()
    copy.rng = random.Random(rng.getrandbits(64))
    s = copy.state
    s.pending.clear()
    s.battle = None
    s.storm = False
    if pair is None:
        invaders = copy.rules.invaders
        # named apart from the pool's cards: the pool may be empty while a pair is being let loose
        names = tuple(f"{FORECAST_INVADER} {i + 1}" for i in range(invaders.per_pair))
        loose = InvaderPair(list(names), [invaders.troops] * len(names), target=first)
    else:
        names = pair
        loose = next(p for p in s.pairs if tuple(p.names) == names)
    s.pairs[:] = [loose]
    strikes: list[InvaderStrike] = []
    collapsed = False
    for step_no in range(steps):
        target = invader_target(s, copy.board, loose)
        if target is None:
            break
        owner = s.settlements[target].owner
        if buy is not None:
            _buy_troops(copy, owner, target, buy(target, step_no))
        strength = invader_strength(copy.rules, loose.troops)
        s.pending.append(Step(invaders_attack, ((names,),)))
        _play_out(copy)
        razed = not s.settlements[target].standing
        strikes.append(InvaderStrike(target, owner, strength, razed))
        if not razed:
            break
        if standing_judge_regions(s, copy.board, copy.rules) < copy.rules.victory.min_judge_regions:
            collapsed = True
            break
    return InvaderPath(tuple(strikes), collapsed)


def _buy_troops(copy: Table, seat: int, sid: int, wanted: int) -> None:
    """Up to ``wanted`` troops for ``sid``, each while Acquisitions offers it (coins, the garrison
    limit, sieges) and paid as there."""
    troop = Buy(Purchase.TROOP, sid)
    for _ in range(wanted):
        if not troop_offered(copy, seat, sid):
            return
        apply_buy(copy, seat, troop)


def _play_out(copy: Table) -> None:
    """Run the pending work to its end, passing (or taking the first option) where asked."""
    pending = copy.state.pending
    while pending:
        copy._run()
        decision = copy.decision
        if decision is not None:
            options = decision.options
            copy._answer_at(options.index(PASS) if PASS in options else 0)
