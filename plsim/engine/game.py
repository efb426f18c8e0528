"""One game of Promised Land: setup, the loop of rounds and phases, decisions and the result.

``Game`` owns the state, the board, the rules, the game's own seeded generator and one strategy
per seat. The phase modules (``phases``, ``combat``, ``titles``, ``cardplay``) are functions of a
``Game``; this module only sequences them and asks strategies to decide.
"""

from __future__ import annotations

import hashlib
import random
from itertools import repeat
from operator import is_
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Sequence

from plsim.board import Board
from plsim.engine import blame, combat, effects, phases, setup, tamper
from plsim.engine.cards import PHASE_ORDER, Phase
from plsim.engine.decisions import Decision, DecisionKind, Player
from plsim.engine.invariants import check_invariants
from plsim.engine.options import PASS
from plsim.engine.scoring import seat_row, victory_points
from plsim.engine.state import GameState
from plsim.engine.view import View, refresh
from plsim.rules import Rules

EventLog = Callable[[dict[str, Any]], None]
MAX_ACTIONS_PER_TURN = 5000  # every action uses something up; far more than any turn can take


class StrategyError(RuntimeError):
    """A strategy raised, or answered with an option it was not offered."""


class TamperError(StrategyError):
    """Check mode: a strategy changed the game while deciding (VW-2)."""


class InvariantError(AssertionError):
    """A state that the rules forbid was reached: an engine bug, never a strategy's fault."""


