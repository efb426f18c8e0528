//! Where a general can go: cheapest-route reachability under every seal and limit of
//! MV-1..MV-13. Pure functions of the state and the board, shared with the strategies' views.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::arithmetic::{carries_prophet, general_moves};
use crate::board::{Board, Hex};
use crate::cards::{CardTable, Gid};
use crate::rules::Rules;
use smallvec::SmallVec;

use crate::parts::Seat;
use crate::state::GameState;

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
/// built once per decision and shared by all of that side's generals: a byte of flags per hex.
pub struct Occupancy {
    pub side: Seat,
    flags: Vec<u8>,
    /// some hex is besieged by another player (MV-3): only then, or in a storm, can a passage
    /// reach farther than a plain move
    closed: bool,
}

/// a route may end here but not cross (MV-2)
const BLOCK: u8 = 1;
/// entering is an attack (CB-1)
const HOSTILE: u8 = 2;
/// already attacked by another player (MV-6)
const CONTESTED: u8 = 4;
/// besieged by another player (MV-3)
const CLOSED: u8 = 8;
/// a settlement holding the side's maximum of generals (MV-5)
const FULL: u8 = 16;
/// a settlement holding the maximum of captives (MV-8)
const CAPTIVES_FULL: u8 = 32;
/// other sides' free generals stand here (MV-8)
const ARMY: u8 = 64;
/// a standing settlement
const SETTLEMENT: u8 = 128;

impl Occupancy {
    #[inline]
    pub fn hostile(&self, h: Hex) -> bool {
        self.flags[h as usize] & HOSTILE != 0
    }

    /// Whether a passage (MV-9) reaches exactly what a plain move reaches: it differs only by
    /// crossing what a siege or the storm closes (MV-3, MV-4), and neither is in play.
    pub fn passage_opens_nothing(&self, state: &GameState) -> bool {
        !self.closed && !state.storm
    }
}

