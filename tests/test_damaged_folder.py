"""Issue 61, item 1: no finished game lost to a damaged file. Every frame of a run folder (the
combined games, rounds and cards files, every part), its faults.csv and its run.json are checked
before a resume or a report trusts them. A resume sets a damaged frame aside, names it and what is
wrong in one line, and plays its games again (games are deterministic: the folder ends equal to an
uninterrupted run); a report, which plays nothing, refuses it in one line, exit 2, moving nothing.
What cannot be rebuilt (run.json, faults.csv, a game in two rows) is refused, exit 2."""

import json
import os
import shutil

import polars as pl
import pytest
from click.testing import CliRunner

from chaos import write_quick
from plsim.cli import main
from plsim.runfolder import FrameSink, check_frames, frame_damage

GAMES = 8
GROWN = 12
KINDS = ("games", "rounds", "cards")


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return write_quick(tmp_path_factory.mktemp("scenario"))


def plsim(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def start(quick, out, games):
    result = plsim("run", quick, "--players", "random", "--games", games, "--workers", 1, "--seed", 3, "--out", out,
                   "--quiet")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def finished(quick, tmp_path_factory):
    """A complete run of GAMES games, copied by each test that damages it."""
    return start(quick, tmp_path_factory.mktemp("finished") / "run", GAMES)


@pytest.fixture(scope="module")
def clean(quick, tmp_path_factory):
    """The runs every repaired folder must end equal to: GAMES and GROWN games, never damaged."""
    root = tmp_path_factory.mktemp("clean")
    return {n: start(quick, root / str(n), n) for n in (GAMES, GROWN)}


@pytest.fixture
def folder(finished, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(finished, out)
    return out


def frames(folder):
    return {kind: pl.read_parquet(folder / f"{kind}.parquet") for kind in KINDS}


def same_games(a, b) -> bool:
    fa, fb = frames(a), frames(b)
    return (fa["games"].drop("duration_s").equals(fb["games"].drop("duration_s"))
            and fa["rounds"].equals(fb["rounds"]) and fa["cards"].equals(fb["cards"]))


def truncate(path):
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage(path):
    path.write_bytes(os.urandom(3000))


def flip(path):
    """The bytes of the first page's header inverted: the footer is whole, the data is not."""
    data = bytearray(path.read_bytes())
    for i in range(4, 40):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGES = {
    "truncated": (truncate, "is not a whole Parquet file, truncated or overwritten (parquet: "),
    "garbage": (garbage, "is not a whole Parquet file, truncated or overwritten (parquet: "),
    "flipped": (flip, "holds data that does not decode, damaged on disk (parquet: "),
}


def one_line_error(result, code=2):
    assert result.exit_code == code, result.output
    message = result.stderr.strip()
    assert message.startswith("Error: ") and "\n" not in message and "Traceback" not in result.output, message
    return message


# --- the report: a garbage rounds.parquet, then a grown resume ----------------------------

def test_garbage_rounds_then_a_grown_resume_keeps_every_game(folder, clean):
    """Was: exit 0 "complete" with only games 8-11 in every frame, the 8 intact games gone."""
    garbage(folder / "rounds.parquet")
    result = plsim("run", "--resume", folder, "--games", GROWN, "--quiet")
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "rounds.parquet" in line]
    assert said == [f"{folder / 'rounds.parquet'} is not a whole Parquet file, truncated or overwritten (parquet: "
                    "File out of specification: The file must end with PAR1 or PARE); games.parquet, rounds.parquet, "
                    f"cards.parquet set aside in {folder / 'parts-damaged'}, and their {GAMES} games are played again"]
    assert same_games(folder, clean[GROWN])
    assert {kind: frames(folder)[kind]["game"].unique().sort().to_list() for kind in KINDS} == \
        dict.fromkeys(KINDS, list(range(GROWN)))
    assert sorted(p.name for p in (folder / "parts-damaged").iterdir()) == \
        ["cards.parquet", "games.parquet", "rounds.parquet"]
    info = json.loads((folder / "run.json").read_text())
    assert info["status"] == "complete" and info["games"] == GROWN
    assert info["resumed"][-1]["damaged"] == ["games.parquet", "rounds.parquet", "cards.parquet"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_combined_file_is_set_aside_and_its_games_played_again(folder, clean, kind, damage):
    hurt, what = DAMAGES[damage]
    hurt(folder / f"{kind}.parquet")
    result = plsim("run", "--resume", folder, "--quiet")
    assert result.exit_code == 0, result.output
    assert f"{folder / kind}.parquet {what}" in result.stderr
    assert f"and their {GAMES} games are played again" in result.stderr or kind == "games"
    assert same_games(folder, clean[GAMES])


@pytest.mark.parametrize("kind", KINDS)
def test_a_missing_combined_file_is_named_and_the_others_set_aside(folder, clean, kind):
    """Was silent: without rounds.parquet the games were dropped, without cards.parquet their cards."""
    (folder / f"{kind}.parquet").unlink()
    result = plsim("run", "--resume", folder, "--games", GROWN, "--quiet")
    assert result.exit_code == 0, result.output
    there = {"games": "rounds.parquet and cards.parquet", "rounds": "cards.parquet and games.parquet",
             "cards": "rounds.parquet and games.parquet"}[kind]
    assert f"{folder / kind}.parquet is missing, though {there} are there" in result.stderr
    assert same_games(folder, clean[GROWN])
    assert sorted(p.name for p in (folder / "parts-damaged").iterdir()) == \
        sorted(f"{name}.parquet" for name in KINDS if name != kind)


# --- plsim report: one line, exit 2, nothing moved -----------------------------------------------

def test_report_of_a_truncated_games_file_names_it_instead_of_no_games_parquet(folder):
    """Was: "holds no games.parquet and no part files", the file being there."""
    truncate(folder / "games.parquet")
    before = (folder / "games.parquet").read_bytes()
    message = one_line_error(plsim("report", folder))
    assert message == (f"Error: {folder / 'games.parquet'} is not a whole Parquet file, truncated or overwritten "
                       "(parquet: File out of specification: The file must end with PAR1 or PARE): it cannot be "
                       f"reported as it is; plsim run --resume {folder} sets the combined files aside and plays their "
                       "games again")
    assert (folder / "games.parquet").read_bytes() == before and not (folder / "parts-damaged").exists()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("damage", [*DAMAGES, "missing"])
def test_report_refuses_every_damaged_combined_file_in_one_line(folder, kind, damage):
    """Was: "No such file or directory" for rounds.parquet, a traceback for flipped bytes, and a
    report without the cards of a run that had them."""
    path = folder / f"{kind}.parquet"
    if damage == "missing":
        path.unlink()
    else:
        DAMAGES[damage][0](path)
    message = one_line_error(plsim("report", folder))
    what = "is missing, though" if damage == "missing" else DAMAGES[damage][1]
    assert message.startswith(f"Error: {path} {what}")
    assert message.endswith(f"plsim run --resume {folder} sets the combined files aside and plays their games again")
    assert sorted(p.name for p in folder.iterdir() if p.suffix == ".parquet") == \
        sorted(f"{name}.parquet" for name in KINDS if not (name == kind and damage == "missing"))


def test_rows_that_do_not_add_up_are_refused_by_a_report_and_replayed_by_a_resume(folder, clean):
    """A rounds.parquet that reads but lacks game 3's rows (an older copy, a bad edit)."""
    rounds = frames(folder)["rounds"]
    rounds.filter(pl.col("game") != 3).write_parquet(folder / "rounds.parquet")
    message = one_line_error(plsim("report", folder))
    assert message == (f"Error: {folder / 'rounds.parquet'} lacks rows of 1 game (3) that games.parquet holds: it "
                       f"cannot be reported as it is; plsim run --resume {folder} plays these games again")
    result = plsim("run", "--resume", folder, "--quiet")
    assert result.exit_code == 0, result.output
    assert (f"{folder / 'rounds.parquet'} lacks rows of 1 game (3) that games.parquet holds: they are left out, and "
            "played again where the run plans them") in result.stderr
    assert same_games(folder, clean[GAMES])
    assert json.loads((folder / "run.json").read_text())["resumed"][-1]["left_out"] == 1


def test_a_game_in_two_rows_is_refused_before_any_game_is_played(folder):
    games = frames(folder)["games"]
    pl.concat([games, games.filter(pl.col("game") == 2)]).write_parquet(folder / "games.parquet")
    for args in (["run", "--resume", folder, "--games", GROWN, "--quiet"], ["report", folder]):
        message = one_line_error(plsim(*args))
        assert f"{folder / 'games.parquet'} holds game 2 in 2 rows" in message
    assert frames(folder)["games"].height == GAMES + 1 and "resumed" not in json.loads((folder / "run.json").read_text())


# --- part files ------------------------------------------------------------------------------------

def into_parts(folder):
    """The folder as a run killed before combining leaves it: its games in four parts of two."""
    parts = frames(folder)
    for kind in KINDS:
        (folder / f"{kind}.parquet").unlink()
    sink = FrameSink(folder)
    for first in range(0, GAMES, 2):
        block = {k: f.filter(pl.col("game").is_between(first, first + 1)) for k, f in parts.items()}
        sink.write(block["games"], block["rounds"], block["cards"])
    info = json.loads((folder / "run.json").read_text())
    (folder / "run.json").write_text(json.dumps({**info, "status": "running"}))
    return sorted((folder / "parts").glob("*.parquet"))


@pytest.mark.parametrize("damage, what", [
    ("flipped", "holds data that does not decode, damaged on disk (parquet: "),
    ("foreign", "has no column game, round, seat, and 2 more, which every run writes"),
])
def test_a_damaged_part_is_named_set_aside_and_its_games_played_again(folder, clean, damage, what):
    """Was: a part with whole footer and damaged data, or another frame's file, stopped the resume
    with "plsim failed" (exit 1) after the games were played."""
    into_parts(folder)
    part = folder / "parts" / "cards-000000001.parquet"
    if damage == "flipped":
        flip(part)
    else:
        pl.DataFrame({"x": [1]}).write_parquet(part)
    result = plsim("run", "--resume", folder, "--quiet")
    assert result.exit_code == 0, result.output
    assert (f"{part} {what}" in result.stderr
            and f"its part is set aside in {folder / 'parts-damaged'} and its games are played again" in result.stderr)
    assert sorted(p.name for p in (folder / "parts-damaged").iterdir()) == \
        ["cards-000000001.parquet", "games-000000001.parquet", "rounds-000000001.parquet"]
    assert same_games(folder, clean[GAMES])


def test_report_sets_a_damaged_part_aside_and_names_it(folder):
    into_parts(folder)
    flip(folder / "parts" / "rounds-000000002.parquet")
    result = plsim("report", folder)
    assert result.exit_code == 0, result.output
    assert "parts/rounds-000000002.parquet" in result.stderr and "cannot be read whole" in result.stderr
    assert frames(folder)["games"]["game"].to_list() == [0, 1, 2, 3, 6, 7]


def test_nothing_set_aside_overwrites_what_was_set_aside_before(folder):
    (folder / "parts-damaged").mkdir()
    (folder / "parts-damaged" / "rounds.parquet").write_bytes(b"set aside earlier")
    garbage(folder / "rounds.parquet")
    assert plsim("run", "--resume", folder, "--quiet").exit_code == 0
    assert (folder / "parts-damaged" / "rounds.parquet").read_bytes() == b"set aside earlier"
    assert (folder / "parts-damaged" / "rounds-2.parquet").stat().st_size == 3000


# --- run.json and faults.csv ------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, said", [
    ("check", "no", "its 'check' is 'no', where a run writes true or false"),  # was: read as true
    ("rules", [], "its 'rules' is [], where a run writes a table of rule tables"),  # was: a traceback
    ("resumed", 5, "its 'resumed' is 5, where a run writes a list of tables"),  # was: plsim failed, exit 1
    ("code", {"strategies": []}, "its 'code' is {'strategies': []}, where a run writes a table of the code's digests"),
    ("command", 5, "its 'command' is 5, where a run writes a command line"),  # was: a traceback in report
])
def test_a_run_json_key_of_the_wrong_type_is_one_line_for_resume_and_report(folder, key, value, said):
    info = json.loads((folder / "run.json").read_text())
    (folder / "run.json").write_text(json.dumps({**info, key: value}))
    for args in (["run", "--resume", folder, "--games", GROWN, "--quiet"], ["report", folder]):
        assert one_line_error(plsim(*args)) == f"Error: {folder / 'run.json'} is damaged: {said}"
    assert frames(folder)["games"].height == GAMES


