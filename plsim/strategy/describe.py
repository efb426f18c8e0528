"""A strategy described for its users: what ``plsim strategies --show NAME`` prints."""

from __future__ import annotations

import inspect
import sys

from plsim.strategy.params import param_specs
from plsim.strategy.registry import resolve


def strategy_doc(cls: type) -> str:
    """The strategy's own docstring, else its module's (where the scripted strategies tell their
    plan, strengths and weaknesses)."""
    own = cls.__dict__.get("__doc__")
    if not own:
        own = getattr(sys.modules.get(cls.__module__), "__doc__", None)
    return inspect.cleandoc(own) if own else "(no docstring)"


def parameter_lines(cls: type) -> list[str]:
    """One line per parameter: name, type, default, allowed range, meaning."""
    specs = param_specs(cls)
    if not specs:
        return ["  (none)"]
    rows = [("name", "type", "default", "range", "meaning")]
    rows += [(s.name, s.type_name, repr(s.default), s.range_text() or "-", s.help) for s in specs.values()]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4]
            for row in rows]


def describe(entry: str) -> str:
    """The strategy an entry names (a registered name or ``file.py:Class``): its name and one-line
    description, where its class lives, its docstring and its parameters with types and
    defaults. StrategyLoadError for an entry that does not resolve."""
    spec = resolve(entry)
    cls = spec.cls
    name = getattr(cls, "name", cls.__name__)
    lines = [f"{name}: {' '.join((cls.description or '(no description)').split())}",
             f"class {cls.__module__}:{cls.__qualname__}", "", strategy_doc(cls), "",
             f"parameters (give them as {name}:name=value,name=value):", *parameter_lines(cls)]
    return "\n".join(lines)
