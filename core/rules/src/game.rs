//! One game in progress (Python's `Context` and `Table`): the state, the shared board, rules
//! and cards, the game's generator, its events and records, and the stepping of the pending
//! work: a rule that needs an answer pushes an `Ask` and returns; `advance` runs the stack to
//! the next decision with two or more options, opening each phase when the stack is empty.

use std::sync::Arc;

use crate::board::Board;
use crate::cards::{CardTable, Invader, Kind};
use crate::dice::Dice;
use crate::movement::SettlementFlags;
use crate::options::{About, Decision, Opt};
use crate::phase::{CardAction, DecisionKind, Phase};
use crate::rules::Rules;
use crate::state::{GameState, Seat};
use crate::steps::{Ask, CleanStamp, Pending, Step, Then};
use crate::{cardplay, combat, effects, invariants, phases, scoring, setup, titles};

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

/// What can go wrong inside the engine: a broken invariant (check mode) or an engine bug.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    Invariant(String),
    Illegal(String),
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
    /// Put a decision to `seat`: `then` applies the answer. A lone option is applied at once and
    /// the decision is not counted.
    pub fn ask(
        &mut self,
        seat: Seat,
        kind: DecisionKind,
        mut options: Vec<Opt>,
        then: Then,
        again: Option<Step>,
        about: About,
    ) -> R {
        if options.len() == 1 {
            let only = options.pop().expect("one option");
            crate::options::recycle(options);
            return self.answer(then, only);
        }
        if options.is_empty() {
            return Err(invariant(format!("decision '{}' offered no options", kind.value())));
        }
        self.state.decisions += 1;
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

    pub fn record_round(&mut self) {
        for seat in 0..self.state.n_players() as Seat {
            let row = scoring::seat_row(self, seat);
            self.round_rows.push(row);
        }
    }

    pub fn finish(&mut self, reason: EndReason, winners: Vec<Seat>) {
        self.end_reason = Some(reason);
        emit!(self, "game_over", "reason" => reason.value(), "winners" => Ev::List(winners.iter().map(|w| Ev::Int(*w as i64)).collect()));
        self.winners = winners;
    }

    /// Check mode: every invariant holds.
    pub fn verify(&self, place: &str) -> R {
        if self.check {
            let problems = invariants::check_invariants(self);
            if !problems.is_empty() {
                return Err(invariant(format!(
                    "after {place} in round {}: {}",
                    self.state.round,
                    problems.join("; ")
                )));
            }
        }
        Ok(())
    }

    // stepping
    /// Answer the pending decision with its `index`-th option; the caller checked the index.
    pub fn answer_at(&mut self, index: usize) -> R {
        let Some(Pending::Ask(mut ask)) = self.state.pending.pop() else {
            return Err(EngineError::Illegal("no decision is pending".into()));
        };
        let Ask { decision, then, .. } = std::mem::replace(&mut *ask, Ask::spent());
        SPARE_ASK.set(Some(ask));
        let chosen = decision.options[index];
        crate::options::recycle(decision.options);
        self.answer(then, chosen)
    }

    /// Do the pending work until a decision is on top or the stack is down to `floor`.
    pub fn run(&mut self, floor: usize) -> R {
        while self.state.pending.len() > floor {
            if let Some(Pending::Ask(_)) = self.state.pending.last() {
                return Ok(());
            }
            if let Some(Pending::Step(step)) = self.state.pending.pop() {
                self.run_step(step)?;
            }
        }
        Ok(())
    }

    /// Play on, phase after phase, to the next decision or the end.
    pub fn advance(&mut self) -> R {
        loop {
            self.run(0)?;
            if !self.state.pending.is_empty() || self.end_reason.is_some() {
                return Ok(());
            }
            self.open_phase()?;
        }
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

    // the round (Python's `rounds`)
    /// Start the phase the state is at: its work, then the clean-up (ST-9, CP-1), then the next.
    pub fn open_phase(&mut self) -> R {
        let phase = self.state.phase;
        self.push(Step::PhaseClosed { phase });
        self.push(Step::EndOfPhase);
        match phase {
            Phase::Announcements => phases::announcements(self),
            Phase::Draw => phases::draw_cards(self),
            Phase::Income => phases::income(self),
            Phase::Acquisitions => phases::acquisitions(self),
            Phase::Movement => phases::movement(self),
            Phase::Combat => combat::combat_phase(self),
            Phase::Victory => phases::victory_check(self),
        }
    }

    fn phase_closed(&mut self, phase: Phase) -> R {
        self.verify(phase.value())?;
        if self.end_reason.is_some() {
            return Ok(());
        }
        if phase == Phase::Victory {
            self.start_next_round();
        } else {
            self.state.phase = phase.next();
        }
        Ok(())
    }

    /// Reset what lasts one round and rotate the first player (RD-3).
    fn start_next_round(&mut self) {
        let s = &mut self.state;
        s.round += 1;
        s.phase = Phase::Announcements;
        if self.rules.rotate_first_player {
            s.first_player = (s.first_player + 1) % s.players.len() as Seat;
        }
        s.taxed.clear();
        s.assaults.clear();
        s.storm = false;
        s.terrain_mods = [0; 4];
        for g in s.order.clone() {
            let general = s.general_mut(g);
            general.moved = false;
            general.took = false;
            general.passage = false;
        }
        for seat in 0..s.players.len() as Seat {
            s.player_mut(seat).income = 0;
        }
    }

    // dispatch
    pub fn run_step(&mut self, step: Step) -> R {
        match step {
            Step::ReceiveCards { seat, cards, action } => effects::receive_cards(self, seat, &cards, action),
            Step::DrawCards { seat, count } => effects::draw_cards(self, seat, count),
            Step::KeepHandLimit { seat } => effects::keep_hand_limit(self, seat),
            Step::EndOfPhase => effects::end_of_phase(self),
            Step::EndOfPhaseAfterOccupation { before } => effects::end_of_phase_after_occupation(self, before),
            Step::OccupyFreeSettlements { start } => effects::occupy_free_settlements(self, start),
            Step::Deal => setup::deal(self),
            Step::ChooseHomes { seats } => setup::choose_homes(self, &seats),
            Step::DealGenerals { seats } => setup::deal_generals(self, &seats),
            Step::DealCards { seats } => setup::deal_cards(self, &seats),
            Step::PhaseClosed { phase } => self.phase_closed(phase),
            Step::SetupDone => self.verify("setup"),
            Step::PurchaseTurn { seat, count } => phases::purchase_turn(self, seat, count),
            Step::MovementTurn { seat, count } => phases::movement_turn(self, seat, count),
            Step::CardTurn { seat, phase, count } => cardplay::card_turn(self, seat, phase, count),
            Step::CardWindow { phase } => cardplay::card_window(self, phase),
            Step::JudgeVictory => phases::judge_victory(self),
            Step::BattleWindow { attacking } => combat::battle_window(self, attacking),
            Step::SidesThinned => combat::sides_thinned(self),
            Step::Ambush {
                seat,
                victims_attack,
                names,
            } => combat::ambush(self, seat, victims_attack, &names),
            Step::JudgeBattle => combat::judge_battle(self),
            Step::Defeat { names, winner } => combat::defeat(self, &names, winner),
            Step::LossesTaken { losses } => combat::losses_taken(self, losses),
            Step::BesiegersChoose { hexes } => combat::besiegers_choose(self, hexes),
            Step::AssaultsFought { assaults } => combat::assaults_fought(self, assaults),
            Step::AssaultsOver => {
                self.state.assaults.clear();
                Ok(())
            }
            Step::AssaultWonOrLost { hex, seat, sid } => combat::assault_won_or_lost(self, hex, seat, sid),
            Step::InvadersAttack { pairs } => combat::invaders_attack(self, pairs),
            Step::InvasionOver { pair, target } => combat::invasion_over(self, pair, target),
            Step::AssassinBlamed { seat, blame } => cardplay::assassin_blamed(self, seat, blame),
            Step::ResolveEvents => cardplay::resolve_events(self),
            Step::FillVacancies { start } => titles::fill_vacancies(self, start),
            Step::CrownAnointed => titles::crown_anointed(self),
            Step::ChooseSuccessor => titles::choose_successor(self),
            Step::Election => titles::election(self),
            Step::AnnounceTitles => {
                self.sequence(vec![
                    Step::FillVacancies { start: 0 },
                    Step::CrownAnointed,
                    Step::ChooseSuccessor,
                    Step::Election,
                ]);
                Ok(())
            }
        }
    }

    pub fn answer(&mut self, then: Then, choice: Opt) -> R {
        match then {
            Then::PlaceGeneral { seat, card } => effects::place_general(self, choice, seat, card),
            Then::AttachItem { seat, card } => effects::attach_item(self, choice, seat, card),
            Then::DiscardFromHand { seat } => effects::discard_from_hand(self, choice, seat),
            Then::PairAimed { names, wrath_after } => effects::pair_aimed(self, choice, names, wrath_after),
            Then::TitleAssigned { region } => effects::title_assigned(self, choice, region),
            Then::HomeChosen { seat, others } => setup::home_chosen(self, choice, seat, &others),
            Then::Acted { turn, apply, seat } => crate::turns::acted(self, choice, turn, apply, seat),
            Then::SiegeOrAssault { seat, hex } => phases::siege_or_assault(self, choice, seat, hex),
            Then::BattleCard { attacking } => combat::battle_card(self, choice, attacking),
            Then::SiegeChoice { hex, rest } => combat::siege_choice(self, choice, hex, rest),
            Then::ConquerOrRaze { seat, sid } => combat::conquer_or_raze(self, choice, seat, sid),
            Then::TerrainChosen { event } => cardplay::terrain_chosen(self, choice, event),
            Then::Appointed { region, next_region } => titles::appointed(self, choice, region, next_region),
            Then::SuccessorChosen => titles::successor_chosen(self, choice),
            Then::Voted {
                candidates,
                order,
                i,
                left,
                tally,
            } => titles::voted(self, choice, candidates, order, i, left, tally),
        }
    }
}
