//! The engine: Pente on ploy-search, at full strength, at a [`Level`] 1 to 8, or as a
//! narrowed search of the 2018 program ([`Ladder`]).

mod budget;
mod eval;
pub(crate) mod patterns;
mod proven;
mod state;
mod threat;

use core::fmt;
use std::sync::Arc;
use std::time::Duration;

use ploy_search::{
    Clock, Config, Info, Level, LevelRng, Limits, Score, SearchGame, SearchOptions, Searcher,
    SystemClock, choose_within,
};
use thiserror::Error;

pub use eval::{EvalParams, EvalTerms, Evaluation};
pub use state::{SearchPosition, Tuning};

use crate::position::Position;
use crate::types::Move;
use budget::{
    PLAY_OUT_NODES, VERIFY_CHECKS, VERIFY_PARTS, VERIFY_SHARE_MAIN, check_share, min_option,
    remaining, research_share, scaled,
};
use proven::{Continuation, ProvenWin};
use state::Narrowing;
use threat::{ThreatBudget, ThreatSearch};

/// A narrowed search in the manner of the 2018 program: look-ahead depth, padding of the
/// candidate box, and widths per ply (the options `depth(D)`, `padding(P)` and
/// `width(W)`; [`Ladder::difficulty`] has the old five presets). Before 0.2 this type was
/// called `Level`; that name is now the 8-level strength shared by every game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Ladder {
    /// Plies of look-ahead (0: the best-ordered move, no look-ahead).
    pub depth: u32,
    /// Candidate moves are the legal points inside the bounding box of all stones widened
    /// by this many points on every side (widened further, one step at a time, if none is
    /// legal there).
    pub padding: u8,
    /// At ply `i` of the look-ahead only the `width[i]` best-ordered moves are searched;
    /// the last entry repeats. Never empty; entries at least 1.
    pub width: Vec<u16>,
}

/// A difficulty outside 1..=5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("difficulty {0} is not from 1 to 5")]
pub struct DifficultyError(pub u32);

impl Ladder {
    /// The old preset of a difficulty from 1 (easiest) to 5 (the `difficulty(D)` option
    /// now chooses a [`Level`], see [`level_of_difficulty`]; these presets are the
    /// starting point that `depth(D)`, `padding(P)` and `width(W)` change):
    ///
    /// | difficulty | depth | padding | width |
    /// |---|---|---|---|
    /// | 1 | 1 | 1 | 3 |
    /// | 2 | 3 | 1 | 3, 2 |
    /// | 3 | 5 | 2 | 4, 3, 2 |
    /// | 4 | 5 | 2 | 6, 4, 3 |
    /// | 5 | 7 | 3 | 8, 5, 3, 2 |
    ///
    /// # Errors
    /// [`DifficultyError`] outside 1..=5.
    pub fn difficulty(d: u32) -> Result<Ladder, DifficultyError> {
        let (depth, padding, width): (u32, u8, &[u16]) = match d {
            1 => (1, 1, &[3]),
            2 => (3, 1, &[3, 2]),
            3 => (5, 2, &[4, 3, 2]),
            4 => (5, 2, &[6, 4, 3]),
            5 => (7, 3, &[8, 5, 3, 2]),
            _ => return Err(DifficultyError(d)),
        };
        Ok(Ladder {
            depth,
            padding,
            width: width.to_vec(),
        })
    }
}

impl fmt::Display for Ladder {
    /// `depth 5, padding 2, width [4,3,2]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}, padding {}, width [", self.depth, self.padding)?;
        for (i, w) in self.width.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{w}")?;
        }
        f.write_str("]")
    }
}

/// The level of an old difficulty 1 to 5 (`--difficulty`, `difficulty(D)`): one more,
/// so difficulty 1 is level 2 and difficulty 5 is level 6.
///
/// ```
/// use pente::{Level, engine::level_of_difficulty};
/// assert_eq!(level_of_difficulty(1)?, Level::new(2)?);
/// assert_eq!(level_of_difficulty(5)?, Level::new(6)?);
/// assert!(level_of_difficulty(6).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`DifficultyError`] outside 1..=5.
pub fn level_of_difficulty(d: u32) -> Result<Level, DifficultyError> {
    if (1..=5).contains(&d) {
        Level::new(d as u8 + 1).map_err(|_| DifficultyError(d))
    } else {
        Err(DifficultyError(d))
    }
}

