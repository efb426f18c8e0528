"""Income (RULES.md section 5, IN-1..IN-5) and Setup (section 6, SU-1..SU-4), each on a small
hand-built position."""

from __future__ import annotations

from collections import Counter

import pytest

from plsim.board import Terrain, board_from_data, default_board
from plsim.engine.cards import Category, Phase, category_of, full_deck, kind_of
from plsim.engine.game import Game
from plsim.engine.state import Siege
from plsim.rules import Rules, rules_from_mapping
from plsim.strategy import PASS, Choose, PlayCard, judge_title

from helpers import (
    FixedDice, Scripted, add_general, blank_game, cardplay, give_hand, hex_of, own, passing, phases, sid, take_card,
)

NO_DRAW = {"cards": {"draw_per_round": 0}}


def income_of(game) -> list[int]:
    """Run the Income phase and return what each seat collected."""
    before = [p.coins for p in game.state.players]
    assert game.state.phase is Phase.INCOME
    game.run_phase()
    return [p.coins - b for p, b in zip(game.state.players, before)]


def tax_rule(region):
    def rule(view, decision):
        if decision.kind == "cards":
            for option in decision.options:
                if isinstance(option, PlayCard) and kind_of(option.card) == "Tax" and option.target == region:
                    return option
        return None

    return rule


# IN-1
def test_in_1_village_1_city_3_plus_2_per_development():
    """IN-1: a village yields 1, a city 3, plus 2 per development; Canaanite settlements pay nobody."""
    g = blank_game(2, phase=Phase.INCOME)
    own(g, "Megiddo", 0, garrison=1)
    own(g, "Shechem", 0, garrison=1, city=True)
    own(g, "Jezreel", 1, garrison=1, developments=2)
    own(g, "Samaria", 1, garrison=1, city=True, developments=1)
    assert income_of(g) == [1 + 3, 5 + 5]
    assert [p.income for p in g.state.players] == [4, 10]


def test_in_1_famine_and_abundance_act_on_their_terrain_only():
    """IN-1: +1 per Abundance and -1 per Famine on the settlement's terrain this round."""
    g = blank_game(2, phase=Phase.INCOME)
    assert g.board.terrain[hex_of(g, "Tekoa")] == Terrain.DESERT
    assert g.board.terrain[hex_of(g, "Megiddo")] == Terrain.PLAIN
    own(g, "Megiddo", 0, garrison=1, developments=1)  # plain, 3
    own(g, "Tekoa", 1, garrison=1)  # desert, 1
    g.state.terrain_mods[Terrain.PLAIN] = -1  # a Famine on the plain
    g.state.terrain_mods[Terrain.DESERT] = +1  # an Abundance on the desert
    assert income_of(g) == [2, 2]


def test_in_1_income_never_below_0_under_two_famines():
    """IN-1: two Famines on a village's terrain make it yield 0, never -1."""
    g = blank_game(2, phase=Phase.INCOME)
    own(g, "Megiddo", 0, garrison=1)
    own(g, "Jezreel", 0, garrison=1, developments=1)
    g.state.terrain_mods[Terrain.PLAIN] = -2
    assert income_of(g) == [0 + 1, 0]


def test_in_1_a_famine_drawn_last_round_lowers_this_rounds_income():
    """IN-1, AN-2: a Famine resolved in Announcements lands on a terrain (a d6: 1-2 plain) and
    lowers the income of that terrain's settlements in the same round."""
    g = blank_game(2, rules=NO_DRAW, phase=Phase.ANNOUNCEMENTS)
    own(g, "Megiddo", 0, garrison=1, developments=1)  # plain
    own(g, "Tekoa", 1, garrison=1)  # desert
    g.state.event_area.append(take_card(g, "Famine"))
    g.rng = FixedDice(1)  # the die shows 1: the plain
    g.run_phase()  # Announcements
    g.run_phase()  # Draw Cards
    assert income_of(g) == [2, 1]


