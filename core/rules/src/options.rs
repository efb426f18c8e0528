//! The options the engine offers at a decision and the decisions themselves, as data. The
//! Python side turns them into `plsim.engine.options` values only when a strategy reads them.

use crate::board::{Hex, Sid, Terrain};
use crate::cards::{Card, Gid, Invader, Kind};
use crate::parts::Seat;
use crate::phase::{DecisionKind, Phase};

/// The fixed words of a `Choose` (MV-12, CB-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    Siege,
    Assault,
    Conquer,
    Raze,
    Hold,
}

impl Word {
    pub fn value(self) -> &'static str {
        match self {
            Word::Siege => "siege",
            Word::Assault => "assault",
            Word::Conquer => "conquer",
            Word::Raze => "raze",
            Word::Hold => "hold",
        }
    }

    pub fn parse(text: &str) -> Option<Word> {
        [Word::Siege, Word::Assault, Word::Conquer, Word::Raze, Word::Hold]
            .into_iter()
            .find(|w| w.value() == text)
    }
}

/// What a Choose picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Settlement(Sid),
    General(Gid),
    Card(Card),
    Terrain(Terrain),
    Word(Word),
}

/// A PlayCard's target: a general, a loose invader (W-6) or a region (or none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Nothing,
    General(Gid),
    Invader(Invader),
    Region(u8),
}

/// AQ-1: what a Buy buys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Purchase {
    Troop,
    Wall,
    Development,
    JudgeTitle,
    Tabernacle,
    GuiltSacrifice,
}

pub const PURCHASES: [Purchase; 6] = [
    Purchase::Troop,
    Purchase::Wall,
    Purchase::Development,
    Purchase::JudgeTitle,
    Purchase::Tabernacle,
    Purchase::GuiltSacrifice,
];

impl Purchase {
    pub fn value(self) -> &'static str {
        match self {
            Purchase::Troop => "troop",
            Purchase::Wall => "wall",
            Purchase::Development => "development",
            Purchase::JudgeTitle => "judge_title",
            Purchase::Tabernacle => "tabernacle",
            Purchase::GuiltSacrifice => "guilt_sacrifice",
        }
    }

    pub fn parse(text: &str) -> Option<Purchase> {
        PURCHASES.iter().copied().find(|p| p.value() == text)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opt {
    Pass,
    Choose(Choice),
    PlayCard {
        card: Card,
        target: Target,
        blame: Option<Gid>,
    },
    Buy {
        what: Purchase,
        settlement: Sid,
        general: Option<Gid>,
    },
    Move {
        general: Gid,
        dest: Hex,
        passage: bool,
    },
    TakeTroops {
        general: Gid,
        count: i64,
    },
    GiveTroops {
        general: Gid,
        count: i64,
    },
    MoveCaptive {
        general: Gid,
        dest: Hex,
    },
    EndSiege(Hex),
    StartSiege(Hex),
    StartAssault(Hex),
}

pub const SIEGE: Opt = Opt::Choose(Choice::Word(Word::Siege));
pub const ASSAULT: Opt = Opt::Choose(Choice::Word(Word::Assault));
pub const CONQUER: Opt = Opt::Choose(Choice::Word(Word::Conquer));
pub const RAZE: Opt = Opt::Choose(Choice::Word(Word::Raze));
pub const HOLD: Opt = Opt::Choose(Choice::Word(Word::Hold));

/// What a decision is about (Python's `Decision.context`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum About {
    Nothing,
    Card(Card),
    Phase(Phase),
    HexGeneral(Hex, Gid),
    Hex(Hex),
    Settlement(Sid),
    Region(u8),
    Event(Kind),
}

#[derive(Clone, Debug)]
pub struct Decision {
    pub kind: DecisionKind,
    pub seat: Seat,
    pub options: Vec<Opt>,
    pub about: About,
}

thread_local! {
    /// the buffer of the last options list done with, reused by the next (a play-out builds
    /// one per decision)
    static SPARE: std::cell::Cell<Vec<Opt>> = const { std::cell::Cell::new(Vec::new()) };
}

/// An empty options list with room for `capacity`.
pub fn fresh(capacity: usize) -> Vec<Opt> {
    let mut options = SPARE.take();
    if options.capacity() < capacity {
        return Vec::with_capacity(capacity);
    }
    options.clear();
    options
}

/// An options list done with, its buffer kept for `fresh` unless the kept one is larger.
pub fn recycle(options: Vec<Opt>) {
    SPARE.with(|spare| {
        let kept = spare.take();
        spare.set(if kept.capacity() >= options.capacity() {
            kept
        } else {
            options
        });
    });
}
