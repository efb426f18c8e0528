//! Judges and Kings (TI-1..TI-16): buying a Judge title, filling vacancies, the Anointed,
//! succession and the election, all in the order of AN-1.

use crate::arithmetic::{carries, enough_for_judge, region_standing};
use crate::cards::{Gid, PROPHET};
use crate::effects::{self, chosen_general};
use crate::eligible::{title_candidates, titleable};
use crate::emit;
use crate::game::{Ev, Game, R};
use crate::options::{About, Choice, Opt, Purchase};
use crate::parts::{Seat, Title};
use crate::phase::DecisionKind;
use crate::state::MaskIter;
use crate::steps::Then;

/// TI-1: every (walled village, general) pair with which the seat may buy a title now, added
/// to `options`.
pub fn judge_purchases(g: &Game, seat: Seat, options: &mut Vec<Opt>) {
    let s = &g.state;
    if s.players[seat as usize].coins < g.rules.cost_judge_title {
        return;
    }
    // the generals in name order: a mask's bits run in that order
    let generals = titleable(s, Some(seat)).fold(0u32, |mask, x| mask | 1 << x);
    if generals == 0 {
        return;
    }
    for region in &s.regions {
        if region.city.is_some() || region.holder.is_some() {
            continue;
        }
        // read in place, not collected: most regions have a standing settlement of another
        let members = g.board.regions[region.index as usize]
            .settlements
            .iter()
            .map(|sid| (*sid, &s.settlements[*sid as usize]))
            .filter(|(_, st)| st.standing);
        if members.clone().any(|(_, st)| st.owner != Some(seat))
            || !enough_for_judge(&g.rules, region_standing(s, &g.board, region.index, None))
        {
            continue;
        }
        for (sid, st) in members {
            if st.wall && !st.city && s.siege_at(st.hex).is_none() {
                options.extend(MaskIter(generals).map(|x| Opt::Buy {
                    what: Purchase::JudgeTitle,
                    settlement: sid,
                    general: Some(x),
                }));
            }
        }
    }
}

pub fn buy_judge(g: &mut Game, seat: Seat, sid: crate::board::Sid, general: Gid) {
    let Some(region) = g.board.settlements[sid as usize].region else {
        return;
    };
    g.state.player_mut(seat).coins -= g.rules.cost_judge_title;
    g.state.settlement_mut(sid, true).city = true; // ST-2: for good
    if let Some(slot) = g.state.region_slot(region) {
        g.state.region_mut(slot).city = Some(sid);
    }
    effects::give_title(g, general, region);
}

/// TI-6, TI-16: who appoints to a vacant title whose city `owner` holds, and whom: a reigning
/// King any free untitled general, else the owner one of their own (by id).
pub fn appointment(g: &Game, owner: Seat) -> (Seat, Vec<Gid>) {
    let king = effects::reigning_king(g);
    let appointer = king.map_or(owner, |k| g.state.general(k).owner);
    let mut eligible: Vec<Gid> = titleable(&g.state, king.is_none().then_some(owner)).collect();
    eligible.sort_unstable();
    (appointer, eligible)
}

/// TI-6, TI-16: a title vacant since an earlier round is filled: a reigning King appoints to any
/// free untitled general; otherwise the city's owner appoints one of their own. Nobody
/// eligible: the title waits. Regions from the `start`-th on, in the state's order.
pub fn fill_vacancies(g: &mut Game, start: usize) -> R {
    for i in start..g.state.regions.len() {
        let region = &g.state.regions[i];
        let Some(city) = region.city else { continue };
        if region.holder.is_some() || region.lapsed || region.vacant_since == Some(g.state.round) {
            continue;
        }
        let Some(owner) = g.state.settlements[city as usize].owner.filter(|o| *o >= 0) else {
            continue;
        };
        let index = region.index;
        let (appointer, eligible) = appointment(g, owner);
        if eligible.is_empty() {
            continue;
        }
        let options = eligible.into_iter().map(|x| Opt::Choose(Choice::General(x))).collect();
        return g.ask(
            appointer,
            DecisionKind::Appoint,
            options,
            Then::Appointed {
                region: index,
                next_region: i + 1,
            },
            None,
            About::Region(index),
        );
    }
    Ok(())
}

pub fn appointed(g: &mut Game, opt: Opt, region: u8, next_region: usize) -> R {
    effects::give_title(g, chosen_general(opt), region);
    fill_vacancies(g, next_region)
}

/// TI-9, TI-15: with the throne empty, a free Anointed carrier is crowned before any vote.
pub fn crown_anointed(g: &mut Game) -> R {
    if g.state.king.is_none() {
        if let Some(heir) = effects::anointed_heir(g, None) {
            effects::crown(g, heir, "anointed");
        }
    }
    Ok(())
}

