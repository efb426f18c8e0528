"""Draw Cards (RULES.md section 7, DR-1..DR-4), each on a small hand-built position."""

from __future__ import annotations

import pytest

from plsim.engine.cards import Category, Phase, category_of, kind_of
from plsim.engine.state import Siege
from plsim.strategy import Choose

from helpers import (
    FixedDice, Scripted, add_general, blank_game, cardplay, combat, effects, events_of, give_hand, hex_of, own, sid,
    take_card,
)


def stack(game, *cards):
    """Put cards on top of the deck: the first one given is drawn first."""
    for card in reversed(cards):
        game.state.deck.append(card)


# DR-1
def test_dr_1_each_player_in_turn_draws_one_card():
    """DR-1: in Draw Cards each player in turn order (from the first player) draws 1 card."""
    g = blank_game(3, phase=Phase.DRAW)
    g.state.first_player = 1
    cards = [take_card(g, kind) for kind in ("Ambush", "Mercenaries", "Siege Weapons")]
    stack(g, *cards)  # seat 1 draws first, then seat 2, then seat 0
    deck = len(g.state.deck)
    g.run_phase()
    assert [p.hand for p in g.state.players] == [[cards[2]], [cards[0]], [cards[1]]]
    assert len(g.state.deck) == deck - 3


def test_dr_1_draw_per_round_is_a_parameter():
    """DR-1: cards.draw_per_round sets how many cards each player draws."""
    g = blank_game(2, rules={"cards": {"draw_per_round": 2}}, phase=Phase.DRAW)
    cards = [take_card(g, kind) for kind in ("Ambush", "Mercenaries", "Siege Weapons", "Secret Passage")]
    stack(g, *cards)
    g.run_phase()
    assert [p.hand for p in g.state.players] == [cards[:2], cards[2:]]


def test_dr_1_an_empty_deck_is_refilled_by_shuffling_the_discard_pile():
    """DR-1: when the deck is empty the discard pile is shuffled into a new deck, then drawn."""
    events: list = []
    g = blank_game(2, phase=Phase.DRAW)
    g.log = events.append
    first, second = take_card(g, "Ambush"), take_card(g, "Mercenaries")
    g.state.discard = g.state.deck + [second, first]
    g.state.deck = []
    pile = len(g.state.discard)
    g.rng = FixedDice()  # the shuffle keeps the order: the last card is drawn first
    g.run_phase()
    assert [e["cards"] for e in events_of(events, "reshuffle")] == [pile]
    assert [p.hand for p in g.state.players] == [[first], [second]]
    assert len(g.state.deck) == pile - 2 and g.state.discard == []


# DR-2
def test_dr_2_a_general_goes_to_an_own_settlement_with_room():
    """DR-2, DR-5: a drawn general is placed at once at one of its owner's settlements with room
    for it (MV-5: at most 2 of a player's generals); the owner chooses which."""
    offered = []

    def rule(view, decision):
        if decision.kind == "place_general":
            offered.append({o.value for o in decision.options})
            return Choose(view.board.settlement_by_name("Shechem").id)
        return None

    g = blank_game(2, phase=Phase.DRAW, strategies=[Scripted(0, rule), Scripted(1)])
    own(g, "Megiddo", 0, garrison=1)
    full = own(g, "Jezreel", 0, garrison=1)
    own(g, "Shechem", 0, garrison=1)
    add_general(g, "Caleb", 0, "Megiddo")
    add_general(g, "Saul", 0, "Jezreel")
    add_general(g, "Jair", 0, "Jezreel")
    g.run(effects.receive_card, 0, "Joab")
    assert offered == [{sid(g, "Megiddo"), sid(g, "Shechem")}]
    assert full not in offered[0]
    assert g.state.generals["Joab"].hex == g.state.settlements[sid(g, "Shechem")].hex


