//! Where a general can go: cheapest-route reachability under every seal and limit of
//! MV-1..MV-13. Pure functions of the state and the board, shared with the strategies' views.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::arithmetic::{carries_prophet, general_moves};
use crate::board::{Board, Hex, HexSet};
use crate::cards::{CardTable, Gid};
use crate::rules::Rules;
use smallvec::SmallVec;

use crate::state::{GameState, Seat};

/// (is there a standing settlement here, its owner).
pub fn settlement_owner(state: &GameState, board: &Board, h: Hex) -> (bool, Option<Seat>) {
    match board.sid_at(h) {
        Some(sid) if state.settlements[sid as usize].standing => (true, state.settlements[sid as usize].owner),
        _ => (false, None),
    }
}

/// The free (not captive) generals on `h`, in name order.
pub fn free_generals(state: &GameState, h: Hex) -> impl Iterator<Item = Gid> + '_ {
    state.generals_at(h).filter(move |g| state.general(*g).captor.is_none())
}

/// Entering this hex would attack someone (CB-1): another side's settlement or field army.
pub fn is_hostile(state: &GameState, board: &Board, h: Hex, side: Seat) -> bool {
    let (has_settlement, owner) = settlement_owner(state, board, h);
    if has_settlement {
        return owner.is_some_and(|o| o != side);
    }
    state.generals_at(h).any(|g| {
        let general = state.general(g);
        general.captor.is_none() && general.owner != side
    })
}

/// MV-3: a hex besieged by another player is closed to everyone but the besieger.
pub fn siege_sealed_for(state: &GameState, h: Hex, side: Seat) -> bool {
    state.siege_at(h).is_some_and(|s| s.besieger != side)
}

/// Whether the general may start a move now (MV-1, MV-3, MV-4, MV-9).
pub fn can_move(state: &GameState, board: &Board, g: Gid, passage: bool) -> bool {
    let general = state.general(g);
    if general.moved {
        return false;
    }
    if passage {
        return true;
    }
    let side = general.captor.unwrap_or(general.owner);
    if siege_sealed_for(state, general.hex, side) {
        return false;
    }
    !(state.storm && board.storm_sealed[general.hex as usize])
}

/// What the hexes with pieces on them mean for one side's moves (MV-2, MV-3, MV-5, MV-6, MV-8),
/// built once per decision and shared by all of that side's generals.
pub struct Occupancy {
    pub side: Seat,
    /// a route may end here but not cross (MV-2)
    pub blocks: HexSet,
    /// entering is an attack (CB-1)
    pub hostile: HexSet,
    /// besieged by another player (MV-3)
    pub closed: HexSet,
    /// already attacked by another player (MV-6)
    pub contested: HexSet,
    /// settlements holding the side's maximum of generals
    pub full: HexSet,
    /// settlements holding the maximum of captives (MV-8)
    pub captives_full: HexSet,
    /// hexes holding other sides' free generals (MV-8)
    pub armies: HexSet,
}

pub fn occupancy(state: &GameState, board: &Board, rules: &Rules, side: Seat) -> Occupancy {
    let n = board.hexes();
    let mut occ = Occupancy {
        side,
        blocks: HexSet::new(n),
        hostile: HexSet::new(n),
        closed: HexSet::new(n),
        contested: HexSet::new(n),
        full: HexSet::new(n),
        captives_full: HexSet::new(n),
        armies: HexSet::new(n),
    };
    let mut settlement_hexes = HexSet::new(n);
    for st in &state.settlements {
        if st.standing {
            settlement_hexes.insert(st.hex);
            match st.owner {
                None if rules.free_settlements_block => occ.blocks.insert(st.hex),
                Some(owner) if owner != side => {
                    occ.blocks.insert(st.hex);
                    occ.hostile.insert(st.hex);
                }
                _ => {}
            }
        }
    }
    for &(h, mask) in &state.hex_generals {
        let (mut mine, mut captives) = (0, 0);
        for g in crate::state::MaskIter(mask) {
            let general = state.general(g);
            if general.captor.is_some() {
                captives += 1;
            } else if general.owner == side {
                mine += 1;
            } else {
                occ.blocks.insert(h);
                occ.armies.insert(h);
                if !settlement_hexes.contains(h) {
                    occ.hostile.insert(h);
                }
            }
        }
        if settlement_hexes.contains(h) {
            if mine >= rules.generals_per_settlement {
                occ.full.insert(h);
            }
            if captives >= rules.captives_per_settlement {
                occ.captives_full.insert(h);
            }
        }
    }
    for (h, siege) in &state.sieges {
        if siege.besieger != side {
            occ.closed.insert(*h);
            occ.contested.insert(*h);
        }
    }
    for (h, attacker) in &state.assaults {
        if *attacker != side {
            occ.contested.insert(*h);
        }
    }
    occ
}

