"""The Combat phase (CB-1..CB-10, W-4, W-5): invaders first, then besiegers may assault, then
every assault is fought."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from plsim.board import Terrain
from plsim.engine import arithmetic, cardplay, effects
from plsim.engine.arithmetic import (
    army_strength, ark_bonus, base_strength, battle_losses, carries, invader_strength, invader_target, siege_rounds,
)
from plsim.engine.cards import AMBUSH, ASSASSIN, MERCENARIES, PROPHET, SIEGE_WEAPONS, CardAction, kind_of
from plsim.engine.decisions import DecisionKind
from plsim.engine.movement import free_generals
from plsim.engine.options import ASSAULT, CONQUER, HOLD, PASS, RAZE, PlayCard
from plsim.engine.state import GeneralState, Siege

if TYPE_CHECKING:
    from plsim.engine.game import Game


INVADERS = -2  # the seat id of an invader pair in a battle


@dataclass(slots=True)
class Side:
    """One side of a battle: who it is, its generals, and what its cards added."""

    seat: int  # a player, CANAANITES, or INVADERS
    generals: list[GeneralState] = field(default_factory=list)
    invader_troops: list[int] | None = None  # an invader pair's troops, one entry per invader
    idle_troops: int = 0  # troops of generals killed by an Ambush: they stay but do not fight
    mercenaries: int = 0
    siege_weapons: bool = False
    roll: int = 0
    total: int = 0


def fortification(game: Game, hex_id: int, attacker: Side) -> int:
    """ST-4, ST-8: the fortification the attacker meets at ``hex_id`` now; Siege Weapons and
    Secret Passage cancel a wall, not a city (CB-2, 9.3)."""
    sid = game.board.settlement_at[hex_id]
    if sid < 0:
        return 0
    cancelled = attacker.siege_weapons or any(g.passage for g in attacker.generals)
    return arithmetic.fortification(game.rules, game.state.settlements[sid], siege_rounds(game.state, hex_id), cancelled)


def roll(game: Game) -> int:
    """CB-3: one side's dice (``combat.dice`` of ``dice.sides`` faces)."""
    sides = game.rules.dice.sides
    return sum(game.rng.randint(1, sides) for _ in range(game.rules.combat.dice))


# card window (CB-2, CB-8)
def battle_card_options(game: Game, seat: int, side: Side, original_attacker: bool, invaders: bool) -> list:
    hand = game.state.players[seat].hand
    kinds = {MERCENARIES} if invaders else {MERCENARIES, AMBUSH, ASSASSIN}
    if original_attacker and not side.siege_weapons:
        kinds.add(SIEGE_WEAPONS)
    options: list = []
    for kind, card in cardplay.distinct_cards(hand, kinds).items():
        if kind == ASSASSIN:
            options.extend(cardplay.assassin_options(game, seat, card))
        else:
            options.append(PlayCard(card))
    return options


def battle_window(game: Game, hex_id: int, side: Side, enemy: Side, original_attacker: bool) -> None:
    """CB-2, CB-8: a side plays its battle cards one at a time until it passes."""
    seat = side.seat
    invaders = enemy.seat == INVADERS
    while seat >= 0 and not game.over and _side_present(game, hex_id, side):
        options = battle_card_options(game, seat, side, original_attacker, invaders)
        if not options:
            return
        choice = game.decide(seat, DecisionKind.BATTLE_CARDS, options + [PASS], hex=hex_id)
        if choice == PASS:
            return
        kind = kind_of(choice.card)
        effects.spend_card(game, seat, choice.card)
        game.emit("play", seat=seat, card=kind, target=choice.target, blame=choice.blame, hex=hex_id)
        if kind == MERCENARIES:
            side.mercenaries += 1
            effects.add_wrath(game, game.rules.wrath.mercenaries, "mercenaries", seat)
        elif kind == SIEGE_WEAPONS:
            side.siege_weapons = True
        elif kind == AMBUSH:
            ambush(game, seat, enemy)
        elif kind == ASSASSIN:
            cardplay.assassinate(game, seat, choice.target, choice.blame)
            alive = game.state.generals
            enemy.generals = [g for g in enemy.generals if alive.get(g.name) is g]
            side.generals = [g for g in side.generals if alive.get(g.name) is g]


def _side_present(game: Game, hex_id: int, side: Side) -> bool:
    """A side can still act in its battle while it has a general or (defending) a garrison."""
    if side.generals:
        return True
    sid = game.board.settlement_at[hex_id]
    return sid >= 0 and game.state.settlements[sid].owner == side.seat


