"""Head-to-head statistics: who finished ahead of whom, and paired "is A better than B?" tests.

Finishing order. In each game a seat's standing is (won the game, final VP): the winner is ahead
of everyone, and the others are ordered by their VP at the end (so when nobody won, VP alone
decides). Two seats with equal standing are tied.

Pairwise matrix. For strategies A and B, every game in which both sat gives one *meeting* per
pair of seats (a seat of A, a seat of B). ``share`` = (meetings A finished ahead + half the ties)
/ meetings, so share(A, B) + share(B, A) = 1. Its interval is the 95% Wilson interval of that
share over the meetings (meetings in the same game are not independent; read it as a guide).

Paired comparison (``plsim compare``). Game k is played twice on the same seed and seats, once
with A and once with B in the focal seat. The difference in win rate is (A-only wins - B-only
wins) / pairs; the p-value is McNemar's exact test (two-sided binomial test on the discordant
pairs) and the 95% interval is Newcombe's (1998, method 10) score interval for a difference of
paired proportions. Only ``math`` is used: no scipy.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Iterable, Sequence

import polars as pl

from plsim.stats.intervals import wilson_interval
from plsim.stats.tables import final_positions, seat_games

Frame = pl.DataFrame | pl.LazyFrame

PAIRWISE_COLUMNS = ("a", "b", "meetings", "a_ahead", "b_ahead", "ties", "share", "ci_low", "ci_high")
MATRIX_CORNER = "row_ahead_of_column"


def seat_outcomes(games: Frame, rounds: Frame) -> pl.DataFrame:
    """One row per game and seat: game, seat, strategy, won, final_vp (sorted by game, seat)."""
    finals = final_positions(rounds).with_columns(pl.col("seat").cast(pl.Int8))
    return (
        seat_games(games)
        .join(finals.select("game", "seat", "final_vp"), on=["game", "seat"], how="left")
        .with_columns(pl.col("final_vp").fill_null(0))
        .select("game", "seat", "strategy", "won", "final_vp")
        .sort("game", "seat")
    )


def _by_game(outcomes: pl.DataFrame) -> Iterable[list[tuple[str, bool, int]]]:
    """Each game's seats as (strategy, won, final_vp), in game order."""
    game_col = outcomes["game"].to_list()
    rows = list(zip(outcomes["strategy"].to_list(), outcomes["won"].to_list(), outcomes["final_vp"].to_list()))
    current, seats = None, []
    for game, row in zip(game_col, rows):
        if game != current and seats:
            yield seats
            seats = []
        current = game
        seats.append(row)
    if seats:
        yield seats


