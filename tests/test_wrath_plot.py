"""The Wrath plot's traces of games with a release: the rounds where the cup overflowed."""

import polars as pl

from plsim.plots import plot_wrath
from plsim.plots.report_plots import release_traces


def frames():
    wraths = {0: [4, 9, 12, 2, 5], 1: [3, 11, 12, 1, 2], 2: [1, 2, 3, 4, 5]}
    pairs = {0: [0, 0, 0, 1, 1], 1: [0, 0, 0, 0, 0], 2: [0, 0, 0, 0, 0]}  # game 1's pair was beaten at once
    rounds = pl.DataFrame(
        [(g, r + 1, s, wraths[g][r], pairs[g][r]) for g in wraths for r in range(5) for s in range(2)],
        schema={"game": pl.Int64, "round": pl.Int64, "seat": pl.Int64, "wrath": pl.Int64, "invader_pairs": pl.Int64},
        orient="row",
    ).with_columns(strategy=pl.lit("x"))
    games = pl.DataFrame({"game": [0, 1, 2], "pairs_released": [1, 1, 0], "end_reason": ["victory"] * 3,
                          "players": [2] * 3, "rounds": [5] * 3, "strategies": ["x,x"] * 3,
                          "seat_0": ["x"] * 3, "seat_1": ["x"] * 3})
    return rounds, games


def test_release_traces_mark_the_round_the_cup_overflowed_in_games_with_a_release():
    rounds, games = frames()
    traces = release_traces(rounds, games, threshold=13)
    assert traces["game"].unique().sort().to_list() == [0, 1]  # game 2 released nothing
    marked = traces.filter("released").select("game", "round").rows()
    assert marked == [(0, 4), (1, 4)]  # pairs loose in game 0; a full cup emptied in game 1


def test_the_wrath_plot_draws_with_the_traces(tmp_path):
    rounds, games = frames()
    path = plot_wrath(rounds, games, 13, tmp_path / "wrath.png")
    assert path.stat().st_size > 10_000
