"""The manual read closer (issue 20): GN-2, MV-2 (in test_rules_movement), TI-6 and TI-13 as
the manual says them, and the switches the manual leaves open or a designer tries against the
seat imbalance (SU-2's home order and seat coins, W-2's cup after a release), each on a small
hand-built position."""

from __future__ import annotations

import pytest

from plsim.board import Terrain
from plsim.engine.cards import PROPHET, kind_of
from plsim.engine.game import Game
from plsim.rules import rules_from_mapping
from plsim.strategy import Choose

from helpers import (
    FixedDice, Scripted, add_general, blank_game, effects, events_of, later_round, make_judge, own, passing,
    plain_hex_near, take_card, titles,
)

NO_DICE = {"combat": {"dice": 0}, "cards": {"draw_per_round": 0}}


def logged(g) -> list[dict]:
    events: list[dict] = []
    g.log = events.append
    return events


def asked(g, kind: str) -> list[tuple[int, object]]:
    """(seat, decision) of every decision of ``kind`` the strategies were asked."""
    return [(s.seat, d) for s in g.strategies for d in s.asked if d.kind == kind]


# GN-2: the Prophet of a captured carrier
def captured_prophet_game(reading: str = "keep"):
    """Seat 1's Prophet carrier Isaiah, beaten in the field by seat 0 and taken captive."""
    g = blank_game(2, rules={**NO_DICE, "items": {"captured_prophet": reading}},
                   strategies=[Scripted(0, lambda v, d: Choose("plain") if d.kind == "prophet_terrain" else None),
                               Scripted(1, lambda v, d: Choose("desert") if d.kind == "prophet_terrain" else None)])
    field = plain_hex_near(g, "Dor")
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Joab", 0, field, troops=4)
    isaiah = add_general(g, "Isaiah", 1, field, items=("Prophet", "Squire"))
    g.state.assaults[field] = 0
    g.state.phase = g.state.phase.COMBAT
    g.run_phase()
    assert isaiah.captor == 0
    return g, isaiah


def test_gn_2_a_captured_carrier_keeps_its_prophet_and_its_owner_still_chooses_the_terrain():
    """GN-2 [M: "the privilege survives capture — the owner decides, not the captor"]: the
    captive keeps the Prophet (its other items go to the discard pile), and the next event's
    terrain is chosen by the captive's owner, not by its captor and not by the die."""
    g, isaiah = captured_prophet_game()
    assert [kind_of(c) for c in isaiah.items] == [PROPHET]
    assert effects.prophet_owner(g) == 1 and g.state.prophets == list(isaiah.items)
    assert any(kind_of(c) == "Squire" for c in g.state.discard)
    g.state.event_area.append(take_card(g, "Abundance"))
    g.state.phase = g.state.phase.ANNOUNCEMENTS
    g.run_phase()
    assert [seat for seat, _ in asked(g, "prophet_terrain")] == [1]
    assert g.state.terrain_mods[Terrain.DESERT] == 1



def test_gn_2_the_captive_carriers_owner_aims_a_new_pair_and_its_extra_vote_is_lost():
    """GN-2, W-3, TI-10: the captive carrier's owner picks a new invader pair's first target;
    [A] its extra vote is lost while it is captive, like a captive Judge's (TI-4)."""
    g, isaiah = captured_prophet_game()
    own(g, "Gaza", 1, garrison=1)
    assert titles.votes_of(g, 1) == 0
    g.rng = FixedDice()
    g.run(effects.add_wrath, 13, "test")
    assert [seat for seat, _ in asked(g, "invader_target")] == [1]
    assert len(g.state.pairs) == 1


def test_gn_2_with_the_discard_reading_chance_decides_again():
    """GN-2, ``items.captured_prophet = "discard"``: the captured carrier's Prophet is discarded
    with its other items, and the next event's terrain is rolled."""
    g, isaiah = captured_prophet_game("discard")
    assert isaiah.items == () and effects.prophet_owner(g) is None
    g.state.event_area.append(take_card(g, "Abundance"))
    g.state.phase = g.state.phase.ANNOUNCEMENTS
    g.rng = FixedDice(1)
    g.run_phase()
    assert not asked(g, "prophet_terrain") and g.state.terrain_mods[Terrain.PLAIN] == 1


def test_gn_2_a_freed_carrier_still_carries_the_prophet():
    """GN-2: the Prophet stayed with the captive, so a freed carrier has it."""
    g, isaiah = captured_prophet_game()
    effects.hand_over_captives(g, isaiah.hex, 1)
    assert isaiah.captor is None and [kind_of(c) for c in isaiah.items] == [PROPHET]


# TI-6, TI-13: the next Announcements
def plague_on(g, hex_id: int) -> None:
    """A Plague waiting in the Event Area, striking the terrain of ``hex_id`` and killing there."""
    g.state.event_area.append(take_card(g, "Plague"))
    die = {Terrain.PLAIN: 1, Terrain.MOUNTAIN: 3, Terrain.DESERT: 5}[g.board.terrain[hex_id]]
    g.rng = FixedDice(die, then=6)  # the terrain, then every Plague die hits


