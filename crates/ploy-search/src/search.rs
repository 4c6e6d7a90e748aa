//! The searcher: iterative deepening over MTD(f) or alpha-beta/PVS.

use crate::game::{Evaluator, MAX_MOVES, MoveBuffer, SearchGame};
use crate::limits::{Clock, Limits, SystemClock};
use crate::score::{EVAL_MAX, INF, Score, Value, WIN_BOUND, from_table, terminal_value, to_table};
use crate::table::{NO_MOVE, Table};
use core::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

mod smp;
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

/// The root driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Driver {
    /// MTD(f): a series of zero-window searches converging on the value (default).
    #[default]
    Mtdf,
    /// One full-window alpha-beta search per iteration (principal variation search when
    /// [`Config::pvs`] is on).
    AlphaBeta,
}

/// Search options. Every pruning, reduction, extension and ordering heuristic can be
/// switched off.
///
/// The selective switches (forward pruning, reductions, the extension) make the search
/// inexact: [`Config::exact`] and [`Config::without_selectivity`] switch them all off, and
/// the search then returns exactly the negamax value of the searched depth. The ordering
/// switches (table move, captures, killers, history, counter moves, continuation history),
/// the drivers, the table and the caches never change the value, only the time to find it.
/// Each default was chosen by a match; the crate docs list them with their results.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Config {
    /// The root driver.
    pub driver: Driver,
    /// Transposition table size in bytes; 0 switches the table off.
    pub table_bytes: usize,
    /// Try the table's move first.
    pub table_move: bool,
    /// Order captures first, most valuable victim first.
    pub order_captures: bool,
    /// Killer moves kept per ply, 0..=[`MAX_KILLERS`].
    pub killers: usize,
    /// Order quiet moves by the history heuristic.
    pub history: bool,
    /// Try the move that last refuted the opponent's previous move (the counter move) right
    /// after the killers.
    pub counter_moves: bool,
    /// Order quiet moves also by how well they did after the same previous move and the
    /// same move two plies back (continuation history, [`SearchGame::continuation_index`]).
    pub continuation_history: bool,
    /// Principal variation search in the alpha-beta driver (zero-window searches of all but
    /// the first move, re-searched when they fail high).
    pub pvs: bool,
    /// The alpha-beta driver's first window around the expected score (aspiration), in
    /// evaluation units, widened on each failure; 0 searches every iteration with the full
    /// window.
    pub aspiration_window: u16,
    /// MTD(f)'s most zero-window passes per iteration; when they have not converged, one
    /// search with the window between the bounds found settles the value (exactly). 0: no
    /// cap.
    pub mtdf_max_passes: u16,
    /// Quiescence search on captures at the horizon.
    pub quiescence: bool,
    /// Most plies of quiescence search below the horizon.
    pub max_quiescence: u8,
    /// Selective: late move reductions. Quiet moves late in the order are first searched
    /// shallower, by a table of depth and move number, less for moves with a good history,
    /// killers and counter moves, and moves that attack the opponent's commander, more
    /// outside the principal variation; they are searched again in full only if they beat
    /// alpha.
    pub late_move_reductions: bool,
    /// Selective: null-move pruning. Where the static evaluation is at least beta, the side
    /// to move passes ([`SearchGame::make_null`]) and a shallower search follows; if even
    /// then the opponent cannot bring the score below beta, the node fails high. Never
    /// where the side to move is in check ([`SearchGame::in_check`]) or the game refuses a
    /// pass (few pieces left); deep nullmove cutoffs are verified by a reduced search
    /// without null moves.
    pub null_move: bool,
    /// Selective: reverse futility pruning. Near the horizon, a node whose static
    /// evaluation exceeds beta by a margin per ply left fails high at once.
    pub reverse_futility: bool,
    /// Selective: futility pruning. Near the horizon, quiet moves are skipped when the
    /// static evaluation plus a margin per ply left cannot reach alpha.
    pub futility: bool,
    /// Selective: late move pruning. Near the horizon, quiet moves after the first few
    /// (more with more depth left) are skipped.
    pub late_move_pruning: bool,
    /// Selective: delta pruning in quiescence search. A capture is skipped when even the
    /// value of what it takes ([`SearchGame::capture_value`]) and a margin cannot lift the
    /// standing score to alpha.
    pub delta_pruning: bool,
    /// Selective: quiescence search skips captures that lose material by static exchange
    /// evaluation ([`SearchGame::exchange_value`]).
    pub exchange_pruning: bool,
    /// Selective: search one ply deeper where the side to move is in check
    /// ([`SearchGame::in_check`]: in Ploy, its commander is attacked). Off by default: it
    /// showed no gain in its match (see the crate docs).
    pub check_extension: bool,
    /// Selective: internal iterative reductions. A node deep enough to matter but without a
    /// move from the table is searched one ply shallower (it is probably not on the
    /// principal variation, and the table will have a move next time).
    pub internal_reductions: bool,
    /// Size in bytes of the evaluation cache (8-byte entries keyed by the position hash);
    /// 0 switches it off.
    pub eval_cache_bytes: usize,
    /// Keep each node's static evaluation in its transposition table entry (beside the
    /// bounds; a node that prunes without storing bounds stores its evaluation alone), so
    /// that a node met again takes it from the table instead of evaluating. It never
    /// changes a value, only the work per node; the tree changes only where the entries that
    /// hold just an evaluation take table slots that others would have had.
    #[cfg_attr(feature = "serde", serde(default = "table_eval_default"))]
    pub table_eval: bool,
    /// Stop deepening when a forced result within the searched depth is proven (with
    /// selective switches on, only by iterations of at most 2 plies).
    pub stop_at_proven_result: bool,
    /// Use the score of the iteration two plies back as the first guess (MTD(f)) or the
    /// centre of the first window (aspiration), for Ploy's odd/even swing; otherwise the
    /// previous iteration's.
    pub guess_from_same_parity: bool,
    /// Search threads, 1..=[`MAX_THREADS`] (default 1): with more, helper threads search
    /// the same root at once and share the table (Lazy SMP; see the crate docs, Threads).
    /// One thread searches on the caller's thread alone, deterministically.
    #[cfg_attr(feature = "serde", serde(default = "one_thread"))]
    pub threads: usize,
}

