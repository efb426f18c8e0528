"""Issue 60: progress that fits where it goes: a live bar on a terminal, a plain line at most
every few seconds into a file or a pipe, nothing with --quiet."""

import io
import subprocess
import sys
from pathlib import Path

from plsim.runner import progress
from plsim.runner.progress import progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_into_a_file_the_bar_writes_whole_lines_at_most_every_few_seconds(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr("tqdm.std.time", lambda: clock[0])
    out = io.StringIO()
    bar = progress_bar(1000, True, out)
    for _ in range(1000):
        clock[0] += 0.01  # 10 s in all, an update every 10 ms
        bar.update(1)
    bar.close()
    text = out.getvalue()
    lines = text.splitlines()
    assert "\r" not in text and lines[0].startswith("games:   0%") and "1000/1000" in lines[-1]
    assert 3 <= len(lines) <= 2 + 10 / progress.LINE_EVERY + 1
    assert "game/s" in lines[1] and "<" in lines[1]  # the rate and the time left


def test_on_a_terminal_the_bar_redraws_in_place_with_the_rate_and_the_time_left():
    out = Terminal()
    bar = progress_bar(50, True, out)
    for _ in range(50):
        bar.update(1)
    bar.close()
    assert "\r" in out.getvalue() and "50/50" in out.getvalue() and "game/s" in out.getvalue()


def test_quiet_shows_nothing():
    out = io.StringIO()
    bar = progress_bar(10, False, out)
    bar.update(10)
    bar.close()
    assert out.getvalue() == ""


def test_a_run_piped_to_a_file_writes_no_carriage_return(tmp_path):
    plsim = str(Path(sys.executable).parent / "plsim")
    done = subprocess.run([plsim, "run", "--games", "20", "--players", "random", "--out", str(tmp_path / "run"),
                           "--workers", "1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "20/20" in done.stderr
