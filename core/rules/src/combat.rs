//! The Combat phase (CB-1..CB-10, W-4, W-5): invaders first, then besiegers may assault, then
//! every assault is fought. A battle is data on the state while it lasts (`state.battle`), so
//! that it can wait for the sides' card choices.

use crate::arithmetic::{
    base_strength, battle_losses, carries, carries_prophet, general_strength, invader_strength, pair_target,
    siege_rounds,
};
use crate::board::{Hex, Sid, Terrain};
use crate::cards::{general_name, Card, Gid, Kind, AMBUSH, ARK, ASSASSIN, KINDS, MERCENARIES, SIEGE_WEAPONS};
use crate::effects::{self, names_ev};
use crate::emit;
use crate::game::{invariant, Ev, Game, R};
use crate::movement::free_generals;
use crate::options::{About, Opt, ASSAULT, CONQUER, HOLD, RAZE};
use crate::parts::{Seat, Siege, INVADER_SIDE};
use crate::phase::{CardAction, DecisionKind};
use crate::steps::{Battle, Side, Step, Then};
use crate::{arithmetic, cardplay};

/// ST-4, ST-8: the fortification the attacker meets at `h` now; Siege Weapons and Secret
/// Passage cancel a wall, not a city (CB-2, 9.3).
pub(crate) fn fortification(g: &Game, h: Hex, attacker: &Side) -> i64 {
    let Some(sid) = g.board.sid_at(h) else { return 0 };
    let cancelled = attacker.siege_weapons || attacker.generals.iter().any(|x| g.state.general(*x).passage);
    arithmetic::fortification(
        &g.rules,
        &g.state.settlements[sid as usize],
        siege_rounds(&g.state, h),
        cancelled,
    )
}

/// CB-3: one side's dice.
fn roll(g: &mut Game) -> Result<i64, crate::game::EngineError> {
    let sides = g.rules.dice_sides;
    let mut total = 0;
    for _ in 0..g.rules.combat_dice {
        total += g.rng.randint(1, sides).map_err(invariant)?;
    }
    Ok(total)
}

// card window (CB-2, CB-8, W-6)
pub fn battle_card_options(g: &Game, seat: Seat, side: &Side, original_attacker: bool, invaders: bool) -> Vec<Opt> {
    let hand = &g.state.players[seat as usize].hand;
    let siege_weapons = original_attacker && !side.siege_weapons;
    let allowed = |k: Kind| {
        if invaders && !g.rules.invaders_are_generals {
            k == MERCENARIES
        } else {
            k == MERCENARIES || k == AMBUSH || k == ASSASSIN || (k == SIEGE_WEAPONS && siege_weapons)
        }
    };
    let mut options = Vec::new();
    for (kind, card) in cardplay::distinct_cards(g, hand, allowed) {
        if kind == ASSASSIN {
            options.extend(cardplay::assassin_options(g, seat, card));
        } else {
            options.push(Opt::PlayCard {
                card,
                target: crate::options::Target::Nothing,
                blame: None,
            });
        }
    }
    options
}

/// CB-2..CB-6: the battle at `h`: the attacker's card window, the defender's, the judgement, then
/// `after` (which reads `state.battle.won` and closes the battle).
fn start_battle(g: &mut Game, h: Hex, attacker: Side, defender: Side, after: Step) -> R {
    if let Some(battle) = &g.state.battle {
        return Err(invariant(format!(
            "a battle at {h} while the one at {} is not over",
            battle.hex
        )));
    }
    let defending_settlement = g
        .board
        .sid_at(h)
        .is_some_and(|sid| g.state.settlements[sid as usize].owner == Some(defender.seat));
    g.state.battle = Some(Battle {
        hex: h,
        attacker,
        defender,
        defending_settlement,
        won: false,
    });
    g.sequence(vec![
        Step::BattleWindow { attacking: true },
        Step::BattleWindow { attacking: false },
        Step::JudgeBattle,
        after,
    ]);
    Ok(())
}

fn battle(g: &Game) -> Result<&Battle, crate::game::EngineError> {
    g.state
        .battle
        .as_ref()
        .ok_or_else(|| invariant("a battle step with no battle under way"))
}

fn battle_mut(g: &mut Game) -> &mut Battle {
    g.state.battle.as_mut().expect("a battle under way")
}

