"""The axes of a sweep: ``--vary KEY=VALUES`` parsed, typed and checked before any game runs.

``KEY`` is a rule parameter path as ``plsim scenarios --params`` lists it (``wrath.threshold``),
one element of a fixed-length list (``setup.seat_coins.3``), ``players`` (the player count) or
``scenario`` (scenario names or ``.toml`` files). ``VALUES`` is a comma list (``7,10,13``; TOML
literals, so ``true``, ``0.25`` and ``[4,2,0]`` work; a choice's names as they are,
``turn,snake``) or an inclusive numeric range ``a..b`` (step 1) or ``a..b:step``. Every value is
checked against the parameter's type and range here, so a typo costs one line, not a
half-finished grid.
"""

from __future__ import annotations

import itertools
import tomllib
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Sequence

from plsim.rules import RulesError, closest_paths, element_parent, param_spec
from plsim.scenario import MAX_PLAYERS, MIN_PLAYERS, ScenarioError, load_scenario

PLAYERS = "players"
SCENARIO = "scenario"
SPECIAL_KEYS = (PLAYERS, SCENARIO)
MAX_AXES = 3
MAX_VALUES = 200


class SweepError(ValueError):
    """A ``--vary`` that cannot be swept: unknown key, bad value, too many axes (one line)."""


@dataclass(frozen=True)
class Axis:
    """One swept key and its values, in the order given."""

    key: str
    values: tuple[Any, ...]

    def label(self, value: Any) -> str:
        """The value as it appears in cell names: a scenario file by its stem, never a path."""
        return value_labels(self.key, self.values)[self.values.index(value)]


def value_labels(key: str, values: Sequence[Any]) -> list[str]:
    """Each value's label, distinct within the axis: a scenario file becomes its stem (so that
    its cell folder stays inside the sweep's), and a stem met again gets ``-2``, ``-3``..."""
    if key != SCENARIO:
        return [format_value(v) for v in values]
    labels: list[str] = []
    for value in values:
        text = str(value)
        label = Path(text).stem if text.endswith(".toml") or "/" in text or "\\" in text else text
        unique, n = label, 1
        while unique in labels:
            n += 1
            unique = f"{label}-{n}"
        labels.append(unique)
    return labels


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer():
        return f"{value:.1f}"
    return str(value)


def parse_axis(text: str) -> Axis:
    """``KEY=VALUES`` to a checked ``Axis``."""
    key, eq, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not eq or not key or not raw:
        raise SweepError(f"--vary {text!r}: expected KEY=VALUES, e.g. wrath.threshold=7,10,13 or players=2..6")
    key = check_key(key)
    values = _expand(key, raw)
    if not values:
        raise SweepError(f"--vary {key}: no values in {raw!r}")
    if len(values) > MAX_VALUES:
        raise SweepError(f"--vary {key}: {len(values)} values; at most {MAX_VALUES} per axis")
    checked = tuple(check_value(key, v) for v in values)
    repeated = sorted({format_value(v) for v in checked if checked.count(v) > 1})
    if repeated:
        raise SweepError(f"--vary {key}: the value {', '.join(repeated)} is given twice")
    return Axis(key, checked)


def parse_axes(texts: Sequence[str]) -> tuple[Axis, ...]:
    """Every ``--vary`` of a sweep: one to three axes, each key once."""
    if not texts:
        raise SweepError("a sweep needs at least one --vary KEY=VALUES")
    if len(texts) > MAX_AXES:
        raise SweepError(f"{len(texts)} --vary axes; a sweep takes at most {MAX_AXES}")
    axes = tuple(parse_axis(t) for t in texts)
    keys = [a.key for a in axes]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise SweepError(f"--vary {twice[0]} is given more than once; give all its values in one --vary")
    for key in keys:
        whole = param_spec(key).parent if key not in SPECIAL_KEYS else None
        if whole in keys:
            raise SweepError(f"--vary {whole} and --vary {key} both set {whole}; vary the whole list or its elements")
    return axes