thread_local! {
    /// the flags of the last occupancy dropped, reused by the next (one per decision)
    static SPARE_FLAGS: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Drop for Occupancy {
    fn drop(&mut self) {
        SPARE_FLAGS.set(std::mem::take(&mut self.flags));
    }
}

pub fn occupancy(state: &GameState, board: &Board, rules: &Rules, side: Seat) -> Occupancy {
    occupancy_over(state, board, rules, side, None)
}

/// `occupancy`, its settlements' flags copied from `kept` when they fit the state and side.
pub fn occupancy_over(
    state: &GameState,
    board: &Board,
    rules: &Rules,
    side: Seat,
    kept: Option<&SettlementFlags>,
) -> Occupancy {
    let mut flags = SPARE_FLAGS.take();
    flags.clear();
    match kept.filter(|kept| kept.fits(state, side)) {
        Some(kept) => flags.extend_from_slice(&kept.flags),
        None => {
            flags.resize(board.hexes(), 0);
            mark_settlements(&mut flags, state, rules, side);
        }
    }
    for &(h, mask) in &state.hex_generals {
        let (mut mine, mut captives) = (0, 0);
        let f = &mut flags[h as usize];
        for g in crate::state::MaskIter(mask) {
            let general = state.general(g);
            if general.captor.is_some() {
                captives += 1;
            } else if general.owner == side {
                mine += 1;
            } else {
                *f |= BLOCK | ARMY;
                if *f & SETTLEMENT == 0 {
                    *f |= HOSTILE;
                }
            }
        }
        if *f & SETTLEMENT != 0 {
            if mine >= rules.generals_per_settlement {
                *f |= FULL;
            }
            if captives >= rules.captives_per_settlement {
                *f |= CAPTIVES_FULL;
            }
        }
    }
    let mut closed = false;
    for (h, siege) in &state.sieges {
        if siege.besieger != side {
            flags[*h as usize] |= CLOSED | CONTESTED;
            closed = true;
        }
    }
    for (h, attacker) in &state.assaults {
        if *attacker != side {
            flags[*h as usize] |= CONTESTED;
        }
    }
    Occupancy { side, flags, closed }
}

/// The flags the standing settlements give one side's occupancy, kept while the ledger counts no
/// site write (a settlement taken, freed, razed, walled): a side's turn reads them at every
/// decision, and they rarely change within it.
#[derive(Clone)]
pub struct SettlementFlags {
    side: Seat,
    site_writes: u64,
    flags: Vec<u8>,
}

impl SettlementFlags {
    pub fn of(state: &GameState, board: &Board, rules: &Rules, side: Seat) -> SettlementFlags {
        let mut flags = vec![0; board.hexes()];
        mark_settlements(&mut flags, state, rules, side);
        SettlementFlags {
            side,
            site_writes: state.ledger.site_writes,
            flags,
        }
    }

    /// Whether these are the side's flags and no site changed since they were read.
    pub fn fits(&self, state: &GameState, side: Seat) -> bool {
        self.side == side && self.site_writes == state.ledger.site_writes
    }
}

/// Mark each standing settlement's hex: a settlement, a block if free and free ones block, a
/// block and hostile if another side's (MV-2, CB-1).
fn mark_settlements(flags: &mut [u8], state: &GameState, rules: &Rules, side: Seat) {
    for st in &state.settlements {
        if st.standing {
            let f = &mut flags[st.hex as usize];
            *f |= SETTLEMENT;
            match st.owner {
                None if rules.free_settlements_block => *f |= BLOCK,
                Some(owner) if owner != side => *f |= BLOCK | HOSTILE,
                _ => {}
            }
        }
    }
}

/// A hex's 3 bits for a general's move, from the hex's occupancy flags: 1 a route may not cross
/// it, 2 may not enter it, 4 may not end there; but for the storm's seal, which hangs on the hex
/// (MV-4). `skip_hostile`: a captive or a Prophet's carrier (MV-6..MV-8).
const fn hex_code(f: u8, skip_hostile: bool, passage: bool, captive: bool) -> u8 {
    let hostile = f & HOSTILE != 0;
    let skip = (hostile && (skip_hostile || f & CONTESTED != 0)) || (!passage && f & CLOSED != 0);
    let unfit = if captive {
        f & (CAPTIVES_FULL | ARMY) != 0
    } else {
        f & FULL != 0
    };
    (f & BLOCK != 0) as u8 | (skip as u8) << 1 | (unfit as u8) << 2
}

/// `hex_code` of every flag byte, per (skip_hostile, passage, captive) as the bits 1, 2, 4 of the
/// index: a lookup per hex where the reachability key reads a ball.
const CODES: [[u8; 256]; 8] = {
    let mut codes = [[0u8; 256]; 8];
    let mut kind = 0;
    while kind < 8 {
        let mut f = 0;
        while f < 256 {
            codes[kind][f] = hex_code(f as u8, kind & 1 != 0, kind & 2 != 0, kind & 4 != 0);
            f += 1;
        }
        kind += 1;
    }
    codes
};

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
    let codes = &CODES[skip_hostile as usize | (passage as usize) << 1 | (captive as usize) << 2];
    let storm_seals = state.storm && !passage; // MV-4, MV-9

    // a copy of each thing it reads, so that the loops below keep them in registers
    let (flags, sealed) = (&occ.flags[..], &board.storm_sealed[..]);
    let code = move |h: Hex| -> u64 {
        let c = codes[flags[h as usize] as usize] as u64;
        if storm_seals && sealed[h as usize] {
            c | 2
        } else {
            c
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
        key.bits.push(
            chunk
                .iter()
                .enumerate()
                .fold(0u64, |word, (i, h)| word | code(*h) << (3 * i)),
        );
    }
    MEMO.with(|memo| {
        if let Some(found) = memo.borrow().get(&key) {
            return found.clone();
        }
        let found: Reach = std::rc::Rc::from(search(board, start, budget, code));
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
    static MEMO: std::cell::RefCell<rustc_hash::FxHashMap<ReachKey, Reach>> = Default::default();
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
fn search(board: &Board, start: Hex, budget: i64, code: impl Fn(Hex) -> u64) -> Vec<(Hex, i64)> {
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
            if cost > s.cost[h as usize] || (h != start && code(h) & 1 != 0) {
                continue;
            }
            for &next in &board.neighbours[h as usize] {
                let new_cost = cost + board.enter_cost[next as usize];
                let known = s.stamp[next as usize] == generation;
                let best = if known { s.cost[next as usize] } else { budget + 1 };
                if new_cost > budget || new_cost >= best || code(next) & 2 != 0 {
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
            .filter(|h| code(**h) & 4 == 0)
            .map(|h| (*h, s.cost[*h as usize]))
            .collect()
    })
}
