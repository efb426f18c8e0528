"""Issue 61: the forward model's door and a view's seat. Seats are checked where they enter, a
caller's generator must deal a permutation, a copy is a true copy, an answer equal to an offered
option is taken as the docs promise and a malformed one is IllegalOption; a view cannot be turned
to another seat."""

import copy
import random

import pytest

from plsim.board import default_board
from plsim.engine import Table
from plsim.engine.errors import IllegalOption
from plsim.engine.options import Choose, Move
from plsim.rules import Rules


def table_at(kind: str, seed: int = 5) -> Table:
    """A 4-player game answered at random to the first decision of ``kind``."""
    table = Table.new(default_board(), Rules(), seed, players=4)
    rng = random.Random(seed)
    while table.decision is not None and table.decision.kind != kind:
        table.apply(rng.choice(table.decision.options))
    assert table.decision is not None
    return table


@pytest.mark.parametrize("seat", [4, 255, -1, 10**6, 2**40])
def test_determinise_refuses_a_seat_the_game_does_not_have(seat):
    table = table_at("home")
    with pytest.raises(ValueError, match=f"seat {seat} is not a seat of this game"):
        table.determinise(seat, random.Random(1))


class Duplicating(random.Random):
    """A caller's generator whose shuffle copies the first item over the second."""

    def shuffle(self, items):
        super().shuffle(items)
        if len(items) > 1:
            items[1] = items[0]


def test_a_generator_that_does_not_shuffle_into_a_permutation_is_refused():
    table = table_at("movement")
    with pytest.raises(ValueError, match="did not leave a permutation"):
        table.determinise(0, Duplicating(3))
    assert table.determinise(0, random.Random(3)).decision is not None  # a true shuffle deals


@pytest.mark.parametrize("make", [copy.copy, copy.deepcopy])
def test_a_copied_table_is_a_true_copy(make):
    table = table_at("movement")
    before = table.state_dict()
    twin = make(table)
    twin.apply(twin.decision.options[-1])
    assert table.state_dict() == before and table.decision is not None
    table.apply(table.decision.options[0])  # the original's cached decision still answers


def test_an_answer_equal_to_an_offered_option_is_taken():
    table = table_at("home")
    offered = table.decision.options[1]
    assert isinstance(offered, Choose) and isinstance(offered.value, int)
    assert table.clone().apply(Choose(float(offered.value))) == offered
    moving = table_at("movement")
    move = next(o for o in moving.decision.options if isinstance(o, Move))
    assert moving.apply(Move(move.general, move.dest, 0)) == move


@pytest.mark.parametrize("answer", [Choose(None), Choose("Nobody"), tuple.__new__(Choose, ()), ("not", "an", "option"),
                                    object()])
def test_a_malformed_answer_is_an_illegal_option(answer):
    table = table_at("home")
    with pytest.raises(IllegalOption, match="is not an option of decision 'home'"):
        table.apply(answer)


def test_a_view_cannot_be_turned_to_another_seat():
    table = table_at("movement")
    view = table.view(0)
    for turn in (lambda: object.__setattr__(view, "seat", 1), lambda: setattr(view, "seat", 1)):
        with pytest.raises(AttributeError):
            turn()
    view.__dict__["seat"] = 1
    assert view.seat == 0 and view.hand == table.view(0).hand
