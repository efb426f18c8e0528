"""plsim ladder (issue 23): its tables, its statistics, the command end to end, skill_gap in a sweep."""

import json
import math

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.plots.matrix_plot import short_label
from plsim.runs import ladder_lineups
from plsim.stats import (
    FOCAL_SCHEMA, adjacent_tiers, bonferroni_confidence, cochran_armitage, health_metrics, matchup_matrix,
    paired_health_differences, skill_gap_estimate,
)
from plsim.tune.objective import ObjectiveError, parse_objective
from plsim.tune.plan import TuneError, plan_tune

TIERS = "random,economist,judge-rush"


def focal(cells):
    """cells: {(row, column): [won, ...]} -> focal outcomes, game k of every cell on seed k."""
    rows, game = [], 0
    for (row, column), results in cells.items():
        for local, won in enumerate(results):
            rows.append((game, row, column, local, local, local % 4, won))
            game += 1
    return pl.DataFrame(rows, schema=FOCAL_SCHEMA, orient="row")


def test_every_tier_sits_alone_against_every_tier():
    assert ladder_lineups(["a", "b"], 4) == [("a", "a", "a", "a"), ("a", "b", "b", "b"),
                                            ("b", "a", "a", "a"), ("b", "b", "b", "b")]


def test_the_trend_test_is_cochran_armitage():
    """z equals the correlation of win and tier difference over the games times sqrt(N)."""
    wins = {(0, 0): 2, (0, 1): 1, (1, 0): 7, (1, 1): 3}
    frame = focal({cell: [True] * w + [False] * (10 - w) for cell, w in wins.items()})
    trend = cochran_armitage(matchup_matrix(frame, ["a", "b"], 4))
    scores = np.array([r - c for r, c in frame.select("row", "column").iter_rows()], dtype=float)
    won = frame["won"].cast(pl.Float64).to_numpy()
    expected = np.corrcoef(scores, won)[0, 1] * math.sqrt(len(won))
    assert trend["z"] == pytest.approx(expected)
    assert trend["p_value"] < 0.05 and trend["games"] == 40


def test_no_trend_without_a_difference_between_tiers():
    frame = focal({cell: [True, False, False, False] * 5 for cell in [(0, 0), (0, 1), (1, 0), (1, 1)]})
    trend = cochran_armitage(matchup_matrix(frame, ["a", "b"], 4))
    assert trend["z"] == pytest.approx(0.0) and trend["p_value"] == pytest.approx(0.5)


def test_adjacent_tiers_are_paired_by_seed_and_column():
    frame = focal({(0, 0): [False] * 20, (0, 1): [False] * 20, (1, 0): [True] * 12 + [False] * 8,
                   (1, 1): [False] * 20})
    row = adjacent_tiers(frame, ["a", "b"]).row(0, named=True)
    assert row["pairs"] == 40 and row["difference"] == pytest.approx(12 / 40)
    assert row["separated"] and row["ci_low"] > 0
    flat = adjacent_tiers(focal({cell: [False, True] * 5 for cell in [(0, 0), (0, 1), (1, 0), (1, 1)]}), ["a", "b"])
    assert not flat["separated"][0]


def test_adjacent_tiers_are_separated_only_past_holms_adjustment_for_the_k_minus_1_pairs():
    """Two pairs each won 10 to 2 in discordant games (McNemar p = 0.039, interval above 0):
    asked together, Holm's p is 0.077 and neither is separated; beside a pair far apart (10 to
    0), the same pair is."""
    def wins(indices, n=40):
        return [i in indices for i in range(n)]

    a, b, c = wins({30, 31}), wins(set(range(10))), wins(set(range(8)) | set(range(10, 20)))
    both = adjacent_tiers(focal({(0, 0): a, (1, 0): b, (2, 0): c}), ["a", "b", "c"], 1)
    assert both["p_value"].to_list() == pytest.approx([0.0386] * 2, abs=1e-4)
    assert both["p_holm"].to_list() == pytest.approx([0.0771] * 2, abs=1e-4)
    assert (both["ci_low"] > 0).all() and not both["separated"].any()
    far = wins(set(range(40)) - {8, 9})  # b against nothing: p tiny
    one = adjacent_tiers(focal({(0, 0): wins(set()), (1, 0): far, (2, 0): wins(set(range(40)))}), ["a", "b", "c"], 1)
    assert one["separated"].to_list() == [True, False]  # 38 to 0, then 2 to 0 (p = 0.5)
    mixed = adjacent_tiers(focal({(0, 0): wins(set()), (1, 0): b, (2, 0): c}), ["a", "b", "c"], 1)
    assert mixed["p_value"][0] < 0.01 and mixed["p_holm"][1] == pytest.approx(mixed["p_value"][1])
    assert mixed["separated"].to_list() == [True, True]  # Holm, not Bonferroni: the larger p stays


