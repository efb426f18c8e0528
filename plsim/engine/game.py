"""The loop that asks strategies: ``play_game``, and ``Game``, a table with a strategy per seat.

The engine itself (``Table``) never calls a strategy. ``play_game`` steps a table and asks the
strategy of each decision's seat for its answer; ``choose`` is that one asking, with the blame
for whatever goes wrong and, in check mode, the tamper check (VW-2). ``Game`` is the same loop
for callers that play a game in parts: ``plsim play`` (a round at a time, from a saved position)
and the rule tests (a phase at a time).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any, Sequence

from plsim import _core
from plsim.board import Board
from plsim.engine import blame, tamper
from plsim.engine.decisions import Decision, EventLog, Player
from plsim.engine.errors import IllegalOption, InvariantError, StrategyError, TamperError
from plsim.engine.native import core_board, core_rules
from plsim.engine.position import position_to_dict, state_to_dict
from plsim.engine.result import GameResult
from plsim.engine.state import GameState
from plsim.engine.table import Table
from plsim.rules import Rules, check_deck


def strategy_seed(game_seed: int, seat: int) -> int:
    """A strategy's own seed, derived from the game's seed and its seat only."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def offered_index(options: Sequence[Any], choice: Any) -> int | None:
    """Where ``choice`` (or an option equal to it) stands among ``options``; None if it does not."""
    finder = getattr(options, "index", None)
    try:
        return finder(choice) if finder is not None else list(options).index(choice)
    except ValueError:
        return None


def choose(table: Table, strategies: Sequence[Player], decision: Decision) -> Any:
    """Ask the decision's seat for its answer: the engine's own option object (see ``choose_index``)."""
    return decision.options[choose_index(table, strategies, decision)]


def choose_index(table: Table, strategies: Sequence[Player], decision: Decision) -> int:
    """Ask the decision's seat for its answer: where it stands among the options. A strategy that
    raises, answers with something it was not offered or (check mode) changes the game is at
    fault: ``StrategyError``."""
    seat = decision.seat
    strategy = strategies[seat]
    view = table.view(seat)
    before = tamper.fingerprint(table, strategies, seat) if table.check and not answered_by_core(strategy) else None
    try:
        choice = strategy.choose(view, decision)
        index = table.index_of(choice)
    except BaseException as exc:
        if blame.passes_through(exc):
            raise
        raise StrategyError(blame.choice_failed(strategy, seat, decision.kind, view.round, exc)) from exc
    if before is not None:
        changed = tamper.difference(before, tamper.fingerprint(table, strategies, seat))
        if changed:
            raise TamperError(
                f"strategy {blame.label(strategy)} (seat {seat}) changed the game at decision '{decision.kind}' in "
                f"round {view.round}: {changed} (VW-2: a strategy only chooses)"
            )
    if index is None:
        raise StrategyError(
            f"strategy {blame.label(strategy)} (seat {seat}) answered {blame.safe_repr(choice)}, which decision "
            f"'{decision.kind}' did not offer, in round {view.round}"
        )
    return index


def play_game(
    board: Board,
    rules: Rules,
    strategies: Sequence[Player],
    seed: int,
    *,
    log: EventLog | None = None,
    check_invariants: bool = False,
) -> GameResult:
    """Play one whole game from setup to its end; the library call behind ``plsim play``. The
    seats of a strategy with a native policy (``native_seats``) are played by the core."""
    table = Table.new(board, rules, seed, players=len(strategies), log=log, check=check_invariants)
    natives = None if check_invariants else native_seats(strategies)
    if natives is None:
        while (decision := table.decision) is not None:
            table.answer(choose_index(table, strategies, decision))
        return table.result
    try:
        while True:
            table.play_native(natives)
            decision = table.decision
            if decision is None:
                return table.result
            table.answer(choose_index(table, strategies, decision))
    finally:
        for strategy, generator in zip(strategies, natives):
            if isinstance(generator, _core.CoreRandom):
                strategy.rng.setstate(generator.getstate())


