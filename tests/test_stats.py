"""Win rates, intervals and counting rules of the balance tables."""

from dataclasses import dataclass, field

import polars as pl
import pytest

from plsim.runfolder import GAMES_SCHEMA, GameRecord, fault_row, games_frame, rounds_frame
from plsim.stats import (
    end_reasons, fault_games, seat_strategy_summary, seat_summary, seats_table, strategy_summary, wilson_interval,
)
from plsim.stats.intervals import newcombe_interval


@dataclass
class Result:
    """A stand-in for the engine's GameResult with just the fields the frames read."""

    winner: int | None
    end_reason: str
    rounds: int
    final_vp: tuple[int, ...]
    final_coins: tuple[int, ...]
    decisions: int = 10
    final_wrath: int = 4
    pairs_released: int = 0
    settlements_razed: int = 0
    first_judge_round: int | None = None
    first_king_round: int | None = None
    round_rows: list[tuple] = field(default_factory=list)

    def __post_init__(self):
        """Rows for every round and seat; VP and coins climb to the final values."""
        for r in range(1, self.rounds + 1):
            for seat, (vp, coins) in enumerate(zip(self.final_vp, self.final_coins)):
                scale = r / self.rounds
                self.round_rows.append((
                    r, seat, round(vp * scale), round(coins * scale), 2, 1, 0, 0, 0, 3, 2, 1, 0,
                    0, False, False, 4, r, 0,
                ))


def frames(*games):
    """games/rounds frames from (seats, Result) pairs, game indices in order."""
    records = [GameRecord(i, 1000 + i, "test", seats, res, 0.5) for i, (seats, res) in enumerate(games)]
    return games_frame(records), rounds_frame(records)


@pytest.mark.parametrize(
    ("wins", "n", "expected"),
    [
        (50, 100, (0.4038, 0.5962)),
        (0, 10, (0.0, 0.2775)),
        (10, 10, (0.7225, 1.0)),
        (1, 10, (0.0179, 0.4042)),
    ],
)
def test_wilson_interval_matches_published_values(wins, n, expected):
    low, high = wilson_interval(wins, n)
    assert (round(low, 4), round(high, 4)) == expected


def test_wilson_interval_other_confidence_and_empty_sample():
    low, high = wilson_interval(50, 100, confidence=0.99)
    assert (round(low, 4), round(high, 4)) == (0.3753, 0.6247)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_wilson_interval_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(1, 10, confidence=1.5)


def test_a_strategy_in_two_seats_counts_two_seat_games():
    games, rounds = frames(
        (("a", "a", "b"), Result(1, "victory", 5, (1, 3, 0), (10, 20, 30))),
        (("a", "b", "a"), Result(1, "victory", 7, (2, 3, 1), (40, 50, 60))),
    )
    summary = strategy_summary(games, rounds)
    a = summary.filter(pl.col("strategy") == "a").row(0, named=True)
    b = summary.filter(pl.col("strategy") == "b").row(0, named=True)
    assert (a["games"], a["wins"]) == (4, 1)
    assert (b["games"], b["wins"]) == (2, 1)
    assert a["win_rate"] == pytest.approx(0.25)
    assert (a["ci_low"], a["ci_high"]) == pytest.approx(wilson_interval(1, 4))
    assert a["mean_final_vp"] == pytest.approx((1 + 3 + 2 + 1) / 4)
    assert a["mean_final_coins"] == pytest.approx((10 + 20 + 40 + 60) / 4)
    assert a["mean_rounds_won"] == pytest.approx(5.0)  # a won game 0 only, from seat 1
    assert b["mean_rounds_won"] == pytest.approx(7.0)
    assert b["mean_final_vp"] == pytest.approx(1.5)
    assert summary["strategy"].to_list() == ["b", "a"]


