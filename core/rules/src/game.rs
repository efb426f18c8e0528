//! One game in progress (Python's `Context` and `Table`): the state, the shared board, rules
//! and cards, the game's generator, its events and records, and the pending stack's operations:
//! a rule that needs an answer pushes an `Ask` and returns, one that has more work to do pushes
//! a `Step`. What runs the stack and which rule each step and answer goes to is `flow`'s job,
//! above every rule module, so no rule module is imported back from here.

use std::sync::Arc;

use crate::board::Board;
use crate::cards::{CardTable, Invader, Kind};
use crate::dice::Dice;
use crate::movement::SettlementFlags;
use crate::options::{About, Decision, Opt};
use crate::parts::Seat;
use crate::phase::{CardAction, DecisionKind, Phase};
use crate::rules::Rules;
use crate::state::GameState;
use crate::steps::{Ask, CleanStamp, Pending, Step, Then};

/// A value of an event's field (Python's event dicts hold these).
#[derive(Clone, Debug, PartialEq)]
pub enum Ev {
    None,
    Int(i64),
    Bool(bool),
    Str(String),
    List(Vec<Ev>),
    Map(Vec<(String, Ev)>),
}

impl From<i64> for Ev {
    fn from(v: i64) -> Ev {
        Ev::Int(v)
    }
}

impl From<i32> for Ev {
    fn from(v: i32) -> Ev {
        Ev::Int(v as i64)
    }
}

impl From<usize> for Ev {
    fn from(v: usize) -> Ev {
        Ev::Int(v as i64)
    }
}

impl From<u16> for Ev {
    fn from(v: u16) -> Ev {
        Ev::Int(v as i64)
    }
}

impl From<bool> for Ev {
    fn from(v: bool) -> Ev {
        Ev::Bool(v)
    }
}

impl From<&str> for Ev {
    fn from(v: &str) -> Ev {
        Ev::Str(v.to_string())
    }
}

impl From<String> for Ev {
    fn from(v: String) -> Ev {
        Ev::Str(v)
    }
}

impl<T: Into<Ev>> From<Option<T>> for Ev {
    fn from(v: Option<T>) -> Ev {
        v.map_or(Ev::None, Into::into)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub round: i64,
    pub phase: Phase,
    pub kind: &'static str,
    pub fields: Vec<(&'static str, Ev)>,
}

/// Log an event when the game keeps a log; the fields are not even built otherwise.
#[macro_export]
macro_rules! emit {
    ($g:expr, $kind:expr $(, $key:literal => $value:expr)* $(,)?) => {
        if $g.logging {
            let fields = vec![$(($key, $crate::game::Ev::from($value))),*];
            $g.log_event($kind, fields);
        }
    };
}

/// What can go wrong inside the engine: a broken invariant (check mode) or an engine bug, an
/// answer the decision did not offer, or a seat that acted `MAX_ACTIONS_PER_TURN` times in one
/// turn without passing (rules that let a card come back again and again, and a strategy that
/// always plays it: the strategy's doing, not the engine's).
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    Invariant(String),
    Illegal(String),
    EndlessTurn { seat: Seat, text: String },
}

pub type R = Result<(), EngineError>;

pub fn invariant(text: impl Into<String>) -> EngineError {
    EngineError::Invariant(text.into())
}

/// What a `card_events` entry names: a card kind or an invader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CardRef {
    Kind(Kind),
    Invader(Invader),
}

/// One row of `ROUND_COLUMNS` (`scoring::seat_row`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub round: i64,
    pub seat: Seat,
    pub vp: i64,
    pub coins: i64,
    pub income: i64,
    pub settlements: i64,
    pub cities: i64,
    pub walls: i64,
    pub developments: i64,
    pub garrison_troops: i64,
    pub commanded_troops: i64,
    pub generals: i64,
    pub captives_held: i64,
    pub judge_titles: i64,
    pub king: bool,
    pub tabernacle: bool,
    pub hand_size: i64,
    pub wrath: i64,
    pub invader_pairs: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Victory,
    Draw,
    Collapse,
    RoundLimit,
}

impl EndReason {
    pub fn value(self) -> &'static str {
        match self {
            EndReason::Victory => "victory",
            EndReason::Draw => "draw",
            EndReason::Collapse => "collapse",
            EndReason::RoundLimit => "round_limit",
        }
    }

    pub fn parse(text: &str) -> Option<EndReason> {
        [
            EndReason::Victory,
            EndReason::Draw,
            EndReason::Collapse,
            EndReason::RoundLimit,
        ]
        .into_iter()
        .find(|r| r.value() == text)
    }
}

thread_local! {
    /// the box of the last decision answered, reused by the next (a play-out asks ~20 a round)
    static SPARE_ASK: std::cell::Cell<Option<Box<Ask>>> = const { std::cell::Cell::new(None) };
}

/// A step's limit on a turn's actions: every action uses something up; far more than any turn takes.
pub const MAX_ACTIONS_PER_TURN: i64 = 5000;

#[derive(Clone)]
pub struct Game {
    pub board: Arc<Board>,
    pub rules: Arc<Rules>,
    pub cards: Arc<CardTable>,
    pub state: GameState,
    pub rng: Dice,
    pub logging: bool,
    pub events: Vec<Event>,
    pub check: bool,
    pub end_reason: Option<EndReason>,
    pub winners: Vec<Seat>,
    pub round_rows: Vec<SeatRow>,
    pub card_events: Vec<(i64, Seat, CardRef, CardAction)>,
    /// the state the last clean-up left as it was (`effects::end_of_phase`)
    pub clean: Option<CleanStamp>,
    /// the settlements' part of the last movement turn's occupancy (`movement::SettlementFlags`)
    pub settlement_flags: Option<SettlementFlags>,
}

