//! The phases of a round other than Combat (RD-2): Announcements, Draw Cards, Income,
//! Acquisitions, Movement and the Victory Check.

use crate::arithmetic::{carries, carries_prophet, income_paid, standing_judge_regions, tax_share};
use crate::board::{Hex, Sid};
use crate::cards::{general_name, Card, Gid, ARK, SECRET_PASSAGE};
use crate::emit;
use crate::game::{EndReason, Game, R};
use crate::movement::{is_hostile, occupancy_over, reachable, Occupancy, SettlementFlags};
use crate::options::{About, Opt, Purchase, ASSAULT, SIEGE};
use crate::parts::{Seat, Settlement, Siege};
use crate::phase::{DecisionKind, Phase};
use crate::state::{GameState, MaskIter};
use crate::steps::{Apply, Step, Then};
use crate::turns::act;
use crate::{cardplay, effects, titles};
use smallvec::SmallVec;

// 1 Announcements
/// AN-1: events resolve, then vacancies, the Anointed, the successor and the election.
pub fn announcements(g: &mut Game) -> R {
    emit!(g, "round", "first_player" => g.state.first_player);
    g.sequence(vec![
        Step::ResolveEvents,
        Step::AnnounceTitles,
        Step::CardWindow {
            phase: Phase::Announcements,
        },
    ]);
    Ok(())
}

// 2 Draw Cards
/// DR-1, DR-4: each player in turn draws, then may play Tax, Revolt, Blessing and others.
pub fn draw_cards(g: &mut Game) -> R {
    let count = g.rules.draw_per_round;
    let mut steps = Vec::with_capacity(2 * g.state.n_players());
    for seat in g.state.turn_order() {
        steps.push(Step::DrawCards { seat, count });
        steps.push(Step::CardTurn {
            seat,
            phase: Phase::Draw,
            count: 0,
        });
    }
    g.sequence(steps);
    Ok(())
}

// 3 Income
/// IN-1..IN-3: besieged settlements yield nothing; a taxed region pays its taxer double.
pub fn income(g: &mut Game) -> R {
    for sid in 0..g.state.settlements.len() as Sid {
        let st = &g.state.settlements[sid as usize];
        let Some(owner) = st.owner.filter(|o| *o >= 0) else {
            continue;
        };
        if !st.standing || g.state.siege_at(st.hex).is_some() {
            continue; // IN-2: a besieged settlement yields nothing, to its owner or to a taxer
        }
        let value = income_paid(&g.state, &g.board, &g.rules, sid);
        let taxer = g.board.settlements[sid as usize]
            .region
            .and_then(|r| g.state.taxer_of(r));
        let (seat, gain) = match taxer {
            Some(t) => (t, tax_share(&g.rules, value)),
            None => (owner, value),
        };
        let player = g.state.player_mut(seat);
        player.coins += gain;
        player.income += gain;
    }
    for seat in 0..g.state.n_players() as Seat {
        emit!(g, "income", "seat" => seat, "coins" => g.state.players[seat as usize].income);
    }
    cardplay::card_window(g, Phase::Income)
}

// 4 Acquisitions
/// AQ-1: every single purchase the seat can afford now, plus the cards it may play.
pub fn purchase_options(g: &Game, seat: Seat) -> Vec<Opt> {
    let s = &g.state;
    let rules = &g.rules;
    let coins = s.players[seat as usize].coins;
    let mut developments: Option<i64> = None;
    let mut ark_and_free: Option<bool> = None;
    let mut options = crate::options::fresh(16);
    for (sid, st) in s.settlements.iter().enumerate() {
        if !buyable(s, seat, st) {
            continue;
        }
        let sid = sid as Sid;
        if troop_fits(g, st, coins) {
            options.push(Opt::Buy {
                what: Purchase::Troop,
                settlement: sid,
                general: None,
            });
        }
        if coins >= rules.cost_wall && !st.wall && !st.city {
            options.push(Opt::Buy {
                what: Purchase::Wall,
                settlement: sid,
                general: None,
            });
        }
        if coins >= rules.cost_development && st.developments < rules.developments_per_settlement {
            let on_board = *developments.get_or_insert_with(|| {
                s.settlements
                    .iter()
                    .filter(|x| x.standing)
                    .map(|x| x.developments)
                    .sum()
            });
            if on_board < rules.developments_on_board {
                options.push(Opt::Buy {
                    what: Purchase::Development,
                    settlement: sid,
                    general: None,
                });
            }
        }
        if st.city {
            let allowed = *ark_and_free.get_or_insert_with(|| {
                let free = !s.settlements.iter().any(|o| o.tabernacle && o.standing);
                let ark = s.general_ids().any(|x| {
                    let general = s.general(x);
                    general.owner == seat && general.captor.is_none() && carries(&g.cards, general, ARK)
                });
                free && ark
            });
            if allowed && coins >= rules.cost_tabernacle {
                options.push(Opt::Buy {
                    what: Purchase::Tabernacle,
                    settlement: sid,
                    general: None,
                });
            }
        }
        if st.tabernacle && coins >= rules.cost_guilt_sacrifice && s.wrath > 0 {
            options.push(Opt::Buy {
                what: Purchase::GuiltSacrifice,
                settlement: sid,
                general: None,
            });
        }
    }
    titles::judge_purchases(g, seat, &mut options);
    cardplay::window_options(g, seat, Phase::Acquisitions, &mut options);
    options
}

