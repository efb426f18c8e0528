"""Tournaments, paired comparisons and their statistics."""

import json
import math

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.runfolder import RunConfigError
from plsim.runs import run_compare, run_tournament, tournament_lineups
from plsim.stats import matrix_wide, paired_comparison, pairwise_table, rate_strategies
from plsim.stats.compare import MATRIX_CORNER, mcnemar_exact_p, newcombe_paired_interval

LAZY = '''
from plsim.strategy.interface import Strategy

class Last(Strategy):
    """Deterministic and passive: the last option is the engine's "pass" where there is one."""
    name = "last"
    description = "always the last option"

    def choose(self, view, decision):
        return decision.options[-1]
'''


def outcomes(games):
    """games: list of [(strategy, won, vp), ...] -> a seat_outcomes frame."""
    rows = [(g, s, name, won, vp) for g, seats in enumerate(games) for s, (name, won, vp) in enumerate(seats)]
    return pl.DataFrame(rows, schema={"game": pl.Int32, "seat": pl.Int8, "strategy": pl.String,
                                      "won": pl.Boolean, "final_vp": pl.Int64}, orient="row")


def test_tables_are_combinations_or_cycled_lists():
    assert tournament_lineups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(tournament_lineups(list("abcdef"), 4)) == 15
    assert tournament_lineups(["a", "b", "c"], 4) == [("a", "b", "c", "a"), ("b", "c", "a", "b"), ("c", "a", "b", "c")]


def test_pairwise_share_counts_winner_then_vp_and_ties_half():
    frame = outcomes([
        [("a", True, 3), ("b", False, 9), ("c", False, 1)],   # a won: ahead of both despite VP
        [("a", False, 2), ("b", False, 5), ("c", False, 5)],  # nobody won: VP decides; b, c tie
    ])
    pairs = pairwise_table(frame, ["a", "b", "c"])
    cell = {(a, b): r for a, b, *r in pairs.select("a", "b", "meetings", "a_ahead", "ties", "share").iter_rows()}
    assert cell[("a", "b")] == [2, 1, 0, 0.5]
    assert cell[("b", "c")] == [2, 1, 1, 0.75]
    assert cell[("c", "b")][-1] == 0.25
    wide = matrix_wide(pairs, ["a", "b", "c"])
    assert wide.columns == [MATRIX_CORNER, "a", "b", "c"]
    assert wide.row(1) == ("b", 0.5, None, 0.75)


def test_duplicate_seats_of_one_strategy_do_not_meet_themselves():
    pairs = pairwise_table(outcomes([[("a", False, 1), ("b", False, 2), ("a", False, 3)]]))
    assert pairs.filter(a="a", b="b")["meetings"].item() == 2
    assert pairs.filter(a="a", b="a").height == 0


def test_ratings_rank_the_strategy_that_always_finishes_ahead_first():
    games = [[("strong", False, 5), ("weak", False, 1), ("mid", False, 3)][::(-1) ** g] for g in range(12)]
    ratings = rate_strategies(outcomes(games))
    assert ratings["strategy"].to_list() == ["strong", "mid", "weak"]
    assert set(ratings.columns) >= {"mu", "sigma", "ordinal"}
    row = ratings.row(0, named=True)
    assert math.isclose(row["ordinal"], row["mu"] - 3 * row["sigma"]) and row["sigma"] < 25 / 3
    assert row["games"] == 12


def test_mcnemar_exact_matches_the_binomial_test():
    assert mcnemar_exact_p(0, 0) == 1.0
    assert math.isclose(mcnemar_exact_p(10, 0), 2 / 1024)
    assert math.isclose(mcnemar_exact_p(3, 7), mcnemar_exact_p(7, 3))
    assert math.isclose(mcnemar_exact_p(3, 7), 2 * sum(math.comb(10, k) for k in range(4)) / 1024)
    assert mcnemar_exact_p(5, 5) == 1.0
    assert mcnemar_exact_p(6000, 4000) < 1e-10


def test_newcombe_interval_holds_the_estimate_and_narrows_with_more_pairs():
    lo, hi = newcombe_paired_interval(10, 15, 5, 70)
    assert lo < 0.10 < hi and -1 <= lo and hi <= 1
    lo2, hi2 = newcombe_paired_interval(100, 150, 50, 700)
    assert lo < lo2 < 0.10 < hi2 < hi
    assert newcombe_paired_interval(10, 5, 15, 70) == pytest.approx((-hi, -lo))


