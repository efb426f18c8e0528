"""Issue 24: a self-contained HTML replay of any game — of plsim play, or of any run folder,
replayed from its plan — that replays exactly the batch's game, stays small, and draws in a real
headless Chromium: the board's hexes, the seats' panels, and at the last step the game's result."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from browser import console_problems, fetched_resources, headless_chromium, needs_chromium
from chaos import write_plugins, write_quick
from plsim.board import default_board
from plsim.cli import main
from plsim.html import Links, Section, html_report
from plsim.replay import ReplayError, game_spec, replay_game
from plsim.replay.build import play_spec
from plsim.replay.highlights import games_worth_watching
from plsim.replay.model import delta
from plsim.replay.page import DATA_ID
from plsim.runfolder import FAULT

STUBBORN = """
from plsim.strategy.interface import Strategy


class Stuck(Strategy):
    name = "stuck"

    def __init__(self, seat, rng, **params):
        super().__init__(seat, rng, **params)
        self.calls = 0

    def choose(self, view, decision):
        self.calls += 1
        while self.calls == 4:
            pass
        return decision.options[0]


class Homeless(Strategy):
    name = "homeless"

    def choose(self, view, decision):
        raise ValueError("no home for me")
"""

LONG = """[scenario]
name = "endless"
players = 4
[rules.victory]
points = 99
"""


def document_of(path) -> dict:
    """The replay document inside a written page."""
    text = path.read_text(encoding="utf-8")
    data = re.search(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', text, re.S).group(1)
    return json.loads(data)


def rebuilt(document: dict, index: int) -> dict:
    """The state of step ``index`` as the page rebuilds it: its round's keyframe and the deltas."""
    steps = document["steps"]
    keyframe = steps[index]["keyframe"]
    state = json.loads(json.dumps(document["keyframes"][keyframe]))
    first = next(i for i, step in enumerate(steps) if step["keyframe"] == keyframe)
    for step in steps[first:index + 1]:
        for op in step["delta"]:
            if len(op) == 2:
                state[op[0]] = op[1]
            elif op[2] is None and isinstance(state[op[0]], dict):
                del state[op[0]][op[1]]
            else:
                state[op[0]][op[1]] = op[2]
    return state


@pytest.fixture(scope="module")
def replayed(real_run):
    """Game 3 of the run, replayed with plsim replay."""
    result = CliRunner().invoke(main, ["replay", str(real_run), "--game", "3"])
    assert result.exit_code == 0, result.output
    page = real_run / "replays" / "game-3.html"
    assert f"replay: {page}" in result.output
    return page


def test_a_replay_replays_exactly_the_batch_game(real_run, tmp_path):
    """The replay's result is the run's row for that game, its final VP the run's last round."""
    games = pl.read_parquet(real_run / "games.parquet")
    rounds = pl.read_parquet(real_run / "rounds.parquet")
    for game in (0, 3, 5):
        replay = replay_game(game_spec(real_run, game), tmp_path / f"game-{game}.html")
        result = replay.recording.result
        row = games.filter(pl.col("game") == game).row(0, named=True)
        assert (result.seed, result.rounds, result.end_reason, result.winner, result.decisions, result.final_wrath,
                result.pairs_released) == (row["seed"], row["rounds"], row["end_reason"], row["winner_seat"],
                                           row["decisions"], row["final_wrath"], row["pairs_released"])
        last = rounds.filter((pl.col("game") == game) & (pl.col("round") == row["rounds"])).sort("seat")
        assert list(result.final_vp) == last["vp"].to_list()
        document = replay.document
        assert len(document["keyframes"]) == result.rounds
        assert document["result"]["final_vp"] == list(result.final_vp)
        assert rebuilt(document, len(document["steps"]) - 1)["vp"] == list(result.final_vp)


def test_every_round_rebuilt_from_keyframes_and_deltas_matches_the_runs_rounds(real_run, replayed):
    """The state the page rebuilds at the end of each round is the one the run recorded."""
    document = document_of(replayed)
    rows = pl.read_parquet(real_run / "rounds.parquet").filter(pl.col("game") == 3).sort("round", "seat")
    ends = [i for i, step in enumerate(document["steps"]) if step["phase"] == "victory"]
    assert len(ends) == rows["round"].max() == len(document["keyframes"])
    for index in ends:
        state = rebuilt(document, index)
        seen = rows.filter(pl.col("round") == document["steps"][index]["round"])
        assert state["vp"] == seen["vp"].to_list()
        assert [p[0] for p in state["players"]] == seen["coins"].to_list()
        assert [p[1] for p in state["players"]] == seen["hand_size"].to_list()
        assert state["wrath"] == seen["wrath"][0]
        owned = [sum(1 for s in state["settlements"] if s[0] == seat and not s[2] & 4) for seat in (0, 1)]
        assert owned == seen["settlements"].to_list()
    assert [step["phase"] for step in document["steps"][:8]] == document["phases"]


