"""Each game starts clean: fingerprints of what the games of one worker share.

A worker keeps a cell's scenario, rules and board for every game it plays, and the engine's
classes and tables for its whole life. A strategy can reach them — ``object.__setattr__`` on a
frozen rule, a patched engine method — and so change every later game of that worker. The
parent fingerprints each cell's scenario and board once (``cell_fingerprint``, carried by the
cell's task); the worker checks them before every game, and after every game in which a
strategy's own code ran, also that the engine's classes and tables are as they were when it
started (``Guard``; a game of shipped strategies the core answers runs no code but plsim's, and
the next game's check before it covers it: the engine's surface alone cost a fifth of a scripted
game's time). A change found after a game is that game's fault (``plsim.runner.worker`` replays
it in check mode to name the seat) and the worker is replaced; one found before a game (a thread
a strategy left running) retires the worker without blaming the innocent game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import sys
import types
from collections.abc import Mapping
from operator import attrgetter
from typing import Any

from plsim.board import Board
from plsim.engine.tamper import freeze
from plsim.scenario import Scenario

WATCHED = ("plsim.engine", "plsim.board", "plsim.rules")  # the packages whose classes and tables games share
_BOARD_CACHES = ("_routes", "_balls")  # built on first use: they may grow, an entry never changes
MAX_CLEAN = 64  # (scenario, board) pairs a Guard remembers as checked


def _canonical(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(value))
    if isinstance(value, Mapping):
        return tuple(sorted(value.items()))
    return value


def _digest(*parts: Any) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def rules_fingerprint(scenario: Scenario) -> str:
    return _digest(scenario.name, scenario.players, scenario.map, freeze(scenario.rules))


def board_fingerprint(board: Board) -> str:
    return _digest(*(_canonical(getattr(board, f.name)) for f in dataclasses.fields(board)
                     if f.name not in _BOARD_CACHES))


def cell_fingerprint(scenario: Scenario, board: Board) -> tuple[str, str]:
    """(the scenario and its rules, the board): what the parent puts in a cell's task."""
    return rules_fingerprint(scenario), board_fingerprint(board)


_GETTERS: dict[type, Any] = {}


def _fields_of(cls: type):
    """A dataclass's field getter, giving a tuple (cached per class)."""
    get = _GETTERS.get(cls)
    if get is None:
        names = [f.name for f in dataclasses.fields(cls)]
        get = _GETTERS[cls] = attrgetter(*names) if len(names) > 1 else (lambda obj: (getattr(obj, names[0]),))
    return get


def identities(value: Any, depth: int = 2) -> Any:
    """What a change to ``value`` would show in, without walking it deep: the identity of each
    field of a dataclass and of each item of a tuple, frozenset or read-only mapping, ``depth``
    levels down (their contents below are immutable: ints, strings, enums, tuples)."""
    cls = type(value)
    if dataclasses.is_dataclass(cls):
        items = _fields_of(cls)(value)
    elif cls is types.MappingProxyType:
        items = (*value, *value.values())
    elif cls is tuple or cls is frozenset:
        items = value
    else:
        return id(value)
    if depth == 1:
        return id(value), tuple(map(id, items))
    return id(value), tuple(identities(item, depth - 1) for item in items)


def engine_surface() -> dict[str, Any]:
    """What a patch of the engine would change: per class of the watched packages, the identity
    of each attribute; per module, the identity of each function and class it binds, and of the
    items of its read-only tables (tuples, frozen dataclasses, read-only mappings). Counters and
    caches (plain ints, dicts, lists) change as games are played and are left out."""
    surface: dict[str, Any] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(WATCHED):
            continue
        for attr, value in vars(module).items():
            if isinstance(value, type) and value.__module__ == name:
                attrs = vars(value)
                surface[f"{name}.{attr}"] = (tuple(attrs), tuple(map(id, attrs.values())))
            elif callable(value) or isinstance(value, types.ModuleType):
                surface[f"{name}.{attr}"] = id(value)
            elif isinstance(value, (tuple, frozenset, types.MappingProxyType)) or (
                    dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen):
                surface[f"{name}.{attr}"] = identities(value)
    return surface


def board_identities(board: Board) -> Any:
    """The board's tables by identity (tuples: immutable), its settlement and region records one
    level down (frozen dataclasses, which ``object.__setattr__`` could still change)."""
    tables = (getattr(board, f.name) for f in dataclasses.fields(board) if f.name not in _BOARD_CACHES)
    return (*map(id, tables), identities(board.settlements), identities(board.regions))


def _changed_parts(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [key for key, value in before.items() if key in after and after[key] != value]


class Guard:
    """One worker's checks. The first game of a cell checks the scenario and board against the
    parent's fingerprint (their contents); later games that they are still the same objects
    holding the same values, the engine as it was at the worker's first game, and the board's
    caches as they were before the game."""

    def __init__(self) -> None:
        self.surface: dict[str, Any] | None = None
        self.boards: dict[int, Any] = {}  # id(board) -> its identities once its content was checked
        self.caches: list[tuple[dict, dict]] = []
        # the (scenario, board) pairs found as they should be, held so that their ids stay theirs
        self.clean: dict[tuple[int, int], tuple[Scenario, Board]] = {}

    def checked(self, scenario: Scenario, board: Board) -> bool:
        """Whether this very scenario and board were found as they should be before."""
        return (id(scenario), id(board)) in self.clean

    def changed(self, fingerprint: tuple[str, str] | None, scenario: Scenario, board: Board,
                engine: bool = True) -> list[str]:
        """What is no longer as it should be, named; [] when everything is. ``engine=False``
        leaves out the engine's classes and tables (the dearest part: checked after each game,
        they cannot have changed before the next one but by a thread a strategy left)."""
        if self.surface is None:
            self.surface = engine_surface()
        parts = []
        if fingerprint is not None and rules_fingerprint(scenario) != fingerprint[0]:
            parts.append("the scenario's rules")
        known = self.boards.get(id(board))
        if known is None:
            if fingerprint is not None and board_fingerprint(board) != fingerprint[1]:
                parts.append("the board")
            else:
                self.boards[id(board)] = board_identities(board)
        elif board_identities(board) != known:
            parts.append("the board")
        for cache, snapshot in self.caches:
            if any(cache.get(key) is not value for key, value in snapshot.items()):
                parts.append("the board's route costs")
                break
        if engine:
            parts += [f"the engine's {key}" for key in _changed_parts(self.surface, engine_surface())]
        if not parts:
            if len(self.clean) >= MAX_CLEAN:  # a Dask task brings its own copies: keep the memory bounded
                self.clean.clear()
            self.clean[(id(scenario), id(board))] = (scenario, board)
        return parts

    def remember_caches(self, board: Board) -> None:
        """Snapshot the board's caches (shallow: their entries are immutable tuples and sets)."""
        self.caches = [(getattr(board, name), dict(getattr(board, name))) for name in _BOARD_CACHES]
