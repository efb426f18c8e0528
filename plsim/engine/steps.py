"""The game's pending work as data: ``Step`` and ``Ask`` on the state's stack (``state.pending``).

A rule that needs an answer does not call a strategy: it pushes an ``Ask`` (the ``Decision`` and
what its answer does) and returns. Work that has to wait for the answer is pushed beneath it as a
``Step``: a function of the context and plain arguments (seats, names, ids, options; never a
live object, so that a copied or saved state carries its own). The table runs the top of the
stack until an ``Ask`` with two or more options is on top: that is the game's pending decision.

The rule code keeps its shape with one idiom: before a call that may push, note the stack's
height; after it, ``ctx.defer(mark, rest, *args)`` puts the rest of the work beneath whatever the
call pushed (and returns True), or returns False, and the work goes on at once.

Every function that a ``Step`` runs or an ``Ask`` answers with is registered with ``@step``, so
that a position saved at any decision names it (``plsim.engine.position``).
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from plsim.engine.decisions import Decision, DecisionKind
from plsim.engine.errors import InvariantError
from plsim.engine.options import PASS

MAX_ACTIONS_PER_TURN = 5000  # every action uses something up; far more than any turn can take


class Step(NamedTuple):
    """Work still to do: ``run(ctx, *args)``."""

    run: Callable[..., None]
    args: tuple = ()


class Ask(NamedTuple):
    """A decision put to a seat: ``then(ctx, choice, *args)`` applies the answer. ``again`` is the
    step that poses it anew where its options read the seat's hand (a re-dealt hand, after
    ``Table.determinise``, gets options of its own)."""

    decision: Decision
    then: Callable[..., None]
    args: tuple = ()
    again: Step | None = None


STEPS: dict[str, Callable[..., Any]] = {}  # "module.function" -> the function
_NAMES: dict[Callable[..., Any], str] = {}


def step(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Register a function that a ``Step`` runs or an ``Ask`` answers with."""
    name = f"{fn.__module__.rsplit('.', 1)[-1]}.{fn.__name__}"
    STEPS[name] = fn
    _NAMES[fn] = name
    return fn


def name_of(fn: Callable[..., Any]) -> str:
    """The saved name of a registered step function."""
    try:
        return _NAMES[fn]
    except KeyError:
        raise InvariantError(f"{fn.__qualname__} is on the game's stack but not registered with @step") from None


# a seat's turn: it acts again and again until it passes
def act(ctx: Any, turn: Step, seat: int, kind: DecisionKind, options: list, apply: Callable[..., None],
        **context: Any) -> None:
    """RD-4, AQ-1, AN-3: one action of a turn. The seat picks one of ``options`` or PASS; a
    choice is applied by ``apply(ctx, seat, choice)``, and then ``turn`` (the step that built these
    options, its last argument counting the actions) comes back for the next one. No options, or
    a game already over: the turn ends."""
    if not options or ctx.end_reason is not None:
        return
    count = turn.args[-1]
    if count >= MAX_ACTIONS_PER_TURN:
        raise InvariantError(
            f"seat {seat} was still acting at '{kind}' after {count} actions in round {ctx.state.round}: "
            "an engine loop that never runs out of options"
        )
    ctx.ask(seat, kind, (*options, PASS), acted, turn, apply, seat, again=turn, **context)


@step
def acted(ctx: Any, choice: Any, turn: Step, apply: Callable[..., None], seat: int) -> None:
    if choice is PASS:  # the answer is the very object offered
        return
    ctx.state.pending.append(Step(turn.run, (*turn.args[:-1], turn.args[-1] + 1)))
    apply(ctx, seat, choice)
