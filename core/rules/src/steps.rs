//! The game's pending work as data (Python's `plsim.engine.steps`): what a rule leaves to do
//! (`Step`), and what an answer to a decision does (`Then`). Each variant is one registered
//! Python step function with its arguments, so a position saved by either engine names the
//! same steps.

use smallvec::SmallVec;

use crate::board::{Hex, Sid};
use crate::cards::{Card, Gid, Invader};
use crate::options::{About, Decision};
use crate::parts::{Seat, Siege};
use crate::phase::{CardAction, DecisionKind, Phase};

/// A pair's invaders, by name (a pair about to be let loose; a loose one is named by its id).
pub type Names = SmallVec<[Invader; 2]>;

/// What the end-of-phase clean-up read when it last ran: settlement and general writes, sieges.
pub type CleanStamp = (u64, u64, Vec<(Hex, Siege)>);

#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    ReceiveCards {
        seat: Seat,
        cards: Vec<Card>,
        action: CardAction,
    },
    DrawCards {
        seat: Seat,
        count: i64,
    },
    KeepHandLimit {
        seat: Seat,
    },
    EndOfPhase,
    EndOfPhaseAfterOccupation {
        before: CleanStamp,
    },
    OccupyFreeSettlements {
        start: usize,
    },
    Deal,
    ChooseHomes {
        seats: Vec<Seat>,
    },
    DealGenerals {
        seats: Vec<Seat>,
    },
    DealCards {
        seats: Vec<Seat>,
    },
    PhaseClosed {
        phase: Phase,
    },
    SetupDone,
    PurchaseTurn {
        seat: Seat,
        count: i64,
    },
    MovementTurn {
        seat: Seat,
        count: i64,
    },
    CardTurn {
        seat: Seat,
        phase: Phase,
        count: i64,
    },
    CardWindow {
        phase: Phase,
    },
    JudgeVictory,
    BattleWindow {
        attacking: bool,
    },
    SidesThinned,
    Ambush {
        seat: Seat,
        victims_attack: bool,
        names: Vec<Gid>,
    },
    JudgeBattle,
    Defeat {
        names: Vec<Gid>,
        winner: Seat,
    },
    LossesTaken {
        losses: i64,
    },
    BesiegersChoose {
        hexes: Option<Vec<Hex>>,
    },
    AssaultsFought {
        assaults: Option<Vec<(Hex, Seat)>>,
    },
    AssaultsOver,
    AssaultWonOrLost {
        hex: Hex,
        seat: Seat,
        sid: i64,
    },
    /// the ids of the pairs still to attack (`InvaderPair::id`)
    InvadersAttack {
        pairs: Option<Vec<i64>>,
    },
    InvasionOver {
        pair: i64,
        target: Sid,
    },
    AssassinBlamed {
        seat: Seat,
        blame: Option<Gid>,
    },
    ResolveEvents,
    FillVacancies {
        start: usize,
    },
    CrownAnointed,
    ChooseSuccessor,
    Election,
    AnnounceTitles,
}

/// The function an action of a turn applies (`steps.acted`'s `apply`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Apply {
    Purchase,
    Movement,
    PlayCard,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Then {
    PlaceGeneral {
        seat: Seat,
        card: Card,
    },
    AttachItem {
        seat: Seat,
        card: Card,
    },
    DiscardFromHand {
        seat: Seat,
    },
    PairAimed {
        names: Names,
        wrath_after: i64,
    },
    TitleAssigned {
        region: u8,
    },
    HomeChosen {
        seat: Seat,
        others: Vec<Seat>,
    },
    Acted {
        turn: Step,
        apply: Apply,
        seat: Seat,
    },
    SiegeOrAssault {
        seat: Seat,
        hex: Hex,
    },
    BattleCard {
        attacking: bool,
    },
    SiegeChoice {
        hex: Hex,
        rest: Vec<Hex>,
    },
    ConquerOrRaze {
        seat: Seat,
        sid: Sid,
    },
    TerrainChosen {
        event: Card,
    },
    Appointed {
        region: u8,
        next_region: usize,
    },
    SuccessorChosen,
    Voted {
        candidates: Vec<Gid>,
        order: Vec<Seat>,
        i: usize,
        left: i64,
        tally: Vec<i64>,
    },
}

#[derive(Clone, Debug)]
pub struct Ask {
    pub decision: Decision,
    pub then: Then,
    /// the step that poses it anew where its options read the seat's hand (determinise)
    pub again: Option<Step>,
}

impl Ask {
    /// What an answered ask's box holds while it waits to be reused: owns no memory.
    pub fn spent() -> Ask {
        Ask {
            decision: Decision {
                kind: DecisionKind::Home,
                seat: 0,
                options: Vec::new(),
                about: About::Nothing,
            },
            then: Then::SuccessorChosen,
            again: None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Pending {
    Step(Step),
    Ask(Box<Ask>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    pub seat: Seat,
    pub generals: Vec<Gid>,
    /// the attacking pair's id (`InvaderPair::id`), in an invasion
    pub pair: Option<i64>,
    pub idle_troops: i64,
    pub mercenaries: i64,
    pub siege_weapons: bool,
    pub roll: i64,
    pub total: i64,
}

impl Side {
    pub fn new(seat: Seat, generals: Vec<Gid>, pair: Option<i64>) -> Side {
        Side {
            seat,
            generals,
            pair,
            idle_troops: 0,
            mercenaries: 0,
            siege_weapons: false,
            roll: 0,
            total: 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Battle {
    pub hex: Hex,
    pub attacker: Side,
    pub defender: Side,
    pub defending_settlement: bool,
    pub won: bool,
}
