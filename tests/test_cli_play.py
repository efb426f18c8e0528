"""`plsim play` end to end: the narrated game, the event log, positions, and bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from plsim.cli import main
from plsim.play import play

PLAYERS = "random,random,random"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_play_tells_the_game_round_by_round_and_ends_with_the_result():
    result = run("play", "standard-3p", "--players", "judge-rush,random,random", "--seed", "1")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "== Round 1 " in out and "makes" in out and "standings:" in out
    assert "Battle at" in out
    assert out.strip().splitlines()[-1].startswith("Result: ")


def test_one_seed_gives_an_identical_log_twice_and_the_library_agrees(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert run("play", "--players", PLAYERS, "--seed", "11", "--quiet", "--log", str(path)).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    events = [json.loads(line) for line in first.read_text().splitlines()]
    assert events[-1]["event"] == "game_over"
    result = play(None, PLAYERS.split(","), seed=11)
    assert events[-1]["reason"] == result.end_reason and result.rounds == events[-1]["round"]


def test_a_saved_position_continues_exactly_as_the_uninterrupted_game(tmp_path):
    """Positions (issue 2 item 7): save after 8 rounds, continue with --from, same events."""
    whole, rest, position = tmp_path / "whole.jsonl", tmp_path / "rest.jsonl", tmp_path / "pos.json"
    assert run("play", "--players", "warlord,random,economist", "--seed", "5", "--quiet", "--log", str(whole)).exit_code == 0
    stopped = run("play", "--players", "warlord,random,economist", "--seed", "5", "--quiet",
                  "--rounds", "8", "--save", str(position))
    assert stopped.exit_code == 0 and "stopped after round 8" in stopped.output
    assert run("play", "--from", str(position), "--quiet", "--log", str(rest)).exit_code == 0
    later = [line for line in whole.read_text().splitlines() if json.loads(line)["round"] > 8]
    assert rest.read_text().splitlines() == later


@pytest.mark.parametrize("players", ["warlord,random,economist", "prophet,schemer,judge-rush,zealot"])
def test_a_position_saved_at_a_decision_continues_exactly_as_the_uninterrupted_game(tmp_path, players):
    """Issue 21 item 5: a position saved mid-phase, at a pending decision, goes on with --from to
    exactly the events of the uninterrupted game."""
    whole, first, rest, position = (tmp_path / name for name in ("whole.jsonl", "first.jsonl", "rest.jsonl", "p.json"))
    assert run("play", "--players", players, "--seed", "5", "--quiet", "--log", str(whole)).exit_code == 0
    for decisions in (1, 137, 401):
        stopped = run("play", "--players", players, "--seed", "5", "--quiet", "--decisions", str(decisions),
                      "--log", str(first), "--save", str(position))
        assert stopped.exit_code == 0 and "stopped at decision" in stopped.output, stopped.output
        assert json.loads(position.read_text())["state"]["pending"]
        assert run("play", "--from", str(position), "--quiet", "--log", str(rest)).exit_code == 0
        done = len(first.read_text().splitlines())
        assert rest.read_text().splitlines() == whole.read_text().splitlines()[done:]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "--players", "random,nosuch"], "unknown strategy 'nosuch'"),
        (["play", "nosuch-scenario"], "unknown scenario"),
        (["play", "standard-2p", "--players", "random,random,random,random,random"],
         "scenario standard-2p has 2 seats but 5 strategies were given"),
        (["play", "--players", "random,random,random,random,random,random,random"], "at most 6 players"),
        (["play", "--seed", "x"], "not a valid integer"),
        (["play", "--from", "missing.json"], "cannot read position"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], result.output


def test_a_shorter_player_list_is_cycled_to_the_scenarios_seats_as_plsim_run_does():
    """Issue 11: `plsim play standard-4p --players a,b` seats a, b, a, b."""
    result = run("play", "standard-4p", "--players", "judge-rush,random", "--seed", "3", "--rounds", "1")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0].startswith("plsim play: judge-rush, random, judge-rush, random on ")


def test_a_strategy_answering_what_was_not_offered_is_named_with_exit_2(tmp_path):
    plugin = tmp_path / "bad.py"
    plugin.write_text(
        "from plsim.strategy.interface import Strategy\n"
        "class Bad(Strategy):\n"
        "    name = 'bad'\n"
        "    def choose(self, view, decision):\n"
        "        return 'nonsense'\n"
    )
    result = run("play", "--players", f"{plugin}:Bad,random", "--quiet")
    assert result.exit_code == 2
    assert "strategy 'bad' (seat 0) answered 'nonsense'" in result.output


@pytest.fixture(scope="module")
def saved_position(tmp_path_factory):
    path = tmp_path_factory.mktemp("position") / "pos.json"
    assert run("play", "--players", PLAYERS, "--seed", "3", "--quiet", "--rounds", "8", "--save", str(path)).exit_code == 0
    return json.loads(path.read_text())


def edit(data, where, value):
    """``data`` with the field at the dotted path ``where`` (list indexes as numbers) set to ``value``."""
    *parents, last = [int(k) if k.isdigit() else k for k in where.split(".")]
    target = data
    for key in parents:
        target = target[key]
    target[last] = value
    return data


@pytest.mark.parametrize("where, value, message", [
    ("state.generals.0.hex", 99999, "state.generals[0].hex: 99999 is not a hex of map canaan (0..431)"),
    ("state.players.1.hand", ["Tax#99"], "state.players[1].hand[0]: 'Tax#99' is not a card of the deck"),
    ("state.players.0.home", 500, "state.players[0].home: 500 is not a settlement id of map canaan"),
    ("state.generals.0.name", "Goliath", "state.generals[0].name: 'Goliath' is not a general"),
    ("state.generals.0.owner", 7, "state.generals[0].owner: 7 is not a seat (0..3)"),
    ("state.players.2.coins", -4, "state.players[2].coins: -4 is not a whole number >= 0"),
    ("state.wrath", "high", "state.wrath: 'high' is not a whole number >= 0"),
    ("state.settlements.3.hex", 0, "state.settlements[3].hex: 0 is not hex"),
    ("state.deck", "Tax#1", "state.deck: 'Tax#1' is not a list"),
    ("state.sieges", [[1, 0]], "state.sieges[0]: holds 2 entries, not 3"),
    ("seed", 1.5, "seed: 1.5 is not a whole number"),
])
def test_a_hand_edited_position_names_its_bad_field_in_one_line(tmp_path, saved_position, where, value, message):
    """Issue 19: a bad hex id, card or number was an IndexError or KeyError traceback."""
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edit(json.loads(json.dumps(saved_position)), where, value)))
    result = run("play", "--from", str(path), "--quiet")
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"Error: position {path}: {message}"), result.output
    assert "Traceback" not in result.output
