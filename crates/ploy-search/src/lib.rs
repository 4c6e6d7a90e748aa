//! Search for Ploy, the 1970 3M strategy game: MTD(f) over a fail-soft zero-window
//! alpha-beta with memory, iterative deepening, a transposition table keeping both bounds,
//! move ordering, quiescence search, and a tunable evaluation.
//!
//! The search is written against a small trait, [`SearchGame`], which ploy-core's
//! [`ploy_core::Position`] implements; the test suite also runs it on toy games whose exact
//! values are known, and compares every configuration with a plain [`negamax`].
//!
//! # Example
//!
//! ```
//! use ploy_core::Position;
//! use ploy_search::{Config, Evaluation, Limits, Searcher};
//!
//! let pos = Position::new();
//! let mut searcher = Searcher::new(Config::default(), Evaluation::default());
//! let result = searcher.search(&pos, &[], &Limits::depth(3), |info| {
//!     println!("depth {} score {} nodes {}", info.depth, info.score, info.nodes);
//! });
//! let best = result.best_move.expect("the start position has moves");
//! assert!(pos.is_legal(best));
//! assert_eq!(result.depth, 3);
//! ```
//!
//! # Design
//!
//! - **Sides.** The search sees two sides ([`Side`]). It compares the side to move before and
//!   after each move instead of assuming they alternate, so a partnership game (teams as
//!   sides, a team that moves twice in a row) needs no change. Ploy's positions map seats
//!   0 and 2 to side 0, seats 1 and 3 to side 1. A four-player free-for-all needs a
//!   reduction (paranoid: the searching seat against a coalition of the others) once the
//!   rules exist.
//! - **Scores.** [`Score`] is an `i16`: evaluations within `±30000`, wins `32000 - plies`,
//!   losses the negation, so a quicker win is better. A position that repeats one on the
//!   search path or in the game history given to [`Searcher::search`] is a draw (0), whatever
//!   the game's draw rules say, so the engine does not walk in circles.
//! - **Table.** [`Table`]: 16-byte entries (full 64-bit key; lower and upper bound, move,
//!   depth, age packed in 64 bits), four to a 64-byte bucket, size in bytes (default
//!   16 MiB = 2^20 entries; 128 MiB gives 2^23). Entries for the same position and depth
//!   merge their bounds, as MTD(f) needs. Replacement prefers empty slots, then entries of
//!   earlier searches, then shallow ones. A stored move is checked with
//!   [`SearchGame::is_legal`] before it is played. Mate scores are stored relative to the
//!   node. The table belongs to one searcher (one thread): no sharing, no atomics.
//! - **Drivers.** [`Driver::Mtdf`] (default) runs zero-window searches from a first guess
//!   until the bounds meet; the guess is the score of the iteration two plies back, since
//!   Ploy's evaluation swings between odd and even depths ([`Config::guess_from_same_parity`]).
//!   [`Driver::AlphaBeta`] searches the full window, with principal variation search when
//!   [`Config::pvs`] is on.
//! - **Ordering.** The table move (tried before moves are generated), captures by most
//!   valuable victim / least valuable attacker, up to [`MAX_KILLERS`] killer moves per ply,
//!   then the history heuristic. Each part can be switched off in [`Config`].
//! - **Quiescence** searches captures below the horizon (stand pat allowed), at most
//!   [`Config::max_quiescence`] plies.
//! - **Forward pruning.** Late move reductions exist as an option, off by default: they
//!   change results, and a match has not yet shown them to be worth it (see the crate's
//!   report). With them off the search is exact: every driver and table setting returns the
//!   negamax value, which the tests check.
//! - **Budgets** ([`Limits`]): depth, nodes (checked at every node), soft and hard time, and
//!   a stop flag; the clock and the flag are polled every [`POLL_INTERVAL`] nodes, never by
//!   a timer thread. The clock is injectable ([`Clock`]). The answer is the best move of the
//!   last completed iteration, or a legal move chosen by ordering if none completed.
//! - **Progress**: an observer gets an [`Info`] after every completed iteration.
//! - **Determinism**: no randomness; a fresh searcher with a depth or node budget gives the
//!   same result every run.
//! - **Nodes** count every move made, in the main search and in quiescence.
//!
//! # Evaluation
//!
//! [`Evaluation`] holds [`EvalParams`]: material by kind, mobility by kind, advancement and
//! centralisation by kind, threats, commander safety (attacked, guarded) and tempo. It walks
//! each piece's lines once and generates no moves.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Score`], [`Side`], [`Config`], [`Driver`] and
//!   [`EvalParams`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod game;
mod limits;
mod ploy;
mod positions;
mod reference;
mod score;
mod search;
mod table;

pub use game::{Evaluator, MAX_MOVES, MoveBuffer, SearchGame, Side, Terminal};
pub use limits::{Clock, Limits, SystemClock};
pub use ploy::{EvalParams, EvalPosition, Evaluation};
pub use positions::{bench_positions, random_line, splitmix64};
pub use reference::negamax;
pub use score::Score;
pub use search::{
    Config, Driver, Info, MAX_DEPTH, MAX_KILLERS, MAX_PLY, POLL_INTERVAL, SearchResult, Searcher,
    nps,
};
pub use table::Table;

/// The hashes of a game's positions the search must know for repetitions: those since the
/// last capture, before the current one.
#[must_use]
pub fn game_history(game: &ploy_core::Game) -> Vec<u64> {
    let positions = game.positions();
    let since = positions.len() - 1 - game.plies_since_capture() as usize;
    positions[since..positions.len() - 1]
        .iter()
        .map(ploy_core::Position::hash)
        .collect()
}
