"""Combat worked by hand over real games (issue 63, item 1): every battle's totals (CB-3 with
GN-1, ST-4, ST-8, the items of 9.2, Mercenaries, W-4), who wins (CB-4) and what the winner loses
(CB-6), recomputed from the state before Combat, the round's moves and the battle's card plays,
with RULES.md's numbers written out here (``test_rules_by_hand``), never the core's arithmetic.

The corpus's battles are nearly all at settlements; War Chariots on open plains and the Ark in
defence are rare in them, so a second test takes the real positions before Combat, hands an
attacker a War Chariot and a defender the Ark (or the Sword), plays the Combat phase again and
works those battles by hand too.

Left out, and counted: a second battle in the same hex within one Combat (an invasion, then the
besieger's assault: the first changed the garrison the second meets). Every other battle of the
games is worked, invasions, Ambushes, Assassins inside battles and Secret Passages included.
"""

from __future__ import annotations

import copy
import functools
import random
from collections import Counter
from typing import Any, NamedTuple

from plsim.strategy import ASSAULT, PASS

from helpers import RuleGame, Scripted
from test_rules_by_hand import BOARD, GENERALS, PLAIN, Rules, corpus, kind, play_phases, terrain_at

INVADERS = -2  # the attacking side of an invasion in a ``battle`` event


def standing_settlement(state: Any, hex_id: int) -> Any:
    """The settlement standing on a hex (MP-3: it exists in this game; not razed), or None."""
    sid = BOARD.settlement_at[hex_id]
    if sid < 0:
        return None
    st = state.settlements[sid]
    return st if st.exists and not st.razed else None


def general_strength(general: Any, open_plain: bool, rules: Rules) -> int:
    """GN-1, CB-3, 9.2: base strength (9.1's table) + the troops it commands + Goliath's Sword
    (+3) + a War Chariot (+3) on an open plain only."""
    strength = GENERALS[general.name][1] + general.troops
    for card in general.items:
        if kind(card) == "Goliath's Sword":
            strength += rules.cards.sword_strength
        elif kind(card) == "War Chariot" and open_plain:
            strength += rules.cards.chariot_strength
    return strength


def fortification(st: Any, state: Any, rules: Rules, wall_cancelled: bool) -> int:
    """ST-4, ST-8: the wall's +4, or a Judge's city's +6 instead, melting under siege by the
    siege's round (its first round the full bonus; the table's last value holds after). Siege
    Weapons or a Secret Passage cancel a wall, never a city's bonus."""
    d = rules.defence
    if st.city:
        table = d.city_by_siege_round
    elif st.wall and not wall_cancelled:
        table = d.wall_by_siege_round
    else:
        return 0
    siege = state.sieges.get(st.hex)
    melt = 0 if siege is None else state.round - siege.started
    return table[min(melt, len(table) - 1)]


