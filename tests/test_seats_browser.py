"""Issue 62: a person in the browser (``plsim play --serve``), played in a real headless Chromium by
clicking, as a person would: a home and a general's march picked on the board, every other
decision on the panel, to the game's end and its replay; and the page's doors."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from browser import console_problems, headless_chromium, needs_chromium

PLSIM = str(Path(sys.executable).parent / "plsim")


def serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([PLSIM, "play", *args, "--serve"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()
    found = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
    assert found, line + process.stdout.read()
    return process, found.group(1)


def stop(process: subprocess.Popen) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    return process.returncode, out


def body(driver, name: str) -> str:
    return driver.find_element("tag name", "body").get_attribute(name) or ""


def next_decision(driver, last: str, timeout: float = 90) -> str:
    """Wait until the page asks a new decision (its id) or the game is over ("over")."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if body(driver, "data-status") in ("over", "failed"):
            return body(driver, "data-status")
        decision = body(driver, "data-decision")
        if decision and decision != last and driver.find_elements("css selector", "#decision button"):
            return decision
        time.sleep(0.05)
    raise AssertionError(f"no new decision within {timeout} s: {driver.find_element('id', 'decision').text}")


def click_on_board(driver) -> str:
    """Click the first highlighted choice on the board (inside the frame); the option's words."""
    driver.switch_to.frame(driver.find_element("id", "board-frame"))
    try:
        deadline = time.monotonic() + 20
        while not (marks := driver.find_elements("css selector", "#choices polygon")):
            assert time.monotonic() < deadline, "no choice highlighted on the board"
            time.sleep(0.05)
        words = marks[0].find_element("tag name", "title").get_attribute("textContent")
        marks[0].click()
        return words
    finally:
        driver.switch_to.default_content()


@needs_chromium
def test_a_person_plays_a_whole_game_in_the_browser_by_clicking(tmp_path):
    process, url = serve(tmp_path, "standard-2p", "--players", "human,judge-rush", "--seed", "2", "--html", "game.html")
    try:
        with headless_chromium(1400, 900) as driver:
            driver.get(url)
            last, answered, on_board = "", 0, []
            while (decision := next_decision(driver, last)) not in ("over", "failed"):
                last = decision
                panel = driver.find_element("id", "decision")
                generals = panel.find_elements("css selector", "button.general")
                if "Choose your home" in panel.text:
                    on_board.append(click_on_board(driver))  # a settlement picked on the map
                elif generals and len(on_board) < 3:
                    generals[0].click()
                    on_board.append(click_on_board(driver))  # a general, then its destination on the map
                else:
                    buttons = panel.find_elements("css selector", "button.option")
                    passes = [b for b in buttons if b.get_attribute("data-type") == "Pass"]
                    (passes or buttons)[0].click()
                answered += 1
            assert decision == "over", driver.find_element("id", "decision").text
            assert answered > 20 and len(on_board) == 3 and on_board[1].startswith("move ")
            assert "wins after" in driver.find_element("id", "decision").text or "No winner" in driver.find_element(
                "id", "decision").text
            told = driver.find_element("id", "told").text
            assert "seat 1 (judge-rush)" in told
            replay = driver.find_element("id", "replay-link").get_attribute("href")
            driver.get(replay)
            assert driver.find_elements("css selector", "#board polygon.hex")
            assert body(driver, "data-ready") == "1" and not console_problems(driver)
    finally:
        code, out = stop(process)
    assert code == 0, out
    assert "The replay:" in out and (tmp_path / "game.html").stat().st_size > 10_000
    assert "Error" not in out and "unsendable" not in out  # the core's strategies dropped by their own thread