def pairwise_table(outcomes: pl.DataFrame, order: Sequence[str] | None = None) -> pl.DataFrame:
    """Every ordered pair (a, b) of distinct strategies that met: counts, share, 95% interval."""
    ahead: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])  # a ahead, b ahead, ties
    for seats in _by_game(outcomes):
        for i, (sa, wa, va) in enumerate(seats):
            for sb, wb, vb in seats[i + 1:]:
                if sa == sb:
                    continue
                ka, kb = (wa, va), (wb, vb)
                for x, y, kx, ky in ((sa, sb, ka, kb), (sb, sa, kb, ka)):
                    cell = ahead[(x, y)]
                    cell[0 if kx > ky else 1 if kx < ky else 2] += 1
    names = list(order) if order is not None else sorted({a for a, _ in ahead} | {b for _, b in ahead})
    rows = []
    for a in names:
        for b in names:
            if a == b or (a, b) not in ahead:
                continue
            wins, losses, ties = ahead[(a, b)]
            n = wins + losses + ties
            share = (wins + ties / 2) / n
            lo, hi = wilson_interval(wins + ties / 2, n)
            rows.append((a, b, n, wins, losses, ties, share, lo, hi))
    schema = {"a": pl.String, "b": pl.String, "meetings": pl.Int64, "a_ahead": pl.Int64,
              "b_ahead": pl.Int64, "ties": pl.Int64, "share": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def matrix_wide(pairs: pl.DataFrame, order: Sequence[str]) -> pl.DataFrame:
    """The share table as a square: row A, column B holds share(A ahead of B); diagonal empty."""
    share = {(a, b): s for a, b, s in pairs.select("a", "b", "share").iter_rows()}
    data: dict[str, list] = {MATRIX_CORNER: list(order)}
    for b in order:
        data[b] = [share.get((a, b)) for a in order]
    return pl.DataFrame(data, schema={MATRIX_CORNER: pl.String, **{b: pl.Float64 for b in order}})


# --- paired comparison ------------------------------------------------------------------------

def mcnemar_exact_p(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value: binomial(n = a_only + b_only, 1/2), doubled smaller tail."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    log_half_n = -n * math.log(2)
    tail = 0.0
    for i in range(k + 1):
        tail += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half_n)
    return min(1.0, 2 * tail)


def newcombe_paired_interval(both: int, a_only: int, b_only: int, neither: int,
                             confidence: float = 0.95) -> tuple[float, float]:
    """Newcombe's method-10 interval for p_A - p_B from paired binary outcomes."""
    n = both + a_only + b_only + neither
    if n == 0:
        return (-1.0, 1.0)
    p1, p2 = (both + a_only) / n, (both + b_only) / n
    l1, u1 = wilson_interval(both + a_only, n, confidence)
    l2, u2 = wilson_interval(both + b_only, n, confidence)
    denominator = (both + a_only) * (b_only + neither) * (both + b_only) * (a_only + neither)
    phi = 0.0 if denominator == 0 else (both * neither - a_only * b_only) / math.sqrt(denominator)
    d = p1 - p2
    dl = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    du = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (max(-1.0, d - dl), min(1.0, d + du))


@dataclass(frozen=True)
class PairedComparison:
    """A against B over paired games (same seed, same seat)."""

    a: str
    b: str
    pairs: int
    a_wins: int
    b_wins: int
    both: int  # pairs both won
    a_only: int
    b_only: int
    a_rate: float
    a_ci: tuple[float, float]
    b_rate: float
    b_ci: tuple[float, float]
    difference: float  # a_rate - b_rate
    difference_ci: tuple[float, float]
    p_value: float
    a_mean_vp: float | None = None
    b_mean_vp: float | None = None
    vp_difference: float | None = None  # mean of a_vp - b_vp over the pairs
    vp_difference_ci: tuple[float, float] | None = None  # normal 95% interval of that mean

    def to_dict(self) -> dict:
        return asdict(self)

    def verdict(self, alpha: float = 0.05) -> str:
        if self.pairs == 0:
            return "no paired games finished"
        if self.p_value >= alpha:
            return (f"no significant difference between {self.a} and {self.b} at the {alpha:.0%} level "
                    f"(p = {self.p_value:.3g})")
        better, worse = (self.a, self.b) if self.difference > 0 else (self.b, self.a)
        return f"{better} wins more often than {worse} (p = {self.p_value:.3g})"


def paired_comparison(a: str, b: str, a_won: Sequence[bool], b_won: Sequence[bool],
                      a_vp: Sequence[float] | None = None, b_vp: Sequence[float] | None = None) -> PairedComparison:
    """Win rates with Wilson intervals, their difference with Newcombe's interval, McNemar's p."""
    if len(a_won) != len(b_won):
        raise ValueError(f"paired outcomes differ in length: {len(a_won)} and {len(b_won)}")
    n = len(a_won)
    both = sum(1 for x, y in zip(a_won, b_won) if x and y)
    a_only = sum(1 for x, y in zip(a_won, b_won) if x and not y)
    b_only = sum(1 for x, y in zip(a_won, b_won) if y and not x)
    neither = n - both - a_only - b_only
    a_wins, b_wins = both + a_only, both + b_only
    mean = (lambda xs: sum(xs) / len(xs) if xs else None)
    vp_diff = vp_ci = None
    if a_vp is not None and b_vp is not None and n:
        diffs = [x - y for x, y in zip(a_vp, b_vp)]
        vp_diff = sum(diffs) / n
        sd = math.sqrt(sum((d - vp_diff) ** 2 for d in diffs) / (n - 1)) if n > 1 else float("inf")
        half = 1.959964 * sd / math.sqrt(n)
        vp_ci = (vp_diff - half, vp_diff + half)
    return PairedComparison(
        a, b, n, a_wins, b_wins, both, a_only, b_only,
        a_wins / n if n else 0.0, wilson_interval(a_wins, n),
        b_wins / n if n else 0.0, wilson_interval(b_wins, n),
        (a_only - b_only) / n if n else 0.0,
        newcombe_paired_interval(both, a_only, b_only, neither),
        mcnemar_exact_p(a_only, b_only),
        mean(list(a_vp)) if a_vp is not None else None,
        mean(list(b_vp)) if b_vp is not None else None,
        vp_diff, vp_ci,
    )


__all__ = [
    "MATRIX_CORNER", "PAIRWISE_COLUMNS", "PairedComparison", "matrix_wide", "mcnemar_exact_p",
    "newcombe_paired_interval", "paired_comparison", "pairwise_table", "seat_outcomes",
]
