"""The Combat phase (CB-1..CB-10, W-4, W-5): invaders first, then besiegers may assault, then
every assault is fought.

A battle is data on the state while it lasts (``state.battle``: the hex and its two ``Side``s),
so that it can wait for the sides' card choices: ``start_battle`` opens it with the attacker's
card window, then the defender's; ``judge_battle`` counts strengths and rolls the dice; the step
that follows (an invasion's end, an assault's conquest or razing) closes it.
"""

from __future__ import annotations

from plsim.board import Terrain
from plsim.engine import arithmetic, cardplay, effects
from plsim.engine.arithmetic import (
    army_strength, ark_bonus, base_strength, battle_losses, carries, invader_strength, invader_target, siege_rounds,
)
from plsim.engine.cards import AMBUSH, ASSASSIN, MERCENARIES, PROPHET, SIEGE_WEAPONS, CardAction, kind_of
from plsim.engine.context import Context
from plsim.engine.decisions import DecisionKind
from plsim.engine.movement import free_generals
from plsim.engine.options import ASSAULT, CONQUER, HOLD, PASS, RAZE, Choose, PlayCard
from plsim.engine.state import INVADER_SIDE, Battle, GameState, InvaderPair, Side, Siege
from plsim.engine.steps import Step, step


def pair_named(state: GameState, names: tuple[str, ...]) -> InvaderPair:
    """The loose pair of these invaders (invader cards are unique, so their names name it)."""
    return next(pair for pair in state.pairs if tuple(pair.names) == names)


def fortification(ctx: Context, hex_id: int, attacker: Side) -> int:
    """ST-4, ST-8: the fortification the attacker meets at ``hex_id`` now; Siege Weapons and
    Secret Passage cancel a wall, not a city (CB-2, 9.3)."""
    sid = ctx.board.settlement_at[hex_id]
    if sid < 0:
        return 0
    generals = ctx.state.generals
    cancelled = attacker.siege_weapons or any(generals[name].passage for name in attacker.generals)
    return arithmetic.fortification(ctx.rules, ctx.state.settlements[sid], siege_rounds(ctx.state, hex_id), cancelled)


def roll(ctx: Context) -> int:
    """CB-3: one side's dice (``combat.dice`` of ``dice.sides`` faces)."""
    sides = ctx.rules.dice.sides
    return sum(ctx.rng.randint(1, sides) for _ in range(ctx.rules.combat.dice))


# card window (CB-2, CB-8)
def battle_card_options(ctx: Context, seat: int, side: Side, original_attacker: bool, invaders: bool) -> list:
    hand = ctx.state.players[seat].hand
    kinds = {MERCENARIES} if invaders else {MERCENARIES, AMBUSH, ASSASSIN}
    if original_attacker and not side.siege_weapons:
        kinds.add(SIEGE_WEAPONS)
    options: list = []
    for kind, card in cardplay.distinct_cards(hand, kinds).items():
        if kind == ASSASSIN:
            options.extend(cardplay.assassin_options(ctx, seat, card))
        else:
            options.append(PlayCard(card))
    return options


def start_battle(ctx: Context, hex_id: int, attacker: Side, defender: Side, after: Step) -> None:
    """CB-2..CB-6: the battle at ``hex_id``: the attacker's card window, the defender's, the
    judgement, then ``after`` (which reads ``state.battle.won`` and closes the battle)."""
    s = ctx.state
    if s.battle is not None:
        raise AssertionError(f"a battle at {hex_id} while the one at {s.battle.hex} is not over")
    sid = ctx.board.settlement_at[hex_id]
    s.battle = Battle(hex_id, attacker, defender, sid >= 0 and s.settlements[sid].owner == defender.seat)
    ctx.sequence(Step(battle_window, (True,)), Step(battle_window, (False,)), Step(judge_battle), after)


def _sides(battle: Battle, attacking: bool) -> tuple[Side, Side]:
    """(the side whose window it is, its enemy)."""
    return (battle.attacker, battle.defender) if attacking else (battle.defender, battle.attacker)