def test_in_1_famine_lasts_one_round_only():
    """IN-1: a Famine counts "this round": the next round's income is back to normal."""
    g = blank_game(2, rules=NO_DRAW, phase=Phase.INCOME, strategies=passing(2))
    own(g, "Megiddo", 0, garrison=1, developments=1)
    g.state.terrain_mods[Terrain.PLAIN] = -1
    assert income_of(g) == [2, 0]
    while g.state.phase is not Phase.INCOME:
        g.run_phase()
    assert g.state.round == 2 and g.state.terrain_mods == [0, 0, 0, 0]
    assert income_of(g) == [3, 0]


# IN-2
def test_in_2_a_besieged_settlement_yields_nothing():
    """IN-2: a besieged settlement yields nothing; the owner's other settlements still pay."""
    g = blank_game(2, phase=Phase.INCOME)
    own(g, "Megiddo", 0, garrison=1, developments=2)
    own(g, "Shechem", 0, garrison=1, city=True)
    besieged = hex_of(g, "Megiddo")
    add_general(g, "Joab", 1, besieged)
    g.state.sieges[besieged] = Siege(1, g.state.round)
    assert income_of(g) == [3, 0]


def test_in_2_a_besieged_settlement_in_a_taxed_region_pays_the_taxer_nothing_either():
    """IN-2, IN-3: a besieged settlement yields nothing at all, so a Tax on its region collects
    nothing from it (the region's other settlements still pay the taxer double)."""
    g = blank_game(2, phase=Phase.INCOME)
    own(g, "Megiddo", 0, garrison=1, developments=2)  # 5, besieged
    own(g, "Shechem", 0, garrison=1)  # 1
    besieged = hex_of(g, "Megiddo")
    add_general(g, "Joab", 1, besieged)
    g.state.sieges[besieged] = Siege(1, g.state.round)
    g.state.taxed["Israel"] = 1
    assert income_of(g) == [0, 2 * 1]


# IN-3
def test_in_3_tax_makes_a_region_pay_double_to_the_taxer():
    """IN-3: Tax, played in Draw Cards, makes the region's settlements yield nothing to their
    owners this round; the taxer collects double their IN-1 value (player-owned ones only), and
    Wrath rises by 1 (W-1)."""
    g = blank_game(3, rules=NO_DRAW, phase=Phase.DRAW,
                   strategies=[Scripted(0), Scripted(1, tax_rule("Israel")), Scripted(2)])
    own(g, "Megiddo", 0, garrison=1)  # Israel, 1
    own(g, "Shechem", 2, garrison=1, city=True, developments=1)  # Israel, 5
    own(g, "Hebron", 0, garrison=1)  # Judah: untouched, 1
    own(g, "Dan", 1, garrison=1)  # Israel, the taxer's own village: 1
    assert g.state.settlements[sid(g, "Hazor")].owner == -1  # Israel's Canaanite town pays nobody
    give_hand(g, 1, "Tax")
    g.run_phase()
    assert g.state.taxed == {"Israel": 1} and g.state.wrath == 1
    assert income_of(g) == [1, 2 * (1 + 5 + 1), 0]


def test_in_3_tax_by_the_regions_judge_costs_no_wrath_and_taxing_is_only_in_draw_cards():
    """IN-3, W-1, DR-4: the region's own Judge taxes without Wrath."""
    g = blank_game(2, rules=NO_DRAW, phase=Phase.DRAW,
                   strategies=[Scripted(0), Scripted(1, tax_rule("Israel"))])
    shechem = own(g, "Shechem", 1, garrison=1, city=True)
    own(g, "Megiddo", 0, garrison=1)
    judge = add_general(g, "Caleb", 1, "Shechem")
    g.state.regions["Israel"].city = shechem
    g.state.regions["Israel"].holder = judge.name
    judge.title = judge_title("Israel")
    give_hand(g, 1, "Tax")
    g.run_phase()
    assert g.state.taxed == {"Israel": 1} and g.state.wrath == 0
    assert income_of(g) == [0, 2 * (3 + 1)]