/// ST-3: whether the seat may buy for the settlement: its own, standing and not besieged.
fn buyable(s: &GameState, seat: Seat, st: &Settlement) -> bool {
    st.owner == Some(seat) && st.standing && s.siege_at(st.hex).is_none()
}

fn troop_fits(g: &Game, st: &Settlement, coins: i64) -> bool {
    coins >= g.rules.cost_troop && st.garrison < g.rules.limit_garrison
}

/// Whether Acquisitions offers `seat` a troop for settlement `sid` now (AQ-1, ST-3, ST-10).
pub fn troop_offered(g: &Game, seat: Seat, sid: Sid) -> bool {
    let coins = g.state.players[seat as usize].coins;
    g.state
        .settlements
        .get(sid as usize)
        .is_some_and(|st| buyable(&g.state, seat, st) && troop_fits(g, st, coins))
}

/// Pay the price named like the purchase and apply it; a Judge title pays itself.
pub fn buy(g: &mut Game, seat: Seat, what: Purchase, sid: Sid, general: Option<Gid>) -> R {
    if what == Purchase::JudgeTitle {
        if let Some(x) = general {
            titles::buy_judge(g, seat, sid, x);
        }
    } else {
        let rules = g.rules.clone();
        let price = match what {
            Purchase::Troop => rules.cost_troop,
            Purchase::Wall => rules.cost_wall,
            Purchase::Development => rules.cost_development,
            Purchase::Tabernacle => rules.cost_tabernacle,
            Purchase::GuiltSacrifice => rules.cost_guilt_sacrifice,
            Purchase::JudgeTitle => rules.cost_judge_title,
        };
        g.state.player_mut(seat).coins -= price;
        match what {
            Purchase::Troop => g.state.settlement_mut(sid, false).garrison += 1,
            Purchase::Wall => g.state.settlement_mut(sid, true).wall = true,
            Purchase::Development => g.state.settlement_mut(sid, false).developments += 1,
            Purchase::Tabernacle => g.state.settlement_mut(sid, false).tabernacle = true,
            Purchase::GuiltSacrifice => {
                // it only lowers the cup: no pair is let loose, nothing is asked
                effects::add_wrath(g, -rules.wrath_guilt_sacrifice, "guilt sacrifice", Some(seat))?;
            }
            Purchase::JudgeTitle => {}
        }
    }
    emit!(g, "buy", "seat" => seat, "what" => what.value(), "settlement" => sid, "general" => general.map(general_name));
    Ok(())
}

/// AQ-1: in turn order each player buys (and plays Blessing, Assassin, Justice) until done.
pub fn acquisitions(g: &mut Game) -> R {
    let steps = g
        .state
        .turn_order()
        .into_iter()
        .map(|seat| Step::PurchaseTurn { seat, count: 0 })
        .collect();
    g.sequence(steps);
    Ok(())
}

pub fn purchase_turn(g: &mut Game, seat: Seat, count: i64) -> R {
    let options = purchase_options(g, seat);
    act(
        g,
        Step::PurchaseTurn { seat, count },
        seat,
        DecisionKind::Purchase,
        options,
        Apply::Purchase,
        About::Nothing,
    )
}

