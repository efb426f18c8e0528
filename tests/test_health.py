"""Game-health metrics (docs/metrics.md): the per-game lead columns, every metric's value, interval
and count on games built by hand, faults left out, and the pattern bootstrap behind the intervals."""

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from plsim.runfolder import FAULT, GAMES_SCHEMA, GameRecord, fault_row, games_frame
from plsim.runfolder.rows import lead_story, two_thirds_round
from plsim.stats import HEALTH_METRICS, dominant_strategy, health_metrics, weighted_quantile
from plsim.stats.health import HEALTH_COLUMNS
from plsim.stats.patterns import bias_corrected_interval, bootstrap_replicates, expand, percentile_interval


def games_of(rows: list[dict]) -> pl.DataFrame:
    """A games frame from partial rows (game and seed numbered in order, the rest null)."""
    full = []
    for i, given in enumerate(rows):
        row = dict(given)
        seats = row.pop("seats")
        values = {"game": i, "seed": 1000 + i, "scenario": "test", "players": len(seats),
                  "strategies": ",".join(seats), **{f"seat_{s}": n for s, n in enumerate(seats)},
                  "pairs_released": 0, **row}
        if values.get("winner_seat") is not None:
            values["winner_strategy"] = seats[values["winner_seat"]]
        full.append(tuple(values.get(c) for c in GAMES_SCHEMA))
    return pl.DataFrame(full, schema=list(GAMES_SCHEMA), orient="row").cast(GAMES_SCHEMA)


def won(seats, winner, rounds, **extra):
    return {"seats": seats, "end_reason": "victory", "winner_seat": winner, "rounds": rounds, **extra}


def ended(seats, reason, rounds, **extra):
    return {"seats": seats, "end_reason": reason, "winner_seat": None, "rounds": rounds, **extra}


def table(games) -> dict[str, dict]:
    frame = health_metrics(games)
    assert tuple(frame.columns) == HEALTH_COLUMNS
    assert frame["metric"].to_list() == [m.name for m in HEALTH_METRICS]
    return {r["metric"]: r for r in frame.iter_rows(named=True)}


# --- the lead columns of games.parquet ---------------------------------------------------------

def vp_rows(*rounds_of_vp):
    """Round rows (round, seat, vp, ...) with the given VP per seat in each round."""
    return [(r, seat, vp) for r, vps in enumerate(rounds_of_vp, start=1) for seat, vp in enumerate(vps)]


@pytest.mark.parametrize(("rounds", "expected"), [(1, 1), (2, 2), (3, 2), (6, 4), (7, 5), (60, 40)])
def test_two_thirds_round_is_the_ceiling_of_two_thirds(rounds, expected):
    assert two_thirds_round(rounds) == expected


def test_lead_changes_count_new_sole_leaders_and_ties_keep_the_lead():
    rows = vp_rows([0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 2, 1], [3, 2, 1])
    # sole leaders by round: -, 0, (tie), 1, (tie), 0 -> changes 0->1 and 1->0
    story = lead_story(rows, rounds=6, winner=0)
    assert story.lead_changes == 2
    assert story.leader_two_thirds == 1  # round 4
    assert story.comeback is True  # the winner had 1 VP to seat 1's 2 in round 4


def test_a_winner_level_with_the_best_is_no_comeback_and_no_winner_has_none():
    rows = vp_rows([1, 1], [1, 1], [3, 1])
    level = lead_story(rows, rounds=3, winner=0)
    assert (level.lead_changes, level.leader_two_thirds, level.comeback) == (0, None, False)
    assert lead_story(rows, rounds=3, winner=None).comeback is None


def test_a_leader_who_keeps_the_lead_through_a_tie_is_not_a_change():
    story = lead_story(vp_rows([1, 0], [1, 1], [2, 1]), rounds=3, winner=0)
    assert story.lead_changes == 0


class Result:
    """The GameResult fields the frames read, with VP rows."""

    def __init__(self, winner, end_reason, rows):
        self.winner, self.end_reason, self.round_rows = winner, end_reason, rows
        self.rounds = max(r[0] for r in rows)
        self.decisions, self.final_wrath, self.pairs_released, self.settlements_razed = 5, 3, 0, 0
        self.first_judge_round = self.first_king_round = None


def full_rows(rows):
    """Pad (round, seat, vp) to the full round-row width the frames expect."""
    return [(*row, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, False, False, 0, 0, 0) for row in rows]