/// Every hex the general can end its move on, with the cost of the cheapest route (MV-1), in
/// the order the hexes were first reached. A free general is moved by its owner; a captive by its
/// captor, with 2 moves, only through empty or captor-held hexes (MV-8).
pub fn reachable(
    state: &GameState,
    board: &Board,
    rules: &Rules,
    cards: &CardTable,
    g: Gid,
    passage: bool,
    occ: Option<&Occupancy>,
) -> Reach {
    if !can_move(state, board, g, passage) {
        return Reach::default();
    }
    let general = state.general(g);
    let captive = general.captor.is_some();
    let side = general.captor.unwrap_or(general.owner);
    let built;
    let occ = match occ {
        Some(o) if o.side == side => o,
        _ => {
            built = occupancy(state, board, rules, side);
            &built
        }
    };
    let budget = if captive { rules.captive_moves } else { general_moves(g) };
    let skip_hostile = captive || carries_prophet(cards, general); // MV-6..MV-8
    let skip = |h: Hex| -> bool {
        let hostile = occ.hostile.contains(h);
        if hostile && (skip_hostile || occ.contested.contains(h)) {
            return true;
        }
        !passage && (occ.closed.contains(h) || (state.storm && board.storm_sealed[h as usize]))
    };
    let unfit = |h: Hex| -> bool {
        if captive {
            occ.captives_full.contains(h) || occ.armies.contains(h)
        } else {
            occ.full.contains(h)
        }
    };
    // only what stands within the ball can matter: the answer is kept by what the ball holds
    let start = general.hex;
    let ball = board.ball(start, budget);
    let mut key = ReachKey {
        board: board.serial,
        start,
        budget,
        bits: SmallVec::new(),
    };
    for chunk in ball.chunks(21) {
        let mut word = 0u64;
        for (i, h) in chunk.iter().enumerate() {
            let bits = occ.blocks.contains(*h) as u64 | (skip(*h) as u64) << 1 | (unfit(*h) as u64) << 2;
            word |= bits << (3 * i);
        }
        key.bits.push(word);
    }
    MEMO.with(|memo| {
        if let Some(found) = memo.borrow().get(&key) {
            return found.clone();
        }
        let found: Reach = std::rc::Rc::from(search(board, start, budget, &occ.blocks, skip, unfit));
        let mut memo = memo.borrow_mut();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, found.clone());
        found
    })
}

/// A search's answer depends on its start and budget and on which hexes of its ball block it,
/// are skipped or are unfit to end on: nothing else (and on the map, named by its serial).
#[derive(Clone, PartialEq, Eq, Hash)]
struct ReachKey {
    board: u64,
    start: Hex,
    budget: i64,
    bits: SmallVec<[u64; 4]>,
}

const MEMO_LIMIT: usize = 200_000;

/// Where a general can end its move, with the cost of each route's cheapest, in the order the
/// hexes were first reached; shared, since the same answer serves every decision it fits.
pub type Reach = std::rc::Rc<[(Hex, i64)]>;

thread_local! {
    static MEMO: std::cell::RefCell<std::collections::HashMap<ReachKey, Reach>> = Default::default();
}

/// The search's reusable buffers: a cost and a generation stamp per hex (a hex's cost counts only
/// when its stamp is this search's), the order hexes were first reached in, and the heap.
struct Scratch {
    cost: Vec<i64>,
    stamp: Vec<u32>,
    generation: u32,
    order: Vec<Hex>,
    heap: BinaryHeap<Reverse<(i64, Hex)>>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = const {
        std::cell::RefCell::new(Scratch {
            cost: Vec::new(),
            stamp: Vec::new(),
            generation: 0,
            order: Vec::new(),
            heap: BinaryHeap::new(),
        })
    };
}

/// Dijkstra within the budget: a route may end on a block but not cross it, never enters a
/// skipped hex, and may not end on an unfit one. Hexes come in the order they were first reached
/// (Python's dict keeps a key's first place when its cost improves).
fn search(
    board: &Board,
    start: Hex,
    budget: i64,
    blocks: &HexSet,
    skip: impl Fn(Hex) -> bool,
    unfit: impl Fn(Hex) -> bool,
) -> Vec<(Hex, i64)> {
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let s = &mut *guard;
        let n = board.hexes();
        if s.cost.len() < n {
            s.cost.resize(n, 0);
            s.stamp.resize(n, 0);
        }
        s.generation = s.generation.wrapping_add(1);
        if s.generation == 0 {
            s.stamp.iter_mut().for_each(|x| *x = 0);
            s.generation = 1;
        }
        let generation = s.generation;
        s.order.clear();
        s.heap.clear();
        s.cost[start as usize] = 0;
        s.stamp[start as usize] = generation;
        s.heap.push(Reverse((0i64, start)));
        while let Some(Reverse((cost, h))) = s.heap.pop() {
            if cost > s.cost[h as usize] || (h != start && blocks.contains(h)) {
                continue;
            }
            for &next in &board.neighbours[h as usize] {
                let new_cost = cost + board.enter_cost[next as usize];
                let known = s.stamp[next as usize] == generation;
                let best = if known { s.cost[next as usize] } else { budget + 1 };
                if new_cost > budget || new_cost >= best || skip(next) {
                    continue;
                }
                if !known {
                    s.stamp[next as usize] = generation;
                    s.order.push(next);
                }
                s.cost[next as usize] = new_cost;
                s.heap.push(Reverse((new_cost, next)));
            }
        }
        s.order
            .iter()
            .filter(|h| !unfit(**h))
            .map(|h| (*h, s.cost[*h as usize]))
            .collect()
    })
}
