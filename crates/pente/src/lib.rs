//! Pente: rules, notation, game records and an engine on `ploy-search`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[allow(dead_code)] // the engine's accessors arrive with the engine
mod position;
pub mod text;
mod types;
mod zobrist;

pub use position::{IllegalMove, IllegalMoveError, Position, Undo};
pub use text::{ParsePositionError, Setup, SetupError};
pub use types::{
    COLUMNS, Color, Move, Outcome, ParseColorError, ParsePointError, Point, Rules, Size, SizeError,
    WinReason,
};
pub use zobrist::ZOBRIST_SEED;