@needs_chromium
def test_the_page_saves_the_game_and_from_goes_on_with_it(tmp_path):
    process, url = serve(tmp_path, "standard-2p", "--players", "human,random", "--seed", "5")
    try:
        with headless_chromium() as driver:
            driver.get(url)
            last = ""
            for _ in range(12):  # past the setup
                last = next_decision(driver, last)
                buttons = driver.find_elements("css selector", "#decision button.option")
                passes = [b for b in buttons if b.get_attribute("data-type") == "Pass"]
                (passes or buttons)[0].click()
            next_decision(driver, last)
            driver.find_element("id", "save").click()
            deadline = time.monotonic() + 20
            while "Saved:" not in driver.find_element("id", "saved").text:
                assert time.monotonic() < deadline, driver.find_element("id", "saved").text
                time.sleep(0.1)
    finally:
        code, out = stop(process)
    saved = tmp_path / "plsim-game-seed5.json"
    assert saved.is_file() and code == 130 and f"plsim play --from {saved.name} --serve" in out
    again, url = serve(tmp_path, "--from", saved.name)
    try:
        state, deadline = {"version": -1, "decision": None}, time.monotonic() + 60
        while state["decision"] is None and time.monotonic() < deadline:
            state = json.loads(urllib.request.urlopen(url.replace("/?", f"/state?after={state['version']}&"),
                                                      timeout=30).read())
        assert state["status"] == "playing" and state["decision"] is not None
    finally:
        stop(again)


def test_the_page_refuses_a_request_without_the_token_or_from_elsewhere(tmp_path):
    process, url = serve(tmp_path, "standard-2p", "--players", "human,random", "--seed", "1")
    base = url.split("/?")[0]
    token = url.split("token=")[1]

    def status(path: str, headers: dict | None = None, data: bytes | None = None) -> int:
        request = urllib.request.Request(base + path, data=data, headers=headers or {})
        try:
            return urllib.request.urlopen(request, timeout=20).status
        except urllib.error.HTTPError as error:
            return error.code

    try:
        assert status(f"/?token={token}") == 200
        assert status("/") == 403 and status("/state") == 403 and status("/?token=wrong") == 403
        answer = json.dumps({"id": 1, "choice": 0}).encode()
        json_headers = {"Content-Type": "application/json"}
        assert status(f"/answer?token={token}", json_headers, answer) == 403  # the token belongs in a header
        assert status("/answer", {**json_headers, "X-Plsim-Token": token, "Origin": "http://evil.example"}, answer) == 403
        assert status("/answer", {"X-Plsim-Token": token, "Content-Type": "text/plain"}, answer) == 415
        assert status(f"/state?token={token}", {"Host": "evil.example"}) == 403
        assert status(f"/../../etc/passwd?token={token}") == 404
        assert status("/answer", {**json_headers, "X-Plsim-Token": token}, answer) == 200
    finally:
        stop(process)


@pytest.mark.parametrize("args,said", [
    (["--players", "random,random"], "give human for at least one seat"),
    (["--players", "human,random", "--rounds", "3"], "does not go with --rounds"),
])
def test_serve_refuses_what_it_cannot_do_in_one_line(tmp_path, args, said):
    result = subprocess.run([PLSIM, "play", "standard-2p", *args, "--serve"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2 and said in result.stderr + result.stdout


def test_VW_1_the_page_is_told_no_card_of_another_hand(tmp_path):
    """Everything the page can fetch (the state and the board's replay so far), at each of the
    person's decisions, holds no card of another seat's hand."""
    from dataclasses import asdict

    from plsim.board import load_board
    from plsim.play import new_game
    from plsim.serve.table import BrowserTable, WebSeat

    names = ["judge-rush", "human", "schemer", "prophet"]
    table = None

    def seat(strategy):
        if getattr(type(strategy), "asks_person", False):
            strategy.asker = WebSeat(table)

    table = BrowserTable(lambda log: new_game("standard-4p", names, 3, log=log, keep_history=True, prepare=seat),
                         names, load_board("default"), {"title": "t", "wrath_threshold": 13, "victory_points": 3},
                         tmp_path / "saved.json")
    table.start()
    checked = 0
    try:
        after = -1
        while checked < 80:
            snap = table.snapshot(after, wait=30)
            after = snap.version
            if snap.status in ("over", "failed"):
                break
            if snap.decision is None or table.game is None:
                if snap.decision is not None:
                    table.answer(snap.decision["id"], len(snap.decision["options"]) - 1)
                continue
            hidden = {card for player in table.game.state_dict()["players"] if player["seat"] != 1
                      for card in player["hand"]}
            told = json.dumps(asdict(snap)) + table.board_page()
            assert hidden and not [card for card in hidden if f'"{card}"' in told or f"{card}," in told]
            checked += 1
            table.answer(snap.decision["id"], len(snap.decision["options"]) - 1)
    finally:
        table.close(timeout=30)
    assert checked >= 40
