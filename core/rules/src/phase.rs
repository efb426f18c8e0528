//! The seven phases of a round (RD-1, RD-2) and the decision kinds.

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    Announcements = 0,
    Draw = 1,
    Income = 2,
    Acquisitions = 3,
    Movement = 4,
    Combat = 5,
    Victory = 6,
}

pub const PHASES: [Phase; 7] = [
    Phase::Announcements,
    Phase::Draw,
    Phase::Income,
    Phase::Acquisitions,
    Phase::Movement,
    Phase::Combat,
    Phase::Victory,
];

impl Phase {
    pub fn value(self) -> &'static str {
        match self {
            Phase::Announcements => "announcements",
            Phase::Draw => "draw",
            Phase::Income => "income",
            Phase::Acquisitions => "acquisitions",
            Phase::Movement => "movement",
            Phase::Combat => "combat",
            Phase::Victory => "victory",
        }
    }

    pub fn parse(text: &str) -> Option<Phase> {
        PHASES.iter().copied().find(|p| p.value() == text)
    }

    pub fn next(self) -> Phase {
        PHASES[(self as usize + 1) % PHASES.len()]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecisionKind {
    Home,
    PlaceGeneral,
    AttachItem,
    Discard,
    Cards,
    Purchase,
    Movement,
    SiegeOrAssault,
    SiegeAssault,
    BattleCards,
    ConquerOrRaze,
    AssignTitle,
    Appoint,
    Vote,
    Successor,
    ProphetTerrain,
    InvaderTarget,
}

pub const DECISION_KINDS: [DecisionKind; 17] = [
    DecisionKind::Home,
    DecisionKind::PlaceGeneral,
    DecisionKind::AttachItem,
    DecisionKind::Discard,
    DecisionKind::Cards,
    DecisionKind::Purchase,
    DecisionKind::Movement,
    DecisionKind::SiegeOrAssault,
    DecisionKind::SiegeAssault,
    DecisionKind::BattleCards,
    DecisionKind::ConquerOrRaze,
    DecisionKind::AssignTitle,
    DecisionKind::Appoint,
    DecisionKind::Vote,
    DecisionKind::Successor,
    DecisionKind::ProphetTerrain,
    DecisionKind::InvaderTarget,
];

impl DecisionKind {
    pub fn value(self) -> &'static str {
        match self {
            DecisionKind::Home => "home",
            DecisionKind::PlaceGeneral => "place_general",
            DecisionKind::AttachItem => "attach_item",
            DecisionKind::Discard => "discard",
            DecisionKind::Cards => "cards",
            DecisionKind::Purchase => "purchase",
            DecisionKind::Movement => "movement",
            DecisionKind::SiegeOrAssault => "siege_or_assault",
            DecisionKind::SiegeAssault => "siege_assault",
            DecisionKind::BattleCards => "battle_cards",
            DecisionKind::ConquerOrRaze => "conquer_or_raze",
            DecisionKind::AssignTitle => "assign_title",
            DecisionKind::Appoint => "appoint",
            DecisionKind::Vote => "vote",
            DecisionKind::Successor => "successor",
            DecisionKind::ProphetTerrain => "prophet_terrain",
            DecisionKind::InvaderTarget => "invader_target",
        }
    }

    pub fn parse(text: &str) -> Option<DecisionKind> {
        DECISION_KINDS.iter().copied().find(|k| k.value() == text)
    }
}

/// Everything the engine does to a card (`GameResult.card_events`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardAction {
    Dealt,
    Drawn,
    Attached,
    Played,
    Resolved,
    Discarded,
    Sacrificed,
    Died,
    Captured,
    Freed,
    Reshuffled,
    Released,
    Defeated,
}

pub const CARD_ACTIONS: [CardAction; 13] = [
    CardAction::Dealt,
    CardAction::Drawn,
    CardAction::Attached,
    CardAction::Played,
    CardAction::Resolved,
    CardAction::Discarded,
    CardAction::Sacrificed,
    CardAction::Died,
    CardAction::Captured,
    CardAction::Freed,
    CardAction::Reshuffled,
    CardAction::Released,
    CardAction::Defeated,
];

impl CardAction {
    pub fn value(self) -> &'static str {
        match self {
            CardAction::Dealt => "dealt",
            CardAction::Drawn => "drawn",
            CardAction::Attached => "attached",
            CardAction::Played => "played",
            CardAction::Resolved => "resolved",
            CardAction::Discarded => "discarded",
            CardAction::Sacrificed => "sacrificed",
            CardAction::Died => "died",
            CardAction::Captured => "captured",
            CardAction::Freed => "freed",
            CardAction::Reshuffled => "reshuffled",
            CardAction::Released => "released",
            CardAction::Defeated => "defeated",
        }
    }

    pub fn parse(text: &str) -> Option<CardAction> {
        CARD_ACTIONS.iter().copied().find(|a| a.value() == text)
    }
}
