"""Section 13 of RULES.md, the Wrath of God (W-1..W-6), and plsim's W-7.

Invader pairs are released by pushing the cup to the threshold and fight in a Combat phase run
whole with ``run_phase``; ``combat.dice = 0`` makes every total exact.
"""

from __future__ import annotations

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
    own,
    sid,
)

from plsim.board import Terrain
from plsim.engine.cards import INVADERS, Phase, kind_of
from plsim.engine.state import InvaderPair
from plsim.strategy import Buy, Choose, PlayCard

NO_DICE = {"combat": {"dice": 0}}


def logged(g) -> list[dict]:
    events: list[dict] = []
    g.log = events.append
    return events


def combat_round(g) -> list[dict]:
    """Run one Combat phase; the events it logged."""
    events = logged(g)
    g.state.phase = Phase.COMBAT
    g.run_phase()
    return events


def loose_pair(g, at: str | None = None, target: str | None = None, troops=(6, 6)) -> InvaderPair:
    """A pair already loose (taken from the pool), last seen at ``at``, or with a first target."""
    names = [g.state.invader_pool.pop(0), g.state.invader_pool.pop(0)]
    pair = InvaderPair(names, list(troops), at=sid(g, at) if at else None, target=sid(g, target) if target else None)
    g.state.pairs.append(pair)
    return pair


# --- W-1 ------------------------------------------------------------------------------------


def test_w_1_tax_adds_1_unless_the_taxer_is_the_regions_judge() -> None:
    """W-1: a Tax adds 1 Wrath, unless the taxer holds that region's Judge title."""
    g = blank_game(2)
    own(g, "Gaza", 1, garrison=1)
    make_judge(g, add_general(g, "Tola", 0, "Megiddo"), "Israel", "Megiddo")
    tax1, tax2 = give_hand(g, 0, "Tax", "Tax")
    g.run(cardplay.play_card, 0, PlayCard(tax1, "Philistia"))
    assert g.state.wrath == 1
    g.run(cardplay.play_card, 0, PlayCard(tax2, "Israel"))
    assert g.state.wrath == 1
    assert g.state.taxed == {"Philistia": 0, "Israel": 0}


def test_w_1_mercenaries_add_1() -> None:
    """W-1: each Mercenaries played adds 1 Wrath."""
    def mercenaries(view, decision):
        return next((o for o in decision.options if isinstance(o, PlayCard)), None)

    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, mercenaries), Scripted(1)])
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Tola", 0, "Megiddo")
    give_hand(g, 0, "Mercenaries", "Mercenaries")
    g.state.assaults[g.state.settlements[sid(g, "Megiddo")].hex] = 0
    events = combat_round(g)
    assert g.state.wrath == 2
    assert events_of(events, "battle")[0]["attack"] == 1 + 4 + 4


