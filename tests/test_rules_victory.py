"""Section 15 of RULES.md, the Victory Check (V-1..V-4), and plsim's V-5.

Each test builds the points or the ruins by hand and runs the Victory Check phase with
``run_phase``; the outcome is read from ``Game.result``.
"""

from __future__ import annotations

import random

import pytest
from helpers import add_general, blank_game, effects, make_judge, own, sid, victory_points

from plsim.board import default_board
from plsim.engine import play_game, strategy_seed
from plsim.engine.cards import Phase
from plsim.engine.state import Siege
from plsim.rules import rules_from_mapping
from strategies.random_strategy import RandomStrategy


def victory_check(g):
    g.state.phase = Phase.VICTORY
    g.run_phase()
    return g.result


def three_judges(g, seat: int, generals=("Joab", "Samson", "Joshua")) -> None:
    for general, (region, city) in zip(generals, (("Israel", "Megiddo"), ("Philistia", "Gaza"),
                                                  ("Gilead", "Mahanaim"))):
        make_judge(g, add_general(g, general, seat, city), region, city)


def raze(g, *names: str) -> None:
    for name in names:
        effects.raze_settlement(g, sid(g, name), None)


# --- V-1 ------------------------------------------------------------------------------------


def test_v_1_three_vp_win_at_the_end_of_the_round() -> None:
    """V-1: a player with 3 VP (here three Judge titles) wins at the Victory Check."""
    g = blank_game(2)
    three_judges(g, 0)
    assert victory_points(g, 0) == 3
    result = victory_check(g)
    assert result.end_reason == "victory" and result.winner == 0 and result.winners == (0,)
    assert result.final_vp == (3, 0)


def test_v_1_two_vp_do_not_win_and_the_game_goes_on() -> None:
    """V-1: 2 VP are not enough; the next round begins."""
    g = blank_game(2)
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    effects.crown(g, add_general(g, "Samson", 0, "Megiddo"), "test")
    assert victory_points(g, 0) == 2
    victory_check(g)
    assert not g.over and g.state.round == 2 and g.state.phase is Phase.ANNOUNCEMENTS


def test_v_1_points_from_judge_crown_and_tabernacle() -> None:
    """V-1, ST-7: 1 VP per Judge title, 1 for the crown, and 1 for the Tabernacle while the
    Ark's carrier stands on its hex, to the Tabernacle's owner."""
    g = blank_game(2)
    city = make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    g.state.settlements[city].tabernacle = True
    ark = add_general(g, "Tola", 0, "Megiddo", items=("Ark",))
    assert victory_points(g, 0) == 2
    effects.crown(g, ark, "test")
    result = victory_check(g)
    assert result.end_reason == "victory" and result.winner == 0
    # the point leaves with the Ark's carrier ...
    g = blank_game(2)
    city = make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    g.state.settlements[city].tabernacle = True
    own(g, "Jezreel", 0, garrison=1)
    add_general(g, "Tola", 0, "Jezreel", items=("Ark",))
    assert victory_points(g, 0) == 1
    # ... and goes to the Tabernacle's owner, whoever's general carries the Ark onto its hex
    g = blank_game(2)
    city = make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    g.state.settlements[city].tabernacle = True
    add_general(g, "Saul", 1, "Megiddo", items=("Ark",))
    g.state.sieges[g.state.settlements[city].hex] = Siege(1, 1)  # seat 1 besieges the city
    assert victory_points(g, 0) == 2 and victory_points(g, 1) == 0
    victory_check(g)
    assert not g.over


# --- V-2, V-5 -------------------------------------------------------------------------------


def test_v_2_collapse_when_fewer_than_3_regions_can_hold_a_judge() -> None:
    """V-2: a region can hold a Judge with 4 standing settlements; when fewer than 3 regions
    can, the land collapses and everyone loses."""
    g = blank_game(4)
    raze(g, "Sidon", "Mahanaim", "Succoth")  # Syrophoenicia 3, Gilead 3: Israel, Judah, Philistia left
    victory_check(g)
    assert not g.over
    raze(g, "Gaza", "Ashkelon")  # Philistia 3
    result = victory_check(g)
    assert result.end_reason == "collapse"
    assert result.winners == () and result.winner is None


def test_v_2_edom_counts_only_in_six_player_games() -> None:
    """V-2, MP-3: Edom, on the board only with six players, never counts below six; with six it
    is one more region that can hold a Judge."""
    for players, collapses in ((5, True), (6, False)):
        g = blank_game(players)
        raze(g, "Sidon", "Mahanaim", "Succoth", "Gaza", "Ashkelon")
        result = victory_check(g)
        assert (result.end_reason == "collapse") is collapses, players


