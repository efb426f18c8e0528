"""Issue 61: a strategy plays the same game with and without --check. A scripted strategy's
``choose`` overridden past the class check (a mixin, a classmethod, an instance attribute, an
attribute set after the class) is asked in Python either way, so the override plays both times."""

import pytest

from plsim.board import default_board
from plsim.engine import play_game
from plsim.runner.digest import game_digest
from plsim.scenario import load_scenario
from strategies.judge_rush import JudgeRush


def last(view, decision):
    return decision.options[-1]


class Last:
    def choose(self, view, decision):
        return decision.options[-1]


class ByMixin(Last, JudgeRush):
    name = "by-mixin"


class ByClassmethod(JudgeRush):
    name = "by-classmethod"
    choose = classmethod(lambda cls, view, decision: decision.options[-1])


class ByInstance(JudgeRush):
    name = "by-instance"

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        self.choose = last


class Afterwards(JudgeRush):
    name = "afterwards"


Afterwards.choose = lambda self, view, decision: decision.options[-1]


def game(cls, check: bool, seed: int = 4):
    import random

    players = [cls(0, random.Random(1))] + [JudgeRush(seat, random.Random(seat + 1)) for seat in (1, 2, 3)]
    result = play_game(default_board(), load_scenario("standard-4p").rules, players, seed, check_invariants=check)
    return game_digest(result)


@pytest.mark.parametrize("cls", [ByMixin, ByClassmethod, ByInstance, Afterwards])
def test_an_override_plays_the_same_game_with_and_without_check(cls):
    assert game(cls, check=False) == game(cls, check=True) != game(JudgeRush, check=False)