/// The default of [`Config::threads`] when deserialising a configuration without it.
#[cfg(feature = "serde")]
fn one_thread() -> usize {
    1
}

/// The default of [`Config::table_eval`] when deserialising a configuration without it.
#[cfg(feature = "serde")]
fn table_eval_default() -> bool {
    Config::default().table_eval
}

impl Default for Config {
    fn default() -> Config {
        Config {
            driver: Driver::AlphaBeta,
            table_bytes: Table::DEFAULT_BYTES,
            table_move: true,
            order_captures: true,
            killers: 3,
            history: true,
            counter_moves: true,
            continuation_history: true,
            pvs: true,
            aspiration_window: 30,
            mtdf_max_passes: 0,
            quiescence: true,
            max_quiescence: 16,
            late_move_reductions: true,
            null_move: true,
            reverse_futility: true,
            futility: false,
            late_move_pruning: false,
            delta_pruning: false,
            exchange_pruning: false,
            check_extension: false,
            internal_reductions: true,
            eval_cache_bytes: 1 << 18,
            table_eval: true,
            stop_at_proven_result: true,
            guess_from_same_parity: true,
            threads: 1,
        }
    }
}

impl Config {
    /// The default configuration without forward pruning, reductions or extensions: the
    /// search returns exactly the negamax value of the searched depth.
    #[must_use]
    pub fn exact() -> Config {
        Config::default().without_selectivity()
    }

    /// This configuration with every selective switch off (late move reductions, null
    /// move, reverse futility, futility, late move pruning, delta and exchange pruning, the
    /// check extension, internal iterative reductions): exact, with the same ordering, table
    /// and driver.
    #[must_use]
    pub fn without_selectivity(self) -> Config {
        Config {
            late_move_reductions: false,
            null_move: false,
            reverse_futility: false,
            futility: false,
            late_move_pruning: false,
            delta_pruning: false,
            exchange_pruning: false,
            check_extension: false,
            internal_reductions: false,
            ..self
        }
    }

    /// Whether any selective switch is on (the search may then differ from negamax).
    #[must_use]
    pub fn is_selective(&self) -> bool {
        *self != self.clone().without_selectivity()
    }

    /// Everything off: no table, no ordering, no quiescence, no reductions; the alpha-beta
    /// driver without PVS. The base for tests and comparisons.
    #[must_use]
    pub fn plain() -> Config {
        Config {
            driver: Driver::AlphaBeta,
            table_bytes: 0,
            table_move: false,
            order_captures: false,
            killers: 0,
            history: false,
            counter_moves: false,
            continuation_history: false,
            pvs: false,
            aspiration_window: 0,
            mtdf_max_passes: 0,
            quiescence: false,
            max_quiescence: 0,
            eval_cache_bytes: 1 << 18,
            table_eval: false,
            stop_at_proven_result: false,
            guess_from_same_parity: true,
            threads: 1,
            ..Config::default().without_selectivity()
        }
    }

    /// Sets one option by name (the field's name, as [`Config::NAMES`] lists them) from
    /// text: `on`/`off`/`true`/`false`/`1`/`0` for switches, a
    /// number for sizes and counts, `mtdf`/`alphabeta` for the driver. Match programs and
    /// engine options use it to try configurations.
    ///
    /// ```
    /// use ploy_search::Config;
    /// let mut c = Config::exact();
    /// c.set("null_move", "on").unwrap();
    /// c.set("aspiration_window", "40").unwrap();
    /// assert!(c.null_move && c.aspiration_window == 40);
    /// assert!(c.set("nonsense", "1").is_err());
    /// assert!(c.set("null_move", "maybe").is_err());
    /// ```
    ///
    /// # Errors
    /// [`ConfigError`] for an unknown name or a value that does not fit it; the
    /// configuration is then unchanged.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
        let bad = || ConfigError::Value {
            name: name.to_owned(),
            value: value.to_owned(),
        };
        let flag = || match value {
            "on" | "true" | "1" | "yes" => Ok(true),
            "off" | "false" | "0" | "no" => Ok(false),
            _ => Err(bad()),
        };
        macro_rules! number {
            () => {
                value.parse().map_err(|_| bad())?
            };
        }
        match name {
            "driver" => {
                self.driver = match value {
                    "mtdf" => Driver::Mtdf,
                    "alphabeta" => Driver::AlphaBeta,
                    _ => return Err(bad()),
                }
            }
            "table_bytes" => self.table_bytes = number!(),
            "table_move" => self.table_move = flag()?,
            "order_captures" => self.order_captures = flag()?,
            "killers" => {
                let k: usize = number!();
                if k > MAX_KILLERS {
                    return Err(bad());
                }
                self.killers = k;
            }
            "history" => self.history = flag()?,
            "counter_moves" => self.counter_moves = flag()?,
            "continuation_history" => self.continuation_history = flag()?,
            "pvs" => self.pvs = flag()?,
            "aspiration_window" => self.aspiration_window = number!(),
            "mtdf_max_passes" => self.mtdf_max_passes = number!(),
            "quiescence" => self.quiescence = flag()?,
            "max_quiescence" => self.max_quiescence = number!(),
            "late_move_reductions" => self.late_move_reductions = flag()?,
            "null_move" => self.null_move = flag()?,
            "reverse_futility" => self.reverse_futility = flag()?,
            "futility" => self.futility = flag()?,
            "late_move_pruning" => self.late_move_pruning = flag()?,
            "delta_pruning" => self.delta_pruning = flag()?,
            "exchange_pruning" => self.exchange_pruning = flag()?,
            "check_extension" => self.check_extension = flag()?,
            "internal_reductions" => self.internal_reductions = flag()?,
            "eval_cache_bytes" => self.eval_cache_bytes = number!(),
            "table_eval" => self.table_eval = flag()?,
            "stop_at_proven_result" => self.stop_at_proven_result = flag()?,
            "guess_from_same_parity" => self.guess_from_same_parity = flag()?,
            "threads" => {
                let n: usize = number!();
                if !(1..=MAX_THREADS).contains(&n) {
                    return Err(bad());
                }
                self.threads = n;
            }
            _ => {
                return Err(ConfigError::Name(name.to_owned()));
            }
        }
        Ok(())
    }

    /// The names [`Config::set`] knows, in the order of the fields.
    pub const NAMES: &'static [&'static str] = &[
        "driver",
        "table_bytes",
        "table_move",
        "order_captures",
        "killers",
        "history",
        "counter_moves",
        "continuation_history",
        "pvs",
        "aspiration_window",
        "mtdf_max_passes",
        "quiescence",
        "max_quiescence",
        "late_move_reductions",
        "null_move",
        "reverse_futility",
        "futility",
        "late_move_pruning",
        "delta_pruning",
        "exchange_pruning",
        "check_extension",
        "internal_reductions",
        "eval_cache_bytes",
        "table_eval",
        "stop_at_proven_result",
        "guess_from_same_parity",
        "threads",
    ];
}

