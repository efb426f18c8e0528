"""The rule parameters: one typed tree of dataclasses, defaults from RULES.md.

Every number of an [A] rule lives here so that a scenario can override it from the TOML
``[rules]`` table, and a balance analyst can sweep it. A few [M] numbers are here too (the wall's
melt, the development cap) so that variants can be explored; their defaults are the manual's.
Every leaf is declared with ``rule(default, low, high)``: its allowed range lives beside its
default, so a scenario, a sweep or a tune that sets a value outside it is refused when it loads,
with one line naming the key and the range. Unknown keys (with the closest known ones), wrong
types and out-of-range values are errors that name the key (see ``rules_from_mapping``).
Parameters are addressed by dotted paths such as ``wrath.threshold`` (``param_paths``,
``get_param``, ``with_param``).
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import typing
from dataclasses import dataclass, field
from typing import Any


class RulesError(ValueError):
    """A rule override that names an unknown key, or gives a value of the wrong type or range."""


# MP-3 [M]: a game has 2 to 6 players (computer players included, the Canaanites never). The one
# home of these numbers: maps, scenarios and `plsim play` all check against them.
MIN_PLAYERS = 2
MAX_PLAYERS = 6


def rule(default: Any, low: float | None = None, high: float | None = None) -> Any:
    """A rule parameter with its default and the closed range ``[low, high]`` of allowed values
    (for a tuple, of each element)."""
    return field(default=default, metadata={"low": low, "high": high})


@dataclass(frozen=True, slots=True)
class Turns:
    rotate_first_player: bool = True  # RD-3


@dataclass(frozen=True, slots=True)
class Canaanites:
    garrison: int = rule(2, 0, 99)  # MP-5: Weak 1, Medium 2, Strong 4


@dataclass(frozen=True, slots=True)
class Costs:
    wall: int = rule(5, 0, 999)  # ST-10
    development: int = rule(6, 0, 999)  # ST-10
    troop: int = rule(2, 0, 999)  # ST-10
    judge_title: int = rule(10, 0, 999)  # TI-1 [M]
    tabernacle: int = rule(30, 0, 999)  # ST-7 [M]
    guilt_sacrifice: int = rule(20, 0, 999)  # ST-7 [M]


@dataclass(frozen=True, slots=True)
class Limits:
    garrison: int = rule(10, 0, 99)  # ST-10
    developments_on_board: int = rule(7, 0, 99)  # ST-5 [M]
    developments_per_settlement: int = rule(2, 0, 9)  # ST-5 [M]
    troops_per_general: int = rule(6, 1, 99)  # GN-1, MV-10 [M]
    generals_per_settlement: int = rule(2, 1, 9)  # MV-5 [M]
    captives_per_settlement: int = rule(2, 0, 9)  # CB-5, MV-8 [M]
    captive_moves: int = rule(2, 0, 9)  # MV-8 [M]: how far a captor moves a captive


@dataclass(frozen=True, slots=True)
class Defence:
    wall_by_siege_round: tuple[int, ...] = rule((4, 2, 0), 0, 99)  # ST-4 [M]; the last value holds after
    city_by_siege_round: tuple[int, ...] = rule((6, 4, 2, 0), 0, 99)  # ST-8
    ark: int = rule(3, 0, 99)  # Ark [M]


@dataclass(frozen=True, slots=True)
class Income:
    village: int = rule(1, 0, 99)  # IN-1
    city: int = rule(3, 0, 99)  # IN-1
    development: int = rule(2, 0, 99)  # ST-5 [M]
    tax_multiplier: int = rule(2, 0, 99)  # IN-3 [M]


@dataclass(frozen=True, slots=True)
class Economy:
    start_coins: int = rule(10, 0, 999)  # IN-4


@dataclass(frozen=True, slots=True)
class Setup:
    home_garrison: int = rule(2, 0, 99)  # SU-2
    home_min_distance: int = rule(2, 1, 20)  # SU-2: 2 means "not adjacent"
    generals: int = rule(2, 0, 6)  # SU-3
    cards: int = rule(2, 0, 20)  # SU-3


@dataclass(frozen=True, slots=True)
class Cards:
    draw_per_round: int = rule(1, 0, 10)  # DR-1
    hand_limit: int = rule(5, 0, 50)  # DR-2
    blessing_draw: int = rule(2, 0, 10)  # Blessing
    event_slots: int = rule(3, 1, 10)  # DR-3 [M]
    mercenaries_strength: int = rule(4, 0, 99)  # Mercenaries [M]
    chariot_strength: int = rule(3, 0, 99)  # War Chariot [M]
    sword_strength: int = rule(3, 0, 99)  # Goliath's Sword [M]


@dataclass(frozen=True, slots=True)
class Combat:
    dice: int = rule(1, 0, 10)  # CB-3: d6 rolled per side (0: no dice, the stronger side wins)
    winner_losses: float = rule(0.5, 0, 1)  # CB-6


@dataclass(frozen=True, slots=True)
class Loot:
    village: int = rule(3, 0, 999)  # CB-7
    city: int = rule(8, 0, 999)  # CB-7
    development: int = rule(6, 0, 999)  # ST-5 [M]


@dataclass(frozen=True, slots=True)
class Wrath:
    threshold: int = rule(13, 1, 99)  # W-2 [M]
    after_release: int = rule(0, 0, 98)  # W-2
    max_pairs: int = rule(4, 0, 4)  # W-2 [M]
    tax: int = rule(1, 0, 99)  # W-1 [M]
    mercenaries: int = rule(1, 0, 99)  # W-1 [M]
    assassin: int = rule(1, 0, 99)  # W-1 [M]
    prophet_killed: int = rule(3, 0, 99)  # W-1 [M]
    guilt_sacrifice: int = rule(3, 0, 99)  # W-1 [M], subtracted


@dataclass(frozen=True, slots=True)
class Invaders:
    strength: int = rule(3, 0, 99)  # 9.5
    troops: int = rule(6, 1, 99)  # 9.5 [M]
    per_pair: int = rule(2, 1, 8)  # W-2 [M]: the invaders let loose together (a pair)


@dataclass(frozen=True, slots=True)
class Plague:
    hit_on: int = rule(4, 1, 100)  # 9.4 [M]: a d6 of 4-6 hits (at most dice.sides)
    dies_at_or_below: int = rule(1, 0, 99)  # 9.4 [M]: a general commanding 0 or 1 troop dies
    loss_share: float = rule(0.5, 0, 1)  # 9.4 [M]: a hit loses half the troops, rounded up


@dataclass(frozen=True, slots=True)
class Dice:
    sides: int = rule(6, 2, 100)  # CB-3, AN-2, 9.4 [M]: the six-sided die of battles, events and Plague


@dataclass(frozen=True, slots=True)
class Victory:
    points: int = rule(3, 1, 99)  # V-1 [M]
    max_rounds: int = rule(60, 1, 5000)  # V-4
    min_judge_regions: int = rule(3, 1, 6)  # V-2 [M]
    region_min_settlements: int = rule(4, 1, 20)  # V-2, TI-1 [M]


@dataclass(frozen=True, slots=True)
class Rules:
    """The whole rule parameter tree; ``Rules()`` is the rulebook's default game."""

    turns: Turns = field(default_factory=Turns)
    canaanites: Canaanites = field(default_factory=Canaanites)
    costs: Costs = field(default_factory=Costs)
    limits: Limits = field(default_factory=Limits)
    defence: Defence = field(default_factory=Defence)
    income: Income = field(default_factory=Income)
    economy: Economy = field(default_factory=Economy)
    setup: Setup = field(default_factory=Setup)
    cards: Cards = field(default_factory=Cards)
    combat: Combat = field(default_factory=Combat)
    loot: Loot = field(default_factory=Loot)
    wrath: Wrath = field(default_factory=Wrath)
    invaders: Invaders = field(default_factory=Invaders)
    plague: Plague = field(default_factory=Plague)
    victory: Victory = field(default_factory=Victory)
    dice: Dice = field(default_factory=Dice)

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """A plain, TOML- and JSON-friendly copy of every parameter."""
        out: dict[str, dict[str, Any]] = {}
        for section in dataclasses.fields(self):
            group = getattr(self, section.name)
            out[section.name] = {
                f.name: list(v) if isinstance(v := getattr(group, f.name), tuple) else v
                for f in dataclasses.fields(group)
            }
        return out


