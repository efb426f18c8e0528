"""The rule parameters: one typed tree of dataclasses, defaults from RULES.md.

Every number of an [A] rule lives here so that a scenario can override it from the TOML
``[rules]`` table, and a balance analyst can sweep it. A few [M] numbers are here too (the wall's
melt, the development cap) so that variants can be explored; their defaults are the manual's.
Every number is declared with ``rule(default, low, high)``: its allowed range lives beside its
default, so a scenario, a sweep or a tune that sets a value outside it is refused when it loads,
with one line naming the key and the range. A reading the manual leaves open is a switch: a
``bool``, or a named choice declared with ``choice(default, *others)``, whose value is the name
(``rules.setup.home_order == "snake"``). Unknown keys (with the closest known ones), wrong types,
out-of-range values and unknown names are errors that name the key (see ``rules_from_mapping``).
Parameters are addressed by dotted paths such as ``wrath.threshold`` (``param_paths``,
``get_param``, ``with_param``); one element of a fixed-length list by its index,
``setup.seat_coins.3`` (or ``setup.seat_coins[3]``), so a sweep or a tune can vary one seat.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import math
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class RulesError(ValueError):
    """A rule override that names an unknown key, or gives a value of the wrong type or range."""


# MP-3 [M]: a game has 2 to 6 players (computer players included, the Canaanites never). The one
# home of these numbers: maps, scenarios and `plsim play` all check against them.
MIN_PLAYERS = 2
MAX_PLAYERS = 6


def rule(default: Any, low: float | None = None, high: float | None = None, *, length: int | None = None) -> Any:
    """A rule parameter with its default and the closed range ``[low, high]`` of allowed values
    (for a tuple, of each element). A tuple with a ``length`` always has that many elements, and
    each can be addressed alone (``setup.seat_coins.3``)."""
    return field(default=default, metadata={"low": low, "high": high, "length": length})


def choice(default: str, *others: str) -> Any:
    """A named-choice parameter: its default, then the other allowed names. The value is the name
    itself (a ``str``), so engine code reads ``rules.items.captured_prophet == "keep"``."""
    allowed = (default, *others)
    if not others or len(set(allowed)) != len(allowed) or not all(isinstance(a, str) and a for a in allowed):
        raise TypeError(f"choice{allowed!r}: give the default and at least one other name, each once")
    return field(default=default, metadata={"choices": allowed})


def copies(default: int, category: str) -> Any:
    """A card kind's count in the deck (section 9): the manual's count by default, 0..1 for a
    general (each is one named card), 0..20 for the rest; ``category`` (general, item, one_use,
    event) lets a deck the rules cannot play be refused before any game (``check_deck``)."""
    return field(default=default, metadata={"low": 0, "high": 1 if category == "general" else 20,
                                            "category": category})


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
class Movement:
    free_settlements_block: bool = False  # MV-2: a free settlement can be passed through (true: it blocks)


@dataclass(frozen=True, slots=True)
class Setup:
    home_garrison: int = rule(2, 0, 99)  # SU-2
    home_min_distance: int = rule(2, 1, 20)  # SU-2: 2 means "not adjacent"
    home_order: str = choice("turn", "reverse", "snake", "random")  # SU-2: the order homes are chosen in
    seat_coins: tuple[int, ...] = rule((0,) * MAX_PLAYERS, 0, 999, length=MAX_PLAYERS)  # SU-2: extra coins, seat 0..5
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
class Items:
    captured_prophet: str = choice("keep", "discard")  # GN-2: a captured carrier's Prophet stays, or is discarded


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
    # W-6: loose invaders are enemy generals for the cards (Assassin, Ambush, Plague, Revolt; the
    # defender's whole card window), standing where they last attacked; off_map: not on the map
    # between attacks, and only Mercenaries against them
    reading: str = choice("generals", "off_map")


@dataclass(frozen=True, slots=True)
class Titles:
    # TI-5: who takes a lapsed capital (an ownerless Judge's city) takes its title at once and
    # names its holder (taker); vacant: it comes back vacant, for the next Announcements to fill
    lapsed_capital: str = choice("taker", "vacant")


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
class Deck:
    """Section 9 [M]: how many cards of each kind the deck holds, the manual's 88 by default. A
    general is one named card, so its count is 0 (left out) or 1; the key of a kind is its name in
    lower case with ``_`` for spaces (``deck.goliaths_sword``, ``deck.secret_passage``)."""

    # 9.1 generals
    joab: int = copies(1, "general")
    samson: int = copies(1, "general")
    joshua: int = copies(1, "general")
    david: int = copies(1, "general")
    josiah: int = copies(1, "general")
    abimelech: int = copies(1, "general")
    hezekiah: int = copies(1, "general")
    jephthah: int = copies(1, "general")
    shamgar: int = copies(1, "general")
    gideon: int = copies(1, "general")
    jonathan: int = copies(1, "general")
    solomon: int = copies(1, "general")
    caleb: int = copies(1, "general")
    ibzan: int = copies(1, "general")
    jair: int = copies(1, "general")
    othniel: int = copies(1, "general")
    saul: int = copies(1, "general")
    barak: int = copies(1, "general")
    isaiah: int = copies(1, "general")
    ehud: int = copies(1, "general")
    samuel: int = copies(1, "general")
    ahab: int = copies(1, "general")
    elon: int = copies(1, "general")
    tola: int = copies(1, "general")
    # 9.2 items
    squire: int = copies(4, "item")
    war_chariot: int = copies(3, "item")
    prophet: int = copies(2, "item")
    ark: int = copies(1, "item")
    goliaths_sword: int = copies(1, "item")
    anointed: int = copies(1, "item")
    bride: int = copies(1, "item")
    # 9.3 one-use cards
    secret_passage: int = copies(7, "one_use")
    siege_weapons: int = copies(4, "one_use")
    blessing: int = copies(4, "one_use")
    ambush: int = copies(4, "one_use")
    tax: int = copies(4, "one_use")
    mercenaries: int = copies(4, "one_use")
    revolt: int = copies(4, "one_use")
    assassin: int = copies(2, "one_use")
    justice: int = copies(2, "one_use")
    # 9.4 events
    famine: int = copies(6, "event")
    abundance: int = copies(4, "event")
    plague: int = copies(4, "event")
    sandstorm: int = copies(2, "event")


_DECK_CATEGORIES = {f.name: f.metadata["category"] for f in dataclasses.fields(Deck)}


@dataclass(frozen=True, slots=True)
class Rules:
    """The whole rule parameter tree; ``Rules()`` is the rulebook's default game."""

    turns: Turns = field(default_factory=Turns)
    canaanites: Canaanites = field(default_factory=Canaanites)
    costs: Costs = field(default_factory=Costs)
    limits: Limits = field(default_factory=Limits)
    movement: Movement = field(default_factory=Movement)
    defence: Defence = field(default_factory=Defence)
    income: Income = field(default_factory=Income)
    economy: Economy = field(default_factory=Economy)
    setup: Setup = field(default_factory=Setup)
    cards: Cards = field(default_factory=Cards)
    items: Items = field(default_factory=Items)
    combat: Combat = field(default_factory=Combat)
    loot: Loot = field(default_factory=Loot)
    wrath: Wrath = field(default_factory=Wrath)
    invaders: Invaders = field(default_factory=Invaders)
    titles: Titles = field(default_factory=Titles)
    plague: Plague = field(default_factory=Plague)
    victory: Victory = field(default_factory=Victory)
    dice: Dice = field(default_factory=Dice)
    deck: Deck = field(default_factory=Deck)

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
    """One leaf of the tree, or one element of a fixed-length list: its dotted path, type, default
    and allowed values (a range, true/false, or a choice's names)."""

    path: str
    kind: Any  # bool, int, float, str (a choice) or tuple[int, ...]
    default: Any
    low: float | None
    high: float | None
    choices: tuple[str, ...] = ()
    length: int | None = None  # a list's fixed number of elements, each addressable as ``path.N``
    parent: str | None = None  # an element's list parameter
    index: int | None = None  # an element's index in ``parent``

    @property
    def parameter(self) -> str:
        """The whole parameter a value of this spec changes: itself, or an element's list."""
        return self.parent or self.path

    @property
    def type_name(self) -> str:
        if self.choices:
            return "choice"
        if self.kind is bool:
            return "bool"
        if typing.get_origin(self.kind) is tuple:
            return f"list of {self.length} int" if self.length else "list of int"
        return self.kind.__name__

    def range_text(self) -> str:
        if self.choices:
            return ", ".join(self.choices)
        if self.kind is bool:
            return "true or false"
        low = "-inf" if self.low is None else _num(self.low)
        high = "inf" if self.high is None else _num(self.high)
        return f"{low}..{high}"

    def allowed_text(self) -> str:
        """The allowed values as ``plsim scenarios --params`` lists them (with a list's element paths)."""
        if self.length:
            return f"{self.range_text()} each; one element: {self.path}.N, N = 0..{self.length - 1}"
        return self.range_text()

    def check(self, value: Any) -> Any:
        """The value coerced to this parameter's type; RulesError if of the wrong type, range or name."""
        if self.choices:
            return self._check_choice(value)
        value = _coerce(self.path, value, self.kind)
        if self.length is not None and len(value) != self.length:
            raise RulesError(f"rules.{self.path}: expected a list of {self.length} whole numbers, "
                             f"got {len(value)}: {list(value)!r}")
        for i, item in enumerate(value if isinstance(value, tuple) else (value,)):
            if isinstance(item, bool):
                continue
            where = f"rules.{self.path}" + (f"[{i}]" if isinstance(value, tuple) else "")
            if isinstance(item, float) and not math.isfinite(item):
                raise RulesError(f"{where} = {item!r} must be a finite number")
            if (self.low is not None and item < self.low) or (self.high is not None and item > self.high):
                raise RulesError(f"{where} = {_num(item)} is out of range: allowed {self.range_text()}")
        return value

    def _check_choice(self, value: Any) -> str:
        if not isinstance(value, str):
            raise RulesError(f"rules.{self.path}: expected one of {self.range_text()} (a name), got {value!r}")
        if value not in self.choices:
            raise RulesError(f"rules.{self.path} = {value!r} is not one of {self.range_text()}")
        return value