def test_games_frame_stores_the_lead_story_of_each_game():
    comeback = GameRecord(0, 1, "t", ("a", "b"), Result(0, "victory", full_rows(vp_rows([0, 1], [0, 2], [3, 2]))), 0.1)
    limit = GameRecord(1, 2, "t", ("a", "b"), Result(None, "round_limit", full_rows(vp_rows([1, 0], [1, 2]))), 0.1)
    games = games_frame([comeback, limit])
    assert games["lead_changes"].to_list() == [1, 1]
    assert games["leader_two_thirds"].to_list() == [1, 1]
    assert games["comeback"].to_list() == [True, None]
    assert games.schema["comeback"] == pl.Boolean and games.schema["lead_changes"] == pl.Int16


# --- health metrics on hand-built games ------------------------------------------------------------

AB, BA = ("a", "b"), ("b", "a")


def ten_two_player_games():
    """Seats alternate a,b / b,a. Seat 0 wins 6 of 8 won games; a wins 5 of them."""
    rows = [
        won(AB, 0, 10, pairs_released=1, first_judge_round=4, lead_changes=2, comeback=True),
        won(BA, 0, 12, first_judge_round=6, lead_changes=0, comeback=False),
        won(AB, 0, 14, pairs_released=2, first_judge_round=5, first_king_round=9, lead_changes=1, comeback=False),
        won(BA, 1, 16, lead_changes=3, comeback=True),
        won(AB, 0, 18, first_judge_round=7, lead_changes=0, comeback=False),
        won(BA, 0, 20, first_king_round=11, lead_changes=1, comeback=False),
        won(AB, 1, 22, lead_changes=1, comeback=False),
        won(BA, 0, 24, lead_changes=2, comeback=True),
        ended(AB, "draw", 26, lead_changes=4),
        ended(BA, "round_limit", 60, pairs_released=1, lead_changes=0),
    ]
    return games_of(rows)


def test_shares_are_counts_over_games_with_wilson_intervals():
    h = table(ten_two_player_games())
    for metric, successes in (("victory_share", 8), ("draw_share", 1), ("collapse_share", 0),
                              ("round_limit_share", 1), ("invader_release_share", 3)):
        row = h[metric]
        assert row["value"] == pytest.approx(successes / 10), metric
        assert row["games"] == 10
        low, high = proportion_confint(successes, 10, alpha=0.05, method="wilson")
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high), abs=1e-9), metric
    comeback = h["comeback_share"]
    assert (comeback["value"], comeback["games"]) == (pytest.approx(3 / 8), 8)  # won games only


def test_means_have_t_intervals_and_medians_order_statistic_intervals():
    h = table(ten_two_player_games())
    rounds = [10, 12, 14, 16, 18, 20, 22, 24, 26, 60]
    mean = h["rounds_mean"]
    assert mean["value"] == pytest.approx(np.mean(rounds))
    expected = stats.t.interval(0.95, 9, loc=np.mean(rounds), scale=stats.sem(rounds))
    assert (mean["ci_low"], mean["ci_high"]) == pytest.approx(expected)
    median = h["rounds_median"]
    assert median["value"] == 18  # inverted CDF: the 5th of 10 sorted lengths
    ci = stats.quantile_test(rounds, q=18, p=0.5).confidence_interval(0.95)
    assert (median["ci_low"], median["ci_high"]) == (ci.low, ci.high)
    assert h["rounds_p90"]["value"] == 26
    pairs = h["pairs_released_mean"]
    assert pairs["value"] == pytest.approx(0.4) and pairs["ci_low"] == 0.0  # floored: counts are >= 0
    assert h["lead_changes_mean"]["value"] == pytest.approx(14 / 10)


def test_title_medians_count_only_games_that_had_the_title():
    h = table(ten_two_player_games())
    judge, king = h["first_judge_round_median"], h["first_king_round_median"]
    assert (judge["value"], judge["games"]) == (5, 4)  # 4, 5, 6, 7
    assert (king["value"], king["games"]) == (9, 2)


def test_seat_spread_chi_square_and_dominance():
    h = table(ten_two_player_games())
    # seat 0: 6 wins of 10 games, seat 1: 2 of 10; fair share 1/2 each
    assert h["seat_spread"]["value"] == pytest.approx(0.4)
    assert h["seat_spread"]["ci_low"] <= 0.4 <= h["seat_spread"]["ci_high"]
    chi = stats.chisquare([6, 2], [4, 4])
    assert h["seat_chi2"]["value"] == pytest.approx(chi.statistic)
    assert h["seat_chi2_p"]["value"] == pytest.approx(chi.pvalue)
    assert h["seat_chi2"]["games"] == 8 and h["seat_chi2"]["ci_low"] is None
    # a won games 0, 2, 3, 4 and b won 1, 5, 6, 7: both 4 of 10, 10 points under the fair share
    # because two games had no winner; a tie names the first strategy by name
    assert h["dominance"]["value"] == pytest.approx(-0.1)
    assert dominant_strategy(ten_two_player_games()) == "a"


