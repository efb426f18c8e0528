//! The position evaluation the search strategies score positions with (strategies/evaluation.py
//! documents its terms), in one home: a seat's terms read from the public state with the rule
//! arithmetic, their weighted sum (its worth), and a position's value for a seat. Nothing hidden
//! is read (no hand, no deck, no generator), so a determinised copy is worth what the game is.
//!
//! The terms are summed in the orders the Python evaluation kept (settlements by id, regions and
//! generals in the state's order), so the floats are the same to the last bit.

use plsim_rules::arithmetic::{
    carries_prophet, general_moves, general_strength, hex_defence, invader_strength, pair_target, region_status,
    settlement_value, win_probability,
};
use plsim_rules::board::{Sid, NO_ROUTE};
use plsim_rules::game::Game;
use plsim_rules::parts::{Seat, Settlement};
use plsim_rules::scoring::victory_points;

/// A whole region with a walled village of its own: the Judge title is one purchase away.
pub const TITLE_READY_BONUS: f64 = 0.5;
/// A walled village of its own in a region still open: the Judge's city to be (TI-1).
pub const WALLED_BONUS: f64 = 0.25;
/// A settlement held by a general alone counts this much of one with a garrison.
pub const GENERAL_HOLD: f64 = 0.6;
/// A target one more Movement away is worth this much less.
pub const REACH_DECAY: f64 = 0.6;

/// The terms of a seat's worth: vp, titles, income, coins, army, settlements, reach, threat.
pub type Features = [f64; 8];

/// The evaluation's weights, a search strategy's parameters (`EVALUATION_PARAMS`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub vp: f64,
    pub titles: f64,
    pub income: f64,
    pub coins: f64,
    /// coins beyond this are worth nothing more
    pub coin_cap: f64,
    pub army: f64,
    pub settlements: f64,
    pub reach: f64,
    pub threat: f64,
    /// a worth margin over the best rival of this much multiplies the odds of winning by e
    pub scale: f64,
}

impl Weights {
    /// The weights of the terms, in `Features` order.
    pub fn term_weights(&self) -> Features {
        [
            self.vp,
            self.titles,
            self.income,
            self.coins,
            self.army,
            self.settlements,
            self.reach,
            self.threat,
        ]
    }
}

/// How firmly the seat holds each settlement, by id (None: not a standing one of its own): 1 with
/// a garrison, GENERAL_HOLD with only a free general of its own there (tied down to keep it), 0
/// with neither (ST-9: it becomes unowned at the end of the phase).
pub(crate) fn holds(g: &Game, seat: Seat) -> Vec<Option<f64>> {
    let state = &g.state;
    let guarded = |hex| {
        state.generals_at(hex).any(|x| {
            let general = state.general(x);
            general.owner == seat && general.captor.is_none()
        })
    };
    state
        .settlements
        .iter()
        .map(|st| {
            (st.standing && st.owner == Some(seat)).then(|| {
                if st.garrison != 0 {
                    1.0
                } else if guarded(st.hex) {
                    GENERAL_HOLD
                } else {
                    0.0
                }
            })
        })
        .collect()
}

/// Titles in reach, and what each settlement is worth to the seat, by id: 1, and in a region
/// still open to a Judge 1 plus twice the share of the region the seat already holds.
pub(crate) fn region_worth(g: &Game, seat: Seat, holds: &[Option<f64>]) -> (f64, Vec<f64>) {
    let held = |sid: &Sid| holds[*sid as usize].unwrap_or(0.0);
    let mut titles = 0.0;
    let mut worth = vec![1.0; holds.len()];
    for region in &g.state.regions {
        let status = region_status(&g.state, &g.board, &g.rules, region.index, seat);
        if !status.can_hold || status.city.is_some() || status.standing.is_empty() {
            continue;
        }
        let share = status.mine.iter().map(held).fold(0.0, |sum, h| sum + h) / status.standing.len() as f64;
        titles += share * share;
        if status.my_walled.iter().any(|sid| held(sid) != 0.0) {
            let whole = status.free.is_empty() && status.canaanite.is_empty() && status.rival.is_empty();
            titles += WALLED_BONUS + if whole { TITLE_READY_BONUS } else { 0.0 };
        }
        for sid in &status.standing {
            worth[*sid as usize] = 1.0 + 2.0 * share;
        }
    }
    (titles, worth)
}

