"""Section 14 of RULES.md, Titles (TI-1..TI-13), and plsim's TI-14..TI-17.

Judges are set up with ``make_judge``; Announcements is run whole with ``run_phase`` (AN-1) and
the election is read from the logged ``election`` event, whose ``counts`` every player sees.
"""

from __future__ import annotations

import pytest
from helpers import (
    Scripted,
    add_general,
    blank_game,
    cardplay,
    effects,
    later_round,
    events_of,
    give_hand,
    hex_of,
    make_judge,
    own,
    passing,
    plain_hex_near,
    sid,
    titles,
    victory_points,
)

from plsim.engine.arithmetic import region_settlements
from plsim.engine.cards import Phase
from plsim.engine.state import ASSASSIN_TITLE, KING, Siege, judge_title
from plsim.strategy import RAZE, Buy, Choose, Move, PlayCard

NO_DICE = {"combat": {"dice": 0}}
SYROPHOENICIA = ("Sidon", "Zarephath", "Tyre", "Achzib")


def logged(g) -> list[dict]:
    events: list[dict] = []
    g.log = events.append
    return events


def voters(plan: dict[int, list[str]]):
    """Scripted rules casting each seat's votes in the planned order."""
    def rule_for(seat):
        queue = list(plan.get(seat, []))

        def rule(view, decision):
            if decision.kind == "vote":
                return Choose(queue.pop(0))
            return None

        return rule

    return rule_for


def syrophoenicia_for(g, seat: int, walled: str | None = "Sidon") -> None:
    for name in SYROPHOENICIA:
        own(g, name, seat, garrison=1, wall=name == walled)


# --- TI-1 -----------------------------------------------------------------------------------


def test_ti_1_buying_a_judge_title_when_every_condition_holds() -> None:
    """TI-1: 10 coins in Acquisitions buys a region's Judge title for a free untitled general
    when the region has 4+ standing settlements, no Judge and no city, all of them are the
    buyer's, and the buyer's walled village there becomes the Judge's city for good."""
    g = blank_game(2, strategies=[Scripted(0, lambda v, d: next(
        (o for o in d.options if isinstance(o, Buy) and o.what == "judge_title"), None)), Scripted(1)])
    syrophoenicia_for(g, 0)
    tola = add_general(g, "Tola", 0, "Tyre")
    g.state.players[0].coins = 10
    assert titles.judge_purchases(g, 0) == [Buy("judge_title", sid(g, "Sidon"), "Tola")]
    g.state.phase = Phase.ACQUISITIONS
    g.run_phase()
    sidon = g.state.settlements[sid(g, "Sidon")]
    assert sidon.city and g.state.regions["Syrophoenicia"].city == sidon.id
    assert tola.title == judge_title("Syrophoenicia")
    assert g.state.players[0].coins == 0
    assert victory_points(g, 0) == 1
    assert titles.judge_purchases(g, 0) == []


def _no_money(g):
    g.state.players[0].coins = 9


def _one_not_controlled(g):
    own(g, "Achzib", 1, garrison=1)


def _no_walled_village(g):
    g.state.settlements[sid(g, "Sidon")].wall = False


def _general_captive(g):
    g.state.generals["Tola"].captor = 1


def _general_titled(g):
    effects.mark_assassin(g, g.state.generals["Tola"])


def _region_had_a_city(g):
    g.state.regions["Syrophoenicia"].city = sid(g, "Tyre")
    g.state.settlements[sid(g, "Tyre")].city = True
    g.state.settlements[sid(g, "Tyre")].wall = True
    g.state.regions["Syrophoenicia"].lapsed = True


def _too_few_settlements(g):
    effects.raze_settlement(g, sid(g, "Achzib"), None)


def _village_besieged(g):
    g.state.sieges[hex_of(g, "Sidon")] = Siege(1, 1)