def test_w_1_assassin_adds_1_unless_played_by_a_reigning_king() -> None:
    """W-1, TI-11: an Assassin adds 1 Wrath, but none when played by a reigning King's player."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    own(g, "Gaza", 1, garrison=1)
    add_general(g, "Saul", 1, "Gaza")
    add_general(g, "Caleb", 1, "Gaza")
    give_hand(g, 0, "Assassin", "Assassin")
    g.run(cardplay.assassinate, 0, "Saul", "Ehud")
    assert g.state.wrath == 1
    effects.crown(g, add_general(g, "Joab", 0, "Megiddo"), "test")
    g.run(cardplay.assassinate, 0, "Caleb", None)
    assert g.state.wrath == 1
    assert "Caleb" not in g.state.generals


def test_w_1_killing_a_prophets_carrier_adds_3_but_the_kings_assassination_adds_none() -> None:
    """W-1 [M]: a player whose Assassin kills a Prophet's carrier adds 3 Wrath besides the
    Assassin's own 1; the reigning King's assassination adds no Wrath at all ("Asesinato impune
    … no se suma Ira de Dios"), the carrier's 3 included."""
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    add_general(g, "Isaiah", 1, "Gaza", items=("Prophet",))
    own(g, "Gaza", 1, garrison=1)
    give_hand(g, 0, "Assassin")
    g.run(cardplay.assassinate, 0, "Isaiah", "Ehud")
    assert g.state.wrath == 1 + 3
    g = blank_game(2)
    own(g, "Dor", 0, garrison=1)
    effects.crown(g, add_general(g, "Joab", 0, "Dor"), "test")
    add_general(g, "Isaiah", 1, "Gaza", items=("Prophet",))
    own(g, "Gaza", 1, garrison=1)
    g.run(cardplay.assassinate, 0, "Isaiah", None)
    assert g.state.wrath == 0 and "Isaiah" not in g.state.generals


def test_w_1_a_revolt_that_kills_a_carrier_is_a_players_hand_a_plague_is_not() -> None:
    """W-1 [A] ("por mano de un jugador"): a Revolt is a card a player plays, so a Prophet's
    carrier it kills adds 3 Wrath; the same death by a Plague event adds none."""
    def carrier_game():
        g = blank_game(2)
        own(g, "Gaza", 1, garrison=1)
        add_general(g, "Isaiah", 1, "Gaza", items=("Prophet",))
        g.rng = FixedDice(then=6)
        return g

    g = carrier_game()
    [revolt] = give_hand(g, 0, "Revolt")
    g.state.taxed["Philistia"] = 0
    events = logged(g)
    g.run(cardplay.play_card, 0, PlayCard(revolt, "Philistia"))
    assert "Isaiah" not in g.state.generals
    assert [(e["cause"], e["killer"]) for e in events_of(events, "death")] == [("revolt", 0)]
    assert g.state.wrath == 3
    g = carrier_game()
    cardplay.plague_terrain(g, g.board.terrain[hex_of(g, "Gaza")])
    assert "Isaiah" not in g.state.generals and g.state.wrath == 0


def test_w_1_guilt_sacrifice_takes_3_off_and_never_below_0() -> None:
    """W-1, ST-7: a Guilt Sacrifice bought in Acquisitions lowers Wrath by 3; Wrath never drops
    below 0."""
    def sacrifice(view, decision):
        return next((o for o in decision.options if isinstance(o, Buy) and o.what == "guilt_sacrifice"), None)

    g = blank_game(2, strategies=[Scripted(0, sacrifice), Scripted(1)])
    city = make_judge(g, add_general(g, "Tola", 0, "Megiddo"), "Israel", "Megiddo")
    g.state.settlements[city].tabernacle = True
    g.state.players[0].coins = 45
    g.state.wrath = 5
    g.state.phase = Phase.ACQUISITIONS
    g.run_phase()
    assert g.state.wrath == 0  # 5 -> 2 -> 0 (not -1), then no more offered
    assert g.state.players[0].coins == 45 - 2 * 20
    g.run(effects.add_wrath, -3, "test")
    assert g.state.wrath == 0


# --- W-2 ------------------------------------------------------------------------------------


def test_w_2_reaching_13_releases_a_pair_and_empties_the_cup() -> None:
    """W-2: when the cup reaches 13 a pair of invaders is let loose and the cup empties to 0."""
    g = blank_game(2)
    own(g, "Gaza", 1, garrison=1)
    g.state.wrath = 12
    [tax] = give_hand(g, 0, "Tax")
    events = logged(g)
    g.run(cardplay.play_card, 0, PlayCard(tax, "Philistia"))
    assert g.state.wrath == 0
    assert len(g.state.pairs) == 1 and g.state.pairs_released == 1
    pair = g.state.pairs[0]
    assert len(pair.names) == 2 and len(g.state.invader_pool) == 6
    assert events_of(events, "invaders")[0]["names"] == pair.names
    # 12 is not enough; overshooting releases one pair and empties the cup as well
    g.state.wrath = 11
    g.run(effects.add_wrath, 1, "test")
    assert g.state.wrath == 12 and len(g.state.pairs) == 1
    g.run(effects.add_wrath, 3, "test")
    assert g.state.wrath == 0 and len(g.state.pairs) == 2


def test_w_2_invaders_per_pair_come_together() -> None:
    """W-2 with ``invaders.per_pair = 3``: the Wrath lets three invaders loose together, each with
    its troops; the pool keeps the other five."""
    g = blank_game(2, rules={"invaders": {"per_pair": 3}})
    own(g, "Gaza", 1, garrison=1)
    g.state.wrath = 12
    g.run(effects.add_wrath, 1, "test")
    [pair] = g.state.pairs
    assert len(pair.names) == 3 and pair.troops == [6, 6, 6] and len(g.state.invader_pool) == 5


def test_w_2_at_most_4_pairs_the_cup_still_empties() -> None:
    """W-2, 9.5: no more than 4 pairs are ever loose; at the threshold with 4 loose, the cup
    still empties but no pair comes."""
    g = blank_game(2)
    own(g, "Gaza", 1, garrison=1)
    for n in range(1, 5):
        g.run(effects.add_wrath, 13, "test")
        assert len(g.state.pairs) == n and g.state.wrath == 0
    assert g.state.invader_pool == []
    assert sorted(n for pair in g.state.pairs for n in pair.names) == sorted(INVADERS)
    g.run(effects.add_wrath, 13, "test")
    assert len(g.state.pairs) == 4 and g.state.wrath == 0 and g.state.pairs_released == 4


def test_w_2_the_cap_holds_even_with_invaders_left_in_the_pool() -> None:
    """W-2: the cap on loose pairs (`wrath.max_pairs`) holds even while the pool has cards."""
    g = blank_game(2, rules={"wrath": {"max_pairs": 2}})
    own(g, "Gaza", 1, garrison=1)
    for _ in range(3):
        g.run(effects.add_wrath, 13, "test")
    assert len(g.state.pairs) == 2 and len(g.state.invader_pool) == 4 and g.state.wrath == 0


# --- W-3 ------------------------------------------------------------------------------------


def test_w_3_prophet_owner_chooses_the_first_target() -> None:
    """W-3: the Prophet's owner chooses which player-owned settlement a new pair attacks first;
    the pair attacks it in the next Combat."""
    def target_gaza(view, decision):
        return Choose(sid(g, "Gaza")) if decision.kind == "invader_target" else None

    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0), Scripted(1, target_gaza)])
    own(g, "Gaza", 0, garrison=1)
    own(g, "Dor", 0, garrison=1)
    own(g, "Megiddo", 1, garrison=1)
    add_general(g, "Isaiah", 1, "Megiddo", items=("Prophet",))
    g.rng = FixedDice()
    g.run(effects.add_wrath, 13, "test")
    [asked] = [d for d in g.strategies[1].asked if d.kind == "invader_target"]
    assert {o.value for o in asked.options} == {sid(g, "Gaza"), sid(g, "Dor"), sid(g, "Megiddo")}
    assert g.state.pairs[0].target == sid(g, "Gaza")
    events = combat_round(g)
    assert [e["settlement"] for e in events_of(events, "invasion")] == [sid(g, "Gaza")]
    assert not g.state.settlements[sid(g, "Gaza")].standing