/// A [`Config::set`] that did not apply.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No option has this name.
    #[error("unknown search option `{0}`")]
    Name(String),
    /// The value does not fit the option.
    #[error("search option `{name}` cannot be `{value}`")]
    Value {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
}

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
}

impl<M> Default for SearchOptions<M> {
    fn default() -> SearchOptions<M> {
        SearchOptions {
            root_moves: Vec::new(),
            lines: 1,
            mate_plies: None,
            ponder: None,
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
    ) -> SearchResult<G::Move>
    where
        G: Send,
        G::Move: Send,
        G::Moves: Send,
        E: Clone + Send,
    {
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
    ) -> SearchResult<G::Move>
    where
        G: Send,
        G::Move: Send,
        G::Moves: Send,
        E: Clone + Send,
    {
        self.table.new_search();
        if self.config.threads > 1 {
            return smp::search(self, pos, history, limits, options, observer);
        }
        self.search_one(pos, history, limits, options, observer)
    }

    /// The search of one thread: [`Searcher::search_with`] on this thread alone, or the
    /// main thread's or a helper's part of a search with several (`self.link`).
    pub(crate) fn search_one(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: &Limits,
        options: &SearchOptions<G::Move>,
        mut observer: impl FnMut(&Info<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        let mut g = pos.clone();
        for h in &mut self.history {
            *h /= 8;
        }
        for h in &mut self.continuation {
            *h /= 8;
        }
        self.selective = self.config.is_selective();
        self.null_floor = 0;
        self.path.clear();
        self.path.extend_from_slice(history);
        self.path.push(g.hash());
        self.floor = 0;
        self.nodes = 0;
        self.stopped = false;
        self.node_limit = self.first_allowance(limits.nodes);
        self.next_check = POLL_INTERVAL.min(self.node_limit);
        self.start = self.clock.now();
        self.budget_start = self.start;
        self.hard = limits.hard_time;
        self.stop = limits.stop.clone();
        self.ponder = options.ponder.clone();

        let mut result = SearchResult {
            best_move: None,
            score: Score::DRAW,
            depth: 0,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            interrupted: false,
        };
        if let Some(t) = g.terminal() {
            result.score = Score::from_raw(terminal_value(t, g.side(), 0) as i16);
            return result;
        }
        // The root moves to search: the legal ones of `options.root_moves`, or all.
        self.root_only.clear();
        self.root_only.extend(
            options
                .root_moves
                .iter()
                .filter(|&&m| g.is_legal(m))
                .map(|&m| G::move_to_u16(m)),
        );
        self.root_only.sort_unstable();
        self.root_only.dedup();
        self.root_excluded.clear();
        let root_count = if self.root_only.is_empty() {
            let mut moves = G::Moves::default();
            g.generate(&mut moves);
            moves.len()
        } else {
            self.root_only.len()
        };
        let lines = options.lines.clamp(1, root_count.max(1));
        result.best_move = self.fallback_move(&g);
        if self.node_limit == 0 {
            result.interrupted = true;
            self.end_search();
            return result;
        }
        // A mate search must not miss a defence: no reductions, and no deeper than asked.
        let saved_config = self.config.clone();
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if let Some(plies) = options.mate_plies {
            self.config = self.config.clone().without_selectivity();
            self.selective = false;
            max_depth = max_depth.min(plies.max(1));
        }
        // Scores by line, iteration after iteration (for MTD(f)'s first guesses).
        let mut scores: Vec<Vec<Value>> = vec![Vec::new(); lines];
        'deepen: for depth in 1..=max_depth {
            if self.skips_depth(depth) {
                continue;
            }
            if depth > 1 {
                if let (Some(soft), Some(used)) = (limits.soft_time, self.budget_used()) {
                    if used >= soft {
                        break;
                    }
                }
            }
            self.root_excluded.clear();
            self.root_depth = depth as i32;
            for line in 0..lines {
                self.root_best = None;
                self.root_pv.clear();
                let history = &scores[line];
                let guess = match history.len() {
                    0 if line > 0 => scores[line - 1].last().copied(),
                    0 => None,
                    n if n >= 2 && self.config.guess_from_same_parity => Some(history[n - 2]),
                    n => Some(history[n - 1]),
                };
                let value = match self.config.driver {
                    Driver::AlphaBeta => self.aspiration(&mut g, depth as i32, guess),
                    Driver::Mtdf => self.mtdf(&mut g, depth as i32, guess.unwrap_or(0)),
                };
                if self.stopped {
                    result.interrupted = true;
                    break 'deepen;
                }
                scores[line].push(value);
                let score = Score::from_raw(value as i16);
                let pv = self.root_line();
                let best = self.root_best.or_else(|| pv.first().copied());
                if let Some(mv) = best {
                    self.root_excluded.push(G::move_to_u16(mv));
                }
                if line == 0 {
                    if best.is_some() {
                        result.best_move = best;
                    }
                    result.score = score;
                    result.depth = depth;
                    result.pv.clone_from(&pv);
                }
                let time = self.elapsed();
                let info = Info {
                    depth,
                    score,
                    view: g.view(),
                    share: g.win_share(score),
                    multipv: (lines > 1).then_some(line as u32 + 1),
                    best_move: best,
                    pv: &pv,
                    nodes: self.total_nodes(),
                    nps: nps(self.total_nodes(), time),
                    time,
                    table_fill: if self.use_table() {
                        self.table.fill_permille()
                    } else {
                        0
                    },
                };
                observer(&info);
            }
            let value = scores[0][scores[0].len() - 1];
            if let Some(plies) = options.mate_plies {
                if value >= WIN_BOUND && result.score.plies_to_result().is_some_and(|p| p <= plies)
                {
                    break;
                }
            }
            // A forced result within the searched depth is exact unless selectivity may
            // have hidden a defence.
            let exact = !self.selective || depth <= 2;
            if self.config.stop_at_proven_result
                && exact
                && value.abs() >= WIN_BOUND
                && result.score.plies_to_result().is_some_and(|p| p <= depth)
            {
                break;
            }
            if self.nodes >= self.node_limit && !self.more_nodes() {
                break;
            }
        }
        self.config = saved_config;
        self.end_search();
        result.nodes = self.nodes;
        result.time = self.elapsed();
        result
    }

    /// Forgets the per-search root restrictions and flags.
    fn end_search(&mut self) {
        self.root_only.clear();
        self.root_excluded.clear();
        self.ponder = None;
    }

    /// Time counted against the budget: since the start, or while pondering none (`None`)
    /// until the ponder flag is raised, and from then on.
    fn budget_used(&mut self) -> Option<Duration> {
        if let Some(flag) = &self.ponder {
            if !flag.load(Ordering::Relaxed) {
                return None;
            }
            self.ponder = None;
            self.budget_start = self.clock.now();
        }
        Some(self.clock.now().saturating_sub(self.budget_start))
    }

    /// Whether root move `code` is left out of this root search (kept out of line: the
    /// hot loop only pays for the `ply == 0` test).
    #[inline(never)]
    fn skip_root_move(&self, code: u16) -> bool {
        !self.root_move_searched(code)
    }

    /// Whether this root search leaves some moves out.
    #[inline(never)]
    fn root_restricted(&self) -> bool {
        !(self.root_only.is_empty() && self.root_excluded.is_empty())
    }

    /// Whether root move `code` is searched in this root search.
    // `any` rather than `contains`: one more caller of `<[u16]>::contains` made the
    // compiler stop inlining it in the hot move loop (1.5 % more instructions, callgrind).
    #[allow(clippy::manual_contains)]
    fn root_move_searched(&self, code: u16) -> bool {
        (self.root_only.is_empty() || self.root_only.binary_search(&code).is_ok())
            && !self.root_excluded.iter().any(|&c| c == code)
    }

    fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }

    /// A legal move to answer with if not even the first iteration completes (one of the
    /// root moves the search may play).
    fn fallback_move(&self, g: &G) -> Option<G::Move> {
        let allowed = |m: G::Move| self.root_move_searched(G::move_to_u16(m));
        if self.use_table() && self.config.table_move {
            if let Some(e) = self.table.probe(g.hash()) {
                if let Some(m) = G::move_from_u16(e.mv) {
                    if e.mv != NO_MOVE && g.is_legal(m) && allowed(m) {
                        return Some(m);
                    }
                }
            }
        }
        let mut caps = G::Moves::default();
        g.generate_captures(&mut caps);
        if let Some(&m) = caps
            .iter()
            .filter(|&&m| allowed(m))
            .max_by_key(|&&m| g.capture_order(m))
        {
            return Some(m);
        }
        let mut moves = G::Moves::default();
        g.generate(&mut moves);
        moves.iter().copied().find(|&m| allowed(m))
    }

    /// Copies the root's line (row 0 of the table) as the iteration's principal variation.
    fn save_root_pv(&mut self) {
        self.root_pv.clear();
        self.root_pv
            .extend_from_slice(&self.pv_table[0][..self.pv_len[0]]);
    }

    /// The saved root line as moves (it starts with the best move of the iteration).
    fn root_line(&self) -> Vec<G::Move> {
        self.root_pv
            .iter()
            .map_while(|&code| G::move_from_u16(code))
            .collect()
    }

    /// Records that move `code` is the best so far at `ply`: the node's line becomes the
    /// move followed by the child's line.
    #[inline]
    fn update_pv(&mut self, ply: usize, code: u16) {
        let end = self.pv_len[ply + 1].max(ply + 1);
        let (rows, below) = self.pv_table.split_at_mut(ply + 1);
        let row = &mut rows[ply];
        row[ply] = code;
        // Lines are short: a plain loop beats a call to `memcpy`.
        for (to, from) in row[ply + 1..end].iter_mut().zip(&below[0][ply + 1..end]) {
            *to = *from;
        }
        self.pv_len[ply] = end;
    }

    fn mtdf(&mut self, g: &mut G, depth: i32, guess: Value) -> Value {
        let (mut lower, mut upper) = (-INF, INF);
        let mut f = guess.clamp(-INF + 1, INF - 1);
        let mut passes = 0;
        let cap = match self.config.mtdf_max_passes {
            0 => 64,
            n => u32::from(n).min(64),
        };
        while lower < upper {
            let beta = if f == lower { f + 1 } else { f };
            f = self.alphabeta(g, depth, 0, beta - 1, beta);
            if self.stopped {
                return f;
            }
            if f < beta {
                upper = f;
            } else {
                lower = f;
                // A pass that fails high sets the best move: its line is the iteration's.
                self.save_root_pv();
            }
            passes += 1;
            if lower < upper && (passes >= cap || lower > upper) {
                // Not converged: one search with the window between the bounds settles
                // the value (the full window after a contradiction).
                let (alpha, beta) = if lower > upper {
                    (-INF, INF)
                } else {
                    (lower - 1, upper + 1)
                };
                let v = self.alphabeta(g, depth, 0, alpha, beta);
                if !self.stopped {
                    self.save_root_pv();
                }
                return v;
            }
        }
        f
    }

    /// One iteration of the alpha-beta driver: a window of [`Config::aspiration_window`]
    /// around `guess`, widened until the score falls inside (or the full window).
    fn aspiration(&mut self, g: &mut G, depth: i32, guess: Option<Value>) -> Value {
        let width = Value::from(self.config.aspiration_window);
        let guess = match guess {
            Some(v) if width > 0 && depth >= 3 && v.abs() < WIN_BOUND => v,
            _ => {
                let v = self.alphabeta(g, depth, 0, -INF, INF);
                if !self.stopped {
                    self.save_root_pv();
                }
                return v;
            }
        };
        let mut delta = width;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let v = self.alphabeta(g, depth, 0, alpha, beta);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                // The move that failed high is the best so far.
                self.save_root_pv();
                beta = (v + delta).min(INF);
            } else {
                self.save_root_pv();
                return v;
            }
            delta = delta.saturating_mul(2);
            if delta > ASPIRATION_LIMIT {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
    }

