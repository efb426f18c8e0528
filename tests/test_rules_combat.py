"""Combat (RULES.md section 12, CB-1..CB-7, and the project's CB-8..CB-11) and captives (CP-1,
CP-2), each on a small hand-built position. Dice are removed with ``combat.dice = 0`` or scripted
with ``FixedDice`` so that every total is known."""

from __future__ import annotations

import pytest

from plsim.board import Terrain
from plsim.engine.cards import Phase, kind_of
from plsim.engine.game import StrategyError
from plsim.engine.state import ASSASSIN_TITLE, CANAANITES, Siege
from plsim.strategy import ASSAULT, CONQUER, PASS, RAZE, Choose, Move, PlayCard

from helpers import FixedDice, Scripted, add_general, blank_game, effects, events_of, give_hand, hex_of, own, sid

NO_DICE = {"combat": {"dice": 0}, "cards": {"draw_per_round": 0}}


def answers(**by_kind):
    """A Scripted rule answering decisions by kind: a fixed option or a function of the decision."""

    def rule(view, decision):
        answer = by_kind.get(decision.kind)
        if answer is None:
            return None
        return answer(decision) if callable(answer) else answer

    return rule


def combat_game(n=2, rules=None, **by_seat):
    """A game at the Combat phase with an event log; ``by_seat`` maps "s0".. to Scripted rules."""
    strategies = [Scripted(seat, by_seat.get(f"s{seat}")) for seat in range(n)]
    g = blank_game(n, rules=rules if rules is not None else NO_DICE, phase=Phase.COMBAT, strategies=strategies)
    g.events = []
    g.log = g.events.append
    return g


def field_hex(g, near="Megiddo", terrain=Terrain.PLAIN):
    board = g.board
    return next(h for h in board.neighbours[hex_of(g, near)]
                if board.settlement_at[h] < 0 and board.terrain[h] == terrain)


def battles(g):
    return events_of(g.events, "battle")


def play_card_of(kind):
    def pick(decision):
        return next((o for o in decision.options if isinstance(o, PlayCard) and kind_of(o.card) == kind), PASS)

    return pick


# CB-1
def test_cb_1_an_assault_on_a_held_settlement_is_a_battle():
    """CB-1: a battle is fought where a player's generals assault a hex held by another side,
    here a Canaanite settlement."""
    g = combat_game()
    hazor = hex_of(g, "Hazor")
    add_general(g, "Joab", 0, hazor, troops=6)
    g.state.assaults[hazor] = 0
    g.run_phase()
    [battle] = battles(g)
    assert battle["attacker"] == 0 and battle["defender"] == CANAANITES and battle["winner"] == "attacker"


def test_cb_1_entering_a_free_empty_settlement_takes_it_without_battle():
    """CB-1: entering a free settlement with no garrison takes it at once, with no battle and no
    siege-or-assault choice."""
    asked = []

    def rule(view, decision):
        asked.append(decision.kind)
        if decision.kind == "movement":
            return next((o for o in decision.options if isinstance(o, Move) and o.dest == megiddo), PASS)
        return None

    g = blank_game(2, rules=NO_DICE, phase=Phase.MOVEMENT, strategies=[Scripted(0, rule), Scripted(1)])
    g.events = []
    g.log = g.events.append
    megiddo = hex_of(g, "Megiddo")
    add_general(g, "Caleb", 0, field_hex(g))
    g.run_phase()
    g.run_phase()
    assert g.state.settlements[sid(g, "Megiddo")].owner == 0
    assert "siege_or_assault" not in asked and not battles(g)


def test_cb_1_an_assault_on_an_army_in_the_open_field_is_a_battle():
    """CB-1: another player's generals in the open field are a side: assaulting them is a battle."""
    g = combat_game()
    field = field_hex(g)
    add_general(g, "Joab", 0, field, troops=2)
    add_general(g, "Caleb", 1, field, troops=1)
    g.state.assaults[field] = 0
    g.run_phase()
    [battle] = battles(g)
    assert (battle["attack"], battle["defence"]) == (6, 3)
    assert g.state.generals["Caleb"].captor == 0