def ambush(game: Game, seat: int, enemy: Side) -> None:
    """Ambush: every enemy general in the hex dies (a Squire instead of its general); their
    troops stay, idle, and are lost if their side loses."""
    for general in list(enemy.generals):
        if cardplay.lose_squire(game, general):
            continue
        enemy.idle_troops += general.troops
        general.troops = 0
        enemy.generals.remove(general)
        effects.kill_general(game, general, seat, "ambush")


# the battle
def side_troops(game: Game, hex_id: int, side: Side, defending_settlement: bool) -> int:
    """The troops a side brings (CB-5, CB-6): commanded, idle, invaders', and a garrison."""
    if side.invader_troops is not None:
        return sum(side.invader_troops)
    troops = sum(g.troops for g in side.generals) + side.idle_troops
    if defending_settlement:
        troops += game.state.settlements[game.board.settlement_at[hex_id]].garrison
    return troops


def total_strength(game: Game, hex_id: int, side: Side, enemy: Side, defending: bool) -> int:
    """CB-3: generals (or invaders, W-4), Mercenaries, and for a defender in its settlement the
    garrison and walls, the Ark while its carrier defends; plus the dice."""
    sid = game.board.settlement_at[hex_id]
    in_settlement = sid >= 0 and game.state.settlements[sid].standing
    open_plain = not in_settlement and game.board.terrain[hex_id] == Terrain.PLAIN
    rules = game.rules
    if side.invader_troops is not None:
        total = invader_strength(rules, side.invader_troops)
    else:
        total = army_strength(rules, side.generals, open_plain)
    total += side.mercenaries * rules.cards.mercenaries_strength
    if defending:
        if in_settlement and game.state.settlements[sid].owner == side.seat:
            total += game.state.settlements[sid].garrison + fortification(game, hex_id, enemy)
        total += ark_bonus(rules, side.generals)
    side.roll = roll(game)
    side.total = total + side.roll
    return side.total


def apply_losses(game: Game, hex_id: int, side: Side, losses: int, defending_settlement: bool) -> None:
    """CB-6: the winner loses troops from its garrison first, then its generals, strongest first."""
    if losses <= 0:
        return
    if side.invader_troops is not None:
        for i, troops in enumerate(side.invader_troops):
            taken = min(troops, losses)
            side.invader_troops[i] -= taken
            losses -= taken
        return
    if defending_settlement:
        st = game.state.settlements[game.board.settlement_at[hex_id]]
        taken = min(st.garrison, losses)
        st.garrison -= taken
        losses -= taken
    for general in sorted(side.generals, key=lambda g: (-(base_strength(g.name) + g.troops), g.name)):
        taken = min(general.troops, losses)
        general.troops -= taken
        losses -= taken
        if not losses:
            break


def defeat(game: Game, hex_id: int, loser: Side, winner_seat: int, defending_settlement: bool) -> None:
    """CB-5: the loser's troops are lost; its generals captured by a player, killed by others."""
    if defending_settlement:
        game.state.settlements[game.board.settlement_at[hex_id]].garrison = 0
    for general in list(loser.generals):
        general.troops = 0
        if winner_seat >= 0:
            effects.capture_general(game, general, winner_seat)
        else:
            effects.kill_general(game, general, None, "battle")


def fight(game: Game, hex_id: int, attacker: Side, defender: Side) -> bool:
    """One battle, cards to losses; returns whether the attacker won (CB-2..CB-6)."""
    sid = game.board.settlement_at[hex_id]
    defending_settlement = sid >= 0 and game.state.settlements[sid].owner == defender.seat
    battle_window(game, hex_id, attacker, defender, True)
    battle_window(game, hex_id, defender, attacker, False)
    if game.over:
        return False
    if attacker.invader_troops is None and not attacker.generals:
        return False
    if not _side_present(game, hex_id, defender):
        return True
    attacker_troops = side_troops(game, hex_id, attacker, False)
    defender_troops = side_troops(game, hex_id, defender, defending_settlement)
    total_strength(game, hex_id, attacker, defender, False)
    total_strength(game, hex_id, defender, attacker, True)
    won = attacker.total > defender.total  # CB-4: a tie goes to the defender
    game.emit(
        "battle", hex=hex_id, settlement=sid if sid >= 0 else None, attacker=attacker.seat,
        defender=defender.seat, attack=attacker.total, defence=defender.total,
        attack_roll=attacker.roll, defence_roll=defender.roll,
        attackers=[g.name for g in attacker.generals], defenders=[g.name for g in defender.generals],
        winner="attacker" if won else "defender",
    )
    if won and attacker.invader_troops is None:
        # CB-5, CP-2: the winner frees its own captives here before taking the losers, so that
        # the 2-captive limit counts only the captives the settlement will really hold
        effects.hand_over_captives(game, hex_id, attacker.seat)
    if won:
        defeat(game, hex_id, defender, attacker.seat, defending_settlement)
        apply_losses(game, hex_id, attacker, battle_losses(game.rules, defender_troops), False)
    else:
        defeat(game, hex_id, attacker, defender.seat, False)
        apply_losses(game, hex_id, defender, battle_losses(game.rules, attacker_troops), defending_settlement)
        if defending_settlement and defender.idle_troops:
            st = game.state.settlements[sid]
            st.garrison = min(game.rules.limits.garrison, st.garrison + defender.idle_troops)  # CB-10
    return won