    #[cold]
    fn check_limits(&mut self) {
        if self.link.is_some() {
            self.publish_nodes();
        }
        if self.nodes >= self.node_limit && !self.more_nodes() {
            self.stopped = true;
        }
        self.next_check = (self.nodes + POLL_INTERVAL).min(self.node_limit.max(self.nodes + 1));
        if let Some(hard) = self.hard {
            if self.budget_used().is_some_and(|used| used >= hard) {
                self.stopped = true;
            }
        }
        if let Some(stop) = &self.stop {
            if stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
    }

    #[inline]
    fn is_repetition(&self) -> bool {
        let n = self.path.len();
        let h = self.path[n - 1];
        self.path[self.floor..n - 1].contains(&h)
    }

    /// The evaluation, through the cache: an entry is the hash's upper 48 bits and the value
    /// in the low 16.
    #[inline]
    fn static_eval(&mut self, g: &G) -> Value {
        if self.eval_cache.is_empty() {
            return self.eval.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
        }
        let h = g.hash();
        let slot = (h as usize) & (self.eval_cache.len() - 1);
        let e = self.eval_cache[slot];
        if e != 0 && (e ^ h) >> 16 == 0 {
            return Value::from(e as u16 as i16);
        }
        let v = self.eval.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
        self.eval_cache[slot] = (h & !0xFFFF) | u64::from(v as i16 as u16);
        v
    }

    /// Searches the node reached after a move by `side` (made already) with the window
    /// `(alpha, beta)` of the node before it, and returns its value from `side`'s view.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &mut self,
        g: &mut G,
        side: crate::Side,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
    ) -> Value {
        if g.side() == side {
            self.alphabeta(g, depth, ply + 1, alpha, beta)
        } else {
            -self.alphabeta(g, depth, ply + 1, -beta, -alpha)
        }
    }

    /// The ordering score of a quiet move at `ply` (its history and continuation history
    /// slots `hist` and `cont`), by the side to move `side`.
    #[inline]
    fn quiet_score(&self, side: usize, hist: usize, cont: u32, ply: usize) -> i32 {
        let mut score = if self.config.history {
            self.history[side * G::HISTORY_SIZE + hist]
        } else {
            0
        };
        if self.config.continuation_history && cont != NO_SLOT {
            let n = G::CONTINUATION_SIZE;
            for back in [1, 2] {
                if ply >= back {
                    let prev = self.frames[ply - back].cont;
                    if prev != NO_SLOT {
                        score += i32::from(
                            self.continuation[(side * n + prev as usize) * n + cont as usize],
                        );
                    }
                }
            }
        }
        score
    }

