"""Issue 46: a hand-edited position that no rule allows is refused on load, in one line naming
the field, exit 2, with or without --no-check (it played to a result, or failed as an engine
invariant with exit 1); the positions real games save at every decision still load."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from plsim.board import Terrain, default_board
from plsim.cli import main
from plsim.engine.position_check import check_position
from plsim.play import new_game


ONE_PLACE = " (a card is in one place only)"


def save(folder, *args: str) -> dict:
    """The position ``plsim play ARGS`` saves, without its history (the saved state is played on)."""
    path = folder / "pos.json"
    result = CliRunner().invoke(main, ["play", "--quiet", *args, "--save", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    del data["history"]
    return data


def refused(tmp_path, saved: dict, spoil, *options: str) -> None:
    """``spoil`` a copy of ``saved``: plsim play --from it is one line naming the field, exit 2."""
    data = json.loads(json.dumps(saved))
    field = spoil(data["state"])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["play", "--from", str(path), *options, "--quiet"])
    assert (result.exit_code, result.output.splitlines()) == (2, [f"Error: position {path}: {field}"])


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    return save(tmp_path_factory.mktemp("position"), "--seed", "3", "--rounds", "2")


def card_in_hand_and_deck(state):
    card = state["deck"][0]
    state["players"][0]["hand"].append(card)
    return f"state.players[0].hand[{len(state['players'][0]['hand']) - 1}]: {card} is also at state.deck[0]{ONE_PLACE}"


def card_in_two_hands(state):
    card = next(c for p in state["players"] for c in p["hand"])
    holder = next(i for i, p in enumerate(state["players"]) if card in p["hand"])
    other = (holder + 1) % len(state["players"])
    state["players"][other]["hand"].append(card)
    first, second = sorted([(holder, state["players"][holder]["hand"].index(card)),
                            (other, len(state["players"][other]["hand"]) - 1)])
    return (f"state.players[{second[0]}].hand[{second[1]}]: {card} is also at "
            f"state.players[{first[0]}].hand[{first[1]}]{ONE_PLACE}")


def card_in_deck_and_discard(state):
    state["discard"].append(state["deck"][0])
    return f"state.discard[{len(state['discard']) - 1}]: {state['deck'][0]} is also at state.deck[0]{ONE_PLACE}"


def general_on_water(state):
    water = next(h for h, t in enumerate(default_board().terrain) if t is Terrain.WATER)
    state["generals"][0]["hex"] = water
    return f"state.generals[0].hex: hex {water} is water (TR-2: nothing stands on water)"


def troops_past_the_limit(state):
    state["generals"][1]["troops"] = 50
    return "state.generals[1].troops: 50 is past 6, the most GN-1 (limits.troops_per_general) allows"


def wrath_past_the_threshold(state):
    state["wrath"] = 40
    return "state.wrath: 40 is past 12, the most W-2 (wrath.threshold) allows"


def coins_past_what_plsim_keeps(state):
    state["players"][2]["coins"] = 2**62
    return f"state.players[2].coins: {2**62} is past 2147483647, the most plsim (IN-4 sets no cap) allows"


def card_missing(state):
    card = state["deck"].pop()
    return f"state: breaks the rules: 87 cards in play for a deck of 88: extra or repeated [], missing ['{card}']"


def item_in_hand(state):
    item = state["generals"][0]["items"].pop()
    state["players"][0]["hand"].append(item)
    return (f"state.players[0].hand[{len(state['players'][0]['hand']) - 1}]: {item} is not allowed here: "
            f"a hand holds one-use cards only (DR-2)")


@pytest.mark.parametrize("check", ["--check", "--no-check"])
@pytest.mark.parametrize("spoil", [
    card_in_hand_and_deck, card_in_two_hands, card_in_deck_and_discard, general_on_water, troops_past_the_limit,
    wrath_past_the_threshold, coins_past_what_plsim_keeps, card_missing, item_in_hand,
])
def test_a_position_no_rule_allows_is_refused_in_one_line_with_exit_2(tmp_path, saved, spoil, check):
    refused(tmp_path, saved, spoil, check)


def test_every_position_a_game_saves_loads(saved):
    """Mid-phase a card may be on its way and the cup full until its pair is aimed (W-3): the
    checks refuse none of a real game's positions, at any decision or between phases."""
    game = new_game("standard-4p", ["prophet", "schemer", "warlord", "zealot"], seed=1)
    checked = 0
    while not game.over and checked < 400:
        check_position(json.loads(json.dumps(game.position())), "a real game")
        game.play_decisions(1)
        checked += 1
    while not game.over:
        game.run_phase()
        check_position(json.loads(json.dumps(game.position())), "a real game between phases")


@pytest.fixture(scope="module")
def saved_mid_phase(tmp_path_factory):
    data = save(tmp_path_factory.mktemp("position"), "--seed", "4", "--decisions", "150")
    assert data["state"]["pending"]
    return data


def judge_who_holds_no_title(state):
    state["regions"][0]["holder"] = state["generals"][0]["name"]
    return (f"state: breaks the rules: {state['regions'][0]['name']}'s Judge {state['generals'][0]['name']} does not "
            f"hold the title (TI-3)")


def a_list_in_the_hex_order(state):
    state["hex_order"].append([])
    return f"state.hex_order[{len(state['hex_order']) - 1}]: [] is not a hex of map canaan (0..431)"


def a_decision_for_no_seat(state):
    step = next(i for i, s in enumerate(state["pending"]) if "ask" in s)
    state["pending"][step]["ask"]["seat"] = 7
    return f"state.pending[{step}].ask.seat: 7 is not a seat (0..3)"


def a_step_for_no_seat(state):
    state["pending"].insert(0, {"step": "effects.draw_cards", "args": [7, 2]})
    return "state.pending[0]: effects.draw_cards: 7 is not a seat (0..3)"


def a_draw_past_the_deck(state):
    """It drew 10**12 cards, one by one: plsim hung."""
    state["pending"].insert(0, {"step": "effects.draw_cards", "args": [1, 10**12]})
    return "state.pending[0]: effects.draw_cards: 1000000000000 is above 88"


def a_negative_start(state):
    state["pending"].insert(0, {"step": "effects.occupy_free_settlements", "args": [-3]})
    return "state.pending[0]: effects.occupy_free_settlements: -3 is below 0"


@pytest.mark.parametrize("spoil", [judge_who_holds_no_title, a_list_in_the_hex_order, a_decision_for_no_seat,
                                   a_step_for_no_seat, a_draw_past_the_deck, a_negative_start])
def test_a_position_saved_mid_phase_is_checked_too(tmp_path, saved_mid_phase, spoil):
    """Mid-phase the engine's invariants were never asked (an exit 1 after the phase), a
    malformed hex order or decision seat was a TypeError or IndexError traceback, and the values
    of the steps waiting on the stack were not checked at all (a seat the game lacks played on)."""
    refused(tmp_path, saved_mid_phase, spoil, "--no-check")
