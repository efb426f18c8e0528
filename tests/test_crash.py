"""Issue 19: the parent's own failures. Whatever breaks in plsim after a run's folder is open, the
games received are kept, run.json says "failed" and why, the command says one line, and a
resume plays what is missing — also the games of a part that was truncated on disk."""

import errno
import json
import os
import signal
import time

import polars as pl
import pytest
from click.testing import CliRunner

from chaos import plsim, write_plugins, write_quick
from plsim.cli import main
from plsim.runfolder import writer
from plsim.runner import OutputUnwritable, RunCrashed, cells
from plsim.runs import resume_run, run_batch

GAMES = 10


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return write_quick(tmp_path_factory.mktemp("scenario"))


@pytest.fixture(scope="module")
def clean(quick, tmp_path_factory):
    """The uninterrupted run every other run must end equal to."""
    return run_batch(quick, ["random"], GAMES, workers=2, out=tmp_path_factory.mktemp("clean") / "o", progress=False)


def same_games(a, b) -> bool:
    frames = [[pl.read_parquet(folder / f"{name}.parquet") for folder in (a, b)] for name in ("games", "rounds", "cards")]
    (ga, gb), (ra, rb), (ca, cb) = frames
    return ga.drop("duration_s").equals(gb.drop("duration_s")) and ra.equals(rb) and ca.equals(cb)


def run(quick, out):
    return CliRunner().invoke(main, ["run", str(quick), "--players", "random", "--games", str(GAMES), "--workers", "2",
                                     "--out", str(out), "--quiet"])


def one_line_error(result, code):
    assert result.exit_code == code, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message and "Traceback" not in result.output, message
    return message


def crash_before_combining(monkeypatch):
    """Parts are flushed every 2 games, and the run fails after the games, before combining."""
    monkeypatch.setattr(writer, "FLUSH_GAMES", 2)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the report")

    monkeypatch.setattr(cells, "finish", broken)


def left_in_parts(tmp_path, quick, monkeypatch):
    """A folder whose run failed with every game in parts (two games a part), not combined."""
    out = tmp_path / "o"
    crash_before_combining(monkeypatch)
    with pytest.raises(RunCrashed):
        run_batch(quick, ["random"], GAMES, workers=2, out=out, progress=False)
    monkeypatch.undo()
    return out


def test_an_unexpected_error_keeps_the_games_says_one_line_and_resumes(tmp_path, quick, clean, monkeypatch):
    out = tmp_path / "o"
    crash_before_combining(monkeypatch)
    message = one_line_error(run(quick, out), 1)
    assert message.startswith("Error: plsim failed: RuntimeError: a bug in the report")
    assert f"traceback in {out / 'plsim.log'}" in message and f"resume with: plsim run --resume {out}" in message
    assert "Traceback" in (out / "plsim.log").read_text()
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "failed" and "a bug in the report" in info["failure"]["message"]
    assert len(list((out / "parts").glob("games-*.parquet"))) == GAMES // 2
    monkeypatch.undo()
    resume_run(out, progress=False)
    assert same_games(out, clean.out_dir)
    assert json.loads((out / "run.json").read_text())["status"] == "complete"


def test_a_truncated_part_is_named_and_its_games_are_played_again(tmp_path, quick, clean, monkeypatch, capsys):
    out = left_in_parts(tmp_path, quick, monkeypatch)
    part = sorted((out / "parts").glob("games-*.parquet"))[1]
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    capsys.readouterr()
    resume_run(out, progress=False)
    said = capsys.readouterr().err
    assert f"parts/{part.name}" in said and "played again" in said
    assert same_games(out, clean.out_dir)
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "complete" and f"parts/{part.name}" in info["resumed"][-1]["damaged"]


def test_report_names_a_truncated_part_and_leaves_its_games_out(tmp_path, quick, monkeypatch):
    out = left_in_parts(tmp_path, quick, monkeypatch)
    part = sorted((out / "parts").glob("rounds-*.parquet"))[0]
    part.write_bytes(b"PAR1 not parquet at all")
    result = CliRunner().invoke(main, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert f"parts/{part.name}" in result.stderr and "cannot be read whole" in result.stderr
    assert f"plsim run --resume {out}" in result.stderr
    assert pl.read_parquet(out / "games.parquet").height == GAMES - 2


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "No space left on device"), (errno.EACCES, "Permission denied")])
def test_a_full_disk_or_an_unwritable_folder_is_one_line_exit_2_and_loses_nothing_written(
        tmp_path, quick, clean, monkeypatch, code, words):
    """Simulated: the third part's write fails as a full disk (or a folder made read-only) would."""
    out = tmp_path / "o"
    monkeypatch.setattr(writer, "FLUSH_GAMES", 2)
    write = writer._write_atomic
    calls = []

    def failing(frame, path):
        calls.append(path)
        if len(calls) > 6:  # two parts (rounds, cards, games each) went through
            raise OSError(code, os.strerror(code), str(path))
        write(frame, path)

    monkeypatch.setattr(writer, "_write_atomic", failing)
    message = one_line_error(run(quick, out), 2)
    assert message.startswith(f"Error: cannot write to {out}: {words}; every file written so far is kept")
    assert len(list((out / "parts").glob("games-*.parquet"))) == 2
    monkeypatch.undo()
    resume_run(out, progress=False)
    assert same_games(out, clean.out_dir)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway (simulated above)")
def test_a_read_only_folder_is_one_line_exit_2(tmp_path, quick):
    out = tmp_path / "o"
    out.mkdir()
    out.chmod(0o500)
    try:
        message = one_line_error(run(quick, out), 2)
    finally:
        out.chmod(0o700)
    assert f"cannot write to {out}" in message


def test_a_broken_run_json_is_one_line_for_resume_and_report(tmp_path, quick):
    out = tmp_path / "o"
    assert run(quick, out).exit_code == 0
    (out / "run.json").write_text('{"games": 3,')
    for args in (["run", "--resume", str(out), "--quiet"], ["report", str(out)]):
        message = one_line_error(CliRunner().invoke(main, args), 2)
        assert f"{out / 'run.json'} cannot be read" in message


def test_output_unwritable_is_a_crash_that_names_the_folder():
    error = OutputUnwritable("cannot write to x", __import__("pathlib").Path("x"), True)
    assert isinstance(error, RunCrashed) and str(error).endswith("resume with: plsim run --resume x")


@pytest.mark.parametrize("after", [0.3, 1.5, 3.0])
def test_ctrl_c_in_the_first_seconds_is_one_line_and_exit_130(tmp_path, after):
    """While the command loads, while it checks, or as the workers start: never a traceback."""
    lab = tmp_path / "lab"
    lab.mkdir()
    entries = write_plugins(lab)
    process = plsim("run", write_quick(lab), "--players", f"{entries['Slow']},random", "--games", 400,
                    "--workers", 2, "--out", tmp_path / "o", "--quiet")
    time.sleep(after)
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.2)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr.strip().splitlines()[-1].startswith("Error: "), stderr
