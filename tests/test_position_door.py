"""Issue 61: what a position file says is checked, not trusted. Its pending decision must be the
one the rules pose (options included), its counters and format version in range, its file and
its map's file regular UTF-8 files: each refused in one line naming the file, exit 2."""

import json
import os

import pytest
from click.testing import CliRunner

from plsim.board import default_board
from plsim.cli import main


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> dict:
    """A 4-player random game saved at seat 3's movement decision (decision 60 of seed 3)."""
    path = tmp_path_factory.mktemp("pos") / "pos.json"
    result = CliRunner().invoke(main, ["play", "--players", "random,random,random,random", "--seed", "3",
                                       "--decisions", "60", "--save", str(path), "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    assert data["state"]["pending"][-1]["ask"]["kind"] == "movement"
    return data


def play_from(tmp_path, data) -> tuple[int, list[str], str]:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["play", "--from", str(path), "--quiet"])
    return result.exit_code, result.output.splitlines(), str(path)


def edited(data: dict, edit) -> dict:
    copy = json.loads(json.dumps(data))
    edit(copy)
    return copy


def test_a_saved_position_plays_on(tmp_path, saved):
    code, lines, _ = play_from(tmp_path, saved)
    assert code == 0 and lines[-1].startswith("Result:")


def test_an_option_the_rules_do_not_give_is_refused(tmp_path, saved):
    water = next(h for h, t in enumerate(default_board().terrain) if int(t) == 3)

    def onto_water(d):
        ask = d["state"]["pending"][-1]["ask"]
        ask["options"].insert(0, {"option": "Move", "fields": [ask["options"][0]["fields"][0], water, False]})

    code, lines, path = play_from(tmp_path, edited(saved, onto_water))
    assert (code, lines) == (2, [f"Error: position {path}: the pending decision 'movement' of seat 3 offers 29 "
                                 "options where the rules give 28 (1 not among them)"])


def test_a_pending_decision_without_options_blames_the_file(tmp_path, saved):
    code, lines, path = play_from(tmp_path, edited(saved, lambda d: d["state"]["pending"][-1]["ask"].update(options=[])))
    assert (code, lines) == (2, [f"Error: position {path}: the pending decision 'movement' of seat 3 offers no "
                                 "options"])


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(version=99), "version 99 is not one this plsim reads (1..2)"),
    (lambda d: d["state"].update(decisions=2**63 - 1), "state.decisions: 9223372036854775807 is more than "
                                                         "2,147,483,647"),
])
def test_a_counter_or_a_version_out_of_range_is_refused(tmp_path, saved, edit, message):
    code, lines, path = play_from(tmp_path, edited(saved, edit))
    assert code == 2 and len(lines) == 1 and lines[0].startswith("Error: ") and path in lines[0]
    assert lines[0].endswith(message)


def test_a_binary_file_is_refused_naming_it(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe" * 10)
    result = CliRunner().invoke(main, ["play", "--from", str(path), "--quiet"])
    assert (result.exit_code, result.output.splitlines()) == (2, [f"Error: position {path} is not UTF-8 text "
                                                                  "(byte 0)"])


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_a_map_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path, saved, special):
    if special == "fifo":
        special = str(tmp_path / "map.json")
        os.mkfifo(special)
    code, lines, _ = play_from(tmp_path, edited(saved, lambda d: d.update(map=special)))
    assert (code, lines) == (2, [f"Error: map file {special} is not a regular file"])
