"""Paired differences between runs on the same seeds: alignment, the paired t against scipy,
the paired bootstrap, repeatability, and seeds missing or faulted in one run."""

import numpy as np
import polars as pl
import pytest
from scipy import stats

from plsim.runfolder import GAMES_SCHEMA, fault_row
from plsim.stats import PAIRED_BOOTSTRAP, paired_health_differences
from plsim.stats.paired import PAIRED_COLUMNS, PAIRED_T
from tests.test_health import AB, BA, ended, games_of, won


def run_of(outcomes, rounds, pairs=None, seats_of=lambda k: AB if k % 2 == 0 else BA):
    """A run where game k has seed 1000 + k; ``outcomes[k]`` is the winning seat or None (round limit)."""
    rows = []
    for k, (winner, length) in enumerate(zip(outcomes, rounds)):
        extra = {"pairs_released": 0 if pairs is None else pairs[k], "lead_changes": k % 3,
                 "comeback": None if winner is None else k % 4 == 0}
        seats = seats_of(k)
        rows.append(won(seats, winner, length, **extra) if winner is not None
                    else ended(seats, "round_limit", length, **extra))
    return games_of(rows)


RNG = np.random.default_rng(7)
N = 120
OUT_A = [int(x) if x < 2 else None for x in RNG.integers(0, 3, N)]
OUT_B = [int(x) if x < 2 else None for x in RNG.integers(0, 3, N)]
LEN_A = RNG.integers(10, 40, N).tolist()
LEN_B = (np.array(LEN_A) + RNG.integers(-2, 6, N)).tolist()


def rows_of(frame):
    return {(r["metric"], r["strategy"]): r for r in frame.iter_rows(named=True)}


def test_identical_runs_differ_by_zero_everywhere():
    a = run_of(OUT_A, LEN_A)
    diff = paired_health_differences(a, a)
    assert tuple(diff.columns) == PAIRED_COLUMNS
    defined = diff.filter(pl.col("difference").is_not_null())
    assert defined["difference"].abs().max() == 0
    assert defined["ci_low"].abs().max() == 0 and defined["ci_high"].abs().max() == 0
    assert set(diff["pairs"].to_list()) == {N}
    assert "seat_chi2_p" not in diff["metric"].to_list()


def test_means_and_shares_use_the_paired_t_interval_of_scipy():
    a, b = run_of(OUT_A, LEN_A), run_of(OUT_B, LEN_B)
    rows = rows_of(paired_health_differences(a, b))
    rounds = rows[("rounds_mean", None)]
    assert rounds["method"] == PAIRED_T
    assert rounds["difference"] == pytest.approx(np.mean(LEN_B) - np.mean(LEN_A))
    ci = stats.ttest_rel(LEN_B, LEN_A).confidence_interval(0.95)
    assert (rounds["ci_low"], rounds["ci_high"]) == pytest.approx((ci.low, ci.high))
    victory = rows[("victory_share", None)]
    won_a = [o is not None for o in OUT_A]
    won_b = [o is not None for o in OUT_B]
    ci = stats.ttest_rel(np.array(won_b, float), np.array(won_a, float)).confidence_interval(0.95)
    assert victory["method"] == PAIRED_T
    assert (victory["ci_low"], victory["ci_high"]) == pytest.approx((ci.low, ci.high))


def test_an_adjusted_level_adds_the_paired_p_value_and_a_wider_interval():
    """plsim cards' columns: the paired t test's p-value (scipy's ttest_rel), the interval at the
    adjusted level; a bootstrapped metric's p-value is doubled share of resamples across 0."""
    a, b = run_of(OUT_A, LEN_A), run_of(OUT_B, LEN_B)
    plain = paired_health_differences(a, b)
    diff = paired_health_differences(a, b, adjusted=0.99)
    assert diff.select(PAIRED_COLUMNS).equals(plain)
    rounds = rows_of(diff)[("rounds_mean", None)]
    test = stats.ttest_rel(LEN_B, LEN_A)
    assert rounds["p_value"] == pytest.approx(test.pvalue)
    ci = test.confidence_interval(0.99)
    assert (rounds["adj_low"], rounds["adj_high"]) == pytest.approx((ci.low, ci.high))
    spread = rows_of(diff)[("seat_spread", None)]
    assert spread["method"] == PAIRED_BOOTSTRAP and 0 < spread["p_value"] <= 1
    assert spread["adj_low"] <= spread["ci_low"] and spread["adj_high"] >= spread["ci_high"]
    same = rows_of(paired_health_differences(a, a, adjusted=0.99))[("rounds_mean", None)]
    assert same["p_value"] == 1.0


