//! Play-outs that need no Python: the game played on by a native policy, answering every
//! decision itself, to the end or to a limit (the forward model's hot loop).

use crate::game::Game;
use crate::rng::PyRandom;
use crate::steps::Pending;

/// Where a play-out stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// the game's end
    End,
    /// the end of the current round (the Victory Check closed)
    RoundEnd,
    /// after this many decisions
    Decisions(u64),
}

/// Answer every decision uniformly at random from `rng` until `until`; the decisions answered.
pub fn random_playout(game: &mut Game, rng: &mut PyRandom, until: Until) -> Result<u64, crate::game::EngineError> {
    let round = game.state.round;
    let mut answered = 0;
    loop {
        game.advance()?;
        let done = match until {
            Until::End => false,
            Until::RoundEnd => game.state.round != round,
            Until::Decisions(n) => answered >= n,
        };
        if done || game.end_reason.is_some() && game.state.pending.is_empty() {
            return Ok(answered);
        }
        let Some(Pending::Ask(ask)) = game.state.pending.last() else {
            return Ok(answered);
        };
        let n = ask.decision.options.len();
        let index = rng.choice_index(n).unwrap_or(0);
        game.answer_at(index)?;
        answered += 1;
    }
}
