"""Issue 46: input that was a traceback or a wrong exit code ends in one line and exit 2 (a
SIGTERM to ``plsim play`` in one line and 130), and a run that played nothing is no success."""

from __future__ import annotations

import json
import signal
import time

import polars as pl
import pytest
from click.testing import CliRunner

from chaos import plsim, write_quick
from plsim.cli import main


def run(*args) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    return result.exit_code, [line for line in result.output.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return write_quick(tmp_path_factory.mktemp("quick"))


@pytest.fixture(scope="module")
def finished(tmp_path_factory, quick):
    """A finished run's folder, copied by the tests that spoil it."""
    out = tmp_path_factory.mktemp("finished") / "run"
    assert run("run", quick, "--games", 3, "--workers", 1, "--out", out, "--quiet")[0] == 0
    return out


def copy_of(folder, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in folder.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    return copy


@pytest.mark.parametrize("address", ["nonsense", "tcp://:abc", "tcp://host:99999", "tcp//x:1"])
def test_a_malformed_scheduler_address_is_one_line_and_exit_2(tmp_path, address):
    """It was a ValueError deep in Dask's client (exit 1, a traceback at exit), or a wait for a port no TCP has."""
    code, lines = run("run", "--games", 2, "--scheduler", address, "--out", tmp_path / "o", "--quiet")
    assert (code, lines) == (2, [f"Error: the dask scheduler address {address!r} is not tcp://HOST:PORT "
                                 f"(a port 1..65535)"])
    assert not (tmp_path / "o").exists()


def test_an_out_name_past_the_file_systems_limit_is_one_line_and_exit_2(tmp_path, quick):
    """It was an OSError traceback (File name too long), exit 1."""
    code, lines = run("run", quick, "--games", 2, "--out", tmp_path / ("x" * 300), "--quiet")
    assert (code, lines) == (2, [f"Error: output {'x' * 20}... is a name of 300 bytes; a file system takes at most "
                                 f"255 (choose a shorter --out)"])


@pytest.mark.parametrize("below", ["", "sub"])
def test_a_dangling_symlink_as_out_says_what_it_is(tmp_path, quick, below):
    """It said "cannot write to ...: File exists"."""
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    out = link / below if below else link
    code, lines = run("run", quick, "--games", 2, "--out", out, "--quiet")
    assert (code, lines) == (2, [f"Error: output {out}: {link} is a symbolic link to {tmp_path / 'nowhere'}, which "
                                 f"does not exist (create its target, or choose another --out)"])


NESTED = "[" * 100_000 + "]" * 100_000


def test_deeply_nested_json_in_a_position_is_one_line_and_exit_2(tmp_path):
    """It was a RecursionError traceback, exit 1."""
    path = tmp_path / "deep.json"
    path.write_text('{"format": "plsim-position", "state": ' + NESTED + "}")
    assert run("play", "--from", path, "--quiet") == (
        2, [f"Error: position {path} nests its JSON deeper than Python's parser goes"])


def test_deeply_nested_json_in_run_json_is_one_line_and_exit_2(tmp_path, finished):
    out = copy_of(finished, tmp_path)
    (out / "run.json").write_text('{"games": ' + NESTED + "}")
    code, lines = run("report", out)
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith(f"Error: {out / 'run.json'} cannot be read: maximum recursion depth exceeded")


def test_a_games_parquet_missing_a_column_is_named_in_one_line(tmp_path, finished):
    """It was a polars ColumnNotFoundError traceback, exit 1."""
    out = copy_of(finished, tmp_path)
    pl.read_parquet(out / "games.parquet").drop("end_reason").write_parquet(out / "games.parquet")
    assert run("report", out) == (2, [f"Error: {out / 'games.parquet'} has no column end_reason, which every run "
                                      f"writes: it cannot be reported as it is; plsim run --resume {out} sets the "
                                      "combined files aside and plays their games again"])


def test_a_game_in_two_rows_is_refused_not_counted_twice(tmp_path, finished):
    """Two rows of one game (two runs' files put together, say): the report counted both."""
    out = copy_of(finished, tmp_path)
    games = pl.read_parquet(out / "games.parquet")
    pl.concat([games, games.head(2)]).write_parquet(out / "games.parquet")
    assert run("report", out) == (2, [f"Error: {out / 'games.parquet'} holds game 0 in 2 rows (2 game(s) in more than "
                                      f"one row); a run writes each game once, so these are not one run's games: "
                                      f"refused rather than counted twice"])


def test_a_run_whose_every_game_faulted_is_no_success(tmp_path, quick):
    """It exited 0 with run.json "complete", having played nothing."""
    plugin = tmp_path / "boom.py"
    plugin.write_text("from plsim.strategy.interface import Strategy\n"
                      "class Boom(Strategy):\n"
                      "    name = 'boom'\n"
                      "    def choose(self, view, decision):\n"
                      "        raise RuntimeError('boom')\n")
    out = tmp_path / "o"
    result = CliRunner().invoke(main, ["run", str(quick), "--players", f"{plugin}:Boom", "--games", "3", "--workers",
                                       "1", "--on-fault", "skip", "--out", str(out), "--quiet"])
    assert result.exit_code == 2, result.output
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"Error: no game was played: all 3 ended in a fault (see faults.csv in {out}); the first: "
                           f"a strategy failed in game 0")
    info = json.loads((out / "run.json").read_text())
    assert (info["status"], info["games"], info["faults"], info["failure"]["kind"]) == ("failed", 0, 3, "strategy")


def test_a_resume_with_nothing_left_says_so_instead_of_a_rate(tmp_path, finished):
    """A killed run whose games were all on disk had no wall time: "3,000,000,000.0 games/s"."""
    out = copy_of(finished, tmp_path)
    info = json.loads((out / "run.json").read_text())
    del info["wall_seconds"]
    (out / "run.json").write_text(json.dumps({**info, "status": "running"}))
    code, lines = run("run", "--resume", out, "--quiet")
    assert code == 0 and lines[-1] == f"Nothing left to play: {out} already holds its 3 games"


def test_sigterm_during_play_is_one_line_and_exit_130():
    """It was a silent 143; ``plsim run`` ends the same way on SIGTERM."""
    process = plsim("play", "--players", "mcts,random", "--seed", "5")
    try:
        assert process.stdout.readline().startswith("plsim play:")
        time.sleep(0.5)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()
    assert (process.returncode, stderr) == (130, "Error: terminated (SIGTERM)\n")
