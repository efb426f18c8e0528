//! How a game moves: the pending stack run to the next real decision, each step and each
//! answer handed to the rule that does it, and the phases opened and closed round after round.
//! It sits above every rule module (they push steps and asks on the `Game`; this is the one
//! place that knows which rule each belongs to), so the rule modules form no circle.

use crate::game::{Game, R};
use crate::options::Opt;
use crate::parts::Seat;
use crate::phase::Phase;
use crate::steps::{Apply, Pending, Step, Then};
use crate::{cardplay, combat, effects, invariants, phases, setup, titles};

/// Answer the pending decision with its `index`-th option; the caller checked the index.
pub fn answer_at(g: &mut Game, index: usize) -> R {
    let (then, chosen) = g.take_answer(index)?;
    answer(g, then, chosen)
}

/// Do the pending work until a decision is on top or the stack is down to `floor`; a lone
/// option on top is applied at once.
pub fn run(g: &mut Game, floor: usize) -> R {
    while g.state.pending.len() > floor {
        match g.state.pending.last() {
            Some(Pending::Ask(ask)) if ask.decision.options.len() == 1 => answer_at(g, 0)?,
            Some(Pending::Ask(_)) => return Ok(()),
            _ => {
                if let Some(Pending::Step(step)) = g.state.pending.pop() {
                    run_step(g, step)?;
                }
            }
        }
    }
    Ok(())
}

/// Play on, phase after phase, to the next decision or the end.
pub fn advance(g: &mut Game) -> R {
    loop {
        run(g, 0)?;
        if !g.state.pending.is_empty() || g.end_reason.is_some() {
            return Ok(());
        }
        open_phase(g)?;
    }
}

// the round (Python's `rounds`)
/// Start the phase the state is at: its work, then the clean-up (ST-9, CP-1), then the next.
pub fn open_phase(g: &mut Game) -> R {
    let phase = g.state.phase;
    g.push(Step::PhaseClosed { phase });
    g.push(Step::EndOfPhase);
    match phase {
        Phase::Announcements => phases::announcements(g),
        Phase::Draw => phases::draw_cards(g),
        Phase::Income => phases::income(g),
        Phase::Acquisitions => phases::acquisitions(g),
        Phase::Movement => phases::movement(g),
        Phase::Combat => combat::combat_phase(g),
        Phase::Victory => phases::victory_check(g),
    }
}

fn phase_closed(g: &mut Game, phase: Phase) -> R {
    invariants::verify(g, phase.value())?;
    if g.end_reason.is_some() {
        return Ok(());
    }
    if phase == Phase::Victory {
        start_next_round(g);
    } else {
        g.state.phase = phase.next();
    }
    Ok(())
}

