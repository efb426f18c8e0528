//! plsim's native players, on top of its rules (plsim-rules): the scripted strategies, the
//! play-outs and their policies, the search tree, the evaluation, determinised worlds and the
//! invaders' forecasts.

pub mod determinise;
pub mod evaluation;
pub mod forecast;
pub mod playout;
pub mod policy;
pub mod scripted;
pub mod tree;
