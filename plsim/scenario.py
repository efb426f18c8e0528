"""Scenarios: the map, player count, rule overrides and default strategies a batch plays.

A scenario is a small TOML file so that a balance analyst can name a variant, share it and re-run
it; the standard four-player game is built in and needs no file. A file looks like::

    [scenario]
    name = "strong-canaanites"          # must match the file name; defaults to it
    description = "One sentence."
    players = 4                         # 2..6
    map = "default"                     # a board name, or a map JSON path relative to this file
    strategies = ["economist", "warlord"]   # one name per seat; a shorter list is cycled
    [rules.canaanites]
    garrison = 4                        # any parameter of plsim.rules.Rules

A variant names its base with ``extends = "standard-4p"`` (a name, or a path relative to the file)
in ``[scenario]`` and inherits everything it does not set: players, map, description, strategies
and every rule override, its own ``[rules]`` tables applied on top. A scenario that names no
strategies (and inherits none) plays the standard scenario's for its player count, and says so in
``Scenario.notes`` — never silently four ``random`` players.

Names are looked up as ``<name>.toml`` in ``./scenarios/`` (the current directory) and then in the
repository's ``scenarios/`` folder; a file in the current directory hides a shipped one of the
same name. ``default`` and ``standard-4p`` fall back to the built-in game when no file has them.
Every problem is a ``ScenarioError`` whose one-line message names the file and the problem.
"""

from __future__ import annotations

import itertools
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plsim.board import MapError, check_playable, load_board
from plsim.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError, check_deck, param_specs, rules_from_mapping

DEFAULT_NAME = "standard-4p"
DEFAULT_STRATEGIES = ("economist", "warlord", "judge-rush", "schemer")
DEFAULT_ALIAS = "default"
SCENARIO_KEYS = ("name", "description", "players", "map", "strategies", "extends")
SHOWN_KEYS = ("name", "description", "players", "map", "strategies")
TOP_LEVEL_TABLES = ("scenario", "rules")


class ScenarioError(ValueError):
    """A scenario that cannot be used; the message is one line naming the file and the problem."""


@dataclass(frozen=True)
class Scenario:
    """One playable set-up. ``strategies`` may be shorter than ``players``: it is cycled."""

    name: str
    description: str
    players: int
    map: str
    rules: Rules
    strategies: tuple[str, ...]
    path: Path | None = None
    extends: str | None = None  # the base scenario's name or path, as the file wrote it
    notes: tuple[str, ...] = ()  # what the user should know about how it was filled in

    def seat_strategies(self) -> tuple[str, ...]:
        """One strategy name per seat, cycling the list: ("a", "b") for 5 seats is a, b, a, b, a."""
        return tuple(itertools.islice(itertools.cycle(self.strategies), self.players))

    def to_toml(self) -> str:
        """The scenario as a complete scenario file: every rule parameter, overrides marked.

        The text loads back to an equal scenario when saved as ``<name>.toml``, so a user can start
        a variant from it.
        """
        defaults = Rules().to_dict()
        lines = [f"# scenario {self.name}" + (f", from {self.path}" if self.path else " (built in)")]
        lines += ["[scenario]"]
        if self.extends:
            lines += [f"# extends {self.extends}; everything below is resolved"]
        lines += [f"{key} = {_toml_value(getattr(self, key))}" for key in SHOWN_KEYS]
        specs = param_specs()
        for section, values in self.rules.to_dict().items():
            lines += ["", f"[rules.{section}]"]
            for key, value in values.items():
                default = defaults[section][key]
                notes = [] if value == default else [f"default {_toml_value(default)}"]
                choices = specs[f"{section}.{key}"].choices
                notes += [f"one of {', '.join(choices)}"] if choices else []
                note = f"  # {'; '.join(notes)}" if notes else ""
                lines.append(f"{key} = {_toml_value(value)}{note}")
        return "\n".join(lines) + "\n"


def default_scenario() -> Scenario:
    """The rulebook's game for four of the scripted strategies, on the shipped map with every
    default rule: the batch a newcomer's first ``plsim run`` plays."""
    return Scenario(
        name=DEFAULT_NAME,
        description="The rulebook game for four players.",
        players=4,
        map="default",
        rules=Rules(),
        strategies=DEFAULT_STRATEGIES,
        path=None,
    )


def as_scenario(scenario: "str | Path | Scenario | None") -> Scenario:
    """A scenario object from a name, a path, a Scenario, or None for the built-in default."""
    if scenario is None:
        return default_scenario()
    if isinstance(scenario, Scenario):
        return scenario
    return load_scenario(scenario)


