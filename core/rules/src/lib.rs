//! The rules of Promised Land as plsim plays them: the board and cards, the game state and its
//! pending steps, every phase's rules, positions and the invariants. It depends on no crate of
//! plsim's: the players (plsim-agents) and the Python binding (plsim-core) sit on top of it.

pub mod arithmetic;
pub mod board;
pub mod cardplay;
pub mod cards;
pub mod combat;
pub mod dice;
pub mod effects;
pub mod eligible;
pub mod flow;
pub mod game;
pub mod invariants;
pub mod movement;
pub mod options;
pub mod parts;
pub mod phase;
pub mod phases;
pub mod position;
pub mod reposed;
pub mod rng;
pub mod rule_calls;
pub mod rules;
pub mod scoring;
pub mod setup;
pub mod state;
pub mod steps;
pub mod titles;
pub mod turns;