def test_the_page_is_self_contained_and_tells_the_narration(replayed):
    page = replayed.read_text(encoding="utf-8")
    assert not re.search(r'\b(src|href)="(https?:)?//', page)  # nothing fetched, no CDN
    assert "@import" not in page and "url(http" not in page
    document = document_of(replayed)
    told = [line for step in document["steps"] for line, _ in step["events"] if line]
    assert any(line.startswith("Battle at ") for line in told) and any(" makes " in line for line in told)
    assert all(not line.startswith(("=", "\n")) for line in told)


def test_a_60_round_game_stays_under_2_mb(tmp_path):
    """The compact form: events, a keyframe per round, each phase's changes."""
    scenario = tmp_path / "endless.toml"
    scenario.write_text(LONG)
    replay = replay_game(play_spec(str(scenario), None, 3), tmp_path / "long.html")
    assert replay.recording.result.rounds == 60 and replay.recording.result.end_reason == "round_limit"
    assert len(replay.document["keyframes"]) == 60 and len(replay.document["steps"]) == 1 + 60 * 7
    assert replay.path.stat().st_size < 2_000_000


def test_delta_turns_the_old_state_into_the_new():
    old = {"a": 1, "list": [1, 2, 3], "d": {"x": [1], "y": 2}, "grow": [1]}
    new = {"a": 2, "list": [1, 5, 3], "d": {"x": [1], "z": 3}, "grow": [1, 2]}
    ops = delta(old, new)
    assert sorted(map(str, ops)) == sorted(map(str, [["a", 2], ["list", 1, 5], ["d", "y", None], ["d", "z", 3],
                                                     ["grow", [1, 2]]]))
    assert delta(new, new) == []


def test_plsim_play_html_writes_the_game_it_tells(tmp_path):
    page = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["play", "standard-2p", "--seed", "11", "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert f"replay written to {page}" in result.output
    plain = CliRunner().invoke(main, ["play", "standard-2p", "--seed", "11"])
    assert plain.output == result.output.replace(f"{result.output.splitlines()[-2]}\n", "")
    document = document_of(page)
    vp = re.search(r"VP \S+@0=(\d+), \S+@1=(\d+)", result.output).groups()
    assert document["result"]["final_vp"] == [int(v) for v in vp]
    assert document["meta"]["command"] is None or "plsim play" in document["meta"]["command"]


def test_plsim_play_html_refuses_from_and_save(tmp_path):
    result = CliRunner().invoke(main, ["play", "--html", str(tmp_path / "g.html"), "--save", str(tmp_path / "p.json")])
    assert result.exit_code == 2 and "--html" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(("target", "game", "says"), [
    ("missing", 0, "is not a folder"),
    ("empty", 0, "is not a run folder"),
    ("run", 6, "there is no game 6"),
    ("run", -1, "there is no game -1"),
    ("parent", 0, "holds 1 run folders, not one run"),
    ("broken", 0, "does not describe a run's plan"),
])
def test_bad_input_is_one_line_and_exit_2(real_run, tmp_path, target, game, says):
    folders = {"missing": tmp_path / "nope", "empty": tmp_path / "empty", "run": real_run, "parent": real_run.parent,
               "broken": tmp_path / "broken"}
    (tmp_path / "empty").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "run.json").write_text('{"kind": "run"}')
    result = CliRunner().invoke(main, ["replay", str(folders[target]), "--game", str(game)])
    assert result.exit_code == 2, result.output
    assert says in result.output and len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_a_faulted_game_replays_up_to_its_fault(tmp_path):
    entries = write_plugins(tmp_path)
    quick = write_quick(tmp_path)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", str(quick), "--players", f"{entries['Raise']},random", "--games", "8",
                                       "--workers", "1", "--on-fault", "skip", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    games = pl.read_parquet(out / "games.parquet")
    faulted = games.filter(pl.col("end_reason") == FAULT)["game"].to_list()
    assert faulted, "no game faulted: the test would prove nothing"
    replay = replay_game(game_spec(out, faulted[0]), tmp_path / "fault.html")
    assert replay.recording.result is None and replay.recording.fault_kind == "strategy"
    assert "kaboom" in replay.recording.fault and replay.document["fault"] == replay.recording.fault
    assert len(replay.document["steps"]) >= 1
    assert "stopped at a fault" in replay.path.read_text(encoding="utf-8")
    played = games.filter(pl.col("end_reason") != FAULT)["game"][0]
    assert replay_game(game_spec(out, played), tmp_path / "played.html").recording.fault is None


