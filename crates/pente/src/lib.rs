//! Pente (Gary Gabrel, 1977) on boards of 7x7 to 19x19: rules, notation, position
//! strings, game records, a text board, and an engine built on the workspace's generic
//! search, `ploy-search`.
//!
//! Two players place stones in turn, White first on the centre; a player who brackets
//! exactly two enemy stones in a line captures them; five or more in a row, or ten captured
//! stones, wins. The rules as played here, the text forms and the programs are described in
//! the workspace's `docs/pente.md`.
//!
//! # Example
//!
//! ```
//! use pente::{Color, Engine, Game, Limits, Outcome, Rules, Size, Strength, WinReason};
//!
//! // A game on 9x9: White captures a pair, then the engine answers.
//! let mut game = Game::new(Rules::new(Size::S9));
//! for m in ["E5", "F5", "B2", "G5", "H5"] {
//!     game.play(m.parse()?)?;
//! }
//! assert_eq!(game.position().captures(Color::White), 2); // F5 and G5 are gone
//! assert_eq!(game.position().to_string(), "9/9/9/9/4w2w1/9/9/1w7/9 b 2 0 t");
//!
//! let mut engine = Engine::new(Strength::Full);
//! let answer = engine.search(game.position(), &Limits::depth(4), |_| {});
//! let reply = answer.best_move.expect("the game goes on");
//! assert!(game.position().is_legal(reply));
//! game.play(reply)?;
//!
//! // Five in a row wins.
//! let won = pente::Position::from_moves(
//!     Rules::new(Size::S9),
//!     &["E5", "A9", "B5", "B9", "C5", "C9", "D5", "D9", "F5"].map(|m| m.parse().unwrap()),
//! )
//! .map_err(|(_, e)| e)?;
//! assert_eq!(won.outcome(), Some(Outcome::Win { winner: Color::White, reason: WinReason::Five }));
//! assert!(won.legal_moves().is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Overview
//!
//! - [`Point`], [`Move`] (`K10`), [`Size`], [`Rules`] (size and tournament rule),
//!   [`Color`], [`Outcome`]: small values with `FromStr`/`Display`.
//! - [`Position`]: the board (a padded array, see below), captures, turn, outcome; legal
//!   moves, checked [`Position::play`], [`Position::make`]/[`Position::unmake`] with an
//!   incremental Zobrist hash; the position string ([`text`]); [`perft`].
//! - [`Game`]: moves from the empty board with undo; [`Record`]: game records ([`record`]).
//! - [`Engine`]: full strength, a [`Level`] 1 to 8 ([`LevelParams`] for what each does), or
//!   a narrowed search of the 2018 program ([`Ladder`]), with budgets ([`Limits`]) and a
//!   seed; [`SearchPosition`] and [`Evaluation`] plug Pente into
//!   `ploy-search` for those who drive the searcher themselves.
//! - [`json_lines`]: the `moves`/`analyze` line protocols; [`piskvork`]: the Gomocup brain
//!   protocol; [`options`]: the 2018 program's options; [`display`]: the text board.
//!
//! # Choices where the rule book is silent
//!
//! - Notation as on pente.org: columns `A` to `T` without `I`, rows from 1 at the bottom.
//! - A full board without a winner is a draw; after the end no move is legal.
//! - Captured stones are counted in stones (ten wins), however many pairs one move takes.
//! - **Board representation.** A padded array: `(S + 8)` rows of `S + 4` cells, four guard
//!   cells around the board (shared between the right and left edges), so that the engine's
//!   line patterns, which look four points each way, and the capture test need no bounds
//!   checks. Legal move generation, five and capture tests walk the array; the engine keeps
//!   cell sets (64-bit words) of the points that matter.
//! - **Hashing.** Zobrist keys from SplitMix64 seeded with [`ZOBRIST_SEED`]: one key per
//!   colour and point (by [`Point::code`]), one per colour and capture count, one for Black
//!   to move. The keys and the recipe are part of the stable API. Since the number of moves
//!   played equals the stones on the board plus the stones captured, the hash also tells
//!   the move number, and no position can repeat.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for points and moves (as `"K10"`), colours, sizes,
//!   rules, outcomes, positions (as position strings), records, levels and strengths.
//! - `fuzzing`: exposes `pente::fuzzing`, the bodies of the fuzz targets (not a stable API).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod book;
pub mod display;
pub mod engine;
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
mod game;
pub mod json_lines;
pub mod options;
mod perft;
pub mod piskvork;
mod position;
pub mod record;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod text;
mod types;
mod zobrist;

pub use engine::{
    Analysis, DifficultyError, Engine, EvalParams, EvalTerms, Evaluation, Ladder, LevelParams,
    SearchPosition, Strength, Tuning, level_of_difficulty,
};
pub use game::Game;
pub use perft::perft;
/// A bot's playing strength, 1 to 8 (the type every game shares; see [`Strength::Level`]).
pub use ploy_search::{Level, LevelError};
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
