"""What a tune keeps in its folder besides the run folders: the plan (tune.json) and best.toml.

``tune.json`` holds everything a resume needs — the base scenario with its rules, the space as the
file gave it, the objectives, the line-up, the counts and seeds, how the games ran — so a resumed
tune never depends on the scenario or space files as they are now; at the end it also holds the
best trial, the confirmation's figures and the ``verdict``. ``best.toml`` is an ordinary scenario
file that ``extends`` the base and sets the chosen values, ready for ``plsim run DIR/best.toml``:
a choice by its name, a searched list element as its whole list (the base's other elements kept).
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any, Sequence

import tomli_w

from plsim.rules import as_overrides, rules_from_mapping
from plsim.runfolder import RunConfigError, write_whole
from plsim.runner import RunOptions
from plsim.scenario import Scenario, ScenarioError, load_scenario
from plsim.tune.space import Dimension

TUNE_FILE = "tune.json"
BEST_FILE = "best.toml"
BEST_NAME = "best"
OPTION_KEYS = ("seed", "seating", "workers", "executor", "scheduler", "connect_timeout", "game_timeout", "on_fault", "check", "csv")


def scenario_to_dict(scenario: Scenario) -> dict[str, Any]:
    return {"name": scenario.name, "description": scenario.description, "players": scenario.players,
            "map": scenario.map, "rules": scenario.rules.to_dict(), "strategies": list(scenario.strategies),
            "path": str(scenario.path) if scenario.path else None, "extends": scenario.extends}


def scenario_from_dict(data: dict[str, Any]) -> Scenario:
    """The scenario a tune saved, with the rules it had when the tune started."""
    return Scenario(data["name"], data.get("description", ""), data["players"], data["map"],
                    rules_from_mapping(data["rules"]), tuple(data["strategies"]),
                    Path(data["path"]) if data.get("path") else None, data.get("extends"))


def options_to_dict(options: RunOptions) -> dict[str, Any]:
    return {key: getattr(options, key) for key in OPTION_KEYS}


def options_from_dict(data: dict[str, Any], overrides: dict[str, Any]) -> RunOptions:
    """The saved options, with ``overrides`` (how the games run) on top."""
    saved = RunOptions(**{k: v for k, v in data.items() if k in OPTION_KEYS})
    if overrides.get("scheduler") or overrides.get("executor") == "process":
        saved = dataclasses.replace(saved, scheduler=None, executor="process")
    return dataclasses.replace(saved, **overrides)


def read_tune_info(root: Path) -> dict[str, Any] | None:
    path = Path(root) / TUNE_FILE
    if not path.exists():
        return None
    try:
        info = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise RunConfigError(f"{path} cannot be read: {getattr(exc, 'msg', None) or exc}") from None
    return info if isinstance(info, dict) else None


def write_tune_info(root: Path, info: dict[str, Any]) -> Path:
    path = Path(root) / TUNE_FILE
    write_whole(path, json.dumps(info, indent=2, default=str) + "\n")
    return path


def extends_reference(base: Scenario, folder: Path) -> str:
    """How best.toml names its base: by name when the name loads that very scenario, else by path."""
    try:
        if dataclasses.replace(load_scenario(base.name), path=None, notes=()) == \
                dataclasses.replace(base, path=None, notes=()):
            return base.name
    except ScenarioError:
        pass
    if base.path is None:
        raise ScenarioError(f"the base scenario {base.name!r} has no file and its name loads another scenario")
    return os.path.relpath(base.path, Path(folder).resolve())


def best_toml(base: Scenario, dimensions: Sequence[Dimension], point: Sequence[Any], lineup: Sequence[str],
              folder: Path, header: Sequence[str]) -> str:
    """The text of best.toml: comment lines, then [scenario] extending the base, then the values."""
    scenario: dict[str, Any] = {"name": BEST_NAME, "extends": extends_reference(base, folder),
                                "description": f"{base.name} with the values plsim tune chose"}
    if tuple(lineup) != base.seat_strategies():
        scenario["strategies"] = list(lineup)
    rules = as_overrides({d.path: value for d, value in zip(dimensions, point)}, base.rules)
    comments = "".join(f"# {' '.join(line.split())}\n" for line in header)
    return comments + tomli_w.dumps({"scenario": scenario, "rules": rules})


def write_best(root: Path, text: str) -> Path:
    path = Path(root) / BEST_FILE
    path.write_text(text, encoding="utf-8")
    return path


__all__ = ["BEST_FILE", "TUNE_FILE", "best_toml", "options_from_dict", "options_to_dict", "read_tune_info",
           "scenario_from_dict", "scenario_to_dict", "write_best", "write_tune_info"]
