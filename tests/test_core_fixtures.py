"""The Rust rules crate's test fixtures (core/rules/tests/fixtures/) are the map and the rules
plsim hands the core today: a change to either that is not written there fails here."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_core_crates_fixtures_are_the_map_and_rules_plsim_builds():
    done = subprocess.run([sys.executable, "scripts/core_fixtures.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_stale_fixture_is_named(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("core_fixtures", ROOT / "scripts" / "core_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.FIXTURES = tmp_path
    (tmp_path / "standard-board.json").write_text("{}")
    monkeypatch.setattr(sys, "argv", ["core_fixtures.py", "--check"])
    try:
        module.main()
    except SystemExit as stop:
        assert "standard-board.json" in str(stop) and "standard-rules.json" in str(stop)
    else:
        raise AssertionError("a stale fixture passed the check")