@pytest.mark.parametrize("seed", range(8))
def test_w_3_without_a_prophet_a_random_player_owned_settlement(seed: int) -> None:
    """W-3: with no Prophet in play the first target is a player-owned settlement picked at
    random, never a Canaanite or unowned one."""
    g = blank_game(3, seed=seed)
    owned = {own(g, "Gaza", 0, garrison=1), own(g, "Dor", 1, garrison=1), own(g, "Tekoa", 2, garrison=1)}
    g.run(effects.add_wrath, 13, "test")
    assert g.state.pairs[0].target in owned


# --- W-4 ------------------------------------------------------------------------------------


def test_w_4_winning_pair_razes_without_loot_and_kills_the_defenders() -> None:
    """W-4: the pair fights as one side (3 + 6 troops per invader); winning, it razes the
    settlement without loot, its defending generals die, and it loses troops as a winner
    (CB-6)."""
    g = blank_game(2, rules=NO_DICE)
    own(g, "Dor", 0, garrison=2, wall=True, developments=1)
    add_general(g, "Tola", 0, "Dor", troops=1, items=("Squire",))
    pair = loose_pair(g, target="Dor")
    coins = [p.coins for p in g.state.players]
    events = combat_round(g)
    [battle] = events_of(events, "battle")
    assert battle["attack"] == 18 and battle["defence"] == 1 + 1 + 2 + 4
    dor = g.state.settlements[sid(g, "Dor")]
    assert not dor.standing and dor.owner is None
    assert [p.coins for p in g.state.players] == coins
    assert "Tola" not in g.state.generals and "Tola" in g.state.discard
    assert events_of(events, "razed")[0]["loot"] == 0
    assert pair in g.state.pairs and sorted(pair.troops) == [5, 6]  # half of 3 troops, rounded down
    assert pair.at == sid(g, "Dor")


