"""A game the caller steps: ``Table``, played by the Rust core (``plsim._core``).

    t = Table.new(board, rules, seed, players=4)   # setup done; stops at the first decision
    t.decision             # the pending Decision (seat, kind, options, context); None once over
    t.apply(option)        # one of t.decision.options; plays forced steps and chance to the next one
    t.over, t.result       # GameResult once over, as play_game returns it
    t.view(seat)           # the sealed View of that seat, as a strategy sees it now
    t.clone()              # an independent copy: same future under the same answers
    t.determinise(seat, rng)  # a clone in which all that ``seat`` cannot see is re-dealt
    t.position_value(seat, weights)  # the search strategies' evaluation of the position
    t.playout(seed, "round", policy="heuristic")  # play on inside the core with a native policy
    t.simulate(seat, [i, j], seed, "heuristic", last_round, cap, weights)  # a search's play-outs, valued

The table holds no strategies: whoever drives it answers (``plsim.engine.game.play_game`` asks a
strategy per seat; a search agent tries options on clones). The core owns the state, its
generator and its pending work; this class hands out decisions (their options built only when
read), views, results, events (to ``log``) and snapshots of the state (``state``).
"""

from __future__ import annotations

import json
import random
import weakref
from types import MappingProxyType
from typing import Any

from plsim import _core
from plsim.board import Board
from plsim.engine.blame import safe_repr
from plsim.engine.decisions import NO_CONTEXT, Decision, DecisionKind, EventLog
from plsim.engine.errors import IllegalOption
from plsim.engine.evaluation import WeightValues
from plsim.engine.native import core_board, core_rules
from plsim.engine.position import PositionError, read_position, state_from_dict
from plsim.engine.result import GameResult
from plsim.engine.state import GameState, Scalars
from plsim.engine.view import View, _Source, refresh
from plsim.rules import Rules, check_deck

_KINDS = {kind.value: kind for kind in DecisionKind}


def check_pending(table: "Table", where: str) -> None:
    """A loaded position's pending decision is the one the rules pose there (its options too), or
    ``PositionError`` naming ``where``: a file's options are never played because it lists them."""
    try:
        table.core.check_pending()
    except ValueError as exc:
        raise PositionError(f"position {where}: {exc}") from None


