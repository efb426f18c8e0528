"""One game, from what fixes it (scenario, seats, seed) to its replay page.

``GameSpec`` is the same for a game of ``plsim play`` and a game of a run folder; ``replay_game``
resolves its strategies, records it (``record.record_game``) and writes the page.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from plsim.board import load_board
from plsim.play import seat_entries
from plsim.replay.model import replay_document
from plsim.replay.page import write_replay
from plsim.replay.record import Recording, record_game
from plsim.runner import GameTimeout
from plsim.scenario import Scenario, as_scenario
from plsim.strategy.registry import StrategyLoadError, resolve


class ReplayError(ValueError):
    """A game that cannot be replayed as asked: one line for the user."""


@dataclass(frozen=True)
class GameSpec:
    """Everything that fixes one game. ``seats`` are the strategy entries as written (the names
    shown); ``refs`` says how an entry resolves when that differs (a run's plugin paths made
    absolute). ``timeout`` stops a game that would run on past it (a run's timed-out fault)."""

    scenario: Scenario
    seats: tuple[str, ...]
    seed: int
    title: str
    refs: Mapping[str, str] = field(default_factory=dict)
    check: bool = False
    command: str | None = None
    timeout: float | None = None


@dataclass(frozen=True)
class Replay:
    """A written replay: where, what was recorded and the document the page draws."""

    path: Path
    recording: Recording
    document: dict[str, Any]


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise ``GameTimeout`` in this thread once ``seconds`` have passed (no limit: None)."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise GameTimeout(f"the game was stopped at its deadline ({seconds:g} s)")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def play_spec(scenario: str | Path | Scenario | None, players: Sequence[str] | None, seed: int, *,
              check: bool = False, command: str | None = None) -> GameSpec:
    """The game ``plsim play`` plays: the scenario (default standard-4p) with ``players`` cycled to
    its seats (default: its own strategies)."""
    scen = as_scenario(scenario)
    seats = tuple(seat_entries(scen, players))
    return GameSpec(scen, seats, seed, title=f"plsim play: {', '.join(seats)} on {scen.name}, seed {seed}",
                    check=check, command=command)


def record_spec(spec: GameSpec, **hooks: Any) -> Recording:
    """Play the game ``spec`` fixes and record it; ``hooks`` go to ``record_game``."""
    strategies = []
    for seat, entry in enumerate(spec.seats):
        try:
            strategy = resolve(spec.refs.get(entry, entry))
        except StrategyLoadError as exc:
            raise ReplayError(str(exc)) from None
        try:
            strategies.append(strategy.make(seat, spec.seed))
        except Exception as exc:
            raise ReplayError(f"strategy {entry!r} (seat {seat}) failed to start: {type(exc).__name__}: {exc}") from None
    scenario = spec.scenario
    with deadline(spec.timeout):
        return record_game(load_board(scenario.map), scenario.rules, strategies, spec.seed, seat_names=spec.seats,
                           map_name=scenario.map, check=spec.check, **hooks)


def spec_meta(spec: GameSpec) -> dict[str, Any]:
    rules = spec.scenario.rules
    return {"title": spec.title, "scenario": spec.scenario.name, "seed": spec.seed, "command": spec.command,
            "wrath_threshold": rules.wrath.threshold, "victory_points": rules.victory.points,
            "max_rounds": rules.victory.max_rounds}


def replay_game(spec: GameSpec, path: str | Path, **hooks: Any) -> Replay:
    """Record the game and write its page to ``path``."""
    recording = record_spec(spec, **hooks)
    document = replay_document(recording, load_board(spec.scenario.map), spec.seats, spec_meta(spec))
    return Replay(write_replay(path, document), recording, document)