def test_cb_1_no_battle_in_the_desert_during_a_sandstorm():
    """CB-1: no battle in desert hexes while a Sandstorm blows."""
    g = combat_game()
    tekoa = hex_of(g, "Tekoa")
    assert g.board.terrain[tekoa] == Terrain.DESERT
    own(g, "Tekoa", 1, garrison=2)
    add_general(g, "Joab", 0, tekoa, troops=6)
    g.state.assaults[tekoa] = 0
    g.state.storm = True
    g.run_phase()
    assert not battles(g)
    assert g.state.settlements[sid(g, "Tekoa")].owner == 1


# CB-2
def test_cb_2_card_window_attacker_first_then_defender_siege_weapons_for_the_attacker_only():
    """CB-2: the battle's card window asks the attacker first, then the defender; Siege Weapons
    is offered to the original attacker only; each may pass."""
    asked = []

    def record(view, decision):
        if decision.kind == "battle_cards":
            asked.append((decision.seat, {kind_of(o.card) for o in decision.options if isinstance(o, PlayCard)}))
        return None

    g = combat_game(s0=record, s1=record)
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=2, wall=True)
    add_general(g, "Joab", 0, megiddo)
    give_hand(g, 0, "Siege Weapons", "Mercenaries")
    give_hand(g, 1, "Siege Weapons", "Mercenaries", "Ambush")
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert asked == [(0, {"Siege Weapons", "Mercenaries"}), (1, {"Mercenaries", "Ambush"})]


def test_cb_2_siege_weapons_played_in_the_window_cancel_the_wall():
    """CB-2, ST-4: Siege Weapons played by the attacker remove the wall from the defence."""
    g = combat_game(s0=answers(battle_cards=play_card_of("Siege Weapons")))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=2, wall=True)
    add_general(g, "Tola", 0, megiddo)
    give_hand(g, 0, "Siege Weapons")
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert battles(g)[0]["defence"] == 2
    assert not g.state.players[0].hand


def test_cb_2_ambush_resolves_before_strengths_are_counted():
    """CB-2: an Ambush kills the enemy generals before the totals are counted; their troops stay
    but do not fight."""
    g = combat_game(s0=answers(battle_cards=play_card_of("Ambush")))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=2)
    add_general(g, "Samson", 1, megiddo, troops=5)  # would add 4 + 5
    add_general(g, "Tola", 0, megiddo, troops=1)
    give_hand(g, 0, "Ambush")
    g.state.assaults[megiddo] = 0
    g.run_phase()
    [battle] = battles(g)
    assert "Samson" not in g.state.generals and battle["defenders"] == []
    assert battle["defence"] == 2 and battle["attack"] == 2
    assert battle["winner"] == "defender"


# CB-3
def test_cb_3_side_strength_adds_generals_items_mercenaries_garrison_wall_ark_and_dice():
    """CB-3: a side's total is its generals (base + troops), Goliath's Sword +3, Mercenaries +4,
    and for the defender in its settlement the garrison, the wall and the Ark (+3); then one d6
    per side."""
    g = combat_game(rules={"cards": {"draw_per_round": 0}}, s0=answers(battle_cards=play_card_of("Mercenaries")))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=3, wall=True)
    add_general(g, "Caleb", 1, megiddo, troops=2, items=("Ark",))  # 2 + 2 + Ark 3
    add_general(g, "Joab", 0, megiddo, troops=4, items=("Goliath's Sword",))  # 4 + 4 + 3
    add_general(g, "Tola", 0, megiddo, troops=1, items=("War Chariot",))  # 1 + 1, no Chariot in a settlement
    give_hand(g, 0, "Mercenaries")
    g.state.assaults[megiddo] = 0
    g.rng = FixedDice(2, 5)  # the attacker's die, then the defender's
    g.run_phase()
    [battle] = battles(g)
    assert battle["attack"] == (4 + 4 + 3) + (1 + 1) + 4 + 2
    assert battle["defence"] == (2 + 2) + 3 + 3 + 4 + 5
    assert (battle["attack_roll"], battle["defence_roll"]) == (2, 5)


