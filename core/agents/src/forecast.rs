//! What a pair of invaders would do: its path along the ring played on a copy of the game with
//! the engine's own steps (the battle, its dice, the attrition, the raze, the jump to the next
//! settlement), Combat after Combat, nobody else acting between them but for the troops the
//! caller says a victim buys before it is struck. Battle cards are passed and the Sandstorm is
//! left out.

use plsim_rules::arithmetic::{invader_strength, pair_target, standing_judge_regions};
use plsim_rules::board::Sid;
use plsim_rules::cards::FORECAST_INVADER;
use plsim_rules::dice::Dice;
use plsim_rules::flow;
use plsim_rules::game::{EngineError, Game};
use plsim_rules::options::{Opt, Purchase};
use plsim_rules::parts::{InvaderPair, Seat};
use plsim_rules::phases::{buy, troop_offered};
use plsim_rules::steps::{Names, Pending, Step};

/// One attack of the pair: where, whose, with what strength (W-4), and whether it razed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strike {
    pub sid: Sid,
    pub owner: Option<Seat>,
    pub strength: i64,
    pub razed: bool,
}

/// The attacks of one pair played on a copy of `game` with `dice`: the loose pair `pair` (its id),
/// or a new pair of the rule's troops aimed first at `first` (W-3). At most `steps` attacks;
/// before each, up to `wanted(sid, step)` troops are bought for the settlement struck, as far as
/// Acquisitions would offer them. The other loose pairs are left out. Returns the strikes and
/// whether the last raze collapsed the land (V-2).
pub fn invader_path<E>(
    game: &Game,
    dice: Dice,
    first: Option<Sid>,
    pair: Option<i64>,
    steps: usize,
    mut wanted: impl FnMut(Sid, usize) -> Result<i64, E>,
) -> Result<Result<(Vec<Strike>, bool), EngineError>, E> {
    let mut copy = game.clone();
    copy.logging = false;
    copy.events.clear();
    copy.rng = dice;
    copy.state.pending.clear();
    copy.state.battle = None;
    copy.state.storm = false;
    let loose = match &pair {
        None => {
            let n = copy.rules.invaders_per_pair.max(0) as u8;
            let names: Names = (0..n).map(|i| FORECAST_INVADER + i).collect();
            let troops = names.iter().map(|_| copy.rules.invader_troops).collect();
            InvaderPair {
                id: copy.state.pairs_released,
                names,
                troops,
                at: None,
                target: first,
            }
        }
        Some(id) => match copy.state.pairs.iter().find(|p| p.id == *id) {
            Some(p) => p.clone(),
            None => return Ok(Ok((Vec::new(), false))),
        },
    };
    let id = loose.id;
    copy.state.pairs = vec![loose];
    let mut strikes = Vec::new();
    let mut collapsed = false;
    for step in 0..steps {
        let Some(p) = copy.state.pair_slot(id) else {
            break;
        };
        let Some(target) = pair_target(&copy.state, &copy.board, &copy.state.pairs[p]) else {
            break;
        };
        let owner = copy.state.settlements[target as usize].owner;
        let want = wanted(target, step)?;
        if let Some(seat) = owner {
            for _ in 0..want {
                if !troop_offered(&copy, seat, target) {
                    break;
                }
                if let Err(e) = buy(&mut copy, seat, Purchase::Troop, target, None) {
                    return Ok(Err(e));
                }
            }
        }
        let strength = invader_strength(&copy.rules, &copy.state.pairs[p].troops);
        copy.push(Step::InvadersAttack { pairs: Some(vec![id]) });
        if let Err(e) = play_out(&mut copy) {
            return Ok(Err(e));
        }
        let razed = !copy.state.settlements[target as usize].standing;
        strikes.push(Strike {
            sid: target,
            owner,
            strength,
            razed,
        });
        if !razed {
            break;
        }
        if standing_judge_regions(&copy.state, &copy.board, &copy.rules, None) < copy.rules.min_judge_regions {
            collapsed = true;
            break;
        }
    }
    Ok(Ok((strikes, collapsed)))
}

/// Run the pending work to its end, passing (or taking the first option) where asked.
fn play_out(copy: &mut Game) -> Result<(), EngineError> {
    while !copy.state.pending.is_empty() {
        flow::run(copy, 0)?;
        if let Some(Pending::Ask(ask)) = copy.state.pending.last() {
            let index = ask.decision.options.iter().position(|o| *o == Opt::Pass).unwrap_or(0);
            flow::answer_at(copy, index)?;
        }
    }
    Ok(())
}