@pytest.mark.parametrize("spoil", [
    _no_money, _one_not_controlled, _no_walled_village, _general_captive, _general_titled,
    _region_had_a_city, _too_few_settlements, _village_besieged,
])
def test_ti_1_every_condition_must_hold(spoil) -> None:
    """TI-1, ST-3: without any one condition (10 coins; all settlements controlled; a walled
    village; a free untitled general; no city yet; 4 standing settlements; the village not
    besieged) no title can be bought."""
    g = blank_game(2)
    syrophoenicia_for(g, 0)
    add_general(g, "Tola", 0, "Tyre")
    g.state.players[0].coins = 10
    assert titles.judge_purchases(g, 0)
    spoil(g)
    assert titles.judge_purchases(g, 0) == []


# --- TI-2 .. TI-5 ---------------------------------------------------------------------------


def test_ti_2_one_vp_per_judge_title_to_the_holders_owner_even_captive() -> None:
    """TI-2: each Judge title is 1 VP, with no cap, for the owner of the holding general as long
    as it lives, even in captivity."""
    g = blank_game(2)
    joab = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, joab, "Israel", "Megiddo")
    make_judge(g, add_general(g, "Tola", 0, "Gaza"), "Philistia", "Gaza")
    make_judge(g, add_general(g, "Ehud", 0, "Mahanaim"), "Gilead", "Mahanaim")
    assert victory_points(g, 0) == 3 and victory_points(g, 1) == 0
    g.run(effects.capture_general, joab, 1)
    assert victory_points(g, 0) == 3 and victory_points(g, 1) == 0
    g.run(effects.kill_general, joab, 1, "test")
    assert victory_points(g, 0) == 2


def test_ti_3_no_general_holds_two_titles() -> None:
    """TI-3: a Judge cannot buy a second Judge title, be appointed to a vacancy, or take the
    blame of an Assassin."""
    g = blank_game(2)
    judge = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    syrophoenicia_for(g, 0)
    g.state.players[0].coins = 10
    assert titles.judge_purchases(g, 0) == []
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    g.run(effects.kill_general, g.state.generals["Saul"], None, "test")
    own(g, "Gaza", 0, garrison=1)
    g.run(titles.fill_vacancies)
    assert g.state.regions["Philistia"].holder is None
    own(g, "Dor", 1, garrison=1)
    add_general(g, "Caleb", 1, "Dor")
    [card] = give_hand(g, 0, "Assassin")
    assert cardplay.assassin_options(g, 0, card) == []


def test_ti_4_dead_holder_leaves_the_title_vacant_and_worthless() -> None:
    """TI-4: when the holder dies the title stands vacant and is worth nothing until filled."""
    g = blank_game(2)
    judge = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    assert victory_points(g, 0) == 1
    g.run(effects.kill_general, judge, None, "test")
    later_round(g)  # the title fell vacant in an earlier round (TI-6)
    assert g.state.regions["Israel"].holder is None
    assert victory_points(g, 0) == 0
    add_general(g, "Tola", 0, "Megiddo")
    g.run_phase()  # Announcements fills it
    assert g.state.regions["Israel"].holder == "Tola" and victory_points(g, 0) == 1


def test_ti_4_captured_holder_keeps_the_vp_but_neither_votes_nor_stands() -> None:
    """TI-4, TI-10: a captive Judge's title keeps its VP but gives no vote, and the captive is
    no candidate: with one free Judge left, no election is held."""
    g = blank_game(2)
    joab = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, joab, "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    assert titles.votes_of(g, 0) == 1
    g.run(effects.capture_general, joab, 1)
    assert titles.votes_of(g, 0) == 0 and victory_points(g, 0) == 1
    assert titles.eligible_judges(g) == ["Saul"]
    events = logged(g)
    g.run(titles.election)
    assert not events_of(events, "election") and g.state.king is None


def test_ti_5_conquered_city_brings_its_title_to_the_conqueror() -> None:
    """TI-5, CB-7: a conquered Judge's city passes its title: the conqueror gives it to one of
    their eligible generals."""
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    make_judge(g, add_general(g, "Tola", 1, "Megiddo"), "Israel", "Megiddo")
    add_general(g, "Joab", 0, "Megiddo", troops=6)
    add_general(g, "Samson", 0, "Megiddo", troops=6)
    g.state.phase = Phase.COMBAT
    g.state.assaults[hex_of(g, "Megiddo")] = 0
    g.run_phase()
    assert g.state.settlements[sid(g, "Megiddo")].owner == 0
    assert g.state.regions["Israel"].holder == "Joab"
    assert g.state.generals["Tola"].title is None
    assert (victory_points(g, 0), victory_points(g, 1)) == (1, 0)