@step
def battle_window(ctx: Context, attacking: bool) -> None:
    """CB-2, CB-8: a side plays its battle cards one at a time until it passes."""
    battle = ctx.state.battle
    side, enemy = _sides(battle, attacking)
    seat = side.seat
    if seat < 0 or not side_present(ctx, battle.hex, side):
        return
    options = battle_card_options(ctx, seat, side, attacking, enemy.seat == INVADER_SIDE)
    if not options:
        return
    ctx.ask(seat, DecisionKind.BATTLE_CARDS, (*options, PASS), battle_card, attacking,
            again=Step(battle_window, (attacking,)), hex=battle.hex)


@step
def battle_card(ctx: Context, choice, attacking: bool) -> None:
    """A battle card played: its effect, then the same side's window again."""
    if choice == PASS:
        return
    battle = ctx.state.battle
    side, enemy = _sides(battle, attacking)
    seat = side.seat
    ctx.push(battle_window, attacking)
    kind = kind_of(choice.card)
    effects.spend_card(ctx, seat, choice.card)
    ctx.emit("play", seat=seat, card=kind, target=choice.target, blame=choice.blame, hex=battle.hex)
    if kind == MERCENARIES:
        side.mercenaries += 1
        effects.add_wrath(ctx, ctx.rules.wrath.mercenaries, "mercenaries", seat)
    elif kind == SIEGE_WEAPONS:
        side.siege_weapons = True
    elif kind == AMBUSH:
        ambush(ctx, seat, not attacking, tuple(enemy.generals))
    elif kind == ASSASSIN:
        ctx.push(sides_thinned)
        cardplay.assassinate(ctx, seat, choice.target, choice.blame)


@step
def sides_thinned(ctx: Context) -> None:
    """After an Assassin inside a battle, the dead fight on neither side."""
    battle = ctx.state.battle
    alive = ctx.state.generals
    for side in (battle.attacker, battle.defender):
        side.generals = [name for name in side.generals if name in alive]


def side_present(ctx: Context, hex_id: int, side: Side) -> bool:
    """A side can still act in its battle while it has a general or (defending) a garrison."""
    if side.generals:
        return True
    sid = ctx.board.settlement_at[hex_id]
    return sid >= 0 and ctx.state.settlements[sid].owner == side.seat


@step
def ambush(ctx: Context, seat: int, victims_attack: bool, names: tuple[str, ...]) -> None:
    """Ambush: every enemy general in the hex dies (a Squire instead of its general); their
    troops stay, idle, and are lost if their side loses."""
    s = ctx.state
    enemy = s.battle.attacker if victims_attack else s.battle.defender
    for i, name in enumerate(names):
        general = s.generals[name]
        if cardplay.lose_squire(ctx, general):
            continue
        enemy.idle_troops += general.troops
        general.troops = 0
        enemy.generals.remove(name)
        mark = len(s.pending)
        effects.kill_general(ctx, general, seat, "ambush")
        if i + 1 < len(names) and ctx.defer(mark, ambush, seat, victims_attack, names[i + 1:]):
            return


# the battle
def side_troops(ctx: Context, hex_id: int, side: Side, defending_settlement: bool) -> int:
    """The troops a side brings (CB-5, CB-6): commanded, idle, invaders', and a garrison."""
    s = ctx.state
    if side.pair is not None:
        return sum(pair_named(s, side.pair).troops)
    troops = sum(s.generals[name].troops for name in side.generals) + side.idle_troops
    if defending_settlement:
        troops += s.settlements[ctx.board.settlement_at[hex_id]].garrison
    return troops


