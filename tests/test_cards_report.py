"""Cards in a run: cards.parquet records every card event of every game; cards.csv and cards.png
associate what a seat did with a card with its win rate (associations, not causes)."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.runner.digest import play_seeds
from plsim.stats import card_table

GAMES = 6


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("cards") / "run"
    result = CliRunner().invoke(main, ["run", "standard-2p", "--games", str(GAMES), "--seed", "4",
                                       "--workers", "2", "--quiet", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_cards_parquet_holds_exactly_each_games_card_events(run_folder):
    games = pl.read_parquet(run_folder / "games.parquet").sort("game")
    cards = pl.read_parquet(run_folder / "cards.parquet")
    assert cards.columns == ["game", "round", "seat", "card", "action"]
    for game, seed, seat_0, seat_1 in games.select("game", "seed", "seat_0", "seat_1").iter_rows():
        (result,) = play_seeds("standard-2p", [seat_0, seat_1], [seed])
        recorded = cards.filter(pl.col("game") == game).select(
            "round", "seat", pl.col("card").cast(pl.String), pl.col("action").cast(pl.String)).rows()
        assert recorded == [(r, s, k, str(a)) for r, s, k, a in result.card_events]


def test_the_card_table_counts_each_group_of_seat_games(run_folder):
    table = pl.read_csv(run_folder / "cards.csv")
    games = pl.read_parquet(run_folder / "games.parquet")
    seat_games = int(games["players"].sum())
    for row in table.iter_rows(named=True):
        groups = row["used_seat_games"] + row["held_not_used_seat_games"] + row["never_held_seat_games"]
        assert groups == seat_games, row["card"]
        assert 0 <= row["games_used"] <= row["games_drawn"] <= GAMES
    assert (run_folder / "cards.png").stat().st_size > 10_000


def test_card_table_on_a_hand_made_record():
    """Two 2-seat games: seat 0 wins game 0 after playing Tax; in game 1 seat 1 holds Tax unused
    and seat 0 wins without it. An event drawn counts as used."""
    games = pl.DataFrame({"game": [0, 1], "players": [2, 2], "winner_seat": [0, 0],
                          "end_reason": ["victory", "victory"]},
                         schema={"game": pl.Int32, "players": pl.Int8, "winner_seat": pl.Int8, "end_reason": pl.String})
    cards = pl.DataFrame({
        "game": [0, 0, 1, 1, 1],
        "round": [1, 2, 1, 3, 3],
        "seat": [0, 0, 1, 0, -1],
        "card": ["Tax", "Tax", "Tax", "Plague", "Plague"],
        "action": ["drawn", "played", "drawn", "drawn", "resolved"],
    })
    table = {row["card"]: row for row in card_table(cards, games).iter_rows(named=True)}
    tax = table["Tax"]
    assert (tax["used_seat_games"], tax["used_wins"]) == (1, 1)
    assert (tax["held_not_used_seat_games"], tax["held_not_used_wins"]) == (1, 0)
    assert (tax["never_held_seat_games"], tax["never_held_wins"]) == (2, 1)
    assert tax["difference"] == pytest.approx(1.0 - 0.5)
    assert tax["difference_low"] < tax["difference"] < tax["difference_high"]
    plague = table["Plague"]
    assert (plague["category"], plague["used_seat_games"], plague["used_wins"]) == ("event", 1, 1)
    assert (plague["games_drawn"], plague["games_used"]) == (1, 1)


def test_a_fault_game_is_left_out_of_the_card_table():
    games = pl.DataFrame({"game": [0, 1], "players": [2, 2], "winner_seat": [0, None],
                          "end_reason": ["victory", "fault"]},
                         schema={"game": pl.Int32, "players": pl.Int8, "winner_seat": pl.Int8, "end_reason": pl.String})
    cards = pl.DataFrame({"game": [0, 1], "round": [1, 1], "seat": [0, 1], "card": ["Tax", "Tax"],
                          "action": ["drawn", "drawn"]})
    tax = card_table(cards, games).row(0, named=True)
    assert tax["games"] == 1 and tax["held_not_used_seat_games"] == 1 and tax["never_held_seat_games"] == 1
