//! Ploy's engine on the generic search of `ploy-search`: the evaluation, Ploy's positions as
//! search games (two-player and partnership games as two sides, free-for-all games by the
//! paranoid reduction, or as a game of four players for the multi-player searches of
//! [`ploy_search::multi`]), the tactical hints of the selective search, the bench positions,
//! the share of the win, and [`Engine`], the one object that searches a [`ploy_core::Game`]
//! of any variant.
//!
//! # Example
//!
//! One call searches a game of any variant, with its repetition history ([`Engine`]):
//!
//! ```
//! use ploy_core::{Game, Rules};
//! use ploy_engine::Engine;
//! use ploy_search::{Config, Limits};
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
//! A weaker opponent: [`Level`] 1 (weakest) to 8 (full strength, the default). Levels 1 to
//! 7 search less and err on purpose ([`LevelLimits`] has the table); their choices are
//! seeded, so the same game and seed replay the same moves:
//!
//! ```
//! use ploy_core::{Game, Rules};
//! use ploy_engine::{Engine, Level};
//! use ploy_search::Limits;
//!
//! let game = Game::new(Rules::standard());
//! let mut engine = Engine::default().with_level(Level::new(2)?).with_seed(42);
//! let mv = engine.best_move(&game, &Limits::nodes(20_000)).expect("the game goes on");
//! assert!(game.is_legal(mv));
//! # Ok::<(), ploy_engine::LevelError>(())
//! ```
//!
//! Underneath, a [`ploy_search::Searcher`] searches any [`ploy_search::SearchGame`] and
//! reports every iteration:
//!
//! ```
//! use ploy_core::Position;
//! use ploy_engine::{EvalPosition, Evaluation};
//! use ploy_search::{Config, Limits, Searcher};
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
//! A [`PlainPosition`] (a [`ploy_core::Position`] as it is) can be searched the same way;
//! [`EvalPosition`] wraps the position with bitboards the evaluation keeps up to
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
//! use ploy_engine::{Evaluation, PloyGame};
//! use ploy_search::{Config, Limits, Searcher};
//!
//! let pos = Position::start(Variant::FreeForAll, Rules::standard());
//! let mut searcher = Searcher::new(Config::default(), Evaluation::default());
//! let game: PloyGame = searcher.evaluator().game(pos.clone());
//! let result = searcher.search(&game, &[], &Limits::depth(2), |_| {});
//! assert!(pos.is_legal(result.best_move.unwrap()));
//! ```
//!
//! # The games the search sees
//!
//! [`PloyGame::new`] reduces every variant to the two sides ploy-search knows
//! ([`ploy_search::Side`]):
//!   - *two-player*: the seats; [`EvalPosition`].
//!   - *partnership*: the teams (Green + Yellow side 0, Red + Blue side 1: seat parity, which
//!     is also what [`PlainPosition`] does); [`EvalPosition`],
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
//!     so one table may serve searches for different seats. **In best-reply mode**
//!     ([`Paranoid::with_best_reply`], the engine's default for free-for-all games) the
//!     coalition makes one move between two of the root's: any one opponent's, the others
//!     passing (Best-Reply Search as a two-sided game).
//!
//! # Free-for-all: the multi-player searches
//!
//! [`FreeForAll`] is a free-for-all game as [`ploy_search::multi`] sees it: four players
//! with a score each (the last player in play wins, [`FFA_WIN`]; a draw by repetition or
//! the no-capture limit is shared by the players in play), a pass for Best-Reply Search, and
//! a move ordering with captures first. [`Evaluation`] scores every player
//! ([`Evaluation::every_player_scores`]): the paranoid reduction's evaluation of his colours
//! against all the others, less the mean of the players in play, halved, with the capture
//! the player to move has at hand counted as made (the multi-player searches have no
//! quiescence search).
//!
//! [`Engine::set_ffa_search`] (or [`Engine::set_option`] with `ffa_search`, or the engine
//! protocol's `Search` option) chooses the search of free-for-all games. **The default**
//! (`None`, `default`) is Best-Reply Search on the two-sided searcher: [`Paranoid`] in
//! best-reply mode, with the table, the quiescence search of every opponent's captures and
//! every selective switch. `paranoid` is the two-sided search of the paranoid reduction
//! above (the default before); `brs`, `brs+` and `mcts` run the plain
//! [`ploy_search::multi::Brs`] and [`ploy_search::multi::Mcts`] on [`FreeForAll`].
//! The default was chosen by matches against the paranoid bot (the candidate in one seat,
//! rotated, the paranoid bot in the other three; the `ffa_match` example and `ploy match
//! --ffa-seats`): the plain multi-player searches stayed below a first-place share of a
//! quarter (the best, BRS, 0.113 over 200 games at 80,000 nodes a move), while Best-Reply
//! Search on the two-sided searcher took 0.398 (95 %: 0.333 to 0.467) over 200 games at
//! 80,000 nodes a move against the paranoid bot of the build before (over the engine
//! protocol). The matches, with their commands and numbers,
//! are in the repository's `docs/search-tuning.md` ("Ploy's free-for-all").

//! [`PlainPosition`] is a position searched as it is (its evaluation computed from scratch at
//! each leaf), the reference the tests hold [`EvalPosition`] against; ploy-core's `Position`
//! knows no search, and [`SearchMoves`] is its move list as the search fills it.
//!
//! The selective search's hints ([`ploy_search::SearchGame::in_check`], `make_null`,
//! `capture_value`, `exchange_value`, `continuation_index`) are supplied for two-player
//! games; the four-player games supply none. How every default of the search was chosen, by
//! matches of Ploy games, is in the repository's `docs/search-tuning.md` (the facade's
//! `ploy::docs::search_tuning`).
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
//! - `serde`: `Serialize`/`Deserialize` for [`EvalParams`] (and ploy-search's types).
//!
//! # Threads
//!
//! [`Engine`] and `Searcher<PloyGame, Evaluation>` are [`Send`]: build one and move it to a
//! search thread, and stop it from another thread through the stop flag of
//! [`ploy_search::Limits`]. A compile-time check in the crate keeps them so.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod engine;
mod eval;
mod ffa_search;
mod level;
mod multi;
mod paranoid;
mod ploy_game;
mod position;
mod positions;
mod share;
mod tactics;

pub use engine::{DEFAULT_HASH_MB, Engine, EngineOptionError, GameHistory, MAX_HASH_MB};
pub use eval::{EvalParams, Evaluation};
pub use ffa_search::MCTS_ITERATIONS_PER_DEPTH;
pub use level::LevelLimits;
pub use multi::{FFA_WIN, FreeForAll, FreeForAllUndo};
pub use paranoid::Paranoid;
pub use ploy_game::PloyGame;
/// Playing strength, 1 to 8 (ploy-search's, shared by every game's engine).
pub use ploy_search::{Level, LevelError};
pub use position::{EvalPosition, PlainPosition, SearchMoves};
pub use positions::{bench_positions, random_line};
pub use share::win_share;

// The generic search's names as this crate's modules use them (`crate::Score`, ...).
use ploy_search::{Evaluator, Score};