/// How the engine plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Strength {
    /// Full strength: the threat search, then the whole search within the budget.
    #[default]
    Full,
    /// A level 1 to 8 ([`LevelParams::of`] gives what each does): level 8 is full
    /// strength; the others search within their own node and depth limits (and the
    /// caller's budget) and now and then choose a weaker move, seeded by the engine's seed,
    /// the position and the ply.
    Level(Level),
    /// A narrowed search of the 2018 program: the same evaluation and move ordering,
    /// limited by depth, padding and width; budgets other than the stop flag do not apply.
    Ladder(Ladder),
}

/// What a level below 8 does: its own limits within the caller's budget, how many best
/// lines it searches, and its deliberate error.
///
/// | level | nodes | depth | threat nodes | lines | margin | other move ‰ |
/// |---|---|---|---|---|---|---|
/// | 1 | 1,000 | 1 | 0 | 24 | 3,000 | 900 |
/// | 2 | 1,000 | 1 | 0 | 8 | 400 | 450 |
/// | 3 | 1,000 | 1 | 0 | 6 | 250 | 300 |
/// | 4 | 2,000 | 2 | 0 | 3 | 80 | 60 |
/// | 5 | 3,000 | 3 | 1,000 | 2 | 40 | 30 |
/// | 6 | 4,000 | | 4,000 | 2 | 20 | 10 |
/// | 7 | 12,000 | | 15,000 | 2 | 10 | 0 |
/// | 8 | | | 200,000 | 1 | 0 | 0 |
///
/// A level searches like full strength, with at most `nodes` nodes and `depth` plies (and
/// the caller's limits when smaller), `threat_nodes` for the threat search first (a forced
/// win it proves is played), and `lines` best lines. Then, seeded by the engine's seed,
/// the position's hash and the ply, it plays a move chosen at random among the lines
/// within `margin` of the best (in evaluation units; a stone pair is worth about 100), or,
/// with a chance of `other` in a thousand, any of the lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// Most nodes a move (main search and threat search together); `None`: the caller's.
    pub nodes: Option<u64>,
    /// Most plies of the main search; `None`: the caller's.
    pub depth: Option<u32>,
    /// Most nodes of the threat search (0: none).
    pub threat_nodes: u64,
    /// Best lines searched (MultiPV).
    pub lines: usize,
    /// Lines within this of the best are equally likely.
    pub margin: i64,
    /// Chance in a thousand of playing any of the lines.
    pub other_per_mille: u32,
}

impl LevelParams {
    /// The parameters of `level` (level 8: the caller's budget, one line, no error).
    #[must_use]
    pub const fn of(level: Level) -> LevelParams {
        LEVELS[level.get() as usize - 1]
    }

    const fn row(
        nodes: Option<u64>,
        depth: Option<u32>,
        threat_nodes: u64,
        lines: usize,
        margin: i64,
        other_per_mille: u32,
    ) -> LevelParams {
        LevelParams {
            nodes,
            depth,
            threat_nodes,
            lines,
            margin,
            other_per_mille,
        }
    }
}

/// Levels 1 to 8.
const LEVELS: [LevelParams; 8] = [
    LevelParams::row(Some(1_000), Some(1), 0, 24, 3_000, 900),
    LevelParams::row(Some(1_000), Some(1), 0, 8, 400, 450),
    LevelParams::row(Some(1_000), Some(1), 0, 6, 250, 300),
    LevelParams::row(Some(2_000), Some(2), 0, 3, 80, 60),
    LevelParams::row(Some(3_000), Some(3), 1_000, 2, 40, 30),
    LevelParams::row(Some(4_000), None, 4_000, 2, 20, 10),
    LevelParams::row(Some(12_000), None, 15_000, 2, 10, 0),
    LevelParams::row(None, None, 200_000, 1, 0, 0),
];

/// The answer of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The move to play (`None` when the game is over).
    pub best_move: Option<Move>,
    /// Its score for the player to move: an evaluation, or a win or loss in plies.
    pub score: Score,
    /// Depth reached (plies; for a win found by the threat search, the win's length).
    pub depth: u32,
    /// The expected line, starting with the best move.
    pub pv: Vec<Move>,
    /// Nodes searched (moves made).
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// Whether the threat search proved the win.
    pub by_threats: bool,
}