def israel_judge_city_razed():
    """Seat 0 storms and razes Megiddo, seat 1's Judge city of Israel."""
    g = blank_game(2, rules=NO_DICE, strategies=[
        Scripted(0, lambda v, d: RAZE if d.kind == "conquer_or_raze" else None), Scripted(1)])
    make_judge(g, add_general(g, "Tola", 1, "Megiddo"), "Israel", "Megiddo")
    add_general(g, "Joab", 0, "Megiddo", troops=6)
    add_general(g, "Samson", 0, "Megiddo", troops=6)
    g.state.phase = Phase.COMBAT
    g.state.assaults[hex_of(g, "Megiddo")] = 0
    g.run_phase()
    return g


def test_ti_5_razed_city_ends_its_title() -> None:
    """TI-5, CB-7: razing a Judge's city ends its title: no holder, no city, no VP."""
    g = israel_judge_city_razed()
    region = g.state.regions["Israel"]
    assert not g.state.settlements[sid(g, "Megiddo")].standing
    assert region.city is None and region.holder is None
    assert victory_points(g, 0) == victory_points(g, 1) == 0


def lapsed_capital(rules=None):
    """Seat 0's Judge city of Israel, Megiddo, is left bare at the Victory Check and lapses its
    title (TI-5, ST-9); seat 2's Samson reigns; seat 1's Joshua stands next to Megiddo."""
    g = blank_game(3, rules=rules, strategies=passing(3))
    city = make_judge(g, add_general(g, "Tola", 0, plain_hex_near(g, "Megiddo")), "Israel", "Megiddo", garrison=0)
    own(g, "Dor", 2, garrison=1)
    effects.crown(g, add_general(g, "Samson", 2, "Dor"), "test")
    add_general(g, "Jair", 2, "Dor")
    g.state.phase = Phase.VICTORY
    g.run_phase()
    assert g.state.regions["Israel"].lapsed and victory_points(g, 0) == 0
    add_general(g, "Joshua", 1, plain_hex_near(g, "Megiddo"))
    add_general(g, "Ibzan", 1, "Gaza")
    g.state.phase = Phase.MOVEMENT
    walk = Move("Joshua", hex_of(g, "Megiddo"))
    g.strategies[1].rule = lambda v, d: (walk if d.kind == "movement" and walk in d.options
                                         else Choose("Ibzan") if d.kind == "assign_title" else None)
    return g, city


def test_ti_5_whoever_walks_into_a_lapsed_capital_takes_its_title_at_once() -> None:
    """TI-5 [M] ("Quien toma la ciudad capital de una región se lleva con ella el título de
    Juez, eligiendo cuál de sus generales lo asume"): a player who walks into a lapsed capital
    takes its title at once and names its holder among their free, untitled generals; the
    reigning King appoints nothing."""
    g, city = lapsed_capital()
    g.run_phase()
    region = g.state.regions["Israel"]
    assert g.state.settlements[city].owner == 1
    [asked] = [d for d in g.strategies[1].asked if d.kind == "assign_title"]
    assert set(asked.options) == {Choose("Joshua"), Choose("Ibzan")}
    assert not region.lapsed and region.holder == "Ibzan" and victory_points(g, 1) == 1
    assert not [d for d in g.strategies[2].asked if d.kind == "appoint"]


def test_ti_5_a_lapsed_capital_taken_with_nobody_eligible_stays_vacant() -> None:
    """TI-5, TI-6: a taker with no free untitled general leaves the title vacant, for the next
    Announcements to fill (here by the reigning King's player)."""
    g, city = lapsed_capital()
    effects.mark_assassin(g, g.state.generals["Ibzan"])
    effects.mark_assassin(g, g.state.generals["Joshua"])
    g.run_phase()
    region = g.state.regions["Israel"]
    assert g.state.settlements[city].owner == 1 and not region.lapsed and region.holder is None
    assert not [d for d in g.strategies[1].asked if d.kind == "assign_title"]