/// Reset what lasts one round and rotate the first player (RD-3).
fn start_next_round(g: &mut Game) {
    let s = &mut g.state;
    s.round += 1;
    s.phase = Phase::Announcements;
    if g.rules.rotate_first_player {
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
fn run_step(g: &mut Game, step: Step) -> R {
    match step {
        Step::ReceiveCards { seat, cards, action } => effects::receive_cards(g, seat, &cards, action),
        Step::DrawCards { seat, count } => effects::draw_cards(g, seat, count),
        Step::KeepHandLimit { seat } => effects::keep_hand_limit(g, seat),
        Step::EndOfPhase => effects::end_of_phase(g),
        Step::EndOfPhaseAfterOccupation { before } => effects::end_of_phase_after_occupation(g, before),
        Step::OccupyFreeSettlements { start } => effects::occupy_free_settlements(g, start),
        Step::Deal => setup::deal(g),
        Step::ChooseHomes { seats } => setup::choose_homes(g, &seats),
        Step::DealGenerals { seats } => setup::deal_generals(g, &seats),
        Step::DealCards { seats } => setup::deal_cards(g, &seats),
        Step::PhaseClosed { phase } => phase_closed(g, phase),
        Step::SetupDone => invariants::verify(g, "setup"),
        Step::PurchaseTurn { seat, count } => phases::purchase_turn(g, seat, count),
        Step::MovementTurn { seat, count } => phases::movement_turn(g, seat, count),
        Step::CardTurn { seat, phase, count } => cardplay::card_turn(g, seat, phase, count),
        Step::CardWindow { phase } => cardplay::card_window(g, phase),
        Step::JudgeVictory => phases::judge_victory(g),
        Step::BattleWindow { attacking } => combat::battle_window(g, attacking),
        Step::SidesThinned => combat::sides_thinned(g),
        Step::Ambush {
            seat,
            victims_attack,
            names,
        } => combat::ambush(g, seat, victims_attack, &names),
        Step::JudgeBattle => combat::judge_battle(g),
        Step::Defeat { names, winner } => combat::defeat(g, &names, winner),
        Step::LossesTaken { losses } => combat::losses_taken(g, losses),
        Step::BesiegersChoose { hexes } => combat::besiegers_choose(g, hexes),
        Step::AssaultsFought { assaults } => combat::assaults_fought(g, assaults),
        Step::AssaultsOver => {
            g.state.assaults.clear();
            Ok(())
        }
        Step::AssaultWonOrLost { hex, seat, sid } => combat::assault_won_or_lost(g, hex, seat, sid),
        Step::InvadersAttack { pairs } => combat::invaders_attack(g, pairs),
        Step::InvasionOver { pair, target } => combat::invasion_over(g, pair, target),
        Step::AssassinBlamed { seat, blame } => cardplay::assassin_blamed(g, seat, blame),
        Step::ResolveEvents => cardplay::resolve_events(g),
        Step::FillVacancies { start } => titles::fill_vacancies(g, start),
        Step::CrownAnointed => titles::crown_anointed(g),
        Step::ChooseSuccessor => titles::choose_successor(g),
        Step::Election => titles::election(g),
        Step::AnnounceTitles => {
            g.sequence(vec![
                Step::FillVacancies { start: 0 },
                Step::CrownAnointed,
                Step::ChooseSuccessor,
                Step::Election,
            ]);
            Ok(())
        }
    }
}

fn answer(g: &mut Game, then: Then, choice: Opt) -> R {
    match then {
        Then::PlaceGeneral { seat, card } => effects::place_general(g, choice, seat, card),
        Then::AttachItem { seat, card } => effects::attach_item(g, choice, seat, card),
        Then::DiscardFromHand { seat } => effects::discard_from_hand(g, choice, seat),
        Then::PairAimed { names, wrath_after } => effects::pair_aimed(g, choice, names, wrath_after),
        Then::TitleAssigned { region } => effects::title_assigned(g, choice, region),
        Then::HomeChosen { seat, others } => setup::home_chosen(g, choice, seat, &others),
        Then::Acted { turn, apply, seat } => acted(g, choice, turn, apply, seat),
        Then::SiegeOrAssault { seat, hex } => phases::siege_or_assault(g, choice, seat, hex),
        Then::BattleCard { attacking } => combat::battle_card(g, choice, attacking),
        Then::SiegeChoice { hex, rest } => combat::siege_choice(g, choice, hex, rest),
        Then::ConquerOrRaze { seat, sid } => combat::conquer_or_raze(g, choice, seat, sid),
        Then::TerrainChosen { event } => cardplay::terrain_chosen(g, choice, event),
        Then::Appointed { region, next_region } => titles::appointed(g, choice, region, next_region),
        Then::SuccessorChosen => titles::successor_chosen(g, choice),
        Then::Voted {
            candidates,
            order,
            i,
            left,
            tally,
        } => titles::voted(g, choice, candidates, order, i, left, tally),
    }
}

/// RD-4, AQ-1, AN-3: a turn's action chosen. PASS ends the turn; anything else is applied and
/// the turn comes back (`turns::next_turn`) for the next action.
fn acted(g: &mut Game, choice: Opt, turn: Step, apply: Apply, seat: Seat) -> R {
    if choice == Opt::Pass {
        return Ok(());
    }
    g.push(crate::turns::next_turn(turn));
    match apply {
        Apply::Purchase => phases::apply_purchase(g, seat, choice),
        Apply::Movement => phases::apply_movement(g, seat, choice),
        Apply::PlayCard => cardplay::play_card(g, seat, choice),
    }
}