def test_win_rates_are_paired_per_seed_when_each_strategy_holds_one_seat():
    a, b = run_of(OUT_A, LEN_A), run_of(OUT_B, LEN_B)
    row = rows_of(paired_health_differences(a, b))[("win_rate", "a")]

    def a_won(outcomes):
        return np.array([w is not None and (AB if k % 2 == 0 else BA)[w] == "a" for k, w in enumerate(outcomes)], float)

    assert row["method"] == PAIRED_T
    assert row["value_a"] == pytest.approx(a_won(OUT_A).mean())
    assert row["difference"] == pytest.approx(a_won(OUT_B).mean() - a_won(OUT_A).mean())
    ci = stats.ttest_rel(a_won(OUT_B), a_won(OUT_A)).confidence_interval(0.95)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((ci.low, ci.high))


def test_non_linear_metrics_use_a_repeatable_paired_bootstrap_that_sees_a_real_effect():
    a = run_of(OUT_A, LEN_A)
    b = run_of([0] * N, LEN_B)  # seat 0 wins every game of b
    diff = paired_health_differences(a, b)
    assert diff.equals(paired_health_differences(a, b))
    spread = rows_of(diff)[("seat_spread", None)]
    assert spread["method"] == PAIRED_BOOTSTRAP
    assert spread["value_b"] == pytest.approx(1.0)
    assert spread["ci_low"] > 0.3  # the spread grew beyond the noise
    median = rows_of(diff)[("rounds_median", None)]
    assert median["method"] == PAIRED_BOOTSTRAP and median["ci_low"] <= median["difference"] <= median["ci_high"]
    assert rows_of(diff)[("comeback_share", None)]["method"] == PAIRED_BOOTSTRAP


def test_games_pair_by_seed_and_seeds_missing_or_faulted_in_either_run_are_dropped():
    a, b = run_of(OUT_A, LEN_A), run_of(OUT_B, LEN_B)
    shuffled = b.sample(fraction=1.0, shuffle=True, seed=1).with_columns(game=pl.col("game") + 500)
    assert paired_health_differences(a, shuffled).equals(paired_health_differences(a, b))
    faulted = pl.DataFrame([fault_row(3, 1003, "test", BA)], schema=list(GAMES_SCHEMA), orient="row").cast(GAMES_SCHEMA)
    b_fault = pl.concat([b.filter(pl.col("seed") != 1003), faulted])
    a_short = a.filter(pl.col("seed") != 1010)
    diff = paired_health_differences(a_short, b_fault)
    assert set(diff["pairs"].to_list()) == {N - 2}
    keep = ~pl.col("seed").is_in([1003, 1010])
    assert diff.equals(paired_health_differences(a.filter(keep), b.filter(keep)))


def test_a_win_rate_whose_seat_count_changes_is_bootstrapped():
    four = ("a", "b", "a", "b")
    a = run_of(OUT_A, LEN_A)
    b = run_of(OUT_B, LEN_B, seats_of=lambda k: four)
    row = rows_of(paired_health_differences(a, b))[("win_rate", "a")]
    assert row["method"] == PAIRED_BOOTSTRAP
    assert row["ci_low"] <= row["difference"] <= row["ci_high"]


def test_a_share_s_paired_t_interval_stays_within_what_two_shares_can_differ_by():
    # 11 of 12 games won in B, none in A: the t interval of the mean difference reaches past 1
    a = run_of([None] * 12, [30] * 12)
    b = run_of([0] * 11 + [None], [30] * 12)
    row = rows_of(paired_health_differences(a, b, adjusted=0.99))[("victory_share", None)]
    assert row["difference"] == pytest.approx(11 / 12)
    unclipped = stats.ttest_rel([1] * 11 + [0], [0] * 12).confidence_interval(0.95)
    assert unclipped.high > 1
    assert row["ci_low"] == pytest.approx(unclipped.low) and row["ci_high"] == 1.0
    assert row["adj_high"] == 1.0 and row["p_value"] < 1e-5
