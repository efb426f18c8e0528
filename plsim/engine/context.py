"""What the rule functions work on: ``Context``, the small context of one game.

A context holds the state, the board, the rules, the game's own generator and the event sink,
plus the game's records (its report rows, card events and end) and the option tables it keeps.
Rule functions take it instead of a whole game; they never call a strategy: a decision is
pushed onto the state's stack (``ask``) and answered later (``plsim.engine.table``).
"""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

from plsim.board import Board
from plsim.engine.decisions import Decision, DecisionKind
from plsim.engine.errors import InvariantError
from plsim.engine.invariants import check_invariants
from plsim.engine.scoring import seat_row
from plsim.engine.state import GameState
from plsim.engine.steps import Ask, Step
from plsim.rules import Rules

EventLog = Callable[[dict[str, Any]], None]
NO_CONTEXT: Mapping[str, Any] = MappingProxyType({})  # the context of a decision about nothing in particular


class Context:
    """One game's state, board, rules, generator, event sink and records.

    ``reach_memo`` and ``option_memo`` hold answers that depend only on the board and their keys
    (routes, option objects), so copies of a game share them; ``stamped`` holds values keyed on
    this state's write counters (``state.ledger``), so it is never shared."""

    def __init__(
        self,
        board: Board,
        rules: Rules,
        state: GameState,
        rng: random.Random,
        *,
        seed: int = 0,
        log: EventLog | None = None,
        check: bool = False,
    ) -> None:
        self.board = board
        self.rules = rules
        self.state = state
        self.rng = rng
        self.seed = seed
        self.log = log
        self.check = check
        self.end_reason: str | None = None
        self.winners: tuple[int, ...] = ()
        self.round_rows: list[tuple] = []
        self.card_events: list[tuple[int, int, str, str]] = []
        self.reach_memo: dict = {}  # movement.reachable's answers, by the pieces within reach
        self.option_memo: dict = {}  # options built once and offered again (movement, purchases, Assassin)
        self.stamped: dict = {}  # values kept while this state's counters say they hold

    # decisions
    def ask(self, seat: int, kind: DecisionKind, options: Sequence[Any], then: Callable[..., None], *args: Any,
            again: Step | None = None, **context: Any) -> None:
        """Put a decision to ``seat``: ``then(ctx, choice, *args)`` applies the answer. A lone
        option needs no asking: it is applied at once, and the decision is not counted."""
        if len(options) == 1:
            then(self, options[0], *args)
            return
        if not options:
            raise ValueError(f"decision '{kind}' offered no options")
        self.state.decisions += 1
        decision = Decision(kind, seat, tuple(options), MappingProxyType(context) if context else NO_CONTEXT)
        self.state.pending.append(Ask(decision, then, args, again))

    def push(self, run: Callable[..., None], *args: Any) -> None:
        """Work to do next (the top of the stack)."""
        self.state.pending.append(Step(run, args))

    def sequence(self, *steps: Step) -> None:
        """Work to do next, in this order."""
        self.state.pending.extend(reversed(steps))

    def defer(self, mark: int, run: Callable[..., None], *args: Any) -> bool:
        """If what was called since the stack stood at ``mark`` left work on it, the rest
        (``run(ctx, *args)``) waits beneath that work: True. Otherwise False: go on at once."""
        pending = self.state.pending
        if len(pending) <= mark:
            return False
        pending.insert(mark, Step(run, args))
        return True

    # events and records
    def emit(self, kind: str, **fields: Any) -> None:
        if self.log is not None:
            self.log({"round": self.state.round, "phase": self.state.phase.value, "event": kind, **fields})

    def record_round(self) -> None:
        self.round_rows.extend(seat_row(self.state, seat) for seat in range(self.state.n_players))

    def finish(self, reason: str, winners: tuple[int, ...] = ()) -> None:
        self.end_reason = reason
        self.winners = winners
        self.emit("game_over", reason=reason, winners=list(winners))

    def verify(self, where: str) -> None:
        """Check mode: every invariant holds (``plsim.engine.invariants``)."""
        if self.check:
            problems = check_invariants(self.state, self.rules)
            if problems:
                raise InvariantError(f"after {where} in round {self.state.round}: " + "; ".join(problems))
