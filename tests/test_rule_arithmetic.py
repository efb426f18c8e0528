"""The rule arithmetic a strategy reads is the engine's own: each function the view offers
agrees with what the engine then does, with the rule parameters changed too. And because the view
and the engine share that code, each is also pinned to numbers worked by hand from RULES.md
(written as literals, the sum in a comment): a formula changed in both places still fails."""

from __future__ import annotations

import pytest

from plsim.board import Terrain
from plsim.engine.cards import Phase
from plsim.engine.state import Siege
from plsim.engine.view import View
from plsim.strategy import strength_to_win, win_probability

from helpers import FixedDice, add_general, blank_game, cardplay, effects, hex_of, own, phases, sid

ISRAEL = ("Megiddo", "Jezreel", "Samaria", "Shechem")


def view_of(game, seat: int = 0) -> View:
    """The seat's view of the position as it stands now (a table loaded from it)."""
    return game.view(seat)


# IN-1..IN-3 worked by hand for the position below (all four Israel settlements stand on plains,
# struck by a Famine: -1 each; Megiddo is besieged, so it pays nothing, IN-2):
#   default rules:  Megiddo 1+2-1 = 2 (paid 0), Jezreel 1-1 = 0, Samaria 3-1 = 2, Shechem 1-1 = 0
#                   tax gain 2 x (0 + 0 + 2 + 0) = 4
#   varied rules:   Megiddo 2+1-1 = 2 (paid 0), Jezreel 2-1 = 1, Samaria 5-1 = 4, Shechem 2-1 = 1
#                   tax gain 3 x (0 + 1 + 4 + 1) = 18
@pytest.mark.parametrize("rules,values,gain", [
    ({}, (2, 0, 2, 0), 4),
    ({"income": {"tax_multiplier": 3, "village": 2, "city": 5, "development": 1}}, (2, 1, 4, 1), 18),
])
def test_in_1_to_in_3_tax_gain_and_income_paid_are_what_the_income_phase_pays(rules, values, gain):
    """IN-1..IN-3: ``tax_gain`` is what the taxer collects in Income (nothing from a besieged
    settlement, IN-2; this round's Famine included), ``income_paid`` each settlement's part and
    ``settlement_income`` the engine's ``income_of``; each also equals the number worked by hand
    from RULES.md (the comment above), so a changed formula fails even where the view and the
    engine change together."""
    g = blank_game(3, rules={**rules, "cards": {"draw_per_round": 0}}, phase=Phase.INCOME)
    own(g, "Megiddo", 1, garrison=1, developments=1)
    own(g, "Jezreel", 1, garrison=1)
    own(g, "Samaria", 2, garrison=1, city=True)
    own(g, "Shechem", 2, garrison=1)
    g.state.sieges[hex_of(g, "Megiddo")] = Siege(0, 1)
    g.state.terrain_mods[Terrain.PLAIN] = -1  # a Famine on the plains
    g.state.taxed["Israel"] = 0
    view = view_of(g)
    for name in ISRAEL:
        assert view.settlement_income(sid(g, name)) == phases.income_of(g, sid(g, name))
    assert tuple(view.settlement_income(sid(g, name)) for name in ISRAEL) == values
    assert tuple(view.income_paid(sid(g, name)) for name in ISRAEL) == (0, *values[1:])
    assert view.income_paid(sid(g, "Megiddo")) == 0 < view.settlement_income(sid(g, "Megiddo"))
    expected = view.tax_gain("Israel")
    assert expected == gain
    before = g.state.players[0].coins
    g.run_phase()
    assert g.state.players[0].coins - before == expected > 0
    assert expected == g.rules.income.tax_multiplier * sum(view.income_paid(sid(g, name)) for name in ISRAEL)
    assert [p.income for p in g.state.players] == [gain, 0, 0]  # the owners of a taxed region get nothing


@pytest.mark.parametrize("dies_at_or_below", [1, 3])
def test_9_4_plague_kills_is_the_line_the_plague_kills_at(dies_at_or_below):
    """9.4: ``plague_kills`` says which hit generals die (``plague.dies_at_or_below``); the others
    lose troops."""
    g = blank_game(2, rules={"plague": {"dies_at_or_below": dies_at_or_below}})
    field = hex_of(g, "Megiddo")
    at_line = add_general(g, "Joab", 0, field, troops=dies_at_or_below)
    above = add_general(g, "Tola", 0, field, troops=dies_at_or_below + 1)
    view = view_of(g)
    assert view.plague_kills(at_line.troops) and not view.plague_kills(above.troops)
    g.rng = FixedDice(6, 6)  # both generals hit
    cardplay.plague_hex(g, field)
    assert "Joab" not in g.state.generals and g.state.generals["Tola"].troops < dies_at_or_below + 1


