//! The integration tests of the crate, as one test binary (one link instead of one per
//! file); each file is a module.

mod common;
mod four_player;
mod four_player_properties;
mod game;
mod perft;
mod properties;
mod rules;
mod serde;
mod setup;
mod types;
mod zobrist;
