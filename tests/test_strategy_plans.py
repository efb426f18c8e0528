"""The scripted strategies plan, then act (issue 22): a strategy makes its plan at its first
decision of a phase and answers the phase's decisions from it, making a new plan exactly when
something the plan rests on changed and never for what its own execution changes as planned;
and every estimate follows the engine's rule parameters (one home for every rule)."""

from __future__ import annotations

import random

import pytest

from plsim.engine.cards import Phase
from plsim.engine.state import InvaderPair, Siege
from plsim.strategy import (
    PASS, Buy, Decision, Move, PlayCard, Purchase, TakeTroops, View, invader_strength,
)
from plsim.strategy.registry import resolve
from tests.helpers import add_general, blank_game, give_hand, hex_of, own, phases, plain_hex_near, sid, take_card


def make(name: str, seat: int = 0, **params):
    return resolve(name).cls(seat, random.Random(seat), **params)


def ask(strategy, game, kind: str, options, **context):
    """The strategy's answer to one decision, asked as the engine asks it (a fresh view)."""
    view = game.view(strategy.seat)
    return strategy.choose(view, Decision(kind, strategy.seat, tuple(options), context))


def buy(strategy, game):
    """One purchase decision with the options the engine offers, and the answer carried out."""
    choice = ask(strategy, game, "purchase", phases.purchase_options(game, strategy.seat) + [PASS])
    if choice != PASS:
        phases.apply_purchase(game, strategy.seat, choice)
    return choice


def move(strategy, game):
    """One movement decision with the options the engine offers, and the answer carried out."""
    choice = ask(strategy, game, "movement", phases.movement_options(game, strategy.seat) + [PASS])
    if choice != PASS:
        phases.apply_movement(game, strategy.seat, choice)
    return choice


def shopping_game():
    """Seat 0 holds Mahanaim (home) and Succoth in Gilead with rich coins; seat 1 holds Dor."""
    game = blank_game(phase=Phase.ACQUISITIONS, rules={"cards": {"draw_per_round": 0}})
    home = own(game, "Mahanaim", 0, garrison=0)
    own(game, "Succoth", 0, garrison=0)
    own(game, "Dor", 1, garrison=2)
    game.state.players[0].home = home
    game.state.players[0].coins = 40
    add_general(game, "Joab", 0, "Mahanaim")
    add_general(game, "Tola", 1, "Dor")
    return game


# -- plans and their basis ---------------------------------------------------------------------
def test_the_plan_is_kept_while_it_buys_troops_and_remade_when_a_rival_buys_or_a_wall_goes_up():
    """Acquisitions: the troops it buys and the coins it spends are the plan's own doing, so
    the plan holds; a rival's purchase, or a wall (a settlement changed otherwise) ends it."""
    game = shopping_game()
    strategy = make("judge-rush")
    first = buy(strategy, game)
    assert isinstance(first, Buy) and first.what == Purchase.TROOP
    plan = strategy.plan_serial
    second = buy(strategy, game)
    assert isinstance(second, Buy) and second.what == Purchase.TROOP
    assert strategy.plan_serial == plan  # the plan's own troops and coins: no new plan
    game.state.settlements[sid(game, "Dor")].garrison += 1  # a rival buys a troop
    buy(strategy, game)
    assert strategy.plan_serial != plan
    plan = strategy.plan_serial
    game.state.settlements[sid(game, "Succoth")].wall = True  # not a purchase the plan counts on
    buy(strategy, game)
    assert strategy.plan_serial != plan


def marching_game():
    """Seat 0's Joab stands on the plain by far-away Sidon, Tola at home in Mahanaim next to
    free Jabesh-Gilead; seat 1's Ehud waits at Dor."""
    game = blank_game(phase=Phase.MOVEMENT, rules={"cards": {"draw_per_round": 0}})
    game.state.players[0].home = own(game, "Mahanaim", 0, garrison=8)
    add_general(game, "Joab", 0, plain_hex_near(game, "Sidon"), troops=3)
    add_general(game, "Tola", 0, "Mahanaim", troops=2)
    add_general(game, "Ehud", 1, "Dor")
    return game


def test_the_plan_is_kept_while_its_generals_march_and_remade_when_a_settlement_is_taken():
    """Movement: a step of its own general is the plan's own doing; walking into a free
    settlement takes it (CB-1), a change the next decision plans anew for."""
    game = marching_game()
    strategy = make("judge-rush")
    step = move(strategy, game)
    assert isinstance(step, Move) and step.general == "Joab" and game.board.settlement_at[step.dest] < 0
    plan = strategy.plan_serial
    entry = move(strategy, game)
    assert strategy.plan_serial == plan
    assert entry == Move("Tola", hex_of(game, "Jabesh-Gilead"))
    assert game.state.settlements[sid(game, "Jabesh-Gilead")].owner == 0
    move(strategy, game)
    assert strategy.plan_serial != plan
    view = game.view(0)
    assert sid(game, "Jabesh-Gilead") not in {t.sid for t in strategy.planned_targets(view)}