def test_dominance_names_the_strategy_furthest_above_its_fair_share():
    rows = [won(AB, 1, 9), won(BA, 0, 9), won(AB, 1, 9), won(BA, 1, 9)]  # b, b, b, a
    h = table(games_of(rows))
    assert h["dominance"]["value"] == pytest.approx(3 / 4 - 1 / 2)
    assert dominant_strategy(games_of(rows)) == "b"


def test_seat_spread_compares_each_seat_with_its_own_fair_share_at_mixed_player_counts():
    four = ("a", "b", "c", "d")
    rows = [won(AB, 0, 10), won(AB, 1, 10)] + [won(four, 2, 10), won(four, 3, 10), won(four, 0, 10), won(four, 1, 10)]
    h = table(games_of(rows))
    # seats 0, 1: 2 wins of 6 games, fair share (2 * 1/2 + 4 * 1/4) / 6 = 1/3; seats 2, 3: 1 of 4, fair 1/4
    assert h["seat_spread"]["value"] == pytest.approx(0.0, abs=1e-12)
    assert h["seat_chi2"]["value"] == pytest.approx(0.0, abs=1e-12)


def test_games_stopped_by_a_fault_are_left_out():
    games = ten_two_player_games()
    faults = pl.DataFrame([fault_row(90 + i, 5000 + i, "test", AB) for i in range(3)],
                          schema=list(GAMES_SCHEMA), orient="row").cast(GAMES_SCHEMA)
    assert faults["end_reason"].to_list() == [FAULT] * 3
    assert health_metrics(pl.concat([games, faults])).equals(health_metrics(games))


def test_no_games_gives_empty_values_and_zero_counts():
    frame = health_metrics(ten_two_player_games().head(0))
    assert frame["value"].null_count() == frame.height
    assert set(frame["games"].to_list()) == {0}


def test_a_run_without_the_lead_columns_reports_them_as_missing():
    h = table(ten_two_player_games().drop("lead_changes", "leader_two_thirds", "comeback"))
    assert (h["lead_changes_mean"]["value"], h["lead_changes_mean"]["games"]) == (None, 0)
    assert h["comeback_share"]["value"] is None
    assert h["victory_share"]["value"] == pytest.approx(0.8)


def test_intervals_repeat_exactly():
    games = ten_two_player_games()
    assert health_metrics(games).equals(health_metrics(games))


# --- the pattern bootstrap -------------------------------------------------------------------------

def test_multinomial_pattern_bootstrap_has_the_sampling_spread_of_a_share():
    counts = np.array([300.0, 700.0])  # 300 games of a pattern that counts as a success
    share = lambda w: w[:, 0] / w.sum(axis=1)  # noqa: E731
    values = bootstrap_replicates(counts, {"share": share}, reps=4000)["share"]
    assert values.mean() == pytest.approx(0.3, abs=0.003)
    assert values.std() == pytest.approx(math.sqrt(0.3 * 0.7 / 1000), rel=0.06)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("q", [0.1, 0.5, 0.9])
def test_weighted_quantile_matches_numpy_inverted_cdf_on_the_expanded_sample(seed, q):
    rng = np.random.default_rng(seed)
    values = rng.integers(5, 40, size=30).astype(float)
    values[rng.integers(0, 30, size=4)] = np.nan
    weights = rng.integers(0, 5, size=(6, 30)).astype(float)
    got = weighted_quantile(weights, values, q)
    for row, value in zip(weights, got):
        sample = expand(row, values)
        assert value == np.quantile(sample, q, method="inverted_cdf")


def test_the_bias_corrected_interval_moves_back_toward_an_upward_biased_estimate():
    rng = np.random.default_rng(0)
    biased = 0.10 + rng.normal(0.05, 0.04, 2000)  # like a spread: nine resamples in ten above the data's
    plain = percentile_interval(biased)
    low, high = bias_corrected_interval(biased, 0.10)
    assert low < plain[0] and high < plain[1] - 0.05
    assert low <= 0.10 <= high
    unbiased = rng.normal(0.3, 0.02, 2000)
    centre = float(np.median(unbiased))
    assert np.allclose(bias_corrected_interval(unbiased, centre), percentile_interval(unbiased), atol=1e-3)