def test_ti_6_a_judge_killed_by_an_event_in_announcements_is_replaced_in_the_next_ones():
    """TI-6 [M: filled "in the next Announcements"]: a Judge killed by an event while the
    Announcements are resolved leaves the title vacant through those Announcements; the
    Announcements of the next round fill it."""
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    judge = add_general(g, "Tola", 0, "Megiddo")  # commands no troop: the Plague kills it
    make_judge(g, judge, "Israel", "Megiddo", garrison=0)
    add_general(g, "Joab", 0, "Megiddo", troops=6)
    plague_on(g, g.board.settlement_by_name("Megiddo").hex)
    events = logged(g)
    g.run_phase()
    assert "Tola" not in g.state.generals and g.state.regions["Israel"].holder is None
    assert not events_of(events, "judge") and not asked(g, "appoint")
    while g.state.phase is not g.state.phase.ANNOUNCEMENTS:
        g.run_phase()
    g.run_phase()
    assert g.state.regions["Israel"].holder == "Joab" and events_of(events, "judge")


def test_ti_13_a_king_killed_by_an_event_in_announcements_gets_a_successor_in_the_next_ones():
    """TI-13 [M]: without an Anointed heir, the dead King's player names a successor in the
    Announcements after the death: not in those where an event killed the King, and no election
    runs meanwhile."""
    g = blank_game(3, rules=NO_DICE, strategies=passing(3))
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Samuel", 0, "Dor")  # commands no troop: the Plague kills it
    effects.crown(g, king, "test")
    add_general(g, "Joshua", 0, "Dor", troops=6)
    add_general(g, "Ibzan", 0, plain_hex_near(g, "Dor"), troops=6)
    make_judge(g, add_general(g, "Joab", 1, "Megiddo", troops=6), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 2, "Gaza", troops=6), "Philistia", "Gaza")
    plague_on(g, g.board.settlement_by_name("Dor").hex)
    events = logged(g)
    g.run_phase()
    assert g.state.king is None and g.state.succession_pending == 0
    assert not asked(g, "successor") and not events_of(events, "election")
    while g.state.phase is not g.state.phase.ANNOUNCEMENTS:
        g.run_phase()
    g.rng = FixedDice(then=1)
    g.run_phase()
    assert g.state.king == "Ibzan" and [seat for seat, _ in asked(g, "successor")] == [0]
    assert not events_of(events, "election")


def test_ti_6_a_vacancy_of_an_earlier_round_is_filled_in_these_announcements():
    """TI-6: a title that fell vacant before these Announcements began is filled in them."""
    g = blank_game(2)
    judge = add_general(g, "Tola", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    add_general(g, "Joab", 0, "Megiddo")
    g.run(effects.kill_general, judge, None, "test")
    g.run(titles.fill_vacancies)
    assert g.state.regions["Israel"].holder is None  # fell vacant this very round
    later_round(g)
    g.run(titles.fill_vacancies)
    assert g.state.regions["Israel"].holder == "Joab"


# SU-2: the order homes are chosen in, and extra coins per seat
def setup_events(overrides: dict, seed: int = 3) -> list[dict]:
    """The events of a fresh 4-player game's setup under these rule overrides."""
    events: list[dict] = []
    Game.new(blank_game(4).board, rules_from_mapping(overrides), [Scripted(seat) for seat in range(4)], seed,
             log=events.append)
    return events


@pytest.mark.parametrize("order, homes, deals", [
    ("turn", [0, 1, 2, 3], [0, 1, 2, 3]),
    ("reverse", [3, 2, 1, 0], [3, 2, 1, 0]),
    ("snake", [0, 1, 2, 3], [3, 2, 1, 0]),
])
def test_su_2_home_order_sets_who_chooses_a_home_first_and_who_is_dealt_first(order, homes, deals):
    """SU-2, ``setup.home_order``: turn order, its reverse, or a snake (homes in turn order, the
    generals and cards dealt back again, the last to choose first)."""
    events = setup_events({"setup": {"home_order": order}})
    assert [e["seat"] for e in events if e["event"] == "home"] == homes
    assert [e["seat"] for e in events if e["event"] == "general"][::2] == deals


def test_su_2_a_random_home_order_is_drawn_from_the_games_generator():
    """SU-2, ``setup.home_order = "random"``: one order per game, the same for the same seed,
    and not always the turn order."""
    def order(seed: int) -> list[int]:
        return [e["seat"] for e in setup_events({"setup": {"home_order": "random"}}, seed) if e["event"] == "home"]

    orders = [order(seed) for seed in range(12)]
    assert all(sorted(o) == [0, 1, 2, 3] for o in orders)
    assert order(5) == order(5) and any(o != [0, 1, 2, 3] for o in orders)


def test_su_2_seat_coins_add_starting_coins_per_seat():
    """SU-2, IN-4: ``setup.seat_coins`` adds to each seat's starting coins."""
    state = blank_game(4, seed=1, rules={"setup": {"seat_coins": [0, 2, 0, 5, 0, 0]}}).state
    assert [p.coins for p in state.players] == [10, 12, 10, 15]


# W-2: the cup after a release
def test_w_2_after_release_at_threshold_minus_one_keeps_the_cup_full():
    """W-2, ``wrath.after_release = threshold - 1`` (the strict reading: only a Guilt Sacrifice
    lowers the cup): after a pair is let loose the cup stays one short of the threshold."""
    g = blank_game(2, rules={"wrath": {"after_release": 12}})
    own(g, "Gaza", 0, garrison=1)
    g.rng = FixedDice()
    g.run(effects.add_wrath, 13, "test")
    assert len(g.state.pairs) == 1 and g.state.wrath == 12
    g.run(effects.add_wrath, 1, "test")
    assert len(g.state.pairs) == 2 and g.state.wrath == 12