def test_w_4_losing_pair_dies_and_returns_to_the_pool() -> None:
    """W-4: a beaten pair dies, its two cards go back to the pool, and the defenders lose half
    the pair's troops as winners (CB-6)."""
    g = blank_game(2, rules=NO_DICE)
    make_judge(g, add_general(g, "Joab", 0, "Megiddo", troops=6), "Israel", "Megiddo", garrison=10)
    add_general(g, "Samson", 0, "Megiddo", troops=6)
    pair = loose_pair(g, target="Megiddo")
    events = combat_round(g)
    [battle] = events_of(events, "battle")
    assert battle["defence"] == 10 + 6 + 10 + 10 and battle["winner"] == "defender"
    assert g.state.pairs == []
    assert sorted(g.state.invader_pool) == sorted(INVADERS)
    assert events_of(events, "invaders_defeated")[0]["names"] == pair.names
    assert g.state.settlements[sid(g, "Megiddo")].garrison == 10 - 6
    assert g.state.generals["Joab"].troops == 6


def test_w_4_defender_may_hire_mercenaries_against_invaders() -> None:
    """W-4, CB-8: against invaders the defender may hire Mercenaries (CB-8's window offers
    more, W-6); they add 4 and 1 Wrath as usual."""
    def hire(view, decision):
        return next((o for o in decision.options if isinstance(o, PlayCard) and kind_of(o.card) == "Mercenaries"),
                    None)

    g = blank_game(2, rules=NO_DICE, strategies=[Scripted(0, hire), Scripted(1)])
    own(g, "Dor", 0, garrison=2)
    add_general(g, "Ehud", 0, "Dor")
    add_general(g, "Saul", 1, "Gaza")
    own(g, "Gaza", 1, garrison=1)
    give_hand(g, 0, "Mercenaries", "Ambush", "Assassin", "Siege Weapons")
    loose_pair(g, target="Dor")
    events = combat_round(g)
    assert events_of(events, "battle")[0]["defence"] == 1 + 2 + 4
    assert g.state.wrath == 1


# --- W-5, W-6, W-7 --------------------------------------------------------------------------


def test_w_5_loose_pairs_jump_along_the_ring_to_the_next_player_settlement() -> None:
    """W-5, MP-7: each Combat, a pair already loose jumps ahead along the board's ring to the
    next player-owned settlement (skipping Canaanite, unowned and razed ones) and attacks it."""
    g = blank_game(2, rules=NO_DICE)
    ring = list(g.board.ring)
    start = ring.index(sid(g, "Hazor"))
    after = [g.board.settlements[i].name for i in ring[start + 1:start + 7]]
    assert after == ["Dan", "Jabesh-Gilead", "Ramoth-Gilead", "Beth-shean", "Mahanaim", "Penuel"]
    own(g, "Beth-shean", 1, garrison=1)  # Dan, Jabesh-Gilead unowned; Ramoth-Gilead Canaanite
    own(g, "Penuel", 0, garrison=1)
    own(g, "Sidon", 0, garrison=1)  # before Hazor on the ring: only reached after wrapping round
    loose_pair(g, at="Hazor")
    events = combat_round(g)
    assert [e["settlement"] for e in events_of(events, "invasion")] == [sid(g, "Beth-shean")]
    assert not g.state.settlements[sid(g, "Beth-shean")].standing
    events = combat_round(g)
    assert [e["settlement"] for e in events_of(events, "invasion")] == [sid(g, "Penuel")]
    own(g, "Hazor", 1, garrison=1)
    events = combat_round(g)  # from Penuel on round the ring: Sidon is last, then Hazor
    assert [e["settlement"] for e in events_of(events, "invasion")] == [sid(g, "Sidon")]
    events = combat_round(g)
    assert [e["settlement"] for e in events_of(events, "invasion")] == [sid(g, "Hazor")]


def test_w_5_a_new_pair_first_attacks_its_target_then_jumps_on() -> None:
    """W-5, W-3: a new pair attacks its first target at the next Combat, then jumps along the
    ring from there."""
    g = blank_game(2, rules=NO_DICE)
    own(g, "Beth-shean", 1, garrison=1)
    own(g, "Mahanaim", 0, garrison=1)
    own(g, "Dor", 0, garrison=1)
    loose_pair(g, target="Beth-shean")
    assert [e["settlement"] for e in events_of(combat_round(g), "invasion")] == [sid(g, "Beth-shean")]
    assert [e["settlement"] for e in events_of(combat_round(g), "invasion")] == [sid(g, "Mahanaim")]


