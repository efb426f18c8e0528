"""Issue 19: a failed decision is blamed on the right party, in a message of bounded length.

Whatever a strategy's choose raises — an Exception, SystemExit, asyncio.CancelledError — is a
StrategyError naming its seat; its name or its answer's repr raising is its fault too; only
KeyboardInterrupt (Ctrl-C belongs to whoever runs the game) and the runner's Interruption pass.
"""

import asyncio

import pytest

from helpers import Scripted, blank_game
from plsim.engine import blame
from plsim.engine.decisions import DecisionKind
from plsim.engine.game import StrategyError
from plsim.engine.options import Choose


def raising(exc):
    def rule(view, decision):
        raise exc
    return rule


def decide(rule, strategy_class=Scripted):
    game = blank_game(2, strategies=[strategy_class(0, rule), Scripted(1)])
    return game.decide(0, DecisionKind.HOME, [Choose(1), Choose(2)])


@pytest.mark.parametrize("exc", [ValueError("bad"), SystemExit(3), asyncio.CancelledError(), GeneratorExit()])
def test_whatever_choose_raises_is_the_strategys_fault(exc):
    with pytest.raises(StrategyError, match=rf"strategy 'scripted' \(seat 0\) raised {type(exc).__name__}"):
        decide(raising(exc))


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), blame.Interruption()])
def test_ctrl_c_and_the_runners_interruption_pass_through(exc):
    with pytest.raises(type(exc)):
        decide(raising(exc))


class Nameless(Scripted):
    """Its name raises once it was asked to decide (the engine reads it at the start too)."""

    @property
    def name(self):
        if self.asked:
            raise RuntimeError("no name")
        return "nameless"


class Huge:
    def __repr__(self):
        return "y" * 20_000_000


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr")


def test_a_name_that_raises_is_described_not_raised():
    with pytest.raises(StrategyError, match=r"strategy <Nameless whose name raised RuntimeError> \(seat 0\) raised"):
        decide(raising(ValueError("bad")), Nameless)


@pytest.mark.parametrize("answer, shown", [
    (Huge, "y" * 1500 + "... [cut: 20,000,000 characters]"),
    (Unprintable, "<Unprintable whose repr raised RuntimeError>"),
])
def test_an_answer_not_offered_is_shown_bounded(answer, shown):
    with pytest.raises(StrategyError) as caught:
        decide(lambda view, decision: answer())
    message = str(caught.value)
    assert f"answered {shown}, which decision 'home' did not offer" in message and len(message) < 2000


def test_an_error_text_of_20_mb_is_cut_with_its_length():
    with pytest.raises(StrategyError) as caught:
        decide(raising(ValueError("x" * 20_000_000)))
    assert len(str(caught.value)) < 2000 and "... [cut: 20,000,000 characters] at decision 'home'" in str(caught.value)


def test_cut_keeps_short_texts_whole():
    assert blame.cut("short") == "short"
    assert blame.cut("a" * 10, 4) == "aaaa... [cut: 10 characters]"
