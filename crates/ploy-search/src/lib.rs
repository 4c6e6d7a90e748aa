//! A game-independent search for two-sided perfect-information games, and the small traits
//! a game implements to use it: alpha-beta with principal variation search in aspiration
//! windows (the default) or MTD(f), iterative deepening, a lock-free transposition table,
//! staged move ordering, quiescence, selective search switches, node/time/depth budgets and
//! Lazy SMP threads.
//!
//! This crate knows no game. Ploy's engine (`ploy-engine`), Pente (`pente`) and Pyloff
//! (`pyloff`) implement [`SearchGame`] and [`Evaluator`] for their games; the test suite runs
//! the search on toy games whose exact values are known and compares every configuration with
//! a plain [`negamax`].
//!
//! Games of three and four players can also be searched as they are, with a score for
//! every player: the [`multi`] module has paranoid search, Best-Reply Search and BRS+, and
//! Monte-Carlo tree search (UCT) over its own small game trait, [`multi::MultiGame`].
//!
//! # Example
//!
//! A game is a [`SearchGame`]; here, Nim with three stones (take one or two; who takes the
//! last stone wins):
//!
//! ```
//! use ploy_search::{Config, Limits, SearchGame, Searcher, Side, Terminal};
//!
//! #[derive(Clone)]
//! struct Nim { stones: u8, side: Side }
//!
//! impl SearchGame for Nim {
//!     type Move = u8;
//!     type Undo = ();
//!     type Moves = Vec<u8>;
//!     fn side(&self) -> Side { self.side }
//!     fn hash(&self) -> u64 { u64::from(self.stones) << 1 | self.side.0 as u64 }
//!     fn terminal(&self) -> Option<Terminal> {
//!         // The side to move has nothing left to take: the other side took the last stone.
//!         (self.stones == 0).then(|| Terminal::Win(self.side.other()))
//!     }
//!     fn generate(&self, moves: &mut Vec<u8>) {
//!         moves.extend((1..=2).filter(|&n| n <= self.stones));
//!     }
//!     fn generate_captures(&self, _: &mut Vec<u8>) {}
//!     fn is_legal(&self, mv: u8) -> bool { (1..=2).contains(&mv) && mv <= self.stones }
//!     fn is_capture(&self, _: u8) -> bool { false }
//!     fn capture_order(&self, _: u8) -> i32 { 0 }
//!     fn make(&mut self, mv: u8) { self.stones -= mv; self.side = self.side.other(); }
//!     fn unmake(&mut self, mv: u8, (): ()) { self.stones += mv; self.side = self.side.other(); }
//!     fn move_to_u16(mv: u8) -> u16 { u16::from(mv) }
//!     fn move_from_u16(code: u16) -> Option<u8> { u8::try_from(code).ok() }
//! }
//!
//! let nim = Nim { stones: 3, side: Side::FIRST };
//! let mut searcher = Searcher::new(Config::default(), |_: &Nim| 0);
//! let result = searcher.search(&nim, &[], &Limits::depth(4), |_| {});
//! // Three stones lose for the side to move: whatever it takes, the other takes the rest.
//! assert!(result.score.is_loss());
//! ```
//!
//! # Design
//!
//! - **Sides.** The search sees two sides ([`Side`]). It compares the side to move before and
//!   after each move instead of assuming they alternate, so a side may move several times in
//!   a row; the toy tree of the tests has such double moves. A game with more players reduces
//!   itself to two sides (Ploy's engine searches a free-for-all game as the player to move
//!   against the others, the paranoid reduction), or is searched by the [`multi`] module.
//! - **Scores.** [`Score`] is an `i16`: evaluations within `±30000`, wins `32000 - plies`,
//!   losses the negation, so a quicker win is better. A position that repeats one on the
//!   search path or in the game history given to [`Searcher::search`] is a draw (0), whatever
//!   the game's draw rules say, so the engine does not walk in circles. Only positions since
//!   the last capture are compared (a capture cannot be undone).
//! - **Table.** [`Table`]: 16-byte entries (lower and upper bound, move, depth and age
//!   packed in 64 bits; 48 bits of the key and the node's static evaluation in the other
//!   64; both sizes asserted at compile time), four to a 64-byte bucket, size in bytes
//!   (default 16 MiB = 2^20 entries; 128 MiB gives 2^23). The bucket is chosen by the key's
//!   high bits and the entry checks its low 48, so from 4 MiB on the whole key is checked.
//!   Entries for the same position and depth merge their bounds, as MTD(f) needs. Replacement
//!   prefers the same position, then empty slots, then entries of earlier searches, then
//!   shallow ones. A stored move is checked with [`SearchGame::is_legal`] before it is
//!   played. Win and loss scores are stored relative to the node. The static evaluation
//!   kept in the entry ([`Config::table_eval`]) spares a node met again its evaluation; a
//!   node that prunes before storing bounds stores its evaluation alone. Each slot is two
//!   atomic words, the data and the key XOR the data (beside the evaluation), read and
//!   written with relaxed atomics (plain loads and stores on 64-bit processors), so search
//!   threads can share one table without locks or `unsafe`, and a probe never returns an
//!   entry torn between two writes.
//! - **Drivers.** [`Driver::AlphaBeta`] (default) searches with principal variation search
//!   ([`Config::pvs`]) inside an aspiration window of [`Config::aspiration_window`] (default
//!   30) around the score of the iteration two plies back, widened on each failure; it gives
//!   full principal variations. [`Driver::Mtdf`] runs zero-window fail-soft alpha-beta
//!   searches from a first guess until the bounds meet, at most [`Config::mtdf_max_passes`]
//!   of them when that is set, then one search between the bounds. The guess is the score
//!   of the iteration two plies back, because scores swing (in Ploy, for example) between odd and even
//!   depths ([`Config::guess_from_same_parity`]).
//! - **Ordering** is staged: the table move (tried before any move is generated), then
//!   captures by most valuable victim and least valuable attacker (generated on their own),
//!   then up to [`MAX_KILLERS`] killer moves per ply (default 3, each checked for legality)
//!   and the counter move of the opponent's last move ([`Config::counter_moves`]), and only
//!   then the full move list, ordered by the history heuristic plus the continuation
//!   history of the last two moves ([`Config::continuation_history`]; history updates pull
//!   towards a bound and lower the moves that failed before a cutoff). The first three
//!   picks are by selection, the rest sorted once. A node that cuts off early never
//!   generates its quiet moves. Each part can be switched off in [`Config`].
//! - **Quiescence** searches captures below the horizon (standing pat allowed), at most
//!   [`Config::max_quiescence`] plies.
//! - **Selective search.** Each heuristic is a [`Config`] switch, generic over
//!   [`SearchGame`] (a game supplies the hints it can: [`SearchGame::in_check`],
//!   [`SearchGame::make_null`], [`SearchGame::capture_value`],
//!   [`SearchGame::exchange_value`], [`SearchGame::continuation_index`]; Ploy's two-player
//!   game supplies all, the four-player games none). Late move reductions by a table of
//!   depth and move number, less for a good history, killers, counter moves and moves that
//!   attack the commander, more off the principal variation and when the static evaluation
//!   is not improving; null-move pruning (not in check, not with fewer than three pieces
//!   beside the commander, verified by a reduced search at depth 10 and more); reverse
//!   futility pruning; internal iterative reductions where the table has no move. Off by
//!   default, because their matches below showed no gain: futility pruning, late move
//!   pruning, delta pruning and exchange pruning in quiescence, and a one-ply extension
//!   where the side to move's commander is attacked. With every selective switch
//!   off ([`Config::exact`], [`Config::without_selectivity`]) the search is exact: every
//!   driver and table setting returns the plain [`negamax`] value at the same depth, which
//!   the tests check on toy games (and ploy-engine's tests on random Ploy positions).
//!
//!   Every switch's default was chosen by a match of the final configuration against the
//!   same with that switch the other way; the matches, their commands and the rule for the
//!   undecided ones are in the repository's `docs/search-tuning.md` (also the facade crate's
//!   `ploy::docs::search_tuning`).
//! - **Evaluation cache.** Evaluations are cached by position hash
//!   ([`Config::eval_cache_bytes`], default 256 KiB, small enough to stay in the L2 cache;
//!   a larger one measured slower); MTD(f)'s repeated passes meet the same leaves again and
//!   again.
//! - **Budgets** ([`Limits`]): depth, nodes (checked at every node, so never exceeded), soft
//!   and hard time, and a stop flag; the clock and the flag are polled every
//!   [`POLL_INTERVAL`] nodes (well under a millisecond), never by a timer thread. The clock
//!   is injectable ([`Clock`]). The answer is the best move of the last completed iteration,
//!   or a legal move chosen by ordering if none completed.
//! - **Progress**: an observer gets an [`Info`] after every completed iteration, with the
//!   iteration's principal variation collected during the search (a triangular table: each
//!   node's best line is its best move followed by that child's line), never read back
//!   from the transposition table, so it is never stale and never longer than the depth
//!   plus the quiescence plies; it ends early where a node took its value from the table.
//!   Its text (`Display`) also says whose view the score takes and the mover's share of
//!   the win ([`SearchGame::view`], [`SearchGame::win_share`]).
//! - **Options** ([`SearchOptions`], [`Searcher::search_with`]): only some root moves,
//!   several best lines (each a search of the root without the better lines' first moves;
//!   the root's table entry is not written by such restricted searches), a search for a
//!   forced win within a number of plies (without reductions, so what it finds is forced),
//!   and pondering (time budgets count from the moment a flag is raised).
//! - **Share of the win**: [`two_sided_share`] turns a score into the mover's expected
//!   share of the win in percent (a logistic of the score); [`share_against`] generalises it
//!   to several opponents (a Plackett–Luce model).
//! - **Determinism**: no randomness; a fresh searcher (or one after [`Searcher::clear`])
//!   with a depth or node budget gives the same result every run.
//! - **Nodes** count every move made, in the main search and in quiescence.
//!
//! # Text helpers
//!
//! Every game's parsers and programs, and the server, quote their input in error messages
//! through [`Excerpt`] and read durations through [`parse_duration`]: small helpers that know
//! nothing of the search, kept here because every game crate depends on this one.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Score`], [`Side`], [`Config`], [`Driver`] and
//!   [`SearchResult`].
//!
//! # Threads
//!
//! [`Searcher`] is [`Send`] when its game and evaluator are: build one and move it to a search
//! thread, and stop it from another thread through the stop flag of [`Limits`]. The clock is a
//! `Clock + Send` for this reason.
//!
//! A search can also use several threads: [`Config::threads`] (or
//! [`Searcher::set_threads`]) above 1 searches by *Lazy SMP*. The caller's thread searches
//! as with one thread, and `threads - 1` helper threads (started for each search, each with
//! its own killers, history and evaluation cache, kept from search to search) search the
//! same root at the same time, all sharing the one table. The helpers skip some depths, each
//! by its own pattern, so they run ahead of the main thread and leave deeper entries in the
//! table for it; nothing else passes between the threads. Only the main thread's iterations
//! are reported and returned; the node counts are summed over all threads, and a node
//! budget bounds that sum. The helpers stop when the main thread does.
//!
//! Soundness: the table's slots are pairs of atomic 64-bit words (the data, and the key's
//! low 48 bits XOR the data's beside the static evaluation) read and written with relaxed
//! atomics, so there is no data race and no `unsafe` (the crate forbids it); a probe takes
//! a slot only when the two words XOR to the probed key's bits, which rejects a slot torn
//! between two threads' writes (a stress test in
//! `table.rs` checks that four threads hammering one bucket never see one). A race can lose
//! an update, which costs a little search, never a wrong move: a stored move is still
//! checked for legality. With one thread (the default) nothing of this runs and the search
//! stays deterministic: the same position, history and limits give the same result.
//!
//! The default stays one thread, because one thread is deterministic; the match of two
//! threads against one is in `docs/search-tuning.md`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod game;
mod info;
mod level;
mod limits;
pub mod multi;
mod reference;
mod rng;
mod score;
mod search;
mod share;
mod table;
mod text;
pub mod tuning;

pub use game::{Evaluator, MAX_MOVES, MoveBuffer, SearchGame, Side, Terminal};
pub use level::{Level, LevelError, LevelRng, choose_within};
pub use limits::{Clock, Limits, SystemClock};
pub use reference::negamax;
pub use rng::splitmix64;
pub use score::Score;
pub use search::{
    Config, ConfigError, Driver, Info, MAX_DEPTH, MAX_KILLERS, MAX_PLY, MAX_THREADS, POLL_INTERVAL,
    SearchOptions, SearchResult, Searcher, nps,
};
pub use share::{SHARE_SCALE, share_against, two_sided_share};
pub use table::Table;
pub use text::{DurationError, DurationMode, Excerpt, excerpt, parse_duration};
