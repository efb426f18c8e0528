"""The prophet strategy (issue 12): it aims the invaders (W-3) along the ring (W-5) at the
leader, tips the cup (W-1, W-2) only where and when a release pays, takes a rival's Prophet,
and readies its own settlements on the pair's path. Each test builds a position by hand."""

from __future__ import annotations

import random

import pytest

from plsim.engine.cards import Phase
from plsim.engine.state import InvaderPair
from plsim.strategy import PASS, Buy, Choose, Decision, PlayCard, Purchase, kind_of
from plsim.strategy.registry import resolve
from tests.helpers import (
    FixedDice, add_general, blank_game, cardplay, events_of, give_hand, make_judge, own, phases, sid,
)

GILEAD = ("Jabesh-Gilead", "Ramoth-Gilead", "Mahanaim", "Penuel", "Succoth")  # ring positions 2, 3, 5, 6, 7


def prophet(seat: int = 0, **params):
    return resolve("prophet").cls(seat, random.Random(seat), **params)


def ask(strategy, game, kind: str, options, **context):
    view = game.view(strategy.seat)
    return strategy.choose(view, Decision(kind, strategy.seat, tuple(options), context))


def heartland(phase: Phase = Phase.DRAW, wrath: int = 12, leader: int = 1, aimer: int = 0, carrier: int | None = None):
    """``leader`` leads (Judge of Gilead, the whole region, Ramoth-Gilead its city); seats 2
    and 3 hold a few villages further along the ring; ``aimer`` holds Hazor and Dan, the two
    settlements just before Gilead on the ring, and Saul at Dan; the Prophet's carrier Samuel
    stands at Hazor, or at seat 3's Tekoa when ``carrier`` is 3."""
    game = blank_game(phase=phase)
    for name in GILEAD:
        own(game, name, leader, garrison=1)
    make_judge(game, add_general(game, "Joab", leader, "Ramoth-Gilead"), "Gilead", "Ramoth-Gilead", garrison=3)
    own(game, "Tekoa", 3, garrison=1)
    own(game, "Gath", 2, garrison=1)
    own(game, "Gaza", 2, garrison=1)
    own(game, "Hazor", aimer, garrison=2)
    own(game, "Dan", aimer, garrison=2)
    carrier = aimer if carrier is None else carrier
    add_general(game, "Samuel", carrier, "Hazor" if carrier == aimer else "Tekoa", items=("Prophet",))
    add_general(game, "Saul", aimer, "Dan")
    game.state.wrath = wrath
    return game


def test_w_3_it_aims_the_pair_at_the_leaders_heartland():
    """W-3, W-5, CB-7: the pair is sent into the leader's region Gilead, whose villages and
    Judge's city lie next along the ring, where the path (played out on copies of the game)
    razes the leader's settlements and spares the prophet's own; sent at the prophet's Hazor or
    Dan first, it would raze the prophet's own."""
    game = heartland(Phase.ANNOUNCEMENTS)
    options = [Choose(s.id) for s in game.state.settlements if s.standing and s.owner is not None and s.owner >= 0]
    strategy = prophet()
    choice = ask(strategy, game, "invader_target", options)
    assert game.board.settlements[choice.value].name in GILEAD
    view = game.view(0)
    paths = strategy.path_losses(view, buy_first=True)
    losses = paths[choice.value][0]
    assert losses.get(0, 0.0) < 1.0 < losses[1]
    assert paths[sid(game, "Hazor")][0][0] > paths[sid(game, "Hazor")][0][1]


def test_w_5_the_planned_path_is_the_one_the_engine_plays():
    """W-4, W-5: the path the prophet plans for a pair (played out on copies of the game) is the
    order in which the engine's Combat phases then attack."""
    game = heartland(Phase.COMBAT)
    strategy = prophet()
    view = game.view(0)
    strikes, collapse = strategy.pair_path(view, sid(game, "Mahanaim"), buy_first=False, steps=6)
    planned = [s.sid for s in strikes]
    assert planned == [sid(game, n) for n in ("Mahanaim", "Penuel", "Succoth", "Tekoa", "Gath", "Gaza")]
    assert collapse == 0.0
    game.state.pairs.append(InvaderPair([game.state.invader_pool.pop(0), game.state.invader_pool.pop(0)],
                                        [6, 6], target=sid(game, "Mahanaim")))
    game.rng = FixedDice(then=1)  # equal dice: the stronger side wins every battle
    events: list[dict] = []
    game.log = events.append
    for _ in planned:
        game.state.phase = Phase.COMBAT
        game.run_phase()
    assert [e["settlement"] for e in events_of(events, "invasion")] == planned


def tax_options(game, seat: int = 0):
    return cardplay.window_options(game, seat, Phase.DRAW) + [PASS]


