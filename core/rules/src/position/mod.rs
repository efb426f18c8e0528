//! The state as a position's JSON (Python's `plsim.engine.position.state_to_dict` and its stack
//! codec, `stack_codec`), both ways: a position saved by either engine loads in the other, and a
//! state read back from the core is the very dict the Python engine wrote. `write` turns the
//! state into JSON, `read` checks and reads it back.

mod read;
mod write;

use serde_json::Value;

use crate::board::Board;
use crate::cards::CardTable;
use crate::game::Game;
use crate::parts::InvaderPair;

/// The most seats a game has (MP-3: 2..6 players): the bound of a seat before the game's own is known.
pub(crate) const MAX_SEATS: usize = 6;

pub(crate) type Res<T> = Result<T, String>;

#[derive(Clone, Copy)]
pub struct Codec<'a> {
    pub board: &'a Board,
    pub cards: &'a CardTable,
    /// the seats a decoded value may name (0: not known yet, any seat of the largest game)
    pub players: usize,
    /// the loose pairs a decoded step may name by their invaders (a position written before
    /// pairs had ids)
    pub pairs: &'a [InvaderPair],
}

/// The game's state as `state_to_dict` JSON.
pub fn state_json(g: &Game) -> Value {
    Codec {
        board: &g.board,
        cards: &g.cards,
        players: g.state.players.len(),
        pairs: &[],
    }
    .state(&g.state)
}