class Table:
    """A game in progress that the caller steps; see the module docstring."""

    __slots__ = ("board", "rules", "seed", "log", "core", "_decision", "_source", "_views", "__weakref__")

    def __init__(self, board: Board, rules: Rules, core: Any, seed: int, log: EventLog | None = None) -> None:
        self.board = board
        self.rules = rules
        self.seed = seed
        self.log = log
        self.core = core
        self._decision: Decision | None = None
        self._source: _Source | None = None
        self._views: dict[int, View] = {}

    @classmethod
    def new(cls, board: Board, rules: Rules, seed: int, players: int = 4, *, log: EventLog | None = None,
            check: bool = False) -> "Table":
        """A fresh game, set up (SU-1..SU-4) and stepped to its first decision."""
        check_deck(rules, players)
        core = _core.CoreTable.new(core_board(board), core_rules(rules), seed, players, check, log is not None)
        table = cls(board, rules, core, seed, log)
        table._flush()
        return table

    @classmethod
    def from_state(cls, board: Board, rules: Rules, state: GameState | dict[str, Any], seed: int = 0,
                   rng: random.Random | None = None, *, log: EventLog | None = None, check: bool = False) -> "Table":
        """The game a state holds (a snapshot or its saved dict), not yet played on; its generator
        ``rng``'s state, or a fresh one of ``seed``."""
        from plsim.engine.position import state_to_dict

        data = state if isinstance(state, dict) else state_to_dict(state)
        words = list(rng.getstate()[1]) if rng is not None else None
        try:
            core = _core.CoreTable.from_state(core_board(board), core_rules(rules), json.dumps(data), seed, words, check,
                                              log is not None)
        except ValueError as exc:
            raise PositionError(f"malformed position state: {exc}") from None
        return cls(board, rules, core, seed, log)

    @classmethod
    def from_position(cls, data: dict[str, Any], board: Board, *, log: EventLog | None = None,
                      check: bool = False) -> "Table":
        """The game a position (``plsim.engine.position``, as JSON data) holds, at its decision."""
        position = read_position(data)
        table = cls.from_state(board, position["rules"], position["saved_state"], position["seed"], position["rng"],
                               log=log, check=check)
        check_pending(table, "the position")
        table.advance()
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
        index = self.index_of(option)
        if index is None:
            raise IllegalOption(f"{safe_repr(option)} is not an option of decision '{decision.kind}'")
        chosen = decision.options[index]
        self.answer(index)
        return chosen

    def index_of(self, option: Any) -> int | None:
        """Where ``option`` stands among the pending decision's options: the very object or an
        equal one (``Choose(4.0)`` is ``Choose(4)``, ``Move(..., passage=0)`` is ``passage=False``);
        None if it is none of them, or no option at all (a ``Choose()`` without its field)."""
        try:
            index = self.core.find(option)
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError):
            index = None  # a value the core cannot read: Python's equality alone decides
        if index is None and self.decision is not None:
            index = next((i for i, offered in enumerate(self.decision.options) if offered == option), None)
        return index

    def __copy__(self) -> "Table":
        """A true copy (``clone``): a shallow one would share the game and stale its decision."""
        return self.clone()

    def __deepcopy__(self, memo: dict) -> "Table":
        return self.clone()

    def answer(self, index: int, advance: bool = True) -> None:
        """Apply the pending decision's ``index``-th option and (``advance``) play on to the next
        decision."""
        self._decision = None
        try:
            self.core.answer(index, advance)
        finally:
            self._flush()

    def play_native(self, seats: list[Any]) -> None:
        """Play on while the pending decisions are for seats the core answers itself
        (``plsim.engine.game.native_seats``), to a decision for another seat or the end."""
        self._step(self.core.play_native, seats)

    def playout(self, seed: int, until: str | int = "end", *, decisions: int | None = None, policy: str = "random",
                last_round: int | None = None, seat: int | None = None) -> int:
        """Play on with every decision answered inside the core by a native ``policy``
        (``"random"``: uniformly; ``"heuristic"``: the core's cheap default policy) — a search's
        play-out, no Python per decision — to the game's end (``"end"``) or the end of this round
        (``"round"``), and sooner after ``decisions`` answers (``until`` a number says the same),
        past round ``last_round``, or before a decision of ``seat``; returns the decisions
        answered. The answers come from a generator of the play-out's own seeded with ``seed``
        (the game's dice keep theirs), so the same seed on equal tables plays the same play-out."""
        if isinstance(until, int) and not isinstance(until, bool) and until >= 0:
            until, decisions = "end", until if decisions is None else min(until, decisions)
        if until not in ("end", "round"):
            raise ValueError(f"until = {until!r}: 'end', 'round' or a number of decisions")
        if until == "round":
            last_round = self.round if last_round is None else min(last_round, self.round)
        return self._step(self.core.playout, seed, policy, last_round, decisions, seat)

    def simulate(self, seat: int, candidates: list[int | None], seed: int, policy: str, last_round: int, cap: int,
                 weights: WeightValues) -> list[float]:
        """A search's simulations from this table (a determinised world), which stays as it is:
        per candidate (an index of the pending decision's options, or None), a copy with it
        applied, played by the native ``policy`` from a generator seeded with ``seed`` (the same
        for every candidate) past round ``last_round`` or for ``cap`` decisions, and the value of
        the position reached for ``seat`` (``position_value``); one crossing for them all."""
        return self.core.simulate(seat, candidates, seed, policy, last_round, cap, weights)

    def iterate(self, tree: Any, seed: int) -> None:
        """One iteration of a search tree made by ``View.search_tree`` on this table (a
        determinised world at the tree's decision), which it plays on: down the tree, the
        native policy to the horizon, the evaluation backed up; the policy's answers from
        ``seed``."""
        self._step(tree.iterate, self.core, seed)

    def select(self, tree: Any, node: int, answer: int | None) -> tuple[int, int, bool] | None:
        """The answer a tree made by ``View.tree_stats`` gives at its ``node`` to this table's
        pending decision (its seat's own): (the option's index, the child's node, whether it is
        new), or None. ``answer`` is the index of the default policy's answer (None at the root);
        the table is not changed."""
        return tree.select(self.core, node, answer)

    def policy_choice(self, seed: int, policy: str = "heuristic") -> int | None:
        """The index of the option the native ``policy`` answers the pending decision with, from
        a generator seeded with ``seed`` (None once the game is over); the game is not changed."""
        return self.core.policy_choice(seed, policy)

    def advance(self) -> None:
        """Play on, phase after phase, to the next decision or the end."""
        self._step(self.core.advance)

    def open_phase(self) -> None:
        """Push the work of the phase the state is at (its clean-up and close too)."""
        self._step(self.core.open_phase)

    def run(self, floor: int = 0) -> None:
        """Do the pending work until a decision is on top or ``floor`` steps are left."""
        self._step(self.core.run, floor)

    def _step(self, work: Any, *args: Any) -> Any:
        self._decision = None
        try:
            return work(*args)
        finally:
            self._flush()

    def _flush(self) -> None:
        """Forget what the views read of the game (it moved on) and hand the events the core
        logged to the log, in order."""
        if self._source is not None:
            self._source.new_decision()
        if self.log is not None:
            for event in self.core.take_events():
                self.log(event)

    @property
    def round(self) -> int:
        """The round being played (1 for the first)."""
        return self.core.round

    @property
    def phase(self) -> str:
        """The phase being played (``Phase`` values: announcements ... victory)."""
        return Scalars(*self.core.scalars()).phase

    @property
    def pending(self) -> int:
        """How many steps and decisions the game still has to do (0 between phases)."""
        return self.core.pending

    # the game
    @property
    def over(self) -> bool:
        return self.core.over

    @property
    def end_reason(self) -> str | None:
        return self.core.end_reason

    @property
    def check(self) -> bool:
        return self.core.check

    @property
    def result(self) -> GameResult:
        """The game's result (end reason "unfinished" while it goes on)."""
        core = self.core
        players, rounds, vp, coins, wrath, released, razed, judge, king, decisions = core.figures()
        return GameResult(
            seed=self.seed, players=players, rounds=rounds, end_reason=core.end_reason or "unfinished",
            winners=tuple(core.winners), final_vp=vp, final_coins=coins, final_wrath=wrath, pairs_released=released,
            settlements_razed=razed, first_judge_round=judge, first_king_round=king, decisions=decisions,
            round_rows=core.round_rows(0), card_events=core.card_events(0),
        )

    @property
    def state(self) -> GameState:
        """A snapshot of the state as Python data; changing it changes no game."""
        return state_from_dict(self.core.state_dict())

    def state_dict(self) -> dict[str, Any]:
        """The state as a position saves it (``plsim.engine.position.state_to_dict``)."""
        return self.core.state_dict()

    @property
    def rng(self) -> random.Random:
        """A copy of the game's generator (``random.Random`` in the same state)."""
        rng = random.Random()
        state = self.core.rng_state()
        if state is not None:
            rng.setstate(state)
        return rng

    def view(self, seat: int) -> View:
        """The seat's sealed view of the game as it stands now (VW-1)."""
        view = self._views.get(seat)
        if view is None:
            if self._source is None:
                self._source = _Source(self.core, weakref.ref(self))
            players = Scalars(*self.core.scalars()).players
            view = self._views[seat] = View(self._source, self.board, self.rules, seat, players)
        else:
            refresh(view)
        return view

    # the search strategies' evaluation (the core's: plsim.engine.evaluation)
    def seat_features(self, seat: int, coin_cap: float, reach: bool = True, threat: bool = True) -> tuple[float, ...]:
        """A seat's terms of worth (``View.seat_features``), read from the public state."""
        return self.core.seat_features(seat, coin_cap, reach, threat)

    def position_value(self, seat: int, weights: WeightValues) -> float:
        """The position's value for the seat under ``weights`` (``WeightValues``), in (0, 1): its
        chance of winning as the evaluation reads it; the game's outcome once it is over."""
        return self.core.position_value(seat, weights)

    def position_values(self, weights: WeightValues) -> list[float]:
        """Every seat's ``position_value``, from one reading of their worths."""
        return self.core.position_values(weights)

    # copies
    def clone(self) -> "Table":
        """An independent copy: the same future under the same answers (its generator continues
        the same stream); no change to one reaches the other. It logs nothing."""
        return Table(self.board, self.rules, self.core.clone(), self.seed)

    def determinise(self, seat: int, rng: random.Random) -> "Table":
        """A clone in which everything ``seat`` cannot see is dealt anew from ``rng``, consistently
        with what it saw (VW-1): the other hands (each keeps its size, filled from the one-use
        cards the seat has not seen), the deck's order, and the game's generator (a
        ``random.Random(rng.getrandbits(64))``, so a search cannot learn future dice). The unseen
        cards are sorted before they are dealt, so the copy depends on what the seat saw and on
        ``rng`` alone; ``rng`` is drawn from exactly as ``rng.shuffle`` would. Its card records
        are dropped: they name the cards others drew. A decision pending for another seat whose
        options read that seat's hand is posed anew."""
        return Table(self.board, self.rules, self.core.determinise(seat, rng), self.seed)