/// The chance an attack of this strength beats this defence, with the game's dice (CB-3, CB-4).
fn chance(g: &Game, attack: i64, defence: i64) -> f64 {
    win_probability(attack as f64, defence as f64, g.rules.combat_dice, g.rules.dice_sides)
}

/// Per free general of the seat, its best target: a settlement it does not own, worth its chance
/// of winning there (1 for a free one) times its worth, times REACH_DECAY to the power of the
/// Movements beyond the next that the general needs to get there (TR-1 route cost over its
/// moves, a fraction: every step closer counts).
fn reach(g: &Game, seat: Seat, worth: &[f64]) -> f64 {
    let state = &g.state;
    let targets: Vec<_> = state
        .settlements
        .iter()
        .enumerate()
        .filter(|(_, st)| st.standing && st.owner != Some(seat))
        .map(|(sid, st)| (st.hex, g.board.route_costs_to(st.hex), worth[sid]))
        .collect();
    // (defence, free) against the seat, looked up only for targets that could be a general's best
    let mut defences: Vec<Option<(i64, bool)>> = vec![None; targets.len()];
    let mut total = 0.0;
    for x in state.general_ids() {
        let general = state.general(x);
        if general.owner != seat || general.captor.is_some() {
            continue;
        }
        let moves = general_moves(x) as f64;
        let strength = general_strength(&g.rules, &g.cards, x, general, false, None);
        let peaceful = carries_prophet(&g.cards, general); // MV-7: a Prophet's carrier enters no hostile hex
        let mut best: f64 = 0.0;
        for (i, (hex, routes, value)) in targets.iter().enumerate() {
            let cost = routes[general.hex as usize];
            if cost >= NO_ROUTE {
                continue;
            }
            let bound = value * REACH_DECAY.powf((cost as f64 / moves - 1.0).max(0.0));
            if bound <= best {
                continue; // even a sure win there would not beat the best so far
            }
            let (defence, free) = *defences[i].get_or_insert_with(|| {
                let (defence, side) = hex_defence(state, &g.board, &g.rules, &g.cards, *hex, None, false, Some(seat));
                (defence, side.is_none())
            });
            if !free && peaceful {
                continue;
            }
            best = best.max(if free {
                bound
            } else {
                bound * chance(g, strength, defence)
            });
        }
        total += best;
    }
    total
}

/// Per settlement of the seat, the chance that the strongest rival general within one move, or
/// an invader pair aimed at it (W-3, W-5), takes it, times its worth.
fn threat(g: &Game, seat: Seat, worth: &[f64]) -> f64 {
    let state = &g.state;
    let mine = |st: &Settlement| st.standing && st.owner == Some(seat);
    if !state.settlements.iter().any(mine) {
        return 0.0;
    }
    let rivals: Vec<_> = state
        .general_ids()
        .filter_map(|x| {
            let general = state.general(x);
            (general.owner != seat && general.captor.is_none() && !carries_prophet(&g.cards, general)).then(|| {
                let strength = general_strength(&g.rules, &g.cards, x, general, false, None);
                (general.hex, general_moves(x), strength)
            })
        })
        .collect();
    let mut invaders = vec![0i64; state.settlements.len()];
    for pair in &state.pairs {
        if let Some(target) = pair_target(state, &g.board, pair) {
            invaders[target as usize] += invader_strength(&g.rules, &pair.troops);
        }
    }
    let mut total = 0.0;
    for (sid, st) in state.settlements.iter().enumerate() {
        if !mine(st) {
            continue;
        }
        let defence = hex_defence(state, &g.board, &g.rules, &g.cards, st.hex, None, false, None).0;
        let routes = g.board.route_costs_to(st.hex);
        let attack = rivals
            .iter()
            .filter(|(hex, moves, _)| routes[*hex as usize] <= *moves)
            .map(|(_, _, strength)| *strength)
            .max()
            .unwrap_or(0)
            .max(invaders[sid]);
        if attack != 0 {
            total += chance(g, attack, defence) * worth[sid];
        }
    }
    total
}

