//! Victory points (V-1, TI-2, TI-7, ST-7) and the per-seat figures of a round's report row.

use crate::arithmetic::carries;
use crate::board::Hex;
use crate::cards::{CardTable, ARK};
use crate::game::{Game, SeatRow};
use crate::parts::{Seat, Settlement};
use crate::state::GameState;

/// TI-2: one per title whose holder (alive, even captive) belongs to the seat.
pub fn judge_titles(state: &GameState, seat: Seat) -> i64 {
    state
        .regions
        .iter()
        .filter(|r| {
            !r.lapsed
                && r.holder
                    .is_some_and(|h| state.generals[h as usize].as_ref().is_some_and(|g| g.owner == seat))
        })
        .count() as i64
}

pub fn holds_king(state: &GameState, seat: Seat) -> bool {
    state
        .king
        .is_some_and(|k| state.generals[k as usize].as_ref().is_some_and(|g| g.owner == seat))
}

/// ST-7: the Tabernacle scores while the Ark's carrier stands on its hex.
pub fn ark_on(state: &GameState, cards: &CardTable, h: Hex) -> bool {
    state.generals_at(h).any(|g| carries(cards, state.general(g), ARK))
}

/// ST-7: the point a standing settlement's Tabernacle gives its owner now (0 or 1).
fn tabernacle_point(state: &GameState, cards: &CardTable, st: &Settlement) -> i64 {
    (st.tabernacle && ark_on(state, cards, st.hex)) as i64
}

pub fn victory_points(state: &GameState, cards: &CardTable, seat: Seat) -> i64 {
    let mut points = title_points(state, seat);
    for st in &state.settlements {
        if st.standing && st.owner == Some(seat) {
            points += tabernacle_point(state, cards, st);
        }
    }
    points
}

/// The seat's points for its titles (TI-2, TI-7): all but its Tabernacles' (ST-7).
fn title_points(state: &GameState, seat: Seat) -> i64 {
    judge_titles(state, seat) + holds_king(state, seat) as i64
}

/// One row of `ROUND_COLUMNS` for the seat at the end of the current round.
pub fn seat_row(g: &Game, seat: Seat) -> SeatRow {
    let state = &g.state;
    let (mut settlements, mut cities, mut walls, mut developments, mut garrison) = (0, 0, 0, 0, 0);
    let mut tabernacle = false;
    // the points as `victory_points` counts them, its Tabernacles' read in this same pass
    let mut vp = title_points(state, seat);
    for st in &state.settlements {
        if st.owner == Some(seat) && st.standing {
            settlements += 1;
            cities += st.city as i64;
            walls += st.wall as i64;
            developments += st.developments;
            garrison += st.garrison;
            tabernacle = tabernacle || st.tabernacle;
            vp += tabernacle_point(state, &g.cards, st);
        }
    }
    let (mut commanded, mut generals, mut captives) = (0, 0, 0);
    for id in state.general_ids() {
        let general = state.general(id);
        if general.owner == seat {
            generals += 1;
            if general.captor.is_none() {
                commanded += general.troops;
            }
        } else if general.captor == Some(seat) {
            captives += 1;
        }
    }
    let player = &state.players[seat as usize];
    SeatRow {
        round: state.round,
        seat,
        vp,
        coins: player.coins,
        income: player.income,
        settlements,
        cities,
        walls,
        developments,
        garrison_troops: garrison,
        commanded_troops: commanded,
        generals,
        captives_held: captives,
        judge_titles: judge_titles(state, seat),
        king: holds_king(state, seat),
        tabernacle,
        hand_size: player.hand.len() as i64,
        wrath: state.wrath,
        invader_pairs: state.pairs.len() as i64,
    }
}

/// Record every seat's row of the round just played (`ROUND_COLUMNS`).
pub fn record_round(g: &mut Game) {
    for seat in 0..g.state.n_players() as Seat {
        let row = seat_row(g, seat);
        g.round_rows.push(row);
    }
}
