"""The game's pending steps and battle as JSON, so that a position can be saved at any decision.

A step is saved as the registered name of its function (``steps.step``) and its arguments; an
``Ask`` as its decision (kind, seat, options, context), its answer's function and arguments, and
the step that poses it anew. Arguments are plain values, tuples, options, enums, functions and
nested steps, each tagged so that it comes back as the very type it was.
"""

from __future__ import annotations

from enum import Enum
from types import MappingProxyType
from typing import Any

from plsim.engine.cards import CardAction, Phase
from plsim.engine.decisions import Decision, DecisionKind
from plsim.engine.options import OPTION_TYPES, PASS, Pass, Purchase
from plsim.engine.state import Battle, Side
from plsim.engine.steps import STEPS, Ask, Step, name_of

_ENUMS: dict[str, type[Enum]] = {cls.__name__: cls for cls in (Phase, CardAction, DecisionKind, Purchase)}
_OPTIONS = {cls.__name__: cls for cls in OPTION_TYPES}


class StackError(ValueError):
    """A saved stack that names an unknown step, option or enum, or is malformed."""


def encode(value: Any) -> Any:
    """A JSON-friendly form of a step argument (or a step, or an ``Ask``)."""
    if value is None or type(value) in (bool, int, str, float):
        return value
    if type(value) is Step:
        return {"step": name_of(value.run), "args": [encode(a) for a in value.args]}
    if type(value) is Ask:
        d = value.decision
        return {"ask": {"kind": d.kind.value, "seat": d.seat, "options": [encode(o) for o in d.options],
                        "context": {k: encode(v) for k, v in d.context.items()}},
                "then": name_of(value.then), "args": [encode(a) for a in value.args],
                "again": encode(value.again)}
    if type(value).__name__ in _OPTIONS and isinstance(value, tuple):
        return {"option": type(value).__name__, "fields": [encode(f) for f in value]}
    if isinstance(value, Enum) and type(value).__name__ in _ENUMS:
        return {"enum": type(value).__name__, "value": value.value}
    if type(value) is tuple:
        return {"tuple": [encode(v) for v in value]}
    if callable(value):
        return {"fn": name_of(value)}
    raise StackError(f"cannot save a {type(value).__name__} on the game's stack")


def decode(data: Any) -> Any:
    """The value ``encode`` saved."""
    if data is None or type(data) in (bool, int, str, float):
        return data
    if type(data) is not dict:
        raise StackError(f"malformed stack value {data!r}")
    try:
        if "step" in data:
            return Step(_function(data["step"]), tuple(decode(a) for a in data["args"]))
        if "ask" in data:
            ask = data["ask"]
            decision = Decision(DecisionKind(ask["kind"]), int(ask["seat"]), tuple(decode(o) for o in ask["options"]),
                                MappingProxyType({k: decode(v) for k, v in ask["context"].items()}))
            return Ask(decision, _function(data["then"]), tuple(decode(a) for a in data["args"]), decode(data["again"]))
        if "option" in data:
            cls = _OPTIONS[data["option"]]
            return PASS if cls is Pass else cls(*(decode(f) for f in data["fields"]))
        if "enum" in data:
            return _ENUMS[data["enum"]](data["value"])
        if "tuple" in data:
            return tuple(decode(v) for v in data["tuple"])
        if "fn" in data:
            return _function(data["fn"])
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, StackError):
            raise
        raise StackError(f"malformed stack value {data!r}: {exc}") from exc
    raise StackError(f"malformed stack value {data!r}")


def _function(name: str) -> Any:
    try:
        return STEPS[name]
    except KeyError:
        raise StackError(f"unknown step {name!r}") from None


def battle_to_dict(battle: Battle | None) -> dict[str, Any] | None:
    if battle is None:
        return None
    return {"hex": battle.hex, "attacker": _side_to_dict(battle.attacker), "defender": _side_to_dict(battle.defender),
            "defending_settlement": battle.defending_settlement, "won": battle.won}


def battle_from_dict(data: dict[str, Any] | None) -> Battle | None:
    if data is None:
        return None
    return Battle(data["hex"], _side_from_dict(data["attacker"]), _side_from_dict(data["defender"]),
                  data["defending_settlement"], data.get("won", False))


def _side_to_dict(side: Side) -> dict[str, Any]:
    return {"seat": side.seat, "generals": list(side.generals), "pair": list(side.pair) if side.pair else None,
            "idle_troops": side.idle_troops, "mercenaries": side.mercenaries, "siege_weapons": side.siege_weapons,
            "roll": side.roll, "total": side.total}


def _side_from_dict(data: dict[str, Any]) -> Side:
    values = dict(data)
    values["pair"] = tuple(values["pair"]) if values.get("pair") else None
    return Side(**values)
