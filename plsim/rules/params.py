"""The rule parameters: one typed tree of dataclasses, defaults from RULES.md.

Every number of an [A] rule lives here so that a scenario can override it from the TOML
``[rules]`` table, and a balance analyst can sweep it. A few [M] numbers are here too (the wall's
melt, the development cap) so that variants can be explored; their defaults are the manual's.
Unknown keys and wrong types are errors that name the key (see ``rules_from_mapping``).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass, field
from typing import Any


class RulesError(ValueError):
    """A rule override that names an unknown key or gives a value of the wrong type."""


@dataclass(frozen=True, slots=True)
class Turns:
    rotate_first_player: bool = True  # RD-3


@dataclass(frozen=True, slots=True)
class Canaanites:
    garrison: int = 2  # MP-5: Weak 1, Medium 2, Strong 4


@dataclass(frozen=True, slots=True)
class Costs:
    wall: int = 5  # ST-10
    development: int = 6  # ST-10
    troop: int = 2  # ST-10
    judge_title: int = 10  # TI-1 [M]
    tabernacle: int = 30  # ST-7 [M]
    guilt_sacrifice: int = 20  # ST-7 [M]


@dataclass(frozen=True, slots=True)
class Limits:
    garrison: int = 10  # ST-10
    developments_on_board: int = 7  # ST-5 [M]
    developments_per_settlement: int = 2  # ST-5 [M]
    troops_per_general: int = 6  # GN-1, MV-10 [M]
    generals_per_settlement: int = 2  # MV-5 [M]
    captives_per_settlement: int = 2  # CB-5, MV-8 [M]


@dataclass(frozen=True, slots=True)
class Defence:
    wall_by_siege_round: tuple[int, ...] = (4, 2, 0)  # ST-4 [M]; the last value holds after
    city_by_siege_round: tuple[int, ...] = (6, 4, 2, 0)  # ST-8
    ark: int = 3  # Ark [M]


@dataclass(frozen=True, slots=True)
class Income:
    village: int = 1  # IN-1
    city: int = 3  # IN-1
    development: int = 2  # ST-5 [M]
    tax_multiplier: int = 2  # IN-3 [M]


@dataclass(frozen=True, slots=True)
class Economy:
    start_coins: int = 10  # IN-4


@dataclass(frozen=True, slots=True)
class Setup:
    home_garrison: int = 2  # SU-2
    home_min_distance: int = 2  # SU-2: 2 means "not adjacent"
    generals: int = 2  # SU-3
    cards: int = 2  # SU-3


@dataclass(frozen=True, slots=True)
class Cards:
    draw_per_round: int = 1  # DR-1
    hand_limit: int = 5  # DR-2
    blessing_draw: int = 2  # Blessing
    event_slots: int = 3  # DR-3 [M]
    mercenaries_strength: int = 4  # Mercenaries [M]
    chariot_strength: int = 3  # War Chariot [M]
    sword_strength: int = 3  # Goliath's Sword [M]


@dataclass(frozen=True, slots=True)
class Combat:
    dice: int = 1  # CB-3: d6 rolled per side
    winner_losses: float = 0.5  # CB-6


@dataclass(frozen=True, slots=True)
class Loot:
    village: int = 3  # CB-7
    city: int = 8  # CB-7
    development: int = 6  # ST-5 [M]


@dataclass(frozen=True, slots=True)
class Wrath:
    threshold: int = 13  # W-2 [M]
    after_release: int = 0  # W-2
    max_pairs: int = 4  # W-2 [M]
    tax: int = 1  # W-1 [M]
    mercenaries: int = 1  # W-1 [M]
    assassin: int = 1  # W-1 [M]
    prophet_killed: int = 3  # W-1 [M]
    guilt_sacrifice: int = 3  # W-1 [M], subtracted


@dataclass(frozen=True, slots=True)
class Invaders:
    strength: int = 3  # 9.5
    troops: int = 6  # 9.5 [M]


@dataclass(frozen=True, slots=True)
class Plague:
    hit_on: int = 4  # 9.4 [M]: a d6 of 4-6 hits
    dies_at_or_below: int = 1  # 9.4 [M]: a general commanding 0 or 1 troop dies


@dataclass(frozen=True, slots=True)
class Victory:
    points: int = 3  # V-1 [M]
    max_rounds: int = 60  # V-4
    min_judge_regions: int = 3  # V-2 [M]
    region_min_settlements: int = 4  # V-2, TI-1 [M]


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
    hints = typing.get_type_hints(type(group))
    known = {f.name for f in dataclasses.fields(group)}
    changes = {}
    for key, value in values.items():
        if key not in known:
            raise RulesError(f"unknown rule parameter rules.{prefix}.{key} (known: {', '.join(sorted(known))})")
        changes[key] = _coerce(f"{prefix}.{key}", value, hints[key])
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
    return dataclasses.replace(rules, **changes)


def rules_from_dict(data: dict[str, Any]) -> Rules:
    """Rebuild a ``Rules`` from ``Rules.to_dict()`` output (saved positions, run.json)."""
    return rules_from_mapping(data)