def lone_games(a_alone_wins, b_alone_wins, n=10):
    """Games of a alone against three b and of b alone against three a (seat 0 alone)."""
    rows = []
    for lone, field, wins in (("a", "b", a_alone_wins), ("b", "a", b_alone_wins)):
        for i in range(n):
            rows.append({"game": len(rows), "players": 4, "seat_0": lone, "seat_1": field, "seat_2": field,
                         "seat_3": field, "end_reason": "victory", "winner_seat": 0 if i < wins else 1 + i % 3,
                         "rounds": 20})
    return pl.DataFrame(rows)


def test_skill_gap_is_the_edge_of_one_tier_alone_over_the_other():
    estimate = skill_gap_estimate(lone_games(6, 1))
    assert estimate.value == pytest.approx(0.5)
    assert estimate.ci_low <= 0.5 <= estimate.ci_high
    assert skill_gap_estimate(lone_games(1, 6)).value == pytest.approx(0.5)  # whichever tier is the better
    assert skill_gap_estimate(lone_games(3, 3)).value == pytest.approx(0.0)


def test_skill_gap_is_a_tune_objective_that_needs_a_ladder():
    assert parse_objective("-skill_gap").terms[0].weight == -1
    with pytest.raises(ObjectiveError):
        parse_objective("skill_gapp")
    space = {"wrath.threshold": {"low": 7, "high": 13}}
    with pytest.raises(TuneError, match="--tiers"):
        plan_tune(None, space, ["-skill_gap"], 2, 2, None, 0, None, None, 1)
    plan = plan_tune(None, space, ["-skill_gap"], 2, 2, None, 0, None, None, 1, tiers="random,judge-rush")
    assert plan.lineups == tuple(ladder_lineups(["random", "judge-rush"], 4)) and plan.common_seeds


@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "run"
    result = CliRunner().invoke(main, ["ladder", "--tiers", TIERS, "--games", "3", "--workers", "1", "--seed", "4",
                                       "--out", str(out), "--quiet"])
    return out, result


def test_the_ladder_runs_end_to_end(ladder_run):
    out, result = ladder_run
    assert result.exit_code == 0, result.output
    assert "Matchup matrix" in result.output and "Cochran-Armitage" in result.output
    assert "Seats within each tier" in result.output
    matrix = pl.read_csv(out / "ladder_matrix.csv")
    assert matrix.height == 9 and matrix["games"].to_list() == [3] * 9
    assert pl.read_csv(out / "ladder_adjacent.csv")["upper"].to_list() == ["economist", "judge-rush"]
    assert sorted(pl.read_csv(out / "ladder_seats.csv")["tier"].unique().to_list()) == sorted(TIERS.split(","))
    info = json.loads((out / "ladder.json").read_text())
    assert info["tiers"] == TIERS.split(",") and "p_value" in info["trend"] and "skill_gap" in info
    page = (out / "report.html").read_text()
    for text in ("Ladder", "Matchup matrix", "Cochran-Armitage", "Seats within each tier", "data:image/png"):
        assert text in page
    assert (out / "ladder.png").stat().st_size > 10_000
    assert "Health by tier" in result.output and "Health by tier" in page


