//! The searcher: iterative deepening over MTD(f) or alpha-beta/PVS.
//!
//! This file holds the [`Searcher`] with its state and public calls, the search's results
//! and progress reports, and the per-ply records its parts share. The parts, each a child
//! module adding methods to the one `Searcher`: `config` (the options), `driver` (the
//! root: iterative deepening, MTD(f), aspiration windows, limits), `alphabeta` (the main
//! search), `quiescence`, `ordering` (move ordering and its tables) and `smp` (several
//! threads).

use crate::game::{Evaluator, MAX_MOVES, SearchGame};
use crate::limits::{Clock, Limits, SystemClock};
use crate::score::{Score, Value};
use crate::table::{NO_MOVE, Table};
use core::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

mod alphabeta;
mod config;
mod driver;
mod ordering;
mod quiescence;
mod smp;

use alphabeta::reduction_table;
pub use config::{Config, ConfigError, Driver};
use ordering::MAX_TRIED;
pub use smp::MAX_THREADS;

/// The deepest the search goes, main search and quiescence together (plies from the root).
pub const MAX_PLY: usize = 128;
/// The deepest iteration.
pub const MAX_DEPTH: u32 = 100;
/// How many nodes pass between two looks at the clock and the stop flag. (The node budget
/// is checked at every node.)
pub const POLL_INTERVAL: u64 = 1024;
/// The most killer moves kept per ply.
pub const MAX_KILLERS: usize = 4;
/// Row length of the triangular principal variation table.
const PV_STRIDE: usize = MAX_PLY + 1;

/// Progress after a completed iteration (one per line when several are searched).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Info<'a, M> {
    /// The depth just completed.
    pub depth: u32,
    /// Its score for the side to move at the root.
    pub score: Score,
    /// Whose view the score takes: the root's [`SearchGame::view`], the name of the side to
    /// move, if the game names it.
    pub view: Option<&'static str>,
    /// The side to move's expected share of the win in percent for this score
    /// ([`SearchGame::win_share`]).
    pub share: f64,
    /// Which line this is when several are searched (1 = the best), `None` when one is.
    pub multipv: Option<u32>,
    /// Its best move.
    pub best_move: Option<M>,
    /// The principal variation of this iteration, collected during the search (not read
    /// back from the table): the best move, then the best play found for both sides below
    /// it, at most the depth plus [`Config::max_quiescence`] moves. It stops early where
    /// the search took a node's value from the table or the game ended.
    pub pv: &'a [M],
    /// Nodes so far (every move made, in main search and quiescence).
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time so far.
    pub time: Duration,
    /// Permille of the table written by this search (sampled).
    pub table_fill: u32,
}

/// What a search looks at beyond its budget ([`Searcher::search_with`]): which root moves,
/// how many best lines, a search for a forced win, pondering. The default is a plain
/// search: every root move, one line.
///
/// ```
/// use ploy_search::SearchOptions;
/// let o: SearchOptions<u16> = SearchOptions::default().with_lines(3).with_root_moves(vec![1, 2]);
/// assert_eq!(o.lines, 3);
/// assert_eq!(o.root_moves, [1, 2]);
/// ```
#[derive(Clone, Debug)]
pub struct SearchOptions<M> {
    /// Search only these root moves (the protocols' `searchmoves`); illegal ones are
    /// ignored, and if none is legal every move is searched. Empty: every legal move.
    pub root_moves: Vec<M>,
    /// How many best lines to search and report (MultiPV), at least 1: line `k` is the
    /// best line whose first move is none of the better lines' first moves. Each costs
    /// about one more search per iteration.
    pub lines: usize,
    /// Look for a forced win at most this many plies away: iterate no deeper, and stop as
    /// soon as such a win is proven. Late move reductions are off for such a search, so a
    /// win it reports is forced (within the game as the search sees it: a repetition
    /// counts as a draw).
    pub mate_plies: Option<u32>,
    /// Pondering: while this flag is down the time budgets ([`Limits::soft_time`],
    /// [`Limits::hard_time`]) do not run; they count from the moment it is raised (the
    /// protocols' `ponderhit`). The depth and node budgets and the stop flag apply
    /// throughout.
    pub ponder: Option<Arc<AtomicBool>>,
    /// Iterations fitted to the time aimed at: with a time budget, an iteration starts
    /// only when it is expected to end within twice [`Limits::soft_time`] and within
    /// [`Limits::hard_time`] (the whole time of [`Limits::move_time`]; the aimed share of
    /// [`Limits::clock`]), instead of whenever the soft time has not yet passed. The next
    /// iteration is expected to take the last one's time times its growth over the one
    /// before (between 1.5 and 4; 2 until three iterations are timed). The search then
    /// neither stops at half the time with the rest unused nor starts an iteration the
    /// hard time would cut off.
    pub fit_iterations: bool,
}

