//! Pyloff: Go with stacking marbles (placeholder docs, written below).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use ploy_search::{Config, Limits, Score, SearchResult};

mod engine;
mod error;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod geometry;
mod notation;
mod position;
pub mod protocol;
mod record;
mod rules;
mod types;

pub use engine::{Engine, EvalParams, Evaluation, SearchPosition};
pub use error::{
    IllegalMove, IllegalMoveReason, OptionsError, ParseMoveError, ParsePositionError, RecordError,
    SetupError,
};
pub use geometry::{Cell, DEFAULT_SIZE, MAX_GRID, MAX_POINTS, MAX_SIZE, MIN_SIZE, Point, pyramid};
pub use position::{Group, Position, Setup, Undo};
pub use record::{Game, MoveListError, Record, RecordResult};
pub use types::{Move, Options, Outcome, Player, Players, RuleSet, Status};