pub fn apply_purchase(g: &mut Game, seat: Seat, choice: Opt) -> R {
    match choice {
        Opt::Buy {
            what,
            settlement,
            general,
        } => buy(g, seat, what, settlement, general),
        other => cardplay::play_card(g, seat, other),
    }
}

// 5 Movement
pub fn passage_card(g: &Game, seat: Seat) -> Option<Card> {
    g.state.players[seat as usize]
        .hand
        .iter()
        .copied()
        .find(|c| g.cards.kind(*c) == SECRET_PASSAGE)
}

/// RD-4, MV-1..MV-13: every move, troop transfer, captive move and siege release open now.
pub fn movement_options(g: &Game, seat: Seat) -> Vec<Opt> {
    let s = &g.state;
    let (board, rules) = (&g.board, &g.rules);
    let passage = passage_card(g, seat).is_some();
    let kept = g.settlement_flags.as_ref();
    // built at the first general that may move: a turn's last decisions often have none
    let mut built = None;
    let mut options = crate::options::fresh(64);
    let mut own = 0u32; // the seat's free generals, a name-ordered mask
    for x in 0..crate::cards::N_GENERALS as Gid {
        let Some(general) = &s.generals[x as usize] else {
            continue;
        };
        if general.owner == seat && general.captor.is_none() {
            own |= 1 << x;
            if !general.moved {
                let occ = &*built.get_or_insert_with(|| occupancy_over(s, board, rules, seat, kept));
                let plain = reachable(s, board, rules, &g.cards, x, false, Some(occ));
                options.extend(plain.iter().map(|(dest, _)| Opt::Move {
                    general: x,
                    dest: *dest,
                    passage: false,
                }));
                if passage {
                    passage_moves(g, x, occ, &plain, &mut options);
                }
            }
            let Some(sid) = board.sid_at(general.hex) else { continue };
            let st = &s.settlements[sid as usize];
            if st.owner != Some(seat) {
                continue;
            }
            // MV-10: troops pass both ways, one at a time: a take needs the move (and spends
            // it), a give is free and may follow a give or a take
            let garrison = st.garrison;
            if !general.moved {
                let room = (rules.troops_per_general - general.troops).min(garrison);
                options.extend((1..=room).map(|n| Opt::TakeTroops { general: x, count: n }));
            }
            if general.troops != 0 {
                let room = general.troops.min(rules.limit_garrison - garrison);
                options.extend((1..=room).map(|n| Opt::GiveTroops { general: x, count: n }));
            }
        } else if general.captor == Some(seat) && !general.moved {
            let occ = &*built.get_or_insert_with(|| occupancy_over(s, board, rules, seat, kept));
            let reach = reachable(s, board, rules, &g.cards, x, false, Some(occ));
            options.extend(reach.iter().map(|(dest, _)| Opt::MoveCaptive {
                general: x,
                dest: *dest,
            }));
        }
    }
    // pushed one by one: collecting a filter into a SmallVec costs more than the loop
    let mut ended: SmallVec<[Hex; 8]> = SmallVec::new();
    for (h, siege) in &s.sieges {
        if siege.besieger == seat {
            ended.push(*h);
        }
    }
    ended.sort_unstable();
    options.extend(ended.into_iter().map(Opt::EndSiege));
    for h in standing_attackers(g, seat, own) {
        options.push(Opt::StartSiege(h));
        options.push(Opt::StartAssault(h));
    }
    cardplay::window_options(g, seat, Phase::Movement, &mut options);
    options
}

/// MV-9, 9.3: the moves of general `x` with a Secret Passage: where only the passage takes it
/// (its plain moves are `plain`), and attacks on walled settlements (it ignores the wall).
fn passage_moves(g: &Game, x: Gid, occ: &Occupancy, plain: &[(Hex, i64)], options: &mut Vec<Opt>) {
    let s = &g.state;
    let walled =
        |dest: Hex| occ.hostile(dest) && g.board.sid_at(dest).is_some_and(|sid| s.settlements[sid as usize].wall);
    let push = |options: &mut Vec<Opt>, dest: Hex| {
        options.push(Opt::Move {
            general: x,
            dest,
            passage: true,
        })
    };
    if occ.passage_opens_nothing(s) {
        // it reaches just the plain moves' hexes: only the walled attacks are new
        for &(dest, _) in plain.iter().filter(|(dest, _)| walled(*dest)) {
            push(options, dest);
        }
        return;
    }
    let with_passage = reachable(s, &g.board, &g.rules, &g.cards, x, true, Some(occ));
    for &(dest, _) in with_passage.iter() {
        if !plain.iter().any(|(h, _)| *h == dest) || walled(dest) {
            push(options, dest);
        }
    }
}

