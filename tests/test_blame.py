"""Issue 19: a failed decision is blamed on the right party, in a message of bounded length.

Whatever a strategy's choose raises — an Exception, SystemExit, asyncio.CancelledError — is a
StrategyError naming its seat; its name or its answer's repr raising is its fault too; only
KeyboardInterrupt (Ctrl-C belongs to whoever runs the game) and the runner's Interruption pass.
"""

import asyncio

import pytest

from chaos import write_plugins
from helpers import Scripted
from plsim.board import default_board
from plsim.engine import blame
from plsim.engine.game import Game, StrategyError
from plsim.rules import Rules
from plsim.strategy.registry import resolve


def raising(exc):
    def rule(view, decision):
        raise exc
    return rule


def decide(rule, strategy_class=Scripted):
    """A new game whose first decision, seat 0's choice of a home (SU-2), ``rule`` answers."""
    return Game.new(default_board(), Rules(), [strategy_class(0, rule), Scripted(1)], seed=0, check=True)


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


def test_a_name_that_raises_is_described_not_raised():
    with pytest.raises(StrategyError, match=r"strategy <Nameless whose name raised RuntimeError> \(seat 0\) raised"):
        decide(raising(ValueError("bad")), Nameless)


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    """The answer classes of the chaos plugin: a repr of 20 MB, and one that raises."""
    entries = write_plugins(tmp_path_factory.mktemp("lab"))
    return {name: resolve(entries[name]).cls.answer for name in ("HugeAnswer", "UnprintableAnswer")}


@pytest.mark.parametrize("name, shown", [
    ("HugeAnswer", "y" * 1500 + "... [cut: 20,000,000 characters]"),
    ("UnprintableAnswer", "<Unprintable whose repr raised RuntimeError>"),
])
def test_an_answer_not_offered_is_shown_bounded(answers, name, shown):
    with pytest.raises(StrategyError) as caught:
        decide(lambda view, decision: answers[name]())
    message = str(caught.value)
    assert f"answered {shown}, which decision 'home' did not offer" in message and len(message) < 2000


def test_an_error_text_of_20_mb_is_cut_with_its_length():
    with pytest.raises(StrategyError) as caught:
        decide(raising(ValueError("x" * 20_000_000)))
    assert len(str(caught.value)) < 2000 and "... [cut: 20,000,000 characters] at decision 'home'" in str(caught.value)


def test_cut_keeps_short_texts_whole():
    assert blame.cut("short") == "short"
    assert blame.cut("a" * 10, 4) == "aaaa... [cut: 10 characters]"
