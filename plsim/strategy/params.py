"""Strategy parameters with declared types, ranges and meanings, checked before any game.

A strategy declares its parameters in its ``params`` class attribute, either as bare defaults
(the type is the default's) or with ``param(default, low, high, help)``. A subclass may re-declare
one with a bare value to change only its default. ``param_specs(cls)`` gathers the declarations
along the class's bases; ``check_params(cls, values)`` checks values given by name (``plsim run
--players warlord:aggression=0.8``) and returns them converted to the declared types.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from types import MappingProxyType
from typing import Any, Mapping

KINDS = (bool, int, float, str)
KIND_NAMES = {bool: "bool", int: "int", float: "float", str: "str"}


class StrategyParamError(ValueError):
    """An unknown strategy parameter, or a value of the wrong type or outside its range."""


@dataclass(frozen=True)
class Param:
    """One declared parameter: its default, type, allowed range and what it does."""

    default: Any
    low: float | None = None
    high: float | None = None
    help: str = ""
    kind: type | None = None  # None: the type of the default
    name: str = ""

    @property
    def type_name(self) -> str:
        return KIND_NAMES[self.kind]

    def range_text(self) -> str:
        if self.kind not in (int, float) or (self.low is None and self.high is None):
            return ""
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return f"{low}..{high}"

    def check(self, value: Any, owner: str) -> Any:
        """``value`` as this parameter's type; StrategyParamError naming ``owner`` and the
        parameter if it has the wrong type or is out of range."""
        what = f"strategy {owner!r}: parameter {self.name}={value!r}"
        declared = f"({self.type_name}, default {self.default!r})"
        kind = self.kind
        if kind is bool:
            if not isinstance(value, bool):
                raise StrategyParamError(f"{what} is not true or false {declared}")
            return value
        if kind is str:
            if not isinstance(value, str):
                raise StrategyParamError(f"{what} is not a string {declared}")
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and isinstance(value, float)):
            noun = "a whole number" if kind is int else "a number"
            raise StrategyParamError(f"{what} is not {noun} {declared}")
        value = kind(value)
        if not math.isfinite(value):
            raise StrategyParamError(f"{what} must be finite {declared}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise StrategyParamError(f"{what} is out of range: allowed {self.range_text()} {declared}")
        return value


def param(default: Any, low: float | None = None, high: float | None = None, help: str = "") -> Param:
    """Declare a strategy parameter in a ``params`` mapping."""
    return Param(default, low, high, help)


def _declared(name: str, value: Any, inherited: Param | None, owner: type) -> Param:
    if isinstance(value, Param):
        spec = replace(value, name=name, kind=value.kind or type(value.default))
    elif inherited is not None:
        spec = replace(inherited, default=value)
    else:
        spec = Param(value, kind=type(value), name=name)
    if spec.kind not in KINDS:
        raise TypeError(f"{owner.__name__}.params[{name!r}]: a parameter is a bool, int, float or str, "
                        f"not {type(spec.default).__name__}")
    spec.check(spec.default, getattr(owner, "name", owner.__name__))
    return spec


@cache
def param_specs(cls: type) -> Mapping[str, Param]:
    """Every parameter of a strategy class by name, its own declarations over its bases'."""
    specs: dict[str, Param] = {}
    for klass in reversed(cls.__mro__):
        for name, value in klass.__dict__.get("params", {}).items():
            specs[name] = _declared(name, value, specs.get(name), klass)
    return MappingProxyType(specs)


def check_params(cls: type, values: dict[str, Any]) -> dict[str, Any]:
    """``values`` checked against the class's declarations and converted to their types."""
    specs = param_specs(cls)
    owner = getattr(cls, "name", cls.__name__)
    unknown = sorted(set(values) - set(specs))
    if unknown:
        known = ", ".join(sorted(specs)) or "none"
        raise StrategyParamError(f"strategy {owner!r} has no parameter {', '.join(unknown)} (known: {known})")
    return {name: specs[name].check(value, owner) for name, value in values.items()}


def defaults(cls: type) -> dict[str, Any]:
    """Every parameter's default value, by name."""
    return {name: spec.default for name, spec in param_specs(cls).items()}