def total_strength(ctx: Context, hex_id: int, side: Side, enemy: Side, defending: bool) -> int:
    """CB-3: generals (or invaders, W-4), Mercenaries, and for a defender in its settlement the
    garrison and walls, the Ark while its carrier defends; plus the dice."""
    s = ctx.state
    sid = ctx.board.settlement_at[hex_id]
    in_settlement = sid >= 0 and s.settlements[sid].standing
    open_plain = not in_settlement and ctx.board.terrain[hex_id] == Terrain.PLAIN
    rules = ctx.rules
    generals = [s.generals[name] for name in side.generals]
    if side.pair is not None:
        total = invader_strength(rules, pair_named(s, side.pair).troops)
    else:
        total = army_strength(rules, generals, open_plain)
    total += side.mercenaries * rules.cards.mercenaries_strength
    if defending:
        if in_settlement and s.settlements[sid].owner == side.seat:
            total += s.settlements[sid].garrison + fortification(ctx, hex_id, enemy)
        total += ark_bonus(rules, generals)
    side.roll = roll(ctx)
    side.total = total + side.roll
    return side.total


def apply_losses(ctx: Context, hex_id: int, side: Side, losses: int, defending_settlement: bool) -> None:
    """CB-6: the winner loses troops from its garrison first, then its generals, strongest first."""
    if losses <= 0:
        return
    s = ctx.state
    if side.pair is not None:
        troops = pair_named(s, side.pair).troops
        for i, have in enumerate(troops):
            taken = min(have, losses)
            troops[i] -= taken
            losses -= taken
        return
    if defending_settlement:
        st = s.settlements[ctx.board.settlement_at[hex_id]]
        taken = min(st.garrison, losses)
        st.garrison -= taken
        losses -= taken
    generals = [s.generals[name] for name in side.generals]
    for general in sorted(generals, key=lambda g: (-(base_strength(g.name) + g.troops), g.name)):
        taken = min(general.troops, losses)
        general.troops -= taken
        losses -= taken
        if not losses:
            break


@step
def judge_battle(ctx: Context) -> None:
    """CB-3..CB-6: strengths and dice decide (a tie goes to the defender, CB-4); the loser is
    defeated, then the winner takes its losses."""
    s = ctx.state
    battle = s.battle
    hex_id, attacker, defender = battle.hex, battle.attacker, battle.defender
    if attacker.pair is None and not attacker.generals:
        battle.won = False
        return
    if not side_present(ctx, hex_id, defender):
        battle.won = True
        return
    defending_settlement = battle.defending_settlement
    attacker_troops = side_troops(ctx, hex_id, attacker, False)
    defender_troops = side_troops(ctx, hex_id, defender, defending_settlement)
    total_strength(ctx, hex_id, attacker, defender, False)
    total_strength(ctx, hex_id, defender, attacker, True)
    won = battle.won = attacker.total > defender.total
    sid = ctx.board.settlement_at[hex_id]
    ctx.emit(
        "battle", hex=hex_id, settlement=sid if sid >= 0 else None, attacker=attacker.seat,
        defender=defender.seat, attack=attacker.total, defence=defender.total,
        attack_roll=attacker.roll, defence_roll=defender.roll,
        attackers=list(attacker.generals), defenders=list(defender.generals),
        winner="attacker" if won else "defender",
    )
    if won and attacker.pair is None:
        # CB-5, CP-2: the winner frees its own captives here before taking the losers, so that
        # the 2-captive limit counts only the captives the settlement will really hold
        effects.hand_over_captives(ctx, hex_id, attacker.seat)
    if won:
        if defending_settlement:
            s.settlements[sid].garrison = 0
        ctx.push(losses_taken, battle_losses(ctx.rules, defender_troops))
        defeat(ctx, tuple(defender.generals), attacker.seat)
    else:
        ctx.push(losses_taken, battle_losses(ctx.rules, attacker_troops))
        defeat(ctx, tuple(attacker.generals), defender.seat)


@step
def defeat(ctx: Context, names: tuple[str, ...], winner_seat: int) -> None:
    """CB-5: the loser's generals lose their troops and are captured by a player, killed by others."""
    s = ctx.state
    for i, name in enumerate(names):
        general = s.generals[name]
        general.troops = 0
        mark = len(s.pending)
        if winner_seat >= 0:
            effects.capture_general(ctx, general, winner_seat)
        else:
            effects.kill_general(ctx, general, None, "battle")
        if i + 1 < len(names) and ctx.defer(mark, defeat, names[i + 1:], winner_seat):
            return


