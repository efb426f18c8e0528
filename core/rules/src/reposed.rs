//! A saved position's pending decision held against the rules: the step that posed it
//! (`Ask::again`: a turn, a battle's card window, the hand limit) is posed anew on a copy, and
//! its seat, kind and options must be those saved. A position is data a user may edit; a move of
//! Samson onto water saved as an option must not be played because the file offers it.

use crate::flow;
use crate::game::Game;
use crate::steps::Pending;

/// Ok when nothing is pending, the decision cannot be posed anew (it says so by no `again`), or
/// the rules pose it as saved; otherwise what differs, in words.
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
        return Ok(());
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
            let extra = saved
                .decision
                .options
                .iter()
                .filter(|o| !fresh.options.contains(o))
                .count();
            Err(format!(
                "the pending decision '{kind}' of seat {seat} offers {} options where the rules give {} ({extra} not \
                 among them)",
                saved.decision.options.len(),
                fresh.options.len()
            ))
        }
        _ => Err(format!(
            "the pending decision '{kind}' of seat {seat} is not the one the rules pose at this position"
        )),
    }
}
