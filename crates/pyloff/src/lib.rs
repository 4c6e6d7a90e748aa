//! Pyloff, Cameron Browne's game of 2006: Go played with marbles that stack into a pyramid,
//! for two to four players. Rules, notation, game records and a bot on the workspace's
//! generic search (`ploy-search`).
//!
//! A board of size `n` (2 to 13) is the base of a pyramid of `n(n+1)(2n+1)/6` points. Players
//! place marbles on the board or on four occupied points; groups without a freedom are
//! captured and taken off from the top down, except pieces that something staying rests on;
//! pieces two levels under another are buried and link nothing; an enemy overpass cuts the
//! link it crosses; there is no voluntary pass, and the game ends when nobody can place. The
//! player with the most pieces on the board wins. Three rule sets: default (freedoms on the
//! board only), `all_freedoms` and `cut_down`. The full rules, the notation, the position
//! string, the record format and the programs' JSON are in the repository's `docs/pyloff.md`.
//!
//! # Example
//!
//! ```
//! use pyloff::{Engine, Game, Limits, Move, Options, RuleSet, Status};
//!
//! // A game on a 5 x 5 board for three players under the all-freedoms rules.
//! let options = Options::new(5, 3, RuleSet::AllFreedoms)?;
//! let mut game = Game::from_moves(options, "c3 e5 g7")?;
//! assert_eq!(game.position().to_move().number(), 1);
//!
//! // Moves are cells of one grid: level-1 points sit between the board points.
//! let legal = game.position().legal_moves();
//! assert!(legal.contains(&"a1".parse()?));
//! assert!(!legal.contains(&"d4".parse()?)); // d4 does not rest on four pieces yet
//!
//! // The bot, with a budget (depth, nodes, time, or a stop flag).
//! let mut engine = Engine::new();
//! let answer = engine.search(&game, &Limits::depth(2));
//! let mv: Move = answer.best_move.expect("the game goes on");
//! game.play(mv)?;
//!
//! // A record: written, read back and replayed.
//! let record: pyloff::Record = game.record().to_string().parse()?;
//! assert_eq!(record.replay()?, game);
//! assert_eq!(game.position().status(), Status::Place);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Design
//!
//! - [`Cell`] and [`Move`] are the notation (`c3`, `swap`, `pass`) through `FromStr` and
//!   `Display`; [`Point`] names a point by level and coordinates.
//! - [`Position`] holds the pieces of every level, the player to move and the number of moves
//!   made; [`Position::play`] checks a move and leaves the position unchanged when it is
//!   illegal; [`Position::unmake`] takes it back exactly, Zobrist hash included. Its
//!   [`Status`] says whether the player to move places, must pass, or the game is over. The
//!   position string is its `Display`/`FromStr`; [`Setup`] builds one from pieces.
//! - [`Game`] adds the moves with their players, undo and the history of hashes; [`Record`]
//!   is the text record, [`Record::replay`] checks it.
//! - [`Engine`] is the bot ([`SearchPosition`] implements `ploy_search::SearchGame`,
//!   [`Evaluation`] its evaluator): two players as the search's two sides, three and four
//!   players by `ploy_search::multi`'s BRS+ on [`MultiPosition`] (four players) or the
//!   paranoid reduction (three) by default ([`multi::default_search`]), or as
//!   [`Engine::set_search_kind`] chooses by Best-Reply Search or MCTS (module [`multi`]); [`Level`] 1 to 8 ([`Engine::set_level`],
//!   [`LevelParams`]) makes it weaker, seeded ([`Engine::set_seed`]). [`json_lines`] holds the line protocols of the `moves`
//!   and `analyze` programs.
//! - Group bookkeeping: an analysis of each board's groups and freedoms, cached per thread,
//!   decides most candidate moves without trying them; captures re-walk only the groups a
//!   placement can change.
//!
//! # Programs
//!
//! The `ploy` program of the workspace's facade crate runs them: `ploy pyloff <name> ...`
//! (`cargo run --release -- pyloff <name> ...` in the repository): `play` (people and bots in
//! the terminal), `moves` and `analyze` (one game a line in, one JSON object a line out), `match`
//! (the bot against random, greedy or depth-2 players), `bench` (search speed).
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Player`], [`Players`], [`RuleSet`], [`Options`]
//!   (checked), [`Point`], [`Cell`] and [`Move`] (as text), [`Outcome`], [`Status`],
//!   [`Record`], [`RecordResult`] and [`EvalParams`].
//! - `fuzzing`: exposes `fuzzing`, the bodies of the cargo-fuzz targets (not a stable API).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use ploy_search::{Config, Limits, Score, SearchResult};

mod engine;
mod error;
mod eval;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod geometry;
pub mod json_lines;
pub mod multi;
mod notation;
mod position;
mod record;
mod rules;
mod types;

pub use engine::{Engine, LevelParams, SearchPosition};
pub use error::{
    IllegalMove, IllegalMoveReason, OptionsError, ParseMoveError, ParsePositionError, RecordError,
    SetupError,
};
pub use eval::{EvalParams, Evaluation, PlayerTerms};
pub use geometry::{Cell, DEFAULT_SIZE, MAX_GRID, MAX_POINTS, MAX_SIZE, MIN_SIZE, Point, pyramid};
pub use multi::MultiPosition;
/// A bot's playing strength, 1 to 8 (the type every game shares; see [`Engine::set_level`]).
pub use ploy_search::{Level, LevelError};
pub use position::{Group, Position, Setup, Undo};
pub use record::{Game, MoveListError, Record, RecordResult};
pub use types::{Move, Options, Outcome, Player, Players, RuleSet, Status};
