"""Issue 59: the named tiers are strategies any command accepts, each a fixed parameter set of
the guarded search, legal and deterministic for a seed."""

import random

import pytest
from click.testing import CliRunner

from plsim.board import default_board
from plsim.cli import main
from plsim.engine import play_game
from plsim.runner.digest import game_digest
from plsim.scenario import load_scenario
from plsim.strategy.registry import resolve
from strategies.judge_rush import JudgeRush

STRONG = "mcts:endgame=2,rounds=3,depth=150,iterations=16,margin=0.05"


@pytest.mark.parametrize("tier, spelled", [("strong", STRONG), ("expert", STRONG.replace("=16", "=240"))])
def test_a_tier_is_its_documented_parameter_set(tier, spelled):
    assert resolve(tier).make(0, 1).settings == resolve(spelled).make(0, 1).settings


def game(entry: str, seed: int, check: bool = False) -> str:
    players = [resolve(entry).make(0, seed)] + [JudgeRush(s, random.Random(seed + s)) for s in (1, 2, 3)]
    return game_digest(play_game(default_board(), load_scenario("standard-4p").rules, players, seed,
                                 check_invariants=check))


def test_strong_plays_the_game_its_parameters_play_legally_and_the_same_for_a_seed():
    digest = game(STRONG, 7)
    assert game("strong", 7) == digest == game("strong", 7, check=True)
    assert game("strong", 8) != digest


def test_the_tiers_are_listed_and_shown_with_their_strength_and_cost():
    listed = CliRunner().invoke(main, ["strategies"]).output
    assert [line.split()[0] for line in listed.splitlines() if line.split()[0] in ("strong", "expert")] == \
        ["expert", "strong"]
    shown = CliRunner().invoke(main, ["strategies", "--show", "expert"]).output
    assert "+11.2 pp [+7.7, +14.9]" in shown and "9.4 to 11 s of a core a game" in shown and "240" in shown
