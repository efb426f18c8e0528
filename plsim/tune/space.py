"""The search space of a tune: ``SPACE.toml``, one table per rule parameter, checked before any game.

    [economy.start_coins]        # a range: low, high, and optionally step or log = true
    low = 6
    high = 20
    step = 2

    [turns.rotate_first_player]  # a list of values
    values = [true, false]

    [setup.home_order]           # a choice's names (optuna's categorical)
    values = ["turn", "snake"]

    [setup.seat_coins.3]         # one element of a fixed-length list: seat 3's extra coins
    low = 0
    high = 6

Integer parameters stay integers (``step`` defaults to 1), float parameters may take ``step`` or
``log = true``; booleans, choices and lists (``defence.wall_by_siege_round``) take ``values``
(numbers may too). Every bound and value is checked against the parameter's type and its allowed
values, so an impossible space is refused in one line naming the key.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from optuna.distributions import BaseDistribution, CategoricalDistribution, FloatDistribution, IntDistribution

from plsim.rules import ParamSpec, RulesError, closest_paths, element_parent, param_spec

RANGE_KEYS = ("low", "high", "step", "log")
LIST_KEYS = ("values",)


class SpaceError(ValueError):
    """A search space that cannot be searched; one line naming the file and the key."""


@dataclass(frozen=True)
class Dimension:
    """One searched parameter: a range (``low``..``high`` by ``step``, or log-uniform) or a list."""

    path: str
    kind: str  # "int" | "float" | "list"
    low: float | None = None
    high: float | None = None
    step: float | None = None
    log: bool = False
    values: tuple[Any, ...] = ()

    def distribution(self) -> BaseDistribution:
        """The optuna distribution of this dimension (lists become categorical choices)."""
        if self.kind == "list":
            return CategoricalDistribution([_choice(v) for v in self.values])
        if self.kind == "int":
            return IntDistribution(int(self.low), int(self.high), step=int(self.step or 1), log=self.log)
        return FloatDistribution(self.low, self.high, step=self.step, log=self.log)

    def encode(self, value: Any) -> Any:
        """A rule value as optuna holds it (the inverse of ``decode``)."""
        if self.kind == "list":
            return _choice(value)
        return int(value) if self.kind == "int" else float(value)

    def extremes(self) -> tuple[Any, ...]:
        """The values a check of every combination's consistency needs: a list's values, a range's ends."""
        if self.kind == "list":
            return self.values
        return tuple(self.decode(v) for v in (self.low, self.high))

    def decode(self, suggested: Any) -> Any:
        """An optuna suggestion back to the rule value (categorical tuples travel as lists)."""
        if self.kind == "list":
            return next(v for v in self.values if _choice(v) == suggested)
        return int(suggested) if self.kind == "int" else float(suggested)

    def contains(self, value: Any) -> bool:
        """Whether ``value`` is a point of this dimension (on its steps, within its bounds)."""
        if self.kind == "list":
            return value in self.values
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.low <= value <= self.high:
            return False
        if self.step is None:
            return self.kind == "float" or float(value).is_integer()
        steps = (value - self.low) / self.step
        return abs(steps - round(steps)) < 1e-9

    def size(self) -> float:
        """How many distinct values the dimension has (``inf`` for a continuous range)."""
        if self.kind == "list":
            return len(self.values)
        if self.kind == "float" and self.step is None:
            return math.inf
        return math.floor((self.high - self.low) / (self.step or 1) + 1e-9) + 1

    def describe_value(self, value: Any) -> str:
        """One value as the space file and the tables write it (true, 12, 0.25, [4,2,0])."""
        return _text(value)

    def describe(self) -> str:
        if self.kind == "list":
            return ", ".join(map(_text, self.values))
        text = f"{_text(self.low)}..{_text(self.high)}"
        if self.step:
            text += f" step {_text(self.step)}"
        return text + (" (log)" if self.log else "")


def _choice(value: Any) -> Any:
    """Optuna's categorical choices must be None, bool, int, float or str."""
    return ",".join(map(str, value)) if isinstance(value, tuple) else value


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ",".join(map(str, value)) + "]"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def load_space(path: str | Path) -> tuple[Dimension, ...]:
    """The checked dimensions of a space file."""
    path = Path(path)
    try:
        return space_from_mapping(read_space(path))
    except SpaceError as exc:
        raise SpaceError(f"{path}: {exc}") from None