@pytest.mark.parametrize("share,lost", [(0.5, 2), (0.25, 1)])  # 5 x 0.5 = 2.5 -> 2; 5 x 0.25 = 1.25 -> 1
def test_cb_6_battle_losses_are_the_winners_losses(share, lost):
    """CB-6: ``battle_losses`` is what the winner of a battle loses (``combat.winner_losses``),
    half the loser's 5 troops rounded down by hand."""
    g = blank_game(2, rules={"combat": {"dice": 0, "winner_losses": share}, "cards": {"draw_per_round": 0}},
                   phase=Phase.COMBAT)
    field = next(h for h in g.board.neighbours[hex_of(g, "Megiddo")]
                 if g.board.settlement_at[h] < 0 and g.board.terrain[h] == Terrain.PLAIN)
    joab = add_general(g, "Joab", 0, field, troops=6)
    add_general(g, "Tola", 1, field, troops=5)
    g.state.assaults[field] = 0
    expected = view_of(g).battle_losses(5)
    g.run_phase()
    assert joab.troops == 6 - expected and expected == int(5 * share) == lost


def test_an_2_w_3_prophet_owner_is_the_engines_and_skips_a_general_about_to_die():
    """AN-2, W-3: the owner of the earliest Prophet in play aims; ``without`` leaves its carrier
    out, as if dead, and the next Prophet's owner aims."""
    g = blank_game(3)
    first = add_general(g, "Isaiah", 1, "Megiddo", items=("Prophet",))
    add_general(g, "Samuel", 2, "Dor", items=("Prophet",))
    view = view_of(g)
    assert view.prophet_carrier().name == first.name
    assert view.prophet_owner() == effects.prophet_owner(g) == 1
    assert view.prophet_owner(without="Isaiah") == 2
    effects.kill_general(g, first, None, "test")
    assert view_of(g).prophet_owner() == effects.prophet_owner(g) == 2


@pytest.mark.parametrize("dice,sides", [(1, 6), (2, 6), (0, 6)])
def test_cb_4_strength_to_win_is_the_smallest_attack_with_the_chance(dice, sides):
    """CB-3, CB-4 read backwards: the smallest attack whose win chance reaches the one asked."""
    for defence in (0, 4, 11):
        for chance in (0.1, 0.5, 0.72, 1.0):
            attack = strength_to_win(chance, defence, dice, sides)
            assert win_probability(attack, defence, dice, sides) >= chance
            assert attack == 0 or win_probability(attack - 1, defence, dice, sides) < chance


# CB-3/CB-4 with one d6 a side worked by hand: the attack wins when its die beats the defence's
# die by more than the strength gap. Equal strengths: 15 of the 36 pairs of dice (5+4+3+2+1);
# one more strength: the 21 pairs with attack die >= defence die (15 + the 6 doubles). With two
# dice a side and equal strengths: (1 - P(equal sums)) / 2, P(equal sums) = (1+4+9+16+25+36+25
# +16+9+4+1) / 1296 = 146/1296, so 1150/2592. A gap of 5 loses only to 1 against 6 (35/36), a gap
# of 6 always wins. With no dice the stronger side wins outright.
@pytest.mark.parametrize("attack,defence,dice,chance", [
    (4, 4, 1, 15 / 36), (5, 4, 1, 21 / 36), (3, 4, 1, 10 / 36), (9, 4, 1, 35 / 36), (10, 4, 1, 1.0), (4, 9, 1, 0.0),
    (4, 4, 2, 1150 / 2592), (5, 4, 0, 1.0), (4, 4, 0, 0.0),
])
def test_cb_3_cb_4_win_probability_by_hand(attack, defence, dice, chance):
    """CB-3, CB-4: ``win_probability`` equals the chance counted by hand over the dice."""
    assert win_probability(attack, defence, dice, 6) == pytest.approx(chance)


@pytest.mark.parametrize("chance,defence,dice,attack", [
    (0.5, 4, 1, 5),  # 4 wins 15/36 < 0.5, 5 wins 21/36 >= 0.5
    (0.4, 4, 1, 4),  # 15/36 = 0.42 >= 0.4
    (1.0, 4, 1, 10),  # only a gap of 6 wins always: 4 + 6
    (0.1, 4, 0, 5),  # no dice: one more than the defence
])
def test_cb_4_strength_to_win_by_hand(chance, defence, dice, attack):
    """CB-4 read backwards: ``strength_to_win`` is the smallest attack worked by hand."""
    assert strength_to_win(chance, defence, dice, 6) == attack