def test_a_game_that_timed_out_replays_up_to_its_deadline(tmp_path):
    plugin = tmp_path / "stubborn.py"
    plugin.write_text(STUBBORN)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", str(write_quick(tmp_path)), "--players", f"{plugin}:Stuck,random",
                                       "--games", "1", "--workers", "1", "--game-timeout", "1", "--on-fault", "skip",
                                       "--out", str(out), "--quiet"])
    assert result.exit_code == 2 and "no game was played: all 1 ended in a fault" in result.output, result.output
    spec = game_spec(out, 0)
    assert spec.timeout == 1
    replay = replay_game(spec, tmp_path / "stuck.html")
    assert replay.recording.fault_kind == "timeout" and "deadline" in replay.recording.fault
    assert replay.recording.steps[-1].state is not None


def test_a_game_that_fails_in_its_setup_still_makes_a_page(tmp_path):
    plugin = tmp_path / "stubborn.py"
    plugin.write_text(STUBBORN)
    page = tmp_path / "setup.html"
    result = CliRunner().invoke(main, ["play", str(write_quick(tmp_path)), "--players", f"{plugin}:Homeless,random",
                                       "--html", str(page)])
    assert result.exit_code == 2 and "no home for me" in result.output and "Traceback" not in result.output
    document = document_of(page)
    assert document["keyframes"] == [] and [s["phase"] for s in document["steps"]] == ["setup"]
    assert "no home for me" in document["fault"]


