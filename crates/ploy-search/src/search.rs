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

/// Search options. Every pruning, reduction and ordering heuristic can be switched off.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// Principal variation search in the alpha-beta driver (zero-window searches of all but
    /// the first move, re-searched when they fail high).
    pub pvs: bool,
    /// Quiescence search on captures at the horizon.
    pub quiescence: bool,
    /// Most plies of quiescence search below the horizon.
    pub max_quiescence: u8,
    /// Late move reductions: quiet moves after the first four, other than killers, are first
    /// searched two plies shallower (with depth left of at least 3) and searched again in
    /// full only if they beat alpha. A forward reduction, so results are no longer exactly
    /// negamax's; on by default because it won its matches (see the crate docs).
    pub late_move_reductions: bool,
    /// Size in bytes of the evaluation cache (8-byte entries keyed by the position hash);
    /// 0 switches it off.
    pub eval_cache_bytes: usize,
    /// Stop deepening when a forced result within the searched depth is proven (with late
    /// move reductions on, only by iterations of at most 2 plies, which they do not touch).
    pub stop_at_proven_result: bool,
    /// Use the score of the iteration two plies back as MTD(f)'s first guess (Ploy's
    /// odd/even swing); otherwise the previous iteration's.
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

impl Default for Config {
    fn default() -> Config {
        Config {
            driver: Driver::Mtdf,
            table_bytes: Table::DEFAULT_BYTES,
            table_move: true,
            order_captures: true,
            killers: 3,
            history: true,
            pvs: true,
            quiescence: true,
            max_quiescence: 16,
            late_move_reductions: true,
            eval_cache_bytes: 1 << 18,
            stop_at_proven_result: true,
            guess_from_same_parity: true,
            threads: 1,
        }
    }
}