# W-6: invaders are generals for the cards (CB-8's window, the Assassin, the Ambush, Plague)
def invasion_game(reading: str = "generals", **by_seat):
    """Seat 1 holds walled Megiddo (9 troops, Caleb) and a pair is aimed at it for this Combat;
    ``by_seat`` maps "s0", "s1" to Scripted rules."""
    rules = {**NO_DICE, "cards": {"draw_per_round": 0}, "invaders": {"reading": reading}}
    g = blank_game(2, rules=rules, phase=Phase.COMBAT,
                   strategies=[Scripted(seat, by_seat.get(f"s{seat}")) for seat in range(2)])
    own(g, "Megiddo", 1, garrison=9, wall=True)
    add_general(g, "Caleb", 1, "Megiddo")
    loose_pair(g, target="Megiddo")
    return g


def battle_play(kind: str, target: str | None = None):
    """A Scripted rule that plays ``kind`` (on ``target``) in its battle window, once."""
    played = []

    def rule(view, decision):
        if decision.kind != "battle_cards" or played:
            return None
        for option in decision.options:
            if isinstance(option, PlayCard) and kind_of(option.card) == kind and (target is None or option.target == target):
                played.append(option)
                return option
        return None

    return rule


def test_cb_8_w_6_against_invaders_the_defender_plays_what_any_battle_offers() -> None:
    """CB-8, W-6 [M reading]: invaders are generals, so the defender's card window in their attack
    offers what any defender's does (CB-2: Mercenaries, Ambush, Assassin; Siege Weapons is the
    original attacker's); under ``invaders.reading = "off_map"`` only Mercenaries."""
    for reading, expected in (("generals", {"Mercenaries", "Ambush", "Assassin"}), ("off_map", {"Mercenaries"})):
        offered = []

        def record(view, decision):
            if decision.kind == "battle_cards":
                offered.append({kind_of(o.card) for o in decision.options if isinstance(o, PlayCard)})
            return None

        g = invasion_game(reading, s1=record)
        give_hand(g, 1, "Mercenaries", "Ambush", "Siege Weapons", "Assassin")
        events = combat_round(g)
        assert offered == [expected], reading
        assert events_of(events, "invasion")


def test_w_6_a_defenders_ambush_kills_the_invaders_of_the_hex() -> None:
    """W-6, CB-11: the defender's Ambush kills every enemy general of the hex, the invaders
    too; a pair left with nobody loses without a roll, and its invaders go back to the pool as
    beaten ones (W-4, 9.6) with no Wrath."""
    g = invasion_game(s1=battle_play("Ambush"))
    give_hand(g, 1, "Ambush")
    pool = len(g.state.invader_pool)
    events = combat_round(g)
    assert [e["cause"] for e in events_of(events, "invader_death")] == ["ambush", "ambush"]
    assert not events_of(events, "battle") and not g.state.pairs
    assert len(g.state.invader_pool) == pool + 2
    assert g.state.settlements[sid(g, "Megiddo")].standing and g.state.settlements[sid(g, "Megiddo")].garrison == 9
    assert [a for _, _, k, a in g.card_events if k in INVADERS] == ["defeated", "defeated"]
    assert g.state.wrath == 0


def test_w_6_an_assassin_in_the_invasion_leaves_the_pair_to_fight_on_alone() -> None:
    """W-6, CB-2: the defender's Assassin may strike an invader inside the battle ("también
    dentro de una batalla"); the blamed general takes the title, Wrath rises by 1, and the pair
    fights on with its last invader (3 + 6)."""
    g = invasion_game(s1=battle_play("Assassin", "Jabin"))
    g.state.pairs[0].names, g.state.invader_pool = ["Jabin", "Sisera"], [n for n in INVADERS if n not in ("Jabin", "Sisera")]
    give_hand(g, 1, "Assassin")
    events = combat_round(g)
    [death] = events_of(events, "invader_death")
    assert (death["invader"], death["cause"], death["killer"]) == ("Jabin", "assassin", 1)
    [battle] = events_of(events, "battle")
    assert battle["attack"] == 3 + 6 and battle["defence"] == 9 + 4 + 2 and battle["winner"] == "defender"
    assert g.state.generals["Caleb"].title is not None and g.state.wrath == 1
    assert not g.state.pairs and {"Jabin", "Sisera"} <= set(g.state.invader_pool)


