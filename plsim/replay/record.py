"""Play one game phase by phase and keep what a replay needs: every event and every phase's state.

``record_game`` is the only code of the replay package that drives the engine: it builds the
game, steps it one phase at a time, collects the events the game's log hands over and takes the
state (as ``state_to_dict`` saves it) after setup and after every phase. Everything else in
``plsim.replay`` works from the ``Recording`` it returns, so porting the replay to another engine
API means porting this one function.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from plsim.board import Board
from plsim.engine.cards import Phase
from plsim.engine.decisions import Player
from plsim.engine.game import EventLog, Game, GameResult, StrategyError
from plsim.rules import Rules
from plsim.runner import GameTimeout

SETUP = "setup"  # the phase name of the first step: homes, generals and cards dealt


@dataclass(frozen=True)
class PhaseRecord:
    """One phase of one round (or the setup): its events, in order, and the state after it.

    ``state`` is ``state_to_dict``'s form; it is None only when the game failed during setup,
    before there was a state to keep. ``vp`` is every seat's victory points in that state.
    """

    round: int
    phase: str
    events: tuple[dict[str, Any], ...]
    state: dict[str, Any] | None
    vp: tuple[int, ...]


@dataclass(frozen=True)
class Recording:
    """A game as a replay shows it: its steps, its result (None if it failed) and the failure:
    what it said, and whose it was (``fault_kind``: strategy, engine or timeout, as a run says)."""

    steps: tuple[PhaseRecord, ...]
    result: GameResult | None
    fault: str | None = None
    fault_kind: str | None = None


class CallbackFailed(Exception):
    """The caller's own callback raised (say, a closed pipe while narrating): not the game's fault."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def callback(function: Callable[[Any], None], value: Any) -> None:
    try:
        function(value)
    except Exception as exc:
        raise CallbackFailed(exc) from exc


def record_game(
    board: Board,
    rules: Rules,
    strategies: Sequence[Player],
    seed: int,
    *,
    seat_names: Sequence[str],
    map_name: str | None = None,
    check: bool = False,
    rounds: int | None = None,
    on_event: EventLog | None = None,
    after_round: Callable[[Game], None] | None = None,
    on_start: Callable[[Game], None] | None = None,
    keep_history: bool = False,
) -> Recording:
    """Play the game of ``seed`` from its setup, one phase at a time, recording every step.

    It is exactly the game ``play_game`` plays with the same arguments (the recording only reads).
    ``rounds`` stops after that many rounds; ``on_event`` sees each event as it happens and
    ``after_round`` the game after each round that does not end it (``plsim play``
    narrates with them; what they raise is raised as it was); ``on_start`` the game once its
    setup is done, kept with its history when ``keep_history`` (so a person who leaves can save
    it). A game that raises (a strategy's fault, an engine error, a timeout) is recorded up to the
    failure: its last step holds the state as the failure left it, and ``fault`` says what failed.
    """
    steps: list[PhaseRecord] = []
    pending: list[dict[str, Any]] = []
    game: Game | None = None

    def log(event: dict[str, Any]) -> None:
        pending.append(event)
        if on_event is not None:
            callback(on_event, event)

    def keep(round_: int, phase: str) -> None:
        kept = game.state_dict() if game is not None else None
        vp = tuple(game.core.vp(seat) for seat in range(len(kept["players"]))) if kept else ()
        steps.append(PhaseRecord(round_, phase, tuple(pending), kept, vp))
        pending.clear()

    round_, phase = 1, SETUP
    try:
        game = Game.new(board, rules, strategies, seed, log=log, check=check, seat_names=seat_names,
                        map_name=map_name, keep_history=keep_history)
        if on_start is not None:
            callback(on_start, game)
        keep(round_, phase)
        while not game.over and (rounds is None or game.round <= rounds):
            round_, phase = game.round, game.phase
            game.run_phase()
            keep(round_, phase)
            if after_round is not None and phase == Phase.VICTORY.value and not game.over:
                callback(after_round, game)
    except CallbackFailed as failed:
        raise failed.error from None
    except (Exception, SystemExit, GameTimeout) as exc:
        keep(round_, phase)
        kind = "strategy" if isinstance(exc, StrategyError) else "timeout" if isinstance(exc, GameTimeout) else "engine"
        return Recording(tuple(steps), None, " ".join(f"{type(exc).__name__}: {exc}".split()), kind)
    return Recording(tuple(steps), game.result)
