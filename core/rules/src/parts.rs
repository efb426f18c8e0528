//! The parts of a game state, each plain data: a seat and the two sides that are nobody's seat,
//! titles, generals, settlements, regions, players, sieges and loose invader pairs. The state
//! (`state::GameState`), its pending steps (`steps`) and the options (`options`) are built of them.

use smallvec::SmallVec;

use crate::board::{Hex, Sid};
use crate::cards::{Card, Gid, Invader};

pub type Seat = i32;
pub const CANAANITES: Seat = -1;
pub const INVADER_SIDE: Seat = -2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Title {
    Judge(u8),
    King,
    Assassin,
}

#[derive(Clone, Debug)]
pub struct General {
    pub owner: Seat,
    pub hex: Hex,
    pub troops: i64,
    pub items: SmallVec<[Card; 4]>,
    pub title: Option<Title>,
    pub captor: Option<Seat>,
    pub moved: bool,
    pub took: bool,
    pub passage: bool,
}

#[derive(Clone, Debug)]
pub struct Settlement {
    pub hex: Hex,
    pub exists: bool,
    pub owner: Option<Seat>,
    pub garrison: i64,
    pub wall: bool,
    pub city: bool,
    pub developments: i64,
    pub razed: bool,
    pub tabernacle: bool,
    pub standing: bool,
}

#[derive(Clone, Debug)]
pub struct Region {
    /// the board's index of the region
    pub index: u8,
    pub city: Option<Sid>,
    pub holder: Option<Gid>,
    pub lapsed: bool,
    pub vacant_since: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct Player {
    pub coins: i64,
    pub hand: SmallVec<[Card; 8]>,
    pub home: Option<Sid>,
    pub income: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Siege {
    pub besieger: Seat,
    pub started: i64,
}

/// A loose pair (W-2..W-6): `id` is its place in the order of releases, so a reference to it
/// holds even after its invaders died one by one and went back to the pool (W-6).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvaderPair {
    pub id: i64,
    /// the invaders still alive, in name order
    pub names: SmallVec<[Invader; 2]>,
    pub troops: SmallVec<[i64; 2]>,
    pub at: Option<Sid>,
    pub target: Option<Sid>,
}