def test_cb_3_war_chariot_adds_3_on_an_open_plain_only():
    """CB-3: the War Chariot's +3 counts on an open plain, not on a mountain."""
    for terrain, bonus in ((Terrain.PLAIN, 3), (Terrain.MOUNTAIN, 0)):
        g = combat_game()
        field = next(h for h in range(len(g.board.terrain))
                     if g.board.terrain[h] == terrain and g.board.settlement_at[h] < 0)
        add_general(g, "Joab", 0, field, items=("War Chariot",))
        add_general(g, "Caleb", 1, field)
        g.state.assaults[field] = 0
        g.run_phase()
        assert battles(g)[0]["attack"] == 4 + bonus


# CB-4
def test_cb_4_the_higher_total_wins_and_a_tie_goes_to_the_defender():
    """CB-4: the higher total wins; equal totals go to the defender."""
    for garrison, winner in ((3, "defender"), (2, "attacker"), (4, "defender")):
        g = combat_game()
        megiddo = hex_of(g, "Megiddo")
        own(g, "Megiddo", 1, garrison=garrison)
        add_general(g, "Hezekiah", 0, megiddo)  # strength 3
        g.state.assaults[megiddo] = 0
        g.run_phase()
        [battle] = battles(g)
        assert battle["attack"] == 3 and battle["defence"] == garrison
        assert battle["winner"] == winner


def test_cb_4_tie_after_the_dice_goes_to_the_defender():
    """CB-4: with the dice in play, a tie of totals still goes to the defender."""
    g = combat_game(rules={"cards": {"draw_per_round": 0}})
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Hezekiah", 0, megiddo)  # 3
    g.state.assaults[megiddo] = 0
    g.rng = FixedDice(2, 4)  # 3 + 2 against 1 + 4
    g.run_phase()
    [battle] = battles(g)
    assert battle["attack"] == battle["defence"] == 5 and battle["winner"] == "defender"
    assert g.state.generals["Hezekiah"].captor == 1


# CB-5
def test_cb_5_the_losers_troops_die_and_its_generals_are_captured_by_a_winning_player():
    """CB-5: the loser loses every troop in the hex (garrison and commanded) and its generals
    become the winning player's captives."""
    g = combat_game(s0=answers(conquer_or_raze=CONQUER))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=3)
    caleb = add_general(g, "Caleb", 1, megiddo, troops=2)
    add_general(g, "Joab", 0, megiddo, troops=6)
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert caleb.captor == 0 and caleb.troops == 0
    assert g.state.settlements[sid(g, "Megiddo")].garrison == 0


def test_cb_5_generals_beaten_by_the_canaanites_are_killed():
    """CB-5: a winning Canaanite side kills the losing generals (cards to the discard pile)."""
    g = combat_game()
    hazor = hex_of(g, "Hazor")
    add_general(g, "Tola", 0, hazor)
    g.state.assaults[hazor] = 0
    g.run_phase()
    assert battles(g)[0]["winner"] == "defender"
    assert "Tola" not in g.state.generals and "Tola" in g.state.discard


def test_cb_5_at_most_2_captives_per_settlement_the_rest_are_killed():
    """CB-5: a settlement holds at most 2 captives; captives beyond that are killed."""
    g = combat_game()
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=9)
    add_general(g, "Ehud", 0, megiddo, captor=1)  # already one captive there
    add_general(g, "Tola", 0, megiddo)
    add_general(g, "Elon", 0, megiddo)
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert battles(g)[0]["winner"] == "defender"
    captives = [gen for gen in g.state.generals_at(megiddo) if gen.captor is not None]
    assert len(captives) == 2
    assert ("Tola" in g.state.generals) != ("Elon" in g.state.generals)


def test_cb_5_captives_are_freed_when_their_owner_takes_the_hex():
    """CB-5: captives go free when their owner takes the hex they are held in."""
    g = combat_game(s0=answers(conquer_or_raze=CONQUER))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    prisoner = add_general(g, "Caleb", 0, megiddo, captor=1)
    add_general(g, "Joab", 0, megiddo, troops=3)
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert g.state.settlements[sid(g, "Megiddo")].owner == 0
    assert prisoner.captor is None


