"""A game the caller steps: ``Table``.

    t = Table.new(board, rules, seed, players=4)   # setup done; stops at the first decision
    t.decision             # the pending Decision (seat, kind, options, context); None once over
    t.apply(option)        # one of t.decision.options; plays forced steps and chance to the next one
    t.over, t.result       # GameResult once over, as play_game returns it
    t.view(seat)           # the sealed View of that seat, as a strategy sees it now
    t.clone()              # an independent copy: same future under the same answers
    t.determinise(seat, rng)  # a clone in which all that ``seat`` cannot see is re-dealt

The table holds no strategies: whoever drives it answers (``plsim.engine.game.play_game`` asks a
strategy per seat; a search agent tries options on clones). Everything the game still has to do
is data on the state (``state.pending``), so a clone copies the state by hand and shares only
what never changes: the board, the rules and the option tables built from them.
"""

from __future__ import annotations

import copy
import random
import weakref
from itertools import repeat
from operator import is_
from typing import Any, Sequence

from plsim.board import Board
from plsim.engine import rounds, setup
from plsim.engine.cards import Category, category_of
from plsim.engine.context import Context, EventLog
from plsim.engine.decisions import Decision
from plsim.engine.errors import IllegalOption
from plsim.engine.position import read_position
from plsim.engine.result import GameResult
from plsim.engine.scoring import victory_points
from plsim.engine.state import GameState
from plsim.engine.steps import Ask, Step
from plsim.engine.view import View, link, refresh
from plsim.rules import Rules, check_deck


def offered_index(options: Sequence[Any], choice: Any) -> int | None:
    """Where ``choice`` (or an option equal to it) stands among ``options``; None if it does not.
    The very object is looked for first, in C, since most strategies answer with it."""
    try:
        return list(map(is_, options, repeat(choice))).index(True)
    except ValueError:
        pass
    try:
        return options.index(choice)
    except ValueError:
        return None


def copy_generator(rng: Any) -> Any:
    """An independent generator that continues the same stream."""
    if type(rng) is random.Random:
        other = random.Random()
        other.setstate(rng.getstate())
        return other
    return copy.deepcopy(rng)  # a stand-in (tests script the dice)


