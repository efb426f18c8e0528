"""The folder layout is the architecture (docs/architecture.md): data flows one way, so the
engine owns its vocabulary and never imports the packages built on it, each package imports only
the layers below it, nothing imports in a circle, and a package is used through its public face."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE_MUST_NOT_IMPORT = ("plsim.strategy", "plsim.runner", "plsim.cli")


def imported_modules(source: str, package: str) -> set[str]:
    """Every module a file of ``package`` imports, anywhere in it (TYPE_CHECKING blocks and
    function bodies too), relative imports made absolute."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            module = node.module or "" if not node.level else ".".join(filter(None, (base, node.module)))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def module_imports(path: Path) -> set[str]:
    package = ".".join(path.relative_to(ROOT).parts[:-1])
    return imported_modules(path.read_text(), package)


def under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


ENGINE_FILES = sorted((ROOT / "plsim" / "engine").glob("*.py"))


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_no_engine_module_imports_the_strategy_runner_or_cli_packages(path: Path) -> None:
    bad = sorted(m for m in module_imports(path) if under(m, ENGINE_MUST_NOT_IMPORT))
    assert not bad, f"plsim/engine/{path.name} imports {bad}"


def test_the_import_check_sees_every_form_of_import() -> None:
    """The check above would pass vacuously if the parser missed an import form."""
    probe = ("import plsim.cli\nif False:\n    from plsim.strategy import View\n"
             "def f():\n    from ..runner import batch\n    from . import cards\n")
    found = imported_modules(probe, "plsim.engine")
    assert {"plsim.cli", "plsim.strategy.View", "plsim.runner.batch", "plsim.engine.cards"} <= found
    assert sum(under(m, ENGINE_MUST_NOT_IMPORT) for m in found) >= 3
    assert len(ENGINE_FILES) > 10 and "plsim.engine.decisions" in module_imports(ROOT / "plsim/engine/game.py")


@pytest.mark.parametrize("path", sorted((ROOT / "strategies").glob("*.py")), ids=lambda p: p.name)
def test_the_strategies_import_plsim_only_through_the_plsim_strategy_surface(path: Path) -> None:
    """Issue 11: plugins (and our own strategies) write against ``plsim.strategy``, which
    re-exports the engine's vocabulary and rule arithmetic; nothing reaches into the engine."""
    bad = sorted(m for m in module_imports(path) if under(m, ("plsim",)) and not under(m, ("plsim.strategy",)))
    assert not bad, f"strategies/{path.name} imports {bad}"


