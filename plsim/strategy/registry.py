"""Resolve ``--players`` entries to strategy classes.

An entry is a registered name (entry-point group ``plsim.strategies``), ``path/to/file.py:Class``
or ``package.module:Class``, optionally followed by parameters: ``warlord:aggression=0.8,siege=1``.
``exec:COMMAND`` is short for ``exec:command=COMMAND``: a program as a player (plsim/seats/external.py).
A ``.toml`` file with an ``entry`` key (``best.toml`` of ``plsim tune-strategy``) is a named
parameter set: it stands for that entry, and is named by its path in reports.
Parameter values are read as TOML literals (numbers, booleans), else kept as strings, and checked
against the strategy's declared parameters (type and range) when the entry is resolved, before
any game. A plugin that fails to import, however it fails (an exception, ``sys.exit``, a
``KeyboardInterrupt``), is a ``StrategyLoadError`` with one line.

A name means one class everywhere: a name two distributions register (a built-in shadowed
included) is refused rather than picked by the order of ``sys.path``, which worker processes may
not share; ``reference`` turns an entry into what other processes and run.json import. A plugin
file is imported under a module name of its whole path, so two ``bot.py`` stay two modules.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from plsim.engine.game import strategy_seed
from plsim.strategy.interface import Strategy
from plsim.strategy.params import StrategyParamError, check_params, param_specs
from plsim.textfile import InputFileError, read_input_text

GROUP = "plsim.strategies"
BUILT_IN = "plsim"  # the distribution of the built-in strategies


class StrategyLoadError(ValueError):
    """An unknown strategy name, a plugin that fails to import, or bad parameters."""


@dataclass(frozen=True)
class StrategySpec:
    """A resolved ``--players`` entry: the class and its parameters, ready to make seats."""

    label: str  # the entry as the user wrote it: names the strategy in reports
    cls: type[Strategy]
    params: dict[str, Any] = field(default_factory=dict)
    ref: str = ""  # what other processes and run.json import (``reference``)

    def make(self, seat: int, game_seed: int) -> Strategy:
        """One instance for one seat of one game, with its own generator (seeded by both)."""
        return self.cls(seat, random.Random(strategy_seed(game_seed, seat)), **self.params)


@lru_cache(maxsize=1)
def registered() -> dict[str, Any]:
    """Registered strategy names and their entry points; a name two distributions register is a
    ``StrategyLoadError`` naming both."""
    found: dict[str, Any] = {}
    for ep in entry_points(group=GROUP):
        other = found.setdefault(ep.name, ep)
        if _distribution(other) != _distribution(ep):
            raise StrategyLoadError(_clash(ep.name, _distribution(other), _distribution(ep)))
    return found


def _distribution(ep: Any) -> str:
    return ep.dist.name if ep.dist is not None else "?"


def _clash(name: str, first: str, second: str) -> str:
    if BUILT_IN in (first, second):
        plugin = second if first == BUILT_IN else first
        return (f"distribution {plugin} registers the strategy name {name!r}, a built-in of plsim: a built-in "
                f"cannot be shadowed; rename its entry point (group {GROUP})")
    return (f"the strategy name {name!r} is registered by two distributions, {first} and {second}: "
            f"uninstall one or rename its entry point (group {GROUP})")


def available_hint() -> str:
    return f"(available: {', '.join(sorted(registered())) or 'none'}; or path/file.py:Class)"


def available() -> dict[str, type[Strategy]]:
    """Every registered strategy that imports, by name."""
    found = {}
    for name in sorted(registered()):
        try:
            found[name] = _load_entry_point(name)
        except StrategyLoadError:
            continue
    return found


def _load_entry_point(name: str) -> type[Strategy]:
    try:
        cls = registered()[name].load()
    except BaseException as exc:  # noqa: B036 - a plugin that exits on import is a load error too
        raise StrategyLoadError(
            f"strategy {name!r} failed to import: {type(exc).__name__}: {exc} {available_hint()}"
        ) from exc
    return _check_class(cls, name)


def _check_class(cls: Any, where: str) -> type[Strategy]:
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyLoadError(f"{where} is not a plsim Strategy class")
    return cls


def _load_reference(ref: str) -> type[Strategy]:
    """``file.py:Class`` or ``package.module:Class``."""
    module_part, _, class_name = ref.rpartition(":")
    try:
        if module_part.endswith(".py"):
            path = Path(module_part)
            if not path.is_file():
                raise StrategyLoadError(f"strategy file {module_part} does not exist {available_hint()}")
            module_name = plugin_module_name(path)
            spec = importlib.util.spec_from_file_location(module_name, path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_part)
    except StrategyLoadError:
        raise
    except BaseException as exc:  # noqa: B036 - a plugin that exits on import is a load error too
        raise StrategyLoadError(
            f"strategy {ref!r} failed to import: {type(exc).__name__}: {exc} {available_hint()}"
        ) from exc
    if not hasattr(module, class_name):
        raise StrategyLoadError(f"strategy {ref!r}: {module_part} has no class {class_name} {available_hint()}")
    return _check_class(getattr(module, class_name), ref)


def plugin_module_name(path: Path) -> str:
    """The module a plugin file is imported as: its stem and a digest of its absolute path."""
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    return f"plsim_plugin_{path.stem}_{digest}"


def _parse_params(text: str, entry: str, cls: type[Strategy]) -> dict[str, Any]:
    """``key=value,key=value`` read as TOML literals (a declared string keeps its text)."""
    specs = param_specs(cls)
    params: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not key:
            raise StrategyLoadError(f"strategy {entry!r}: parameter {item!r} is not key=value")
        if key in params:  # a typo more often than a wish: which of the two was meant cannot be known
            raise StrategyLoadError(f"strategy {entry!r}: parameter {key!r} is given twice")
        if key in specs and specs[key].kind is str:
            params[key] = raw
            continue
        try:
            params[key] = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            params[key] = raw
    return params


EXEC = "exec"
EXEC_PARAMS = re.compile(r"^\s*(command|timeout)\s*=")


def _exec_command(entry: str) -> str:
    """``exec:python3 bot.py`` as ``exec:command=python3 bot.py``, the program's file made
    absolute when it names one here, so that a worker or a later resume starts the same program."""
    if not entry.startswith(EXEC + ":"):
        return entry
    rest = entry[len(EXEC) + 1:].strip()
    if EXEC_PARAMS.match(rest):
        params = [piece.partition("=") for piece in rest.split(",")]
        return f"{EXEC}:" + ",".join(f"{key}={_absolute_words(value) if key.strip() == 'command' else value}"
                                     for key, _, value in params)
    if len(rest) >= 2 and rest[0] == rest[-1] and rest[0] in "\"'":
        rest = rest[1:-1]
    return f"{EXEC}:command={_absolute_words(rest)}"


def _absolute_words(command: str) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        return command.strip()
    return shlex.join(os.path.abspath(w) if "/" in w or Path(w).suffix and Path(w).is_file() else w
                      for w in words)  # abspath, not resolve: a venv's python is a link that must stay one


def named_set(entry: str) -> str | None:
    """The entry a ``.toml`` parameter set stands for; None when ``entry`` names no such file."""
    path = Path(entry.strip())
    if path.suffix != ".toml" or not path.is_file():
        return None
    try:
        inner = tomllib.loads(read_input_text(path)).get("entry")
    except (InputFileError, tomllib.TOMLDecodeError) as exc:
        raise StrategyLoadError(f"the parameter set {path} cannot be read: {exc}") from None
    if not isinstance(inner, str) or not inner.strip() or inner.strip().endswith(".toml"):
        raise StrategyLoadError(f"the parameter set {path} has no entry = \"strategy:key=value,...\"")
    return inner.strip()


def entry_parts(entry: str) -> tuple[str, str]:
    """An entry's strategy (name or reference) and its parameters' text."""
    return _split(named_set(entry) or entry)


def _split(entry: str) -> tuple[str, str]:
    """An entry's strategy (name or reference) and its parameters' text."""
    entry = _exec_command(entry.strip())
    if not entry:
        raise StrategyLoadError("an empty strategy name")
    if entry.startswith(EXEC + ":"):
        return EXEC, entry[len(EXEC) + 1:]
    if "=" not in entry:
        return entry, ""
    head, _, params_text = entry.rpartition(":")
    if not head:
        raise StrategyLoadError(f"strategy {entry!r}: parameters need a name before them")
    return head, params_text


def reference(entry: str) -> str:
    """The entry as another process or a later command must import it: a registered name becomes
    its entry point's ``module:Class``, a plugin file's path absolute; parameters kept (a
    parameter set file: the entry it holds)."""
    head, params_text = entry_parts(entry)
    if head == EXEC:  # a built-in name, one class everywhere; its command may hold colons
        return f"{EXEC}:{params_text}"
    if ":" not in head and head in registered():
        head = f"{registered()[head].module}:{registered()[head].attr}"
    elif ".py:" in head:
        path, _, class_name = head.partition(".py:")
        head = f"{Path(path + '.py').resolve()}:{class_name}"
    return f"{head}:{params_text}" if params_text else head


def resolve(entry: str) -> StrategySpec:
    """One ``--players`` entry to a spec; errors name the entry and, when the strategy itself
    cannot be found or loaded, list the known names."""
    entry = entry.strip()
    head, params_text = entry_parts(entry)
    if ":" in head:
        cls = _load_reference(head)
    elif head in registered():
        cls = _load_entry_point(head)
    else:
        raise StrategyLoadError(f"unknown strategy {head!r} {available_hint()}")
    try:
        params = check_params(cls, _parse_params(params_text, entry, cls))
    except (StrategyParamError, TypeError) as exc:
        raise StrategyLoadError(str(exc)) from None
    return StrategySpec(entry, cls, params, reference(entry))


def resolve_all(entries: list[str] | tuple[str, ...]) -> list[StrategySpec]:
    return [resolve(e) for e in entries]