/// The seat's terms of worth, in `Features` order (the purse capped at `coin_cap`, the threat
/// as a loss); `with_reach` or `with_threat` false leaves that term 0 uncomputed.
pub fn seat_features(g: &Game, seat: Seat, coin_cap: f64, with_reach: bool, with_threat: bool) -> Features {
    let state = &g.state;
    let holds = holds(g, seat);
    let (titles, worth) = region_worth(g, seat, &holds);
    let (mut income, mut settlements, mut garrison) = (0.0, 0.0, 0);
    for (st, hold) in state.settlements.iter().zip(&holds) {
        if let Some(hold) = hold {
            settlements += hold;
            garrison += st.garrison;
            income += hold * settlement_value(&g.rules, st.city, st.developments, 0) as f64;
        }
    }
    let strength: i64 = state
        .general_ids()
        .map(|x| (x, state.general(x)))
        .filter(|(_, general)| general.owner == seat && general.captor.is_none())
        .map(|(x, general)| general_strength(&g.rules, &g.cards, x, general, false, None))
        .sum();
    [
        victory_points(state, &g.cards, seat) as f64,
        titles,
        income,
        (state.players[seat as usize].coins as f64).min(coin_cap),
        (garrison + strength) as f64,
        settlements,
        if with_reach { reach(g, seat, &worth) } else { 0.0 },
        if with_threat { -threat(g, seat, &worth) } else { 0.0 },
    ]
}

/// The seat's worth: its terms weighed (a term of weight 0 is not computed).
pub fn seat_worth(g: &Game, seat: Seat, weights: &Weights) -> f64 {
    let terms = seat_features(g, seat, weights.coin_cap, weights.reach != 0.0, weights.threat != 0.0);
    weights
        .term_weights()
        .iter()
        .zip(terms)
        .fold(0.0, |sum, (w, t)| sum + w * t)
}

/// A seat's chance of winning read off its worth minus the best rival's: the logistic of
/// `margin / scale` shifted so that a seat level with its best rival has 1 in `players`.
pub fn value_of_margin(margin: f64, scale: f64, players: usize) -> f64 {
    1.0 / (1.0 + (players - 1) as f64 * (-margin / scale).exp())
}

/// A finished game: 1 for a sole winner, 1/k for one of k tied winners, 0 otherwise.
pub fn outcome_value(winners: &[Seat], seat: Seat) -> f64 {
    if winners.contains(&seat) {
        1.0 / winners.len() as f64
    } else {
        0.0
    }
}

/// The value of the game's position for the seat, in (0, 1): `value_of_margin` of its worth
/// minus the best rival's; the game's outcome once it is over.
pub fn position_value(g: &Game, seat: Seat, weights: &Weights) -> f64 {
    if g.over() {
        return outcome_value(&g.winners, seat);
    }
    value_among(&worths(g, weights), seat as usize, weights)
}

/// Every seat's `position_value`, from one reading of every seat's worth.
pub fn position_values(g: &Game, weights: &Weights) -> Vec<f64> {
    let players = g.state.n_players();
    if g.over() {
        return (0..players as Seat).map(|s| outcome_value(&g.winners, s)).collect();
    }
    let worths = worths(g, weights);
    (0..players).map(|seat| value_among(&worths, seat, weights)).collect()
}

/// Every seat's worth, in seat order.
fn worths(g: &Game, weights: &Weights) -> Vec<f64> {
    (0..g.state.n_players() as Seat)
        .map(|s| seat_worth(g, s, weights))
        .collect()
}

/// `value_of_margin` of the seat's worth minus the best rival's.
fn value_among(worths: &[f64], seat: usize, weights: &Weights) -> f64 {
    let best_rival = worths
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != seat)
        .map(|(_, w)| *w)
        .fold(f64::NEG_INFINITY, f64::max);
    value_of_margin(worths[seat] - best_rival, weights.scale, worths.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_level_with_its_best_rival_has_one_chance_in_the_number_of_players() {
        for players in 2..=6 {
            assert!((value_of_margin(0.0, 4.0, players) - 1.0 / players as f64).abs() < 1e-15);
        }
        assert!(value_of_margin(8.0, 4.0, 4) > value_of_margin(4.0, 4.0, 4));
    }

    #[test]
    fn tied_winners_share_the_win() {
        assert_eq!(outcome_value(&[1], 1), 1.0);
        assert_eq!(outcome_value(&[0, 2], 2), 0.5);
        assert_eq!(outcome_value(&[0, 2], 1), 0.0);
        assert_eq!(outcome_value(&[], 0), 0.0);
    }
}