@dataclass(frozen=True)
class ParamSpec:
    """One leaf of the tree: its dotted path, type, default and allowed range."""

    path: str
    kind: Any  # bool, int, float or tuple[int, ...]
    default: Any
    low: float | None
    high: float | None

    @property
    def type_name(self) -> str:
        if self.kind is bool:
            return "bool"
        if typing.get_origin(self.kind) is tuple:
            return "list of int"
        return self.kind.__name__

    def range_text(self) -> str:
        if self.kind is bool:
            return "true or false"
        low = "-inf" if self.low is None else _num(self.low)
        high = "inf" if self.high is None else _num(self.high)
        return f"{low}..{high}"

    def check(self, value: Any) -> Any:
        """The value coerced to this parameter's type; RulesError if of the wrong type or range."""
        value = _coerce(self.path, value, self.kind)
        for i, item in enumerate(value if isinstance(value, tuple) else (value,)):
            if isinstance(item, bool):
                continue
            where = f"rules.{self.path}" + (f"[{i}]" if isinstance(value, tuple) else "")
            if isinstance(item, float) and not math.isfinite(item):
                raise RulesError(f"{where} = {item!r} must be a finite number")
            if (self.low is not None and item < self.low) or (self.high is not None and item > self.high):
                raise RulesError(f"{where} = {_num(item)} is out of range: allowed {self.range_text()}")
        return value


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def param_specs() -> dict[str, ParamSpec]:
    """Every rule parameter by dotted path (``wrath.threshold``), in the tree's order."""
    specs: dict[str, ParamSpec] = {}
    for section in dataclasses.fields(Rules):
        group = section.default_factory
        hints = typing.get_type_hints(group)
        for leaf in dataclasses.fields(group):
            path = f"{section.name}.{leaf.name}"
            specs[path] = ParamSpec(path, hints[leaf.name], leaf.default, leaf.metadata.get("low"),
                                    leaf.metadata.get("high"))
    return specs


