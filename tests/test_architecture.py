"""The folder layout is the architecture (docs/architecture.md): data flows one way, so the
engine owns its vocabulary and never imports the packages built on it."""

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
    assert len(done) == len(graph) > 15