# IN-4
def test_in_4_every_player_starts_with_10_coins():
    """IN-4: starting coins are 10 (economy.start_coins), a parameter."""
    board = default_board()
    g = Game.new(board, Rules(), [Scripted(s) for s in range(3)], seed=5, check=True)
    assert [p.coins for p in g.state.players] == [10, 10, 10]
    g = Game.new(board, rules_from_mapping({"economy": {"start_coins": 4}}), [Scripted(s) for s in range(2)], seed=5)
    assert [p.coins for p in g.state.players] == [4, 4]


def test_in_4_coins_never_go_below_zero():
    """IN-4: a player is offered only what they can pay for, so coins never go negative."""
    g = blank_game(2, phase=Phase.ACQUISITIONS)
    megiddo = own(g, "Megiddo", 0, garrison=1)
    g.state.players[0].coins = 1
    assert phases.purchase_options(g, 0) == []
    g.state.players[0].coins = 3

    def greedy(view, decision):
        if decision.kind == "purchase":
            return next((o for o in decision.options if o is not PASS), PASS)
        return None

    g.strategies[0] = Scripted(0, greedy)
    g.run_phase()
    assert g.state.players[0].coins == 1 and g.state.settlements[megiddo].garrison == 2


# IN-5
def test_in_5_a_region_is_taxed_only_once_per_round():
    """IN-5: once a region is taxed this round, no other Tax can target it; other regions can."""
    g = blank_game(2, rules=NO_DRAW, phase=Phase.DRAW,
                   strategies=[Scripted(0, tax_rule("Israel")), Scripted(1, tax_rule("Israel"))])
    own(g, "Megiddo", 0, garrison=1)
    own(g, "Hebron", 1, garrison=1)
    give_hand(g, 0, "Tax")
    give_hand(g, 1, "Tax")
    assert PlayCard(g.state.players[1].hand[0], "Israel") in cardplay.window_options(g, 1, Phase.DRAW)
    g.run_phase()
    assert g.state.taxed == {"Israel": 0}
    targets = {o.target for o in cardplay.window_options(g, 1, Phase.DRAW)}
    assert "Israel" not in targets and "Judah" in targets
    assert len(g.state.players[1].hand) == 1  # seat 1 could not tax Israel again


# SU-1
def test_su_1_the_deck_is_shuffled_with_the_games_seed():
    """SU-1: the same seed gives the same deck order and the same setup; another seed another."""
    board = default_board()

    def setup(seed):
        g = Game.new(board, Rules(), [Scripted(s) for s in range(3)], seed=seed, check=True)
        return (
            list(g.state.deck),
            [list(p.hand) for p in g.state.players],
            sorted((gen.name, gen.owner, tuple(gen.items)) for gen in g.state.generals.values()),
        )

    assert setup(11) == setup(11)
    assert setup(11)[0] != setup(12)[0]
    deck = setup(11)[0]
    assert Counter(deck) <= Counter(full_deck(Rules())) and len(deck) == 88 - 3 * 4


# SU-2
def test_su_2_homes_are_free_existing_settlements_with_2_troops_chosen_in_turn_order():
    """SU-2: in turn order each player picks a home among the free settlements that exist in this
    game (never a Canaanite one, never Edom with 2 players); the home starts with 2 troops."""
    asked = []

    def pick(name):
        def rule(view, decision):
            if decision.kind == "home":
                asked.append((decision.seat, {o.value for o in decision.options}))
                return Choose(view.board.settlement_by_name(name).id)
            return None

        return rule

    board = default_board()
    g = Game.new(board, Rules(), [Scripted(0, pick("Megiddo")), Scripted(1, pick("Gath"))], seed=3, check=True)
    assert [seat for seat, _ in asked] == [0, 1]
    free_existing = {s.id for s in board.settlements if not s.canaanite and s.min_players <= 2}
    assert asked[0][1] == free_existing
    assert asked[1][1] == free_existing - {sid(g, "Megiddo")}
    assert not any(board.settlements[s].region == "Edom" for s in asked[0][1])
    for seat, name in ((0, "Megiddo"), (1, "Gath")):
        st = g.state.settlements[sid(g, name)]
        assert g.state.players[seat].home == st.id and st.owner == seat and st.garrison == 2