def param_paths() -> list[str]:
    return list(param_specs())


def closest_paths(path: str, n: int = 3) -> list[str]:
    """The known parameter paths most like ``path`` (for 'did you mean' messages)."""
    paths = param_paths()
    close = difflib.get_close_matches(path, paths, n=n, cutoff=0.5)
    if not close:
        leaf = path.rsplit(".", 1)[-1]
        close = [p for p in paths if p.rsplit(".", 1)[-1] == leaf][:n]
    return close or difflib.get_close_matches(path, paths, n=n, cutoff=0.0)


def param_spec(path: str) -> ParamSpec:
    """The spec of ``path``; RulesError naming the closest known paths if there is none."""
    spec = param_specs().get(path)
    if spec is None:
        raise RulesError(f"unknown rule parameter {path!r} (closest: {', '.join(closest_paths(path))})")
    return spec


def get_param(rules: "Rules", path: str) -> Any:
    section, leaf = param_spec(path).path.split(".")
    return getattr(getattr(rules, section), leaf)


def with_param(rules: "Rules", path: str, value: Any) -> "Rules":
    """``rules`` with one parameter changed (checked for type and range)."""
    section, leaf = path.split(".", 1)
    return rules_from_mapping({section: {leaf: value}}, rules)


def check_consistency(rules: "Rules") -> None:
    """Rules between parameters that no single range can say."""
    if rules.setup.home_garrison > rules.limits.garrison:
        raise RulesError(f"rules.setup.home_garrison = {rules.setup.home_garrison} exceeds "
                         f"rules.limits.garrison = {rules.limits.garrison} (ST-10)")
    if rules.plague.hit_on > rules.dice.sides:
        raise RulesError(f"rules.plague.hit_on = {rules.plague.hit_on} exceeds rules.dice.sides = "
                         f"{rules.dice.sides} (9.4: a Plague would never hit)")
    wrath = rules.wrath
    if wrath.after_release >= wrath.threshold:
        raise RulesError(f"rules.wrath.after_release = {wrath.after_release} must be below "
                         f"rules.wrath.threshold = {wrath.threshold} (the cup empties below the threshold)")


def _coerce(key: str, value: Any, annotation: Any) -> Any:
    """Check one leaf value against its annotation; ints are accepted where floats are."""
    if annotation is bool:
        if isinstance(value, bool):
            return value
        raise RulesError(f"rules.{key}: expected true or false, got {value!r}")
    if annotation is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise RulesError(f"rules.{key}: expected a whole number, got {value!r}")
    if annotation is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise RulesError(f"rules.{key}: expected a number, got {value!r}")
    if typing.get_origin(annotation) is tuple:
        if not isinstance(value, (list, tuple)) or not value:
            raise RulesError(f"rules.{key}: expected a non-empty list of whole numbers, got {value!r}")
        return tuple(_coerce(f"{key}[{i}]", v, int) for i, v in enumerate(value))
    raise RulesError(f"rules.{key}: unsupported parameter type {annotation!r}")  # pragma: no cover


def _override(group: Any, prefix: str, values: dict[str, Any]) -> Any:
    specs = param_specs()
    known = {f.name for f in dataclasses.fields(group)}
    changes = {}
    for key, value in values.items():
        if key not in known:
            raise RulesError(f"unknown rule parameter rules.{prefix}.{key} (known: {', '.join(sorted(known))})")
        changes[key] = specs[f"{prefix}.{key}"].check(value)
    return dataclasses.replace(group, **changes)


def rules_from_mapping(overrides: dict[str, Any] | None, base: Rules | None = None) -> Rules:
    """Apply a nested mapping (a scenario's ``[rules]`` table) to ``base`` or the defaults."""
    rules = base or Rules()
    if not overrides:
        return rules
    sections = {f.name for f in dataclasses.fields(rules)}
    changes = {}
    for section, values in overrides.items():
        if section not in sections:
            raise RulesError(f"unknown rule section rules.{section} (known: {', '.join(sorted(sections))})")
        if not isinstance(values, dict):
            raise RulesError(f"rules.{section} must be a table of parameters, got {values!r}")
        changes[section] = _override(getattr(rules, section), section, values)
    rules = dataclasses.replace(rules, **changes)
    check_consistency(rules)
    return rules


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Rebuild a ``Rules`` from ``Rules.to_dict()`` output (saved positions, run.json)."""
    return rules_from_mapping(data)

