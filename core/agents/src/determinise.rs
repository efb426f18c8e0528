//! A seat's view of the game dealt into a world (VW-1): a copy in which everything the seat
//! cannot see is dealt anew from a generator, drawing from it exactly as CPython's `random`
//! would, whether that generator lives in Python (`py_table`'s `PyWords`) or in the core
//! (`rng::CpythonRandom`, a native strategy's forecasts). One home for both, so that both deal the
//! same world from the same stream.

use std::convert::Infallible;

use smallvec::SmallVec;

use plsim_rules::cards::{Card, Category};
use plsim_rules::dice::Dice;
use plsim_rules::flow;
use plsim_rules::game::{EngineError, Game};
use plsim_rules::parts::Seat;
use plsim_rules::rng::CpythonRandom;
use plsim_rules::steps::Pending;

/// A generator determinise draws from: CPython's `shuffle` and `getrandbits(64)`.
pub trait Words {
    type Error;

    /// `shuffle(items)`; `later` outputs are surely drawn after it (a source that fetches its
    /// outputs in batches fetches no more than that).
    fn shuffle<T: Clone>(&mut self, items: &mut [T], later: usize) -> Result<(), Self::Error>;

    /// `getrandbits(64)`, the last draw.
    fn getrandbits_64(&mut self) -> Result<u64, Self::Error>;
}

impl Words for CpythonRandom {
    type Error = Infallible;

    fn shuffle<T: Clone>(&mut self, items: &mut [T], _later: usize) -> Result<(), Infallible> {
        CpythonRandom::shuffle(self, items);
        Ok(())
    }

    fn getrandbits_64(&mut self) -> Result<u64, Infallible> {
        // 64 bits are always drawn: the `None` of a wider request never comes
        Ok(self.getrandbits(64).unwrap_or_default())
    }
}

/// A copy of `game` in which everything `seat` cannot see is dealt anew from `words`: the other
/// hands (each keeps its size, filled from the one-use cards the seat has not seen, sorted
/// first), the deck's order, and the game's generator (`random.Random(getrandbits(64))`). Its
/// card records are dropped. A decision pending for another seat whose options read that
/// seat's hand is posed anew.
pub fn determinise<W: Words>(game: &Game, seat: Seat, words: &mut W) -> Result<Result<Game, EngineError>, W::Error> {
    let (s, cards) = (&game.state, &*game.cards);
    // every list sized up front: growing them cost a reallocation each
    let others = || {
        s.players
            .iter()
            .enumerate()
            .filter(|(i, _)| *i as Seat != seat)
            .map(|(_, p)| p)
    };
    let in_other_hands: usize = others().map(|p| p.hand.len()).sum();
    let mut hidden: Vec<Card> = Vec::with_capacity(in_other_hands + s.deck.len());
    for player in others() {
        hidden.extend(player.hand.iter().copied());
    }
    hidden.extend(
        s.deck
            .iter()
            .copied()
            .filter(|c| cards.category(*c) == Category::OneUse),
    );
    cards.sort_by_name(&mut hidden);
    let mut rest: Vec<Card> = Vec::with_capacity(s.deck.len());
    rest.extend(
        s.deck
            .iter()
            .copied()
            .filter(|c| cards.category(*c) != Category::OneUse),
    );
    cards.sort_by_name(&mut rest);
    // the deck keeps its size; its shuffle and the seed's two words surely follow this one
    words.shuffle(&mut hidden, s.deck.len().saturating_sub(1) + 2)?;
    let mut deck: Vec<Card> = Vec::with_capacity(s.deck.len());
    deck.extend_from_slice(&hidden[in_other_hands..]);
    deck.extend(rest);
    words.shuffle(&mut deck, 2)?;
    let seed = words.getrandbits_64()?;
    let halves = [seed as u32, (seed >> 32) as u32];
    // copied only now, with its new dice: the old generator's state is never copied
    let dice = Dice::Unseeded(SmallVec::from_slice(&halves[..if seed >> 32 == 0 { 1 } else { 2 }]));
    let mut copy = game.copy_with(false, dice);
    let mut dealt = hidden.into_iter();
    for i in 0..copy.state.players.len() {
        if i as Seat != seat {
            let size = copy.state.players[i].hand.len();
            copy.state.player_mut(i as Seat).hand = dealt.by_ref().take(size).collect();
        }
    }
    copy.state.deck = deck;
    let repose = match copy.state.pending.last() {
        Some(Pending::Ask(ask)) if ask.decision.seat != seat => ask.again.clone(),
        _ => None,
    };
    if let Some(again) = repose {
        copy.state.pending.pop();
        copy.push(again);
        copy.state.decisions -= 1; // it is counted again when posed
        if let Err(e) = flow::advance(&mut copy) {
            return Ok(Err(e));
        }
    }
    Ok(Ok(copy))
}