def test_cb_5_captive_limit_counts_after_the_conqueror_frees_its_own_captives():
    """CB-5, CP-2: a settlement holding 2 captives, one of them the conqueror's own general, is
    conquered: that general goes free, so the beaten defender becomes the second captive rather
    than being killed for want of room."""
    g = combat_game(3, s0=answers(conquer_or_raze=CONQUER))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    saul = add_general(g, "Saul", 1, megiddo)
    mine = add_general(g, "Caleb", 0, megiddo, captor=1)
    theirs = add_general(g, "Jair", 2, megiddo, captor=1)
    add_general(g, "Joab", 0, megiddo, troops=6)
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert battles(g)[0]["winner"] == "attacker"
    assert mine.captor is None and theirs.captor == 0
    assert "Saul" in g.state.generals and saul.captor == 0


# CB-6
def test_cb_6_winner_loses_half_the_losers_troops_rounded_down_garrison_first():
    """CB-6: the winner loses half the loser's troops before the battle, rounded down, taken from
    the garrison first, then from its generals."""
    g = combat_game()
    megiddo = hex_of(g, "Megiddo")
    st = g.state.settlements[own(g, "Megiddo", 1, garrison=1)]
    keeper = add_general(g, "Samson", 1, megiddo, troops=4)  # 4 + 4 + garrison 1 = 9
    add_general(g, "Tola", 0, megiddo, troops=3)
    add_general(g, "Ehud", 0, megiddo, troops=4)  # 1 + 3 + 1 + 4 = 9: a tie, the defender wins
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert battles(g)[0]["winner"] == "defender"
    # 7 attacking troops: the winner loses 3: the garrison's 1, then 2 of Samson's 4
    assert st.garrison == 0 and keeper.troops == 2


def test_cb_6_winner_losses_strongest_general_first():
    """CB-6: after the garrison, the winner's losses fall on its strongest general first, then
    the next."""
    g = combat_game()
    field = field_hex(g)
    caleb = add_general(g, "Caleb", 0, field, troops=5)  # 2 + 5 = 7, the strongest
    joab = add_general(g, "Joab", 0, field, troops=2)  # 4 + 2 = 6
    add_general(g, "Jephthah", 0, field)  # 3, no troops: 16 in all
    add_general(g, "Tola", 1, field, troops=6)
    add_general(g, "Elon", 1, field, troops=6)  # 14, 12 troops: the winner loses 6
    g.state.assaults[field] = 0
    g.run_phase()
    assert battles(g)[0]["winner"] == "attacker"
    assert caleb.troops == 0 and joab.troops == 1


def test_cb_6_losses_round_down_and_follow_combat_winner_losses():
    """CB-6: 5 losing troops cost the winner 2 (rounded down); with combat.winner_losses = 0 the
    winner loses nothing."""
    for share, left in ((0.5, 4), (0.0, 6)):
        g = combat_game(rules={"combat": {"dice": 0, "winner_losses": share}})
        field = field_hex(g)
        joab = add_general(g, "Joab", 0, field, troops=6)
        add_general(g, "Tola", 1, field, troops=5)
        g.state.assaults[field] = 0
        g.run_phase()
        assert joab.troops == left


# CB-7
def test_cb_7_conquest_passes_ownership_walls_developments_tabernacle_garrison_0():
    """CB-7: a winning attacker who conquers takes the settlement with its wall, developments and
    Tabernacle; the garrison is 0."""
    g = combat_game(s0=answers(conquer_or_raze=CONQUER))
    jerusalem = hex_of(g, "Jerusalem")
    st = g.state.settlements[own(g, "Jerusalem", 1, garrison=1, wall=True, developments=2)]
    st.tabernacle = True
    add_general(g, "Joab", 0, jerusalem, troops=6)
    g.state.assaults[jerusalem] = 0
    g.run_phase()
    assert (st.owner, st.wall, st.developments, st.tabernacle, st.garrison) == (0, True, 2, True, 0)


