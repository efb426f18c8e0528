//! A saved position's pending decision held against the rules: the step that posed it
//! (`Ask::again`: a turn, a battle's card window, the hand limit) is posed anew on a copy, and
//! its seat, kind and options must be those saved. A decision whose step cannot be posed again
//! (its effects, dice or losses, came before the question) has its options worked out anew from
//! the state (`options_anew`), by the same functions the step asked with. A position is data a
//! user may edit; a move of Samson onto water saved as an option must not be played because the
//! file offers it.

use crate::cardplay::EVENT_TERRAINS;
use crate::eligible::{invader_targets, item_carriers, reinforcement_rooms, title_candidates};
use crate::flow;
use crate::game::Game;
use crate::options::{Choice, Opt, ASSAULT, CONQUER, HOLD, RAZE, SIEGE};
use crate::phase::DecisionKind;
use crate::setup::home_options;
use crate::steps::{Ask, Pending, Then};
use crate::titles::{appointment, eligible_judges};

/// The options the rules give a pending decision that cannot be posed again, from the state
/// alone: a home (SU-2), the three questions of a fixed pair (CB-1, CB-7, MV-11), a title's, the
/// crown's and an appointment's candidates (TI-5, TI-6, TI-13, TI-16), a vote's (TI-10), where a
/// received general may go and who may carry a received item (DR-2), a Prophet's terrains (AN-2)
/// and the invaders' targets (W-3); none for an appointment to a region or city that is not
/// there. None for a kind posed by its step (`again`).
fn options_anew(g: &Game, saved: &Ask) -> Option<Vec<Opt>> {
    let generals = |ids: Vec<_>| ids.into_iter().map(|x| Opt::Choose(Choice::General(x))).collect();
    let settlements = |ids: Vec<_>| ids.into_iter().map(|x| Opt::Choose(Choice::Settlement(x))).collect();
    let seat = saved.decision.seat;
    match saved.decision.kind {
        DecisionKind::Home => Some(home_options(g, seat)),
        DecisionKind::SiegeOrAssault => Some(vec![SIEGE, ASSAULT]),
        DecisionKind::SiegeAssault => Some(vec![HOLD, ASSAULT]),
        DecisionKind::ConquerOrRaze => Some(vec![CONQUER, RAZE]),
        DecisionKind::AssignTitle | DecisionKind::Successor => Some(generals(title_candidates(&g.state, seat))),
        DecisionKind::Vote => Some(generals(eligible_judges(g))),
        DecisionKind::PlaceGeneral => Some(settlements(reinforcement_rooms(g, seat))),
        DecisionKind::AttachItem => Some(generals(item_carriers(&g.state, seat))),
        DecisionKind::ProphetTerrain => Some(
            EVENT_TERRAINS
                .iter()
                .map(|t| Opt::Choose(Choice::Terrain(*t)))
                .collect(),
        ),
        DecisionKind::InvaderTarget => Some(settlements(invader_targets(&g.state))),
        DecisionKind::Appoint => {
            let owner = match saved.then {
                Then::Appointed { region, .. } => g
                    .state
                    .region_slot(region)
                    .and_then(|slot| g.state.regions[slot].city)
                    .and_then(|city| g.state.settlements[city as usize].owner.filter(|o| *o >= 0)),
                _ => None,
            };
            Some(owner.map_or_else(Vec::new, |owner| generals(appointment(g, owner).1)))
        }
        _ => None,
    }
}

/// What differs between the saved options and the rules', in words.
fn options_differ(kind: &str, seat: impl std::fmt::Display, saved: &[Opt], fresh: &[Opt]) -> String {
    let extra = saved.iter().filter(|o| !fresh.contains(o)).count();
    format!(
        "the pending decision '{kind}' of seat {seat} offers {} options where the rules give {} ({extra} not \
         among them)",
        saved.len(),
        fresh.len()
    )
}

/// Ok when nothing is pending, or the rules pose the decision as saved (posed anew by its
/// `again` step, or its options worked out anew); otherwise what differs, in words.
pub fn check_pending_decision(g: &Game) -> Result<(), String> {
    let Some(Pending::Ask(saved)) = g.state.pending.last() else {
        return Ok(());
    };
    let (kind, seat) = (saved.decision.kind.value(), saved.decision.seat);
    if saved.decision.options.is_empty() {
        return Err(format!(
            "the pending decision '{kind}' of seat {seat} offers no options"
        ));
    }
    let Some(again) = saved.again.clone() else {
        return match options_anew(g, saved) {
            Some(fresh) if fresh != saved.decision.options => {
                Err(options_differ(kind, seat, &saved.decision.options, &fresh))
            }
            _ => Ok(()),
        };
    };
    let mut copy = g.copy(false);
    copy.check = false;
    copy.state.pending.pop();
    let depth = copy.state.pending.len();
    copy.push(again);
    flow::run(&mut copy, depth).map_err(|e| format!("posing the pending decision '{kind}' anew failed: {e:?}"))?;
    match copy.decision() {
        Some(fresh)
            if copy.state.pending.len() == depth + 1 && fresh.seat == seat && fresh.kind == saved.decision.kind =>
        {
            if fresh.options == saved.decision.options {
                return Ok(());
            }
            Err(options_differ(kind, seat, &saved.decision.options, &fresh.options))
        }
        _ => Err(format!(
            "the pending decision '{kind}' of seat {seat} is not the one the rules pose at this position"
        )),
    }
}