@step
def losses_taken(ctx: Context, losses: int) -> None:
    """CB-6, CB-10: the winner's losses; a defender who held its settlement regains the idle
    troops of its ambushed generals."""
    s = ctx.state
    battle = s.battle
    if battle.won:
        apply_losses(ctx, battle.hex, battle.attacker, losses, False)
        return
    defender = battle.defender
    apply_losses(ctx, battle.hex, defender, losses, battle.defending_settlement)
    if battle.defending_settlement and defender.idle_troops:
        st = s.settlements[ctx.board.settlement_at[battle.hex]]
        st.garrison = min(ctx.rules.limits.garrison, st.garrison + defender.idle_troops)  # CB-10


def end_battle(ctx: Context) -> bool:
    """Close the battle; whether the attacker won."""
    won = ctx.state.battle.won
    ctx.state.battle = None
    return won


# the phase
def combat_phase(ctx: Context) -> None:
    """Invaders jump and attack (W-5), besiegers choose to assault (MV-12), assaults are fought."""
    storm_blocks_assaults(ctx)
    ctx.sequence(Step(invaders_attack), Step(besiegers_choose), Step(assaults_fought), Step(assaults_over))


def _storm_allows(ctx: Context, hex_id: int) -> bool:
    """CB-1, 9.4: no combat in desert hexes while a Sandstorm blows."""
    return not (ctx.state.storm and ctx.board.terrain[hex_id] == Terrain.DESERT)


def storm_blocks_assaults(ctx: Context) -> None:
    """CB-9: an assault the storm forbids becomes a siege begun this round."""
    s = ctx.state
    for hex_id, seat in list(s.assaults.items()):
        if not _storm_allows(ctx, hex_id):
            del s.assaults[hex_id]
            s.sieges.setdefault(hex_id, Siege(seat, s.round))


def _turn_key(ctx: Context):
    order = {seat: i for i, seat in enumerate(ctx.state.turn_order())}
    return lambda item: (order[item[1]], item[0])


@step
def besiegers_choose(ctx: Context, hexes: tuple[int, ...] | None = None) -> None:
    """MV-12: in turn order, each besieger may turn a siege begun in an earlier round into an
    assault in this Combat (``hexes``: the besieged hexes still to ask, in that order)."""
    s = ctx.state
    if hexes is None:
        key = _turn_key(ctx)
        hexes = tuple(h for h, _ in sorted(((h, siege.besieger) for h, siege in s.sieges.items()), key=key))
    for i, hex_id in enumerate(hexes):
        siege = s.sieges[hex_id]
        if siege.started >= s.round or hex_id in s.assaults or not _storm_allows(ctx, hex_id):
            continue  # MV-12: a besieger may assault from the round after the siege began
        if all(carries(g, PROPHET) for g in free_generals(s, hex_id) if g.owner == siege.besieger):
            continue  # MV-7: a Prophet's carrier never starts a battle
        ctx.ask(siege.besieger, DecisionKind.SIEGE_ASSAULT, [HOLD, ASSAULT], siege_choice, hex_id, hexes[i + 1:],
                hex=hex_id)
        return


@step
def siege_choice(ctx: Context, choice: Choose, hex_id: int, rest: tuple[int, ...]) -> None:
    if choice == ASSAULT:
        ctx.state.assaults[hex_id] = ctx.state.sieges[hex_id].besieger
    besiegers_choose(ctx, rest)


@step
def assaults_fought(ctx: Context, assaults: tuple[tuple[int, int], ...] | None = None) -> None:
    """CB-1: every assault of this round, in turn order of the attackers."""
    if assaults is None:
        assaults = tuple(sorted(ctx.state.assaults.items(), key=_turn_key(ctx)))
    for i, (hex_id, seat) in enumerate(assaults):
        mark = len(ctx.state.pending)
        resolve_assault(ctx, hex_id, seat)
        if i + 1 < len(assaults) and ctx.defer(mark, assaults_fought, assaults[i + 1:]):
            return