def scenario_dirs() -> tuple[Path, ...]:
    """The folders searched for ``<name>.toml``, first match wins: ./scenarios, then the repo's."""
    dirs: list[Path] = []
    for folder in (Path.cwd() / "scenarios", Path(__file__).resolve().parents[1] / "scenarios"):
        if folder.is_dir() and all(folder.resolve() != d.resolve() for d in dirs):
            dirs.append(folder)
    return tuple(dirs)


def scenario_names() -> list[str]:
    """Every name ``load_scenario`` accepts, read from file names alone (no file is parsed)."""
    names = {DEFAULT_ALIAS, DEFAULT_NAME} | set(_scenario_files())
    return sorted(names)


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load a scenario from a ``.toml`` path, or by name from the scenario folders."""
    if _looks_like_path(name_or_path):
        return _load_file(Path(name_or_path))
    name = str(name_or_path)
    path = _scenario_files().get(name)
    if path is not None:
        return _load_file(path)
    if name in (DEFAULT_ALIAS, DEFAULT_NAME):
        return default_scenario()
    folders = " or ".join(str(d) for d in scenario_dirs()) or "./scenarios"
    raise ScenarioError(
        f"unknown scenario {name!r}: no {name}.toml in {folders} "
        f"(known: {', '.join(scenario_names())}; or give a path to a .toml file)"
    )


def list_scenarios() -> list[Scenario]:
    """The built-in default and every scenario file found, one per name, sorted by name.

    Raises the first file's ``ScenarioError``; ``scan_scenarios`` keeps going instead."""
    scenarios, broken = scan_scenarios()
    if broken:
        raise ScenarioError(broken[0][1])
    return scenarios


def scan_scenarios() -> tuple[list[Scenario], list[tuple[str, str]]]:
    """Every scenario that loads, sorted by name, and (name, one-line error) for each that does not."""
    found = {DEFAULT_NAME: default_scenario()}
    broken: dict[str, str] = {}
    for name, path in _scenario_files().items():
        try:
            found[name] = _load_file(path)
        except ScenarioError as exc:
            found.pop(name, None)
            broken[name] = str(exc)
    return [found[n] for n in sorted(found)], sorted(broken.items())


def standard_strategies(players: int) -> tuple[tuple[str, ...], str]:
    """The strategies of the standard scenario for ``players`` seats, and where they came from."""
    name = f"standard-{players}p"
    try:
        return load_scenario(name).seat_strategies(), name
    except ScenarioError:
        strategies = tuple(itertools.islice(itertools.cycle(DEFAULT_STRATEGIES), players))
        return strategies, f"the built-in {DEFAULT_NAME} (no {name}.toml was found)"


def _scenario_files() -> dict[str, Path]:
    """Name -> file over the scenario folders; the first folder holding a name wins."""
    files: dict[str, Path] = {}
    for folder in scenario_dirs():
        for path in sorted(folder.glob("*.toml")):
            files.setdefault(path.stem, path)
    return files


def _looks_like_path(value: str | Path) -> bool:
    if isinstance(value, Path):
        return True
    separators = [s for s in (os.sep, os.altsep, "/") if s]
    return value.endswith(".toml") or any(s in value for s in separators)


