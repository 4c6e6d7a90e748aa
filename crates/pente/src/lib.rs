//! Pente: rules, notation, game records and an engine on `ploy-search`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod display;
pub mod engine;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod game;
pub mod options;
mod perft;
pub mod piskvork;
mod position;
pub mod protocol;
pub mod record;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod text;
mod types;
mod zobrist;

pub use engine::{
    Analysis, DifficultyError, Engine, EvalParams, Evaluation, Level, SearchPosition, Strength,
};
pub use game::Game;
pub use perft::perft;
pub use position::{IllegalMove, IllegalMoveError, Position, Undo};
pub use record::{GameResult, Record, RecordError, RecordErrorKind};
pub use text::{ParsePositionError, Setup, SetupError};
pub use types::{
    COLUMNS, Color, Move, Outcome, ParseColorError, ParsePointError, Point, Rules, Size, SizeError,
    WinReason,
};
pub use zobrist::ZOBRIST_SEED;

/// The search library's budgets, scores and progress reports, as the engine takes them.
pub use ploy_search::{Info, Limits, Score};
