"""Issue 19: the README's two set-up commands work on a fresh machine, and CI runs both.

CI installs the test extra, so a module that only the extra brings would never fail there; these
tests read the code's imports against pyproject.toml, and .ci/run against the README.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# An optional extra's modules, and the one module allowed to import them (itself imported only
# where the extra is asked for, with a one-line hint when it is absent).
EXTRAS = {"dask": "plsim/runner/dask_pool.py", "distributed": "plsim/runner/dask_pool.py"}


def setup_commands() -> list[str]:
    section = (ROOT / "README.md").read_text().split("\n## Set up\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def distribution_name(requirement: str) -> str:
    return re.split(r"[\s<>=!~\[;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def third_party_imports() -> dict[str, set[str]]:
    """Top-level module -> the files of plsim/ and strategies/ that import it."""
    found: dict[str, set[str]] = {}
    for folder in ("plsim", "strategies"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in ("plsim", "strategies"):
                        found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_module_the_package_imports_is_a_declared_dependency():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {distribution_name(d) for d in project["dependencies"]}
    owners = packages_distributions()
    undeclared = {}
    for module, files in third_party_imports().items():
        if {distribution_name(d) for d in owners.get(module, [module])} & declared:
            continue
        if files == {EXTRAS.get(module)}:
            continue
        undeclared[module] = sorted(files)
    assert undeclared == {}


def test_ci_runs_both_readme_commands_each_in_a_fresh_environment():
    first, second = setup_commands()
    assert first == "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/plsim run"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "rm -rf .venv-first\npython3 -m venv .venv-first && .venv-first/bin/pip install -e . && " in ci
    assert re.search(r'\.venv-first/bin/plsim" run --games \d+\)\n', ci)
    assert ci.rstrip().endswith(second)
    assert ci.index(".venv-first/bin/plsim") < ci.index(second)
