"""Issue 19: one run folder, one writer. A second plsim — ``run --force``, ``run --resume``,
``report`` — against a folder a live run is writing is refused in one line and touches nothing,
and the first run finishes with all its games; a folder of someone else's files needs --force."""

import json

import polars as pl
import pytest
from click.testing import CliRunner

from chaos import has_parts, kill_tree, plsim, wait_for, write_plugins, write_quick
from plsim.cli import main
from plsim.runfolder import FolderLock, RunConfigError

LIVE_GAMES = 20  # of Slower (about 2 s each, two at a time): the run outlasts the three refused commands


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    return {"entries": write_plugins(folder), "quick": write_quick(folder)}


def snapshot(folder):
    """Every file of the folder and its size (the lock file aside)."""
    return {p.relative_to(folder): p.stat().st_size for p in folder.rglob("*") if p.is_file() and p.name != ".plsim.lock"}


def test_a_second_plsim_on_a_live_run_is_refused_and_the_first_finishes_every_game(tmp_path, lab):
    out = tmp_path / "live"
    first = plsim("run", lab["quick"], "--players", f"{lab['entries']['Slower']},random", "--games", LIVE_GAMES,
                  "--workers", 2, "--out", out, "--quiet")
    try:
        wait_for(lambda: has_parts(out) or first.poll() is not None, what="the first run's parts")
        assert first.poll() is None, "the first run ended too soon for the test"
        before = snapshot(out)
        for args in (["run", lab["quick"], "--games", 4, "--workers", 1, "--force", "--out", out, "--quiet"],
                     ["run", "--resume", out, "--quiet"],
                     ["report", out]):
            second = plsim(*args)
            _, stderr = second.communicate(timeout=120)
            assert second.returncode == 2, (args, stderr)
            assert stderr.strip().count("\n") == 0 and "is being written by a running plsim (pid" in stderr, stderr
            if "--force" in args:  # the run is surely still playing: its files are all there
                assert set(before) <= set(snapshot(out)), "--force removed files of the live run"
        _, stderr = first.communicate(timeout=600)
        assert first.returncode == 0, stderr
    finally:
        kill_tree(first)
    info = json.loads((out / "run.json").read_text())
    assert (info["status"], info["games"]) == ("complete", LIVE_GAMES)
    assert pl.read_parquet(out / "games.parquet")["game"].to_list() == list(range(LIVE_GAMES))


def test_a_folder_holding_someone_elses_files_needs_force(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "summary.csv").write_text("my own table\n")
    args = ["run", "standard-2p", "--games", "2", "--workers", "1", "--out", str(out), "--quiet"]
    refused = CliRunner().invoke(main, args)
    assert refused.exit_code == 2 and "holds files plsim did not write (summary.csv)" in refused.stderr
    assert (out / "summary.csv").read_text() == "my own table\n" and sorted(p.name for p in out.iterdir()) == ["summary.csv"]
    assert CliRunner().invoke(main, [*args, "--force"]).exit_code == 0


def test_one_folder_takes_one_lock(tmp_path):
    with FolderLock(tmp_path / "o"):
        with pytest.raises(RunConfigError, match="is being written by a running plsim"):
            FolderLock(tmp_path / "o").acquire()
    with FolderLock(tmp_path / "o"):  # released: free again
        pass
    assert not (tmp_path / "o" / ".plsim.lock").exists()
