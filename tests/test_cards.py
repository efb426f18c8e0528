"""Section 9 of RULES.md: the deck, generals (GN-1, GN-2, GN-3), the printed numbers (CD-1),
every item (9.2), every one-use card (9.3), every event (9.4) and the invaders (9.5).

Each test builds a small position on the default map with ``tests/helpers.py`` and runs whole
phases (``run_phase``) or the engine's own card functions. Dice are switched off
(``combat.dice = 0``) or scripted with ``FixedDice`` so every total is exact.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import (
    FixedDice,
    Scripted,
    add_general,
    blank_game,
    cardplay,
    effects,
    events_of,
    give_hand,
    hex_of,
    make_judge,
    movement,
    own,
    passing,
    phases,
    plain_hex_near,
    reachable,
    sid,
    take_card,
    titles,
)

from plsim.board import Terrain
from plsim.engine.arithmetic import general_strength
from plsim.engine.cards import (
    CATALOGUE,
    GENERALS,
    INVADERS,
    Category,
    Phase,
    category_of,
    deck_count,
    full_deck,
    kind_of,
)
from plsim.engine.state import ASSASSIN_TITLE, KING, Siege
from plsim.rules import Rules
from plsim.strategy import (
    ASSAULT,
    SIEGE,
    Choose,
    Move,
    PlayCard,
    TakeTroops,
)

NO_DICE = {"combat": {"dice": 0}}
NO_DRAW = {"combat": {"dice": 0}, "cards": {"draw_per_round": 0}}


def play_kinds(*kinds: str, target=None, blame=None, assault: bool = True):
    """A Scripted rule: play the first offered card of ``kinds`` (matching target/blame when
    given), choose to assault rather than besiege, and pass on everything else."""

    def rule(view, decision):
        if decision.kind == "siege_or_assault":
            return ASSAULT if assault else SIEGE
        for option in decision.options:
            if isinstance(option, PlayCard) and kind_of(option.card) in kinds:
                if target is not None and option.target != target:
                    continue
                if blame is not None and option.blame != blame:
                    continue
                return option
        return None

    return rule


def battle_at(g, hex_id: int, attacker: int) -> list[dict]:
    """Run a Combat phase with ``attacker`` assaulting ``hex_id``; the logged battles."""
    events: list[dict] = []
    g.log = events.append
    g.state.phase = Phase.COMBAT
    g.state.assaults[hex_id] = attacker
    g.run_phase()
    return events_of(events, "battle")


# --- the deck -------------------------------------------------------------------------------


SECTION_9_COPIES = {
    "Squire": 4, "War Chariot": 3, "Prophet": 2, "Ark": 1, "Goliath's Sword": 1, "Anointed": 1, "Bride": 1,
    "Secret Passage": 7, "Siege Weapons": 4, "Blessing": 4, "Ambush": 4, "Tax": 4, "Mercenaries": 4,
    "Revolt": 4, "Assassin": 2, "Justice": 2,
    "Famine": 6, "Abundance": 4, "Plague": 4, "Sandstorm": 2,
}

SECTION_9_1_GENERALS = {
    "Joab": (2, 4), "Samson": (2, 4), "Joshua": (4, 3), "David": (3, 3), "Josiah": (3, 3),
    "Abimelech": (2, 3), "Hezekiah": (2, 3), "Jephthah": (2, 3), "Shamgar": (2, 3), "Gideon": (3, 2),
    "Ahab": (2, 1), "Elon": (2, 1), "Jonathan": (3, 2), "Solomon": (3, 2), "Caleb": (2, 2),
    "Ibzan": (2, 2), "Jair": (2, 2), "Othniel": (2, 2), "Saul": (2, 2), "Barak": (4, 1),
    "Isaiah": (4, 1), "Ehud": (3, 1), "Samuel": (3, 1), "Tola": (2, 1),
}


def test_deck_composition_matches_section_9() -> None:
    """Section 9: 88 cards of 44 kinds: 24 generals, 13 items of 7 kinds, 35 one-use cards of 9
    kinds, 16 events of 4 kinds, with the copies of 9.2-9.4 and the generals of 9.1; 8 invaders
    outside the deck (9.5); SU-1 shuffles exactly this deck."""
    deck = full_deck(Rules())
    assert len(deck) == len(set(deck)) == 88
    kinds = Counter(kind_of(card) for card in deck)
    assert len(kinds) == len(CATALOGUE) == 44
    per_category = Counter(category_of(card) for card in deck)
    assert per_category == {Category.GENERAL: 24, Category.ITEM: 13, Category.ONE_USE: 35, Category.EVENT: 16}
    kinds_per_category = Counter(CATALOGUE[k].category for k in kinds)
    assert kinds_per_category == {Category.GENERAL: 24, Category.ITEM: 7, Category.ONE_USE: 9, Category.EVENT: 4}
    for kind, copies in SECTION_9_COPIES.items():
        assert kinds[kind] == copies == deck_count(Rules(), kind), kind
    for name, (moves, strength) in SECTION_9_1_GENERALS.items():
        assert kinds[name] == 1
        assert (CATALOGUE[name].moves, CATALOGUE[name].strength) == (moves, strength), name
    assert {name for name, _, _ in GENERALS} == set(SECTION_9_1_GENERALS)
    assert sorted(INVADERS) == sorted(
        ["Jabin", "Sisera", "Og", "Sihon", "Balak", "Eglon", "Adoni-zedek", "Jobab"])
    assert not set(INVADERS) & set(deck)
    g = blank_game(2)
    assert sorted(g.state.deck) == sorted(deck)  # SU-1: the whole deck, shuffled
    assert g.state.deck != deck


def test_invaders_come_with_6_troops_and_strength_3() -> None:
    """9.5, W-4: each invader of a released pair has 6 troops and fights with strength 3, so an
    unharmed pair adds 2 * (3 + 6) = 18 to its dice."""
    g = blank_game(2, rules=NO_DICE)
    own(g, "Dor", 0, garrison=1)
    g.rng = FixedDice()
    g.run(effects.add_wrath, 13, "test")
    pair = g.state.pairs[0]
    assert pair.troops == [6, 6]
    assert set(pair.names) <= set(INVADERS)
    events: list[dict] = []
    g.log = events.append
    g.state.phase = Phase.COMBAT
    g.run_phase()
    battle = events_of(events, "battle")[0]
    assert battle["attack"] == 18


# --- generals --------------------------------------------------------------------------------


def test_gn_1_strength_is_base_plus_troops_plus_items() -> None:
    """GN-1: a general fights with its base strength, plus its troops (6 at most), plus what its
    items add (Goliath's Sword +3)."""
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    own(g, "Megiddo", 1, garrison=1)
    own(g, "Dor", 0, garrison=10)
    david = add_general(g, "David", 0, "Megiddo", troops=6, items=("Goliath's Sword",))
    tola = add_general(g, "Tola", 1, "Megiddo", troops=2)
    assert general_strength(g.rules, david, open_plain=False) == 3 + 6 + 3
    assert general_strength(g.rules, tola, open_plain=False) == 1 + 2
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["attack"] == 12
    assert battle["defence"] == 1 + 2 + 1  # Tola with 2 troops, and the garrison of 1
    # six at most: from a garrison of 10 a general may take no more than 6
    g2 = blank_game(2, strategies=passing(2))
    own(g2, "Dor", 0, garrison=10)
    add_general(g2, "Joab", 0, "Dor")
    g2.state.phase = Phase.MOVEMENT
    takes = [o.count for o in phases.movement_options(g2, 0) if isinstance(o, TakeTroops)]
    assert max(takes) == 6


def test_gn_2_dead_general_items_go_to_discard() -> None:
    """GN-2: a general that dies loses all its items to the discard pile (its own card too)."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    joab = add_general(g, "Joab", 0, "Dor", items=("Squire", "War Chariot", "Bride"))
    items = list(joab.items)
    g.run(effects.kill_general, joab, None, "test")
    assert "Joab" not in g.state.generals
    assert set(items) | {"Joab"} <= set(g.state.discard)


def test_gn_2_captured_general_items_go_to_discard() -> None:
    """GN-2, CB-5: a general taken captive in battle loses all its items to the discard pile."""
    g = blank_game(2, rules=NO_DICE)
    field = plain_hex_near(g, "Dor")
    add_general(g, "Joab", 0, field, troops=6)
    caleb = add_general(g, "Caleb", 1, field, items=("Goliath's Sword", "Ark"))
    items = list(caleb.items)
    battle_at(g, field, 0)
    assert caleb.captor == 0
    assert caleb.items == ()
    assert set(items) <= set(g.state.discard)


def test_gn_2_with_the_discard_reading_a_captured_prophet_is_discarded() -> None:
    """GN-2 with ``items.captured_prophet = "discard"`` (the manual's other sentence): a captured
    carrier's Prophet goes to the discard pile, so its owner no longer picks event terrains
    (AN-2) or a new invader pair's first target (W-3): chance decides again."""
    rules = {**NO_DICE, "items": {"captured_prophet": "discard"}}
    g = blank_game(2, rules=rules, strategies=[Scripted(0), Scripted(1, lambda v, d: Choose("desert"))])
    field = plain_hex_near(g, "Dor")
    add_general(g, "Joab", 0, field, troops=4)
    isaiah = add_general(g, "Isaiah", 1, field, items=("Prophet",))
    prophet = isaiah.items[0]
    assert effects.prophet_owner(g) == 1
    battle_at(g, field, 0)
    assert isaiah.captor == 0 and isaiah.items == ()
    assert prophet in g.state.discard and g.state.prophets == []
    assert effects.prophet_owner(g) is None
    g.state.event_area.append(take_card(g, "Famine"))
    g.rng = FixedDice(3)  # mountain
    g.run(cardplay.resolve_events)
    assert not [d for d in g.strategies[1].asked if d.kind == "prophet_terrain"]
    assert g.state.terrain_mods[Terrain.MOUNTAIN] == -1
    own(g, "Dor", 0, garrison=1)
    own(g, "Gaza", 1, garrison=1)
    g.run(effects.add_wrath, 13, "test")  # nor a new pair's first target (W-3): chance decides
    assert not [d for d in g.strategies[1].asked if d.kind == "invader_target"]
    assert g.state.pairs[0].target == min(sid(g, "Dor"), sid(g, "Gaza"))  # FixedDice: the first one


def test_cd_1_printed_numbers_of_ambush_siege_weapons_anointed_do_nothing() -> None:
    """CD-1: Ambush (4), Siege Weapons (6) and Anointed (3) add no strength; only the Sword and
    Mercenaries act as printed (CB-3)."""
    g = blank_game(2, rules=NO_DICE, strategies=[
        Scripted(0, play_kinds("Ambush", "Siege Weapons")), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "David", 0, "Megiddo", items=("Anointed",))
    give_hand(g, 0, "Ambush", "Siege Weapons")
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert g.state.players[0].hand == []  # both cards were played
    assert battle["attack"] == 3  # David's base only
    assert battle["defence"] == 1


# --- items -----------------------------------------------------------------------------------


def test_squire_dies_instead_of_general_against_assassin() -> None:
    """Squire (W-1, TI-3): an Assassin that only kills the Squire earns no Assassin title and
    no Wrath; the Assassin card is used up and the general lives."""
    g = blank_game(2, strategies=[Scripted(0, play_kinds("Assassin", target="Saul")), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    own(g, "Megiddo", 1, garrison=1)
    ehud = add_general(g, "Ehud", 0, "Dor")
    saul = add_general(g, "Saul", 1, "Megiddo", items=("Squire",))
    squire = saul.items[0]
    [assassin] = give_hand(g, 0, "Assassin")
    g.run_phase()  # Announcements: the card window
    assert "Saul" in g.state.generals and saul.items == ()
    assert squire in g.state.discard and assassin in g.state.discard
    assert g.state.wrath == 0
    assert ehud.title is None
    assert list(g.card_events) == [(1, 0, "Assassin", "played"), (1, 1, "Squire", "sacrificed")]  # 9.6


def test_squire_dies_instead_of_general_against_ambush() -> None:
    """Squire, Ambush (CB-2): an Ambush kills every enemy general in the hex, except one with a
    Squire, whose Squire dies in its place and who fights on."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, play_kinds("Ambush")), Scripted(1)])
    field = plain_hex_near(g, "Megiddo", terrain=Terrain.MOUNTAIN)
    add_general(g, "Joab", 0, field, troops=6)
    caleb = add_general(g, "Caleb", 1, field, troops=2, items=("Squire",))
    add_general(g, "Tola", 1, field, troops=1)
    give_hand(g, 0, "Ambush")
    [battle] = battle_at(g, field, 0)
    assert "Tola" in g.state.discard and "Tola" not in g.state.generals
    assert battle["defenders"] == ["Caleb"]
    assert battle["defence"] == 2 + 2  # Tola's idle troop does not fight
    assert caleb.captor == 0


def test_war_chariot_adds_3_on_open_plain_only() -> None:
    """War Chariot (CB-3): +3 in a battle on a plain in open country; nothing on a mountain and
    nothing inside a settlement, even one standing on a plain."""
    def attack_with_chariot(where) -> int:
        g = blank_game(2, rules=NO_DICE, strategies=passing(2))
        if isinstance(where, str):
            own(g, where, 1, garrison=1)
            hex_id = hex_of(g, where)
        else:
            hex_id = where(g)
            add_general(g, "Tola", 1, hex_id)
        add_general(g, "David", 0, hex_id, items=("War Chariot",))
        [battle] = battle_at(g, hex_id, 0)
        return battle["attack"]

    assert attack_with_chariot(lambda g: plain_hex_near(g, "Megiddo")) == 3 + 3
    assert attack_with_chariot(lambda g: plain_hex_near(g, "Megiddo", terrain=Terrain.MOUNTAIN)) == 3
    assert attack_with_chariot("Megiddo") == 3  # a plain settlement is not open country


def test_prophet_carrier_starts_no_battle_but_defends() -> None:
    """Prophet (MV-7): its carrier cannot enter a hostile hex, so it starts no battle and no
    siege; attacked, it defends as usual with its strength."""
    g = blank_game(2, rules=NO_DICE)
    field = plain_hex_near(g, "Megiddo")
    own(g, "Megiddo", 1, garrison=1)
    isaiah = add_general(g, "Isaiah", 0, field, items=("Prophet",))
    barak = add_general(g, "Barak", 0, field)
    megiddo = hex_of(g, "Megiddo")
    assert megiddo in reachable(g, barak)
    assert megiddo not in reachable(g, isaiah)
    g.state.phase = Phase.MOVEMENT
    moves = [o for o in phases.movement_options(g, 0) if isinstance(o, Move) and o.general == "Isaiah"]
    assert moves and megiddo not in {m.dest for m in moves}
    # attacked, the carrier defends
    g2 = blank_game(2, rules=NO_DICE)
    field2 = plain_hex_near(g2, "Megiddo")
    add_general(g2, "Isaiah", 1, field2, troops=2, items=("Prophet",))
    add_general(g2, "Tola", 0, field2)
    [battle] = battle_at(g2, field2, 0)
    assert battle["defence"] == 1 + 2
    assert battle["winner"] == "defender"


def test_prophet_carrier_besieging_never_turns_the_siege_into_a_battle() -> None:
    """Prophet (MV-7, MV-12): a besieger that has come to carry a Prophet (attached after the
    siege began) may hold the siege but is never offered the assault: it starts no battle."""
    g = blank_game(2, rules=NO_DICE, strategies=[
        Scripted(0, lambda v, d: ASSAULT if d.kind == "siege_assault" else None), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    isaiah = add_general(g, "Isaiah", 0, "Megiddo")
    g.state.sieges[hex_of(g, "Megiddo")] = Siege(0, 1)
    g.state.round = 2
    g.run(effects.receive_card, 0, take_card(g, "Prophet"))
    assert effects.prophet_owner(g) == 0 and isaiah.items
    events: list[dict] = []
    g.log = events.append
    g.state.phase = Phase.COMBAT
    g.run_phase()
    assert not [d for d in g.strategies[0].asked if d.kind == "siege_assault"]
    assert not events_of(events, "battle")
    assert g.state.sieges[hex_of(g, "Megiddo")].besieger == 0
    # with a general of its own side not carrying a Prophet, the besiegers may assault
    add_general(g, "Joab", 0, "Megiddo", troops=6)
    g.state.round = 3
    g.state.phase = Phase.COMBAT
    g.run_phase()
    assert [d.kind for d in g.strategies[0].asked].count("siege_assault") == 1
    assert events_of(events, "battle")


def test_prophet_carrier_killed_by_a_player_adds_3_wrath() -> None:
    """Prophet, W-1: a player who kills the carrier adds 3 Wrath (with an Assassin: 1 + 3); a
    death no player caused (Plague) adds nothing."""
    g = blank_game(2, strategies=[Scripted(0, play_kinds("Assassin", target="Isaiah")), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    add_general(g, "Isaiah", 1, "Megiddo", items=("Prophet",))
    give_hand(g, 0, "Assassin")
    g.run_phase()
    assert "Isaiah" not in g.state.generals
    assert g.state.wrath == 1 + 3
    # Ambush: the killer is the ambushing player
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, play_kinds("Ambush")), Scripted(1)])
    field = plain_hex_near(g, "Megiddo")
    add_general(g, "Joab", 0, field)
    add_general(g, "Isaiah", 1, field, items=("Prophet",))
    give_hand(g, 0, "Ambush")
    battle_at(g, field, 0)
    assert "Isaiah" not in g.state.generals
    assert g.state.wrath == 3
    # Plague: nobody killed it
    g = blank_game(2)
    add_general(g, "Isaiah", 1, plain_hex_near(g, "Megiddo"), items=("Prophet",))
    g.rng = FixedDice(then=6)
    cardplay.plague_terrain(g, Terrain.PLAIN)
    assert "Isaiah" not in g.state.generals
    assert g.state.wrath == 0


def test_ark_adds_3_defending_not_cancelled_by_siege_weapons() -> None:
    """Ark (CB-3, ST-4): +3 to the defenders while its carrier defends; Siege Weapons cancel the
    wall but never the Ark; an attacking carrier gets nothing from it."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, play_kinds("Siege Weapons")), Scripted(1)])
    own(g, "Megiddo", 1, garrison=2, wall=True)
    add_general(g, "Tola", 1, "Megiddo", items=("Ark",))
    add_general(g, "Joab", 0, "Megiddo", troops=6)
    give_hand(g, 0, "Siege Weapons")
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert g.state.players[0].hand == []
    assert battle["defence"] == 1 + 2 + 0 + 3  # Tola, garrison, no wall, the Ark
    assert battle["attack"] == 4 + 6
    # carried by the attacker, the Ark adds nothing
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    own(g, "Megiddo", 1, garrison=2)
    add_general(g, "Joab", 0, "Megiddo", items=("Ark",))
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["attack"] == 4


def test_cb_3_the_ark_defends_in_the_open_field_too() -> None:
    """CB-3 [M]: the Ark's +3 goes to the defending side wherever its carrier defends, a battle in
    the open field as well as a settlement."""
    g = blank_game(2, rules=NO_DRAW, strategies=passing(2))
    field = plain_hex_near(g, "Dor", terrain=Terrain.MOUNTAIN)
    add_general(g, "Joab", 0, field, troops=6)
    add_general(g, "Tola", 1, field, items=("Ark",))
    [battle] = battle_at(g, field, 0)
    assert battle["defence"] == 1 + 3  # Tola, the Ark; no garrison, no wall in the open field


def test_ark_not_cancelled_by_secret_passage() -> None:
    """Ark (ST-4): an attacker that came in through a Secret Passage ignores the wall, not the
    Ark."""
    g = blank_game(2, rules=NO_DICE)
    own(g, "Megiddo", 1, garrison=1, wall=True)
    add_general(g, "Tola", 1, "Megiddo", items=("Ark",))
    joab = add_general(g, "Joab", 0, "Megiddo")
    joab.passage = True
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["defence"] == 1 + 1 + 3


def test_goliaths_sword_adds_3_in_any_combat() -> None:
    """Goliath's Sword (CB-3): +3 attacking a settlement, and +3 defending in the mountains."""
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Tola", 0, "Megiddo", items=("Goliath's Sword",))
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["attack"] == 1 + 3
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    hill = plain_hex_near(g, "Megiddo", terrain=Terrain.MOUNTAIN)
    add_general(g, "Tola", 1, hill, items=("Goliath's Sword",))
    add_general(g, "Ehud", 0, hill)
    [battle] = battle_at(g, hill, 0)
    assert battle["defence"] == 1 + 3


def test_anointed_carrier_is_crowned_without_election() -> None:
    """Anointed (TI-9): a free carrier becomes King at Announcements with no vote held."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    tola = add_general(g, "Tola", 0, "Dor", items=("Anointed",))
    events: list[dict] = []
    g.log = events.append
    g.run_phase()
    assert g.state.king == "Tola" and tola.title == KING
    assert not events_of(events, "election")
    assert events_of(events, "crowned")[0]["how"] == "anointed"


def test_bride_is_attached_and_does_nothing() -> None:
    """Bride (DR-2): dealt and attached like any item, it changes no strength, vote or title."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, lambda v, d: Choose("Tola")), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Joab", 0, "Dor")
    tola = add_general(g, "Tola", 0, "Dor")
    votes_before = titles.votes_of(g, 0)
    bride = take_card(g, "Bride")
    g.run(effects.receive_card, 0, bride)
    assert [d.kind for d in g.strategies[0].asked] == ["attach_item"]
    assert tola.items == (bride,)
    assert general_strength(g.rules, tola, open_plain=True) == 1
    assert titles.votes_of(g, 0) == votes_before
    g.run_phase()  # Announcements: nothing happens to the Bride's carrier
    assert tola.title is None and g.state.king is None


# --- one-use cards ---------------------------------------------------------------------------


def test_secret_passage_ignores_wall_and_is_spent() -> None:
    """Secret Passage (MV-9, ST-4): a move made with it spends the card, and in the battle that
    follows the attacked settlement's wall gives nothing."""
    g = blank_game(2, rules=NO_DICE, strategies=[
        Scripted(0, lambda v, d: next((o for o in d.options if isinstance(o, Move) and o.passage), None)
                 or play_kinds()(v, d)),
        Scripted(1)])
    field = plain_hex_near(g, "Hazor")  # Hazor: Canaanite, walled, 2 troops
    add_general(g, "Joshua", 0, field)
    [passage] = give_hand(g, 0, "Secret Passage")
    g.state.phase = Phase.MOVEMENT
    g.run_phase()
    assert passage in g.state.discard and g.state.players[0].hand == []
    assert g.state.assaults == {hex_of(g, "Hazor"): 0}
    events: list[dict] = []
    g.log = events.append
    g.run_phase()  # Combat
    [battle] = events_of(events, "battle")
    assert battle["defence"] == 2  # the garrison alone: no wall
    assert g.state.settlements[sid(g, "Hazor")].owner == 0


def test_secret_passage_battle_totals() -> None:
    """Secret Passage (ST-4, ST-8): the passage cancels a wall (defence = garrison only) but not
    a Judge's city bonus."""
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    own(g, "Megiddo", 1, garrison=2, wall=True)
    add_general(g, "Joshua", 0, "Megiddo").passage = True
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["defence"] == 2
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    judge = add_general(g, "Tola", 1, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo", garrison=2)
    add_general(g, "Joshua", 0, "Megiddo").passage = True
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["defence"] == 1 + 2 + 6


def test_secret_passage_leaves_a_siege_and_a_storm() -> None:
    """Secret Passage (MV-3, MV-4, MV-9): a general shut in by a siege, or standing by the
    desert in a Sandstorm, cannot move, except with a Secret Passage."""
    g = blank_game(2)
    own(g, "Megiddo", 0, garrison=1)
    david = add_general(g, "David", 0, "Megiddo")
    add_general(g, "Joab", 1, "Megiddo")
    g.state.sieges[hex_of(g, "Megiddo")] = Siege(1, 1)
    assert reachable(g, david) == {}
    assert reachable(g, david, passage=True)
    g.state.sieges.clear()
    give_hand(g, 0, "Secret Passage")
    g.state.phase = Phase.MOVEMENT
    g.state.storm = True
    own(g, "Jericho", 0, garrison=1)  # Jericho lies by the desert
    jericho = add_general(g, "Jonathan", 0, "Jericho")
    assert not movement.can_move(g, jericho)
    options = [o for o in phases.movement_options(g, 0) if isinstance(o, Move) and o.general == "Jonathan"]
    assert options and all(o.passage for o in options)


def test_siege_weapons_original_attacker_only_cancels_wall_not_city() -> None:
    """Siege Weapons (CB-2, ST-8): only the attacker is offered it; it cancels a wall, but a
    Judge's city keeps its +6."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, play_kinds("Siege Weapons")), Scripted(1)])
    judge = add_general(g, "Tola", 1, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo", garrison=1)
    add_general(g, "Joab", 0, "Megiddo", troops=6)
    give_hand(g, 0, "Siege Weapons")
    [defender_card] = give_hand(g, 1, "Siege Weapons")
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert g.state.players[0].hand == []
    assert battle["defence"] == 1 + 1 + 6  # the city bonus still counts
    assert not [d for d in g.strategies[1].asked if d.kind == "battle_cards"]
    assert g.state.players[1].hand == [defender_card]


def test_blessing_draws_two_cards_in_draw_or_acquisitions() -> None:
    """Blessing (DR-4): playable in Draw Cards and Acquisitions only; it draws 2 cards."""
    g = blank_game(2, rules=NO_DRAW, strategies=[Scripted(0, play_kinds("Blessing")), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    [blessing] = give_hand(g, 0, "Blessing")
    for phase in Phase:
        offered = any(kind_of(o.card) == "Blessing" for o in cardplay.window_options(g, 0, phase))
        assert offered == (phase in (Phase.DRAW, Phase.ACQUISITIONS)), phase
    top = [take_card(g, "Tax"), take_card(g, "Ambush")]
    g.state.deck.extend(top)
    g.state.phase = Phase.DRAW
    g.run_phase()
    assert sorted(g.state.players[0].hand) == sorted(top)
    assert blessing in g.state.discard


def test_ambush_idle_troops_lost_if_their_side_loses() -> None:
    """Ambush (CB-2, CB-5): every enemy general in the hex dies; its troops stay but do not
    fight; when their side loses they are lost with the rest."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, play_kinds("Ambush")), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Joab", 1, "Megiddo", troops=3)
    add_general(g, "David", 0, "Megiddo", troops=6)
    give_hand(g, 0, "Ambush")
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert "Joab" in g.state.discard
    assert battle["defence"] == 1  # the garrison alone; Joab's 3 troops stand idle
    assert battle["attack"] == 9 and battle["winner"] == "attacker"
    st = g.state.settlements[sid(g, "Megiddo")]
    assert st.owner == 0 and st.garrison == 0
    assert g.state.generals["David"].troops == 6 - (1 + 3) // 2  # CB-6 counts the idle troops


def test_ambush_idle_troops_join_garrison_if_their_side_wins() -> None:
    """Ambush (CB-10): troops left idle by an Ambush join their settlement's garrison when their
    side wins."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, play_kinds("Ambush")), Scripted(1)])
    own(g, "Megiddo", 1, garrison=5, wall=True)
    add_general(g, "Joab", 1, "Megiddo", troops=3)
    add_general(g, "Tola", 0, "Megiddo")
    give_hand(g, 0, "Ambush")
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["winner"] == "defender"
    assert g.state.settlements[sid(g, "Megiddo")].garrison == 5 + 3


def test_tax_region_pays_the_taxer_double_and_adds_wrath() -> None:
    """Tax (IN-3, W-1, DR-4): played in Draw Cards on a region; its owners earn nothing from it
    this round, the taxer twice its worth; +1 Wrath."""
    g = blank_game(2, rules=NO_DRAW, strategies=[Scripted(0, play_kinds("Tax", target="Israel")), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    own(g, "Jezreel", 1, garrison=1, developments=1)
    own(g, "Dor", 1, garrison=1)
    own(g, "Gezer", 0, garrison=1)
    [tax] = give_hand(g, 0, "Tax")
    for phase in Phase:
        offered = any(kind_of(o.card) == "Tax" for o in cardplay.window_options(g, 0, phase))
        assert offered == (phase is Phase.DRAW), phase
    g.state.phase = Phase.DRAW
    g.run_phase()
    assert tax in g.state.discard and g.state.taxed == {"Israel": 0}
    assert g.state.wrath == 1
    coins = [p.coins for p in g.state.players]
    g.run_phase()  # Income
    assert g.state.players[0].coins - coins[0] == 1 + 2 * (1 + 3)
    assert g.state.players[1].coins - coins[1] == 1  # only Dor, outside Israel


def test_tax_adds_no_wrath_for_the_regions_judge() -> None:
    """Tax (W-1): no Wrath when the taxer holds the taxed region's Judge title."""
    g = blank_game(2, strategies=[Scripted(0, play_kinds("Tax", target="Israel")), Scripted(1)])
    judge = add_general(g, "Tola", 0, "Megiddo")
    make_judge(g, judge, "Israel", "Megiddo")
    own(g, "Jezreel", 1, garrison=1)
    give_hand(g, 0, "Tax")
    g.run(cardplay.play_card, 0, PlayCard(g.state.players[0].hand[0], "Israel"))
    assert g.state.taxed == {"Israel": 0}
    assert g.state.wrath == 0


def test_mercenaries_add_4_and_1_wrath() -> None:
    """Mercenaries (CB-3, W-1): +4 to the player's side in this battle, +1 Wrath."""
    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0), Scripted(1, play_kinds("Mercenaries"))])
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Joab", 0, "Megiddo", troops=1)
    give_hand(g, 1, "Mercenaries")
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert battle["defence"] == 1 + 4
    assert battle["winner"] == "defender"
    assert g.state.wrath == 1


def test_revolt_only_against_a_taxed_region() -> None:
    """Revolt (DR-4): offered only against a region taxed this round; it strikes every
    settlement of that region with a Plague (9.4)."""
    g = blank_game(2, strategies=[Scripted(0), Scripted(1, play_kinds("Revolt"))])
    own(g, "Megiddo", 0, garrison=4)
    add_general(g, "Tola", 0, "Megiddo", troops=1)
    own(g, "Dor", 0, garrison=4)
    [revolt] = give_hand(g, 1, "Revolt")
    assert cardplay.window_options(g, 1, Phase.DRAW) == []
    g.state.taxed["Israel"] = 0
    assert cardplay.window_options(g, 1, Phase.DRAW) == [PlayCard(revolt, "Israel")]
    assert cardplay.window_options(g, 1, Phase.MOVEMENT) == [PlayCard(revolt, "Israel")]
    assert cardplay.window_options(g, 1, Phase.ACQUISITIONS) == []
    g.rng = FixedDice(then=6)
    g.run(cardplay.play_card, 1, PlayCard(revolt, "Israel"))
    st = g.state.settlements
    assert st[sid(g, "Megiddo")].garrison == 2
    assert st[sid(g, "Hazor")].garrison == 1  # the Canaanites of Israel too
    assert "Tola" not in g.state.generals
    assert st[sid(g, "Dor")].garrison == 4  # outside the region


def test_assassin_kills_an_enemy_general_anywhere_and_blames_an_untitled_general() -> None:
    """Assassin (W-1, TI-3): it kills any enemy general on the map; one of the player's free
    generals without a title is blamed and takes the Assassin title; +1 Wrath."""
    g = blank_game(2, strategies=[Scripted(0, play_kinds("Assassin", target="Saul", blame="Ehud")), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    ehud = add_general(g, "Ehud", 0, "Dor")
    judge = add_general(g, "Joab", 0, "Dor")
    make_judge(g, judge, "Gilead", "Mahanaim")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    [card] = give_hand(g, 0, "Assassin")
    options = cardplay.window_options(g, 0, Phase.ANNOUNCEMENTS)
    assert {o.blame for o in options} == {"Ehud"}  # a Judge cannot take the blame
    assert {o.target for o in options} == {"Saul"}
    g.run_phase()
    assert "Saul" not in g.state.generals and "Saul" in g.state.discard
    assert ehud.title == ASSASSIN_TITLE
    assert g.state.wrath == 1
    assert card in g.state.discard


def test_assassin_offered_in_every_phase_but_combat_and_inside_battles() -> None:
    """Assassin, Justice (AN-3, CB-2): their windows are every phase but Combat; inside a battle
    the Assassin can be played too, and kills before strengths are counted."""
    g = blank_game(2, rules=NO_DICE, strategies=[
        Scripted(0, play_kinds("Assassin", target="Joab")), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Joab", 1, "Megiddo", troops=6)
    add_general(g, "Tola", 0, "Megiddo", troops=2)
    add_general(g, "Ehud", 0, plain_hex_near(g, "Dor"))
    give_hand(g, 0, "Assassin")
    give_hand(g, 1, "Justice")
    for phase in Phase:
        assert bool(cardplay.window_options(g, 0, phase)) == (phase is not Phase.COMBAT), phase
    g.state.generals["Tola"].title = ASSASSIN_TITLE
    for phase in Phase:
        assert bool(cardplay.window_options(g, 1, phase)) == (phase is not Phase.COMBAT), phase
    g.state.generals["Tola"].title = None
    [battle] = battle_at(g, hex_of(g, "Megiddo"), 0)
    assert "Joab" not in g.state.generals
    assert battle["defence"] == 1 and battle["winner"] == "attacker"
    assert g.state.wrath == 1


def test_assassin_of_a_reigning_king_adds_no_wrath_and_no_title() -> None:
    """Assassin (TI-11, W-1): the player of a reigning, free King assassinates with no blame,
    no Assassin title and no Wrath."""
    g = blank_game(2, strategies=[Scripted(0, play_kinds("Assassin", target="Saul")), Scripted(1)])
    own(g, "Dor", 0, garrison=1)
    king = add_general(g, "Joab", 0, "Dor")
    ehud = add_general(g, "Ehud", 0, "Dor")
    effects.crown(g, king, "test")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    [card] = give_hand(g, 0, "Assassin")
    assert cardplay.window_options(g, 0, Phase.ANNOUNCEMENTS) == [PlayCard(card, "Saul")]
    g.run_phase()
    assert "Saul" not in g.state.generals
    assert g.state.wrath == 0
    assert ehud.title is None and king.title == KING


def test_justice_kills_an_assassin_without_wrath() -> None:
    """Justice: it puts to death a general holding the Assassin title, with no Wrath; with no
    such general it cannot be played."""
    g = blank_game(2, strategies=[Scripted(0), Scripted(1, play_kinds("Justice"))])
    own(g, "Dor", 0, garrison=1)
    ehud = add_general(g, "Ehud", 0, "Dor", items=("Prophet",))
    add_general(g, "Tola", 0, "Dor")
    [justice] = give_hand(g, 1, "Justice")
    assert cardplay.window_options(g, 1, Phase.ANNOUNCEMENTS) == []
    effects.mark_assassin(g, ehud)
    assert cardplay.window_options(g, 1, Phase.ANNOUNCEMENTS) == [PlayCard(justice, "Ehud")]
    g.run_phase()
    assert "Ehud" not in g.state.generals
    assert g.state.wrath == 0  # not even for the Prophet it carried


def test_justice_cannot_target_a_reigning_king() -> None:
    """Justice (TI-11, TI-15): an Assassin crowned King by the Anointed loses the Assassin title
    and is beyond Justice's reach."""
    g = blank_game(2, strategies=[Scripted(0), Scripted(1, play_kinds("Justice"))])
    own(g, "Dor", 0, garrison=1)
    ehud = add_general(g, "Ehud", 0, "Dor", items=("Anointed",))
    effects.mark_assassin(g, ehud)
    [justice] = give_hand(g, 1, "Justice")
    assert cardplay.window_options(g, 1, Phase.ANNOUNCEMENTS) == [PlayCard(justice, "Ehud")]
    g.run_phase()  # Announcements: the Anointed crowns Ehud before the card window
    assert g.state.king == "Ehud" and ehud.title == KING
    assert cardplay.justice_options(g, 1, justice) == []
    assert g.state.players[1].hand == [justice]


# --- events ----------------------------------------------------------------------------------


def test_famine_and_abundance_change_income_on_the_struck_terrain() -> None:
    """Famine, Abundance (IN-1, AN-2): every settlement on the struck terrain earns 1 less (never
    below 0) or 1 more this round; other terrains are untouched."""
    g = blank_game(2, strategies=passing(2))
    own(g, "Megiddo", 0, garrison=1)  # plain
    own(g, "Tekoa", 0, garrison=1, developments=1)  # desert
    g.state.event_area.extend([take_card(g, "Famine"), take_card(g, "Abundance")])
    g.rng = FixedDice(2, 6)  # Famine on the plain, Abundance on the desert
    g.run(cardplay.resolve_events)
    assert phases.income_of(g, sid(g, "Megiddo")) == 0
    assert phases.income_of(g, sid(g, "Tekoa")) == 1 + 2 + 1
    assert g.state.event_area == []
    g.run_phase()  # the round goes on; the modifiers last this round only
    while g.state.phase is not Phase.ANNOUNCEMENTS:
        g.run_phase()
    assert phases.income_of(g, sid(g, "Megiddo")) == 1


def test_plague_halves_troops_and_kills_generals_with_0_or_1_troop() -> None:
    """Plague: a d6 for each garrison and each general on the struck terrain; on 4-6 the target
    loses half its troops rounded up, and a general commanding 0 or 1 troop dies (its card
    discarded); on 1-3 nothing happens; other terrains are spared."""
    g = blank_game(2)
    own(g, "Megiddo", 0, garrison=5)
    add_general(g, "Joab", 0, "Megiddo", troops=3)
    add_general(g, "Caleb", 0, "Megiddo", troops=1)
    add_general(g, "Tola", 1, plain_hex_near(g, "Dor"))
    add_general(g, "Samson", 1, plain_hex_near(g, "Megiddo", terrain=Terrain.MOUNTAIN), troops=1)
    g.state.event_area.append(take_card(g, "Plague"))
    g.rng = FixedDice(1, then=4)  # plain; every target rolls a 4
    g.run(cardplay.resolve_events)
    assert g.state.settlements[sid(g, "Megiddo")].garrison == 2
    assert g.state.generals["Joab"].troops == 1
    assert "Caleb" not in g.state.generals and "Tola" not in g.state.generals
    assert {"Caleb", "Tola"} <= set(g.state.discard)
    assert g.state.generals["Samson"].troops == 1
    g = blank_game(2)
    own(g, "Megiddo", 0, garrison=5)
    add_general(g, "Caleb", 0, "Megiddo", troops=1)
    g.state.event_area.append(take_card(g, "Plague"))
    g.rng = FixedDice(1, then=3)
    g.run(cardplay.resolve_events)
    assert g.state.settlements[sid(g, "Megiddo")].garrison == 5 and "Caleb" in g.state.generals


def test_plague_loses_the_loss_share_of_the_troops_rounded_up() -> None:
    """Plague (9.4) with ``plague.loss_share = 0.25``: a hit garrison of 5 loses 2 (1.25 rounded
    up), a general leading 4 loses 1."""
    g = blank_game(2, rules={"plague": {"loss_share": 0.25}})
    own(g, "Megiddo", 0, garrison=5)
    add_general(g, "Joab", 0, "Megiddo", troops=4)
    g.state.event_area.append(take_card(g, "Plague"))
    g.rng = FixedDice(1, then=6)
    g.run(cardplay.resolve_events)
    assert g.state.settlements[sid(g, "Megiddo")].garrison == 3 and g.state.generals["Joab"].troops == 3


def test_sandstorm_strikes_desert_seals_it_and_stops_battles() -> None:
    """Sandstorm (AN-2, MV-4, CB-1, CB-9): always the desert, with no die and no Prophet's
    choice; for the round every desert hex and its neighbours are sealed, and an assault in the
    desert becomes a siege instead of a battle."""
    g = blank_game(2, rules=NO_DICE, strategies=passing(2))
    add_general(g, "Isaiah", 0, plain_hex_near(g, "Dor"), items=("Prophet",))
    own(g, "Tekoa", 1, garrison=1)
    add_general(g, "Joab", 0, "Tekoa", troops=6)
    caleb = add_general(g, "Caleb", 1, "Jericho")
    g.state.event_area.append(take_card(g, "Sandstorm"))
    g.rng = FixedDice()
    events: list[dict] = []
    g.log = events.append
    g.run_phase()  # Announcements
    assert g.rng.asked == 0
    assert not g.strategies[0].asked
    assert events_of(events, "event")[0]["terrain"] == "desert"
    assert g.state.storm
    assert not movement.can_move(g, caleb)
    battles = battle_at(g, hex_of(g, "Tekoa"), 0)
    assert battles == []
    assert g.state.sieges[hex_of(g, "Tekoa")].besieger == 0
    assert g.state.settlements[sid(g, "Tekoa")].owner == 1


@pytest.mark.parametrize("kind", ["Famine", "Abundance", "Plague", "Sandstorm"])
def test_events_never_enter_a_hand(kind: str) -> None:
    """9.4, DR-2, DR-3: a drawn event goes straight to the Event Area, and is discarded once it
    has acted at the next Announcements."""
    g = blank_game(2)
    card = take_card(g, kind)
    g.run(effects.receive_card, 0, card)
    assert g.state.players[0].hand == [] and g.state.event_area == [card]
    g.rng = FixedDice(1)
    g.run(cardplay.resolve_events)
    assert g.state.event_area == [] and card in g.state.discard


# --- card events (GameResult.card_events, issue 8) ------------------------------------------


def card_events(g) -> list[tuple[int, int, str, str]]:
    return list(g.card_events)


def test_card_events_name_the_card_over_the_hand_limit() -> None:
    """9.6: a card over the hand limit (DR-2) is 'discarded' by the seat that drew it."""
    g = blank_game(2, rules={"cards": {"hand_limit": 1}}, strategies=passing(2))
    give_hand(g, 1, "Tax")
    card = take_card(g, "Blessing")
    g.run(effects.receive_card, 1, card)
    assert card_events(g) == [(1, 1, "Tax", "discarded")]  # Scripted takes the first: the Tax


def test_card_events_follow_generals_to_death_and_captivity() -> None:
    """9.6: a general killed is 'died' and its items 'discarded' (GN-2); a general taken captive
    is 'captured' (seat: its owner) and loses its items too; freed, it is 'freed'."""
    g = blank_game(2, rules=NO_DICE)
    field = plain_hex_near(g, "Dor")
    add_general(g, "Joab", 0, field, troops=6)
    add_general(g, "Caleb", 1, field, items=("Goliath's Sword",))
    battle_at(g, field, 0)
    assert card_events(g) == [(1, 1, "Goliath's Sword", "discarded"), (1, 1, "Caleb", "captured")]
    g.run(effects.kill_general, g.state.generals["Joab"], None, "test")
    assert card_events(g)[-1] == (1, 0, "Joab", "died")
    effects.free_unguarded_captives(g)
    assert card_events(g)[-1] == (1, 1, "Caleb", "freed")


def test_card_events_of_events_invaders_and_the_reshuffle() -> None:
    """9.6: an event resolved (AN-2) is 'resolved' with no seat, a fourth event pushes the oldest
    out 'discarded' (DR-3); invaders are 'released' (W-2) and, beaten, 'defeated' (W-4); an empty
    deck refilled from the discard pile 'reshuffled' every card (DR-1)."""
    g = blank_game(2)
    famine = take_card(g, "Famine")
    g.state.event_area.append(famine)
    g.rng = FixedDice(1)
    g.run(cardplay.resolve_events)
    assert card_events(g) == [(1, -1, "Famine", "resolved")]
    g = blank_game(2)
    for kind in ("Famine", "Abundance", "Plague"):
        g.state.event_area.append(take_card(g, kind))
    g.run(effects.receive_card, 0, take_card(g, "Sandstorm"))
    assert card_events(g) == [(1, -1, "Famine", "discarded")]
    g = blank_game(2)
    own(g, "Gaza", 1, garrison=1)
    g.state.wrath = 12
    g.run(effects.add_wrath, 1, "test")
    released = [e for e in card_events(g) if e[3] == "released"]
    assert len(released) == 2 and {e[2] for e in released} == set(g.state.pairs[0].names)
    g = blank_game(2)
    g.state.discard, g.state.deck = g.state.deck[:5], []
    g.run(effects.draw_cards, 1, 1)
    events = card_events(g)
    assert [e[3] for e in events[:6]] == ["reshuffled"] * 5 + ["drawn"]
    assert [e[1] for e in events[:6]] == [-1] * 5 + [1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_card_events_account_for_every_card_of_whole_games(seed) -> None:
    """9.6, issue 8: over whole random 4-player games the card events balance: every card that
    left the deck was dealt or drawn; the one-use cards dealt or drawn, less those played or
    discarded, are the hands; generals attached less those dead are on the map; items dealt or
    drawn less those discarded (no carrier, or their general fell) or sacrificed are carried; events less those resolved or pushed out
    wait in the Event Area; invaders released less those defeated are loose. Recording changes
    no game (test_digest)."""
    from plsim.board import default_board
    from plsim.engine.cards import CardAction
    from plsim.engine.game import Game
    from plsim.strategy.registry import resolve

    random = resolve("random")
    game = Game.new(default_board(), Rules(), [random.make(seat, seed) for seat in range(4)], seed, check=True)
    result = game.play()
    s = game.state
    events = result.card_events
    assert events and {e[3] for e in events} <= {a.value for a in CardAction}
    assert all(-1 <= seat < 4 for _, seat, _, _ in events)
    assert [e[0] for e in events] == sorted(e[0] for e in events)
    count = Counter((category_of(kind) if kind not in INVADERS else "invader", action) for _, _, kind, action in events)

    def total(category, *actions):
        return sum(count[(category, a)] for a in actions)

    taken = sum(n for (_, action), n in count.items() if action in ("dealt", "drawn"))
    assert taken == len(full_deck(Rules())) + sum(n for (_, a), n in count.items() if a == "reshuffled") - len(s.deck)
    one_use = Category.ONE_USE
    assert (total(one_use, "dealt", "drawn") - total(one_use, "played", "discarded")
            == sum(len(p.hand) for p in s.players))
    general = Category.GENERAL
    assert total(general, "attached") - total(general, "died") == len(s.generals)
    assert total(general, "dealt", "drawn") == total(general, "attached", "discarded")
    item = Category.ITEM
    assert (total(item, "dealt", "drawn") - total(item, "discarded", "sacrificed")
            == sum(len(g.items) for g in s.generals.values()))
    event = Category.EVENT
    assert total(event, "drawn") - total(event, "resolved", "discarded") == len(s.event_area)
    assert total("invader", "released") - total("invader", "defeated") == sum(len(p.names) for p in s.pairs)