def test_w_2_it_tips_the_cup_with_tax_when_it_aims_a_path_that_spares_it():
    """W-1, W-2: with the cup one short, the Prophet in its hands and a path that falls on its
    rivals, a Tax in the Draw Cards window lets the pair loose."""
    game = heartland()
    give_hand(game, 0, "Tax")
    choice = ask(prophet(), game, "cards", tax_options(game), phase="draw")
    assert isinstance(choice, PlayCard) and kind_of(choice.card) == "Tax"


def test_w_2_it_keeps_the_cup_one_short_when_a_rival_would_aim_at_it():
    """W-3: when a rival holds the first Prophet and the prophet leads, the rival would send
    the pair at the prophet's own region: it keeps its Tax."""
    game = heartland(leader=0, aimer=1)
    give_hand(game, 0, "Tax")
    adding_wrath = [o for o in tax_options(game) if o == PASS or o.target != "Gilead"]  # its own Judge region adds none
    assert ask(prophet(), game, "cards", adding_wrath, phase="draw") == PASS


def test_w_2_zeal_zero_never_tips_the_cup():
    """W-2: the same position as above, but with ``zeal=0`` it keeps its Tax."""
    game = heartland()
    give_hand(game, 0, "Tax")
    assert ask(prophet(zeal=0.0), game, "cards", tax_options(game), phase="draw") == PASS


def test_w_1_an_assassin_tips_the_cup_in_the_movement_window_not_during_its_moves():
    """The Movement window after everyone moved is the moment: the victim cannot reinforce
    before Combat. During its own moves the prophet keeps the Assassin; in the window it
    kills the leader's Judge and lets the pair loose."""
    game = heartland(Phase.MOVEMENT)
    card = give_hand(game, 0, "Assassin")[0]
    plays = [o for o in cardplay.window_options(game, 0, Phase.MOVEMENT) if isinstance(o, PlayCard)]
    assert plays and all(p.card == card for p in plays)
    strategy = prophet()
    for name in ("Samuel", "Saul"):
        game.state.generals[name].moved = True  # nothing left to move: only the card or a pass
    assert ask(strategy, game, "movement", plays + [PASS]) == PASS
    choice = ask(strategy, game, "cards", plays + [PASS], phase="movement")
    assert isinstance(choice, PlayCard) and choice.target == "Joab"


def test_w_1_it_assassinates_a_rival_prophet_carrier_to_take_the_aim():
    """W-1, W-3: below the threshold, a rival's Prophet carrier is the Assassin's target: the
    rival loses the aim and the cup gains 4."""
    game = heartland(wrath=3, carrier=3)
    give_hand(game, 0, "Assassin")
    options = cardplay.window_options(game, 0, Phase.DRAW) + [PASS]
    choice = ask(prophet(), game, "cards", options, phase="draw")
    assert isinstance(choice, PlayCard) and choice.target == "Samuel"


def test_a_squire_goes_to_the_prophet_carrier():
    """9.2: the Squire dies instead of its general, so it guards the Prophet's carrier."""
    game = heartland()
    options = [Choose("Samuel"), Choose("Saul")]
    assert ask(prophet(), game, "attach_item", options, card="Squire#1") == Choose("Samuel")
    game.state.generals["Saul"].items = ()
    other = resolve("judge-rush").cls(0, random.Random(0))
    assert ask(other, game, "attach_item", options, card="Squire#1") == Choose("Saul")


def test_w_5_it_garrisons_the_judges_city_the_pair_reaches_next():
    """W-5: a pair razing the rival's Succoth jumps next to the prophet's city at Tekoa: the
    prophet buys the troops that let the city hold it."""
    game = blank_game(phase=Phase.ACQUISITIONS)
    own(game, "Succoth", 1, garrison=1)
    judge = add_general(game, "Jephthah", 0, "Tekoa", troops=4)
    city = make_judge(game, judge, "Judah", "Tekoa", garrison=4)
    game.state.players[0].home = city
    game.state.players[0].coins = 20
    game.state.players[1].coins = 0  # Succoth's owner cannot reinforce: the pair arrives at full strength
    game.state.pairs.append(InvaderPair([game.state.invader_pool.pop(0), game.state.invader_pool.pop(0)],
                                        [6, 6], target=sid(game, "Succoth")))
    options = phases.purchase_options(game, 0) + [PASS]
    choice = ask(prophet(), game, "purchase", options)
    assert choice == Buy(Purchase.TROOP, city)
    other = resolve("judge-rush").cls(0, random.Random(0))
    assert ask(other, game, "purchase", options) != Buy(Purchase.TROOP, city)  # it does not look ahead


@pytest.mark.parametrize("params", ["zeal=2.5", "safety=0.5,blind=0", "wrath_cap=10"])
def test_parameters_are_declared_and_checked(params):
    spec = resolve(f"prophet:{params}")
    strategy = spec.make(0, 1)
    for item in params.split(","):
        key, value = item.split("=")
        assert strategy.settings[key] == type(strategy.settings[key])(float(value))
