//! The game state as plain data: what a saved position holds, and the write counters the
//! Python views key their caches on (the ledger).
//!
//! The orders Python's dicts kept are kept here too, since they decide the order of options,
//! events and saved positions: the generals in the order they came onto the map, the occupied
//! hexes in the order they were first occupied, sieges, assaults and taxes in the order they
//! began. A hex's generals are a bitmask whose bits run in name order (`cards::Gid`).

use smallvec::SmallVec;

use crate::board::{Hex, Sid};
use crate::cards::{Card, Gid, Invader, N_GENERALS};
use crate::parts::{General, InvaderPair, Player, Region, Seat, Settlement, Siege};
use crate::phase::Phase;
use crate::steps::{Battle, Pending};

/// The write counters and stamps of one state (Python's `Ledger`), read by the views' caches.
#[derive(Clone, Debug, Default)]
pub struct Ledger {
    pub settlement_writes: u64,
    pub general_writes: u64,
    pub region_writes: u64,
    pub player_writes: u64,
    pub site_writes: u64,
    pub stamp: u64,
    /// hex -> the stamp of the last write to a settlement or general on it
    pub hex_writes: Vec<u64>,
    /// settlement -> the stamp of the last write to who holds it and what stands there
    pub settlement_stamps: Vec<u64>,
}

#[derive(Clone, Debug)]
pub struct GameState {
    pub players: Vec<Player>,
    pub settlements: Vec<Settlement>,
    pub regions: Vec<Region>,
    pub deck: Vec<Card>,
    pub generals: [Option<General>; N_GENERALS],
    /// the generals on the map, in the order they came onto it
    pub order: SmallVec<[Gid; N_GENERALS]>,
    pub discard: Vec<Card>,
    pub event_area: SmallVec<[Card; 4]>,
    pub round: i64,
    pub phase: Phase,
    pub first_player: Seat,
    pub wrath: i64,
    pub pairs: Vec<InvaderPair>,
    pub invader_pool: SmallVec<[Invader; 8]>,
    pub sieges: Vec<(Hex, Siege)>,
    pub assaults: Vec<(Hex, Seat)>,
    pub king: Option<Gid>,
    pub succession_pending: Option<Seat>,
    pub succession_since: Option<i64>,
    pub prophets: SmallVec<[Card; 2]>,
    pub taxed: Vec<(u8, Seat)>,
    pub terrain_mods: [i64; 4],
    pub storm: bool,
    pub pairs_released: i64,
    pub settlements_razed: i64,
    pub first_judge_round: Option<i64>,
    pub first_king_round: Option<i64>,
    pub decisions: i64,
    pub pending: Vec<Pending>,
    pub battle: Option<Battle>,
    /// the occupied hexes in the order they were first occupied, each with its generals
    pub hex_generals: Vec<(Hex, u32)>,
    pub ledger: Ledger,
}

impl GameState {
    pub fn n_players(&self) -> usize {
        self.players.len()
    }

    /// RD-3: seat order starting from this round's first player.
    pub fn turn_order(&self) -> Vec<Seat> {
        let n = self.players.len() as Seat;
        (0..n).map(|i| (self.first_player + i) % n).collect()
    }

    #[inline]
    pub fn general(&self, g: Gid) -> &General {
        self.generals[g as usize].as_ref().expect("a general on the map")
    }

    #[inline]
    pub fn general_mut(&mut self, g: Gid) -> &mut General {
        self.note_general_write(g);
        self.generals[g as usize].as_mut().expect("a general on the map")
    }

    pub fn has_general(&self, g: Gid) -> bool {
        self.generals[g as usize].is_some()
    }