# An element of a fixed-length list: ``setup.seat_coins.3`` or ``setup.seat_coins[3]``.
_ELEMENT = re.compile(r"(?P<parent>.+?)(?:\.(?P<dot>\d+)|\[(?P<bracket>\d+)\])")


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def param_specs() -> dict[str, ParamSpec]:
    """Every rule parameter by dotted path (``wrath.threshold``), in the tree's order."""
    return dict(_declared_specs())


@functools.cache  # the tree is fixed at import; reading its type hints on every check was the cost of a load
def _declared_specs() -> dict[str, ParamSpec]:
    specs: dict[str, ParamSpec] = {}
    for section in dataclasses.fields(Rules):
        group = section.default_factory
        hints = typing.get_type_hints(group)
        for leaf in dataclasses.fields(group):
            path = f"{section.name}.{leaf.name}"
            meta = leaf.metadata
            specs[path] = ParamSpec(path, hints[leaf.name], leaf.default, meta.get("low"), meta.get("high"),
                                    tuple(meta.get("choices", ())), meta.get("length"))
    return specs


def param_paths() -> list[str]:
    return list(param_specs())


def closest_paths(path: str, n: int = 3) -> list[str]:
    """The known parameter paths most like ``path`` (for 'did you mean' messages)."""
    paths = param_paths()
    leaf = path.rsplit(".", 1)[-1]
    same_leaf = [p for p in paths if p.rsplit(".", 1)[-1] == leaf]
    close = list(dict.fromkeys(same_leaf + difflib.get_close_matches(path, paths, n=n, cutoff=0.5)))[:n]
    return close or difflib.get_close_matches(path, paths, n=n, cutoff=0.0)


