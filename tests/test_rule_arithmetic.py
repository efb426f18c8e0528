"""The rule arithmetic a strategy reads is the engine's own: each function the view offers
agrees with what the engine then does, with the rule parameters changed too."""

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


@pytest.mark.parametrize("rules", [
    {},
    {"income": {"tax_multiplier": 3, "village": 2, "city": 5, "development": 1}},
])
def test_in_1_to_in_3_tax_gain_and_income_paid_are_what_the_income_phase_pays(rules):
    """IN-1..IN-3: ``tax_gain`` is what the taxer collects in Income (nothing from a besieged
    settlement, IN-2; this round's Famine included), ``income_paid`` each settlement's part and
    ``settlement_income`` the engine's ``income_of``."""
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
    assert view.income_paid(sid(g, "Megiddo")) == 0 < view.settlement_income(sid(g, "Megiddo"))
    expected = view.tax_gain("Israel")
    before = g.state.players[0].coins
    g.run_phase()
    assert g.state.players[0].coins - before == expected > 0
    assert expected == g.rules.income.tax_multiplier * sum(view.income_paid(sid(g, name)) for name in ISRAEL)


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


@pytest.mark.parametrize("share", [0.5, 0.25])
def test_cb_6_battle_losses_are_the_winners_losses(share):
    """CB-6: ``battle_losses`` is what the winner of a battle loses (``combat.winner_losses``)."""
    g = blank_game(2, rules={"combat": {"dice": 0, "winner_losses": share}, "cards": {"draw_per_round": 0}},
                   phase=Phase.COMBAT)
    field = next(h for h in g.board.neighbours[hex_of(g, "Megiddo")]
                 if g.board.settlement_at[h] < 0 and g.board.terrain[h] == Terrain.PLAIN)
    joab = add_general(g, "Joab", 0, field, troops=6)
    add_general(g, "Tola", 1, field, troops=5)
    g.state.assaults[field] = 0
    expected = view_of(g).battle_losses(5)
    g.run_phase()
    assert joab.troops == 6 - expected and expected == int(5 * share)


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