/// The engine: a searcher with its table, a strength and a seeded generator for the
/// choice among equal moves.
///
/// ```
/// use pente::{Engine, Position, Rules, Size, Strength, Level};
/// use ploy_search::Limits;
/// let pos = Position::from_moves(Rules::new(Size::S9), &["E5".parse()?, "F6".parse()?])
///     .map_err(|(_, e)| e)?;
/// let mut engine = Engine::new(Strength::Full);
/// let a = engine.search(&pos, &Limits::depth(3), |_| {});
/// assert!(pos.is_legal(a.best_move.unwrap()));
/// // Level 2 of 8, seeded: the same seed replays the same moves.
/// let mut easy = Engine::new(Strength::Level(Level::new(2)?)).with_seed(7);
/// let m = easy.search(&pos, &Limits::nodes(20_000), |_| {}).best_move.unwrap();
/// assert!(pos.is_legal(m));
/// let mut again = Engine::new(Strength::Level(Level::new(2)?)).with_seed(7);
/// assert_eq!(again.search(&pos, &Limits::nodes(20_000), |_| {}).best_move, Some(m));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    strength: Strength,
    searcher: Searcher<SearchPosition, Evaluation>,
    seed: u64,
    rng: u64,
    threat_nodes: u64,
    tuning: Tuning,
    clock: Arc<dyn Clock + Send + Sync>,
    /// The searcher of the opponent's search that checks a move (made at first use).
    checker: Option<Searcher<SearchPosition, Evaluation>>,
    /// The win announced with the last full-strength move, kept for the next one.
    proven: Option<ProvenWin>,
    /// The opening book full strength plays from (none by default).
    book: Option<Arc<crate::book::Book>>,
}

/// A clock shared between the engine and its searcher.
struct SharedClock(Arc<dyn Clock + Send + Sync>);

impl Clock for SharedClock {
    fn now(&self) -> Duration {
        self.0.now()
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("strength", &self.strength)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

/// The search configuration at full strength: ploy-search's defaults with the game's own
/// move order instead of the history heuristic, and alpha-beta with principal variation
/// search instead of MTD(f) (it won 73 of 120 games against MTD(f) at 20,000 nodes a move:
/// Pente's evaluation swings with the side to move, which costs MTD(f) re-searches).
#[must_use]
pub fn full_strength_config() -> Config {
    Config {
        history: false,
        driver: ploy_search::Driver::AlphaBeta,
        ..Config::default()
    }
}

/// The configuration of the opponent's search that checks a move: full strength's with a
/// table of 16 MiB.
fn checker_config() -> Config {
    Config {
        table_bytes: 16 << 20,
        ..full_strength_config()
    }
}

/// The configuration of the depth-1 search made when the budget ran out before the main
/// search completed an iteration: full strength's, without a table, and with quiescence
/// cut to [`DEPTH_ONE_QUIESCENCE`] plies (a long series of captures and fours below depth 1
/// can cost hundreds of thousands of nodes).
fn depth_one_config() -> Config {
    Config {
        table_bytes: 0,
        max_quiescence: DEPTH_ONE_QUIESCENCE,
        ..full_strength_config()
    }
}

/// Most plies of quiescence in the depth-1 search made when the budget ran out first.
const DEPTH_ONE_QUIESCENCE: u8 = 4;

/// The configuration of the ladder: plain alpha-beta over the narrowed moves, no
/// quiescence, no reductions, no table (so that widths per ply are respected exactly).
fn ladder_config() -> Config {
    Config {
        table_bytes: 0,
        ..Config::plain()
    }
}

impl Engine {
    /// An engine of `strength`, seed 0.
    #[must_use]
    pub fn new(strength: Strength) -> Engine {
        Engine::with_evaluation(strength, Evaluation::default())
    }

    /// An engine of `strength` with evaluation `eval`.
    #[must_use]
    pub fn with_evaluation(strength: Strength, eval: Evaluation) -> Engine {
        let config = match strength {
            Strength::Full | Strength::Level(_) => full_strength_config(),
            Strength::Ladder(_) => ladder_config(),
        };
        Engine::with_config(strength, config, eval)
    }

    /// An engine of `strength` with evaluation `eval` and the search configuration
    /// `config` (for experiments; [`full_strength_config`] is the full strength's).
    #[must_use]
    pub fn with_config(strength: Strength, config: Config, eval: Evaluation) -> Engine {
        Engine {
            strength,
            searcher: Searcher::new(config, eval),
            seed: 0,
            rng: mix64(0),
            threat_nodes: 200_000,
            tuning: Tuning::default(),
            clock: Arc::new(SystemClock::new()),
            checker: None,
            proven: None,
            book: None,
        }
    }

    /// The same engine with seed `seed`: its choices among equal moves follow it.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Engine {
        self.seed = seed;
        self.rng = mix64(seed);
        self
    }

    /// The same engine with at most `nodes` nodes for the threat search before each
    /// search at full strength (default 200,000; 0 switches it off).
    #[must_use]
    pub fn with_threat_nodes(mut self, nodes: u64) -> Engine {
        self.threat_nodes = nodes;
        self
    }

    /// The same engine reading `clock` for its time budgets (the system clock by default;
    /// a clock of the thread's processor time makes budgets fair on a busy machine).
    #[must_use]
    pub fn with_clock(mut self, clock: impl Clock + Send + Sync + 'static) -> Engine {
        let clock: Arc<dyn Clock + Send + Sync> = Arc::new(clock);
        self.searcher.set_clock(SharedClock(Arc::clone(&clock)));
        self.clock = clock;
        self.checker = None;
        self
    }

    /// The same engine with the move generation's knobs `tuning` (full strength only).
    #[must_use]
    pub fn with_tuning(mut self, tuning: Tuning) -> Engine {
        self.tuning = tuning;
        self
    }

    /// Plays from `book` at full strength (and level 8) from the next search on, or
    /// without a book (`None`, the default): a position the book holds is answered with
    /// its move at once, without a search (see [`crate::book`]; `Book::builtin()` is the
    /// committed one).
    pub fn set_book(&mut self, book: Option<Arc<crate::book::Book>>) {
        self.book = book;
    }

    /// The same engine playing from `book` ([`Engine::set_book`]).
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<crate::book::Book>>) -> Engine {
        self.book = book;
        self
    }