impl<M> Default for SearchOptions<M> {
    fn default() -> SearchOptions<M> {
        SearchOptions {
            root_moves: Vec::new(),
            lines: 1,
            mate_plies: None,
            ponder: None,
            fit_iterations: false,
        }
    }
}

impl<M> SearchOptions<M> {
    /// The same options searching only `moves` at the root.
    #[must_use]
    pub fn with_root_moves(mut self, moves: Vec<M>) -> SearchOptions<M> {
        self.root_moves = moves;
        self
    }

    /// The same options with `lines` best lines (at least 1).
    #[must_use]
    pub fn with_lines(mut self, lines: usize) -> SearchOptions<M> {
        self.lines = lines.max(1);
        self
    }

    /// The same options looking for a forced win at most `plies` plies away.
    #[must_use]
    pub fn with_mate_plies(mut self, plies: u32) -> SearchOptions<M> {
        self.mate_plies = Some(plies);
        self
    }

    /// The same options pondering until `flag` is raised.
    #[must_use]
    pub fn with_ponder(mut self, flag: Arc<AtomicBool>) -> SearchOptions<M> {
        self.ponder = Some(flag);
        self
    }

    /// The same options with iterations fitted to the hard time
    /// ([`SearchOptions::fit_iterations`]).
    #[must_use]
    pub fn with_fitted_iterations(mut self) -> SearchOptions<M> {
        self.fit_iterations = true;
        self
    }
}

/// The answer of a search.
///
/// With the `serde` feature it is `Serialize`/`Deserialize` when its move type is (Ploy's
/// moves travel as their university move strings, `"c8-c6-0"`), the time as seconds and
/// nanoseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SearchResult<M> {
    /// The best move; `None` only if the position has no legal move (it is decided).
    pub best_move: Option<M>,
    /// The score of the last completed iteration (for a decided root, its result).
    pub score: Score,
    /// The last completed depth (0 if none completed).
    pub depth: u32,
    /// The principal variation of the last completed iteration (see [`Info::pv`]).
    pub pv: Vec<M>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// Whether a budget or the stop flag cut an iteration short.
    pub interrupted: bool,
}

