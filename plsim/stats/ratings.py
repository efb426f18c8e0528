"""Skill ratings per strategy from finishing orders, with openskill's Plackett-Luce model.

Every game is one multi-player match: seats are ranked by (won, final VP), the winner first,
ties sharing a rank (see ``plsim.stats.compare``). Games are rated in game-index order; a
tournament interleaves its tables, so the order mixes line-ups evenly.

A strategy that holds two seats of one game (tournaments with fewer strategies than seats) is
rated as if it had played the two seats' matches one after the other: its mu moves by the sum
of both seats' changes and its variance shrinks by the product of both factors.

Each rating has ``mu`` (the estimate), ``sigma`` (its uncertainty) and ``ordinal`` = mu - 3 sigma,
a conservative score to sort by.
"""

from __future__ import annotations

import math
from collections import Counter

import polars as pl

from plsim.stats.compare import _by_game

RATING_COLUMNS = ("strategy", "mu", "sigma", "ordinal", "games", "seat_games")


def _ranks(keys: list[tuple[bool, int]]) -> list[int]:
    """1 for the best standing; equal standings share a rank."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rate_strategies(outcomes: pl.DataFrame) -> pl.DataFrame:
    """Plackett-Luce ratings from ``seat_outcomes`` rows, best ordinal first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, object] = {}
    games: Counter[str] = Counter()
    seat_games: Counter[str] = Counter()
    for seats in _by_game(outcomes):
        names = [s for s, _, _ in seats]
        for name in names:
            if name not in ratings:
                ratings[name] = model.rating(name=name)
        seat_games.update(names)
        games.update(set(names))
        if len(seats) < 2:
            continue
        ranks = _ranks([(bool(w), int(v)) for _, w, v in seats])
        new = model.rate([[ratings[n]] for n in names], ranks=ranks)
        for name in set(names):
            old = ratings[name]
            places = [i for i, n in enumerate(names) if n == name]
            mu = old.mu + sum(new[i][0].mu - old.mu for i in places)
            variance = old.sigma ** 2
            for i in places:
                variance *= (new[i][0].sigma / old.sigma) ** 2
            ratings[name] = model.rating(mu=mu, sigma=math.sqrt(variance), name=name)
    rows = [(n, r.mu, r.sigma, r.ordinal(), games[n], seat_games[n]) for n, r in ratings.items()]
    schema = {"strategy": pl.String, "mu": pl.Float64, "sigma": pl.Float64, "ordinal": pl.Float64,
              "games": pl.Int64, "seat_games": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row").sort(["ordinal", "strategy"], descending=[True, False])


__all__ = ["RATING_COLUMNS", "rate_strategies"]