def test_draws_and_games_without_winner_are_not_wins():
    games, rounds = frames(
        (("a", "b"), Result(None, "draw", 3, (2, 2), (5, 5))),
        (("a", "b"), Result(0, "draw", 3, (2, 2), (5, 5))),
        (("a", "b"), Result(None, "collapse", 4, (0, 1), (1, 1))),
        (("a", "b"), Result(0, "victory", 6, (3, 1), (9, 9))),
    )
    summary = strategy_summary(games, rounds)
    assert dict(zip(summary["strategy"], summary["wins"])) == {"a": 1, "b": 0}
    assert dict(zip(summary["strategy"], summary["games"])) == {"a": 4, "b": 4}
    reasons = end_reasons(games)
    assert reasons["end_reason"].to_list() == ["victory", "draw", "collapse", "round_limit"]
    assert reasons["games"].to_list() == [1, 2, 1, 0]
    assert reasons["share"].to_list() == pytest.approx([0.25, 0.5, 0.25, 0.0])


def test_seat_summary_counts_occupied_seats_only():
    games, _ = frames(
        (("a", "b"), Result(1, "victory", 3, (0, 3), (1, 1))),
        (("a", "b", "c"), Result(2, "victory", 3, (0, 0, 3), (1, 1, 1))),
        (("a", "b", "c"), Result(1, "victory", 3, (0, 3, 0), (1, 1, 1))),
    )
    seats = seat_summary(games)
    assert seats["seat"].to_list() == [0, 1, 2]
    assert seats["games"].to_list() == [3, 3, 2]
    assert seats["wins"].to_list() == [0, 2, 1]
    assert seats["win_rate"].to_list() == pytest.approx([0.0, 2 / 3, 0.5])


def test_final_values_come_from_each_seats_last_round_even_when_rows_are_shuffled():
    games, rounds = frames((("a", "b"), Result(0, "victory", 4, (3, 1), (8, 2))))
    summary = strategy_summary(games, rounds.sample(fraction=1.0, shuffle=True, seed=3))
    assert dict(zip(summary["strategy"], summary["mean_final_vp"])) == {"a": 3.0, "b": 1.0}


def test_tables_accept_lazy_frames():
    games, rounds = frames((("a", "b"), Result(0, "victory", 2, (3, 1), (8, 2))))
    eager = strategy_summary(games, rounds)
    assert strategy_summary(games.lazy(), rounds.lazy()).equals(eager)
    assert end_reasons(games.lazy()).equals(end_reasons(games))


def test_seat_strategy_rows_and_fair_shares_at_mixed_player_counts():
    games, _ = frames(
        (("a", "b"), Result(1, "victory", 3, (0, 3), (1, 1))),
        (("b", "a", "c", "d"), Result(2, "victory", 3, (0, 0, 3, 0), (1, 1, 1, 1))),
        (("a", "b", "c", "d"), Result(0, "victory", 3, (3, 0, 0, 0), (1, 1, 1, 1))),
    )
    by_seat = seat_summary(games)
    assert by_seat["strategy"].to_list() == ["all"] * 4
    assert by_seat["fair_share"].to_list() == pytest.approx([(1 / 2 + 1 / 4 + 1 / 4) / 3] * 2 + [1 / 4] * 2)
    rows = {(r["seat"], r["strategy"]): r for r in seat_strategy_summary(games).iter_rows(named=True)}
    assert (rows[(0, "a")]["games"], rows[(0, "a")]["wins"]) == (2, 1)
    assert (rows[(1, "b")]["games"], rows[(1, "b")]["wins"]) == (2, 1)
    assert rows[(0, "a")]["fair_share"] == pytest.approx((1 / 2 + 1 / 4) / 2)
    both = seats_table(games)
    assert both.height == by_seat.height + len(rows)
    assert both.head(4).equals(by_seat)
    summary = strategy_summary(games, frames()[1])
    assert dict(zip(summary["strategy"], summary["fair_share"])) == pytest.approx(
        {"a": (1 / 2 + 1 / 4 + 1 / 4) / 3, "b": (1 / 2 + 1 / 4 + 1 / 4) / 3, "c": 1 / 4, "d": 1 / 4})