def test_every_table_plays_the_same_seeds_with_the_row_tier_in_the_same_seat(ladder_run):
    out, _ = ladder_run
    games = pl.read_parquet(out / "games.parquet").sort("game")
    tables = 9
    for local in range(3):
        block = games.filter((pl.col("game") // tables) == local)
        assert block["seed"].n_unique() == 1
        lone = [next(s for s in range(4) if [row[f"seat_{i}"] for i in range(4)].count(row[f"seat_{s}"]) == 1)
                for row in block.iter_rows(named=True) if len({row[f"seat_{i}"] for i in range(4)}) == 2]
        assert len(set(lone)) == 1


def test_each_tier_has_the_health_of_its_mirror_table_and_the_paired_differences_of_adjacent_tiers(ladder_run):
    out, _ = ladder_run
    games = pl.read_parquet(out / "games.parquet")
    tiers, k = TIERS.split(","), 3
    mirrors = {t: games.filter(pl.col("game") % (k * k) == i * k + i) for i, t in enumerate(tiers)}
    health = pl.read_csv(out / "ladder_health.csv")
    assert health["tier"].unique(maintain_order=True).to_list() == tiers
    assert not {"dominance", "win_rate"} & set(health["metric"].to_list())
    for tier, mirror in mirrors.items():
        expected = health_metrics(mirror).filter(pl.col("metric") != "dominance")
        found = health.filter(pl.col("tier") == tier).drop("tier")
        assert found["metric"].to_list() == expected["metric"].to_list()
        assert found["value"].to_list() == pytest.approx(expected["value"].to_list(), nan_ok=True)
        assert found["games"].to_list() == expected["games"].to_list()
    paired = pl.read_csv(out / "ladder_health_paired.csv")
    assert paired.select("upper", "lower").unique(maintain_order=True).rows() == [
        ("economist", "random"), ("judge-rush", "economist")]
    expected = paired_health_differences(mirrors["economist"], mirrors["judge-rush"],
                                         adjusted=bonferroni_confidence(k - 1))
    row = expected.filter(pl.col("metric") == "rounds_mean").row(0, named=True)
    found = paired.filter((pl.col("upper") == "judge-rush") & (pl.col("metric") == "rounds_mean")).row(0, named=True)
    assert found["difference"] == pytest.approx(row["difference"]) and found["pairs"] == 3
    assert (found["adj_low"], found["adj_high"]) == pytest.approx((row["adj_low"], row["adj_high"]))
    assert found["p_holm"] >= found["p_value"]


def test_resume_rewrites_the_ladder_files(ladder_run):
    out, _ = ladder_run
    (out / "ladder.json").unlink()
    result = CliRunner().invoke(main, ["run", "--resume", str(out), "--quiet", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "ladder.json").read_text())["tiers"] == TIERS.split(",")


def test_a_ladder_grown_by_resume_equals_one_asked_for_that_size(tmp_path):
    def ladder(games, out):
        result = CliRunner().invoke(main, ["ladder", "standard-2p", "--tiers", "random,economist", "--games", games,
                                           "--workers", "1", "--seed", "1", "--out", str(out), "--quiet"])
        assert result.exit_code == 0, result.output

    ladder("4", tmp_path / "asked")
    ladder("2", tmp_path / "grown")
    result = CliRunner().invoke(main, ["run", "--resume", str(tmp_path / "grown"), "--games", "4", "--workers", "1",
                                       "--quiet"])
    assert result.exit_code == 0, result.output
    for name in ("ladder_matrix.csv", "ladder_adjacent.csv", "ladder_seats.csv"):
        assert pl.read_csv(tmp_path / "grown" / name).equals(pl.read_csv(tmp_path / "asked" / name)), name
    assert pl.read_csv(tmp_path / "grown" / "ladder_matrix.csv")["games"].to_list() == [4] * 4


def test_plsim_report_keeps_the_ladder_first_in_the_page(ladder_run):
    out, _ = ladder_run
    (out / "report.html").unlink()
    result = CliRunner().invoke(main, ["report", str(out)])
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text()
    assert page.index("Matchup matrix") < page.index("Win rate per strategy")


def test_a_tier_with_several_parameters_is_one_tier(tmp_path):
    out = tmp_path / "x"
    result = CliRunner().invoke(main, ["ladder", "--tiers", "random,warlord:aggression=0.8,garrison=2", "--games", "1",
                                       "--workers", "1", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "ladder.json").read_text())["tiers"] == ["random", "warlord:aggression=0.8,garrison=2"]


@pytest.mark.parametrize("tiers, words", [
    ("random", "at least two"),
    ("random,random", "more than once"),
    ("random,nobody-here", "unknown strategy"),
    ("random,mcts:iterations=0", "iterations"),
    ("random,mcts:policy=lookahead", "searches itself"),
])
def test_bad_tiers_are_one_line_and_exit_2(tmp_path, tiers, words):
    result = CliRunner().invoke(main, ["ladder", "--tiers", tiers, "--games", "1", "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_skill_gap_in_a_sweep_of_ladders(tmp_path):
    out = tmp_path / "sweep"
    result = CliRunner().invoke(main, ["sweep", "--vary", "wrath.threshold=7,13", "--tiers", "random,judge-rush",
                                       "--games", "2", "--workers", "1", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    health = pl.read_csv(out / "sweep_health.csv").filter(pl.col("metric") == "skill_gap")
    assert health.height == 2 and health["value"].is_not_null().all()
    effects = pl.read_csv(out / "effects.csv").filter(pl.col("metric") == "skill_gap")
    assert effects.height == 1 and effects["pairs"][0] == 8
    assert "skill_gap" in pl.read_csv(out / "sweep.csv").columns


def test_tier_labels_keep_apart_entries_that_differ_only_in_a_late_parameter():
    names = ["mcts:endgame=2,rounds=3,depth=150,iterations=48",
             "mcts:endgame=2,rounds=3,depth=150,iterations=48,margin=0.05"]
    labels = [short_label(n) for n in names]
    assert labels[0] != labels[1] and labels[1].endswith("margin=0.05")
    assert all(len(line) <= 24 for label in labels for line in label.split("\n"))
    assert labels[1].replace("\n", "") == names[1]  # broken after commas, nothing dropped
    assert short_label("/a/b/lazy.py:First") == "lazy.py:First"


def test_a_fixed_field_fills_the_other_seats_of_every_tier():
    assert ladder_lineups(["a", "b"], 3, ["x"]) == [("a", "x", "x"), ("b", "x", "x")]


def test_against_a_fixed_field_the_trend_scores_the_row_tier_alone():
    """Two tiers against one field: the score is the row (0, 1), not row - column."""
    frame = focal({(0, 0): [True] * 2 + [False] * 8, (1, 0): [True] * 7 + [False] * 3})
    matrix = matchup_matrix(frame, ["a", "b"], 4, ["x"])
    assert matrix["column_tier"].to_list() == ["x", "x"] and matrix["games"].to_list() == [10, 10]
    trend = cochran_armitage(matrix, fixed_field=True)
    won = frame["won"].cast(pl.Float64).to_numpy()
    expected = np.corrcoef(frame["row"].cast(pl.Float64).to_numpy(), won)[0, 1] * math.sqrt(len(won))
    assert trend["z"] == pytest.approx(expected) and "fixed field" in trend["method"]
    assert adjacent_tiers(frame, ["a", "b"], 1)["pairs"].to_list() == [10]


def test_a_ladder_against_a_fixed_field_end_to_end_and_on_resume(tmp_path):
    out = tmp_path / "field"
    result = CliRunner().invoke(main, ["ladder", "--tiers", "random,economist,judge-rush", "--field", "judge-rush",
                                       "--games", "4", "--workers", "1", "--seed", "2", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "3 tiers against the field judge-rush, 3 tables, 4 games each" in result.output
    assert "not played (the field is fixed" in result.output
    games = pl.read_parquet(out / "games.parquet").sort("game")
    assert games.height == 12
    for row in games.iter_rows(named=True):  # table game % 3 seats its tier alone among judge-rush
        tier = ["random", "economist", "judge-rush"][row["game"] % 3]
        seats = sorted(row[f"seat_{i}"] for i in range(4))
        assert seats == sorted([tier, "judge-rush", "judge-rush", "judge-rush"])
    matrix = pl.read_csv(out / "ladder_matrix.csv")
    assert matrix["row_tier"].to_list() == ["random", "economist", "judge-rush"]
    assert matrix["column_tier"].to_list() == ["judge-rush"] * 3 and matrix["games"].to_list() == [4] * 3
    assert pl.read_csv(out / "ladder_adjacent.csv")["pairs"].to_list() == [4, 4]
    assert pl.read_csv(out / "ladder_seats.csv")["tier"].unique().to_list() == ["judge-rush"]  # its mirror only
    info = json.loads((out / "ladder.json").read_text())
    assert info["field"] == ["judge-rush"] and "top_minus_bottom" not in info["skill_gap"]
    assert "(the tiers, or a fixed field)" in (out / "report.html").read_text()
    before = pl.read_csv(out / "ladder_matrix.csv")
    grown = CliRunner().invoke(main, ["run", "--resume", str(out), "--games", "6", "--workers", "1", "--quiet"])
    assert grown.exit_code == 0, grown.output
    after = pl.read_csv(out / "ladder_matrix.csv")
    assert after["games"].to_list() == [6] * 3 and after["column_tier"].to_list() == before["column_tier"].to_list()


@pytest.mark.parametrize("field, words", [
    ("judge-rush,judge-rush", "more than once"),
    ("nobody-here", "unknown strategy"),
    (",", "an empty strategy name"),
])
def test_a_bad_field_is_one_line_and_exit_2(tmp_path, field, words):
    result = CliRunner().invoke(main, ["ladder", "--tiers", "random,judge-rush", "--field", field, "--games", "1",
                                       "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert words in result.output and len(result.output.strip().splitlines()) == 1