# the phase
def combat_phase(game: Game) -> None:
    """Invaders jump and attack (W-5), besiegers choose to assault (MV-12), assaults are fought."""
    s = game.state
    storm_blocks_assaults(game)
    invaders_attack(game)
    order = {seat: i for i, seat in enumerate(s.turn_order())}
    for hex_id, siege in sorted(s.sieges.items(), key=lambda item: (order[item[1].besieger], item[0])):
        if siege.started >= s.round or hex_id in s.assaults or game.over or not _storm_allows(game, hex_id):
            continue  # MV-12: a besieger may assault from the round after the siege began
        if all(carries(g, PROPHET) for g in free_generals(s, hex_id) if g.owner == siege.besieger):
            continue  # MV-7: a Prophet's carrier never starts a battle
        if game.decide(siege.besieger, DecisionKind.SIEGE_ASSAULT, [HOLD, ASSAULT], hex=hex_id) == ASSAULT:
            s.assaults[hex_id] = siege.besieger
    for hex_id, seat in sorted(s.assaults.items(), key=lambda item: (order[item[1]], item[0])):
        if game.over:
            return
        resolve_assault(game, hex_id, seat)
    s.assaults.clear()


def _storm_allows(game: Game, hex_id: int) -> bool:
    """CB-1, 9.4: no combat in desert hexes while a Sandstorm blows."""
    return not (game.state.storm and game.board.terrain[hex_id] == Terrain.DESERT)


def storm_blocks_assaults(game: Game) -> None:
    """CB-9: an assault the storm forbids becomes a siege begun this round."""
    s = game.state
    for hex_id, seat in list(s.assaults.items()):
        if not _storm_allows(game, hex_id):
            del s.assaults[hex_id]
            s.sieges.setdefault(hex_id, Siege(seat, s.round))


def resolve_assault(game: Game, hex_id: int, seat: int) -> None:
    """CB-1, CB-7: fight for the hex; a winner at a settlement conquers or razes it."""
    s = game.state
    attackers = [g for g in free_generals(s, hex_id) if g.owner == seat]
    if not attackers:
        return
    sid = game.board.settlement_at[hex_id]
    settlement = s.settlements[sid] if sid >= 0 and s.settlements[sid].standing else None
    if settlement is not None:
        if settlement.owner is None:
            effects.take_settlement(game, sid, seat, "entered")
            return
        defender_seat = settlement.owner
    else:
        others = [g.owner for g in free_generals(s, hex_id) if g.owner != seat]
        if not others:
            return
        defender_seat = others[0]
    if defender_seat == seat:
        return
    defenders = [g for g in free_generals(s, hex_id) if g.owner == defender_seat]
    won = fight(game, hex_id, Side(seat, attackers), Side(defender_seat, defenders))
    if not won or settlement is None or game.over:
        return
    if not any(g.owner == seat and g.captor is None for g in s.generals_at(hex_id)):
        return
    if game.decide(seat, DecisionKind.CONQUER_OR_RAZE, [CONQUER, RAZE], settlement=sid) == CONQUER:
        effects.take_settlement(game, sid, seat, "conquered")
    else:
        effects.raze_settlement(game, sid, seat)


def invaders_attack(game: Game) -> None:
    """W-3..W-5, CB-8: each pair attacks its first target or jumps along the ring and attacks;
    a winning pair razes the settlement, a beaten pair dies and returns to the pool."""
    s = game.state
    for pair in list(s.pairs):
        if game.over:
            return
        target = invader_target(s, game.board, pair)
        pair.target = None
        if target is None:
            continue
        pair.at = target
        hex_id = s.settlements[target].hex
        if not _storm_allows(game, hex_id):
            continue
        owner = s.settlements[target].owner
        game.emit("invasion", names=list(pair.names), settlement=target, seat=owner)
        attacker = Side(INVADERS, invader_troops=pair.troops)
        defender = Side(owner, [g for g in free_generals(s, hex_id) if g.owner == owner])
        if fight(game, hex_id, attacker, defender):
            effects.raze_settlement(game, target, None)
        else:
            s.pairs.remove(pair)
            s.invader_pool.extend(pair.names)
            for name in pair.names:
                effects.note_card(game, -1, name, CardAction.DEFEATED)
            game.emit("invaders_defeated", names=list(pair.names), settlement=target)