def test_plsim_play_rounds_html_stops_where_the_game_stops(tmp_path):
    page = tmp_path / "three.html"
    result = CliRunner().invoke(main, ["play", "--seed", "4", "--rounds", "3", "--html", str(page), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "stopped after round 3; the game goes on" in result.output
    document = document_of(page)
    assert len(document["keyframes"]) == 3 and document["steps"][-1]["round"] == 3
    assert document["result"]["end_reason"] == "unfinished"


def test_plsim_run_replays_writes_them_with_the_run(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["run", str(write_quick(tmp_path)), "--games", "4", "--workers", "1",
                                       "--replays", "2", "--out", str(out), "--quiet"])
    assert result.exit_code == 0, result.output
    index = json.loads((out / "replays" / "index.json").read_text())
    assert 1 <= len(index) <= 2 and f"replays: {out / 'replays'}" in result.output
    assert index[0]["reasons"] == ["the longest game (6 rounds)", "a round-limit game"]  # six-round games
    page = (out / "report.html").read_text()
    assert all(f'href="{entry["file"]}"' in page for entry in index)
    resumed = CliRunner().invoke(main, ["run", "--resume", str(out), "--replays", "2"])
    assert resumed.exit_code == 2 and "--replays does not go with --resume" in resumed.output


def test_a_game_of_a_tournament_and_of_a_sweep_cell(tmp_path):
    quick = write_quick(tmp_path)
    tournament, sweep = tmp_path / "tournament", tmp_path / "sweep"
    for args in (["tournament", str(quick), "--players", "random,economist", "--games-per-table", "2",
                  "--out", str(tournament)],
                 ["sweep", str(quick), "--vary", "wrath.threshold=7,13", "--games", "2", "--out", str(sweep)]):
        result = CliRunner().invoke(main, [*args, "--workers", "1", "--quiet"])
        assert result.exit_code == 0, result.output
    cells = sorted(p for p in (sweep / "cells").iterdir())
    for folder in (tournament, cells[0]):
        games = pl.read_parquet(folder / "games.parquet")
        row = games.row(games.height - 1, named=True)
        replay = replay_game(game_spec(folder, row["game"]), tmp_path / "x.html")
        assert (replay.recording.result.rounds, replay.recording.result.decisions) == (row["rounds"], row["decisions"])
        assert list(replay.document["seats"]) == [row["seat_0"], row["seat_1"]]
    with pytest.raises(ReplayError, match="run folders, not one run: replay a game of one of them"):
        game_spec(sweep, 0)


def test_the_games_worth_watching_are_each_kind_once():
    games = pl.DataFrame({
        "game": [0, 1, 2, 3, 4, 5], "rounds": [20, 60, 15, 30, 12, None],
        "end_reason": ["victory", "round_limit", "victory", "victory", "victory", FAULT],
        "winner_seat": [0, None, 1, 0, 1, None], "pairs_released": [0, 0, 2, 1, 0, None],
    })
    picks = dict(games_worth_watching(games, 10))
    assert picks == {1: ["the longest game (60 rounds)", "a round-limit game"], 2: ["invaders released (2 pairs)"],
                     0: ["the quickest win of seat 0 (20 rounds)"], 4: ["the quickest win of seat 1 (12 rounds)"],
                     5: ["stopped by a fault"]}
    assert [game for game, _ in games_worth_watching(games, 2)] == [1, 2]


def test_plsim_report_replays_writes_and_links_them(real_run, tmp_path):
    run = Path(shutil.copytree(real_run, tmp_path / "run"))
    result = CliRunner().invoke(main, ["report", str(run), "--replays", "3"])
    assert result.exit_code == 0, result.output
    index = json.loads((run / "replays" / "index.json").read_text())
    assert 1 <= len(index) <= 3 and "replays:" in result.output
    page = (run / "report.html").read_text()
    assert 'id="replays"' in page
    for entry in index:
        assert (run / entry["file"]).exists() and f'href="{entry["file"]}"' in page
    again = CliRunner().invoke(main, ["report", str(run), "--replays", "1"])
    assert again.exit_code == 0, again.output
    assert [e["file"] for e in json.loads((run / "replays" / "index.json").read_text())] == [index[0]["file"]]
    assert all((run / e["file"]).exists() == (e is index[0]) for e in index)


def test_links_render_as_a_list_of_escaped_links():
    page = html_report("t", {}, "c", [Section("Replays", [Links([("replays/game-1.html", "game <1>", "a & b")])])])
    assert '<li><a href="replays/game-1.html">game &lt;1&gt;</a> <span class="note">a &amp; b</span></li>' in page


@needs_chromium
def test_the_replay_opens_in_headless_chromium_and_shows_the_result_at_the_last_step(replayed, tmp_path):
    """Done when of issue 24: hexes and seat panels drawn; the slider moved to the last step shows
    the game's final VP; the keyboard steps; nothing fetched, no console error."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    document = document_of(replayed)
    board = default_board()
    plugin = tmp_path / "stubborn.py"
    plugin.write_text(STUBBORN)
    failed_in_setup = tmp_path / "setup.html"
    CliRunner().invoke(main, ["play", "--players", f"{plugin}:Homeless", "--html", str(failed_in_setup)])
    with headless_chromium(1400, 1000) as driver:
        driver.get(replayed.resolve().as_uri())
        assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
        hexes = driver.execute_script(
            "return Array.from(document.querySelectorAll('#board polygon.hex')).filter(p => p.getBBox().width > 0).length")
        assert hexes == board.width * board.height
        panels = driver.find_elements(By.CSS_SELECTOR, "#seats .seat")
        assert [p.find_element(By.CSS_SELECTOR, ".seat-name").text for p in panels] == [
            f"seat {seat} · {name}" for seat, name in enumerate(document["seats"])]
        assert driver.find_elements(By.CSS_SELECTOR, "#pieces .settlement")
        driver.execute_script("plsimReplay.show(1)")
        assert driver.save_screenshot(str(tmp_path / "round-1.png"))
        assert "Round 1 of" in driver.find_element(By.ID, "where").text
        slider = driver.find_element(By.ID, "slider")
        slider.send_keys(Keys.END)
        last = len(document["steps"]) - 1
        assert int(slider.get_attribute("value")) == last == driver.execute_script("return plsimReplay.current()")
        shown = [int(vp.text) for vp in driver.find_elements(By.CSS_SELECTOR, "#seats .vp")]
        assert shown == document["result"]["final_vp"]
        assert driver.find_elements(By.CSS_SELECTOR, ".seat.winner")
        assert driver.save_screenshot(str(tmp_path / "last-round.png"))
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.HOME)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        assert driver.execute_script("return plsimReplay.current()") == 1
        problems = console_problems(driver)
        fetched = fetched_resources(driver)
        driver.get(failed_in_setup.resolve().as_uri())
        assert driver.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1"
        assert "no home for me" in driver.find_element(By.ID, "narration").text
        problems += console_problems(driver)
    assert problems == [] and fetched == []
    for shot in ("round-1.png", "last-round.png"):
        assert (tmp_path / shot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / shot).stat().st_size > 50_000