def _load_file(path: Path, _chain: tuple[Path, ...] = ()) -> Scenario:
    if path.resolve() in _chain:
        loop = " -> ".join(p.name for p in (*_chain, path.resolve()))
        raise ScenarioError(f"{path}: extends goes round in a circle ({loop})")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"{path}: scenario file not found") from None
    except UnicodeDecodeError:
        raise ScenarioError(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: TOML syntax error: {_one_line(str(exc))}") from None
    return _from_data(data, path, (*_chain, path.resolve()))


def _from_data(data: dict[str, Any], path: Path, chain: tuple[Path, ...]) -> Scenario:
    """Check the parsed TOML, apply the base's (or the defaults') values and the rule overrides."""
    for key in data:
        if key not in TOP_LEVEL_TABLES:
            raise ScenarioError(f"{path}: unknown top-level table or key {key!r} (allowed: [scenario], [rules])")
    meta = _table(data, "scenario", path)
    for key in meta:
        if key not in SCENARIO_KEYS:
            raise ScenarioError(f"{path}: unknown key scenario.{key} (allowed: {', '.join(SCENARIO_KEYS)})")
    extends = _field(meta, "extends", str, None, path) if "extends" in meta else None
    base = _base(extends, path, chain) if extends else None
    fallback = base or default_scenario()

    name = _field(meta, "name", str, path.stem, path)
    if name != path.stem:
        raise ScenarioError(f"{path}: scenario.name {name!r} must match the file name {path.stem!r}")
    description = _field(meta, "description", str, base.description if base else "", path)
    players = _field(meta, "players", int, fallback.players, path)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ScenarioError(f"{path}: scenario.players = {players} is outside {MIN_PLAYERS}..{MAX_PLAYERS}")
    board = _map(_field(meta, "map", str, None, path), path) if "map" in meta else fallback.map
    notes: list[str] = []
    if "strategies" in meta:
        strategies = _strategies(meta, players, path)
    elif base is not None and base.players == players:
        strategies = base.strategies
    else:
        strategies, source = standard_strategies(players)
        notes.append(f"scenario {name} names no strategies: playing {source}'s ({', '.join(strategies)})")

    overrides = _table(data, "rules", path)
    try:
        rules = rules_from_mapping(overrides, base.rules if base else None)
        check_deck(rules, players)
        check_playable(load_board(board), players, rules)
    except (RulesError, MapError) as exc:
        raise ScenarioError(f"{path}: {_one_line(str(exc))}") from None
    return Scenario(name, description, players, board, rules, strategies, path.resolve(), extends, tuple(notes))


def _base(extends: str, path: Path, chain: tuple[Path, ...]) -> Scenario:
    """The scenario a file extends: a path relative to the file, a scenario name, or the built-in."""
    if _looks_like_path(extends):
        target = Path(extends) if Path(extends).is_absolute() else path.parent / extends
        return _load_file(target, chain)
    found = _scenario_files().get(extends)
    if found is not None:
        return _load_file(found, chain)
    if extends in (DEFAULT_ALIAS, DEFAULT_NAME):
        return default_scenario()
    raise ScenarioError(f"{path}: scenario.extends names an unknown scenario {extends!r} "
                        f"(known: {', '.join(scenario_names())})")


def _table(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ScenarioError(f"{path}: {key} must be a table ([{key}]), got {_describe(value)}")
    return value


def _field(meta: dict[str, Any], key: str, kind: type, default: Any, path: Path) -> Any:
    value = meta.get(key, default)
    if not isinstance(value, kind) or isinstance(value, bool):
        expected = {str: "a string", int: "a whole number"}[kind]
        raise ScenarioError(f"{path}: scenario.{key} must be {expected}, got {_describe(value)}")
    if kind is str and key != "description" and not value.strip():
        raise ScenarioError(f"{path}: scenario.{key} must not be empty")
    return value


def _map(value: str, path: Path) -> str:
    """A board name stays as it is; a map file path is made absolute, relative to the scenario."""
    if not value.endswith(".json") and "/" not in value and os.sep not in value:
        return value
    board = (path.parent / value).resolve()
    if not board.is_file():
        raise ScenarioError(f"{path}: scenario.map file {value!r} not found (looked for {board})")
    return str(board)


def _strategies(meta: dict[str, Any], players: int, path: Path) -> tuple[str, ...]:
    value = meta["strategies"]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ScenarioError(f"{path}: scenario.strategies must be a list of strategy names, got {_describe(value)}")
    if not value:
        raise ScenarioError(f"{path}: scenario.strategies must name at least one strategy")
    if len(value) > players:
        raise ScenarioError(
            f"{path}: scenario.strategies names {len(value)} strategies but players = {players}"
        )
    return tuple(value)


def _describe(value: Any) -> str:
    kinds = {bool: "boolean", int: "integer", float: "float", str: "string", list: "array", dict: "table"}
    kind = kinds.get(type(value), type(value).__name__)
    return f"{kind} {_one_line(repr(value))}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _toml_value(value: Any) -> str:
    """A TOML literal for the values a scenario holds: bool, int, float, str and lists of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + "".join(_toml_char(c) for c in value) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r}")  # pragma: no cover


def _toml_char(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    if ord(char) < 0x20 or ord(char) == 0x7F:
        return f"\\u{ord(char):04x}"
    return char


__all__ = [
    "DEFAULT_ALIAS",
    "DEFAULT_NAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Scenario",
    "ScenarioError",
    "default_scenario",
    "list_scenarios",
    "load_scenario",
    "scan_scenarios",
    "standard_strategies",
    "scenario_dirs",
    "scenario_names",
]