impl Config {
    /// The default configuration without forward pruning or reductions: the search returns
    /// exactly the negamax value of the searched depth.
    #[must_use]
    pub fn exact() -> Config {
        Config {
            late_move_reductions: false,
            ..Config::default()
        }
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
            pvs: false,
            quiescence: false,
            max_quiescence: 0,
            late_move_reductions: false,
            eval_cache_bytes: 1 << 18,
            stop_at_proven_result: false,
            guess_from_same_parity: true,
            threads: 1,
        }
    }
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
/// With the `serde` feature it is `Serialize`/`Deserialize` when its move type is: for Ploy
/// the moves travel as their university move strings (`"c8-c6-0"`), the time as seconds and
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
/// A searcher is [`Send`] when its evaluator and the game's moves are (for Ploy,
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
    history: Vec<i32>,
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

    /// Forgets the table, killers and history (the helper threads' too).
    pub fn clear(&mut self) {
        self.table.clear();
        self.helpers.clear();
        self.eval_cache.fill(0);
        self.history.fill(0);
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
    /// ```
    /// use ploy_core::Position;
    /// use ploy_search::{Config, EvalPosition, Evaluation, Limits, SearchOptions, Searcher};
    ///
    /// let pos = EvalPosition::new(Position::new());
    /// let mut searcher = Searcher::new(Config::default(), Evaluation::default());
    /// let mut lines = Vec::new();
    /// let options = SearchOptions::default().with_lines(3);
    /// let r = searcher.search_with(&pos, &[], &Limits::depth(2), &options, |info| {
    ///     lines.push((info.depth, info.multipv, info.best_move));
    /// });
    /// assert_eq!(lines.len(), 6);
    /// assert_eq!(lines[3], (2, Some(1), r.best_move));
    /// // Three different moves at each depth.
    /// assert!(lines[3].2 != lines[4].2 && lines[4].2 != lines[5].2 && lines[3].2 != lines[5].2);
    /// ```
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
            self.config.late_move_reductions = false;
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
            for line in 0..lines {
                self.root_best = None;
                self.root_pv.clear();
                let value = match self.config.driver {
                    Driver::AlphaBeta => {
                        let v = self.alphabeta(&mut g, depth as i32, 0, -INF, INF);
                        self.save_root_pv();
                        v
                    }
                    Driver::Mtdf => {
                        let history = &scores[line];
                        let guess = match history.len() {
                            0 if line > 0 => scores[line - 1].last().copied().unwrap_or(0),
                            0 => 0,
                            n if n >= 2 && self.config.guess_from_same_parity => history[n - 2],
                            n => history[n - 1],
                        };
                        self.mtdf(&mut g, depth as i32, guess)
                    }
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
            // A forced result within the searched depth is exact unless reductions may have
            // hidden a defence (they act only where at least 3 plies are left).
            let exact = !self.config.late_move_reductions || depth <= 2;
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
            if passes > 64 || lower > upper {
                // Never seen in practice; a full-window search settles it.
                let v = self.alphabeta(g, depth, 0, -INF, INF);
                self.save_root_pv();
                return v;
            }
        }
        f
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

    /// Makes `m`, searches the child with the window `(alpha, beta)` of this node, and
    /// returns the child's value from this node's side.
    #[inline]
    fn child(
        &mut self,
        g: &mut G,
        m: G::Move,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
    ) -> Value {
        let side = g.side();
        let capture = g.is_capture(m);
        let undo = g.make(m);
        self.count_node();
        let saved_floor = self.floor;
        if capture {
            self.floor = self.path.len();
        }
        self.path.push(g.hash());
        let v = if g.side() == side {
            self.alphabeta(g, depth, ply + 1, alpha, beta)
        } else {
            -self.alphabeta(g, depth, ply + 1, -beta, -alpha)
        };
        self.path.pop();
        self.floor = saved_floor;
        g.unmake(m, undo);
        v
    }

    fn reward(&mut self, g: &G, m: G::Move, code: u16, depth: i32, ply: usize) {
        if g.is_capture(m) {
            return;
        }
        let k = self.config.killers;
        if k > 0 {
            let row = &mut self.killers[ply];
            if row[0] != code {
                let pos = row[..k].iter().position(|&x| x == code).unwrap_or(k - 1);
                row.copy_within(0..pos, 1);
                row[0] = code;
            }
        }
        if self.config.history {
            let h = &mut self.history[g.side().index() * G::HISTORY_SIZE + G::history_index(m)];
            *h = (*h + depth * depth).min(1 << 26);
        }
    }

    /// Fail-soft alpha-beta with memory.
    fn alphabeta(
        &mut self,
        g: &mut G,
        depth: i32,
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
        if depth <= 0 {
            return self.quiesce(g, ply, self.config.max_quiescence, alpha, beta);
        }
        let key = g.hash();
        let mut tt_code = NO_MOVE;
        if self.use_table() {
            if let Some(e) = self.table.probe(key) {
                tt_code = e.mv;
                if ply > 0 && i32::from(e.depth) >= depth {
                    let lower = if e.lower <= -INF {
                        -INF
                    } else {
                        from_table(e.lower, ply)
                    };
                    let upper = if e.upper >= INF {
                        INF
                    } else {
                        from_table(e.upper, ply)
                    };
                    if lower >= beta || lower == upper {
                        return lower;
                    }
                    if upper <= alpha {
                        return upper;
                    }
                    alpha = alpha.max(lower);
                    beta = beta.min(upper);
                }
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let side = g.side().index();
        let mut best = -INF;
        let mut best_code = NO_MOVE;
        let mut searched = 0usize;

        let tt_move = if self.config.table_move && tt_code != NO_MOVE {
            G::move_from_u16(tt_code).filter(|&m| g.is_legal(m))
        } else {
            None
        };
        // Staged move generation: the table move, then captures (most valuable victim
        // first), then killers, then every other move ordered by history. A node that cuts
        // off early never generates its quiet moves.
        let mut stage = Stage::Table;
        let (mut i, mut n, mut ci, mut cn, mut ki) = (0, 0, 0, 0, 0);
        let mut done = [NO_MOVE; MAX_KILLERS];
        let mut n_done = 0;
        loop {
            let m = match stage {
                Stage::Table => {
                    stage = if self.config.order_captures {
                        Stage::Captures
                    } else {
                        Stage::Killers
                    };
                    match tt_move {
                        Some(m) => m,
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
                    m
                }
                Stage::Killers => {
                    if ki >= self.config.killers {
                        stage = Stage::Rest;
                        continue;
                    }
                    let code = self.killers[ply][ki];
                    ki += 1;
                    let Some(m) = G::move_from_u16(code) else {
                        continue;
                    };
                    if code == NO_MOVE || Some(m) == tt_move || !g.is_legal(m) || g.is_capture(m) {
                        continue;
                    }
                    done[n_done] = code;
                    n_done += 1;
                    m
                }
                Stage::Rest => {
                    if i == 0 && n == 0 {
                        let buf = &mut self.bufs[ply];
                        buf.clear();
                        g.generate(buf);
                        n = buf.len();
                        assert!(
                            n <= MAX_MOVES,
                            "too many moves for the search's scratch arrays"
                        );
                        for j in 0..n {
                            let mj = self.bufs[ply][j];
                            let code = G::move_to_u16(mj);
                            let key = if Some(mj) == tt_move
                                || (self.config.order_captures && g.is_capture(mj))
                                || done[..n_done].contains(&code)
                            {
                                i32::MIN
                            } else if self.config.history {
                                self.history[side * G::HISTORY_SIZE + G::history_index(mj)]
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
                    self.bufs[ply][unpack_index(k)]
                }
            };
            let code = G::move_to_u16(m);
            if ply == 0 && self.skip_root_move(code) {
                continue;
            }
            let v = self.search_move(g, m, depth, ply, alpha, beta, searched);
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
                        self.reward(g, m, code, depth, ply);
                        break;
                    }
                }
            }
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
                .store(key, depth.min(250) as u8, lower, upper, best_code);
        }
        best
    }

    /// Searches one move of a node: plain, PVS or reduced.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move(
        &mut self,
        g: &mut G,
        m: G::Move,
        depth: i32,
        ply: usize,
        alpha: Value,
        beta: Value,
        searched: usize,
    ) -> Value {
        let zero_window = beta == alpha + 1;
        if self.config.late_move_reductions && depth >= 3 && searched >= 4 && !g.is_capture(m) {
            let code = G::move_to_u16(m);
            let killer = self.killers[ply][..self.config.killers].contains(&code);
            if !killer {
                let v = self.child(g, m, depth - 2, ply, alpha, alpha + 1);
                if v <= alpha || self.stopped {
                    return v;
                }
            }
        }
        if self.config.pvs && !zero_window && searched > 0 {
            let v = self.child(g, m, depth - 1, ply, alpha, alpha + 1);
            if v <= alpha || v >= beta || self.stopped {
                return v;
            }
        }
        self.child(g, m, depth - 1, ply, alpha, beta)
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