@pytest.mark.parametrize("rules,numbers", [
    ({}, {"joab": 12, "tola": 3, "caleb_open": 6, "caleb_in": 3, "fort": 2, "defence": 23, "cancelled": 21,
          "city": 8, "city_cancelled": 8, "loot_village": 9, "loot_city": 8, "losses_7": 3}),
    ({"cards": {"sword_strength": 4, "chariot_strength": 2}, "defence": {"wall_by_siege_round": [5, 3, 1],
      "city_by_siege_round": [7, 5], "ark": 2}, "loot": {"village": 4, "city": 9, "development": 5},
      "combat": {"winner_losses": 0.25}},
     {"joab": 13, "tola": 3, "caleb_open": 5, "caleb_in": 3, "fort": 3, "defence": 24, "cancelled": 21,
      "city": 9, "city_cancelled": 9, "loot_village": 9, "loot_city": 9, "losses_7": 1}),
])
def test_cb_3_st_4_st_8_strengths_and_defences_by_hand(rules, numbers):
    """CB-3, GN-1, ST-4, ST-8, CB-6, CB-7: the view's strengths, fortification, hex defence,
    losses and loot on a small position equal numbers worked by hand from RULES.md:

    - Joab 4 + 5 troops + Goliath's Sword 3 = 12 (sword 4: 13); Tola 1 + 2 troops = 3 (the Ark
      is no strength of his own);
    - Caleb 2 + 1 troop + War Chariot 3 = 6 on an open plain (chariot 2: 5), 3 in a settlement;
    - Megiddo (wall, garrison 3, besieged since last round: the siege's second round) wall 4
      melts to 2 (table [5, 3, 1]: 3); its defence garrison 3 + wall 2 + Joab 12 + Tola 3 + Ark 3
      = 23 (3 + 3 + 13 + 3 + 2 = 24); with the wall cancelled 21 (21);
    - Samaria, a Judge's city, unbesieged, garrison 2: 2 + 6 = 8 (2 + 7 = 9), and Siege Weapons do
      not cancel a city's bonus;
    - loot: a village with 1 development 3 + 6 = 9 (4 + 5 = 9), a city 8 (9);
    - a winner's losses against 7 troops: 7 x 0.5 = 3.5 -> 3 (7 x 0.25 = 1.75 -> 1)."""
    g = blank_game(3, rules={**rules, "cards": {**rules.get("cards", {}), "draw_per_round": 0}}, phase=Phase.COMBAT)
    g.state.round = 5
    megiddo = own(g, "Megiddo", 1, garrison=3, wall=True, developments=1)
    samaria = own(g, "Samaria", 2, garrison=2, city=True)
    g.state.sieges[hex_of(g, "Megiddo")] = Siege(0, 4)
    add_general(g, "Joab", 1, "Megiddo", troops=5, items=("Goliath's Sword",))
    add_general(g, "Tola", 1, "Megiddo", troops=2, items=("Ark",))
    field = next(h for h in g.board.neighbours[hex_of(g, "Jezreel")]
                 if g.board.settlement_at[h] < 0 and g.board.terrain[h] == Terrain.PLAIN)
    add_general(g, "Caleb", 0, field, troops=1, items=("War Chariot",))
    view = view_of(g)
    generals = view.generals
    assert view.general_strength(generals["Joab"]) == numbers["joab"]
    assert view.general_strength(generals["Tola"]) == numbers["tola"]
    assert view.general_strength(generals["Caleb"], open_plain=True) == numbers["caleb_open"]
    assert view.general_strength(generals["Caleb"], open_plain=False) == numbers["caleb_in"]
    assert view.open_plain(field) and not view.open_plain(hex_of(g, "Megiddo"))
    assert view.siege_rounds(hex_of(g, "Megiddo")) == 1
    assert view.fortification(megiddo, 1) == numbers["fort"]
    assert view.hex_defence(hex_of(g, "Megiddo")) == (numbers["defence"], 1)
    assert view.hex_defence(hex_of(g, "Megiddo"), wall_cancelled=True) == (numbers["cancelled"], 1)
    assert view.settlement_defence(samaria) == numbers["city"]
    assert view.settlement_defence(samaria, wall_cancelled=True) == numbers["city_cancelled"]
    assert view.loot(megiddo) == numbers["loot_village"] and view.loot(samaria) == numbers["loot_city"]
    assert view.battle_losses(7) == numbers["losses_7"]