def engine_import_graph() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports (the package's ``__init__`` left out)."""
    names = {f"plsim.engine.{p.stem}" for p in ENGINE_FILES if p.stem != "__init__"}
    return {f"plsim.engine.{p.stem}": {m for m in module_imports(p) if m in names}
            for p in ENGINE_FILES if p.stem != "__init__"}


def test_only_the_loop_imports_game_and_the_engine_has_no_import_circle() -> None:
    """Issue 21: rule functions take a small context, never the game; no engine module imports
    ``game.py`` (the loop that asks strategies), and the engine's imports form no circle."""
    graph = engine_import_graph()
    assert not [m for m, imports in graph.items() if "plsim.engine.game" in imports]
    assert_no_circle(graph)
    assert len(graph) > 15


def assert_no_circle(graph: dict[str, set[str]]) -> None:
    """Every module of ``graph`` reached without coming back to one on the way (a depth-first walk)."""
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import circle: " + " -> ".join((*path[path.index(module):], module))
        if module in done:
            return
        for imported in graph[module]:
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


# The packages of plsim/ (and its top-level modules) from the bottom up: each imports only the
# layers below its own. The game's packages share the bottom layer (the tests above order them).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("text", "textfile", "lazy", "stopping", "reaping", "rules", "board", "scenario", "engine", "strategy"),
    ("narration", "play"),
    ("seats",),  # players outside plsim's Python: a program over JSON lines, a person
    ("runfolder",),  # the run folder's files: frames, parts, faults, run.json, names
    ("stats",),
    ("html", "plots"),
    ("report",),
    ("runner",),  # playing the games
    ("runs",),  # the kinds of run: batch, tournament, compare, ladder, resume
    ("replay", "sweep"),
    ("tune", "cards", "serve"),  # searching rule values; the paired effect of each card kind; a person's page
    ("cli",),
    ("console",),
)
LAYER = {package: level for level, packages in enumerate(LAYERS) for package in packages}
# Packages used from outside only through their __init__.
FACED = ("runfolder", "stats", "html", "plots", "report", "runner", "runs", "replay", "sweep", "tune", "cards", "serve")
PLSIM_FILES = sorted((ROOT / "plsim").rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def resolved(name: str) -> str:
    """The module an imported name lives in (``plsim.runfolder.FAULT`` -> ``plsim.runfolder``)."""
    while not is_module(name):
        name = name.rsplit(".", 1)[0]
    return name


def plsim_imports(path: Path) -> set[str]:
    """The plsim modules a file imports, but for its own package's ``__init__`` (which Python has
    loaded before the file: ``from plsim.engine import arithmetic`` in the engine imports a sibling)."""
    here = module_name(path)
    found = {resolved(m) for m in module_imports(path) if under(m, ("plsim",))}
    return {m for m in found if m != "plsim" and m != here and not here.startswith(m + ".")}


def package_of(module: str) -> str:
    return module.split(".")[1]


MODULE_GRAPH = {module_name(p): plsim_imports(p) for p in PLSIM_FILES if module_name(p) != "plsim"}


def test_every_package_has_a_layer_and_imports_only_the_layers_below_it():
    """No arrow back up: the run folder below the statistics, the report below the runner, the
    runner below the kinds of run, and so on up to the command line."""
    assert {package_of(m) for m in MODULE_GRAPH} == set(LAYER)
    upward = sorted(f"{m} -> {i}" for m, imports in MODULE_GRAPH.items() for i in imports
                    if package_of(i) != package_of(m)
                    and (LAYER[package_of(i)] > LAYER[package_of(m)]
                         or LAYER[package_of(i)] == LAYER[package_of(m)] > 0))
    assert not upward


def test_the_run_folder_and_the_statistics_import_no_runner_and_only_the_cli_imports_the_cli():
    for module, imports in MODULE_GRAPH.items():
        if package_of(module) in ("runfolder", "stats"):
            assert not [i for i in imports if package_of(i) in ("runner", "runs")], module
        if package_of(module) not in ("cli", "console"):
            assert not [i for i in imports if package_of(i) == "cli"], module


def test_no_module_of_plsim_imports_in_a_circle():
    """Issue 45: ``lock -> results -> report -> lock`` was one; a circle hides which module is the
    lower one and breaks as soon as one of them imports the other at load time. (Circles inside
    the engine are the engine test's above.)"""
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import circle: " + " -> ".join((*path[path.index(module):], module))
        if module in done:
            return
        for imported in MODULE_GRAPH.get(module, ()):
            if not (package_of(module) == package_of(imported) == "engine"):
                visit(imported, (*path, module))
        done.add(module)

    for module in MODULE_GRAPH:
        visit(module, ())
    assert len(done) == len(MODULE_GRAPH) > 100


def test_other_packages_use_a_package_through_its_public_face():
    """tune, sweep, replay, the CLI ... import ``plsim.runner``, not ``plsim.runner.cells``: what a
    package offers is in its ``__init__``, and its modules may move without breaking the others."""
    inner = sorted(f"{m} -> {i}" for m, imports in MODULE_GRAPH.items() for i in imports
                   if package_of(i) in FACED and package_of(i) != package_of(m) and i != f"plsim.{package_of(i)}")
    assert not inner


# the Rust core (core/): a workspace of three crates, each depending only on those below it
CRATES = {"plsim-rules": ROOT / "core" / "rules", "plsim-agents": ROOT / "core" / "agents",
          "plsim-core": ROOT / "core"}
CRATE_MAY_USE = {"plsim-rules": set(), "plsim-agents": {"plsim-rules"},
                 "plsim-core": {"plsim-rules", "plsim-agents"}}


def crate_dependencies(folder: Path) -> set[str]:
    """The names under a crate's [dependencies] (tomllib reads Cargo.toml)."""
    import tomllib

    return set(tomllib.loads((folder / "Cargo.toml").read_text()).get("dependencies", {}))


@pytest.mark.parametrize("crate", sorted(CRATES))
def test_each_core_crate_depends_only_on_the_crates_below_it(crate: str) -> None:
    """The rules crate depends on no crate of ours and not on PyO3; the players' crate only on
    the rules; the binding on both (docs/architecture.md)."""
    ours = {d for d in crate_dependencies(CRATES[crate]) if d.startswith("plsim")}
    assert ours == CRATE_MAY_USE[crate], f"{crate} depends on {sorted(ours)}"
    if crate != "plsim-core":
        assert "pyo3" not in crate_dependencies(CRATES[crate]), f"{crate} depends on PyO3"


def test_no_rust_source_of_the_rules_reaches_up_to_the_players_or_the_binding() -> None:
    """A path to another crate of ours can only be written in a crate that depends on it."""
    for path in (ROOT / "core" / "rules" / "src").rglob("*.rs"):
        text = path.read_text()
        assert "plsim_agents" not in text and "pyo3" not in text, f"{path.relative_to(ROOT)} reaches up"
    for path in (ROOT / "core" / "agents" / "src").rglob("*.rs"):
        assert "pyo3" not in path.read_text(), f"{path.relative_to(ROOT)} uses PyO3"


def rust_module_imports(src: Path) -> dict[str, set[str]]:
    """Each module of a crate (a file under ``src``) and the modules of the same crate it names
    (``crate::x``, ``use crate::{x, y}``), read from its source."""
    import re

    modules = {p.stem: p for p in src.glob("*.rs") if p.stem not in ("lib", "main")}
    modules |= {p.name: p / "mod.rs" for p in src.iterdir() if (p / "mod.rs").exists()}
    graph = {}
    for name, path in modules.items():
        text = path.read_text()
        named = set(re.findall(r"crate::(\w+)", text))
        for group in re.findall(r"use crate::\{([^}]*)\}", text):
            named |= {part.strip().split("::")[0] for part in group.split(",")}
        graph[name] = {m for m in named if m in modules and m != name}
    return graph


@pytest.mark.parametrize("crate", sorted(CRATES))
def test_no_module_of_a_core_crate_imports_in_a_circle(crate: str) -> None:
    """Issue 58: every rule module imported ``game`` and game.rs imported them back to dispatch
    (a ten-module circle); now ``flow`` dispatches from above and ``parts`` sits below the state,
    its steps and options. A circle would hide again which module is the lower one."""
    graph = rust_module_imports(CRATES[crate] / "src")
    assert_no_circle(graph)
    assert len(graph) >= 7


def test_the_rules_flow_sits_above_every_rule_module_and_game_below() -> None:
    """``game`` imports no rule module; ``flow`` imports the rule modules and none imports it."""
    graph = rust_module_imports(CRATES["plsim-rules"] / "src")
    rule_modules = {"effects", "turns", "cardplay", "combat", "titles", "setup", "phases", "scoring", "invariants"}
    assert not graph["game"] & (rule_modules | {"flow"})
    assert rule_modules - {"turns", "scoring"} <= graph["flow"]
    assert not [m for m, imports in graph.items() if "flow" in imports and m not in ("rule_calls", "reposed")]