def param_spec(path: str) -> ParamSpec:
    """The spec of ``path`` (a parameter, or an element of a fixed-length list); RulesError naming
    the closest known paths if there is none."""
    specs = param_specs()
    spec = specs.get(path)
    if spec is not None:
        return spec
    parent = element_parent(path)
    if parent is not None:
        element = _ELEMENT.fullmatch(path)
        return _element_spec(path, specs[parent], int(element["dot"] or element["bracket"]))
    raise RulesError(f"unknown rule parameter {path!r} (closest: {', '.join(closest_paths(path))})")


def element_parent(path: str) -> str | None:
    """The known parameter ``path`` would be an element of (``setup.seat_coins`` for
    ``setup.seat_coins[9]``), valid or not, so an error can name the list rather than guess."""
    element = _ELEMENT.fullmatch(path)
    return element["parent"] if element and element["parent"] in param_specs() else None


def _element_spec(path: str, parent: ParamSpec, index: int) -> ParamSpec:
    if parent.length is None:
        raise RulesError(f"unknown rule parameter {path!r}: rules.{parent.path} has no elements to set one by one "
                         "(only fixed-length lists do, such as setup.seat_coins)")
    if index >= parent.length:
        raise RulesError(f"unknown rule parameter {path!r}: rules.{parent.path} has the elements "
                         f"0..{parent.length - 1}")
    return ParamSpec(f"{parent.path}.{index}", int, parent.default[index], parent.low, parent.high,
                     parent=parent.path, index=index)