def test_paired_comparison_counts_and_verdict():
    a = [True] * 30 + [False] * 70
    b = [True] * 5 + [False] * 95
    c = paired_comparison("A", "B", a, b)
    assert (c.pairs, c.a_wins, c.b_wins, c.both, c.a_only, c.b_only) == (100, 30, 5, 5, 25, 0)
    assert c.difference == pytest.approx(0.25) and c.difference_ci[0] > 0
    assert c.p_value < 0.001 and c.verdict().startswith("A wins more often")
    assert c.a_ci[0] < 0.30 < c.a_ci[1]
    assert "no significant" in paired_comparison("A", "B", a, a).verdict()


def test_run_tournament_writes_matrix_and_ratings(tmp_path):
    plugin = tmp_path / "lazy.py"
    plugin.write_text(LAZY)
    names = ["random", f"{plugin}:Last"]
    t = run_tournament(names, 3, "standard-3p", workers=1, out=tmp_path / "t", progress=False)
    assert t.lineups == [("random", f"{plugin}:Last", "random"), (f"{plugin}:Last", "random", f"{plugin}:Last")]
    assert t.run.games.height == 6
    for name in ("pairwise.csv", "matrix.csv", "matrix.png", "ratings.csv", "README.txt", "summary.csv"):
        assert (tmp_path / "t" / name).is_file(), name
    assert set(t.ratings["strategy"]) == set(names)
    share = dict(((a, b), s) for a, b, s in t.pairwise.select("a", "b", "share").iter_rows())
    assert share[(names[0], names[1])] + share[(names[1], names[0])] == pytest.approx(1)
    with pytest.raises(RunConfigError):
        run_tournament(["random"], 2, workers=1, out=tmp_path / "x", progress=False)
    with pytest.raises(RunConfigError):
        run_tournament(["random", "random"], 2, workers=1, out=tmp_path / "x", progress=False)


def test_compare_plays_each_seed_twice_in_the_same_seat(tmp_path):
    c = run_compare("random", "random", 4, "standard-2p", workers=1, out=tmp_path / "c", progress=False)
    games = c.run.games.sort("game")
    assert games.height == 8
    assert games["seed"].to_list()[0::2] == games["seed"].to_list()[1::2]
    assert c.pairs["seat"].to_list() == [0, 1, 0, 1]
    # the same strategy on the same seed and seat plays the same game
    assert c.pairs["a_vp"].to_list() == c.pairs["b_vp"].to_list()
    assert c.comparison.difference == 0 and c.comparison.p_value == 1.0
    saved = json.loads((tmp_path / "c" / "compare.json").read_text())
    assert saved["pairs"] == 4 and "McNemar" in saved["method"]


def test_tournament_and_compare_commands(tmp_path):
    plugin = tmp_path / "lazy.py"
    plugin.write_text(LAZY)
    runner = CliRunner()
    result = runner.invoke(main, ["tournament", "standard-2p", "--players", f"random,{plugin}:Last",
                                  "--games-per-table", "2", "--workers", "1", "--out", str(tmp_path / "t"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "Rating" in result.stdout and "Pairwise" in result.stdout and "95% CI" in result.stdout
    result = runner.invoke(main, ["compare", f"{plugin}:Last", "random", "standard-2p", "--games", "3",
                                  "--workers", "1", "--out", str(tmp_path / "c"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "p-value" in result.stdout and "difference in win rate" in result.stdout
    html = (tmp_path / "c" / "report.html").read_text()
    assert html.index("Paired comparison") < html.index("Win rates") and "exact McNemar" in html
    (tmp_path / "c" / "compare.json").unlink()
    (tmp_path / "c" / "report.html").unlink()
    rebuilt = runner.invoke(main, ["report", str(tmp_path / "c"), "--no-html"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "3 paired games" in rebuilt.stdout and "p-value (exact McNemar)" in rebuilt.stdout
    assert json.loads((tmp_path / "c" / "compare.json").read_text())["pairs"] == 3
    assert not (tmp_path / "c" / "report.html").exists()
    rebuilt = runner.invoke(main, ["report", str(tmp_path / "c")])
    assert rebuilt.exit_code == 0 and "Paired comparison" in (tmp_path / "c" / "report.html").read_text()
    bad = runner.invoke(main, ["compare", "random", "nope", "--games", "3", "--out", str(tmp_path / "d")])
    assert bad.exit_code == 2 and "\n" not in bad.stderr.strip()
    bad = runner.invoke(main, ["tournament", "--players", "random", "--out", str(tmp_path / "e")])
    assert bad.exit_code == 2 and "at least two" in bad.stderr
