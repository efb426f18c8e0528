"""Issue 19: a resume plays the same code. Before, editing the plugin between the start and the
resume silently mixed two versions' games (36 of 40 differed from an uninterrupted run)."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import plsim
from chaos import write_quick
from plsim.cli import main

PLUGIN = '''from plsim.strategy.interface import Strategy


class Stopper(Strategy):
    """Plays at random; raises in game 5 (by its seed), which stops the run."""

    name = "stopper"

    def choose(self, view, decision):
        if getattr(self, "first", None) is None:
            self.first = self.rng.random()
        if view.round >= 2 and abs(self.first - {doom!r}) < 1e-12:
            raise ValueError("stop here")
        return decision.options[self.rng.randrange(len(decision.options))]
'''


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def stopped(tmp_path):
    """A run stopped by a fault in game 5, resumable; its plugin file."""
    import random

    from plsim.engine.game import strategy_seed
    from plsim.runner import Schedule

    quick = write_quick(tmp_path)
    plugin = tmp_path / "stopper.py"
    plugin.write_text(PLUGIN.format(doom=0.0))
    entry = f"{plugin}:Stopper"
    seed, seats = Schedule(((entry, "random"),), 12, 2, "rotate", 0).game(5)
    doom = random.Random(strategy_seed(seed, seats.index(entry))).random()
    plugin.write_text(PLUGIN.format(doom=doom))
    out = tmp_path / "o"
    result = invoke("run", quick, "--players", f"{entry},random", "--games", 12, "--workers", 1, "--out", out, "--quiet")
    assert result.exit_code == 2 and "stop here" in result.stderr, result.output
    return out, plugin


def test_resume_after_the_plugin_changed_is_refused_in_one_line(stopped):
    out, plugin = stopped
    plugin.write_text(plugin.read_text().replace("stop here", "stop there"))
    before = (out / "run.json").read_text()
    result = invoke("run", "--resume", out, "--quiet", "--on-fault", "skip")
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message.startswith(f"Error: {out} was played by other code: {plugin.resolve()} changed since")
    assert "--force-resume" in message and "\n" not in message
    assert (out / "run.json").read_text() == before


def test_force_resume_goes_on_and_says_the_games_mix_versions(stopped):
    out, plugin = stopped
    plugin.write_text(plugin.read_text().replace("stop here", "stop there"))
    result = invoke("run", "--resume", out, "--quiet", "--on-fault", "skip", "--force-resume")
    assert result.exit_code == 0, result.output
    assert "its games mix versions" in result.stderr and str(plugin.resolve()) in result.stderr
    assert f"these games mix versions of the code (resumed with --force-resume after {plugin.resolve()} changed)" \
        in result.stdout
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete" and info["mixed_versions"] == [str(plugin.resolve())]
    assert info["resumed"][-1]["mixed_versions"] == [str(plugin.resolve())]


def test_resume_with_another_plsim_version_is_refused(stopped, monkeypatch):
    out, _ = stopped
    monkeypatch.setattr(plsim, "__version__", "9.9.9")
    result = invoke("run", "--resume", out, "--quiet")
    assert result.exit_code == 2 and "plsim 0.1.0 is now 9.9.9" in result.stderr, result.output


def test_an_unchanged_plugin_resumes(stopped):
    out, _ = stopped
    result = invoke("run", "--resume", out, "--quiet", "--on-fault", "skip")
    assert result.exit_code == 0, result.output
    assert json.loads((out / "run.json").read_text()).get("mixed_versions") is None


def test_run_json_records_the_files_of_built_in_strategies(tmp_path):
    out = tmp_path / "o"
    assert invoke("run", "standard-2p", "--players", "economist,random", "--games", 1, "--workers", 1, "--out", out,
                  "--quiet").exit_code == 0
    code = json.loads((out / "run.json").read_text())["code"]
    files = {name.rsplit("/", 2)[-2] + "/" + name.rsplit("/", 1)[-1] for name in code["files"]}
    assert {"strategies/economist.py", "strategies/base.py", "strategies/random_strategy.py"} <= files
    assert code["plsim"] == plsim.__version__ and len(code["game_code"]) == 16


def test_force_resume_needs_resume(tmp_path):
    result = invoke("run", "--force-resume", "--out", tmp_path / "o")
    assert result.exit_code == 2 and "--force-resume goes with --resume DIR" in result.stderr


SAME_GAMES = Path(__file__).resolve().parent.parent / "scripts" / "same_games.py"


def run_same_games(folder, *args):
    return subprocess.run([sys.executable, str(SAME_GAMES), str(folder), *args], capture_output=True, text=True,
                          timeout=300)


def test_same_games_says_whether_this_code_replays_a_folders_games(real_run, tmp_path):
    """Before a --force-resume: scripts/same_games.py replays finished games with the code here and
    compares them with the rows the run stored; a stored row that differs is named, exit 1."""
    folder = tmp_path / "run"
    shutil.copytree(real_run, folder)
    same = run_same_games(folder, "--sample", "3")
    assert same.returncode == 0, same.stderr
    assert same.stdout.count(": same") == 3 and "3 of 3 replayed games are the same" in same.stdout
    games = pl.read_parquet(folder / "games.parquet")
    games.with_columns(pl.when(pl.col("game") == 2).then(pl.col("rounds") + 1).otherwise(pl.col("rounds"))
                       .alias("rounds")).write_parquet(folder / "games.parquet")
    moved = run_same_games(folder, "--games", "1,2")
    assert moved.returncode == 1
    assert "game 1: same" in moved.stdout and "game 2: differs in rounds" in moved.stdout
    assert "1 of 2 replayed games are the same" in moved.stdout
    unknown = run_same_games(folder, "--games", "99")
    assert unknown.returncode == 2 and "not finished" in unknown.stderr