def get_param(rules: "Rules", path: str) -> Any:
    spec = param_spec(path)
    section, leaf = spec.parameter.split(".")
    value = getattr(getattr(rules, section), leaf)
    return value if spec.index is None else value[spec.index]


def as_overrides(values: Mapping[str, Any], rules: "Rules") -> dict[str, dict[str, Any]]:
    """The ``[rules]`` table that sets ``values`` (by dotted path, elements included) on ``rules``.

    An element sets its whole list, the other elements as ``rules`` has them, so the table is a
    valid scenario table (TOML- and JSON-friendly). Each value is checked; a path given twice, or a
    list set both whole and element by element, is refused.
    """
    whole: dict[str, Any] = {}
    elements: dict[str, dict[int, Any]] = {}
    seen: set[str] = set()
    for path, value in values.items():
        spec = param_spec(path)
        if spec.path in seen:
            raise RulesError(f"rules.{spec.path} is given twice")
        seen.add(spec.path)
        if spec.index is None:
            whole[spec.path] = spec.check(value)
        else:
            elements.setdefault(spec.parameter, {})[spec.index] = spec.check(value)
    both = sorted(set(whole) & set(elements))
    if both:
        raise RulesError(f"rules.{both[0]} is set both whole and element by element; set one or the other")
    for parent, changes in elements.items():
        current = list(get_param(rules, parent))
        for index, value in changes.items():
            current[index] = value
        whole[parent] = tuple(current)
    table: dict[str, dict[str, Any]] = {}
    for path, value in whole.items():
        section, leaf = path.split(".")
        table.setdefault(section, {})[leaf] = list(value) if isinstance(value, tuple) else value
    return table


def with_params(rules: "Rules", values: Mapping[str, Any]) -> "Rules":
    """``rules`` with several parameters (or list elements) changed, checked as one change, so two
    values that only agree together (``limits.garrison`` and ``setup.home_garrison``) are accepted."""
    return rules_from_mapping(as_overrides(values, rules), rules)


def with_param(rules: "Rules", path: str, value: Any) -> "Rules":
    """``rules`` with one parameter (or list element) changed, checked for type and range."""
    return with_params(rules, {path: value})


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


def deck_key(kind: str) -> str:
    """A card kind's key in ``rules.deck``: "Goliath's Sword" -> "goliaths_sword"."""
    return re.sub(r"[^a-z0-9]+", "_", kind.lower().replace("'", "")).strip("_")


def deck_category(key: str) -> str:
    """The category (general, item, one_use, event) of the kind whose ``rules.deck`` key is ``key``."""
    return _DECK_CATEGORIES[key]


def check_deck(rules: Rules, players: int) -> None:
    """Refuse a deck the rules cannot play with ``players`` players: fewer generals than setup
    deals (SU-3), no item or one-use card while setup deals them, or no card at all while every
    round draws one (DR-1)."""
    counts = {f.name: getattr(rules.deck, f.name) for f in dataclasses.fields(rules.deck)}  # asdict copies deep
    by_category = {c: sum(n for key, n in counts.items() if _DECK_CATEGORIES[key] == c) for c in set(_DECK_CATEGORIES.values())}
    setup = rules.setup
    needed = players * setup.generals
    if by_category["general"] < needed:
        raise RulesError(f"rules.deck holds {by_category['general']} generals, but rules.setup.generals = "
                         f"{setup.generals} deals {needed} to {players} players (SU-3)")
    if setup.cards and not by_category["item"] + by_category["one_use"]:
        raise RulesError(f"rules.deck holds no item or one-use card, but rules.setup.cards = {setup.cards} "
                         "deals them (SU-3)")
    if rules.cards.draw_per_round and not sum(counts.values()):
        raise RulesError(f"rules.deck holds no card, but rules.cards.draw_per_round = {rules.cards.draw_per_round} "
                         "draws every round (DR-1)")


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