def check_key(key: str) -> str:
    """The key as cells and tables name it (``setup.seat_coins[3]`` is ``setup.seat_coins.3``)."""
    if key in SPECIAL_KEYS:
        return key
    try:
        return param_spec(key).path
    except RulesError as exc:
        if element_parent(key):
            raise SweepError(f"--vary: {exc}") from None
        close = closest_paths(key) + [k for k in SPECIAL_KEYS if k.startswith(key[:3])]
        raise SweepError(f"--vary: unknown key {key!r} (closest: {', '.join(close)}; "
                         f"all keys: plsim scenarios --params, or players, scenario)") from None


def check_value(key: str, value: Any) -> Any:
    """The value in the parameter's own type; SweepError naming key and value if it cannot be."""
    if key == PLAYERS:
        if isinstance(value, bool) or not isinstance(value, int) or not MIN_PLAYERS <= value <= MAX_PLAYERS:
            raise SweepError(f"--vary players: {format_value(value)} is not a player count "
                             f"({MIN_PLAYERS}..{MAX_PLAYERS})")
        return value
    if key == SCENARIO:
        try:
            load_scenario(str(value))
        except ScenarioError as exc:
            raise SweepError(f"--vary scenario: {exc}") from None
        return str(value)
    try:
        return param_spec(key).check(value)
    except RulesError as exc:
        raise SweepError(f"--vary {key}: {exc}") from None


def _expand(key: str, raw: str) -> list[Any]:
    if key == SCENARIO or (key not in SPECIAL_KEYS and param_spec(key).choices):
        return [part.strip() for part in raw.split(",") if part.strip()]
    if ".." in raw and not raw.lstrip().startswith("["):
        return _range(key, raw)
    return [_literal(key, part) for part in _split_top_level(raw)]


def _range(key: str, raw: str) -> list[Any]:
    """``a..b`` or ``a..b:step``, inclusive of ``b`` when the steps land on it."""
    span, _, step_text = raw.partition(":")
    low_text, _, high_text = span.partition("..")
    try:
        low, high = Decimal(low_text.strip()), Decimal(high_text.strip())
        step = Decimal(step_text.strip()) if step_text else Decimal(1)
    except InvalidOperation:
        raise SweepError(f"--vary {key}: {raw!r} is not a range a..b or a..b:step of numbers") from None
    if step <= 0:
        raise SweepError(f"--vary {key}: the step of {raw!r} must be positive")
    if high < low:
        raise SweepError(f"--vary {key}: the range {raw!r} runs backwards")
    whole = "." not in low_text + high_text + step_text
    count = int((high - low) / step) + 1
    if count > MAX_VALUES:
        raise SweepError(f"--vary {key}: {raw!r} gives {count} values; at most {MAX_VALUES} per axis")
    values = (low + i * step for i in range(count))
    return [int(v) if whole else float(v) for v in values]


def _literal(key: str, text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        raise SweepError(f"--vary {key}: {text.strip()!r} is not a value (a number, true/false or [a,b,...])") from None


def _split_top_level(raw: str) -> list[str]:
    """Split on commas that are not inside brackets: ``[4,2,0],[6,3,0]`` is two values."""
    parts, depth, current = [], 0, []
    for char in raw:
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        depth += (char == "[") - (char == "]")
        current.append(char)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]


def grid(axes: Sequence[Axis]) -> list[tuple[Any, ...]]:
    """Every combination of the axes' values, the first axis varying slowest."""
    return list(itertools.product(*(axis.values for axis in axes)))


def cell_name(axes: Sequence[Axis], values: Sequence[Any]) -> str:
    """The folder name of a cell: ``key=value`` joined by commas, in axis order."""
    return ",".join(f"{axis.key}={axis.label(v)}" for axis, v in zip(axes, values))