    /// The strength.
    #[must_use]
    pub fn strength(&self) -> &Strength {
        &self.strength
    }

    /// Plays at `level` from the next search on (an engine made for a [`Ladder`] gets the
    /// full-strength search configuration, with a new table).
    pub fn set_level(&mut self, level: Level) {
        if matches!(self.strength, Strength::Ladder(_)) {
            let eval = self.searcher.evaluator().clone();
            self.searcher = Searcher::new(full_strength_config(), eval);
            self.searcher
                .set_clock(SharedClock(Arc::clone(&self.clock)));
        }
        self.strength = Strength::Level(level);
    }

    /// Forgets the table, the killers and the win announced with the last move (a new
    /// game).
    pub fn clear(&mut self) {
        self.searcher.clear();
        self.proven = None;
    }

    /// Forgets the win announced with the last move (see [`Engine::search`]) and keeps the
    /// table: the next search answers as if it were the first of a game, with what the
    /// table holds.
    pub fn forget_proven_win(&mut self) {
        self.proven = None;
    }

    fn next_random(&mut self) -> u64 {
        self.rng = mix64(self.rng);
        self.rng
    }

    /// Searches `pos` within `limits` and returns the move to play. `observer` sees every
    /// completed iteration of the main search, or the threat search's proven win.
    ///
    /// At full strength (and level 8) the threat search runs first, with at most a quarter
    /// of the budget; a win it proves is answered at once. With a node or time budget the
    /// main search then gets five eighths of it, and its move is checked with the rest:
    /// the opponent searches the position after it, and when that proves a win the other
    /// moves are searched again without it. Whatever the budget, depth 1 is completed.
    /// With a time budget every part fits its iterations to its time
    /// ([`SearchOptions::fit_iterations`]) and the check takes what the main search left,
    /// up to seven eighths of the time aimed at (the whole of a fixed time a move), the
    /// other moves the rest: the move's time is spent, not half of it.
    ///
    /// A win announced at full strength is kept across moves: the engine remembers the
    /// position after its move and the expected line, and when it is next asked to move in
    /// a position one reply later (a game played with one engine, as the front ends do) it
    /// must announce a win at least two plies shorter (searched again in the same position,
    /// after pondering, a win as short). When the main search does not (its
    /// table, kept between moves, usually still holds the proof), a search for a forced
    /// win within that many plies, without reductions, takes the rest of the budget (the
    /// share that would have checked the move; 2,000,000 nodes without a node or time
    /// budget): first of the stored line's move when the opponent replied as expected,
    /// then of every move. [`Engine::clear`] and [`Engine::forget_proven_win`] forget the
    /// announcement.
    ///
    /// With a book ([`Engine::set_book`]) full strength answers a position the book
    /// holds with the book's move at once (no nodes, the book search's score and depth).
    ///
    /// Levels 1 to 7 search within their own limits too ([`LevelParams`]). A [`Ladder`]
    /// ignores every budget but the stop flag. A finished game answers `best_move: None`
    /// with the result as the score.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> Analysis {
        let start = self.clock.now();
        match self.strength.clone() {
            Strength::Full => self.search_full(pos, limits, observer, start),
            Strength::Level(level) if level.is_full() => {
                self.search_full(pos, limits, observer, start)
            }
            Strength::Level(level) => {
                self.proven = None;
                self.search_weaker(pos, level, limits, observer, start)
            }
            Strength::Ladder(ladder) => {
                self.proven = None;
                self.search_ladder(pos, &ladder, limits, start)
            }
        }
    }

    fn search_full(
        &mut self,
        pos: &Position,
        limits: &Limits,
        observer: impl FnMut(&Info<'_, Move>),
        start: Duration,
    ) -> Analysis {
        if let Some(a) = self.book.as_ref().and_then(|b| b.answer(pos)) {
            self.proven = None;
            return a;
        }
        let claim = self.proven.take().and_then(|p| p.continuation(pos));
        let threat_nodes = self.threat_nodes;
        let verify = limits.nodes.is_some() || limits.hard_time.is_some();
        let mut observer = observer;
        let main = if verify {
            scaled(limits, VERIFY_SHARE_MAIN, VERIFY_PARTS)
        } else {
            limits.clone()
        };
        let (mut analysis, _) =
            self.search_lines(pos, &main, threat_nodes, 1, true, &mut observer, start);
        match claim {
            Some(claim) if !claim.kept_by(analysis.score) => {
                self.play_out(pos, limits, claim, &mut analysis, &mut observer, start);
            }
            Some(_) => {}
            None if verify => {
                self.verify_root(pos, limits, &mut analysis, &mut observer, start);
            }
            None => {}
        }
        analysis.time = self.clock.now().saturating_sub(start);
        self.proven = ProvenWin::of(pos, &analysis);
        analysis
    }

    /// Keeps the win announced with the last move when the main search did not find one
    /// as short (`claim.bound` plies at most): a search for a forced win within that many
    /// plies (no reductions), first of the stored line's move, then of every move, with
    /// the rest of the budget (or [`PLAY_OUT_NODES`] without a node or time budget). A win
    /// it proves replaces the main search's answer.
    fn play_out(
        &mut self,
        pos: &Position,
        limits: &Limits,
        claim: Continuation,
        analysis: &mut Analysis,
        observer: &mut impl FnMut(&Info<'_, Move>),
        start: Duration,
    ) {
        let budgeted = limits.nodes.is_some() || limits.hard_time.is_some();
        let rest = if budgeted {
            scaled(limits, VERIFY_PARTS - VERIFY_SHARE_MAIN, VERIFY_PARTS)
        } else {
            Limits {
                nodes: Some(PLAY_OUT_NODES),
                stop: limits.stop.clone(),
                ..Limits::default()
            }
        };
        let mut g = SearchPosition::new(pos.clone());
        g.set_salt(self.seed);
        g.set_root();
        g.set_tuning(self.tuning);
        let tries: Vec<(Vec<Move>, u32)> = match claim.stored {
            Some(m) => vec![(vec![m], 1), (Vec::new(), 2)],
            None => vec![(Vec::new(), 3)],
        };
        for (root_moves, thirds) in tries {
            let elapsed = self.clock.now().saturating_sub(start);
            let part = remaining(&scaled(&rest, thirds, 3), elapsed, limits);
            let options = SearchOptions {
                root_moves,
                mate_plies: Some(claim.bound),
                ..SearchOptions::default()
            };
            let r = self
                .searcher
                .search_with(&g, &[], &part, &options, &mut *observer);
            analysis.nodes += r.nodes;
            if claim.kept_by(r.score) && r.best_move.is_some() {
                analysis.best_move = r.best_move;
                analysis.score = r.score;
                analysis.depth = r.depth;
                analysis.pv = r.pv;
                analysis.by_threats = false;
                return;
            }
        }
    }

    /// Checks the chosen move of a full-strength search: after it, the opponent searches
    /// with a quarter of the budget; a win it proves refutes the move, and the other root
    /// moves are searched with the last eighth (at most [`VERIFY_CHECKS`] times). The main
    /// search may miss a win one ply deeper than it reaches (its late moves are reduced and
    /// quiet positions narrowed), where the opponent's own search, one ply on, finds it.
    fn verify_root(
        &mut self,
        pos: &Position,
        limits: &Limits,
        analysis: &mut Analysis,
        observer: &mut impl FnMut(&Info<'_, Move>),
        start: Duration,
    ) {
        let mut g = SearchPosition::new(pos.clone());
        g.set_salt(self.seed);
        g.set_root();
        g.set_tuning(self.tuning);
        let mut root = Vec::new();
        g.generate(&mut root);
        let mut refuted: Vec<Move> = Vec::new();
        for _ in 0..VERIFY_CHECKS {
            let Some(mv) = analysis.best_move else { return };
            if analysis.by_threats || analysis.score.is_win() || analysis.score.is_loss() {
                return;
            }
            let mut child = g.clone();
            child.make(mv);
            if child.position().is_over() {
                return;
            }
            child.set_root();
            let elapsed = self.clock.now().saturating_sub(start);
            let check = check_share(limits, elapsed);
            // The opponent's search gets a table of its own: the main search's entries
            // for the position after the move were searched with the narrower width of
            // the plies below the root and would answer in its place.
            let checker = self.checker.get_or_insert_with(|| {
                let mut s = Searcher::new(checker_config(), self.searcher.evaluator().clone());
                s.set_clock(SharedClock(Arc::clone(&self.clock)));
                s
            });
            checker.clear();
            let fitted = SearchOptions::default().with_fitted_iterations();
            let r = checker.search_with(&child, &[], &check, &fitted, |_| {});
            analysis.nodes += r.nodes;
            if !r.score.is_win() {
                return;
            }
            refuted.push(mv);
            let rest: Vec<Move> = root
                .iter()
                .copied()
                .filter(|m| !refuted.contains(m))
                .collect();
            if rest.is_empty() {
                // Every move searched loses: the refuted move stands, scored as lost.
                analysis.score = -r.score;
                return;
            }
            let elapsed = self.clock.now().saturating_sub(start);
            let again = research_share(limits, elapsed);
            let options = SearchOptions::default()
                .with_root_moves(rest)
                .with_fitted_iterations();
            let r2 = self
                .searcher
                .search_with(&g, &[], &again, &options, &mut *observer);
            analysis.nodes += r2.nodes;
            if r2.best_move.is_none() {
                return;
            }
            analysis.best_move = r2.best_move;
            analysis.score = r2.score;
            analysis.depth = r2.depth;
            analysis.pv = r2.pv;
        }
    }

    /// A level below 8: the search within the level's limits, several lines, and the
    /// seeded choice among them.
    fn search_weaker(
        &mut self,
        pos: &Position,
        level: Level,
        limits: &Limits,
        mut observer: impl FnMut(&Info<'_, Move>),
        start: Duration,
    ) -> Analysis {
        let p = LevelParams::of(level);
        let mut limits = limits.clone();
        limits.nodes = min_option(limits.nodes, p.nodes);
        limits.depth = min_option(limits.depth, p.depth);
        let threat_nodes = p.threat_nodes.min(self.threat_nodes);
        let (mut analysis, lines) = self.search_lines(
            pos,
            &limits,
            threat_nodes,
            p.lines,
            false,
            &mut observer,
            start,
        );
        if analysis.by_threats || lines.len() < 2 {
            return analysis;
        }
        let mut rng = LevelRng::new(self.seed, pos.hash(), u64::from(pos.plies()));
        let margin = if rng.chance(p.other_per_mille) {
            i64::MAX
        } else {
            p.margin
        };
        let scored: Vec<(Move, i64)> = lines
            .iter()
            .map(|(m, s, _)| (*m, i64::from(s.raw())))
            .collect();
        if let Some(choice) = choose_within(&scored, margin, &mut rng) {
            if let Some((m, s, pv)) = lines.into_iter().find(|l| l.0 == choice) {
                analysis.best_move = Some(m);
                analysis.score = s;
                analysis.pv = pv;
            }
        }
        analysis
    }

    /// The threat search (at most `threat_nodes`), then the main search for `lines` best
    /// lines (its iterations fitted to the hard time when `fit`); the answer and the lines
    /// of the deepest iteration that completed them all (move, score, line), best first
    /// (empty when the threat search answered).
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    fn search_lines(
        &mut self,
        pos: &Position,
        limits: &Limits,
        threat_nodes: u64,
        lines: usize,
        fit: bool,
        mut observer: impl FnMut(&Info<'_, Move>),
        start: Duration,
    ) -> (Analysis, Vec<(Move, Score, Vec<Move>)>) {
        let mut g = SearchPosition::new(pos.clone());
        g.set_salt(self.seed);
        g.set_root();
        g.set_tuning(self.tuning);
        let mut nodes = 0;
        if !pos.is_over() && threat_nodes > 0 {
            // The threat search gets a share of the budget.
            let share = u64::from(self.tuning.threat_share.min(100));
            let deadline = limits
                .hard_time
                .map(|t| start + t * self.tuning.threat_share.min(100) / 100);
            let clock = Arc::clone(&self.clock);
            let budget = ThreatBudget {
                nodes: limits
                    .nodes
                    .map_or(threat_nodes, |n| (n * share / 100).min(threat_nodes)),
                deadline,
                stop: limits.stop.clone(),
            };
            let mut ts = ThreatSearch::new(budget, &*clock);
            let found = ts.solve(&g, 12);
            nodes = ts.nodes;
            if let Some((mv, plies)) = found {
                let pv = [mv];
                let time = self.clock.now().saturating_sub(start);
                observer(&Info::new(plies, Score::win_in(plies), &pv, nodes, time));
                let analysis = Analysis {
                    best_move: Some(mv),
                    score: Score::win_in(plies),
                    depth: plies,
                    pv: vec![mv],
                    nodes,
                    time: self.clock.now().saturating_sub(start),
                    by_threats: true,
                };
                return (analysis, Vec::new());
            }
        }
        let mut limits = limits.clone();
        if let Some(n) = limits.nodes.as_mut() {
            *n = n.saturating_sub(nodes).max(1);
        }
        if let Some(t) = limits.hard_time.as_mut() {
            *t = t.saturating_sub(self.clock.now().saturating_sub(start));
        }
        if let Some(t) = limits.soft_time.as_mut() {
            *t = t.saturating_sub(self.clock.now().saturating_sub(start));
        }
        let mut found = LinesSeen::default();
        let mut options = SearchOptions::default().with_lines(lines);
        options.fit_iterations = fit;
        let r = if lines > 1 {
            self.searcher
                .search_with(&g, &[], &limits, &options, |info: &Info<'_, Move>| {
                    found.see(info);
                    observer(info);
                })
        } else {
            self.searcher
                .search_with(&g, &[], &limits, &options, &mut observer)
        };
        let mut r = r;
        if r.depth == 0 && !pos.is_over() {
            // No iteration completed within the budget: depth 1 is searched anyway, with
            // quiescence cut short so that it stays cheap (the budget is exceeded by that
            // much only).
            nodes += r.nodes;
            let mut shallow = Searcher::new(depth_one_config(), self.searcher.evaluator().clone());
            let one = Limits {
                depth: Some(1),
                stop: limits.stop.clone(),
                ..Limits::default()
            };
            let options = SearchOptions::default().with_lines(lines.max(1));
            r = shallow.search_with(&g, &[], &one, &options, |info: &Info<'_, Move>| {
                if lines > 1 {
                    found.see(info);
                }
                observer(info);
            });
        }
        let analysis = Analysis {
            best_move: r.best_move,
            score: r.score,
            depth: r.depth,
            pv: r.pv,
            nodes: nodes + r.nodes,
            time: self.clock.now().saturating_sub(start),
            by_threats: false,
        };
        (analysis, found.lines())
    }

    fn search_ladder(
        &mut self,
        pos: &Position,
        level: &Ladder,
        limits: &Limits,
        start: Duration,
    ) -> Analysis {
        let mut g = SearchPosition::new(pos.clone());
        g.set_salt(self.seed);
        g.set_root();
        g.set_narrowing(Some(Narrowing {
            padding: level.padding,
            width: level.width.clone(),
        }));
        let mut analysis = Analysis {
            best_move: None,
            score: Score::DRAW,
            depth: level.depth,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            by_threats: false,
        };
        if let Some(o) = pos.outcome() {
            analysis.score = match o.winner() {
                Some(w) if w == pos.turn() => Score::win_in(0),
                Some(_) => Score::loss_in(0),
                None => Score::DRAW,
            };
            analysis.depth = 0;
            return analysis;
        }
        let mut moves = Vec::new();
        g.generate(&mut moves);
        let mut scored: Vec<(Score, Move)> = Vec::with_capacity(moves.len());
        if level.depth == 0 {
            let best = moves
                .iter()
                .map(|m| g.order_score_of(*m))
                .max()
                .unwrap_or(0);
            for &m in &moves {
                if g.order_score_of(m) == best {
                    scored.push((Score::DRAW, m));
                }
            }
        } else {
            let child_limits = Limits {
                depth: Some(level.depth - 1),
                stop: limits.stop.clone(),
                ..Limits::default()
            };
            for &m in &moves {
                let undo = g.make(m);
                analysis.nodes += 1;
                let value = if let Some(o) = g.position().outcome() {
                    match o.winner() {
                        Some(_) => Score::win_in(1),
                        None => Score::DRAW,
                    }
                } else if level.depth == 1 {
                    Score::new(clamp16(-self.searcher.evaluator().value(&g)))
                } else {
                    let r = self.searcher.search(&g, &[], &child_limits, |_| {});
                    analysis.nodes += r.nodes;
                    -r.score
                };
                g.unmake(m, undo);
                scored.push((value, m));
            }
            let best = scored.iter().map(|s| s.0).max().unwrap_or(Score::DRAW);
            scored.retain(|s| s.0 == best);
        }
        if !scored.is_empty() {
            let pick = (self.next_random() % scored.len() as u64) as usize;
            analysis.best_move = Some(scored[pick].1);
            analysis.score = scored[pick].0;
            analysis.pv = vec![scored[pick].1];
        }
        analysis.time = self.clock.now().saturating_sub(start);
        analysis
    }
}

/// The lines a search with several lines reported: those of the deepest iteration that
/// reported as many lines as the first one did.
#[derive(Default)]
struct LinesSeen {
    /// Lines of the iteration being reported.
    current: Vec<(Move, Score, Vec<Move>)>,
    /// The last complete iteration's lines.
    complete: Vec<(Move, Score, Vec<Move>)>,
    /// How many lines an iteration has (those of the first).
    full: usize,
}

impl LinesSeen {
    fn see(&mut self, info: &Info<'_, Move>) {
        let Some(mv) = info.best_move else { return };
        if info.multipv.unwrap_or(1) == 1 {
            if self.full == 0 {
                self.full = self.current.len();
            }
            self.current.clear();
        }
        self.current.push((mv, info.score, info.pv.to_vec()));
        if self.full == 0 || self.current.len() >= self.full {
            self.complete.clone_from(&self.current);
        }
    }

    fn lines(mut self) -> Vec<(Move, Score, Vec<Move>)> {
        if self.full == 0 {
            // One iteration only: whatever it reported is complete.
            self.complete = self.current;
        }
        self.complete
    }
}

/// The SplitMix64 output function of `z` (a well-mixed 64-bit hash).
#[must_use]
pub(crate) const fn mix64(z: u64) -> u64 {
    let mut z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn clamp16(v: i32) -> i16 {
    v.clamp(-i32::from(Score::EVAL_MAX), i32::from(Score::EVAL_MAX)) as i16
}

#[cfg(test)]
mod tests;