/// CB-2, CB-8: a side plays its battle cards one at a time until it passes.
pub fn battle_window(g: &mut Game, attacking: bool) -> R {
    let b = battle(g)?;
    let (side, enemy) = if attacking {
        (&b.attacker, &b.defender)
    } else {
        (&b.defender, &b.attacker)
    };
    let seat = side.seat;
    if seat < 0 || !side_present(g, b.hex, side) {
        return Ok(());
    }
    let h = b.hex;
    let mut options = battle_card_options(g, seat, side, attacking, enemy.seat == INVADER_SIDE);
    if options.is_empty() {
        return Ok(());
    }
    options.push(Opt::Pass);
    g.ask(
        seat,
        DecisionKind::BattleCards,
        options,
        Then::BattleCard { attacking },
        Some(Step::BattleWindow { attacking }),
        About::Hex(h),
    )
}

/// A battle card played: its effect, then the same side's window again.
pub fn battle_card(g: &mut Game, choice: Opt, attacking: bool) -> R {
    let Opt::PlayCard { card, target, blame } = choice else {
        return Ok(());
    };
    let b = battle(g)?;
    let seat = if attacking { b.attacker.seat } else { b.defender.seat };
    let h = b.hex;
    g.push(Step::BattleWindow { attacking });
    let kind = g.cards.kind(card);
    effects::spend_card(g, seat, card);
    emit!(g, "play", "seat" => seat, "card" => KINDS[kind as usize].name, "target" => cardplay::target_ev(g, target), "blame" => cardplay::blame_ev(blame), "hex" => h);
    match kind {
        MERCENARIES => {
            side_mut(g, attacking).mercenaries += 1;
            effects::add_wrath(g, g.rules.wrath_mercenaries, "mercenaries", Some(seat))
        }
        SIEGE_WEAPONS => {
            side_mut(g, attacking).siege_weapons = true;
            Ok(())
        }
        AMBUSH => {
            for name in effects::invaders_at(g, h) {
                effects::kill_invader(g, name, Some(seat), "ambush"); // W-6: invaders are generals
            }
            let names = side_mut(g, !attacking).generals.clone();
            ambush(g, seat, !attacking, &names)
        }
        ASSASSIN => {
            g.push(Step::SidesThinned);
            match target {
                crate::options::Target::General(t) => cardplay::assassinate(g, seat, t, blame),
                crate::options::Target::Invader(n) => cardplay::assassinate_invader(g, seat, n, blame),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

fn side_mut(g: &mut Game, attacking: bool) -> &mut Side {
    let b = battle_mut(g);
    if attacking {
        &mut b.attacker
    } else {
        &mut b.defender
    }
}

/// After an Assassin inside a battle, the dead fight on neither side.
pub fn sides_thinned(g: &mut Game) -> R {
    let alive: Vec<bool> = (0..crate::cards::N_GENERALS)
        .map(|x| g.state.generals[x].is_some())
        .collect();
    let b = battle_mut(g);
    b.attacker.generals.retain(|x| alive[*x as usize]);
    b.defender.generals.retain(|x| alive[*x as usize]);
    Ok(())
}

/// A side can still act in its battle while it has a general or (defending) a garrison.
fn side_present(g: &Game, h: Hex, side: &Side) -> bool {
    !side.generals.is_empty()
        || g.board
            .sid_at(h)
            .is_some_and(|sid| g.state.settlements[sid as usize].owner == Some(side.seat))
}

/// Ambush: every enemy general in the hex dies (a Squire instead of its general); their troops
/// stay, idle, and are lost if their side loses.
pub fn ambush(g: &mut Game, seat: Seat, victims_attack: bool, names: &[Gid]) -> R {
    for (i, x) in names.iter().enumerate() {
        if cardplay::lose_squire(g, *x) {
            continue;
        }
        let troops = g.state.general(*x).troops;
        {
            let enemy = side_mut(g, victims_attack);
            enemy.idle_troops += troops;
            if let Some(k) = enemy.generals.iter().position(|y| y == x) {
                enemy.generals.remove(k);
            }
        }
        g.state.general_mut(*x).troops = 0;
        let mark = g.state.pending.len();
        effects::kill_general(g, *x, Some(seat), "ambush")?;
        if i + 1 < names.len()
            && g.defer(
                mark,
                Step::Ambush {
                    seat,
                    victims_attack,
                    names: names[i + 1..].to_vec(),
                },
            )
        {
            return Ok(());
        }
    }
    Ok(())
}

// the battle
/// The troops a side brings (CB-5, CB-6): commanded, idle, invaders', and a garrison.
fn side_troops(g: &Game, h: Hex, side: &Side, defending_settlement: bool) -> i64 {
    if let Some(pair) = side.pair {
        return g
            .state
            .pair_slot(pair)
            .map_or(0, |i| g.state.pairs[i].troops.iter().sum());
    }
    let mut troops: i64 = side.generals.iter().map(|x| g.state.general(*x).troops).sum::<i64>() + side.idle_troops;
    if defending_settlement {
        if let Some(sid) = g.board.sid_at(h) {
            troops += g.state.settlements[sid as usize].garrison;
        }
    }
    troops
}

/// CB-3: generals (or invaders, W-4), Mercenaries, and for a defender in its settlement the
/// garrison and walls, the Ark while its carrier defends; plus the dice.
pub(crate) fn total_strength(g: &mut Game, h: Hex, attacking: bool) -> R {
    let b = battle(g)?;
    let (side, enemy) = if attacking {
        (&b.attacker, &b.defender)
    } else {
        (&b.defender, &b.attacker)
    };
    let sid = g.board.sid_at(h);
    let in_settlement = sid.is_some_and(|s| g.state.settlements[s as usize].standing);
    let open_plain = !in_settlement && g.board.terrain[h as usize] == Terrain::Plain;
    let mut total = match side.pair {
        Some(pair) => g
            .state
            .pair_slot(pair)
            .map_or(0, |i| invader_strength(&g.rules, &g.state.pairs[i].troops)),
        None => side
            .generals
            .iter()
            .map(|x| general_strength(&g.rules, &g.cards, *x, g.state.general(*x), open_plain, None))
            .sum(),
    };
    total += side.mercenaries * g.rules.mercenaries_strength;
    if !attacking {
        if let Some(s) = sid {
            let st = &g.state.settlements[s as usize];
            if in_settlement && st.owner == Some(side.seat) {
                total += st.garrison + fortification(g, h, enemy);
            }
        }
        if side
            .generals
            .iter()
            .any(|x| carries(&g.cards, g.state.general(*x), ARK))
        {
            total += g.rules.ark;
        }
    }
    let rolled = roll(g)?;
    let side = side_mut(g, attacking);
    side.roll = rolled;
    side.total = total + rolled;
    Ok(())
}

/// CB-6: the winner loses troops from its garrison first, then its generals, strongest first.
fn apply_losses(g: &mut Game, h: Hex, attacking: bool, mut losses: i64, defending_settlement: bool) {
    if losses <= 0 {
        return;
    }
    let side = if attacking {
        battle_mut(g).attacker.clone()
    } else {
        battle_mut(g).defender.clone()
    };
    if let Some(pair) = side.pair {
        if let Some(i) = g.state.pair_slot(pair) {
            for have in g.state.pairs[i].troops.iter_mut() {
                let taken = (*have).min(losses);
                *have -= taken;
                losses -= taken;
            }
        }
        return;
    }
    if defending_settlement {
        if let Some(sid) = g.board.sid_at(h) {
            let taken = g.state.settlements[sid as usize].garrison.min(losses);
            g.state.settlement_mut(sid, false).garrison -= taken;
            losses -= taken;
        }
    }
    let mut generals = side.generals.clone();
    generals.sort_by_key(|x| (-(base_strength(*x) + g.state.general(*x).troops), *x));
    for x in generals {
        let taken = g.state.general(x).troops.min(losses);
        g.state.general_mut(x).troops -= taken;
        losses -= taken;
        if losses == 0 {
            break;
        }
    }
}

/// CB-3..CB-6: strengths and dice decide (a tie goes to the defender, CB-4); the loser is
/// defeated, then the winner takes its losses.
pub fn judge_battle(g: &mut Game) -> R {
    let b = battle(g)?.clone();
    let h = b.hex;
    let attacker_left = match b.attacker.pair {
        Some(pair) => g.state.pair_slot(pair).is_some(), // W-6: its invaders may all be dead
        None => !b.attacker.generals.is_empty(),
    };
    if !attacker_left {
        battle_mut(g).won = false;
        return Ok(());
    }
    if !side_present(g, h, &b.defender) {
        battle_mut(g).won = true;
        return Ok(());
    }
    let defending_settlement = b.defending_settlement;
    let attacker_troops = side_troops(g, h, &b.attacker, false);
    let defender_troops = side_troops(g, h, &b.defender, defending_settlement);
    total_strength(g, h, true)?;
    total_strength(g, h, false)?;
    let b = battle(g)?.clone();
    let won = b.attacker.total > b.defender.total;
    battle_mut(g).won = won;
    let sid = g.board.sid_at(h);
    emit!(g, "battle",
        "hex" => h, "settlement" => sid, "attacker" => b.attacker.seat, "defender" => b.defender.seat,
        "attack" => b.attacker.total, "defence" => b.defender.total,
        "attack_roll" => b.attacker.roll, "defence_roll" => b.defender.roll,
        "attackers" => Ev::List(b.attacker.generals.iter().map(|x| Ev::from(general_name(*x))).collect()),
        "defenders" => Ev::List(b.defender.generals.iter().map(|x| Ev::from(general_name(*x))).collect()),
        "winner" => if won { "attacker" } else { "defender" },
    );
    if won && b.attacker.pair.is_none() {
        // CB-5, CP-2: the winner frees its own captives here before taking the losers, so that
        // the 2-captive limit counts only the captives the settlement will really hold
        effects::hand_over_captives(g, h, b.attacker.seat)?;
    }
    if won {
        if defending_settlement {
            if let Some(s) = sid {
                g.state.settlement_mut(s, false).garrison = 0;
            }
        }
        g.push(Step::LossesTaken {
            losses: battle_losses(&g.rules, defender_troops),
        });
        defeat(g, &b.defender.generals, b.attacker.seat)
    } else {
        g.push(Step::LossesTaken {
            losses: battle_losses(&g.rules, attacker_troops),
        });
        defeat(g, &b.attacker.generals, b.defender.seat)
    }
}

/// CB-5: the loser's generals lose their troops and are captured by a player, killed by others.
pub fn defeat(g: &mut Game, names: &[Gid], winner: Seat) -> R {
    for (i, x) in names.iter().enumerate() {
        g.state.general_mut(*x).troops = 0;
        let mark = g.state.pending.len();
        if winner >= 0 {
            effects::capture_general(g, *x, winner)?;
        } else {
            effects::kill_general(g, *x, None, "battle")?;
        }
        if i + 1 < names.len()
            && g.defer(
                mark,
                Step::Defeat {
                    names: names[i + 1..].to_vec(),
                    winner,
                },
            )
        {
            return Ok(());
        }
    }
    Ok(())
}

/// CB-6, CB-10: the winner's losses; a defender who held its settlement regains the idle troops
/// of its ambushed generals.
pub fn losses_taken(g: &mut Game, losses: i64) -> R {
    let b = battle(g)?.clone();
    if b.won {
        apply_losses(g, b.hex, true, losses, false);
        return Ok(());
    }
    apply_losses(g, b.hex, false, losses, b.defending_settlement);
    if b.defending_settlement && b.defender.idle_troops != 0 {
        if let Some(sid) = g.board.sid_at(b.hex) {
            let limit = g.rules.limit_garrison;
            let st = g.state.settlement_mut(sid, false);
            st.garrison = limit.min(st.garrison + b.defender.idle_troops); // CB-10
        }
    }
    Ok(())
}

/// Close the battle; whether the attacker won.
fn end_battle(g: &mut Game) -> bool {
    g.state.battle.take().is_some_and(|b| b.won)
}

// the phase
/// Invaders jump and attack (W-5), besiegers choose to assault (MV-12), assaults are fought.
pub fn combat_phase(g: &mut Game) -> R {
    storm_blocks_assaults(g);
    g.sequence(vec![
        Step::InvadersAttack { pairs: None },
        Step::BesiegersChoose { hexes: None },
        Step::AssaultsFought { assaults: None },
        Step::AssaultsOver,
    ]);
    Ok(())
}

/// CB-1, 9.4: no combat in desert hexes while a Sandstorm blows.
fn storm_allows(g: &Game, h: Hex) -> bool {
    !(g.state.storm && g.board.terrain[h as usize] == Terrain::Desert)
}

/// CB-9: an assault the storm forbids becomes a siege begun this round.
fn storm_blocks_assaults(g: &mut Game) {
    for (h, seat) in g.state.assaults.clone() {
        if !storm_allows(g, h) {
            g.state.assaults.retain(|(x, _)| *x != h);
            if g.state.siege_at(h).is_none() {
                let round = g.state.round;
                g.state.sieges.push((
                    h,
                    Siege {
                        besieger: seat,
                        started: round,
                    },
                ));
            }
        }
    }
}

/// (a seat's place in turn order, the hex): the order besiegers and assaults go in.
fn turn_sorted<T: Copy>(g: &Game, items: Vec<(Hex, Seat, T)>) -> Vec<(Hex, Seat, T)> {
    let order = g.state.turn_order();
    let place = |seat: Seat| order.iter().position(|s| *s == seat).unwrap_or(usize::MAX);
    let mut items = items;
    items.sort_by_key(|(h, seat, _)| (place(*seat), *h));
    items
}

/// MV-12: in turn order, each besieger may turn a siege begun in an earlier round into an
/// assault in this Combat (`hexes`: the besieged hexes still to ask, in that order).
pub fn besiegers_choose(g: &mut Game, hexes: Option<Vec<Hex>>) -> R {
    let hexes = match hexes {
        Some(h) => h,
        None => {
            let items = g.state.sieges.iter().map(|(h, s)| (*h, s.besieger, ())).collect();
            turn_sorted(g, items).into_iter().map(|(h, _, _)| h).collect()
        }
    };
    for (i, h) in hexes.iter().enumerate() {
        let Some(siege) = g.state.siege_at(*h) else { continue };
        if siege.started >= g.state.round || g.state.assault_at(*h).is_some() || !storm_allows(g, *h) {
            continue; // MV-12: a besieger may assault from the round after the siege began
        }
        let prophets_only = free_generals(&g.state, *h)
            .filter(|x| g.state.general(*x).owner == siege.besieger)
            .all(|x| carries_prophet(&g.cards, g.state.general(x)));
        if prophets_only {
            continue; // MV-7: a Prophet's carrier never starts a battle
        }
        let rest = hexes[i + 1..].to_vec();
        return g.ask(
            siege.besieger,
            DecisionKind::SiegeAssault,
            vec![HOLD, ASSAULT],
            Then::SiegeChoice { hex: *h, rest },
            None,
            About::Hex(*h),
        );
    }
    Ok(())
}

pub fn siege_choice(g: &mut Game, choice: Opt, h: Hex, rest: Vec<Hex>) -> R {
    if choice == ASSAULT {
        if let Some(siege) = g.state.siege_at(h) {
            g.state.set_assault(h, siege.besieger);
        }
    }
    besiegers_choose(g, Some(rest))
}

/// CB-1: every assault of this round, in turn order of the attackers.
pub fn assaults_fought(g: &mut Game, assaults: Option<Vec<(Hex, Seat)>>) -> R {
    let assaults = match assaults {
        Some(a) => a,
        None => {
            let items = g.state.assaults.iter().map(|(h, s)| (*h, *s, ())).collect();
            turn_sorted(g, items).into_iter().map(|(h, s, _)| (h, s)).collect()
        }
    };
    for (i, (h, seat)) in assaults.iter().enumerate() {
        let mark = g.state.pending.len();
        resolve_assault(g, *h, *seat)?;
        if i + 1 < assaults.len()
            && g.defer(
                mark,
                Step::AssaultsFought {
                    assaults: Some(assaults[i + 1..].to_vec()),
                },
            )
        {
            return Ok(());
        }
    }
    Ok(())
}

/// CB-1, CB-7: fight for the hex; a winner at a settlement conquers or razes it.
fn resolve_assault(g: &mut Game, h: Hex, seat: Seat) -> R {
    let attackers: Vec<Gid> = free_generals(&g.state, h)
        .filter(|x| g.state.general(*x).owner == seat)
        .collect();
    if attackers.is_empty() {
        return Ok(());
    }
    let sid = g.board.sid_at(h);
    let standing = sid.filter(|s| g.state.settlements[*s as usize].standing);
    let defender_seat = match standing {
        Some(s) => match g.state.settlements[s as usize].owner {
            None => return effects::take_settlement(g, s, seat, "entered"),
            Some(owner) => owner,
        },
        None => match free_generals(&g.state, h)
            .map(|x| g.state.general(x).owner)
            .find(|o| *o != seat)
        {
            Some(o) => o,
            None => return Ok(()),
        },
    };
    if defender_seat == seat {
        return Ok(());
    }
    let defenders: Vec<Gid> = free_generals(&g.state, h)
        .filter(|x| g.state.general(*x).owner == defender_seat)
        .collect();
    let after = Step::AssaultWonOrLost {
        hex: h,
        seat,
        sid: standing.map_or(-1, |s| s as i64),
    };
    start_battle(
        g,
        h,
        Side::new(seat, attackers, None),
        Side::new(defender_seat, defenders, None),
        after,
    )
}

/// CB-7: an attacker that won at a settlement, with a general still there, conquers or razes it.
pub fn assault_won_or_lost(g: &mut Game, h: Hex, seat: Seat, sid: i64) -> R {
    if !end_battle(g) || sid < 0 {
        return Ok(());
    }
    let present = g.state.generals_at(h).any(|x| {
        let general = g.state.general(x);
        general.owner == seat && general.captor.is_none()
    });
    if !present {
        return Ok(());
    }
    let sid = sid as Sid;
    g.ask(
        seat,
        DecisionKind::ConquerOrRaze,
        vec![CONQUER, RAZE],
        Then::ConquerOrRaze { seat, sid },
        None,
        About::Settlement(sid),
    )
}

pub fn conquer_or_raze(g: &mut Game, choice: Opt, seat: Seat, sid: Sid) -> R {
    if choice == CONQUER {
        effects::take_settlement(g, sid, seat, "conquered")
    } else {
        effects::raze_settlement(g, sid, Some(seat));
        Ok(())
    }
}

/// W-3..W-5, CB-8: each pair loose when Combat began attacks its first target or jumps along
/// the ring and attacks (`pairs`: the ids of those still to attack).
pub fn invaders_attack(g: &mut Game, pairs: Option<Vec<i64>>) -> R {
    let pairs = pairs.unwrap_or_else(|| g.state.pairs.iter().map(|p| p.id).collect());
    for (i, id) in pairs.iter().enumerate() {
        let Some(p) = g.state.pair_slot(*id) else { continue };
        let target = pair_target(&g.state, &g.board, &g.state.pairs[p]);
        g.state.pairs[p].target = None;
        let Some(target) = target else { continue };
        g.state.pairs[p].at = Some(target);
        let h = g.state.settlements[target as usize].hex;
        if !storm_allows(g, h) {
            continue;
        }
        let owner = g.state.settlements[target as usize].owner;
        emit!(g, "invasion", "names" => names_ev(&g.state.pairs[p].names), "settlement" => target, "seat" => owner);
        let owner = owner.unwrap_or(-1);
        let defenders: Vec<Gid> = free_generals(&g.state, h)
            .filter(|x| g.state.general(*x).owner == owner)
            .collect();
        let mark = g.state.pending.len();
        let after = Step::InvasionOver { pair: *id, target };
        start_battle(
            g,
            h,
            Side::new(INVADER_SIDE, Vec::new(), Some(*id)),
            Side::new(owner, defenders, None),
            after,
        )?;
        if i + 1 < pairs.len() {
            g.defer(
                mark,
                Step::InvadersAttack {
                    pairs: Some(pairs[i + 1..].to_vec()),
                },
            );
        }
        return Ok(());
    }
    Ok(())
}

/// W-4: a winning pair razes the settlement; a beaten pair dies and returns to the pool (one
/// whose invaders all died by the defender's cards is gone already, W-6).
pub fn invasion_over(g: &mut Game, pair: i64, target: Sid) -> R {
    if end_battle(g) {
        effects::raze_settlement(g, target, None);
        return Ok(());
    }
    let Some(p) = g.state.pair_slot(pair) else {
        return Ok(());
    };
    let pair = g.state.pairs.remove(p);
    g.state.invader_pool.extend(pair.names.iter().copied());
    for name in &pair.names {
        g.note_invader(*name, CardAction::Defeated);
    }
    emit!(g, "invaders_defeated", "names" => names_ev(&pair.names), "settlement" => target);
    Ok(())
}

/// The card of a one-use kind the seat holds, if any (for the battle windows' tests).
pub fn held_card(g: &Game, seat: Seat, kind: Kind) -> Option<Card> {
    g.state.players[seat as usize]
        .hand
        .iter()
        .copied()
        .find(|c| g.cards.kind(*c) == kind)
}