    /// A quiet move `m` (code `code`) refuted the node at `ply`: it becomes a killer and the
    /// counter move of the previous move, its history rises, and that of the `tried` quiet
    /// moves searched before it falls.
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        side: usize,
        code: u16,
        slots: (u32, u32),
        depth: i32,
        ply: usize,
        tried: usize,
    ) {
        let k = self.config.killers;
        if k > 0 {
            let row = &mut self.killers[ply];
            if row[0] != code {
                let pos = row[..k].iter().position(|&x| x == code).unwrap_or(k - 1);
                row.copy_within(0..pos, 1);
                row[0] = code;
            }
        }
        if self.config.counter_moves && ply > 0 {
            let prev = self.frames[ply - 1].hist;
            if prev != NO_SLOT {
                self.counters[side * G::HISTORY_SIZE + prev as usize] = code;
            }
        }
        let bonus = (32 * depth * depth).min(HISTORY_MAX / 4);
        if self.config.history {
            let base = side * G::HISTORY_SIZE;
            gravity(&mut self.history[base + slots.0 as usize], bonus);
            for j in 0..tried {
                let (h, _) = self.tried[ply][j];
                if h != slots.0 {
                    gravity(&mut self.history[base + h as usize], -bonus);
                }
            }
        }
        if self.config.continuation_history && slots.1 != NO_SLOT {
            let n = G::CONTINUATION_SIZE;
            for back in [1, 2] {
                if ply < back {
                    break;
                }
                let prev = self.frames[ply - back].cont;
                if prev == NO_SLOT {
                    continue;
                }
                let row = (side * n + prev as usize) * n;
                let mut entry = i32::from(self.continuation[row + slots.1 as usize]);
                gravity(&mut entry, bonus);
                self.continuation[row + slots.1 as usize] = entry as i16;
                for j in 0..tried {
                    let (_, c) = self.tried[ply][j];
                    if c != slots.1 && c != NO_SLOT {
                        let mut entry = i32::from(self.continuation[row + c as usize]);
                        gravity(&mut entry, -bonus);
                        self.continuation[row + c as usize] = entry as i16;
                    }
                }
            }
        }
    }

    /// Fail-soft alpha-beta with memory, and the selective search's pruning, reductions
    /// and extension.
    #[allow(clippy::too_many_lines)]
    fn alphabeta(
        &mut self,
        g: &mut G,
        mut depth: i32,
        ply: usize,
        mut alpha: Value,
        mut beta: Value,
    ) -> Value {
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        if ply > 0 {
            if let Some(t) = g.terminal() {
                return terminal_value(t, g.side(), ply);
            }
            if self.is_repetition() {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.static_eval(g);
            }
        }
        let in_check = self.selective && g.in_check();
        if in_check && self.config.check_extension && ply < 2 * self.root_depth as usize {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(g, ply, self.config.max_quiescence, alpha, beta);
        }
        let pv_node = beta > alpha + 1;
        let key = g.hash();
        let mut tt_code = NO_MOVE;
        let (mut tt_lower, mut tt_upper) = (-INF, INF);
        let mut tt_eval = None;
        if self.use_table() {
            if let Some(e) = self.table.probe(key) {
                tt_code = e.mv;
                tt_eval = e.eval;
                tt_lower = if e.lower <= -INF {
                    -INF
                } else {
                    from_table(e.lower, ply)
                };
                tt_upper = if e.upper >= INF {
                    INF
                } else {
                    from_table(e.upper, ply)
                };
                if ply > 0 && i32::from(e.depth) >= depth {
                    if tt_lower >= beta || tt_lower == tt_upper {
                        return tt_lower;
                    }
                    if tt_upper <= alpha {
                        return tt_upper;
                    }
                    alpha = alpha.max(tt_lower);
                    beta = beta.min(tt_upper);
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let mover = g.side();
        let side = mover.index();

        // The static evaluation, for the selective search only (and never in check, where
        // it means little), from the table if it keeps it; bounds from the table sharpen it.
        let raw_eval = if self.selective && !in_check {
            match tt_eval {
                Some(v) if self.config.table_eval => v,
                _ => self.static_eval(g),
            }
        } else {
            NO_EVAL
        };
        // An evaluation the table does not have yet, to be stored with the node.
        let new_eval = (self.config.table_eval && raw_eval != NO_EVAL && tt_eval.is_none())
            .then_some(raw_eval);
        self.frames[ply].eval = raw_eval;
        self.frames[ply].side = mover.0;
        let improving = raw_eval != NO_EVAL && ply >= 2 && {
            let before = &self.frames[ply - 2];
            before.side == mover.0 && before.eval != NO_EVAL && raw_eval > before.eval
        };
        let mut eval = raw_eval;
        if eval != NO_EVAL {
            if tt_lower > eval && tt_lower < WIN_BOUND {
                eval = tt_lower;
            } else if tt_upper < eval && tt_upper > -WIN_BOUND {
                eval = tt_upper;
            }
        }

        if !pv_node && ply > 0 && eval != NO_EVAL && beta.abs() < WIN_BOUND {
            // Reverse futility: far above beta near the horizon.
            if self.config.reverse_futility
                && depth <= RFP_DEPTH
                && eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
                && eval < WIN_BOUND
            {
                self.keep_eval(key, new_eval);
                return (eval + beta) / 2;
            }
            // Null move: even passing keeps the score above beta.
            if self.config.null_move
                && depth >= NULL_MIN_DEPTH
                && eval >= beta
                && ply >= self.null_floor
                && !self.frames[ply - 1].null
            {
                if let Some(v) = self.null_move(g, depth, ply, beta, eval) {
                    self.keep_eval(key, new_eval);
                    return v;
                }
                if self.stopped {
                    return 0;
                }
            }
        }
        self.frames[ply].null = false;

        // Internal iterative reduction: no move from the table, probably not worth much.
        if self.config.internal_reductions && depth >= IIR_DEPTH && tt_code == NO_MOVE {
            depth -= 1;
        }

        let mut best = -INF;
        let mut best_code = NO_MOVE;
        let mut searched = 0usize;
        let mut quiets = 0usize;
        let mut n_tried = 0usize;
        // Futility: quiet moves cannot lift this node to alpha.
        let futile = self.config.futility
            && ply > 0
            && !in_check
            && eval != NO_EVAL
            && depth <= FUTILITY_DEPTH
            && eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
            && alpha.abs() < WIN_BOUND;
        let lmp_limit =
            if self.config.late_move_pruning && ply > 0 && !in_check && depth <= LMP_DEPTH {
                ((3 + depth * depth) / (2 - i32::from(improving))) as usize
            } else {
                usize::MAX
            };
        let mut skip_quiets = false;

        let tt_move = if self.config.table_move && tt_code != NO_MOVE {
            G::move_from_u16(tt_code).filter(|&m| g.is_legal(m))
        } else {
            None
        };
        let counter_code = if self.config.counter_moves && ply > 0 {
            let prev = self.frames[ply - 1].hist;
            if prev == NO_SLOT {
                NO_MOVE
            } else {
                self.counters[side * G::HISTORY_SIZE + prev as usize]
            }
        } else {
            NO_MOVE
        };
        // Staged move generation: the table move, then captures (most valuable victim
        // first), then killers and the counter move, then every other move ordered by
        // history. A node that cuts off early never generates its quiet moves.
        let mut stage = Stage::Table;
        let (mut i, mut n, mut ci, mut cn, mut ki) = (0, 0, 0, 0, 0);
        let mut done = [NO_MOVE; MAX_KILLERS + 1];
        let mut n_done = 0;
        loop {
            let (m, special) = match stage {
                Stage::Table => {
                    stage = if self.config.order_captures {
                        Stage::Captures
                    } else {
                        Stage::Killers
                    };
                    match tt_move {
                        Some(m) => (m, false),
                        None => continue,
                    }
                }
                Stage::Captures => {
                    if ci == 0 && cn == 0 {
                        let buf = &mut self.cbufs[ply];
                        buf.clear();
                        g.generate_captures(buf);
                        cn = buf.len();
                        for j in 0..cn {
                            let key = g.capture_order(self.cbufs[ply][j]);
                            self.ckeys[ply][j] = pack_key(key, j);
                        }
                        if cn == 0 {
                            stage = Stage::Killers;
                            continue;
                        }
                    }
                    if ci >= cn {
                        stage = Stage::Killers;
                        continue;
                    }
                    let keys = &mut self.ckeys[ply][..cn];
                    let mut bi = ci;
                    for j in ci + 1..cn {
                        if keys[j] > keys[bi] {
                            bi = j;
                        }
                    }
                    keys.swap(ci, bi);
                    let m = self.cbufs[ply][unpack_index(keys[ci])];
                    ci += 1;
                    if Some(m) == tt_move {
                        continue;
                    }
                    (m, false)
                }
                Stage::Killers => {
                    if skip_quiets {
                        stage = Stage::Rest;
                        continue;
                    }
                    let code = if ki < self.config.killers {
                        self.killers[ply][ki]
                    } else if ki == self.config.killers {
                        counter_code
                    } else {
                        stage = Stage::Rest;
                        continue;
                    };
                    ki += 1;
                    if code == NO_MOVE || done[..n_done].contains(&code) {
                        continue;
                    }
                    let Some(m) = G::move_from_u16(code) else {
                        continue;
                    };
                    if Some(m) == tt_move || !g.is_legal(m) || g.is_capture(m) {
                        continue;
                    }
                    done[n_done] = code;
                    n_done += 1;
                    (m, true)
                }
                Stage::Rest => {
                    if i == 0 && n == 0 {
                        if skip_quiets && self.config.order_captures {
                            break; // nothing left but quiet moves, all skipped
                        }
                        let buf = &mut self.bufs[ply];
                        buf.clear();
                        g.generate(buf);
                        n = buf.len();
                        assert!(
                            n <= MAX_MOVES,
                            "too many moves for the search's scratch arrays"
                        );
                        let ordered = self.config.history || self.config.continuation_history;
                        for j in 0..n {
                            let mj = self.bufs[ply][j];
                            let code = G::move_to_u16(mj);
                            let key = if Some(mj) == tt_move
                                || (self.config.order_captures && g.is_capture(mj))
                                || done[..n_done].contains(&code)
                            {
                                i32::MIN
                            } else if ordered {
                                let cont = if self.config.continuation_history {
                                    g.continuation_index(mj) as u32
                                } else {
                                    NO_SLOT
                                };
                                self.quiet_score(side, G::history_index(mj), cont, ply)
                            } else {
                                0
                            };
                            self.keys[ply][j] = pack_key(key, j);
                        }
                        if n == 0 {
                            break;
                        }
                    }
                    if i >= n {
                        break;
                    }
                    let keys = &mut self.keys[ply][..n];
                    if i < SELECTION_PICKS {
                        // The first picks by selection: most nodes cut off early.
                        let mut bi = i;
                        for j in i + 1..n {
                            if keys[j] > keys[bi] {
                                bi = j;
                            }
                        }
                        keys.swap(i, bi);
                    } else if i == SELECTION_PICKS {
                        keys[i..].sort_unstable_by(|a, b| b.cmp(a));
                    }
                    let k = keys[i];
                    i += 1;
                    if k >> 32 == 0 {
                        continue; // searched in an earlier stage
                    }
                    (self.bufs[ply][unpack_index(k)], false)
                }
            };
            let code = G::move_to_u16(m);
            if ply == 0 && self.skip_root_move(code) {
                continue;
            }
            let quiet = !g.is_capture(m);
            if quiet && searched > 0 && best > -WIN_BOUND {
                if skip_quiets {
                    continue;
                }
                if futile || quiets >= lmp_limit {
                    skip_quiets = true;
                    continue;
                }
            }
            let hist = G::history_index(m);
            let cont = if self.config.continuation_history || self.config.counter_moves {
                g.continuation_index(m) as u32
            } else {
                NO_SLOT
            };
            self.frames[ply].hist = hist as u32;
            self.frames[ply].cont = if self.config.continuation_history {
                cont
            } else {
                NO_SLOT
            };
            let node = NodeKind {
                pv: pv_node,
                in_check,
                improving,
            };
            let v = self.search_move(
                g, m, quiet, special, depth, ply, alpha, beta, searched, node,
            );
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                self.update_pv(ply, code);
                if v > alpha {
                    best_code = code;
                    alpha = v;
                    if ply == 0 {
                        self.root_best = Some(m);
                    }
                    if v >= beta {
                        if quiet {
                            let slots = (hist as u32, self.frames[ply].cont);
                            self.reward(side, code, slots, depth, ply, n_tried);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets += 1;
                if n_tried < MAX_TRIED {
                    self.tried[ply][n_tried] = (hist as u32, self.frames[ply].cont);
                    n_tried += 1;
                }
            }
        }
        if searched == 0 && best == -INF {
            // Every move was pruned or left out (only root moves can be): fail low.
            best = if eval != NO_EVAL {
                eval.min(alpha)
            } else {
                alpha
            };
        }
        // A root search restricted to some moves does not know the root's value.
        if self.use_table() && !(ply == 0 && self.root_restricted()) {
            let lower = if best > alpha0 {
                to_table(best, ply)
            } else {
                -INF
            };
            let upper = if best < beta0 {
                to_table(best, ply)
            } else {
                INF
            };
            self.table
                .store(key, depth.min(250) as u8, lower, upper, best_code, new_eval);
        }
        best
    }

    /// Stores a node's new static evaluation in the table (a node that returns without
    /// storing bounds).
    #[inline]
    fn keep_eval(&self, key: u64, eval: Option<Value>) {
        if let Some(v) = eval {
            if self.use_table() {
                self.table.store_eval(key, v);
            }
        }
    }

    /// The null move at `ply` (static evaluation `eval` at least `beta`): `Some` value at
    /// least beta when the node fails high.
    #[inline(never)]
    fn null_move(
        &mut self,
        g: &mut G,
        depth: i32,
        ply: usize,
        beta: Value,
        eval: Value,
    ) -> Option<Value> {
        let side = g.side();
        let r = NULL_BASE_REDUCTION
            + depth / NULL_DEPTH_DIVISOR
            + ((eval - beta) / NULL_EVAL_DIVISOR).min(2);
        if !g.make_null() {
            return None;
        }
        self.frames[ply].null = true;
        self.frames[ply].hist = NO_SLOT;
        self.frames[ply].cont = NO_SLOT;
        let saved_floor = self.floor;
        self.floor = self.path.len();
        self.path.push(g.hash());
        let v = self.descend(g, side, depth - 1 - r, ply, beta - 1, beta);
        self.path.pop();
        self.floor = saved_floor;
        g.unmake_null();
        self.frames[ply].null = false;
        if self.stopped || v < beta {
            return None;
        }
        let v = if v >= WIN_BOUND { beta } else { v };
        if depth < NULL_VERIFY_DEPTH || self.null_floor > 0 {
            return Some(v);
        }
        // Deep: verify with a reduced search without null moves near this node.
        self.null_floor = ply + (3 * (depth - r) / 4) as usize;
        let w = self.alphabeta(g, depth - r, ply, beta - 1, beta);
        self.null_floor = 0;
        (!self.stopped && w >= beta).then_some(v)
    }

    /// Searches one move of a node: plain, PVS or reduced first.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move(
        &mut self,
        g: &mut G,
        m: G::Move,
        quiet: bool,
        special: bool,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
        searched: usize,
        node: NodeKind,
    ) -> Value {
        let side = g.side();
        let capture = !quiet;
        let undo = g.make(m);
        self.count_node();
        let saved_floor = self.floor;
        if capture {
            self.floor = self.path.len();
        }
        self.path.push(g.hash());
        let zero_window = beta == alpha + 1;
        let new_depth = depth - 1;
        let mut v = 0;
        let mut full = true;
        let mut reduced = false;
        if self.config.late_move_reductions
            && depth >= 3
            && searched > 2 * usize::from(node.pv)
            && quiet
            && !node.in_check
        {
            let mut r = i32::from(self.reductions[depth.min(63) as usize][searched.min(63)]);
            r += i32::from(!node.pv) + i32::from(!node.improving && self.selective);
            r -= i32::from(special);
            if self.config.history || self.config.continuation_history {
                let cont = self.frames[ply].cont;
                r -= self.quiet_score(side.index(), G::history_index(m), cont, ply)
                    / HISTORY_REDUCTION_DIV;
            }
            if g.in_check() {
                r -= 1;
            }
            let r = r.clamp(0, new_depth - 1);
            if r > 0 {
                reduced = true;
                v = self.descend(g, side, new_depth - r, ply, alpha, alpha + 1);
                full = v > alpha && !self.stopped;
            }
        }
        if full && !zero_window && (reduced || (self.config.pvs && searched > 0)) {
            v = self.descend(g, side, new_depth, ply, alpha, alpha + 1);
            full = v > alpha && v < beta && !self.stopped;
        } else if full && reduced {
            // A zero-window node: the re-search at full depth is the last.
        }
        if full {
            v = self.descend(g, side, new_depth, ply, alpha, beta);
        }
        self.path.pop();
        self.floor = saved_floor;
        g.unmake(m, undo);
        v
    }

    /// Quiescence search: stand pat, then captures (fail-soft).
    fn quiesce(
        &mut self,
        g: &mut G,
        ply: usize,
        qdepth: u8,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        if let Some(t) = g.terminal() {
            return terminal_value(t, g.side(), ply);
        }
        let stand = self.static_eval(g);
        if !self.config.quiescence || qdepth == 0 || ply >= MAX_PLY {
            return stand;
        }
        let mut best = stand;
        if best >= beta {
            return best;
        }
        alpha = alpha.max(best);
        let buf = &mut self.bufs[ply];
        buf.clear();
        g.generate_captures(buf);
        let n = buf.len();
        for j in 0..n {
            let key = if self.config.order_captures {
                g.capture_order(self.bufs[ply][j])
            } else {
                0
            };
            self.keys[ply][j] = pack_key(key, j);
        }
        for i in 0..n {
            let keys = &mut self.keys[ply][..n];
            let mut bi = i;
            for j in i + 1..n {
                if keys[j] > keys[bi] {
                    bi = j;
                }
            }
            keys.swap(i, bi);
            let m = self.bufs[ply][unpack_index(keys[i])];
            if self.config.delta_pruning {
                if let Some(gain) = g.capture_value(m) {
                    if stand + gain + DELTA_MARGIN <= alpha {
                        continue;
                    }
                }
            }
            if self.config.exchange_pruning && g.exchange_value(m).is_some_and(|x| x < 0) {
                continue;
            }
            let side = g.side();
            let undo = g.make(m);
            self.count_node();
            let v = if g.side() == side {
                self.quiesce(g, ply + 1, qdepth - 1, alpha, beta)
            } else {
                -self.quiesce(g, ply + 1, qdepth - 1, -beta, -alpha)
            };
            g.unmake(m, undo);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                self.update_pv(ply, G::move_to_u16(m));
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// No static evaluation at a ply (in check, or none computed).
const NO_EVAL: Value = Value::MIN;
/// No move slot at a ply (a null move, or none made yet).
const NO_SLOT: u32 = u32::MAX;
/// The most quiet moves per node whose history a cutoff lowers.
const MAX_TRIED: usize = 64;
/// Histories stay within plus or minus this.
const HISTORY_MAX: i32 = 16_384;
/// A history score of this much takes one ply off a late move's reduction.
const HISTORY_REDUCTION_DIV: i32 = 8_192;
/// Reverse futility: at most this many plies left, this margin per ply.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: Value = 80;
/// Futility: at most this many plies left; base and margin per ply.
const FUTILITY_DEPTH: i32 = 5;
const FUTILITY_BASE: Value = 60;
const FUTILITY_MARGIN: Value = 90;
/// Late move pruning: at most this many plies left.
const LMP_DEPTH: i32 = 6;
/// Null move: at least this many plies left; reduction `base + depth / divisor + (eval -
/// beta) / eval divisor (at most 2)`; verified from this depth on.
const NULL_MIN_DEPTH: i32 = 3;
const NULL_BASE_REDUCTION: i32 = 3;
const NULL_DEPTH_DIVISOR: i32 = 4;
const NULL_EVAL_DIVISOR: Value = 200;
const NULL_VERIFY_DEPTH: i32 = 10;
/// Internal iterative reductions: at least this many plies left.
const IIR_DEPTH: i32 = 4;
/// Delta pruning's margin over the captured piece's value.
const DELTA_MARGIN: Value = 150;
/// Aspiration windows wider than this become the full window.
const ASPIRATION_LIMIT: Value = 1_000;

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

/// Moves `entry` towards `±HISTORY_MAX` by `bonus`, less the nearer it is already.
#[inline]
fn gravity(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// Late move reductions by depth and move number: `0.25 + ln(depth) * ln(moves) / 2.25`
/// plies, rounded down.
fn reduction_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = 0.25 + (d as f64).ln() * (m as f64).ln() / 2.25;
            *r = v.clamp(0.0, 60.0) as u8;
        }
    }
    t
}

/// The stages of a node's move loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Table,
    Captures,
    Killers,
    Rest,
}

/// How many moves of a node are picked by selection before the rest is sorted.
const SELECTION_PICKS: usize = 3;

/// An ordering key and a move's index in one sortable word: higher keys first, then lower
/// indices (generation order). A key of `i32::MIN` packs to a word below `1 << 32`.
#[inline]
fn pack_key(key: i32, index: usize) -> u64 {
    ((i64::from(key) - i64::from(i32::MIN)) as u64) << 32 | (0xFFFF - index as u64)
}

#[inline]
fn unpack_index(packed: u64) -> usize {
    0xFFFF - (packed & 0xFFFF) as usize
}

/// Nodes per second.
#[must_use]
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / us) as u64
}