class Table(Context):
    """A game in progress that the caller steps; see the module docstring."""

    def __init__(self, board: Board, rules: Rules, state: GameState, rng: random.Random, *, seed: int = 0,
                 log: EventLog | None = None, check: bool = False) -> None:
        super().__init__(board, rules, state, rng, seed=seed, log=log, check=check)
        self._views: dict[int, View] = {}

    @classmethod
    def new(cls, board: Board, rules: Rules, seed: int, players: int = 4, *, log: EventLog | None = None,
            check: bool = False) -> "Table":
        """A fresh game, set up (SU-1..SU-4) and stepped to its first decision."""
        table = cls(board, rules, *fresh_state(board, rules, seed, players), seed=seed, log=log, check=check)
        begin_setup(table)
        table._advance()
        return table

    @classmethod
    def from_position(cls, data: dict[str, Any], board: Board, *, log: EventLog | None = None,
                      check: bool = False) -> "Table":
        """The game a position (``plsim.engine.position``, as JSON data) holds, at its decision."""
        position = read_position(data)
        table = cls(board, position["rules"], position["state"], position["rng"], seed=position["seed"], log=log,
                    check=check)
        table._advance()
        return table

    # the decision
    @property
    def decision(self) -> Decision | None:
        """The decision the game waits for, or None once it is over."""
        pending = self.state.pending
        if pending:
            top = pending[-1]
            if type(top) is Ask:
                return top.decision
        return None

    def apply(self, option: Any) -> Any:
        """Answer the pending decision with one of its options (or an equal one) and play on to
        the next decision; returns the engine's own option object."""
        chosen = self._answer(option)
        self._advance()
        return chosen

    def _answer(self, option: Any) -> Any:
        pending = self.state.pending
        top = pending[-1] if pending else None
        if type(top) is not Ask:
            raise IllegalOption("no decision is pending" + (": the game is over" if self.over else ""))
        index = offered_index(top.decision.options, option)
        if index is None:
            raise IllegalOption(f"{option!r} is not an option of decision '{top.decision.kind}'")
        return self._answer_at(index)

    def _answer_at(self, index: int) -> Any:
        """Apply the pending decision's ``index``-th option (the caller found it offered)."""
        top = self.state.pending.pop()
        chosen = top.decision.options[index]
        top.then(self, chosen, *top.args)
        return chosen

    def _run(self, floor: int = 0) -> None:
        """Do the pending work until a decision is on top or the stack is down to ``floor``."""
        pending = self.state.pending
        while len(pending) > floor:
            top = pending[-1]
            if type(top) is Ask:
                return
            pending.pop()
            top.run(self, *top.args)

    def _advance(self) -> None:
        """Play on, phase after phase, to the next decision or the end."""
        pending = self.state.pending
        while True:
            self._run()
            if pending or self.end_reason is not None:
                return
            self._open_phase()

    def _open_phase(self) -> None:
        rounds.open_phase(self)

    # the game
    @property
    def over(self) -> bool:
        return self.end_reason is not None and not self.state.pending

    @property
    def result(self) -> GameResult:
        """The game's result (end reason "unfinished" while it goes on)."""
        s = self.state
        return GameResult(
            seed=self.seed,
            players=s.n_players,
            rounds=s.round,
            end_reason=self.end_reason or "unfinished",
            winners=self.winners,
            final_vp=tuple(victory_points(s, seat) for seat in range(s.n_players)),
            final_coins=tuple(p.coins for p in s.players),
            final_wrath=s.wrath,
            pairs_released=s.pairs_released,
            settlements_razed=s.settlements_razed,
            first_judge_round=s.first_judge_round,
            first_king_round=s.first_king_round,
            decisions=s.decisions,
            round_rows=self.round_rows,
            card_events=tuple(self.card_events),
        )

    def view(self, seat: int) -> View:
        """The seat's sealed view of the game as it stands now (VW-1)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = View(self.state, self.board, self.rules, seat)
            link(view, weakref.ref(self))
        refresh(view)
        return view

    # copies
    def clone(self) -> "Table":
        """An independent copy: the same future under the same answers (its generator continues
        the same stream); no change to one reaches the other. It logs nothing."""
        other = Table.__new__(Table)
        other.board = self.board
        other.rules = self.rules
        other.state = self.state.copy()
        other.rng = copy_generator(self.rng)
        other.seed = self.seed
        other.log = None
        other.check = self.check
        other.end_reason = self.end_reason
        other.winners = self.winners
        other.round_rows = self.round_rows.copy()
        other.card_events = self.card_events.copy()
        other.reach_memo = self.reach_memo  # answers that depend on the board alone
        other.option_memo = self.option_memo
        other.stamped = {}  # keyed on this state's counters: the copy's diverge
        other._views = {}
        return other

    def determinise(self, seat: int, rng: random.Random) -> "Table":
        """A clone in which everything ``seat`` cannot see is dealt anew from ``rng``, consistently
        with what it saw (VW-1): the other hands (each keeps its size, filled from the one-use
        cards the seat has not seen), the deck's order, and the game's generator (so a search
        cannot learn future dice). The unseen cards are sorted before they are dealt, so the copy
        depends on what the seat saw and on ``rng`` alone, never on how the hidden cards lay. Its
        card records are dropped: they name the cards others drew. A decision pending for another
        seat whose options read that seat's hand is posed anew."""
        other = self.clone()
        other.card_events = []
        s = other.state
        hidden = [card for player in s.players if player.seat != seat for card in player.hand]
        hidden += [card for card in s.deck if category_of(card) is Category.ONE_USE]
        hidden.sort()
        rest = sorted(card for card in s.deck if category_of(card) is not Category.ONE_USE)
        rng.shuffle(hidden)
        for player in s.players:
            if player.seat != seat:
                size = len(player.hand)
                player.hand[:] = hidden[:size]
                del hidden[:size]
        s.deck[:] = hidden + rest
        rng.shuffle(s.deck)
        other.rng = random.Random(rng.getrandbits(64))
        top = s.pending[-1] if s.pending else None
        if type(top) is Ask and top.decision.seat != seat and top.again is not None:
            s.pending[-1] = top.again
            s.decisions -= 1  # it is counted again when posed
            other._advance()
        return other


def fresh_state(board: Board, rules: Rules, seed: int, players: int) -> tuple[GameState, random.Random]:
    """The board before anyone chooses a home, and the game's generator seeded from ``seed``;
    RulesError for a deck the rules cannot play with this many players."""
    check_deck(rules, players)
    rng = random.Random(seed)
    return setup.initial_state(board, rules, players, rng), rng


def begin_setup(ctx: Context) -> None:
    """SU-2, SU-3: homes, generals and cards are dealt first (then, in check mode, the invariants)."""
    ctx.sequence(Step(setup.deal), Step(rounds.setup_done))