def test_v_5_collapse_is_checked_before_points() -> None:
    """V-5, V-2: a collapsed land has no winner even if someone reached 3 VP that round."""
    g = blank_game(2)
    three_judges(g, 0)
    raze(g, "Sidon", "Jabesh-Gilead", "Succoth", "Ashkelon", "Ashdod")
    assert victory_points(g, 0) == 3
    result = victory_check(g)
    assert result.end_reason == "collapse" and result.winner is None and result.winners == ()


# --- V-3 ------------------------------------------------------------------------------------


def two_leaders(g, seat_0_crowned: bool) -> None:
    """Seat 0: three Judges (and the crown: 4 VP); seat 1: two Judges and the crown, or the
    Tabernacle with the Ark's carrier on it (3 VP)."""
    for seat, general, region, city in (
        (0, "Joab", "Israel", "Megiddo"), (0, "Samson", "Philistia", "Gaza"), (0, "Joshua", "Gilead", "Mahanaim"),
        (1, "Saul", "Judah", "Hebron"), (1, "Caleb", "Syrophoenicia", "Sidon"),
    ):
        make_judge(g, add_general(g, general, seat, city), region, city)
    if seat_0_crowned:
        effects.crown(g, add_general(g, "David", 0, "Megiddo"), "test")
        g.state.settlements[sid(g, "Hebron")].tabernacle = True
        add_general(g, "Jair", 1, "Hebron", items=("Ark",))
    else:
        effects.crown(g, add_general(g, "Jair", 1, "Hebron"), "test")


@pytest.mark.parametrize("vp, settlements, coins, outcome", [
    ((4, 3), (3, 3), (0, 9), (0,)),  # the most VP wins
    ((3, 3), (4, 3), (0, 9), (0,)),  # then the most settlements
    ((3, 3), (3, 3), (4, 5), (1,)),  # then the most coins
    ((3, 3), (3, 3), (5, 5), (0, 1)),  # still tied: a draw between them
])
def test_v_3_tie_breaks_vp_then_settlements_then_coins_then_draw(vp, settlements, coins, outcome) -> None:
    """V-3: several players with 3 VP or more: the most VP wins, then the most settlements,
    then the most coins; a tie after all that is a draw between them (no single winner)."""
    g = blank_game(3)
    two_leaders(g, seat_0_crowned=vp[0] == 4)
    own(g, "Dor", 2, garrison=1)
    g.state.players[2].coins = 50  # a rich player below 3 VP plays no part
    extras = {0: iter(("Joppa", "Gezer")), 1: iter(("Beth-shean", "Gibeon", "Jericho"))}
    for seat in (0, 1):
        while sum(1 for st in g.state.settlements if st.owner == seat and st.standing) < settlements[seat]:
            own(g, next(extras[seat]), seat, garrison=1)
        g.state.players[seat].coins = coins[seat]
    assert (victory_points(g, 0), victory_points(g, 1)) == vp
    result = victory_check(g)
    assert result.winners == outcome
    if len(outcome) == 1:
        assert result.end_reason == "victory" and result.winner == outcome[0]
    else:
        assert result.end_reason == "draw" and result.winner is None


# --- V-4 ------------------------------------------------------------------------------------


def test_v_4_the_game_stops_after_60_rounds_without_a_winner() -> None:
    """V-4: a game not over after 60 rounds stops at round 60's Victory Check, with no winner
    and the end reason `round_limit`."""
    g = blank_game(2)
    g.state.round = 59
    victory_check(g)
    assert not g.over and g.state.round == 60
    result = victory_check(g)
    assert result.end_reason == "round_limit" and result.winners == () and result.winner is None
    assert result.rounds == 60


def test_v_4_round_limit_is_a_parameter_of_a_whole_game() -> None:
    """V-4: `victory.max_rounds` ends a whole game after that many rounds."""
    rules = rules_from_mapping({"victory": {"max_rounds": 3}})
    strategies = [RandomStrategy(seat, random.Random(strategy_seed(5, seat))) for seat in range(3)]
    result = play_game(default_board(), rules, strategies, 5, check_invariants=True)
    assert result.end_reason in ("round_limit", "victory", "draw", "collapse")
    if result.end_reason == "round_limit":
        assert result.rounds == 3
    assert result.rounds <= 3
