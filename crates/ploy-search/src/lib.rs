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
//! One call searches a game of any variant, with its repetition history ([`Engine`]):
//!
//! ```
//! use ploy_core::{Game, Rules};
//! use ploy_search::{Config, Engine, Limits};
//! use std::time::Duration;
//!
//! let mut game = Game::new(Rules::standard());
//! let mut engine = Engine::new(Config::default());
//! let limits = Limits::move_time(Duration::from_secs(1)).with_depth(3);
//! let mv = engine.best_move(&game, &limits).expect("the game goes on");
//! game.play(mv)?;
//! # Ok::<(), ploy_core::GameError>(())
//! ```
//!
//! Underneath, a [`Searcher`] searches any [`SearchGame`] and reports every iteration:
//!
//! ```
//! use ploy_core::Position;
//! use ploy_search::{Config, EvalPosition, Evaluation, Limits, Searcher};
//!
//! let pos = EvalPosition::new(Position::new());
//! let mut searcher = Searcher::new(Config::default(), Evaluation::default());
//! let result = searcher.search(&pos, &[], &Limits::depth(3), |info| {
//!     println!("depth {} score {} nodes {} pv {:?}", info.depth, info.score, info.nodes, info.pv);
//! });
//! let best = result.best_move.expect("the start position has moves");
//! assert!(pos.is_legal(best));
//! assert_eq!(result.depth, 3);
//! ```
//!
//! [`Position`](ploy_core::Position) itself also implements [`SearchGame`] and can be
//! searched the same way; [`EvalPosition`] wraps it with bitboards the evaluation keeps up to
//! date move by move, which makes the search several times faster. To respect a game's
//! repetitions, pass the game's history in the search game's own hashes,
//! [`GameHistory::history`]`(&pos, &game)` ([`Engine`] does all this for you).
//!
//! Every variant through one entry point: [`PloyGame::new`] (or [`Evaluation::game`]) picks
//! the right reduction (see Design, Sides), and [`PloyGame::history`] gives the history in
//! its hashes:
//!
//! ```
//! use ploy_core::{Position, Rules, Variant};
//! use ploy_search::{Config, Evaluation, Limits, PloyGame, Searcher};
//!
//! let pos = Position::start(Variant::FreeForAll, Rules::standard());
//! let mut searcher = Searcher::new(Config::default(), Evaluation::default());
//! let game: PloyGame = searcher.evaluator().game(pos.clone());
//! let result = searcher.search(&game, &[], &Limits::depth(2), |_| {});
//! assert!(pos.is_legal(result.best_move.unwrap()));
//! ```
//!
//! # Design
//!
//! - **Sides.** The search sees two sides ([`Side`]). It compares the side to move before and
//!   after each move instead of assuming they alternate, so a side may move several times in
//!   a row; the toy tree of the tests has such double moves. [`PloyGame::new`] reduces every
//!   variant to two sides:
//!   - *two-player*: the seats; [`EvalPosition`].
//!   - *partnership*: the teams (Green + Yellow side 0, Red + Blue side 1: seat parity, which
//!     is also what [`Position`](ploy_core::Position)'s own impl does); [`EvalPosition`],
//!     whose bitboards track teams. A player moves only the colours he controls, but every
//!     piece of a colour counts for its team: control passes only within a team (under
//!     the absorbed rule the partner controls the eliminated player's colour and plays his
//!     turns, so the team moves twice a round). The side to move is the team of the seat to
//!     move, which is the team of the player who moves it ([`ploy_core::Position::mover`]);
//!     captures are generated for that player. A won game's winners are a team: its parity
//!     is the winning side.
//!   - *free-for-all*: **paranoid search** ([`Paranoid`]): the player to move at the root
//!     (side 0) against a coalition of all the others (side 1), who are assumed to play
//!     against him alone; the coalition moves up to three times in a row. The root winning
//!     is a win; anybody else winning is a loss; **the root eliminated while the game goes
//!     on is a loss at once** (the search treats the position as decided: the root takes no
//!     more turns, so nothing after can help him; his colours then belong to his
//!     eliminator). Paranoid search is pessimistic (it plays safe rather than for
//!     opponents' mistakes) but exact as a two-sided search, so every driver, the table and
//!     the differential tests work unchanged. The root seat's key is mixed into the hash,
//!     so one table may serve searches for different seats.
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
//!   of the iteration two plies back, because Ploy's scores swing between odd and even
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
//!   the tests check on toy games and random Ploy positions.
//!
//!   **How the defaults were chosen.** Each switch (or group of related switches) of the
//!   final configuration played the same configuration with that switch the other way,
//!   with `ploy match` at 20,000 nodes a move, two games at a time, openings of 4 random
//!   plies each played with both colours, no no-capture limit and a draw at 400 plies,
//!   under an SPRT with elo0 = 0, elo1 = 10, alpha = beta = 0.05 on game pairs, stopped at
//!   its bound or after 800 games (2026-11-24 and 25; wins, draws and losses of the
//!   default setting, its Elo over the other with the 95 % interval):
//!   - late move reductions by the table, on: 260 games, +161 =32 -67, +132 Elo (+86 to
//!     +177), H1 accepted;
//!   - reverse futility pruning, on: 542 games, +287 =71 -184, +67 (+37 to +97), H1;
//!   - the alpha-beta driver (aspiration windows of 30, PVS) against MTD(f) with at most 8
//!     passes an iteration: 552 games, +287 =72 -193, +60 (+30 to +89), H1;
//!   - futility pruning with late move pruning, off: with them on, 390 games, +135 =28
//!     -227, -84 (-119 to -48), H0 accepted;
//!   - null-move pruning, on: 800 games, +358 =102 -340, +8 (-16 to +32), no bound; 800
//!     more (`--seed 301`), +361 =135 -304, +25 (+1 to +49); together 1,600 games, +16
//!     (+1 to +32);
//!   - counter moves with continuation history, on: 800 games, +349 =140 -311, +17 (-8 to
//!     +41), no bound (LLR 1.02);
//!   - internal iterative reductions, on: 800 games, +346 =133 -321, +11 (-13 to +35), no
//!     bound;
//!   - the check extension, off: with it on, 1,600 games in two runs of 800, +691 =206
//!     -703, -3 (-19 to +13), no bound: it did not earn its place (with internal
//!     reductions as a group: 800 games, -18, -42 to +6);
//!   - delta pruning with exchange pruning in quiescence, off: with them on, 800 games,
//!     +358 =100 -342, +7 (-17 to +31), no bound: no gain shown, so they stay off;
//!   - the static evaluation kept in the table ([`Config::table_eval`]), on: at a node
//!     budget it plays the same games (202 games, 99 of the 101 pairs the same, H0
//!     accepted at once), so the choice rests on the work it saves: under cachegrind,
//!     `bench --depth 7` (1,320,765 nodes either way) takes the same instructions (3.085
//!     billion) with 4 % fewer first-level data cache read misses (4.68 against 4.89
//!     million).
//!
//!   The rule where a test reached no bound: a switch that was on stays on if its score
//!   was above even, a switch that was off comes on only with the SPRT's H1. (The tests
//!   before the check extension's own ran with it on.) Commands: `ploy
//!   match --a full --b full:null_move=off --nodes 20000 --games 800 --sprt 0,10 -j 2
//!   --opening-plies 4 --no-capture-limit 0 --ply-cap 400 --seed 201`, and likewise for
//!   the others (`full:NAME=VALUE,...` as [`Config::set`] names them).
//!
//!   An earlier set (with the check extension on) against the same search with all of
//!   them off (MTD(f), only late move reductions), same conditions, SPRT completed: 430
//!   games, 222 wins, 78 draws, 130 losses, 60.7 %, +76 Elo (95 %: +42 to +109), H1.
//!
//!   The set as a whole against the engine before this work (a build of the search with
//!   only the flat late move reductions and MTD(f)), both engine programs over the engine
//!   protocol, 50 openings of 4 random plies with colours swapped, 100 ms a move,
//!   repetition draws on, no no-capture limit, draw at 400 plies: 100 games, 64 wins, 14
//!   draws, 22 losses, 71.0 %, +156 Elo (95 %: +81 to +230) (a build before the tuned
//!   evaluation weights). A build with the tuned weights and set-wise move generation
//!   (check extension still on) in the same match, 2026-11-24: 100 games, 80 wins, 5
//!   draws, 15 losses, 82.5 %, +269 Elo (95 %: +181 to +358). The final configuration
//!   above (check extension off, evaluation kept in the table), 2026-11-25, one game at a
//!   time: 100 games, 76 wins, 4 draws, 20 losses, 78.0 %, +220 Elo (95 %: +138 to +301);
//!   it used 73 ms and 197 k nodes a move, the old build 83 ms and 210 k. Command: `ploy
//!   match --a engine:NEW --b engine:OLD --games 100 --opening-plies 4 --time 100ms
//!   --no-capture-limit 0 --ply-cap 400 --seed 12 -j 1`.
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
//!   the win.
//! - **Options** ([`SearchOptions`], [`Searcher::search_with`]): only some root moves,
//!   several best lines (each a search of the root without the better lines' first moves;
//!   the root's table entry is not written by such restricted searches), a search for a
//!   forced win within a number of plies (without reductions, so what it finds is forced),
//!   and pondering (time budgets count from the moment a flag is raised).
//! - **Share of the win**: [`win_share`] turns a score into the mover's expected share of
//!   the win in percent (a logistic of the score for two sides; for free-for-all a
//!   Plackett–Luce model over the players still in play; see its docs).
//! - **Determinism**: no randomness; a fresh searcher (or one after [`Searcher::clear`])
//!   with a depth or node budget gives the same result every run.
//! - **Nodes** count every move made, in the main search and in quiescence.
//!
//! # Evaluation
//!
//! [`Evaluation`] holds [`EvalParams`]: material, mobility, advancement and centralisation by
//! kind, threats, commander safety (attacked, guarded) and tempo. It generates no moves.
//! The game types it evaluates ([`EvalPosition`], [`Paranoid`]) keep, move by move, the
//! squares each piece reaches (on a ten-squares-wide bitboard with a guard column): a move
//! computes again only the reach of the piece that moved and of the probes and lances whose
//! lines it opened or closed, and an undo log takes those back. An evaluation then gathers
//! the reach by kind only for the kinds a move touched (the others are cached, with their
//! mobility counts), so that it combines a few sets of squares instead of walking the
//! board. The code lives in the crate's `eval` module; the game adapters only call it.
//!
//! The default weights are fitted to self-play games by the `tune` example (logistic
//! regression) and beat the hand-set weights they replaced by +89 Elo (95 %: +55 to +123)
//! over 428 games at 20,000 nodes a move; [`EvalParams`] has the fit, the match and the
//! command to fit them again.
//!
//! In four-player games the same terms are summed over the two *groups* the search sees:
//! the teams of a partnership game, or in a free-for-all game every colour the root
//! controls (including colours he took over) against every other colour. Group members
//! count as one army: they block each other and are not counted as threatening each other
//! (true for partners; for the coalition an approximation). A group has a commander per
//! colour, each judged for safety. Placement uses the centre terms only (no advancement: the
//! seats sit on different edges and corners). Free-for-all scores are therefore root
//! against three: about −1900 in the start position. Both four-player groupings are kept up
//! to date move by move ([`EvalPosition`], [`Paranoid`]); a move that hands colours over or
//! takes a bare commander off the board rebuilds them.
//!
//! # Speed
//!
//! Measured figures (nodes per second, times to depth, the node counts of `bench`) are kept
//! in one place with the commands that measure them: `docs/speed.md` in the repository,
//! also in the facade crate's documentation as `ploy::docs::speed`.
//!
//! # Features
//!
//! - `serde`: `Serialize`/`Deserialize` for [`Score`], [`Side`], [`Config`], [`Driver`],
//!   [`EvalParams`] and [`SearchResult`] (its moves as university move strings).
//!
//! # Threads
//!
//! [`Searcher`] (for Ploy's games and evaluation) and [`Engine`] are [`Send`]: build one and
//! move it to a search thread, and stop it from another thread through the stop flag of
//! [`Limits`]. The clock is a `Clock + Send` for this reason. A compile-time check in the
//! crate (and a test) keeps them so.
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
//! The default stays one thread, because one thread is deterministic (the same search
//! every time, which tests, benchmarks and reproducible analysis need); engines and
//! programs set more with the `Threads` option or `--threads`. What two threads give on a
//! machine with two free cores, measured 2026-11-25 on a quiet machine: a match of two
//! threads against one (both the `engine` program over the engine protocol, `Threads` 2
//! against 1, 100 ms a move, 200 games of 4 random opening plies with colours swapped,
//! one game at a time, repetition draw on, no no-capture limit, a draw at 400 plies)
//! ended 104 wins, 33 draws, 63 losses for two threads: 60.2 %, +72 Elo (95 %: +23 to
//! +121); two threads searched 358 k nodes a move against 205 k, in 76 ms against 74.
//! Time to depth 10 over the bench positions: 1.98-2.06 s with one thread, 1.40-1.97 s
//! (median 1.75 s) with two. (An earlier match on a machine overloaded by other jobs,
//! 2026-11-24, showed nothing: 300 games, +2 Elo, -37 to +42.) The command:
//! `ploy match --a engine:target/release/examples/engine --a-option Threads=2 --b
//! engine:target/release/examples/engine --games 200 --sprt 0,10 --opening-plies 4
//! --time 100ms --no-capture-limit 0 --ply-cap 400 --seed 21 -j 1`.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod engine;
mod eval;
mod game;
mod info;
mod limits;
mod paranoid;
mod ploy;
mod ploy_game;
mod positions;
mod protocol;
mod reference;
mod score;
mod search;
mod share;
mod table;
mod tactics;

pub use engine::{Engine, GameHistory};
pub use eval::{EvalParams, Evaluation};
pub use game::{Evaluator, MAX_MOVES, MoveBuffer, SearchGame, Side, Terminal};
pub use limits::{Clock, Limits, SystemClock};
pub use paranoid::Paranoid;
pub use ploy::EvalPosition;
pub use ploy_game::PloyGame;
pub use positions::{bench_positions, random_line, splitmix64};
pub use reference::negamax;
pub use score::Score;
pub use search::{
    Config, ConfigError, Driver, Info, MAX_DEPTH, MAX_KILLERS, MAX_PLY, MAX_THREADS, POLL_INTERVAL,
    SearchOptions, SearchResult, Searcher, nps,
};
pub use share::{SHARE_SCALE, share_against, two_sided_share, win_share};
pub use table::Table;