/// Searches positions of a [`SearchGame`] `G` with an [`Evaluator`] `E`.
///
/// The table, killer moves and history persist from one search to the next (call
/// [`Searcher::clear`] to forget them); a fresh searcher given the same position and a depth
/// or node budget always gives the same result.
///
/// A searcher is [`Send`] when its evaluator and the game's moves are (ploy-engine's
/// `Searcher<PloyGame, Evaluation>` is): it may be moved to a search thread. Its clock is a
/// `Clock + Send` for that reason. It is not `Sync`-shared: one search at a time.
pub struct Searcher<G: SearchGame, E> {
    config: Config,
    eval: E,
    /// The table, shared with the helper threads' searchers.
    table: Arc<Table>,
    /// The helper threads' searchers (made at the first search with several threads).
    pub(crate) helpers: Vec<Searcher<G, E>>,
    /// During a search with several threads: what this thread shares with the others.
    pub(crate) link: Option<smp::Link>,
    killers: Vec<[u16; MAX_KILLERS]>,
    /// History: `[side][SearchGame::history_index]`, within `±HISTORY_MAX`.
    history: Vec<i32>,
    /// Counter moves: `[side][history slot of the previous move]`, a move code.
    counters: Vec<u16>,
    /// Continuation history: `[side][slot of an earlier move][slot of this move]`, within
    /// `±HISTORY_MAX`.
    continuation: Vec<i16>,
    /// What the search knows about each ply on the path.
    frames: Vec<Frame>,
    /// The quiet moves a node has searched (history and continuation slots), per ply.
    tried: Vec<[(u32, u32); MAX_TRIED]>,
    /// Late move reductions by depth and move number.
    reductions: Box<[[u8; 64]; 64]>,
    /// Whether any selective switch is on (for this search).
    selective: bool,
    /// Null moves are tried only from this ply on (a null move's verification search
    /// raises it).
    null_floor: usize,
    /// The depth of the current iteration.
    root_depth: i32,
    clock: Box<dyn Clock + Send>,
    eval_cache: Vec<u64>,
    bufs: Vec<G::Moves>,
    keys: Vec<[u64; MAX_MOVES]>,
    cbufs: Vec<G::Moves>,
    ckeys: Vec<[u64; MAX_MOVES]>,
    path: Vec<u64>,
    /// The triangular principal variation table: row `ply` (from index `ply * PV_STRIDE`)
    /// holds, from column `ply` to `pv_len[ply]`, the best line found below the node at
    /// `ply`, as move codes.
    pv_table: Box<[[u16; PV_STRIDE]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// The principal variation of the last root search that set the best move.
    root_pv: Vec<u16>,
    floor: usize,
    nodes: u64,
    next_check: u64,
    node_limit: u64,
    start: Duration,
    hard: Option<Duration>,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    root_best: Option<G::Move>,
    /// The root moves this search may play (codes, sorted; empty: all).
    root_only: Vec<u16>,
    /// Root moves left out of the current root search (the better lines' moves).
    root_excluded: Vec<u16>,
    /// While pondering: the flag that ends it (time budgets count from then).
    ponder: Option<Arc<AtomicBool>>,
    /// When the time budget started counting.
    budget_start: Duration,
    _game: PhantomData<fn() -> G>,
}

impl<G: SearchGame + Clone, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with `config` and evaluation `eval`, reading the system clock.
    #[must_use]
    pub fn new(config: Config, eval: E) -> Searcher<G, E> {
        let table = Arc::new(Table::new(config.table_bytes.max(64)));
        Searcher::with_table(config, eval, table)
    }