def test_a_rivals_move_makes_a_new_plan():
    """Anything the seat did not do itself, here a rival general's step, ends the plan."""
    game = marching_game()
    strategy = make("judge-rush")
    move(strategy, game)
    plan = strategy.plan_serial
    rival = game.state.generals["Ehud"]
    game.state.place(rival, game.board.neighbours[rival.hex][0])
    move(strategy, game)
    assert strategy.plan_serial != plan


def test_a_card_drawn_or_a_new_phase_makes_a_new_plan_and_nothing_else_does():
    """The basis compares the view's values, not objects: an unchanged position keeps the plan
    (even seen through a new view), a card drawn or the next phase does not."""
    game = blank_game(phase=Phase.DRAW)
    own(game, "Mahanaim", 0, garrison=2)
    own(game, "Dor", 1, garrison=2)
    add_general(game, "Ehud", 1, "Dor")
    card = give_hand(game, 0, "Justice")[0]
    strategy = make("zealot")
    options = [PlayCard(card, "Ehud"), PASS]
    ask(strategy, game, "cards", options, phase="draw")
    plan = strategy.plan_serial
    ask(strategy, game, "cards", options, phase="draw")
    assert strategy.plan_serial == plan
    game.state.players[0].hand.append(take_card(game, "Tax"))  # a card drawn
    ask(strategy, game, "cards", options, phase="draw")
    assert strategy.plan_serial != plan
    plan = strategy.plan_serial
    game.state.phase = Phase.INCOME
    ask(strategy, game, "cards", options, phase="income")
    assert strategy.plan_serial != plan


def test_own_garrisons_are_working_values_only_in_the_phases_that_spend_them():
    """A garrison of its own that changes in Draw Cards (no purchase of its) is a change the
    plan did not make: a new plan."""
    game = blank_game(phase=Phase.DRAW)
    own(game, "Mahanaim", 0, garrison=2)
    card = give_hand(game, 0, "Blessing")[0]
    strategy = make("economist")
    ask(strategy, game, "cards", [PlayCard(card), PASS], phase="draw")
    plan = strategy.plan_serial
    game.state.settlements[sid(game, "Mahanaim")].garrison = 1  # a Plague, say
    ask(strategy, game, "cards", [PlayCard(card), PASS], phase="draw")
    assert strategy.plan_serial != plan


def test_the_knowledge_follows_the_new_plan():
    """What a plan worked out is worked out again in the next: a rival general arriving next to
    a settlement raises the garrison the new plan wants there (the threat, CB-3)."""
    game = shopping_game()
    strategy = make("economist")
    view = game.view(0)
    strategy.choose(view, Decision("purchase", 0, (PASS, PASS), {}))
    succoth = game.state.settlements[sid(game, "Succoth")]
    calm = strategy.wanted_garrison(view, succoth.id)
    add_general(game, "Samson", 1, game.board.neighbours[succoth.hex][0], troops=6)
    view = game.view(0)
    strategy.choose(view, Decision("purchase", 0, (PASS, PASS), {}))
    assert strategy.wanted_garrison(view, succoth.id) > calm


# -- one home for every rule ---------------------------------------------------------------------
def ambush_game(rules: dict, item: str, field: bool):
    """Seat 0 defends (its settlement Megiddo, or its army on an open plain) against seat 1's
    Tola carrying ``item``; seat 0 holds an Ambush. Seat 0 is far stronger than Tola's base."""
    game = blank_game(phase=Phase.COMBAT, rules=rules)
    megiddo = hex_of(game, "Megiddo")
    hx = next(h for h in game.board.neighbours[megiddo] if game.board.settlement_at[h] < 0
              and game.board.terrain[h] == 0) if field else megiddo
    if not field:
        own(game, "Megiddo", 0, garrison=10)
    add_general(game, "Abimelech", 0, hx, troops=6)
    add_general(game, "Tola", 1, hx, items=(item,))
    game.state.assaults[hx] = 1
    card = give_hand(game, 0, "Ambush")[0]
    return game, hx, card


@pytest.mark.parametrize("item,key,field", [("Goliath's Sword", "sword_strength", False),
                                            ("War Chariot", "chariot_strength", True)])