def native_seats(strategies: Sequence[Player]) -> list[Any] | None:
    """The seats the core may play itself: a strategy whose own class (not a base) declares
    ``native_policy = "uniform"`` answers ``options[self.rng.randrange(len(options))]`` and
    nothing else, so the core draws the same index from a copy of its generator (handed back
    after the game); a strategy whose class declares ``native_policy = "scripted"`` (a scripted
    strategy, whose subclasses may not define methods) answers as its ``native`` strategy does.
    A strategy whose ``choose`` is not the one its native policy stands for (a mixin's, one set
    on the class later or on the instance) is asked in Python, so the game is the same with
    ``--check`` or without. None when no seat qualifies."""
    seats = []
    for strategy in strategies:
        rng = getattr(strategy, "rng", None)
        policy = getattr(type(strategy), "native_policy", None) if _chooses_as_declared(strategy) else None
        if policy == "scripted":
            seats.append(strategy.native)
        elif type(strategy).__dict__.get("native_policy") == "uniform" and policy and type(rng) is random.Random:
            generator = _core.CoreRandom(0)
            generator.setstate(rng.getstate())
            seats.append(generator)
        else:
            seats.append(None)
    return seats if any(seat is not None for seat in seats) else None


SHIPPED = ("plsim", "strategies")  # the packages of plsim's own distribution


def answered_by_core(strategy: Player) -> bool:
    """Whether the strategy's answers are the core's alone: its ``choose`` is the one a class of
    plsim's own declares a native policy for, which outside check mode the core plays without
    calling it. Check mode does not fingerprint the game around such a decision (two state
    copies a decision, two thirds of a checked game's time): no code but plsim's runs in it."""
    return core_answers(type(strategy)) and _chooses_as_declared(strategy)


def core_answers(cls: type) -> bool:
    """Whether the core answers for the strategy class ``cls`` (``answered_by_core`` but for what
    an instance may add): a class of plsim's own declares its native policy and the ``choose``
    that policy stands for, and no class in between replaces that ``choose``. A subclass of a
    scripted strategy may only set parameters (the registry refuses a method)."""
    declaring = _declaring(cls)
    if declaring is None or declaring.__module__.partition(".")[0] not in SHIPPED:
        return False
    declared = vars(declaring).get("choose")
    return declared is not None and getattr(cls, "choose", None) is declared


def _declaring(cls: type) -> type | None:
    """The class that declares the native policy of ``cls``'s strategies, if any."""
    return next((c for c in cls.__mro__ if "native_policy" in vars(c)), None)


def _chooses_as_declared(strategy: Player) -> bool:
    """Whether the strategy answers with the ``choose`` of the class that declares its native
    policy: no override stands in front of it, in the class's bases, on the class, or on the
    instance."""
    declaring = _declaring(type(strategy))
    declared = vars(declaring).get("choose") if declaring is not None else None
    if declared is None or "choose" in getattr(strategy, "__dict__", {}):
        return False
    return getattr(getattr(strategy, "choose", None), "__func__", None) is declared