def test_su_2_a_home_is_never_adjacent_to_another_players_home():
    """SU-2: a home may not be next to another player's home (on a small map where two
    settlements touch)."""
    board = board_from_data({
        "width": 8, "height": 3, "terrain": ["PPPPPPPP", "PPPPPPPP", "PPPPPPPP"],
        "settlements": [{"name": "A", "col": 0, "row": 1}, {"name": "B", "col": 1, "row": 1},
                        {"name": "C", "col": 4, "row": 1}, {"name": "D", "col": 7, "row": 1}],
    })
    assert board.distance(board.settlements[0].hex, board.settlements[1].hex) == 1
    asked = {}

    def rule(view, decision):
        if decision.kind == "home":
            asked[decision.seat] = {o.value for o in decision.options}
            return Choose(0) if decision.seat == 0 else None
        return None

    g = Game.new(board, Rules(), [Scripted(0, rule), Scripted(1, rule)], seed=1)
    assert asked[0] == {0, 1, 2, 3}
    assert asked[1] == {2, 3}  # A is taken, B touches it
    assert g.state.players[1].home == 2


# SU-3
def test_su_3_each_player_gets_2_generals_at_home_and_2_item_or_one_use_cards():
    """SU-3: each player receives 2 generals from the deck's generals, placed at home, and 2 cards
    drawn from the items and one-use cards; an item is attached at once (DR-2); no event is dealt."""
    board = default_board()
    for seed in range(6):
        g = Game.new(board, Rules(), [Scripted(s) for s in range(4)], seed=seed, check=True)
        assert not g.state.event_area
        for player in g.state.players:
            home_hex = g.state.settlements[player.home].hex
            mine = [gen for gen in g.state.generals.values() if gen.owner == player.seat]
            assert len(mine) == 2 and all(gen.hex == home_hex for gen in mine)
            items = [c for gen in mine for c in gen.items]
            assert all(category_of(c) is Category.ITEM for c in items)
            assert all(category_of(c) is Category.ONE_USE for c in player.hand)
            assert len(items) + len(player.hand) == 2


def test_su_3_setup_counts_are_parameters():
    """SU-3: setup.generals, setup.cards and setup.home_garrison can be overridden."""
    rules = rules_from_mapping({"setup": {"generals": 1, "cards": 3, "home_garrison": 5}})
    g = Game.new(default_board(), rules, [Scripted(s) for s in range(2)], seed=2, check=True)
    for player in g.state.players:
        mine = [gen for gen in g.state.generals.values() if gen.owner == player.seat]
        assert len(mine) == 1
        assert len(player.hand) + sum(len(gen.items) for gen in mine) == 3
        assert g.state.settlements[player.home].garrison == 5


# SU-4
@pytest.mark.parametrize("distance", [2, 3])
def test_su_4_homes_at_least_home_min_distance_hexes_apart(distance):
    """SU-4: "not adjacent" is measured in hexes: homes are at least setup.home_min_distance (2)
    apart; with 3, Jezreel (2 hexes from Megiddo) is no longer offered after Megiddo is taken."""
    board = default_board()
    asked = {}

    def rule(view, decision):
        if decision.kind == "home":
            asked[decision.seat] = {o.value for o in decision.options}
            if decision.seat == 0:
                return Choose(view.board.settlement_by_name("Megiddo").id)
        return None

    rules = rules_from_mapping({"setup": {"home_min_distance": distance}})
    g = Game.new(board, rules, [Scripted(0, rule), Scripted(1, rule)], seed=4)
    megiddo_hex = hex_of(g, "Megiddo")
    assert board.distance(megiddo_hex, hex_of(g, "Jezreel")) == 2
    assert all(board.distance(board.settlements[s].hex, megiddo_hex) >= distance for s in asked[1])
    assert (sid(g, "Jezreel") in asked[1]) == (distance == 2)
    assert sid(g, "Jezreel") in asked[0]