def battle_by_hand(e: dict, before: Any, rules: Rules, dead: set[str], plays: list[dict], moves: list[dict],
                   invasion: list[str] | None, terms: Counter) -> tuple[int, int, list[str], list[str]]:
    """CB-3 (W-4 for invaders): a battle's (attack, defence) before dice, and the fighting
    generals of each side, from the state before Combat (``before``), the generals killed in this
    Combat before the battle (``dead``: an Ambush, an Assassin), the cards played so far in it
    (``plays``), this round's moves (``moves``: a Secret Passage) and, for an invasion, its
    invaders. ``terms`` counts what the battle used."""
    h, attacker, defender = e["hex"], e["attacker"], e["defender"]
    st = standing_settlement(before, h)
    open_plain = st is None and terrain_at(h) == PLAIN
    here = [g for g in before.generals.values() if g.hex == h and g.captor is None and g.name not in dead]
    mercenaries = Counter(p["seat"] for p in plays if p["card"] == "Mercenaries" and p.get("hex") == h)
    if attacker == INVADERS:  # W-4: each invader, strength + its troops
        pair = next(p for p in before.pairs if set(p.names) & set(invasion))
        attack = sum(rules.invaders.strength + troops for name, troops in zip(pair.names, pair.troops)
                     if name not in dead)
        attackers, passage, siege_weapons = [], False, False
        terms["invasion"] += 1
    else:
        attackers = [g for g in here if g.owner == attacker]
        attack = sum(general_strength(g, open_plain, rules) for g in attackers)
        names = {g.name for g in attackers}
        passage = any(m["passage"] and m["to"] == h and m["general"] in names for m in moves)
        siege_weapons = any(p["card"] == "Siege Weapons" and p.get("hex") == h and p["seat"] == attacker
                            for p in plays)
    attack += rules.cards.mercenaries_strength * mercenaries[attacker]
    defenders = [g for g in here if g.owner == defender]
    defence = sum(general_strength(g, open_plain, rules) for g in defenders)
    defence += rules.cards.mercenaries_strength * mercenaries[defender]
    if any(kind(c) == "Ark" for g in defenders for c in g.items):  # the Ark: +3 to the defending side
        defence += rules.defence.ark
        terms["ark"] += 1
    if st is not None:  # a settlement's defenders add its garrison and its wall or city bonus
        defence += st.garrison + fortification(st, before, rules, siege_weapons or passage)
    items = [kind(c) for g in attackers + defenders for c in g.items]
    terms["open field"] += st is None
    terms["chariot on an open plain"] += open_plain and "War Chariot" in items
    terms["chariot in a settlement"] += st is not None and "War Chariot" in items
    terms["sword"] += "Goliath's Sword" in items
    terms["mercenaries"] += bool(mercenaries)
    terms["siege weapons"] += siege_weapons
    terms["secret passage"] += passage
    terms["city"] += st is not None and st.city
    terms["wall"] += st is not None and st.wall and not st.city
    if st is not None and st.hex in before.sieges:
        terms[f"siege round {min(before.round - before.sieges[st.hex].started, 3) + 1}"] += 1
    terms["troops"] += any(g.troops for g in attackers + defenders)
    terms["varied rules"] += rules != Rules()
    return attack, defence, sorted(g.name for g in attackers), sorted(g.name for g in defenders)


def battles_of_phase(before: Any, events: list[dict], rules: Rules, moves: list[dict], terms: Counter):
    """Each battle of one Combat phase with its totals by hand: (event, attack, defence, attacker
    names, defender names, the events that follow it up to the next battle). A second battle in a
    hex in the same Combat (an invasion, then the besieger's assault) is left out: the first one
    changed the garrison and the generals there."""
    dead: set[str] = set()
    plays: list[dict] = []
    invasion: list[str] | None = None
    fought: set[int] = set()
    for i, e in enumerate(events):
        if e["event"] == "death":
            dead.add(e["general"])
        elif e["event"] == "invader_death":
            dead.add(e["invader"])
        elif e["event"] == "play":
            plays.append(e)
        elif e["event"] == "invasion":
            invasion = e["names"]
        elif e["event"] == "battle":
            if e["hex"] in fought:
                terms["second battle in a hex, left out"] += 1
                continue
            fought.add(e["hex"])
            following = []
            for later in events[i + 1:]:
                if later["event"] in ("battle", "invasion", "play"):
                    break
                following.append(later)
            ambushed = any(p["card"] == "Ambush" and p.get("hex") == e["hex"] for p in plays)
            yield (e, *battle_by_hand(e, before, rules, dead, plays, moves, invasion, terms), following, ambushed)


class Battle(NamedTuple):
    game: str
    round: int
    event: dict
    attack: int  # by hand, before dice
    defence: int
    attackers: list[str]  # the fighting generals, by hand
    defenders: list[str]
    before: Any  # the state before Combat
    following: list[dict]  # the events the battle led to
    ambushed: bool  # an Ambush was played in it
    rules: Rules
    garrisons: list[int]  # every settlement's garrison after the Combat phase


class CombatPhase(NamedTuple):
    game: Any  # its Spec
    round: int
    before: Any  # the state before Combat
    events: list[dict]
    garrisons: list[int]  # every settlement's garrison after Combat
    moves: list[dict]  # this round's moves
    rules: Rules