def test_dr_2_a_general_with_no_room_anywhere_is_discarded():
    """DR-2: with no own settlement that has room, a drawn general is discarded."""
    g = blank_game(2, phase=Phase.DRAW)
    own(g, "Jezreel", 0, garrison=1)
    add_general(g, "Saul", 0, "Jezreel")
    add_general(g, "Jair", 0, "Jezreel")
    g.state.deck.remove("Joab")
    g.run(effects.receive_card, 0, "Joab")
    assert "Joab" not in g.state.generals and "Joab" in g.state.discard
    g.state.deck.remove("Ehud")
    g.run(effects.receive_card, 1, "Ehud")  # seat 1 owns nothing at all
    assert "Ehud" not in g.state.generals and "Ehud" in g.state.discard


def test_dr_2_mv_3_no_general_is_placed_into_a_besieged_settlement():
    """DR-2, MV-3: the siege seals the hex, so no reinforcement enters: a drawn general is offered
    only the owner's settlements that are not under siege, and with only besieged ones left it
    is discarded."""
    offered = []

    def rule(view, decision):
        if decision.kind == "place_general":
            offered.append({o.value for o in decision.options})
            return Choose(view.board.settlement_by_name("Shechem").id)
        return None

    g = blank_game(2, phase=Phase.DRAW, strategies=[Scripted(0, rule), Scripted(1)])
    besieged = own(g, "Megiddo", 0, garrison=1)
    unbesieged = {own(g, "Shechem", 0, garrison=1), own(g, "Jezreel", 0, garrison=1)}
    add_general(g, "Saul", 1, "Megiddo")
    g.state.sieges[hex_of(g, "Megiddo")] = Siege(1, g.state.round)
    g.state.deck.remove("Joab")
    g.run(effects.receive_card, 0, "Joab")
    assert offered == [unbesieged] and besieged not in offered[0]
    assert g.state.generals["Joab"].hex == hex_of(g, "Shechem")

    g = blank_game(2, phase=Phase.DRAW)
    own(g, "Megiddo", 0, garrison=1)
    add_general(g, "Saul", 1, "Megiddo")
    g.state.sieges[hex_of(g, "Megiddo")] = Siege(1, g.state.round)
    g.state.deck.remove("Joab")
    events: list[dict] = []
    g.log = events.append
    g.run(effects.receive_card, 0, "Joab")
    assert "Joab" not in g.state.generals and "Joab" in g.state.discard
    assert [(e["seat"], e["card"]) for e in events_of(events, "general_lost")] == [(0, "Joab")]


def test_dr_2_an_item_goes_to_a_chosen_free_general_or_is_discarded():
    """DR-2, DR-5: an item is attached to one of the owner's non-captive generals, chosen by the
    owner; with none, it is discarded."""
    offered = []

    def rule(view, decision):
        if decision.kind == "attach_item":
            offered.append([o.value for o in decision.options])
            return Choose("Saul")
        return None

    g = blank_game(2, strategies=[Scripted(0, rule), Scripted(1)])
    own(g, "Megiddo", 0, garrison=1)
    add_general(g, "Caleb", 0, "Megiddo")
    add_general(g, "Saul", 0, "Megiddo")
    add_general(g, "Jair", 0, "Megiddo", captor=1)  # a captive cannot take it
    sword = take_card(g, "Goliath's Sword")
    g.run(effects.receive_card, 0, sword)
    assert offered == [["Caleb", "Saul"]]
    assert g.state.generals["Saul"].items == (sword,)
    chariot = take_card(g, "War Chariot")
    g.run(effects.receive_card, 1, chariot)  # seat 1 has no general
    assert chariot in g.state.discard


def test_dr_2_a_one_use_card_goes_to_the_hand_and_over_5_the_player_discards_down():
    """DR-2: a one-use card goes to the hand; the hand limit is 5 (cards.hand_limit): with a 6th
    the player chooses a card to discard."""
    asked = []

    def rule(view, decision):
        if decision.kind == "discard":
            asked.append(len(decision.options))
            return next(o for o in decision.options if kind_of(o.value) == "Ambush")
        return None

    g = blank_game(2, phase=Phase.DRAW, strategies=[Scripted(0, rule), Scripted(1)])
    give_hand(g, 0, "Mercenaries", "Mercenaries", "Siege Weapons", "Secret Passage")
    ambush = take_card(g, "Ambush")
    g.run(effects.receive_card, 0, ambush)
    assert len(g.state.players[0].hand) == 5 and not asked
    g.run(effects.receive_card, 0, take_card(g, "Siege Weapons"))
    assert asked == [6]
    assert len(g.state.players[0].hand) == 5
    assert ambush in g.state.discard and ambush not in g.state.players[0].hand