def test_w_6_a_loose_pair_stands_where_it_last_attacked_and_the_assassin_reaches_it() -> None:
    """W-6: between its attacks a pair stands on the settlement it last attacked (the view and a
    saved position show it); outside Combat an Assassin may target each of its invaders, who
    then dies and returns to the pool while the other stays, alone; under the other reading the
    invaders are no targets."""
    from plsim.engine.position import state_to_dict

    g = blank_game(2, rules=NO_DICE)
    own(g, "Dor", 0, garrison=1)
    add_general(g, "Ehud", 0, "Dor")
    gaza = own(g, "Gaza", 1, garrison=0)
    pair = loose_pair(g, at="Gaza")
    [assassin] = give_hand(g, 0, "Assassin")
    assert [(p.names, p.at) for p in g.view(0).pairs] == [(tuple(pair.names), gaza)]
    assert state_to_dict(g.state)["pairs"][0]["at"] == gaza
    options = cardplay.assassin_options(g, 0, assassin)
    assert {o.target for o in options} == {*pair.names}
    first, second = pair.names
    g.run(cardplay.play_card, 0, PlayCard(assassin, first, "Ehud"))
    [left] = g.state.pairs
    assert left.names == [second] and left.troops == [6] and left.at == gaza
    assert first in g.state.invader_pool and g.state.wrath == 1
    off_map = blank_game(2, rules={**NO_DICE, "invaders": {"reading": "off_map"}})
    own(off_map, "Dor", 0, garrison=1)
    add_general(off_map, "Ehud", 0, "Dor")
    loose_pair(off_map, at="Gaza")
    [card] = give_hand(off_map, 0, "Assassin")
    assert cardplay.assassin_options(off_map, 0, card) == []


def test_w_6_a_plague_strikes_the_invaders_on_its_terrain() -> None:
    """W-6, 9.4: a Plague on the terrain where a pair stands rolls for each invader: on a hit
    one leading more than 1 troop loses half (rounded up), one leading 1 dies and returns to the
    pool. Under ``invaders.reading = "off_map"`` a Plague on every terrain leaves them untouched."""
    g = blank_game(2, rules=NO_DICE)
    own(g, "Dor", 0, garrison=0)
    pair = loose_pair(g, at="Dor", troops=(5, 1))
    first, second = pair.names
    g.rng = FixedDice(then=6)
    events = logged(g)
    cardplay.plague_terrain(g, g.board.terrain[hex_of(g, "Dor")])
    [left] = g.state.pairs
    assert left.names == [first] and left.troops == [2]
    assert [(e["invader"], e["cause"]) for e in events_of(events, "invader_death")] == [(second, "plague")]
    assert second in g.state.invader_pool and g.state.wrath == 0
    g = blank_game(2, rules={**NO_DICE, "invaders": {"reading": "off_map"}})
    own(g, "Dor", 0, garrison=2)
    add_general(g, "Tola", 1, "Megiddo")
    pair = loose_pair(g, at="Dor", troops=(4, 6))
    assert not set(pair.names) & set(g.state.generals)
    g.rng = FixedDice(then=6)
    for terrain in (Terrain.PLAIN, Terrain.MOUNTAIN, Terrain.DESERT):
        cardplay.plague_terrain(g, terrain)
    assert pair.troops == [4, 6]


def test_w_7_a_desert_target_in_a_sandstorm_is_not_attacked() -> None:
    """W-7, CB-1: a pair whose target lies in the desert during a Sandstorm does not attack it
    that round; it stays there and jumps on along the ring the next round."""
    g = blank_game(2, rules=NO_DICE)
    tekoa = own(g, "Tekoa", 0, garrison=1)
    assert g.board.terrain[g.state.settlements[tekoa].hex] == Terrain.DESERT
    ring = list(g.board.ring)
    assert [g.board.settlements[i].name for i in ring[ring.index(tekoa) + 1:][:2]] == ["Jerusalem", "Hebron"]
    own(g, "Hebron", 1, garrison=1)
    pair = loose_pair(g, target="Tekoa")
    g.state.storm = True
    events = combat_round(g)
    assert not events_of(events, "battle")
    assert g.state.settlements[tekoa].standing and pair.at == tekoa
    g.state.storm = False
    events = combat_round(g)
    assert [e["settlement"] for e in events_of(events, "invasion")] == [sid(g, "Hebron")]
    assert g.state.settlements[tekoa].standing
