//! A seat's turn (Python's `steps.act`/`acted`): it acts again and again until it passes.

use crate::game::{EngineError, Game, MAX_ACTIONS_PER_TURN, R};
use crate::options::{About, Opt};
use crate::parts::Seat;
use crate::phase::DecisionKind;
use crate::steps::{Apply, Step, Then};

/// RD-4, AQ-1, AN-3: one action of a turn. The seat picks one of `options` or PASS; a choice is
/// applied by `apply`, and then `turn` (the step that built these options, counting the
/// actions) comes back for the next one. No options, or a game already over: the turn ends.
pub fn act(
    g: &mut Game,
    turn: Step,
    seat: Seat,
    kind: DecisionKind,
    mut options: Vec<Opt>,
    apply: Apply,
    about: About,
) -> R {
    if options.is_empty() || g.end_reason.is_some() {
        crate::options::recycle(options);
        return Ok(());
    }
    let count = turn_count(&turn);
    if count >= MAX_ACTIONS_PER_TURN {
        return Err(EngineError::EndlessTurn {
            seat,
            text: format!(
                "seat {seat} acted {count} times at '{}' in round {} without passing: the game was stopped (these \
                 rules let a strategy play on for ever)",
                kind.value(),
                g.state.round
            ),
        });
    }
    options.push(Opt::Pass);
    let again = Some(turn.clone());
    g.ask(seat, kind, options, Then::Acted { turn, apply, seat }, again, about)
}

fn turn_count(turn: &Step) -> i64 {
    match turn {
        Step::PurchaseTurn { count, .. } | Step::MovementTurn { count, .. } | Step::CardTurn { count, .. } => *count,
        _ => 0,
    }
}

/// The same turn, one action further on (`flow` pushes it back after an action).
pub fn next_turn(turn: Step) -> Step {
    match turn {
        Step::PurchaseTurn { seat, count } => Step::PurchaseTurn { seat, count: count + 1 },
        Step::MovementTurn { seat, count } => Step::MovementTurn { seat, count: count + 1 },
        Step::CardTurn { seat, phase, count } => Step::CardTurn {
            seat,
            phase,
            count: count + 1,
        },
        other => other,
    }
}