def test_ti_5_ownerless_city_lapses_its_title_and_it_comes_back_vacant() -> None:
    """TI-5, ST-9, TI-6 under ``titles.lapsed_capital = "vacant"`` (the other reading): a Judge's
    city left without an owner lapses its title with its VP; once someone owns the city again
    the title comes back vacant, and the next Announcements fills it by the usual appointer
    (here the reigning King's player)."""
    g = blank_game(3, rules={"titles": {"lapsed_capital": "vacant"}}, strategies=passing(3))
    city = make_judge(g, add_general(g, "Tola", 0, plain_hex_near(g, "Megiddo")), "Israel", "Megiddo", garrison=0)
    own(g, "Dor", 2, garrison=1)
    effects.crown(g, add_general(g, "Samson", 2, "Dor"), "test")
    add_general(g, "Jair", 2, "Dor")
    g.state.phase = Phase.VICTORY
    g.run_phase()  # the phase closes: Megiddo has no troop and no general of its owner
    region = g.state.regions["Israel"]
    assert g.state.settlements[city].owner is None
    assert region.lapsed and region.holder is None
    assert victory_points(g, 0) == 0
    g.strategies[2].rule = lambda v, d: Choose("Jair") if d.kind == "appoint" else None
    g.run_phase()  # Announcements: nobody owns the city, the title waits
    assert region.holder is None
    joshua = add_general(g, "Joshua", 1, plain_hex_near(g, "Megiddo"))
    g.state.phase = Phase.MOVEMENT
    g.strategies[1].rule = lambda v, d: Move("Joshua", hex_of(g, "Megiddo")) if d.kind == "movement" else None
    g.run_phase()
    assert g.state.settlements[city].owner == 1
    assert not region.lapsed and region.holder is None  # back, vacant
    assert joshua.title is None
    assert not [d for d in g.strategies[1].asked if d.kind == "assign_title"]
    while g.state.phase is not Phase.ANNOUNCEMENTS:
        g.run_phase()
    g.run_phase()
    assert region.holder == "Jair"  # the King's player appoints (TI-6)


# --- TI-6, TI-16 ----------------------------------------------------------------------------


def test_ti_6_without_a_king_the_city_owner_appoints_own_generals() -> None:
    """TI-6, TI-16: with no King the city's owner appoints one of their own free untitled
    generals; other players' generals, captives and titled generals are not offered."""
    g = blank_game(2, strategies=[Scripted(0, lambda v, d: Choose("Tola") if d.kind == "appoint" else None),
                                  Scripted(1)])
    judge = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    g.run(effects.kill_general, judge, None, "test")
    later_round(g)  # the title fell vacant in an earlier round (TI-6)
    add_general(g, "Ehud", 0, "Megiddo")
    add_general(g, "Tola", 0, plain_hex_near(g, "Megiddo"))
    add_general(g, "Samuel", 0, "Gaza", captor=1)
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    make_judge(g, add_general(g, "Caleb", 0, "Mahanaim"), "Gilead", "Mahanaim")
    effects.mark_assassin(g, g.state.generals["Ehud"])
    add_general(g, "Othniel", 0, "Mahanaim")
    g.run(titles.fill_vacancies)
    [asked] = [d for d in g.strategies[0].asked if d.kind == "appoint"]
    assert set(asked.options) == {Choose("Othniel"), Choose("Tola")}  # no None: it must be filled
    assert g.state.regions["Israel"].holder == "Tola"


def test_ti_6_a_reigning_king_appoints_any_free_general() -> None:
    """TI-6, TI-11: under a reigning King only the King's player appoints, to any free untitled
    general, another player's included."""
    g = blank_game(2, strategies=[Scripted(0), Scripted(1, lambda v, d: Choose("Tola") if d.kind == "appoint" else None)])
    judge = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    g.run(effects.kill_general, judge, None, "test")
    later_round(g)  # the title fell vacant in an earlier round (TI-6)
    add_general(g, "Tola", 0, "Megiddo")
    own(g, "Gaza", 1, garrison=1)
    effects.crown(g, add_general(g, "Saul", 1, "Gaza"), "test")
    add_general(g, "Caleb", 1, "Gaza")
    g.run_phase()
    assert not [d for d in g.strategies[0].asked if d.kind == "appoint"]
    [asked] = [d for d in g.strategies[1].asked if d.kind == "appoint"]
    assert set(asked.options) == {Choose("Tola"), Choose("Caleb")}
    assert g.state.regions["Israel"].holder == "Tola" and victory_points(g, 0) == 1


