//! Play-outs that need no Python: the game played on by a native policy, answering every
//! decision itself, to the end or to a limit (the forward model's hot loop).

use crate::evaluation::{position_value, Weights};
use crate::policy::{Players, Policy, PolicyRng};
use plsim_rules::flow;
use plsim_rules::game::{EngineError, Game};
use plsim_rules::parts::Seat;
use plsim_rules::steps::Pending;

/// Where a play-out stops: at the first decision past `last_round`, after `decisions` answers,
/// or before a decision of `seat` (a search's own, for its tree); at the game's end in any case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Until {
    pub last_round: i64,
    pub decisions: u64,
    pub seat: Option<Seat>,
}

impl Until {
    /// The game's end.
    pub const END: Until = Until {
        last_round: i64::MAX,
        decisions: u64::MAX,
        seat: None,
    };

    /// The end of round `last_round` (its Victory Check closed) or `decisions` answers.
    pub fn horizon(last_round: i64, decisions: u64) -> Until {
        Until {
            last_round,
            decisions,
            seat: None,
        }
    }
}

/// Answer every decision with `policy`, drawing from a generator seeded with `seed` (which also
/// seeds the strategies' own, as Python's `Policies` does), until `until`; the decisions answered.
pub fn playout(game: &mut Game, policy: Policy, seed: u64, until: Until) -> Result<u64, EngineError> {
    play_on(game, &mut Players::new(policy, seed), &mut PolicyRng::new(seed), until)
}

/// Answer every decision with `players`, drawing from `rng`, until `until`; the decisions
/// answered (a search's iteration plays on with the same players after its tree's steps).
pub fn play_on(game: &mut Game, players: &mut Players, rng: &mut PolicyRng, until: Until) -> Result<u64, EngineError> {
    let mut answered = 0;
    loop {
        flow::advance(game)?;
        if answered >= until.decisions || game.state.round > until.last_round {
            return Ok(answered);
        }
        let Some(Pending::Ask(ask)) = game.state.pending.last() else {
            return Ok(answered);
        };
        if until.seat == Some(ask.decision.seat) {
            return Ok(answered);
        }
        let index = players.choose(game, &ask.decision, rng);
        flow::answer_at(game, index)?;
        answered += 1;
    }
}

/// A search's simulations from one world: per candidate (an option's index, or None for the
/// world as it is), a copy with the candidate applied, played by `policy` to `until` from a
/// generator seeded with `seed` (the same for every candidate: common random numbers), and the
/// position's value for `seat` there.
pub fn simulate(
    world: &Game,
    seat: Seat,
    candidates: &[Option<usize>],
    seed: u64,
    policy: Policy,
    until: Until,
    weights: &Weights,
) -> Result<Vec<f64>, EngineError> {
    candidates
        .iter()
        .map(|candidate| {
            let mut copy = world.copy(false);
            if let Some(index) = candidate {
                flow::answer_at(&mut copy, *index)?;
            }
            playout(&mut copy, policy, seed, until)?;
            Ok(position_value(&copy, seat, weights))
        })
        .collect()
}