@functools.cache
def combat_phases() -> list[CombatPhase]:
    """Every Combat phase of 60 games of the corpus."""
    found = []
    for spec in corpus(60):
        moves: list[dict] = []
        for ph in play_phases(spec):
            if ph.name == "movement":
                moves = [e for e in ph.events if e["event"] == "move"]
            elif ph.name == "combat":
                found.append(CombatPhase(spec, ph.round, ph.before, ph.events,
                                         [st.garrison for st in ph.after.settlements], moves, ph.rules))
    return found


@functools.cache
def corpus_battles() -> tuple[list[Battle], Counter]:
    """Every battle of the 60 games with its totals by hand, and the terms they used."""
    terms: Counter = Counter()
    found = []
    for ph in combat_phases():
        for e, attack, defence, attackers, defenders, following, ambushed in battles_of_phase(
                ph.before, ph.events, ph.rules, ph.moves, terms):
            found.append(Battle(str(ph.game), ph.round, e, attack, defence, attackers, defenders, ph.before,
                                following, ambushed, ph.rules, ph.garrisons))
    return found, terms


def check_totals(b: Battle) -> None:
    """The battle's totals less dice, and its fighting generals, are the hand's."""
    e = b.event
    where = f"{b.game}, round {b.round}: {e}"
    assert (e["attack"] - e["attack_roll"], e["defence"] - e["defence_roll"]) == (b.attack, b.defence), \
        f"{where}; by hand {b.attack} against {b.defence}"
    assert (sorted(e["attackers"]), sorted(e["defenders"])) == (b.attackers, b.defenders), where


def test_cb_3_every_battle_total_of_the_corpus_by_hand():
    """CB-3, GN-1, ST-4, ST-8, W-4, CD-1: every battle of 60 real games: its attack and defence,
    less each side's die, equal the sums worked by hand (generals' base strengths and troops,
    Goliath's Sword, War Chariot on an open plain only, Mercenaries, the Ark in defence, the
    garrison, the wall or city bonus melting with the siege's rounds, cancelled for a wall by
    Siege Weapons or a Secret Passage; an invader's strength and troops), and the fighting
    generals named are those the hand finds (free, alive, of the side, in the hex)."""
    battles, terms = corpus_battles()
    for battle in battles:
        check_totals(battle)
    assert len(battles) >= 600, len(battles)
    for term in ("wall", "city", "siege round 2", "siege round 3", "siege round 4", "siege weapons",
                 "secret passage", "mercenaries", "sword", "chariot in a settlement", "invasion", "open field",
                 "troops", "varied rules"):
        assert terms[term] >= 3, (term, terms)


def test_cb_3_dice_are_one_d6_per_side():
    """CB-3: each side adds one d6 (``combat.dice = 1``): every roll of the corpus is 1..6 and
    every face turns up on both sides."""
    battles, _ = corpus_battles()
    attack_rolls = Counter(b.event["attack_roll"] for b in battles)
    defence_rolls = Counter(b.event["defence_roll"] for b in battles)
    assert set(attack_rolls) == set(defence_rolls) == set(range(1, 7)), (attack_rolls, defence_rolls)


def test_cb_4_the_higher_total_wins_a_tie_goes_to_the_defender():
    """CB-4: in every battle of the corpus the attacker wins exactly when its total (dice
    included) is higher than the defence's; ties (some in the corpus) go to the defender."""
    battles, _ = corpus_battles()
    ties = 0
    for b in battles:
        e = b.event
        assert e["winner"] == ("attacker" if e["attack"] > e["defence"] else "defender"), (b.game, b.round, e)
        ties += e["attack"] == e["defence"]
    assert ties >= 10, ties


