"""What code played a run's games, so that a resume plays the same code.

When a run starts, run.json records (``code``) plsim's version, a digest of the game's code
(the engine, board, rules, scenario and strategy surface) and a digest of each source file of
every strategy it plays: the classes of its MRO, and for a strategy of a package (the built-in
``strategies``, an installed plugin) every file of that package. ``--resume`` recomputes them;
a difference is refused in one line unless ``--force-resume``, and then the run says its games
mix versions.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any, Iterable

import plsim
from plsim.runfolder.errors import RunConfigError

GAME_CODE = ("engine", "board", "rules", "strategy", "seats", "narration.py", "scenario.py")  # inside plsim/: what decides a game
PACKAGE_FILES_LIMIT = 200  # a strategy's package with more files counts only its classes' files
PLSIM_ROOT = Path(plsim.__file__).resolve().parent


def _digest(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in sorted(paths):
        h.update(str(path.relative_to(PLSIM_ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def game_code_digest() -> str:
    files = []
    for name in GAME_CODE:
        path = PLSIM_ROOT / name
        files += sorted(p for p in path.rglob("*") if p.suffix in (".py", ".json")) if path.is_dir() else [path]
    return _digest(files)


def strategy_files(cls: type) -> list[Path]:
    """The source files a strategy class's behaviour comes from (plsim's own left out: the game
    code digest covers them)."""
    files: set[Path] = set()
    for klass in cls.__mro__:
        module = sys.modules.get(klass.__module__)
        source = getattr(module, "__file__", None)
        if source is None or klass.__module__.split(".")[0] == "plsim":
            continue
        files.add(Path(source).resolve())
        package = getattr(sys.modules.get(klass.__module__.split(".")[0]), "__path__", None)
        if package:
            found = [p.resolve() for folder in package for p in Path(folder).rglob("*.py")]
            if len(found) <= PACKAGE_FILES_LIMIT:
                files.update(found)
    return sorted(files)


def program_files(spec: Any) -> list[Path]:
    """The files outside Python a strategy's behaviour comes from, as the strategy names them
    (``program_files(params)``: an ``exec`` seat's program)."""
    named = getattr(spec.cls, "program_files", None)
    return sorted(Path(p).resolve() for p in named(spec.params)) if named is not None else []


def code_record(specs: dict[str, Any]) -> dict[str, Any]:
    """run.json's ``code``: plsim's version, the game code's digest, the source files of each
    strategy entry, and each file's digest. ``specs``: entry -> resolved ``StrategySpec``."""
    strategies = {entry: [str(path) for path in strategy_files(spec.cls) + program_files(spec)]
                  for entry, spec in specs.items()}
    files = {path: hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
             for paths in strategies.values() for path in paths}
    return {"plsim": plsim.__version__, "game_code": game_code_digest(), "strategies": strategies, "files": files}


def for_entries(code: dict[str, Any], entries: Iterable[str]) -> dict[str, Any]:
    """The part of ``code`` that the strategy entries ``entries`` use (one cell's)."""
    strategies = {entry: code["strategies"][entry] for entry in entries}
    used = {path for paths in strategies.values() for path in paths}
    return {**code, "strategies": strategies, "files": {p: d for p, d in code["files"].items() if p in used}}


def changes(before: dict[str, Any] | None, now: dict[str, Any]) -> list[str]:
    """What differs between the code a run recorded and the code here, named."""
    if not before:
        return ["the run recorded no code digest (it was started by an older plsim)"]
    found = []
    if before.get("plsim") != now["plsim"]:
        found.append(f"plsim {before.get('plsim')} is now {now['plsim']}")
    if before.get("game_code") != now["game_code"]:
        found.append("plsim's game code (plsim/engine, board, rules, strategy, scenario.py)")
    was = before.get("files", {})
    for entry, paths in now["strategies"].items():
        if entry not in before.get("strategies", {}):
            found.append(f"strategy {entry} (not recorded)")
            continue
        files = set(paths) | set(before["strategies"][entry])
        found += [path for path in sorted(files) if was.get(path) != now["files"].get(path) and path not in found]
    return found


def check_same_code(folder: Path, before: dict[str, Any] | None, now: dict[str, Any], force: bool) -> list[str]:
    """Refuse to resume ``folder`` with other code (``RunConfigError``, one line) unless
    ``force``; returns what changed (empty when nothing did)."""
    changed = changes(before, now)
    if changed and not force:
        shown = "; ".join(cut_list(changed))
        raise RunConfigError(f"{folder} was played by other code: {shown} changed since; resuming would mix "
                             "games of two versions: pass --force-resume to resume anyway")
    return changed


def cut_list(items: list[str], most: int = 3) -> list[str]:
    return items[:most] + ([f"and {len(items) - most} more"] if len(items) > most else [])
