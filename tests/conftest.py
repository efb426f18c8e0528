"""Fixtures shared by test modules."""

import pytest
from click.testing import CliRunner

from plsim.cli import main


@pytest.fixture(scope="session")
def real_run(tmp_path_factory):
    """Six real 2-player games of the scripted strategies, played from the command line (a test
    that changes the folder works on a copy)."""
    out = tmp_path_factory.mktemp("html") / "run"
    result = CliRunner().invoke(main, ["run", "standard-2p", "--games", "6", "--workers", "1", "--seed", "5",
                                       "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    return out