@pytest.mark.parametrize("key, value, said", [
    ("players", 99, "run.json is damaged: it plans games of 99 players, and a game has 2 to 6"),
    ("seed", 4, "games.parquet holds game 0 with seed"),
    ("players", 3, "games.parquet holds game 0 with seed"),
])
def test_a_run_json_whose_plan_is_not_its_games_is_refused_before_a_game_is_played(folder, key, value, said):
    """Was: 99 players failed every new game (exit 1); another seed or player count played games
    of another plan into the folder, exit 0."""
    info = json.loads((folder / "run.json").read_text())
    (folder / "run.json").write_text(json.dumps({**info, key: value}))
    message = one_line_error(plsim("run", "--resume", folder, "--games", GROWN, "--quiet"))
    assert said in message
    assert frames(folder)["games"]["game"].to_list() == list(range(GAMES))


@pytest.mark.parametrize("content, said", [
    (b"game,seed\nabc,1\n", "is damaged: its row 1 has no game number or no on_fault (stop or skip)"),
    (b"\xff\xfe\x00garbage", "cannot be read: 'utf-8' codec can't decode byte 0xff"),
])
def test_a_damaged_faults_csv_is_one_line_before_any_game_is_played(folder, content, said):
    """Was: "plsim failed: KeyError: 'on_fault'" or a UnicodeDecodeError, exit 1."""
    (folder / "faults.csv").write_bytes(content)
    message = one_line_error(plsim("run", "--resume", folder, "--games", GROWN, "--quiet"))
    assert message.startswith(f"Error: {folder / 'faults.csv'} {said}")
    assert frames(folder)["games"].height == GAMES


# --- the checks themselves ---------------------------------------------------------------------------

def test_a_sound_folder_has_nothing_to_say(finished):
    check = check_frames(finished, json.loads((finished / "run.json").read_text()))
    assert (check.parts, check.finals, check.incomplete, check.left_out) == ((), None, (), frozenset())
    assert [frame_damage(finished / f"{kind}.parquet", kind) for kind in KINDS] == [None, None, None]


def test_a_run_from_before_cards_were_recorded_needs_no_cards_file(folder):
    """A run.json without the code digest was written before cards.parquet existed: its absence is
    no damage there."""
    info = json.loads((folder / "run.json").read_text())
    del info["code"]
    (folder / "cards.parquet").unlink()
    assert check_frames(folder, info).finals is None
    assert str(check_frames(folder, {**info, "code": {}}).finals) == \
        f"{folder / 'cards.parquet'} is missing, though rounds.parquet and games.parquet are there"