class Game(Table):
    """A table with one strategy per seat, played in parts. Build it with ``Game.new`` (a fresh
    setup, played through with the strategies) or ``Game(...)`` from a state."""

    __slots__ = ("strategies", "seat_names", "map_name", "history")

    def __init__(
        self,
        board: Board,
        rules: Rules,
        state: GameState | dict[str, Any],
        strategies: Sequence[Player],
        rng: random.Random | None,
        *,
        seed: int = 0,
        log: EventLog | None = None,
        check: bool = False,
        seat_names: Sequence[str] | None = None,
        map_name: str | None = None,
    ) -> None:
        players = len(state["players"] if isinstance(state, dict) else state.players)
        if len(strategies) != players:
            raise ValueError(f"{players} seats but {len(strategies)} strategies")
        table = Table.from_state(board, rules, state, seed, rng, log=log, check=check)
        super().__init__(board, rules, table.core, seed, log)
        self._setup(strategies, seat_names, map_name)

    def _setup(self, strategies: Sequence[Player], seat_names: Sequence[str] | None, map_name: str | None) -> None:
        self.strategies = list(strategies)
        self.seat_names = list(seat_names or (s.name for s in strategies))
        self.map_name = map_name or self.board.name
        self.history: tuple[dict[str, Any], list[int]] | None = None  # see ``keep_history``

    @classmethod
    def new(  # type: ignore[override]
        cls,
        board: Board,
        rules: Rules,
        strategies: Sequence[Player],
        seed: int,
        *,
        log: EventLog | None = None,
        check: bool = False,
        seat_names: Sequence[str] | None = None,
        map_name: str | None = None,
        keep_history: bool = False,
    ) -> "Game":
        """A fresh game: the deck shuffled and the homes, generals and cards dealt (SU-1..SU-4);
        with ``keep_history``, its history kept from its first decision (``keep_history``)."""
        check_deck(rules, len(strategies))
        core = _core.CoreTable.new(core_board(board), core_rules(rules), seed, len(strategies), check, log is not None)
        game = cls.__new__(cls)
        Table.__init__(game, board, rules, core, seed, log)
        game._setup(strategies, seat_names, map_name)
        game._flush()
        if keep_history:
            game.keep_history()
        game.settle()
        return game

    def settle(self, floor: int = 0) -> None:
        """Do the pending work, the strategies answering every decision, until ``floor`` steps
        are left (and no decision is pending above them)."""
        while True:
            self.run(floor)
            decision = self.decision
            if decision is None or self.pending <= floor:
                return
            self._ask_strategy(decision)

    def _ask_strategy(self, decision: Decision) -> None:
        index = choose_index(self, self.strategies, decision)
        if self.history is not None:
            self.history[1].append(index)
        self.answer(index, advance=False)

    # positions
    def position(self) -> dict[str, Any]:
        """The game's position (``plsim.engine.position``) with the strategies' generators."""
        rngs = [s.rng if isinstance(getattr(s, "rng", None), random.Random) else None for s in self.strategies]
        return position_to_dict(self.state_dict(), self.rules, self.map_name, self.seed, self.rng, self.seat_names,
                                rngs)

    def keep_history(self) -> None:
        """From now on keep the position as it is now and every answer given after it. A
        strategy may remember what it planned earlier in the game; a saved position that carries
        this history (``plsim play --save``) brings the strategies back to what they knew by
        replaying the game from there (``replay``), so that it goes on exactly as it would have."""
        self.history = (self.position(), [])

    def replay(self, answers: Sequence[int], until: dict[str, Any]) -> bool:
        """Answer as recorded while asking the strategies too (so they plan as they did), with
        nothing logged; True if that leads to the state ``until`` (a saved state, as JSON), False
        if not (an edited position, or a strategy that answers otherwise now)."""
        log, self.log = self.log, None
        self.core.logging = False
        self.history = (self.position(), [])
        try:
            for index in answers:
                self.advance()
                decision = self.decision
                if decision is None or not 0 <= index < len(decision.options):
                    return False
                if not getattr(self.strategies[decision.seat], "asks_person", False):
                    choose_index(self, self.strategies, decision)  # a person is not asked again
                self.history[1].append(index)
                self.answer(index, advance=False)
            self.advance()
        finally:
            self.log = log
            self.core.logging = log is not None
        return json.loads(json.dumps(self.state_dict())) == json.loads(json.dumps(until))

    def run_phase(self) -> None:
        """Play the phase the state is at, its clean-up, and step to the next phase."""
        if not self.pending:
            self.open_phase()
        self.settle()

    def play_round(self) -> None:
        start = self.core.round
        while not self.over and self.core.round == start:
            self.run_phase()

    def play(self) -> GameResult:
        self.settle()
        while not self.over:
            self.run_phase()
        return self.result

    def play_decisions(self, count: int) -> None:
        """Answer ``count`` more decisions (fewer if the game ends first) and stop at the next one."""
        for _ in range(count):
            self.advance()
            decision = self.decision
            if decision is None:
                return
            self._ask_strategy(decision)
        self.advance()


__all__ = [
    "Game", "GameResult", "IllegalOption", "InvariantError", "StrategyError", "TamperError", "choose", "play_game",
    "state_to_dict", "strategy_seed",
]