def strategy_seed(game_seed: int, seat: int) -> int:
    """A strategy's own seed, derived from the game's seed and its seat only."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True, slots=True)
class GameResult:
    seed: int
    players: int
    rounds: int
    end_reason: str  # victory | draw | collapse | round_limit
    winners: tuple[int, ...]
    final_vp: tuple[int, ...]
    final_coins: tuple[int, ...]
    final_wrath: int
    pairs_released: int
    settlements_razed: int
    first_judge_round: int | None
    first_king_round: int | None
    decisions: int
    round_rows: list[tuple]
    card_events: tuple[tuple[int, int, str, str], ...] = ()  # (round, seat, card kind, CardAction)

    @property
    def winner(self) -> int | None:
        return self.winners[0] if self.end_reason == "victory" else None


def offered_index(options: tuple, choice: Any) -> int | None:
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


_PHASE_RUNNERS = {
    Phase.ANNOUNCEMENTS: phases.announcements,
    Phase.DRAW: phases.draw_cards,
    Phase.INCOME: phases.income,
    Phase.ACQUISITIONS: phases.acquisitions,
    Phase.MOVEMENT: phases.movement,
    Phase.COMBAT: combat.combat_phase,
    Phase.VICTORY: phases.victory_check,
}


class Game:
    """A game in progress. Build it with ``Game.new`` (fresh setup) or ``Game(...)`` from a state."""

    def __init__(
        self,
        board: Board,
        rules: Rules,
        state: GameState,
        strategies: Sequence[Player],
        rng: random.Random,
        *,
        seed: int = 0,
        log: EventLog | None = None,
        check: bool = False,
        seat_names: Sequence[str] | None = None,
        map_name: str | None = None,
    ) -> None:
        if len(strategies) != len(state.players):
            raise ValueError(f"{len(state.players)} seats but {len(strategies)} strategies")
        self.board = board
        self.rules = rules
        self.state = state
        self.strategies = list(strategies)
        self.rng = rng
        self.seed = seed
        self.log = log
        self.check = check
        self.seat_names = list(seat_names or (s.name for s in strategies))
        self.map_name = map_name or board.name
        self.views = [View(state, board, rules, seat) for seat in range(len(strategies))]
        self.end_reason: str | None = None
        self.winners: tuple[int, ...] = ()
        self.round_rows: list[tuple] = []
        self.card_events: list[tuple[int, int, str, str]] = []
        self.reach_memo: dict = {}  # movement.reachable's answers, by the pieces within reach
        self.option_memo: dict = {}  # options built once and offered again (movement, Assassin, Justice)

    @classmethod
    def new(
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
    ) -> "Game":
        """A fresh game: the deck shuffled and the homes, generals and cards dealt (SU-1..SU-4)."""
        rng = random.Random(seed)
        state = setup.initial_state(board, rules, len(strategies), rng)
        game = cls(
            board, rules, state, strategies, rng, seed=seed, log=log, check=check,
            seat_names=seat_names, map_name=map_name,
        )
        setup.deal(game)
        game.verify("setup")
        return game

    # decisions and events
    def decide(self, seat: int, kind: DecisionKind, options: Sequence[Any], **context: Any) -> Any:
        """Ask the seat's strategy to pick one of ``options``; a lone option needs no asking."""
        if len(options) == 1:
            return options[0]
        if not options:
            raise ValueError(f"decision '{kind}' offered no options")
        options = tuple(options)
        strategy = self.strategies[seat]
        decision = Decision(kind, seat, options, MappingProxyType(context))
        self.state.decisions += 1
        view = self.views[seat]
        refresh(view)  # the state changed since the view last looked
        before = tamper.fingerprint(self, seat) if self.check else None
        try:
            choice = strategy.choose(view, decision)
            index = offered_index(options, choice)
        except BaseException as exc:
            if blame.passes_through(exc):
                raise
            raise StrategyError(blame.choice_failed(strategy, seat, kind, self.state.round, exc)) from exc
        if before is not None:
            changed = tamper.difference(before, tamper.fingerprint(self, seat))
            if changed:
                raise TamperError(
                    f"strategy {blame.label(strategy)} (seat {seat}) changed the game at decision '{kind}' in round "
                    f"{self.state.round}: {changed} (VW-2: a strategy only chooses)"
                )
        if index is None:
            raise StrategyError(
                f"strategy {blame.label(strategy)} (seat {seat}) answered {blame.safe_repr(choice)}, which decision "
                f"'{kind}' did not offer, in round {self.state.round}"
            )
        return options[index]  # the engine's own object, never a look-alike

    def act_until_pass(
        self,
        seat: int,
        kind: DecisionKind,
        options_of: Callable[[], list],
        apply: Callable[[Any], None],
        **context: Any,
    ) -> None:
        """A seat acts again and again (purchases, moves, card plays) until it passes or has
        nothing left to do."""
        for _ in range(MAX_ACTIONS_PER_TURN):
            if self.over:
                return
            options = options_of()
            if not options:
                return
            choice = self.decide(seat, kind, options + [PASS], **context)
            if choice is PASS:  # decide answers with the very object offered
                return
            apply(choice)
        raise InvariantError(
            f"seat {seat} was still acting at '{kind}' after {MAX_ACTIONS_PER_TURN} actions in round "
            f"{self.state.round}: an engine loop that never runs out of options"
        )

    def emit(self, kind: str, **fields: Any) -> None:
        if self.log is not None:
            self.log({"round": self.state.round, "phase": self.state.phase.value, "event": kind, **fields})

    def verify(self, where: str) -> None:
        if self.check:
            problems = check_invariants(self)
            if problems:
                raise InvariantError(f"after {where} in round {self.state.round}: " + "; ".join(problems))

    # the loop
    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def run_phase(self) -> None:
        """Run the phase the state is at, then close it (ST-9, CP-1) and step to the next."""
        phase = self.state.phase
        _PHASE_RUNNERS[phase](self)
        effects.end_of_phase(self)
        self.verify(phase.value)
        if self.over:
            return
        if phase is Phase.VICTORY:
            self.start_next_round()
        else:
            self.state.phase = PHASE_ORDER[PHASE_ORDER.index(phase) + 1]

    def play_round(self) -> None:
        start = self.state.round
        while not self.over and self.state.round == start:
            self.run_phase()

    def play(self) -> GameResult:
        while not self.over:
            self.run_phase()
        return self.result()

    def start_next_round(self) -> None:
        """Reset what lasts one round and rotate the first player (RD-3)."""
        s = self.state
        s.round += 1
        s.phase = Phase.ANNOUNCEMENTS
        if self.rules.turns.rotate_first_player:
            s.first_player = (s.first_player + 1) % s.n_players
        s.taxed.clear()
        s.assaults.clear()
        s.storm = False
        s.terrain_mods[:] = [0, 0, 0, 0]
        for general in s.generals.values():
            general.moved = general.took = general.gave = general.passage = False
        for player in s.players:
            player.income = 0

    def record_round(self) -> None:
        self.round_rows.extend(seat_row(self.state, seat) for seat in range(self.state.n_players))

    def finish(self, reason: str, winners: tuple[int, ...] = ()) -> None:
        self.end_reason = reason
        self.winners = winners
        self.emit("game_over", reason=reason, winners=list(winners))

    def result(self) -> GameResult:
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


def play_game(
    board: Board,
    rules: Rules,
    strategies: Sequence[Player],
    seed: int,
    *,
    log: EventLog | None = None,
    check_invariants: bool = False,
) -> GameResult:
    """Play one whole game from setup to its end; the library call behind ``plsim play``."""
    return Game.new(board, rules, strategies, seed, log=log, check=check_invariants).play()


__all__ = ["Game", "GameResult", "StrategyError", "TamperError", "InvariantError", "play_game", "strategy_seed"]