    /// A searcher using `table` (a helper thread's shares the main searcher's).
    pub(crate) fn with_table(config: Config, eval: E, table: Arc<Table>) -> Searcher<G, E> {
        let cache_len = if config.eval_cache_bytes == 0 {
            0
        } else {
            (config.eval_cache_bytes / 8).max(1).next_power_of_two()
        };
        Searcher {
            config,
            eval,
            table,
            helpers: Vec::new(),
            link: None,
            killers: vec![[NO_MOVE; MAX_KILLERS]; MAX_PLY + 1],
            history: vec![0; 2 * G::HISTORY_SIZE],
            counters: vec![NO_MOVE; 2 * G::HISTORY_SIZE],
            continuation: vec![0; 2 * G::CONTINUATION_SIZE * G::CONTINUATION_SIZE],
            frames: vec![Frame::EMPTY; MAX_PLY + 2],
            tried: vec![[(0, 0); MAX_TRIED]; MAX_PLY + 1],
            reductions: reduction_table(),
            selective: false,
            null_floor: 0,
            root_depth: 0,
            clock: Box::new(SystemClock::new()),
            eval_cache: vec![0; cache_len],
            bufs: (0..=MAX_PLY).map(|_| G::Moves::default()).collect(),
            keys: vec![[0; MAX_MOVES]; MAX_PLY + 1],
            cbufs: (0..=MAX_PLY).map(|_| G::Moves::default()).collect(),
            ckeys: vec![[0; MAX_MOVES]; MAX_PLY + 1],
            path: Vec::with_capacity(1024),
            pv_table: Box::new([[NO_MOVE; PV_STRIDE]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 2],
            root_pv: Vec::with_capacity(PV_STRIDE),
            floor: 0,
            nodes: 0,
            next_check: 0,
            node_limit: u64::MAX,
            start: Duration::ZERO,
            hard: None,
            stop: None,
            stopped: false,
            root_best: None,
            root_only: Vec::new(),
            root_excluded: Vec::new(),
            ponder: None,
            budget_start: Duration::ZERO,
            _game: PhantomData,
        }
    }

    /// Replaces the clock (tests inject a fake one).
    pub fn set_clock(&mut self, clock: impl Clock + Send + 'static) {
        self.clock = Box::new(clock);
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The evaluation.
    #[must_use]
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The transposition table.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Forgets the table, killers, counter moves and histories (the helper threads' too).
    pub fn clear(&mut self) {
        self.table.clear();
        self.helpers.clear();
        self.eval_cache.fill(0);
        self.history.fill(0);
        self.counters.fill(NO_MOVE);
        self.continuation.fill(0);
        self.killers.fill([NO_MOVE; MAX_KILLERS]);
    }

    #[inline]
    fn use_table(&self) -> bool {
        self.config.table_bytes > 0
    }
}

/// The searches: on this thread alone, or with helpers ([`Config::threads`]), which need the
/// game, its moves and the evaluator to be sent to them.
impl<G, E> Searcher<G, E>
where
    G: SearchGame + Clone + Send,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    /// Searches `pos` within `limits`, calling `observer` after every completed iteration.
    ///
    /// `history` holds the hashes ([`SearchGame::hash`]) of the game's earlier positions
    /// since the last capture, oldest first, without `pos` itself: a position of the search
    /// that repeats one of them, or one earlier on the search path, scores as a draw.
    pub fn search(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: &Limits,
        observer: impl FnMut(&Info<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        self.search_with(pos, history, limits, &SearchOptions::default(), observer)
    }

    /// [`Searcher::search`] with [`SearchOptions`]: only some root moves, several best
    /// lines (the observer gets one [`Info`] per line and iteration, line 1 first), a
    /// search for a forced win, or pondering.
    ///
    /// The result is that of the best line.
    ///
    /// (ploy-engine's `Engine::search_with` has an example with three lines.)
    pub fn search_with(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions<G::Move>,
        observer: impl FnMut(&Info<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        self.table.new_search();
        let task = Task {
            pos,
            history,
            limits,
            options,
        };
        if self.config.threads > 1 {
            return smp::search(self, &task, observer);
        }
        self.search_one(&task, observer)
    }
}

/// What one search is asked: [`Searcher::search_with`]'s arguments but the observer.
struct Task<'a, G: SearchGame> {
    /// The root position.
    pos: &'a G,
    /// The hashes of the game's earlier positions.
    history: &'a [u64],
    /// The limits.
    limits: &'a Limits,
    /// The options.
    options: &'a SearchOptions<G::Move>,
}

/// No static evaluation at a ply (in check, or none computed).
const NO_EVAL: Value = Value::MIN;
/// No move slot at a ply (a null move, or none made yet).
const NO_SLOT: u32 = u32::MAX;

/// What a node's moves need to know about it.
#[derive(Clone, Copy, Debug)]
struct NodeKind {
    pv: bool,
    in_check: bool,
    improving: bool,
}

/// What the search keeps for each ply on its path.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The static evaluation, or [`NO_EVAL`].
    eval: Value,
    /// The side to move (its [`crate::Side`] number).
    side: u8,
    /// Whether the move made from this ply is a null move.
    null: bool,
    /// The history slot of the move made from this ply, or [`NO_SLOT`].
    hist: u32,
    /// Its continuation slot, or [`NO_SLOT`] (also when continuation history is off).
    cont: u32,
}

impl Frame {
    const EMPTY: Frame = Frame {
        eval: NO_EVAL,
        side: 0,
        null: false,
        hist: NO_SLOT,
        cont: NO_SLOT,
    };
}

/// Nodes per second.
#[must_use]
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / us) as u64
}
