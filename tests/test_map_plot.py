"""The board picture and `plsim map`: a readable PNG, and one-line errors with exit code 2."""

from __future__ import annotations

import json

import matplotlib.image as mpimg
from click.testing import CliRunner

from plsim.board import default_board
from plsim.cli import main
from plsim.plots import draw_board

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _looks_like_a_map(path) -> None:
    assert path.read_bytes()[:8] == PNG_MAGIC
    assert path.stat().st_size > 50_000
    pixels = mpimg.imread(path)
    assert pixels.shape[1] >= 1400 and pixels.shape[0] >= 1400
    assert pixels.std() > 0.05  # not a blank canvas


def test_draw_board_writes_a_large_png(tmp_path):
    """MP-3: drawing for 4 players (Edom faded) still gives a full-size picture."""
    out = draw_board(default_board(), tmp_path / "board.png", n_players=4, title="four players")
    assert out == tmp_path / "board.png"
    _looks_like_a_map(out)


def test_cli_map_draws_the_default_map(tmp_path):
    out = tmp_path / "map.png"
    result = CliRunner().invoke(main, ["map", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert str(out) in result.output
    _looks_like_a_map(out)


def test_cli_map_draws_a_scenario_for_a_player_count(tmp_path):
    out = tmp_path / "six.png"
    result = CliRunner().invoke(main, ["map", "default", "--players", "6", "--out", str(out)])
    assert result.exit_code == 0, result.output
    _looks_like_a_map(out)


def test_cli_map_accepts_a_map_file(tmp_path):
    source = tmp_path / "tiny.json"
    source.write_text(json.dumps({
        "name": "tiny", "width": 3, "height": 2, "terrain": ["PPP", "PWM"],
        "regions": {},
        "settlements": [{"name": "A", "col": 0, "row": 0}, {"name": "B", "col": 2, "row": 1}],
    }))
    out = tmp_path / "tiny.png"
    result = CliRunner().invoke(main, ["map", str(source), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == PNG_MAGIC


def test_cli_map_bad_path_exits_2_with_one_line(tmp_path):
    result = CliRunner().invoke(main, ["map", str(tmp_path / "missing.json"), "--out", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "map file not found" in result.output
    assert not (tmp_path / "x.png").exists()


def test_cli_map_broken_map_exits_2_naming_the_problem(tmp_path):
    """MP-6 validation reaches the user as one line: a settlement on water."""
    source = tmp_path / "wet.json"
    source.write_text(json.dumps({
        "name": "wet", "width": 2, "height": 1, "terrain": ["PW"],
        "settlements": [{"name": "A", "col": 0, "row": 0}, {"name": "Atlantis", "col": 1, "row": 0}],
    }))
    result = CliRunner().invoke(main, ["map", str(source), "--out", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "Atlantis at (1, 0) is on water" in result.output
    assert result.output.strip().count("\n") == 0


def test_cli_map_unknown_scenario_exits_2(tmp_path):
    result = CliRunner().invoke(main, ["map", "no-such-scenario", "--out", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