def judge_city_stormed(attackers, rule=None):
    """Seat 1's Judge's city of Israel (Shechem, its Judge away in Megiddo) stormed by seat 0's
    ``attackers`` (name -> title) with 6 troops each; seat 0 conquers and answers with ``rule``."""
    g = combat_game(s0=rule or answers(conquer_or_raze=CONQUER))
    shechem = hex_of(g, "Shechem")
    city = own(g, "Shechem", 1, garrison=1, city=True)
    judge = add_general(g, "Caleb", 1, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    g.state.regions["Israel"].city = city
    effects.give_title(g, judge, "Israel")
    for name, title in attackers.items():
        add_general(g, name, 0, shechem, troops=6).title = title
    g.state.assaults[shechem] = 0
    return g, city, judge


def test_cb_7_a_conquered_judges_city_gives_its_title_to_an_eligible_general_never_left_vacant():
    """CB-7 [M]: the conqueror of a Judge's city gives its title to one of their eligible
    generals: the choice is among them only (leaving it vacant is not offered), and a lone
    eligible general takes it without a choice."""
    asked = []

    def rule(view, decision):
        asked.append(decision)
        return CONQUER if decision.kind == "conquer_or_raze" else Choose("Samson")

    g, city, judge = judge_city_stormed({"Joab": None, "Samson": None}, rule)
    g.run_phase()
    assert g.state.settlements[city].owner == 0 and judge.title is None
    assert g.state.regions["Israel"].holder == "Samson"
    [assign] = [d for d in asked if d.kind == "assign_title"]
    assert assign.options == (Choose("Joab"), Choose("Samson")) and dict(assign.context) == {"region": "Israel"}

    g, city, judge = judge_city_stormed({"Joab": None, "Samson": ASSASSIN_TITLE},
                                        answers(conquer_or_raze=CONQUER, assign_title=Choose(None)))
    g.run_phase()
    assert g.state.regions["Israel"].holder == "Joab"  # the one eligible general, not asked

    g, city, judge = judge_city_stormed({"Joab": None, "Samson": None},
                                        answers(conquer_or_raze=CONQUER, assign_title=Choose(None)))
    with pytest.raises(StrategyError, match=r"answered Choose\(value=None\), which decision 'assign_title' did not"):
        g.run_phase()


def test_cb_7_the_title_stays_vacant_only_when_no_general_is_eligible():
    """CB-7 [M]: a conqueror whose generals all hold another title (TI-3) leaves the title vacant;
    nothing is asked."""
    g, city, judge = judge_city_stormed({"Joab": ASSASSIN_TITLE})
    g.run_phase()
    assert g.state.settlements[city].owner == 0 and g.state.regions["Israel"].holder is None
    assert not [d for d in g.strategies[0].asked if d.kind == "assign_title"]


def test_cb_7_razing_a_village_gives_3_plus_6_per_development_and_removes_it():
    """CB-7: razing takes the settlement off the board, destroys its developments, and pays the
    razer 3 for a village plus 6 per development."""
    g = combat_game(s0=answers(conquer_or_raze=RAZE))
    megiddo = hex_of(g, "Megiddo")
    st = g.state.settlements[own(g, "Megiddo", 1, garrison=1, developments=2)]
    add_general(g, "Joab", 0, megiddo, troops=6)
    g.state.assaults[megiddo] = 0
    coins = g.state.players[0].coins
    g.run_phase()
    assert st.razed and not st.standing and st.developments == 0 and st.owner is None
    assert g.state.players[0].coins == coins + 3 + 12


def test_cb_7_razing_a_city_gives_8_extinguishes_its_title_and_frees_the_tabernacle():
    """CB-7: razing a city pays 8 (plus 6 per development), ends its Judge title for good and frees
    the Tabernacle slot."""
    g = combat_game(s0=answers(conquer_or_raze=RAZE))
    shechem = hex_of(g, "Shechem")
    city = own(g, "Shechem", 1, garrison=1, city=True, developments=1)
    g.state.settlements[city].tabernacle = True
    judge = add_general(g, "Caleb", 1, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    g.state.regions["Israel"].city = city
    effects.give_title(g, judge, "Israel")
    add_general(g, "Joab", 0, shechem, troops=6)
    g.state.assaults[shechem] = 0
    coins = g.state.players[0].coins
    g.run_phase()
    assert g.state.players[0].coins == coins + 8 + 6
    assert judge.title is None and g.state.regions["Israel"].city is None
    assert not any(st.tabernacle and st.standing for st in g.state.settlements)


# CB-9
def test_cb_9_an_assault_forbidden_by_the_storm_becomes_a_siege_from_this_round():
    """CB-9 (docs/rules.md): an assault in the desert during a Sandstorm becomes a siege that
    starts this round; the attacker may assault in a later Combat."""
    g = combat_game(s0=answers(siege_assault=ASSAULT))
    tekoa = hex_of(g, "Tekoa")
    own(g, "Tekoa", 1, garrison=2)
    add_general(g, "Joab", 0, tekoa, troops=6)
    g.state.assaults[tekoa] = 0
    g.state.storm = True
    g.run_phase()
    assert g.state.sieges[tekoa] == Siege(0, 1) and not battles(g)
    while not battles(g):
        g.run_phase()
    assert battles(g)[0]["round"] == 2


# CB-10
def test_cb_10_ambushed_troops_join_the_garrison_if_their_side_wins():
    """CB-10: troops left idle by an Ambush join their settlement's garrison (up to its cap) if
    their side wins."""
    g = combat_game(s0=answers(battle_cards=play_card_of("Ambush")))
    megiddo = hex_of(g, "Megiddo")
    st = g.state.settlements[own(g, "Megiddo", 1, garrison=8)]
    add_general(g, "Caleb", 1, megiddo, troops=4)
    add_general(g, "Tola", 0, megiddo)  # 1 against 8: the defender wins
    give_hand(g, 0, "Ambush")
    g.state.assaults[megiddo] = 0
    g.run_phase()
    assert "Caleb" not in g.state.generals
    assert battles(g)[0]["winner"] == "defender"
    assert st.garrison == 10  # 8 + 4 idle, capped at 10


# CB-11
def test_cb_11_a_side_left_with_nothing_after_the_card_window_loses_without_a_roll():
    """CB-11: a field army whose only general dies in the card window loses without a roll."""
    g = combat_game(s0=answers(battle_cards=play_card_of("Ambush"), conquer_or_raze=CONQUER))
    field = field_hex(g)
    tola = add_general(g, "Tola", 0, field)
    add_general(g, "Samson", 1, field, troops=6)
    give_hand(g, 0, "Ambush")
    g.state.assaults[field] = 0
    g.run_phase()
    assert "Samson" not in g.state.generals and not battles(g)
    assert tola.hex == field and tola.captor is None


# CP-1
def test_cp_1_a_captive_with_no_guard_is_freed_at_the_end_of_the_phase():
    """CP-1: at the end of a phase, a captive whose hex holds neither a settlement of its captor
    nor a free general of its captor goes free where it stands."""
    def leave(view, decision):
        if decision.kind == "movement":
            return next((o for o in decision.options if isinstance(o, Move) and o.general == "Joab"), PASS)
        return None

    g = blank_game(2, phase=Phase.MOVEMENT, strategies=[Scripted(0, leave), Scripted(1)])
    field = field_hex(g)
    guarded = hex_of(g, "Jezreel")
    own(g, "Jezreel", 0, garrison=1)
    add_general(g, "Joab", 0, field)
    loose = add_general(g, "Caleb", 1, field, captor=0)
    kept = add_general(g, "Saul", 1, guarded, captor=0)
    g.run_phase()
    assert g.state.generals["Joab"].hex != field
    assert loose.captor is None and loose.hex == field
    assert kept.captor == 0


# CP-2
@pytest.mark.parametrize(("choice", "standing"), [(CONQUER, True), (RAZE, False)])
def test_cp_2_conquering_or_razing_frees_own_captives_and_takes_the_others(choice, standing):
    """CP-2: the conqueror's own generals held there go free and every other captive there
    becomes the conqueror's captive; the same when the settlement is razed (the razer's generals
    in the hex guard them)."""
    g = combat_game(3, s0=answers(conquer_or_raze=choice))
    megiddo = hex_of(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    mine = add_general(g, "Caleb", 0, megiddo, captor=1)
    theirs = add_general(g, "Jair", 2, megiddo, captor=1)
    add_general(g, "Joab", 0, megiddo, troops=4)
    g.state.assaults[megiddo] = 0
    g.run_phase()
    settlement = g.state.settlements[sid(g, "Megiddo")]
    assert settlement.standing is standing and (settlement.owner == 0) is standing
    assert mine.captor is None and theirs.captor == 0


def test_cp_3_a_freed_captive_beyond_the_cap_goes_to_the_nearest_settlement_with_room():
    """CP-3 (MV-5, CP-2): conquering with two generals a settlement that holds a third of one's
    own generals captive frees it into the nearest own settlement with room, never a third
    general in the hex; with no such settlement its card is discarded."""
    g = blank_game(2, rules={"combat": {"dice": 0}}, phase=Phase.COMBAT,
                   strategies=[Scripted(0), Scripted(1, lambda v, d: CONQUER if d.kind == "conquer_or_raze" else None)])
    own(g, "Bethel", 0, garrison=1)
    home = own(g, "Samaria", 1, garrison=1)
    add_general(g, "Tola", 1, "Bethel", captor=0)
    add_general(g, "Joab", 1, "Bethel", troops=6)
    add_general(g, "Samson", 1, "Bethel", troops=6)
    g.state.assaults[hex_of(g, "Bethel")] = 1
    g.run_phase()
    assert g.state.settlements[sid(g, "Bethel")].owner == 1
    tola = g.state.generals["Tola"]
    assert tola.captor is None and tola.hex == g.state.settlements[home].hex

    g = blank_game(2, rules={"combat": {"dice": 0}}, phase=Phase.COMBAT,
                   strategies=[Scripted(0), Scripted(1, lambda v, d: CONQUER if d.kind == "conquer_or_raze" else None)])
    own(g, "Bethel", 0, garrison=1)
    add_general(g, "Tola", 1, "Bethel", captor=0)
    add_general(g, "Joab", 1, "Bethel", troops=6)
    add_general(g, "Samson", 1, "Bethel", troops=6)
    g.state.assaults[hex_of(g, "Bethel")] = 1
    g.run_phase()
    assert "Tola" not in g.state.generals and "Tola" in g.state.discard


def test_cp_3_mv_3_a_freed_general_is_never_put_into_a_besieged_settlement():
    """CP-3, MV-3, DR-2: the siege seal lets no reinforcement in, so the freed general beyond the
    cap passes over the nearest own settlement while it is besieged and goes to the next one; with
    only besieged ones left, its card is discarded."""
    def conquer_bethel(besieged_shechem: bool, samaria: bool):
        g = blank_game(3, rules={"combat": {"dice": 0}}, phase=Phase.COMBAT,
                       strategies=[Scripted(0), Scripted(1, lambda v, d: CONQUER if d.kind == "conquer_or_raze" else None),
                                   Scripted(2)])
        own(g, "Bethel", 0, garrison=1)
        own(g, "Shechem", 1, garrison=1)  # 2 hexes from Bethel
        if samaria:
            own(g, "Samaria", 1, garrison=1)  # 3 hexes from Bethel
        if besieged_shechem:
            add_general(g, "Ehud", 2, "Shechem")
            g.state.sieges[hex_of(g, "Shechem")] = Siege(2, g.state.round)
        add_general(g, "Tola", 1, "Bethel", captor=0)
        add_general(g, "Joab", 1, "Bethel", troops=6)
        add_general(g, "Samson", 1, "Bethel", troops=6)
        g.state.assaults[hex_of(g, "Bethel")] = 1
        g.run_phase()
        assert g.state.settlements[sid(g, "Bethel")].owner == 1
        return g

    g = conquer_bethel(False, True)
    assert g.state.generals["Tola"].hex == hex_of(g, "Shechem")
    g = conquer_bethel(True, True)
    assert g.state.generals["Tola"].hex == hex_of(g, "Samaria")
    g = conquer_bethel(True, False)
    assert "Tola" not in g.state.generals and "Tola" in g.state.discard


def test_cb_3_the_die_has_dice_sides_faces():
    """CB-3: each side rolls ``combat.dice`` dice of ``dice.sides`` faces (a d6 by default): a 10
    exists on a d10, and wins a battle no d6 could."""
    def fight(rules):
        g = combat_game(rules={**rules, "cards": {"draw_per_round": 0}})
        field = field_hex(g)
        add_general(g, "Tola", 0, field, troops=1)  # strength 2
        add_general(g, "Joab", 1, field, troops=6)  # strength 10
        g.state.assaults[field] = 0
        g.rng = FixedDice(10, 1)
        g.run_phase()
        return battles(g)

    [battle] = fight({"dice": {"sides": 10}})
    assert (battle["attack_roll"], battle["defence_roll"]) == (10, 1)
    assert (battle["attack"], battle["defence"], battle["winner"]) == (12, 11, "attacker")
    with pytest.raises(AssertionError, match=r"roll 10 outside \[1, 6\]"):
        fight({})