def test_cb_5_cb_6_what_the_winner_keeps_and_the_loser_loses_by_hand():
    """CB-5, CB-6: after every battle of the corpus won by a settlement's defenders, the attacking
    generals are taken captive by the defending player (killed when the Canaanites won), and the
    defenders lose half the attackers' troops before the battle, rounded down
    (``combat.winner_losses``), from the garrison first. Left out: battles with an Ambush (its idle
    troops count among the loser's, CB-10, a reading), and a garrison abandoned after (ST-9)."""
    checked = Counter()
    for b in corpus_battles()[0]:
        e = b.event
        st = standing_settlement(b.before, e["hex"])
        if e["winner"] != "defender" or st is None or e["attacker"] == INVADERS:
            continue
        where = (b.game, b.round, e, b.following)
        for name in b.attackers:
            if e["defender"] < 0:  # the Canaanites kill
                assert any(x["event"] == "death" and x["general"] == name and x["cause"] == "battle"
                           for x in b.following), where
            else:  # a player takes captive (or, beyond the room for captives, kills)
                assert any(x["event"] == "capture" and x["general"] == name and x["captor"] == e["defender"]
                           for x in b.following), where
        checked["battles"] += 1
        if b.ambushed or any(x["event"] == "abandoned" for x in b.following):
            continue
        loss = int(sum(b.before.generals[n].troops for n in b.attackers) * b.rules.combat.winner_losses)
        assert b.garrisons[st.id] == st.garrison - min(loss, st.garrison), where
        checked["garrison"] += 1
        checked["losses"] += loss > 0
    assert checked["battles"] >= 100 and checked["losses"] >= 20 and checked["garrison"] >= 80, checked


# --- the rarer terms on real positions: War Chariot, Sword and Ark handed out -------------------


def assault_everything(view: Any, decision: Any) -> Any:
    """Play the Combat phase again with no cards: besiegers assault, and nothing else is played."""
    if decision.kind == "siege_assault":
        return ASSAULT
    return PASS if PASS in decision.options else decision.options[0]


def hand_out(state: Any, general: Any, item: str) -> bool:
    """Attach an ``item`` card from the deck or the discard pile to ``general``."""
    for pile in (state.deck, state.discard):
        card = next((c for c in pile if kind(c) == item), None)
        if card is not None:
            pile.remove(card)
            general.items += (card,)
            return True
    return False


@functools.cache
def armed_battles() -> tuple[list[Battle], Counter]:
    """The real positions before Combat that hold an assault or a siege, each with a War Chariot
    given to an attacker and the Ark (or, if another general carries it, Goliath's Sword) to a
    defender, Combat played again by players that assault and pass, each battle worked by hand."""
    terms: Counter = Counter()
    found = []
    for ph in combat_phases():
        if not (ph.before.assaults or ph.before.sieges):
            continue
        state = copy.deepcopy(ph.before)
        for h in set(state.assaults) | set(state.sieges):
            here = sorted((g for g in state.generals.values() if g.hex == h and g.captor is None), key=lambda g: g.name)
            attacker = state.assaults[h] if h in state.assaults else state.sieges[h].besieger
            mine = [g for g in here if g.owner == attacker and not any(kind(c) == "War Chariot" for c in g.items)]
            theirs = [g for g in here if g.owner != attacker]
            if mine:
                hand_out(state, mine[0], "War Chariot")
            if theirs and not hand_out(state, theirs[0], "Ark"):
                hand_out(state, theirs[0], "Goliath's Sword")
        before = copy.deepcopy(state)  # the game writes its outcome back into ``state``
        events: list[dict] = []
        players = [Scripted(seat, assault_everything) for seat in range(ph.game.players)]
        game = RuleGame(BOARD, ph.rules, state, players, random.Random(ph.game.seed + ph.round), seed=ph.game.seed)
        game.log = events.append
        game.run_phase()
        for e, attack, defence, attackers, defenders, following, ambushed in battles_of_phase(
                before, events, ph.rules, ph.moves, terms):
            found.append(Battle(f"{ph.game} (armed)", ph.round, e, attack, defence, attackers, defenders, before,
                                following, ambushed, ph.rules, []))
    return found, terms


def test_cb_3_war_chariot_sword_and_ark_on_real_positions_by_hand():
    """CB-3, 9.2: on the corpus's real positions before Combat, with a War Chariot handed to an
    attacker and the Ark (else Goliath's Sword) to a defender, every battle's totals less dice are
    the hand's: the Chariot counts on an open plain and nowhere else, the Ark for the defending
    side only, the Sword anywhere."""
    battles, terms = armed_battles()
    for battle in battles:
        check_totals(battle)
    assert len(battles) >= 400, len(battles)
    for term in ("chariot on an open plain", "chariot in a settlement", "ark", "sword"):
        assert terms[term] >= 5, (term, terms)