/// MV-15: hostile hexes where the seat's free generals stand without a siege or an assault of
/// its own, and may start one (a general that moved starts nothing; a Prophet's carrier
/// neither, MV-7); sorted.
fn standing_attackers(g: &Game, seat: Seat, own: u32) -> SmallVec<[Hex; 8]> {
    let s = &g.state;
    let mut hexes: SmallVec<[Hex; 8]> = SmallVec::new();
    for general in MaskIter(own).map(|x| s.general(x)) {
        let h = general.hex;
        if !general.moved
            && s.assault_at(h).is_none()
            && s.siege_at(h).is_none()
            && !carries_prophet(&g.cards, general)
            && is_hostile(s, &g.board, h, seat)
        {
            hexes.push(h);
        }
    }
    hexes.sort_unstable();
    hexes.dedup();
    hexes
}

/// RD-4: in turn order each player moves, transfers troops and plays cards until done.
pub fn movement(g: &mut Game) -> R {
    let order = g.state.turn_order();
    let mut steps = Vec::with_capacity(order.len() + 1);
    steps.extend(order.into_iter().map(|seat| Step::MovementTurn { seat, count: 0 }));
    steps.push(Step::CardWindow { phase: Phase::Movement });
    g.sequence(steps);
    Ok(())
}

pub fn movement_turn(g: &mut Game, seat: Seat, count: i64) -> R {
    if !g
        .settlement_flags
        .as_ref()
        .is_some_and(|kept| kept.fits(&g.state, seat))
    {
        g.settlement_flags = Some(SettlementFlags::of(&g.state, &g.board, &g.rules, seat));
    }
    let options = movement_options(g, seat);
    act(
        g,
        Step::MovementTurn { seat, count },
        seat,
        DecisionKind::Movement,
        options,
        Apply::Movement,
        About::Nothing,
    )
}

pub fn apply_movement(g: &mut Game, seat: Seat, choice: Opt) -> R {
    match choice {
        Opt::Move { general, dest, passage } => move_general(g, seat, general, dest, passage),
        Opt::TakeTroops { general, count } => {
            let h = g.state.general(general).hex;
            if let Some(sid) = g.board.sid_at(h) {
                g.state.settlement_mut(sid, false).garrison -= count;
            }
            let moving = g.state.general_mut(general);
            moving.troops += count;
            moving.took = true; // MV-10: taking troops uses the move
            moving.moved = true;
            emit!(g, "take_troops", "seat" => seat, "general" => general_name(general), "count" => count);
            Ok(())
        }
        Opt::GiveTroops { general, count } => {
            let h = g.state.general(general).hex;
            if let Some(sid) = g.board.sid_at(h) {
                g.state.settlement_mut(sid, false).garrison += count;
            }
            g.state.general_mut(general).troops -= count;
            emit!(g, "give_troops", "seat" => seat, "general" => general_name(general), "count" => count);
            Ok(())
        }
        Opt::MoveCaptive { general, dest } => {
            g.state.general_mut(general).moved = true;
            g.state.place(general, dest);
            emit!(g, "move_captive", "seat" => seat, "general" => general_name(general), "to" => dest);
            Ok(())
        }
        Opt::EndSiege(h) => {
            g.state.remove_siege(h);
            emit!(g, "siege_ended", "seat" => seat, "hex" => h);
            Ok(())
        }
        Opt::StartSiege(h) | Opt::StartAssault(h) => {
            let here: Vec<Gid> = g.state.generals_at(h).collect();
            for x in here {
                let general = g.state.general(x);
                if general.owner == seat && general.captor.is_none() {
                    g.state.general_mut(x).moved = true; // MV-15: starting it is their move this round
                }
            }
            if matches!(choice, Opt::StartSiege(_)) {
                begin_siege(g, seat, h);
            } else {
                begin_assault(g, seat, h);
            }
            Ok(())
        }
        other => cardplay::play_card(g, seat, other),
    }
}