@step
def assaults_over(ctx: Context) -> None:
    ctx.state.assaults.clear()


def resolve_assault(ctx: Context, hex_id: int, seat: int) -> None:
    """CB-1, CB-7: fight for the hex; a winner at a settlement conquers or razes it."""
    s = ctx.state
    attackers = [g.name for g in free_generals(s, hex_id) if g.owner == seat]
    if not attackers:
        return
    sid = ctx.board.settlement_at[hex_id]
    settlement = s.settlements[sid] if sid >= 0 and s.settlements[sid].standing else None
    if settlement is not None:
        if settlement.owner is None:
            effects.take_settlement(ctx, sid, seat, "entered")
            return
        defender_seat = settlement.owner
    else:
        others = [g.owner for g in free_generals(s, hex_id) if g.owner != seat]
        if not others:
            return
        defender_seat = others[0]
    if defender_seat == seat:
        return
    defenders = [g.name for g in free_generals(s, hex_id) if g.owner == defender_seat]
    start_battle(ctx, hex_id, Side(seat, attackers), Side(defender_seat, defenders),
                 Step(assault_won_or_lost, (hex_id, seat, sid if settlement is not None else -1)))


@step
def assault_won_or_lost(ctx: Context, hex_id: int, seat: int, sid: int) -> None:
    """CB-7: an attacker that won at a settlement, with a general still there, conquers or razes it."""
    if not end_battle(ctx) or sid < 0:
        return
    if not any(g.owner == seat and g.captor is None for g in ctx.state.generals_at(hex_id)):
        return
    ctx.ask(seat, DecisionKind.CONQUER_OR_RAZE, [CONQUER, RAZE], conquer_or_raze, seat, sid, settlement=sid)


@step
def conquer_or_raze(ctx: Context, choice: Choose, seat: int, sid: int) -> None:
    if choice == CONQUER:
        effects.take_settlement(ctx, sid, seat, "conquered")
    else:
        effects.raze_settlement(ctx, sid, seat)


@step
def invaders_attack(ctx: Context, pairs: tuple[tuple[str, ...], ...] | None = None) -> None:
    """W-3..W-5, CB-8: each pair loose when Combat began (``pairs``: those still to attack, by
    their invaders' names) attacks its first target or jumps along the ring and attacks."""
    s = ctx.state
    if pairs is None:
        pairs = tuple(tuple(pair.names) for pair in s.pairs)
    for i, names in enumerate(pairs):
        pair = pair_named(s, names)
        target = invader_target(s, ctx.board, pair)
        pair.target = None
        if target is None:
            continue
        pair.at = target
        hex_id = s.settlements[target].hex
        if not _storm_allows(ctx, hex_id):
            continue
        owner = s.settlements[target].owner
        ctx.emit("invasion", names=list(pair.names), settlement=target, seat=owner)
        defenders = [g.name for g in free_generals(s, hex_id) if g.owner == owner]
        mark = len(s.pending)
        start_battle(ctx, hex_id, Side(INVADER_SIDE, pair=names), Side(owner, defenders),
                     Step(invasion_over, (names, target)))
        if i + 1 < len(pairs):
            ctx.defer(mark, invaders_attack, pairs[i + 1:])
        return


@step
def invasion_over(ctx: Context, names: tuple[str, ...], target: int) -> None:
    """W-4: a winning pair razes the settlement; a beaten pair dies and returns to the pool."""
    s = ctx.state
    if end_battle(ctx):
        effects.raze_settlement(ctx, target, None)
        return
    pair = pair_named(s, names)
    s.pairs.remove(pair)
    s.invader_pool.extend(pair.names)
    for name in pair.names:
        effects.note_card(ctx, -1, name, CardAction.DEFEATED)
    ctx.emit("invaders_defeated", names=list(pair.names), settlement=target)
