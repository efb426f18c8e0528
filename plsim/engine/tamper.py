"""Check mode's tamper check (VW-2): did a strategy change the game while it was deciding?

The game's state, generator and pending work live in the core, which a view only reads; what a
strategy's code could still alter from Python is the table around it and its neighbours.
``fingerprint`` freezes all of that into nested tuples: the core's state and generator (as the
core saves them), the rule tree, the board's tables, the table's strategies and views, and the
other strategies' generators. The engine takes one before and one after each decision in check
mode and compares them; ``difference`` names the first part that changed.
"""

from __future__ import annotations

import dataclasses
import random
from enum import Enum
from operator import attrgetter
from types import FunctionType, MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Sequence

if TYPE_CHECKING:
    from plsim.engine.table import Table

ROUTES = "the board's route costs"
_BOARD_CACHES = ("_routes", "_balls")  # tables the board builds on first use: they may grow, never change
_ATOMS: set[type] = {int, str, float, bool, type(None), FunctionType}
_GETTERS: dict[type, Callable[[Any], tuple]] = {}


def _getter(cls: type) -> Callable[[Any], tuple] | None:
    """A dataclass's field getter (cached per class); None for anything that is not one."""
    if issubclass(cls, Enum):
        _ATOMS.add(cls)
        return None
    if not dataclasses.is_dataclass(cls):
        return None
    names = tuple(f.name for f in dataclasses.fields(cls))
    get = attrgetter(*names) if len(names) > 1 else (lambda obj, one=attrgetter(*names): (one(obj),))
    _GETTERS[cls] = get
    return get


def freeze(value: Any) -> Any:
    """An immutable, comparable copy of a value made of dataclasses, lists, tuples, dicts, sets,
    enums and atoms; the container types are kept, so that a list swapped for a tuple shows."""
    cls = type(value)
    if cls in _ATOMS:
        return value
    if cls is list or cls is tuple:
        if _ATOMS.issuperset(map(type, value)):
            return cls, tuple(value)
        return cls, tuple(map(freeze, value))
    if cls is dict:
        items = value.values()
        if _ATOMS.issuperset(map(type, items)):
            return cls, tuple(value.items())
        return cls, tuple(value), tuple(map(freeze, items))
    get = _GETTERS.get(cls) or _getter(cls)
    if get is not None:
        fields = get(value)
        return cls, fields if _ATOMS.issuperset(map(type, fields)) else tuple(map(freeze, fields))
    if cls in _ATOMS:  # an enum met for the first time
        return value
    if isinstance(value, tuple):  # named tuples (titles)
        return cls, tuple(map(freeze, value))
    if isinstance(value, (set, frozenset)):
        return cls, tuple(sorted(map(freeze, value), key=repr))
    if cls is MappingProxyType:  # a decision's context
        return cls, tuple(value), tuple(map(freeze, value.values()))
    raise TypeError(f"check mode cannot fingerprint a {cls.__name__}")


def _generator(rng: Any) -> Any:
    """A generator's state; for a stand-in (tests script the dice), its attributes."""
    if isinstance(rng, random.Random):
        return rng.getstate()
    return freeze(vars(rng)) if hasattr(rng, "__dict__") else None


def fingerprint(table: Table, strategies: Sequence[Any], seat: int) -> tuple[tuple[str, Any], ...]:
    """Everything seat ``seat``'s strategy must leave as it found it, as (part, frozen value)."""
    board = table.board
    parts: list[tuple[str, Any]] = [
        ("the game's state", table.core.state_json()),
        ("the game's generator", table.core.rng_state()),
        ("the rules", freeze(table.rules)),
        ("the board", tuple(getattr(board, f.name) for f in dataclasses.fields(board) if f.name not in _BOARD_CACHES)),
        (ROUTES, tuple(board._routes.items()) + tuple(board._balls.items())),
        ("the game", (table.core, table.board, table.rules, table.seed)),
        ("the strategies", tuple(map(id, strategies)) + tuple(map(id, table._views.values()))),
    ]
    parts += [(f"the generator of seat {other}'s strategy", _generator(getattr(strategy, "rng", None)))
              for other, strategy in enumerate(strategies) if other != seat]
    return tuple(parts)


def difference(before: tuple[tuple[str, Any], ...], after: tuple[tuple[str, Any], ...]) -> str:
    """The parts that changed between two fingerprints, named; '' when nothing did. The board's
    route costs and move balls may grow during a decision (they are built on first use), never
    change."""
    changed = []
    for (name, old), (_, new) in zip(before, after):
        if name == ROUTES:
            grown = dict(new)
            if any(grown.get(target) is not row for target, row in old):
                changed.append(name)
        elif old != new:
            changed.append(name)
    return ", ".join(changed)
