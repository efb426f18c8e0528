"""Write the Rust rules crate's test fixtures: the default map's tables and the standard rules,
as the Python side hands them to the core (``plsim.engine.native``), so the crate's own tests
(core/rules/tests/) play real games without Python.

    python scripts/core_fixtures.py            # rewrite core/rules/tests/fixtures/
    python scripts/core_fixtures.py --check    # exit 1 if they differ from what plsim builds now

tests/test_core_fixtures.py runs the check: a change to the map or the rules' declaration that
is not written here fails there, not silently in the Rust tests.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from plsim.board import default_board
from plsim.engine.native import board_tables
from plsim.scenario import load_scenario

FIXTURES = Path(__file__).resolve().parent.parent / "core" / "rules" / "tests" / "fixtures"


def fixtures() -> dict[str, str]:
    return {
        "standard-board.json": json.dumps(board_tables(default_board()), indent=0) + "\n",
        "standard-rules.json": json.dumps(load_scenario("standard-4p").rules.to_dict(), indent=1, sort_keys=True) + "\n",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    stale = []
    for name, text in fixtures().items():
        path = FIXTURES / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
        else:
            FIXTURES.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    if stale:
        sys.exit(f"stale fixtures in {FIXTURES}: {', '.join(stale)} (python scripts/core_fixtures.py)")


if __name__ == "__main__":
    main()
