"""run.json checked as it is read: every key plsim reads has the type a run writes.

A resume rebuilds its plan and options from run.json, and a report, a replay or a sweep reads it;
a key of another type (``"check": "no"``, which Python reads as true; ``"rules": []``; ``"resumed":
5``) was trusted, then went wrong far from the file, some of it as a traceback. Here such a file
is refused in one line naming it, the key and what it holds (``check_run_info``). Only the types
are checked: what a value means (a seating, a timeout, a rule) is checked where it is used, in
the same one-line way. Keys plsim does not read are left alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from plsim.runfolder.errors import RunConfigError

Check = Callable[[Any], bool]


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _flag(value: Any) -> bool:
    return isinstance(value, bool)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _table(value: Any) -> bool:
    return isinstance(value, dict)


def _tables(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(item, dict) for item in value.values())


def _lineups(value: Any) -> bool:
    return isinstance(value, list) and all(_texts(lineup) for lineup in value)


def _names(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def _records(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


def _code(value: Any) -> bool:
    return (isinstance(value, dict) and all(_text(value[key]) for key in ("plsim", "game_code") if key in value)
            and _names(value.get("files", {}))
            and isinstance(value.get("strategies", {}), dict)
            and all(_texts(paths) for paths in value.get("strategies", {}).values()))


def _faults(value: Any) -> bool:
    return _whole(value) or isinstance(value, list)


def _optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


# key -> (its check, what a run writes there, for the message)
KEYS: dict[str, tuple[Check, str]] = {
    "kind": (_text, "a name"),
    "cell": (_optional(_text), "a name or null"),
    "scenario": (_text, "a name"),
    "scenario_path": (_optional(_text), "a path or null"),
    "scenario_ref": (_optional(_text), "a name or a path"),
    "scenario_description": (_optional(_text), "a text"),
    "scenario_strategies": (_optional(_texts), "a list of strategy entries"),
    "map": (_text, "a map's name or path"),
    "players": (_whole, "a whole number"),
    "strategies": (_texts, "a list of strategy entries"),
    "tables": (_lineups, "a list of line-ups (lists of strategy entries)"),
    "refs": (_optional(_names), "a table of strategy entries and their references"),
    "games_per_table": (_whole, "a whole number"),
    "games_requested": (_optional(_whole), "a whole number"),
    "until_ci": (_optional(_number), "a number or null"),
    "seating": (_text, "a seating's name"),
    "seed": (_whole, "a whole number"),
    "common_seeds": (_optional(_flag), "true or false"),
    "rules": (_tables, "a table of rule tables"),
    "workers": (_optional(_whole), "a whole number or null"),
    "executor": (_optional(_text), "an executor's name"),
    "scheduler": (_optional(_text), "an address or null"),
    "game_timeout": (_optional(_number), "a number of seconds"),
    "connect_timeout": (_optional(_number), "a number of seconds"),
    "on_fault": (_optional(_text), "stop or skip"),
    "check": (_optional(_flag), "true or false"),
    "csv": (_optional(_flag), "true or false"),
    "command": (_optional(_text), "a command line"),
    "versions": (_optional(_table), "a table of versions"),
    "code": (_optional(_code), "a table of the code's digests"),
    "started": (_optional(_text), "a time"),
    "finished": (_optional(_text), "a time"),
    "status": (_optional(_text), "a status"),
    "resumed": (_records, "a list of tables"),
    "mixed_versions": (_texts, "a list of texts"),
    "games": (_optional(_whole), "a whole number"),
    "faults": (_optional(_faults), "a whole number"),
    "decisions": (_optional(_whole), "a whole number"),
    "seconds_in_games": (_optional(_number), "a number of seconds"),
    "wall_seconds": (_optional(_number), "a number of seconds"),
    "stopped_by": (_optional(_text), "a name or null"),
    "failure": (_optional(_table), "a table or null"),
    "peak_memory_mib": (_optional(_table), "a table of numbers"),
    "workers_started": (_optional(_whole), "a whole number or null"),
    "wrath_threshold": (_number, "a number"),
    "tournament_strategies": (_texts, "a list of strategy entries"),
    "compare": (lambda v: isinstance(v, dict) and _text(v.get("a")) and _text(v.get("b")), "a table with a and b"),
    "ladder": (lambda v: isinstance(v, dict) and _texts(v.get("tiers")) and ("field" not in v or _texts(v["field"])),
               "a table with a list of tiers (and a field, a list of strategy entries)"),
}
# what each kind of run needs beyond a plain run's keys
KIND_KEYS = {"compare": "compare", "ladder": "ladder", "tournament": "tournament_strategies"}


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_run_info(info: dict[str, Any], path: Path) -> dict[str, Any]:
    """``info`` (read from ``path``) if every key plsim reads has its type, else ``RunConfigError``
    naming the first that does not."""
    for key, (check, expected) in KEYS.items():
        if key in info and not check(info[key]):
            raise RunConfigError(f"{path} is damaged: its {key!r} is {_shown(info[key])}, where a run writes "
                                 f"{expected}")
    threshold = info.get("rules", {}).get("wrath", {}).get("threshold")  # what a report reads of the rules
    if threshold is not None and not _number(threshold):
        raise RunConfigError(f"{path} is damaged: its rules.wrath.threshold is {_shown(threshold)}, where a run "
                             "writes a number")
    needed = KIND_KEYS.get(info.get("kind", "run"))
    if needed is not None and needed not in info:
        raise RunConfigError(f"{path} is damaged: a {info['kind']} records its {needed!r}, and this one has none")
    return info