/// MV-1, MV-9, MV-12, CB-1: the move itself, then what entering the hex means.
fn move_general(g: &mut Game, seat: Seat, x: Gid, dest: Hex, passage: bool) -> R {
    let origin = g.state.general(x).hex;
    if passage {
        if let Some(card) = passage_card(g, seat) {
            effects::spend_card(g, seat, card);
        }
        g.state.general_mut(x).passage = true;
    }
    g.state.general_mut(x).moved = true;
    g.state.place(x, dest);
    emit!(g, "move", "seat" => seat, "general" => general_name(x), "frm" => origin, "to" => dest, "passage" => passage);
    if g.state.siege_at(origin).is_some() {
        effects::lift_abandoned_sieges(g);
    }
    if let Some(sid) = g.board.sid_at(dest) {
        let st = &g.state.settlements[sid as usize];
        if st.standing && st.owner.is_none() {
            return effects::take_settlement(g, sid, seat, "entered"); // CB-1: free and empty
        }
    }
    if !is_hostile(&g.state, &g.board, dest, seat) {
        return Ok(());
    }
    if g.state.siege_at(dest).is_some_and(|s| s.besieger == seat) || g.state.assault_at(dest) == Some(seat) {
        return Ok(()); // joins its side's siege or assault
    }
    g.ask(
        seat,
        DecisionKind::SiegeOrAssault,
        vec![SIEGE, ASSAULT],
        Then::SiegeOrAssault { seat, hex: dest },
        None,
        About::HexGeneral(dest, x),
    )
}

/// MV-12: the general that entered a hostile hex besieges it or assaults it in Combat.
pub fn siege_or_assault(g: &mut Game, choice: Opt, seat: Seat, h: Hex) -> R {
    if choice == SIEGE {
        begin_siege(g, seat, h);
    } else {
        begin_assault(g, seat, h);
    }
    Ok(())
}

/// MV-11: the hex is sealed and its defences melt from this round on.
fn begin_siege(g: &mut Game, seat: Seat, h: Hex) {
    let round = g.state.round;
    g.state.set_siege(
        h,
        Siege {
            besieger: seat,
            started: round,
        },
    );
    emit!(g, "siege", "seat" => seat, "hex" => h, "settlement" => g.board.sid_at(h));
}

/// MV-12, CB-1: a battle in this round's Combat.
fn begin_assault(g: &mut Game, seat: Seat, h: Hex) {
    g.state.set_assault(h, seat);
    emit!(g, "assault", "seat" => seat, "hex" => h, "settlement" => g.board.sid_at(h));
}

// 7 Victory Check
/// V-1..V-5: the phase's card window, then the check.
pub fn victory_check(g: &mut Game) -> R {
    g.sequence(vec![Step::CardWindow { phase: Phase::Victory }, Step::JudgeVictory]);
    Ok(())
}

/// V-1..V-5: collapse first, then 3 VP wins (ties by VP, settlements, coins), then the round
/// limit; the round's report rows are recorded either way.
pub fn judge_victory(g: &mut Game) -> R {
    crate::scoring::record_round(g);
    if standing_judge_regions(&g.state, &g.board, &g.rules, None) < g.rules.min_judge_regions {
        g.finish(EndReason::Collapse, Vec::new());
        return Ok(());
    }
    let n = g.state.n_players() as Seat;
    // the rows just recorded hold every seat's points, in seat order
    let recorded = g.round_rows.len().saturating_sub(n as usize);
    let scores: Vec<i64> = g.round_rows[recorded..].iter().map(|row| row.vp).collect();
    let leaders: Vec<Seat> = (0..n)
        .filter(|seat| scores[*seat as usize] >= g.rules.victory_points)
        .collect();
    if !leaders.is_empty() {
        let key = |seat: Seat| {
            let owned = g
                .state
                .settlements
                .iter()
                .filter(|st| st.owner == Some(seat) && st.standing)
                .count() as i64;
            (scores[seat as usize], owned, g.state.players[seat as usize].coins)
        };
        let best = leaders.iter().map(|s| key(*s)).max();
        let winners: Vec<Seat> = leaders.iter().copied().filter(|s| Some(key(*s)) == best).collect();
        let reason = if winners.len() == 1 {
            EndReason::Victory
        } else {
            EndReason::Draw
        };
        g.finish(reason, winners);
        return Ok(());
    }
    if g.state.round >= g.rules.max_rounds {
        g.finish(EndReason::RoundLimit, Vec::new());
    }
    Ok(())
}