def test_cb_3_an_ambush_is_weighed_with_the_engines_strength_of_the_item(item, key, field):
    """CB-3: the strength an Ambush takes away is ``general_strength``: Goliath's Sword
    (``cards.sword_strength``) and the War Chariot on an open plain (``cards.chariot_strength``).
    Against a weak attacker the card is kept; made strong by its item, it is played."""
    answers = []
    for strength in (0, 40):
        game, hx, card = ambush_game({"cards": {key: strength}}, item, field)
        answers.append(ask(make("warlord"), game, "battle_cards", [PlayCard(card), PASS], hex=hx))
    assert answers == [PASS, PlayCard(answers[1].card)]


@pytest.mark.parametrize("dies_at_or_below,takes", [(1, False), (2, True)])
def test_9_4_the_escort_against_a_plague_follows_plague_dies_at_or_below(dies_at_or_below, takes):
    """9.4: with a Plague coming, a general leading too few troops to survive a hit takes an
    escort before marching; how few is ``plague.dies_at_or_below``."""
    game = blank_game(phase=Phase.MOVEMENT, rules={"plague": {"dies_at_or_below": dies_at_or_below}})
    home = own(game, "Mahanaim", 0, garrison=8)
    game.state.players[0].home = home
    add_general(game, "Joab", 0, "Mahanaim", troops=2)
    game.state.event_area.append(take_card(game, "Plague"))
    strategy = make("judge-rush")
    assert strategy.escort(game.view(0)) == max(2, dies_at_or_below + 1)
    choice = ask(strategy, game, "movement", phases.movement_options(game, 0) + [PASS])
    assert isinstance(choice, TakeTroops) == takes


@pytest.mark.parametrize("rules,gain", [({}, 2 * (1 + 3)), ({"income": {"tax_multiplier": 3, "village": 2}}, 3 * (2 + 4))])
def test_in_1_to_in_3_a_tax_is_valued_with_the_engines_income_and_tax(rules, gain):
    """IN-1..IN-3: a Tax's gain is the engine's ``tax_gain``: the multiplier times what the
    region's settlements pay, a besieged one (ours here) paying nothing to anybody."""
    game = blank_game(phase=Phase.DRAW, rules=rules)
    own(game, "Megiddo", 1, garrison=1)
    own(game, "Jezreel", 1, garrison=1, developments=1)
    own(game, "Samaria", 0, garrison=1)
    game.state.sieges[hex_of(game, "Samaria")] = Siege(1, 1)
    view = game.view(0)
    assert make("schemer").region_tax_value(view, "Israel") == (gain, 0)
    game.state.sieges.clear()
    view = game.view(0)
    own_income = game.rules.income.village
    assert make("schemer").region_tax_value(view, "Israel") == (gain + game.rules.income.tax_multiplier * own_income,
                                                                own_income)


@pytest.mark.parametrize("strength", [3, 5])
def test_w_4_the_invaders_expected_are_weighed_with_invader_strength(strength):
    """W-4, W-5: the pair expected at one of ours next Combat is as strong as the engine says
    (``invaders.strength``)."""
    game = blank_game(phase=Phase.ACQUISITIONS, rules={"invaders": {"strength": strength}})
    target = own(game, "Mahanaim", 0, garrison=2)
    names = [game.state.invader_pool.pop(0), game.state.invader_pool.pop(0)]  # invaders of the pool (9.5)
    game.state.pairs.append(InvaderPair(names, [6, 6], None, target))
    view = game.view(0)
    strategy = make("economist")
    strategy.choose(view, Decision("purchase", 0, (PASS, PASS), {}))
    assert strategy.invader_next(view) == {target: invader_strength(game.rules, (6, 6))} == {target: 2 * strength + 12}


@pytest.mark.parametrize("prophet_killed,kills", [(3, True), (5, False)])
def test_w_1_killing_a_prophets_carrier_is_weighed_with_the_wrath_it_adds(prophet_killed, kills):
    """W-1: an Assassin aimed at a Prophet's carrier adds ``wrath.assassin`` and
    ``wrath.prophet_killed``; a strategy capped at 6 Wrath sees whether that stays under its cap."""
    game = blank_game(phase=Phase.DRAW, rules={"wrath": {"prophet_killed": prophet_killed}})
    game.state.wrath = 2
    own(game, "Mahanaim", 0, garrison=2)
    add_general(game, "Isaiah", 1, "Dor", items=("Prophet",))
    view = game.view(0)
    strategy = make("economist")  # wrath_cap 6
    strategy.choose(view, Decision("cards", 0, (PASS, PASS), {"phase": "draw"}))
    assert (strategy.assassin_value(view, "Isaiah") is not None) == kills