def test_dr_2_an_event_goes_straight_to_the_event_area():
    """DR-2: an event never enters a hand: it goes to the Event Area."""
    g = blank_game(2, phase=Phase.DRAW)
    plague = take_card(g, "Plague")
    stack(g, plague, take_card(g, "Ambush"))
    g.run_phase()
    assert g.state.event_area == [plague]
    assert all(category_of(c) is Category.ONE_USE for p in g.state.players for c in p.hand)


# DR-3
def test_dr_3_a_4th_event_pushes_the_oldest_out():
    """DR-3: the Event Area has 3 slots; a 4th event sends the oldest to the discard pile."""
    g = blank_game(2)
    events = [take_card(g, k) for k in ("Famine", "Abundance", "Plague", "Famine")]
    for card in events[:3]:
        g.run(effects.receive_card, 0, card)
    assert g.state.event_area == events[:3]
    g.run(effects.receive_card, 1, events[3])
    assert g.state.event_area == events[1:]
    assert events[0] in g.state.discard


def test_dr_3_events_resolve_in_the_next_announcements_and_are_then_discarded():
    """DR-3: the events in the Event Area act in the next Announcements, then are discarded."""
    g = blank_game(2, rules={"cards": {"draw_per_round": 0}})
    famine, abundance = take_card(g, "Famine"), take_card(g, "Abundance")
    g.state.event_area[:] = [famine, abundance]
    g.rng = FixedDice(1, 5)  # Famine on the plain, Abundance on the desert
    g.run_phase()
    assert g.state.event_area == []
    assert g.state.discard[-2:] == [famine, abundance]
    assert g.state.terrain_mods[:3] == [-1, 0, 1]


# DR-4
def _kinds(options):
    return {kind_of(o.card) for o in options}


@pytest.mark.parametrize("phase, expected", [
    (Phase.ANNOUNCEMENTS, set()),
    (Phase.DRAW, {"Tax", "Revolt", "Blessing"}),
    (Phase.INCOME, set()),
    (Phase.ACQUISITIONS, {"Blessing"}),
    (Phase.MOVEMENT, {"Revolt"}),
    (Phase.VICTORY, set()),
])
def test_dr_4_tax_only_in_draw_revolt_in_draw_or_movement_blessing_in_draw_or_acquisitions(phase, expected):
    """DR-4: Tax is played only in Draw Cards; Revolt there or in Movement; Blessing there or in
    Acquisitions."""
    g = blank_game(2)
    own(g, "Megiddo", 1, garrison=1)
    g.state.taxed["Judah"] = 1  # Revolt needs a region taxed this round
    give_hand(g, 0, "Tax", "Revolt", "Blessing")
    assert _kinds(cardplay.window_options(g, 0, phase)) == expected


def test_dr_4_none_of_tax_revolt_blessing_inside_a_battle():
    """DR-4: Tax, Revolt and Blessing are not battle cards."""
    g = blank_game(2)
    give_hand(g, 0, "Tax", "Revolt", "Blessing")
    assert combat.battle_card_options(g, 0, True, False) == []


def test_dr_4_revolt_needs_a_region_taxed_this_round():
    """DR-4, 9.3: Revolt targets only a region taxed this round."""
    g = blank_game(2)
    give_hand(g, 0, "Revolt")
    assert cardplay.window_options(g, 0, Phase.MOVEMENT) == []
    g.state.taxed["Israel"] = 1
    assert {o.target for o in cardplay.window_options(g, 0, Phase.MOVEMENT)} == {"Israel"}
