"""The game stepped by the Rust core (``plsim._core``), with the Python API of ``Table``.

The core owns the state; this class hands the caller the same decisions, results, views and
copies the Python engine does. Board and rules are handed to the core once each (cached by
identity): the map's tables as ``plsim.board`` built them, the rules as ``Rules.to_dict()``.
"""

from __future__ import annotations

import json
import random
from types import MappingProxyType
from typing import Any

from plsim import _core
from plsim.board import Board
from plsim.engine.context import NO_CONTEXT, EventLog
from plsim.engine.decisions import Decision, DecisionKind
from plsim.engine.errors import IllegalOption
from plsim.engine.result import GameResult
from plsim.rules import Rules, check_deck

_BOARDS: dict[int, tuple[Board, Any]] = {}
_RULES: dict[int, tuple[Rules, Any]] = {}
_KINDS = {kind.value: kind for kind in DecisionKind}


def core_board(board: Board) -> Any:
    """The core's copy of a map, built once per ``Board`` object."""
    kept = _BOARDS.get(id(board))
    if kept is None or kept[0] is not board:
        regions = list(board.regions)
        settlements = [(s.name, s.hex, regions.index(s.region) if s.region is not None else -1, s.canaanite, s.min_players)
                       for s in board.settlements]
        kept = _BOARDS[id(board)] = (board, _core.CoreBoard(
            board.name, board.width, [int(t) for t in board.terrain], list(board.enter_cost),
            [list(n) for n in board.neighbours], list(board.settlement_at), settlements,
            [(name, list(spec.settlements)) for name, spec in board.regions.items()], list(board.ring),
            list(board.storm_sealed)))
    return kept[1]


def core_rules(rules: Rules) -> Any:
    """The core's copy of a rule set, built once per ``Rules`` object."""
    kept = _RULES.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _RULES[id(rules)] = (rules, _core.CoreRules(json.dumps(rules.to_dict())))
    return kept[1]


class NativeTable:
    """A game in progress that the caller steps, played by the core (see ``plsim.engine.table``)."""

    __slots__ = ("board", "rules", "seed", "log", "core", "_decision", "__weakref__")

    def __init__(self, board: Board, rules: Rules, core: Any, seed: int, log: EventLog | None) -> None:
        self.board = board
        self.rules = rules
        self.seed = seed
        self.log = log
        self.core = core
        self._decision: Decision | None = None

    @classmethod
    def new(cls, board: Board, rules: Rules, seed: int, players: int = 4, *, log: EventLog | None = None,
            check: bool = False) -> "NativeTable":
        """A fresh game, set up (SU-1..SU-4) and stepped to its first decision."""
        check_deck(rules, players)
        core = _core.CoreTable.new(core_board(board), core_rules(rules), seed, players, check, log is not None)
        table = cls(board, rules, core, seed, log)
        table._flush()
        return table

    # the decision
    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for, or None once it is over."""
        decision = self._decision
        if decision is None:
            found = self.core.decision()
            if found is None:
                return None
            kind, seat, context, options = found
            decision = self._decision = Decision(_KINDS[kind], seat, options,
                                                 MappingProxyType(context) if context else NO_CONTEXT)
        return decision

    def apply(self, option: Any) -> Any:
        """Answer the pending decision with one of its options (or an equal one) and play on to
        the next decision; returns the engine's own option object."""
        decision = self.decision
        if decision is None:
            raise IllegalOption("no decision is pending" + (": the game is over" if self.over else ""))
        index = self.core.find(option)
        if index is None:
            raise IllegalOption(f"{option!r} is not an option of decision '{decision.kind}'")
        chosen = decision.options[index]
        self.answer_index(index)
        return chosen

    def answer_index(self, index: int) -> None:
        """Apply the pending decision's ``index``-th option and play on to the next decision."""
        self._decision = None
        try:
            self.core.answer(index)
        finally:
            self._flush()

    def _flush(self) -> None:
        """Hand the events the core logged to the log, in order."""
        if self.log is not None:
            for event in self.core.take_events():
                self.log(event)

    # the game
    @property
    def over(self) -> bool:
        return self.core.over

    @property
    def result(self) -> GameResult:
        """The game's result (end reason "unfinished" while it goes on)."""
        core = self.core
        players, rounds, vp, coins, wrath, released, razed, judge, king, decisions = core.figures()
        return GameResult(
            seed=self.seed, players=players, rounds=rounds, end_reason=core.end_reason or "unfinished",
            winners=tuple(core.winners), final_vp=vp, final_coins=coins, final_wrath=wrath, pairs_released=released,
            settlements_razed=razed, first_judge_round=judge, first_king_round=king, decisions=decisions,
            round_rows=core.round_rows(0), card_events=tuple(core.card_events(0)),
        )

    # copies
    def clone(self) -> "NativeTable":
        """An independent copy: the same future under the same answers; it logs nothing."""
        return NativeTable(self.board, self.rules, self.core.clone(), self.seed, None)

    def state_dict(self) -> dict[str, Any]:
        """The state as ``plsim.engine.position.state_to_dict`` writes it."""
        return self.core.state_dict()


def native_generator(table: NativeTable) -> random.Random:
    """The core's generator as a ``random.Random`` in the same state."""
    rng = random.Random()
    rng.setstate(table.core.rng_state())
    return rng