def test_an_2_w_3_the_prophet_aims_only_while_the_engine_says_it_does():
    """AN-2, W-3: the prophet aims the invaders when it owns the earliest Prophet in play (the
    engine's ``prophet_owner``), not merely when it carries one."""
    game = blank_game(phase=Phase.DRAW)
    own(game, "Mahanaim", 0, garrison=2)
    add_general(game, "Isaiah", 1, "Dor", items=("Prophet",))
    add_general(game, "Samuel", 0, "Mahanaim", items=("Prophet",))
    strategy = make("prophet")
    view = game.view(0)
    assert not strategy.aims(view) and strategy.my_carrier(view) is None
    game.state.prophets.reverse()
    view = game.view(0)
    assert strategy.aims(view) and strategy.my_carrier(view) == "Samuel"


@pytest.mark.parametrize("melted", [0, 2])
def test_st_4_a_settlement_is_priced_once_for_the_home_and_the_goals(melted):
    """ST-4, CB-3: a Canaanite town's price is its defence once the wall has melted (the last
    value of ``defence.wall_by_siege_round``), the same for choosing a home and the goals."""
    game = blank_game(rules={"defence": {"wall_by_siege_round": (4, 2, melted)}})
    view = game.view(0)
    strategy = make("judge-rush")
    town = sid(game, "Ramoth-Gilead")
    garrison = game.state.settlements[town].garrison
    assert strategy.settlement_cost(view, town) == 5.0 + 1.5 * (garrison + melted)
    home = strategy.home_score(view, sid(game, "Mahanaim"), hex_of(game, "Mahanaim"), [])
    cheaper = make("judge-rush")
    game.state.settlements[town].garrison = 0
    view = game.view(0)
    assert cheaper.home_score(view, sid(game, "Mahanaim"), hex_of(game, "Mahanaim"), []) > home


# -- invaders are generals for the cards (W-6) ---------------------------------------------------
def invaded(reading: str = "generals"):
    """Seat 0 (a scripted strategy) holds walled Megiddo, Israel's Judge city, with 2 troops and
    its Judge; a pair of two strong invaders is aimed at it for this Combat."""
    game = blank_game(2, phase=Phase.COMBAT, rules={"cards": {"draw_per_round": 0},
                                                    "invaders": {"reading": reading}})
    city = own(game, "Megiddo", 0, garrison=2, city=True)
    game.state.regions["Israel"].city = city
    judge = add_general(game, "Joab", 0, "Megiddo")
    from tests.helpers import effects
    effects.give_title(game, judge, "Israel")
    names = [game.state.invader_pool.pop(0), game.state.invader_pool.pop(0)]
    game.state.pairs.append(InvaderPair(names, [6, 6], None, city))
    return game, city


@pytest.mark.parametrize("name", ["economist", "judge-rush", "warlord", "schemer"])
def test_w_6_a_defender_holding_an_ambush_plays_it_against_an_incoming_pair(name):
    """W-6: a scripted defender weighs an Ambush against invaders as against players: here it
    saves its Judge's city, which the pair would otherwise take (W-4)."""
    game, city = invaded()
    give_hand(game, 0, "Ambush")
    game.strategies = [make(name, 0), make("random", 1)]
    events = []
    game.log = events.append
    game.run_phase()
    assert [e["cause"] for e in events if e["event"] == "invader_death"] == ["ambush", "ambush"]
    assert game.state.settlements[city].standing and not game.state.pairs


def test_w_6_an_assassin_strikes_an_invader_bound_for_its_judges_city():
    """W-6: outside Combat a scripted strategy weighs an Assassin on a loose invader by what it
    saves, against its appetite for Assassins as for a general: one bound next for its Judge's
    city is worth the card to the schemer (``invader_kill_value``), one bound for a rival's is
    worth nothing."""
    game, city = invaded()
    game.state.phase = Phase.DRAW
    pair = game.state.pairs[0]
    pair.at, pair.target = sid(game, "Dor"), None  # it stands on Dor, and Megiddo is next on the ring
    own(game, "Dor", 1, garrison=0)
    game.state.settlements[sid(game, "Dor")].razed = True
    add_general(game, "Ehud", 0, "Megiddo")
    view = game.view(0)
    assert game.table().core.invader_target(pair.at, pair.target) == city
    strategy = make("schemer")
    strategy.choose(view, Decision("cards", 0, (PASS, PASS), {"phase": "draw"}))
    assert strategy.invader_kill_value(view, pair.names[0]) > 0
    [assassin] = give_hand(game, 0, "Assassin")
    from tests.helpers import cardplay
    options = cardplay.window_options(game, 0, "draw") + [PASS]
    answer = ask(strategy, game, "cards", options, phase="draw")
    assert isinstance(answer, PlayCard) and answer.target in pair.names
    game.state.settlements[city].owner = 1
    view = game.view(0)
    strategy = make("schemer")
    strategy.choose(view, Decision("cards", 0, (PASS, PASS), {"phase": "draw"}))
    assert strategy.invader_kill_value(view, pair.names[0]) is None