def test_ti_6_with_nobody_eligible_the_title_waits_and_holds_nothing_up() -> None:
    """TI-6, TI-16: a vacancy nobody can fill waits for a later round; the other vacancies are
    filled meanwhile, and it is filled as soon as someone is eligible."""
    g = blank_game(2)
    for seat, general, region, city in ((0, "Joab", "Israel", "Megiddo"), (1, "Saul", "Philistia", "Gaza")):
        judge = add_general(g, general, seat, city)
        make_judge(g, judge, region, city)
        g.run(effects.kill_general, judge, None, "test")
        later_round(g)  # the title fell vacant in an earlier round (TI-6)
    add_general(g, "Caleb", 1, "Gaza")
    g.run_phase()
    assert g.state.regions["Israel"].holder is None
    assert g.state.regions["Philistia"].holder == "Caleb"
    add_general(g, "Tola", 0, "Megiddo")
    g.run(titles.fill_vacancies)
    assert g.state.regions["Israel"].holder == "Tola"


# --- King: TI-7 .. TI-13, TI-15 -------------------------------------------------------------


def test_ti_7_the_king_is_worth_1_vp_and_there_is_only_one() -> None:
    """TI-7: the King is worth 1 VP; with a King on the throne, no Anointed carrier is crowned
    and no election is held."""
    g = blank_game(3)
    own(g, "Dor", 0, garrison=1)
    effects.crown(g, add_general(g, "Tola", 0, "Dor"), "test")
    assert victory_points(g, 0) == 1
    make_judge(g, add_general(g, "Joab", 1, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 2, "Gaza", items=("Anointed",)), "Philistia", "Gaza")
    events = logged(g)
    g.run_phase()
    assert not events_of(events, "election") and not events_of(events, "crowned")
    assert g.state.king == "Tola"
    assert [gen.name for gen in g.state.generals.values() if gen.title == KING] == ["Tola"]


