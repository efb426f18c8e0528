"""Scenarios: the map, player count, rule overrides and default strategies a batch plays.

A scenario is a small TOML file so that a balance analyst can name a variant, share it and re-run
it; the standard four-player game is built in and needs no file. A file looks like::

    [scenario]
    name = "strong-canaanites"          # must match the file name; defaults to it
    description = "One sentence."
    players = 4                         # 2..6
    map = "default"                     # a board name, or a map JSON path relative to this file
    strategies = ["random"]             # one name per seat; a shorter list is cycled
    [rules.canaanites]
    garrison = 4                        # any parameter of plsim.rules.Rules

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

from plsim.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, RulesError, rules_from_mapping

DEFAULT_NAME = "standard-4p"
DEFAULT_STRATEGIES = ("economist", "warlord", "judge-rush", "schemer")
DEFAULT_ALIAS = "default"
SCENARIO_KEYS = ("name", "description", "players", "map", "strategies")
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
        lines += [f"{key} = {_toml_value(getattr(self, key))}" for key in SCENARIO_KEYS]
        for section, values in self.rules.to_dict().items():
            lines += ["", f"[rules.{section}]"]
            for key, value in values.items():
                default = defaults[section][key]
                note = "" if value == default else f"  # default {_toml_value(default)}"
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
    """The built-in default and every scenario file found, one per name, sorted by name."""
    found = {DEFAULT_NAME: default_scenario()}
    for name, path in _scenario_files().items():
        found[name] = _load_file(path)
    return [found[name] for name in sorted(found)]


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


def _load_file(path: Path) -> Scenario:
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
    return _from_data(data, path)


def _from_data(data: dict[str, Any], path: Path) -> Scenario:
    """Check the parsed TOML, apply defaults and the rule overrides."""
    for key in data:
        if key not in TOP_LEVEL_TABLES:
            raise ScenarioError(f"{path}: unknown top-level table or key {key!r} (allowed: [scenario], [rules])")
    meta = _table(data, "scenario", path)
    for key in meta:
        if key not in SCENARIO_KEYS:
            raise ScenarioError(f"{path}: unknown key scenario.{key} (allowed: {', '.join(SCENARIO_KEYS)})")
    base = default_scenario()

    name = _field(meta, "name", str, path.stem, path)
    if name != path.stem:
        raise ScenarioError(f"{path}: scenario.name {name!r} must match the file name {path.stem!r}")
    description = _field(meta, "description", str, "", path)
    players = _field(meta, "players", int, base.players, path)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ScenarioError(f"{path}: scenario.players = {players} is outside {MIN_PLAYERS}..{MAX_PLAYERS}")
    board = _map(_field(meta, "map", str, base.map, path), path)
    strategies = _strategies(meta, players, path)

    overrides = _table(data, "rules", path)
    try:
        rules = rules_from_mapping(overrides)
    except RulesError as exc:
        raise ScenarioError(f"{path}: {_one_line(str(exc))}") from None
    return Scenario(name, description, players, board, rules, strategies, path.resolve())


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
    value = meta.get("strategies", ["random"])
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
    "scenario_dirs",
    "scenario_names",
]