impl Game {
    /// A game at `state`, with nothing of its past (no log, records or result yet).
    pub fn with_state(
        board: Arc<Board>,
        rules: Arc<Rules>,
        cards: Arc<CardTable>,
        state: GameState,
        rng: Dice,
        check: bool,
        logging: bool,
    ) -> Game {
        Game {
            board,
            rules,
            cards,
            state,
            rng,
            logging,
            events: Vec::new(),
            check,
            end_reason: None,
            winners: Vec::new(),
            round_rows: Vec::new(),
            card_events: Vec::new(),
            clean: None,
            settlement_flags: None,
        }
    }

    /// An independent copy that logs nothing: the log is neither copied nor kept, nor (without
    /// `card_events`) the card records, so a copy that drops them never copies them first.
    pub fn copy(&self, card_events: bool) -> Game {
        self.copy_with(card_events, self.rng.clone())
    }

    /// `copy`, with other dice (a copy that replaces them never copies the old ones first).
    pub fn copy_with(&self, card_events: bool, rng: Dice) -> Game {
        Game {
            board: self.board.clone(),
            rules: self.rules.clone(),
            cards: self.cards.clone(),
            state: self.state.clone(),
            rng,
            logging: false,
            events: Vec::new(),
            check: self.check,
            end_reason: self.end_reason,
            winners: self.winners.clone(),
            round_rows: {
                // room for the round a play-out records next (a grown copy would be copied again)
                let mut rows = Vec::with_capacity(self.round_rows.len() + self.state.n_players());
                rows.extend_from_slice(&self.round_rows);
                rows
            },
            card_events: if card_events {
                self.card_events.clone()
            } else {
                Vec::new()
            },
            clean: self.clean.clone(),
            settlement_flags: None,
        }
    }

    // decisions
    /// Put a decision to `seat`: `then` applies the answer. A lone option is no decision: it is
    /// not counted, and `flow::run` applies it as soon as it is on top.
    pub fn ask(
        &mut self,
        seat: Seat,
        kind: DecisionKind,
        options: Vec<Opt>,
        then: Then,
        again: Option<Step>,
        about: About,
    ) -> R {
        if options.is_empty() {
            return Err(invariant(format!("decision '{}' offered no options", kind.value())));
        }
        if options.len() > 1 {
            self.state.decisions += 1;
        }
        let decision = Decision {
            kind,
            seat,
            options,
            about,
        };
        let ask = Ask { decision, then, again };
        let boxed = match SPARE_ASK.take() {
            Some(mut spare) => {
                *spare = ask;
                spare
            }
            None => Box::new(ask),
        };
        self.state.pending.push(Pending::Ask(boxed));
        Ok(())
    }

    /// Work to do next (the top of the stack).
    pub fn push(&mut self, step: Step) {
        self.state.pending.push(Pending::Step(step));
    }

    /// Work to do next, in this order.
    pub fn sequence(&mut self, steps: Vec<Step>) {
        self.state.pending.extend(steps.into_iter().rev().map(Pending::Step));
    }

    /// If what was called since the stack stood at `mark` left work on it, the rest (`step`)
    /// waits beneath that work: true. Otherwise false: go on at once.
    pub fn defer(&mut self, mark: usize, step: Step) -> bool {
        if self.state.pending.len() <= mark {
            return false;
        }
        self.state.pending.insert(mark, Pending::Step(step));
        true
    }

    // events and records
    pub fn log_event(&mut self, kind: &'static str, fields: Vec<(&'static str, Ev)>) {
        self.events.push(Event {
            round: self.state.round,
            phase: self.state.phase,
            kind,
            fields,
        });
    }

    pub fn note_card(&mut self, seat: Seat, card: crate::cards::Card, action: CardAction) {
        let kind = self.cards.kind(card);
        self.card_events
            .push((self.state.round, seat, CardRef::Kind(kind), action));
    }

    pub fn note_invader(&mut self, invader: Invader, action: CardAction) {
        self.card_events
            .push((self.state.round, -1, CardRef::Invader(invader), action));
    }

    pub fn finish(&mut self, reason: EndReason, winners: Vec<Seat>) {
        self.end_reason = Some(reason);
        emit!(self, "game_over", "reason" => reason.value(), "winners" => Ev::List(winners.iter().map(|w| Ev::Int(*w as i64)).collect()));
        self.winners = winners;
    }

    // the pending decision
    /// Take the pending decision off the stack with its `index`-th option: what applies it
    /// (`then`) and the option. The caller checked the index; `flow::answer_at` applies it.
    pub fn take_answer(&mut self, index: usize) -> Result<(Then, Opt), EngineError> {
        let Some(Pending::Ask(mut ask)) = self.state.pending.pop() else {
            return Err(EngineError::Illegal("no decision is pending".into()));
        };
        let Ask { decision, then, .. } = std::mem::replace(&mut *ask, Ask::spent());
        SPARE_ASK.set(Some(ask));
        let chosen = decision.options[index];
        crate::options::recycle(decision.options);
        Ok((then, chosen))
    }

    pub fn decision(&self) -> Option<&Decision> {
        match self.state.pending.last() {
            Some(Pending::Ask(ask)) => Some(&ask.decision),
            _ => None,
        }
    }

    pub fn over(&self) -> bool {
        self.end_reason.is_some() && self.state.pending.is_empty()
    }
}
