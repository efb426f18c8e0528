"""The documents say what the code does: docs/strategies.md's worked example is a real strategy
that plays a batch exactly as printed, and the manual describes every decision kind the engine
asks; docs/rules.md names every rule parameter plsim.rules declares."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from click.testing import CliRunner

import plsim.strategy
from plsim.cli import main
from plsim.engine.decisions import DecisionKind
from plsim.engine.options import OPTION_TYPES
from plsim.rules import param_specs

DOC = Path(__file__).resolve().parents[1] / "docs" / "strategies.md"
RULES_DOC = DOC.with_name("rules.md")


def worked_example() -> str:
    """The first Python block after the heading "A worked example", verbatim."""
    section = DOC.read_text().split("\n## A worked example\n", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_worked_example_plays_a_batch_verbatim(tmp_path):
    """Issue 11: the tutorial strategy, extracted from the document as printed, plays a batch of
    games through plsim run against random players, every game to its end, and wins some."""
    plugin = tmp_path / "pilgrim.py"
    plugin.write_text(worked_example())
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", "--players", f"{plugin}:Pilgrim,random", "--games", "12",
                                       "--workers", "1", "--quiet", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    rows = {row["strategy"]: row for row in csv.DictReader((out / "summary.csv").open())}
    pilgrim = rows[f"{plugin}:Pilgrim"]
    assert int(pilgrim["games"]) == 24 and int(rows["random"]["games"]) == 24
    assert int(pilgrim["wins"]) > int(rows["random"]["wins"])
    shown = CliRunner().invoke(main, ["strategies", "--show", f"{plugin}:Pilgrim"])
    assert shown.exit_code == 0 and "odds" in shown.output and "Plan: arm each general" in shown.output


def test_every_decision_kind_is_described():
    """Issue 11: a test fails when a decision kind is missing from the document: each has its
    own heading, and every option type is named."""
    text = DOC.read_text()
    missing = [kind.value for kind in DecisionKind if f"\n### `{kind.value}`\n" not in text]
    assert not missing, f"docs/strategies.md does not describe {missing}"
    assert all(f"`{t.__name__}" in text or f"`{t.__name__}(" in text for t in OPTION_TYPES if t.__name__ != "Pass")


def test_the_documented_import_line_works():
    """The import line the document opens with names only what plsim.strategy exports."""
    line = re.search(r"^from plsim\.strategy import (.+)$", DOC.read_text(), re.M).group(1)
    assert {name.strip() for name in line.split(",")} <= set(plsim.strategy.__all__)


def test_the_rules_document_names_every_rule_parameter():
    """A parameter added to plsim.rules is documented in docs/rules.md (as `section.name`, or in a
    family written `section.<kind>` with its naming rule), and a name there that looks like a
    parameter of a known section is one, so none stays behind."""
    text = RULES_DOC.read_text()
    named = set(re.findall(r"`([a-z_]+\.[a-z_]+)`", text))
    families = set(re.findall(r"`([a-z_]+)\.<[a-z_ ]+>`", text))
    declared = set(param_specs())
    sections = {path.split(".")[0] for path in declared}
    assert sorted(p for p in declared - named if p.split(".")[0] not in families) == []
    assert sorted(n for n in named - declared if n.split(".")[0] in sections) == []
    assert len(declared) > 50