/// TI-13: the dead King's player names a successor among their own free, untitled generals.
pub fn choose_successor(g: &mut Game) -> R {
    let s = &g.state;
    let Some(seat) = s.succession_pending.filter(|_| s.king.is_none()) else {
        g.state.succession_pending = None;
        return Ok(());
    };
    if s.succession_since == Some(s.round) {
        return Ok(()); // the King died in these Announcements: the choice comes in the next
    }
    // [A] free and untitled, as for every appointment (TI-16): the crown takes no other title
    let candidates = title_candidates(s, seat);
    if candidates.is_empty() {
        g.state.succession_pending = None;
        emit!(g, "no_successor", "seat" => seat);
        return Ok(());
    }
    let options = candidates
        .into_iter()
        .map(|x| Opt::Choose(Choice::General(x)))
        .collect();
    g.ask(
        seat,
        DecisionKind::Successor,
        options,
        Then::SuccessorChosen,
        None,
        About::Nothing,
    )
}

pub fn successor_chosen(g: &mut Game, opt: Opt) -> R {
    effects::crown(g, chosen_general(opt), "succession");
    Ok(())
}

/// TI-10: filled titles held by free generals, by name.
pub fn eligible_judges(g: &Game) -> Vec<Gid> {
    let s = &g.state;
    let mut names: Vec<Gid> = s
        .regions
        .iter()
        .filter(|r| !r.lapsed)
        .filter_map(|r| r.holder)
        .filter(|h| s.general(*h).captor.is_none())
        .collect();
    names.sort_unstable();
    names
}

/// TI-10, TI-14: one vote per free Judge of the seat, one more per free Prophet carrier.
pub fn votes_of(g: &Game, seat: Seat) -> i64 {
    let mut total = 0;
    for x in g.state.general_ids() {
        let general = g.state.general(x);
        if general.owner != seat || general.captor.is_some() {
            continue;
        }
        if matches!(general.title, Some(Title::Judge(_))) {
            total += 1;
        }
        if carries(&g.cards, general, PROPHET) {
            total += 1;
        }
    }
    total
}

/// TI-10: while there is no King (and no successor pending) and two or more Judges are eligible,
/// every vote is cast, in turn order; a single leader is crowned, a tie crowns nobody.
pub fn election(g: &mut Game) -> R {
    if g.state.king.is_some() || g.state.succession_pending.is_some() {
        return Ok(());
    }
    let candidates = eligible_judges(g);
    if candidates.len() < 2 {
        return Ok(());
    }
    let order = g.state.turn_order();
    let tally = vec![0; candidates.len()];
    next_voter(g, candidates, order, 0, tally)
}

/// The `i`-th seat in turn order and those after it cast their votes; then the count.
fn next_voter(g: &mut Game, candidates: Vec<Gid>, order: Vec<Seat>, start: usize, tally: Vec<i64>) -> R {
    for i in start..order.len() {
        let votes = votes_of(g, order[i]);
        if votes > 0 {
            return ask_vote(g, candidates, order, i, votes, tally);
        }
    }
    count_votes(g, &candidates, &tally);
    Ok(())
}

fn ask_vote(g: &mut Game, candidates: Vec<Gid>, order: Vec<Seat>, i: usize, left: i64, tally: Vec<i64>) -> R {
    let options = candidates.iter().map(|x| Opt::Choose(Choice::General(*x))).collect();
    let seat = order[i];
    g.ask(
        seat,
        DecisionKind::Vote,
        options,
        Then::Voted {
            candidates,
            order,
            i,
            left,
            tally,
        },
        None,
        About::Nothing,
    )
}

pub fn voted(
    g: &mut Game,
    opt: Opt,
    candidates: Vec<Gid>,
    order: Vec<Seat>,
    i: usize,
    left: i64,
    mut tally: Vec<i64>,
) -> R {
    let pick = chosen_general(opt);
    if let Some(k) = candidates.iter().position(|x| *x == pick) {
        tally[k] += 1;
    }
    if left > 1 {
        ask_vote(g, candidates, order, i, left - 1, tally)
    } else {
        next_voter(g, candidates, order, i + 1, tally)
    }
}

/// TI-10: every candidate's count is made known; the one with the most votes is crowned, and
/// nobody if two or more share the most (or nobody voted).
fn count_votes(g: &mut Game, candidates: &[Gid], tally: &[i64]) {
    emit!(g, "election", "counts" => Ev::Map(candidates.iter().zip(tally).map(|(x, t)| (crate::cards::general_name(*x).to_string(), Ev::Int(*t))).collect()));
    let most = tally.iter().copied().max().unwrap_or(0);
    if most == 0 || tally.iter().filter(|t| **t == most).count() > 1 {
        return;
    }
    if let Some(k) = tally.iter().position(|t| *t == most) {
        effects::crown(g, candidates[k], "election");
    }
}