def read_space(path: str | Path) -> dict[str, Any]:
    """The parsed TOML of a space file (unchecked), as a tune saves it to rebuild its space."""
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpaceError(f"{path}: space file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpaceError(f"{path}: cannot read the space file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpaceError(f"{path}: TOML syntax error: {' '.join(str(exc).split())}") from None


def space_from_mapping(data: dict[str, Any]) -> tuple[Dimension, ...]:
    """The dimensions of a parsed space file, in file order."""
    leaves = list(_leaves(data, ""))
    if not leaves:
        raise SpaceError("the space names no parameter (one table per rule parameter, e.g. [economy.start_coins])")
    dimensions = tuple(_dimension(path, table) for path, table in leaves)
    paths = [d.path for d in dimensions]
    for path in paths:
        whole = param_spec(path).parent
        if paths.count(path) > 1:
            raise SpaceError(f"{path} is given twice")
        if whole in paths:
            raise SpaceError(f"[{whole}] and [{path}] both set {whole}; search the whole list or its elements")
    return dimensions


def _leaves(data: dict[str, Any], prefix: str):
    for key, value in data.items():
        path = f"{prefix}{key}"
        if not isinstance(value, dict):
            raise SpaceError(f"{path} must be a table (low/high or values), got {value!r}")
        if any(k in RANGE_KEYS + LIST_KEYS for k in value):
            yield path, value
        else:
            yield from _leaves(value, path + ".")


def _dimension(path: str, table: dict[str, Any]) -> Dimension:
    try:
        spec = param_spec(path)
    except RulesError as exc:
        if element_parent(path):
            raise SpaceError(str(exc)) from None
        raise SpaceError(f"unknown rule parameter {path!r} (closest: {', '.join(closest_paths(path))})") from None
    unknown = sorted(set(table) - set(RANGE_KEYS + LIST_KEYS))
    if unknown:
        raise SpaceError(f"{path}: unknown key {unknown[0]!r} (a range takes low, high, step, log; a list takes values)")
    if "values" in table:
        if set(table) != {"values"}:
            raise SpaceError(f"{path}: give either values or low/high, not both")
        return _list_dimension(spec, table["values"])
    return _range_dimension(spec, table)


def _list_dimension(spec: ParamSpec, values: Any) -> Dimension:
    if not isinstance(values, list) or not values:
        raise SpaceError(f"{spec.path}: values must be a non-empty list, got {values!r}")
    checked = []
    for value in values:
        try:
            checked.append(spec.check(value))
        except RulesError as exc:
            raise SpaceError(str(exc)) from None
    if len(set(checked)) != len(checked):
        raise SpaceError(f"{spec.path}: values lists a value twice")
    return Dimension(spec.path, "list", values=tuple(checked))


def _range_dimension(spec: ParamSpec, table: dict[str, Any]) -> Dimension:
    if spec.kind not in (int, float):
        each = f", or search one element as [{spec.path}.N]" if spec.length else ""
        raise SpaceError(f"{spec.path} is a {spec.type_name} parameter: give values = [...] instead of a range{each}")
    missing = [k for k in ("low", "high") if k not in table]
    if missing:
        raise SpaceError(f"{spec.path}: a range needs {' and '.join(missing)}")
    try:
        low, high = spec.check(table["low"]), spec.check(table["high"])
    except RulesError as exc:
        raise SpaceError(str(exc)) from None
    if low >= high:
        raise SpaceError(f"{spec.path}: low = {_text(low)} must be below high = {_text(high)}")
    log = table.get("log", False)
    if not isinstance(log, bool):
        raise SpaceError(f"{spec.path}: log must be true or false, got {log!r}")
    step = table.get("step")
    if step is not None:
        if log:
            raise SpaceError(f"{spec.path}: step and log = true cannot be combined")
        if isinstance(step, bool) or not isinstance(step, (int, float)) or not step > 0 or not math.isfinite(step):
            raise SpaceError(f"{spec.path}: step must be a positive number, got {step!r}")
        if spec.kind is int and not float(step).is_integer():
            raise SpaceError(f"{spec.path}: an integer parameter needs a whole step, got {step!r}")
        if step > high - low:
            raise SpaceError(f"{spec.path}: step {_text(step)} is larger than the range {_text(low)}..{_text(high)}")
    if log and low <= 0:
        raise SpaceError(f"{spec.path}: log = true needs low > 0, got {_text(low)}")
    if step is not None:
        high = low + math.floor((high - low) / step + 1e-9) * step  # the last value the steps reach
    kind = "int" if spec.kind is int else "float"
    return Dimension(spec.path, kind, float(low), float(high), None if step is None else float(step), log)


def space_size(dimensions: tuple[Dimension, ...]) -> float:
    """The number of distinct points of the space (``inf`` when a dimension is continuous)."""
    return math.prod(d.size() for d in dimensions)