    /// The generals on the map in the order they came onto it (Python's dict order).
    pub fn general_ids(&self) -> impl Iterator<Item = Gid> + '_ {
        self.order.iter().copied()
    }

    /// The generals standing on `h`, as a name-ordered bitmask.
    #[inline]
    pub fn mask_at(&self, h: Hex) -> u32 {
        self.hex_generals.iter().find(|(x, _)| *x == h).map_or(0, |(_, m)| *m)
    }

    /// The generals standing on `h`, in name order.
    pub fn generals_at(&self, h: Hex) -> MaskIter {
        MaskIter(self.mask_at(h))
    }

    /// Count a write to a general (and the hex it stands on), as Python's ledger does.
    #[inline]
    pub fn note_general_write(&mut self, g: Gid) {
        let ledger = &mut self.ledger;
        ledger.general_writes += 1;
        ledger.stamp += 1;
        if let Some(general) = &self.generals[g as usize] {
            ledger.hex_writes[general.hex as usize] = ledger.stamp;
        }
    }

    #[inline]
    pub fn settlement_mut(&mut self, sid: Sid, site: bool) -> &mut Settlement {
        let ledger = &mut self.ledger;
        ledger.settlement_writes += 1;
        ledger.stamp += 1;
        let st = &mut self.settlements[sid as usize];
        ledger.hex_writes[st.hex as usize] = ledger.stamp;
        if site {
            ledger.site_writes += 1;
            ledger.settlement_stamps[sid as usize] = ledger.stamp;
        }
        st
    }

    #[inline]
    pub fn region_mut(&mut self, r: usize) -> &mut Region {
        self.ledger.region_writes += 1;
        &mut self.regions[r]
    }

    #[inline]
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        self.ledger.player_writes += 1;
        &mut self.players[seat as usize]
    }

    /// The region with the board's index `index`, by its place in the state's list.
    pub fn region_slot(&self, index: u8) -> Option<usize> {
        self.regions.iter().position(|r| r.index == index)
    }

    /// Put a general onto `h` (it may stand elsewhere already, or be new) and index it.
    pub fn place(&mut self, g: Gid, h: Hex) {
        self.unindex(g);
        {
            let stamp = {
                let ledger = &mut self.ledger;
                ledger.general_writes += 1;
                ledger.stamp += 1;
                ledger.stamp
            };
            let general = self.generals[g as usize].as_mut().expect("a general to place");
            self.ledger.hex_writes[general.hex as usize] = stamp;
            general.hex = h;
            self.ledger.hex_writes[h as usize] = stamp;
        }
        match self.hex_generals.iter_mut().find(|(x, _)| *x == h) {
            Some((_, mask)) => *mask |= 1 << g,
            None => self.hex_generals.push((h, 1 << g)),
        }
    }

    fn unindex(&mut self, g: Gid) {
        let Some(general) = &self.generals[g as usize] else {
            return;
        };
        let h = general.hex;
        if let Some(i) = self.hex_generals.iter().position(|(x, m)| *x == h && m >> g & 1 == 1) {
            self.hex_generals[i].1 &= !(1 << g);
            if self.hex_generals[i].1 == 0 {
                self.hex_generals.remove(i);
            }
        }
    }

    /// A new general onto the map at `h` (Python: `generals[name] = g; place(g, g.hex)`).
    pub fn add_general(&mut self, g: Gid, general: General) {
        let h = general.hex;
        self.generals[g as usize] = Some(general);
        self.order.retain(|x| *x != g);
        self.order.push(g);
        self.place(g, h);
    }

    /// Take a general off the board (death); its card is the caller's.
    pub fn remove_general(&mut self, g: Gid) -> General {
        self.note_general_write(g);
        self.unindex(g);
        self.order.retain(|x| *x != g);
        self.generals[g as usize].take().expect("a general to remove")
    }

    /// Rebuild the hex index from the generals (a loaded position), its hexes in `hex_order` first.
    pub fn reindex(&mut self, hex_order: &[Hex]) {
        self.ledger.general_writes += 1;
        self.ledger.stamp += 1;
        let stamp = self.ledger.stamp;
        for (h, _) in &self.hex_generals {
            self.ledger.hex_writes[*h as usize] = stamp;
        }
        let mut index: Vec<(Hex, u32)> = Vec::new();
        let occupied = |h: Hex| self.order.iter().any(|g| self.general(*g).hex == h);
        for h in hex_order {
            if occupied(*h) && !index.iter().any(|(x, _)| x == h) {
                index.push((*h, 0));
            }
        }
        for g in self.order.clone() {
            let h = self.general(g).hex;
            self.ledger.hex_writes[h as usize] = stamp;
            match index.iter_mut().find(|(x, _)| *x == h) {
                Some((_, mask)) => *mask |= 1 << g,
                None => index.push((h, 1 << g)),
            }
        }
        self.hex_generals = index;
    }

    pub fn siege_at(&self, h: Hex) -> Option<Siege> {
        self.sieges.iter().find(|(x, _)| *x == h).map(|(_, s)| *s)
    }

    pub fn remove_siege(&mut self, h: Hex) -> Option<Siege> {
        let i = self.sieges.iter().position(|(x, _)| *x == h)?;
        Some(self.sieges.remove(i).1)
    }

    pub fn assault_at(&self, h: Hex) -> Option<Seat> {
        self.assaults.iter().find(|(x, _)| *x == h).map(|(_, s)| *s)
    }

    /// Python's `assaults[h] = seat`: a new hex goes last, a known one keeps its place.
    pub fn set_assault(&mut self, h: Hex, seat: Seat) {
        match self.assaults.iter_mut().find(|(x, _)| *x == h) {
            Some((_, s)) => *s = seat,
            None => self.assaults.push((h, seat)),
        }
    }

    pub fn set_siege(&mut self, h: Hex, siege: Siege) {
        match self.sieges.iter_mut().find(|(x, _)| *x == h) {
            Some((_, s)) => *s = siege,
            None => self.sieges.push((h, siege)),
        }
    }

    /// The place in `pairs` of the loose pair `id`.
    pub fn pair_slot(&self, id: i64) -> Option<usize> {
        self.pairs.iter().position(|p| p.id == id)
    }

    pub fn taxer_of(&self, region: u8) -> Option<Seat> {
        self.taxed.iter().find(|(r, _)| *r == region).map(|(_, s)| *s)
    }
}

/// The generals of a mask, in name order.
#[derive(Clone, Copy)]
pub struct MaskIter(pub u32);

impl Iterator for MaskIter {
    type Item = Gid;

    #[inline]
    fn next(&mut self) -> Option<Gid> {
        if self.0 == 0 {
            return None;
        }
        let g = self.0.trailing_zeros() as Gid;
        self.0 &= self.0 - 1;
        Some(g)
    }
}