def test_ti_8_a_judge_crowned_king_leaves_the_judge_title_vacant() -> None:
    """TI-8: a Judge crowned King gives up the Judge title, which falls vacant."""
    g = blank_game(2, strategies=[Scripted(0, voters({0: ["Joab"]})(0)), Scripted(1, voters({1: ["Joab"]})(1))])
    joab = add_general(g, "Joab", 0, "Megiddo")
    make_judge(g, joab, "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    g.run_phase()
    assert g.state.king == "Joab" and joab.title == KING
    assert g.state.regions["Israel"].holder is None
    assert victory_points(g, 0) == 1  # the crown, not the vacant title


def test_ti_9_anointed_carrier_is_crowned_before_any_election() -> None:
    """TI-9: a free general carrying the Anointed is crowned in Announcements, before the
    election that would otherwise have been held."""
    g = blank_game(3)
    make_judge(g, add_general(g, "Joab", 1, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 2, "Gaza"), "Philistia", "Gaza")
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Tola", 0, "Dor", items=("Anointed",))
    events = logged(g)
    g.run_phase()
    assert g.state.king == "Tola"
    assert events_of(events, "crowned")[0]["how"] == "anointed"
    assert not events_of(events, "election")


def test_ti_10_most_votes_crowns_the_candidate_and_the_count_is_announced() -> None:
    """TI-10: with no King and two or more free Judges, every free Judge title gives its owner a
    vote and every Prophet carrier one more; the candidate with the most votes is crowned and
    the count per candidate is announced."""
    plan = voters({0: ["Joab"], 1: ["Saul"], 2: ["Joab"]})
    g = blank_game(3, strategies=[Scripted(seat, plan(seat)) for seat in range(3)])
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    own(g, "Dor", 2, garrison=1)
    add_general(g, "Isaiah", 2, "Dor", items=("Prophet",))
    events = logged(g)
    g.run_phase()
    [election] = events_of(events, "election")
    assert election["counts"] == {"Joab": 2, "Saul": 1}
    assert g.state.king == "Joab"
    votes = [d for s in g.strategies for d in s.asked if d.kind == "vote"]
    assert len(votes) == 3
    assert all(set(d.options) == {Choose("Joab"), Choose("Saul")} for d in votes)  # only Judges


def test_ti_10_tie_for_first_crowns_nobody() -> None:
    """TI-10: a tie for the lead crowns nobody, the count is still announced, and the vote is
    held again at the next Announcements."""
    plan = voters({0: ["Joab", "Joab"], 1: ["Saul", "Saul"]})
    g = blank_game(2, strategies=[Scripted(seat, plan(seat)) for seat in range(2)])
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    events = logged(g)
    g.run_phase()
    assert g.state.king is None
    assert [e["counts"] for e in events_of(events, "election")] == [{"Joab": 1, "Saul": 1}]
    while g.state.phase is not Phase.ANNOUNCEMENTS:
        g.run_phase()
    g.run_phase()
    assert [e["counts"] for e in events_of(events, "election")] == [{"Joab": 1, "Saul": 1}] * 2
    assert g.state.king is None


def test_ti_10_the_count_names_every_candidate_even_without_votes() -> None:
    """TI-10: everyone sees how many votes each candidate received, a candidate nobody voted
    for included (0)."""
    plan = voters({0: ["Joab"], 1: ["Joab"]})
    g = blank_game(2, strategies=[Scripted(seat, plan(seat)) for seat in range(2)])
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    events = logged(g)
    g.run_phase()
    assert events_of(events, "election")[0]["counts"] == {"Joab": 2, "Saul": 0}
    assert g.state.king == "Joab"


def test_ti_10_a_judge_carrying_a_prophet_votes_twice() -> None:
    """TI-10: a Judge who carries a Prophet gives its owner two votes, enough to break a 1-1."""
    plan = voters({0: ["Joab", "Joab"], 1: ["Saul"]})
    g = blank_game(2, strategies=[Scripted(seat, plan(seat)) for seat in range(2)])
    make_judge(g, add_general(g, "Joab", 0, "Megiddo", items=("Prophet",)), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    assert titles.votes_of(g, 0) == 2
    events = logged(g)
    g.run_phase()
    assert events_of(events, "election")[0]["counts"] == {"Joab": 2, "Saul": 1}
    assert g.state.king == "Joab"


def test_ti_10_no_election_with_fewer_than_two_free_judges() -> None:
    """TI-10: an election needs at least two Judges who can stand."""
    g = blank_game(2)
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    own(g, "Dor", 1, garrison=1)
    add_general(g, "Isaiah", 1, "Dor", items=("Prophet",))
    events = logged(g)
    g.run_phase()
    assert not events_of(events, "election") and g.state.king is None


def test_ti_12_a_captive_king_keeps_crown_and_vp_but_not_its_powers() -> None:
    """TI-12, TI-11: a captive King remains King with its VP, but its player assassinates like
    anyone (blame, title, Wrath) and the city owner, not the King's player, appoints."""
    g = blank_game(2, strategies=[Scripted(0), Scripted(1, lambda v, d: Choose("Caleb") if d.kind == "appoint" else None)])
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Joab", 0, "Dor")
    effects.crown(g, king, "test")
    add_general(g, "Ehud", 0, "Dor")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    g.run(effects.capture_general, king, 1)
    assert g.state.king == "Joab" and king.title == KING and victory_points(g, 0) == 1
    assert effects.reigning_king(g) is None
    [card] = give_hand(g, 0, "Assassin")
    assert cardplay.assassin_options(g, 0, card) == [PlayCard(card, "Saul", "Ehud")]
    g.run(cardplay.assassinate, 0, "Saul", "Ehud")
    assert g.state.wrath == 1 and g.state.generals["Ehud"].title == ASSASSIN_TITLE
    judge = add_general(g, "Jair", 1, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    g.run(effects.kill_general, judge, None, "test")
    later_round(g)  # the title fell vacant in an earlier round (TI-6)
    add_general(g, "Caleb", 1, "Megiddo")
    add_general(g, "Tola", 0, plain_hex_near(g, "Dor"))
    g.run(titles.fill_vacancies)
    assert [d.kind for d in g.strategies[0].asked] == []
    assert g.state.regions["Israel"].holder == "Caleb"


def test_ti_12_ti_15_a_captive_king_who_was_an_assassin_is_no_target_of_justice() -> None:
    """TI-12's "deja de ser inmune a la Justicia" has no effect in plsim: Justice strikes only a
    holder of the Assassin title, and a general crowned while an Assassin drops that title
    (TI-15, TI-3), so a captive King is never a Justice target."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    ehud = add_general(g, "Ehud", 0, "Dor", items=("Anointed",))
    effects.mark_assassin(g, ehud)
    g.run(titles.crown_anointed)
    assert ehud.title == KING
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    g.run(effects.capture_general, ehud, 1)
    assert effects.reigning_king(g) is None and ehud.title == KING
    [card] = give_hand(g, 1, "Justice")
    assert cardplay.justice_options(g, 1, card) == []


def test_ti_13_a_dead_kings_anointed_heir_is_crowned_on_the_spot() -> None:
    """TI-13: when a King dies, a free carrier of the Anointed is crowned at once."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Joab", 0, "Dor")
    effects.crown(g, king, "test")
    own(g, "Gaza", 1, garrison=1)
    heir = add_general(g, "Saul", 1, "Gaza", items=("Anointed",))
    events = logged(g)
    g.run(effects.kill_general, king, 1, "test")
    assert g.state.king == "Saul" and heir.title == KING
    assert g.state.succession_pending is None
    assert events_of(events, "crowned")[0]["how"] == "anointed"


def test_ti_13_without_an_heir_the_dead_kings_player_names_one_next_announcements() -> None:
    """TI-13: with no Anointed carrier, the dead King's player picks the successor among their
    own free generals at the next Announcements, and no election is held meanwhile."""
    g = blank_game(3, strategies=[Scripted(0), Scripted(1, lambda v, d: Choose("Caleb") if d.kind == "successor" else None),
                                  Scripted(2)])
    own(g, "Gaza", 1, garrison=1)
    king = add_general(g, "Saul", 1, "Gaza")
    effects.crown(g, king, "test")
    add_general(g, "Caleb", 1, "Gaza")
    add_general(g, "Ibzan", 1, plain_hex_near(g, "Gaza"))
    add_general(g, "Jair", 0, "Gaza", captor=1)
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Tola", 2, "Mahanaim"), "Gilead", "Mahanaim")
    g.run(effects.kill_general, king, 0, "test")
    assert g.state.king is None and g.state.succession_pending == 1
    later_round(g)  # the King died in an earlier round
    events = logged(g)
    g.run_phase()
    [asked] = [d for d in g.strategies[1].asked if d.kind == "successor"]
    assert set(asked.options) == {Choose("Caleb"), Choose("Ibzan")}
    assert g.state.king == "Caleb" and not events_of(events, "election")


def test_ti_13_the_successor_is_a_free_untitled_general() -> None:
    """TI-13 [A]: the dead King's player chooses the successor among their free generals with no
    title (as for every appointment, TI-16): not a Judge, not an Assassin, not a captive; with
    none such there is no successor, and the election may run again."""
    g = blank_game(2, strategies=passing(2))
    own(g, "Gaza", 1, garrison=1)
    king = add_general(g, "Saul", 1, "Gaza")
    effects.crown(g, king, "test")
    make_judge(g, add_general(g, "Joab", 1, "Megiddo"), "Israel", "Megiddo")
    effects.mark_assassin(g, add_general(g, "Ehud", 1, plain_hex_near(g, "Gaza")))
    add_general(g, "Jair", 1, "Dor", captor=0)
    own(g, "Dor", 0, garrison=1)
    caleb = add_general(g, "Caleb", 1, "Gaza")
    g.run(effects.kill_general, king, 0, "test")
    later_round(g)
    g.run(titles.choose_successor)
    assert g.state.king == "Caleb" and caleb.title == KING
    g.run(effects.kill_general, caleb, 0, "test")
    later_round(g)
    events = logged(g)
    g.run(titles.choose_successor)
    assert g.state.king is None and g.state.succession_pending is None
    assert events_of(events, "no_successor")


def test_ti_15_anointed_crowns_only_an_empty_throne_and_drops_other_titles() -> None:
    """TI-15, TI-8: the Anointed crowns its carrier only while there is no King; a crowned
    Judge's title falls vacant, and a crowned Assassin simply loses the Assassin title."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Joab", 0, "Dor")
    effects.crown(g, king, "test")
    judge = add_general(g, "Saul", 1, "Gaza", items=("Anointed",))
    make_judge(g, judge, "Philistia", "Gaza")
    g.run_phase()
    assert g.state.king == "Joab" and judge.title == judge_title("Philistia")
    g.run(effects.kill_general, king, None, "test")
    assert g.state.king == "Saul" and judge.title == KING
    assert g.state.regions["Philistia"].holder is None
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    assassin = add_general(g, "Ehud", 0, "Dor", items=("Anointed",))
    effects.mark_assassin(g, assassin)
    g.run_phase()
    assert assassin.title == KING
    assert not [gen for gen in g.state.generals.values() if gen.title == ASSASSIN_TITLE]


def test_ti_14_captive_prophet_gives_no_vote_and_votes_are_cast_one_by_one() -> None:
    """TI-14, GN-2: a captured Prophet carrier gives no extra vote (it keeps the Prophet, but a
    captive votes no more than a captive Judge); each vote is cast on its own, so one player's votes may
    go to different candidates."""
    plan = voters({0: ["Saul", "Joab"], 1: ["Saul"]})
    g = blank_game(2, strategies=[Scripted(seat, plan(seat)) for seat in range(2)])
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    make_judge(g, add_general(g, "Saul", 1, "Gaza"), "Philistia", "Gaza")
    isaiah = add_general(g, "Isaiah", 0, "Megiddo", items=("Prophet",))
    samuel = add_general(g, "Samuel", 1, plain_hex_near(g, "Gaza"), items=("Prophet",))
    g.run(effects.capture_general, samuel, 0)
    assert titles.votes_of(g, 1) == 1 and titles.votes_of(g, 0) == 2
    events = logged(g)
    g.run(titles.election)
    assert events_of(events, "election")[0]["counts"] == {"Joab": 1, "Saul": 2}
    assert g.state.king == "Saul"
    assert isaiah.title is None


def test_ti_17_an_assassin_needs_a_general_to_blame() -> None:
    """TI-17: an Assassin played by anyone but a reigning King needs a free untitled general of
    the player to take the blame; without one the card cannot be played."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    make_judge(g, add_general(g, "Joab", 0, "Megiddo"), "Israel", "Megiddo")
    add_general(g, "Tola", 0, "Gaza", captor=1)
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    [card] = give_hand(g, 0, "Assassin")
    assert cardplay.window_options(g, 0, Phase.ANNOUNCEMENTS) == []
    ehud = add_general(g, "Ehud", 0, "Dor")
    assert cardplay.window_options(g, 0, Phase.ANNOUNCEMENTS) == [PlayCard(card, "Saul", "Ehud")]
    effects.crown(g, ehud, "test")
    assert {o.blame for o in cardplay.window_options(g, 0, Phase.ANNOUNCEMENTS)} == {None}


def test_ti_18_a_region_whose_city_was_razed_can_have_a_new_judge() -> None:
    """TI-18 (TI-1, TI-5): razing a Judge's city ends that title, but a region that still has 4
    standing settlements can get a new one: whoever controls them all and owns a walled village
    there may buy it."""
    g = israel_judge_city_razed()
    assert g.state.regions["Israel"].city is None
    standing = region_settlements(g.table().view(0), "Israel")
    assert len(standing) >= 4 and sid(g, "Megiddo") not in standing
    for settlement in standing:
        own(g, g.board.settlements[settlement].name, 0, garrison=1, wall=True)
    g.state.players[0].coins = 10
    offers = titles.judge_purchases(g, 0)
    assert offers and {o.settlement for o in offers} <= set(standing)
