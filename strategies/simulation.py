"""What the search strategies share: the default policy that plays the other decisions of a
simulation, and playing to a horizon.

Every simulation starts from ``view.determinise(rng)``: a copy of the game in which the other
hands, the deck's order and the future dice are dealt anew, from a sorted pile of the unseen
cards, so that one generator and one information set give one world (and one answer).
"""

from __future__ import annotations

import random
from typing import Any

from plsim.strategy import Decision, Strategy, StrategyParamError
from plsim.strategy.registry import StrategyLoadError, resolve

TIME_BUDGET_NOTE = "a millisecond budget makes it depend on the machine's speed: not repeatable"


def policy_class(name: str, owner: str, parameter: str = "policy") -> type[Strategy]:
    """The strategy class named as a default policy (or a plan to follow, by ``parameter``);
    refused (before any game) if it is unknown or searches itself."""
    try:
        cls = resolve(name).cls
    except StrategyLoadError as exc:
        raise StrategyParamError(f"strategy {owner!r}: parameter {parameter}={name!r}: {exc}") from None
    if getattr(cls, "searches", False):
        raise StrategyParamError(f"strategy {owner!r}: parameter {parameter}={name!r} searches itself; "
                                 "a default policy or a plan must be a strategy that answers at once")
    return cls


class Policies:
    """One default-policy instance per seat, for one simulation, with their own generators; with
    ``rivals``, that class plays every seat but ``seat`` (a search's model of the others)."""

    def __init__(self, cls: type[Strategy], players: int, rng: random.Random,
                 rivals: type[Strategy] | None = None, seat: int | None = None) -> None:
        self.players = [(cls if rivals is None or s == seat else rivals)(s, random.Random(rng.getrandbits(64)))
                        for s in range(players)]

    def answer(self, table: Any, decision: Decision) -> Any:
        return self.players[decision.seat].choose(table.view(decision.seat), decision)


def within_horizon(table: Any, last_round: int) -> bool:
    """A decision is pending and its round is not beyond ``last_round``."""
    return table.decision is not None and table.round <= last_round


def play_out(table: Any, policies: Policies, last_round: int, cap: int) -> int:
    """Answer every decision with the default policy until the game ends, ``last_round`` is over
    or ``cap`` decisions were played; returns how many were."""
    played = 0
    while played < cap and within_horizon(table, last_round):
        table.apply(policies.answer(table, table.decision))
        played += 1
    return played
