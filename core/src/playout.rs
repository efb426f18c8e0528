//! Play-outs that need no Python: the game played on by a native policy, answering every
//! decision itself, to the end or to a limit (the forward model's hot loop).

use crate::game::Game;
use crate::steps::Pending;

/// A play-out policy's own generator: SplitMix64, cheap to seed (a play-out's answers need no
/// CPython stream; the game's dice keep theirs).
#[derive(Clone, Debug)]
pub struct PolicyRng(u64);

impl PolicyRng {
    pub fn new(seed: u64) -> PolicyRng {
        PolicyRng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (n > 0), without bias (Lemire's multiply and reject).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = (self.next() as u128) * (n as u128);
            if (product as u64) >= threshold {
                return (product >> 64) as usize;
            }
        }
    }
}

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
pub fn random_playout(game: &mut Game, rng: &mut PolicyRng, until: Until) -> Result<u64, crate::game::EngineError> {
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
        let index = rng.below(n);
        game.answer_at(index)?;
        answered += 1;
    }
}
