//! Who the rules let receive what: the lists a step offers as options and the position check
//! works out anew (`reposed`), each rule's one home. A general received goes to a settlement with
//! room (DR-2), an item to a free general (DR-2), a title to a free untitled general (TI-16), a
//! released pair toward a held settlement (W-3).

use crate::board::Sid;
use crate::cards::Gid;
use crate::game::Game;
use crate::movement::siege_sealed_for;
use crate::parts::{General, Seat};
use crate::state::GameState;

/// DR-2, CP-3: a general put on the map without a move goes only to a standing settlement of its
/// owner's that no siege seals (MV-3: no reinforcement enters) and that holds fewer of that
/// player's free generals than the cap (MV-5).
pub fn has_room_for_reinforcement(g: &Game, seat: Seat, sid: Sid) -> bool {
    let s = &g.state;
    let st = &s.settlements[sid as usize];
    if st.owner != Some(seat) || !st.standing || siege_sealed_for(s, st.hex, seat) {
        return false;
    }
    let mine = s.generals_at(st.hex).filter(|x| {
        let general = s.general(*x);
        general.owner == seat && general.captor.is_none()
    });
    (mine.count() as i64) < g.rules.generals_per_settlement
}

/// DR-2: where the seat may put a general it receives (`has_room_for_reinforcement`).
pub fn reinforcement_rooms(g: &Game, seat: Seat) -> Vec<Sid> {
    (0..g.state.settlements.len() as Sid)
        .filter(|sid| has_room_for_reinforcement(g, seat, *sid))
        .collect()
}

/// DR-2: who may carry an item the seat receives: its free generals, by id.
pub fn item_carriers(state: &GameState, seat: Seat) -> Vec<Gid> {
    let mut carriers: Vec<Gid> = state
        .general_ids()
        .filter(|x| state.general(*x).owner == seat && state.general(*x).captor.is_none())
        .collect();
    carriers.sort_unstable();
    carriers
}

/// W-3: the settlements a released pair may be aimed at: standing and held by a player.
pub fn invader_targets(state: &GameState) -> Vec<Sid> {
    state
        .settlements
        .iter()
        .enumerate()
        .filter(|(_, st)| st.standing && st.owner.is_some_and(|o| o >= 0))
        .map(|(i, _)| i as Sid)
        .collect()
}

pub fn can_hold_title(general: &General) -> bool {
    general.captor.is_none() && general.title.is_none()
}

/// TI-16 [A]: the generals that may take a title (free and untitled), the seat's own or, with
/// no seat, anyone's (a reigning King appoints any, TI-6); in the order they came onto the map.
pub fn titleable(state: &GameState, seat: Option<Seat>) -> impl Iterator<Item = Gid> + '_ {
    state.general_ids().filter(move |x| {
        let general = state.general(*x);
        seat.is_none_or(|s| general.owner == s) && can_hold_title(general)
    })
}

/// `titleable` by id: whom the owner of a taken capital names to its title, and whom the crown
/// may pass to (TI-13).
pub fn title_candidates(state: &GameState, seat: Seat) -> Vec<Gid> {
    let mut ids: Vec<Gid> = titleable(state, Some(seat)).collect();
    ids.sort_unstable();
    ids
}