def test_games_stopped_by_a_fault_count_nowhere():
    games, rounds = frames(
        (("a", "b"), Result(0, "victory", 4, (3, 1), (8, 2))),
        (("a", "b"), Result(1, "victory", 6, (1, 3), (8, 2))),
    )
    faulted = pl.DataFrame([fault_row(2, 7, "test", ("a", "b"))], schema=list(GAMES_SCHEMA), orient="row").cast(GAMES_SCHEMA)
    with_fault = pl.concat([games, faulted])
    assert fault_games(with_fault) == 1 and fault_games(games) == 0
    assert strategy_summary(with_fault, rounds).equals(strategy_summary(games, rounds))
    assert seats_table(with_fault).equals(seats_table(games))
    assert end_reasons(with_fault).equals(end_reasons(games))
    assert "fault" not in end_reasons(with_fault)["end_reason"].to_list()


@pytest.mark.parametrize("a, n_a, b, n_b", [
    (0, 10, 0, 10), (10, 10, 0, 10), (3, 17, 9, 20), (0, 1, 1, 1), (55, 120, 40, 300), (1, 2000, 1999, 2000),
])
def test_newcombe_interval_equals_statsmodels(a, n_a, b, n_b):
    """cards.csv's differences come from scipy alone; statsmodels (a test dependency) agrees."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    expected = confint_proportions_2indep(a, n_a, b, n_b, method="newcomb", compare="diff")
    assert newcombe_interval(a, n_a, b, n_b) == pytest.approx(tuple(map(float, expected)), abs=1e-12)


def test_wilson_interval_in_closed_form_equals_scipys_over_a_grid():
    """Issue 60: the report computes Wilson's interval itself (no scipy import); it is scipy's."""
    from scipy import stats

    for n in (1, 2, 3, 7, 10, 40, 97, 1000, 123457):
        for successes in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            for confidence in (0.8, 0.95, 0.99):
                ci = stats.binomtest(successes, n).proportion_ci(confidence, method="wilson")
                want = (0.0 if successes == 0 else max(0.0, ci.low), 1.0 if successes == n else min(1.0, ci.high))
                assert wilson_interval(successes, n, confidence) == pytest.approx(want, abs=1e-12), (successes, n)


def test_t_and_quantile_intervals_without_scipy_stats_equal_scipys_over_a_grid():
    """Issue 60: the report's t interval, t test and quantile interval read scipy.special alone
    (scipy.stats costs half a second to import); they are scipy.stats' own figures."""
    import math

    import numpy as np
    from scipy import stats

    from plsim.stats.intervals import quantile_interval, t_interval, t_p_value

    for n in (2, 3, 5, 30, 400):
        for mean, sd in ((0.3, 1.2), (-2.0, 0.01), (10.0, 7.5)):
            for confidence in (0.9, 0.95, 0.99):
                want = stats.t.interval(confidence, n - 1, loc=mean, scale=sd / math.sqrt(n))
                assert t_interval(mean, sd, n, confidence) == pytest.approx(want, rel=1e-12, abs=1e-12)
            want_p = 2 * stats.t.sf(abs(mean) / (sd / math.sqrt(n)), n - 1)
            assert t_p_value(mean, sd, n) == pytest.approx(want_p, rel=1e-12, abs=1e-300)
    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 5, 8, 13, 40, 101, 1000):
        sample = rng.integers(0, 30, n).astype(float)
        for p in (0.1, 0.25, 0.5, 0.75, 0.9, 0.99):
            for confidence in (0.8, 0.95, 0.99):
                ci = stats.quantile_test(sample, q=float(np.median(sample)), p=p).confidence_interval(confidence)
                want = tuple(None if not math.isfinite(float(x)) else float(x) for x in (ci.low, ci.high))
                assert quantile_interval(sample, p, confidence) == want, (n, p, confidence)
