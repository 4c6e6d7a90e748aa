//! Pyloff for three and four players on the multi-player searches of
//! `ploy_search::multi`: [`MultiPosition`] is the game as they see it, the [`Evaluation`]
//! scores it for every player, and [`Engine::set_search_kind`] chooses the search.
//!
//! - **Final scores** ([`MultiGame::outcome`]): a game is decided for the search where it
//!   is over, at the move cap ([`Engine::set_move_cap`]) and where a cycle closes under the
//!   cap (see [`SearchPosition::with_game_trail`]: the scores the cycle reaches at the cap
//!   decide), exactly as for the two-sided reduction. The players with the highest score
//!   share first place: each of `k` of them gets [`WIN`]` / k`, the others `-`[`WIN`]; a
//!   game where everybody has the same score is a draw, 0 for all. On top, each player
//!   gets 100 a piece of his lead over the best other player (negative when behind), so
//!   a larger win is preferred. Every final score of a first place is above every
//!   evaluation, every loss below.
//! - **Evaluation** ([`MultiEvaluator`]): each player's own view, his terms of
//!   [`Evaluation::values`] minus the best other player's (the two-sided reduction's
//!   evaluation seen from each player in turn; [`crate::EvalParams::best_other`] can blend
//!   in the others' mean), kept within `±`[`WIN`]` / 8`.
//! - **Pass**: the rules have no voluntary pass; Best-Reply Search's pass hands the turn
//!   on as a move would (one more move made, which counts toward the cap) and changes
//!   nothing else.
//! - **Move ordering** ([`MultiGame::order`]): captures first (100 a piece of an enemy
//!   group whose last freedom the move takes, by the analysis of the board), then moves
//!   filling the last freedom of the mover's own group (50 a piece), then moves touching
//!   groups on their level. BRS+ plays the first of this order for the opponents who do not
//!   reply.
//! - **Table and history**: [`MultiGame::hash`] is the search position's hash (as the
//!   two-sided reduction's table keys it), [`MultiGame::move_index`] the cell (a swap 0,
//!   a pass 1), for the transposition table, killer moves and history of [`Paranoid`] and
//!   [`Brs`].
//!
//! # Example
//!
//! ```
//! use ploy_search::Limits;
//! use ploy_search::multi::{Brs, MultiGame};
//! use pyloff::{Evaluation, Game, MultiPosition, Options, RuleSet, SearchPosition};
//!
//! let game = Game::from_moves(Options::new(4, 3, RuleSet::Default)?, "a1 c3 e5")?;
//! let g = MultiPosition::new(SearchPosition::new(game.position().clone()));
//! assert_eq!((g.players(), g.to_move()), (3, 0));
//! let r = Brs::new(Evaluation::default()).search(&g, &Limits::depth(2));
//! assert!(game.position().is_legal(r.best_move.unwrap()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Instant;

use ploy_search::multi::{
    Brs, Mcts, MctsConfig, MultiEvaluator, MultiGame, MultiResult, Paranoid, ScoreVector,
    SearchKind,
};
use ploy_search::{
    Info, LevelRng, Limits, Score, SearchGame, SearchOptions, SearchResult, choose_within,
};

use crate::engine::{Engine, LevelParams, SearchPosition, min_option};
use crate::eval::Evaluation;
use crate::position::Undo;
use crate::types::Move;

/// The final score of a first place alone (see the module docs): above every evaluation.
pub const WIN: i32 = 1_000_000;

/// The search the engine uses for `players` players unless told otherwise
/// ([`Engine::set_search_kind`]): BRS+ for four players, the paranoid reduction for three
/// (and for two, which are always searched as two sides).
///
/// Chosen by matches against the paranoid reduction as it was before (see the crate's
/// document, "Which search is the default"): with four players BRS+ took more than its fair
/// share of first places at a fixed node budget and at 200 ms a move; with three players
/// none of the multi-player searches did, and the paranoid reduction itself, with urgent
/// moves first ([`crate::SearchPosition::orders_urgent_moves`]), did.
///
/// ```
/// use ploy_search::multi::SearchKind;
/// assert_eq!(pyloff::multi::default_search(4), SearchKind::BrsPlus);
/// assert_eq!(pyloff::multi::default_search(3), SearchKind::Paranoid);
/// ```
#[must_use]
pub fn default_search(players: u8) -> SearchKind {
    if players >= 4 {
        SearchKind::BrsPlus
    } else {
        SearchKind::Paranoid
    }
}

/// MCTS iterations a ply of depth when a search has a depth limit and no other budget.
pub const MCTS_ITERATIONS_PER_PLY: u64 = 1_000;

/// A Pyloff position as the multi-player searches see it ([`MultiGame`]): a
/// [`SearchPosition`] (with its move cap and trail), and the root moves to search.
///
/// ```
/// use ploy_search::multi::MultiGame;
/// use pyloff::{MultiPosition, Options, Position, RuleSet, SearchPosition};
///
/// let pos = Position::new(Options::new(3, 4, RuleSet::Default)?);
/// let mut g = MultiPosition::new(SearchPosition::new(pos.clone()));
/// let before = g.clone();
/// let mv = "a1".parse()?;
/// let undo = g.make(mv);
/// g.make_pass();
/// assert_eq!(g.to_move(), 2);
/// g.unmake_pass();
/// g.unmake(mv, undo);
/// assert_eq!(g, before);
/// assert_eq!(g.position().hash(), pos.hash());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiPosition {
    g: SearchPosition,
    /// The undos of the passes made, last on top.
    passes: Vec<Undo>,
    /// Search only these root moves (empty: all).
    root_moves: Vec<Move>,
    /// The number of moves made at the root.
    root_plies: u32,
}

impl MultiPosition {
    /// `g` ready for the multi-player searches (its root player is ignored: every player
    /// has his own score).
    #[must_use]
    pub fn new(g: SearchPosition) -> MultiPosition {
        let root_plies = g.position().plies();
        MultiPosition {
            g,
            passes: Vec::new(),
            root_moves: Vec::new(),
            root_plies,
        }
    }

    /// Searches only those of `moves` that are legal at the root (the protocols'
    /// `searchmoves`); if none is, every move.
    #[must_use]
    pub fn with_root_moves(mut self, moves: &[Move]) -> MultiPosition {
        self.root_moves = moves
            .iter()
            .copied()
            .filter(|&m| self.g.position().is_legal(m))
            .collect();
        self
    }

    /// The position.
    #[must_use]
    pub fn position(&self) -> &crate::Position {
        self.g.position()
    }

    /// The search position (move cap and trail included).
    #[must_use]
    pub fn search_position(&self) -> &SearchPosition {
        &self.g
    }
}

/// The final scores of `scores` (pieces by player; see the module docs).
#[must_use]
pub fn final_scores(scores: &[u32]) -> ScoreVector {
    let mut out = [0; 4];
    let n = scores.len().min(4);
    let best = scores.iter().copied().max().unwrap_or(0);
    let leaders = scores.iter().filter(|&&s| s == best).count();
    if leaders == n {
        return out;
    }
    for p in 0..n {
        let best_other = (0..n)
            .filter(|&q| q != p)
            .map(|q| scores[q])
            .max()
            .unwrap_or(0);
        let lead = 100 * (i64::from(scores[p]) - i64::from(best_other));
        let base = if scores[p] == best {
            WIN / leaders as i32
        } else {
            -WIN
        };
        out[p] = base + lead as i32;
    }
    out
}

impl MultiGame for MultiPosition {
    type Move = Move;
    type Undo = Undo;
    type Moves = Vec<Move>;

    fn players(&self) -> usize {
        usize::from(self.g.position().players())
    }

    fn to_move(&self) -> usize {
        self.g.position().to_move().index()
    }

    fn outcome(&self) -> Option<ScoreVector> {
        let pos = self.g.position();
        if self.g.is_final() {
            return Some(final_scores(pos.scores()));
        }
        let n = usize::from(pos.players());
        self.g.cycle_scores().map(|s| final_scores(&s[..n]))
    }

    fn generate(&self, moves: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        if self.g.position().plies() == self.root_plies && !self.root_moves.is_empty() {
            moves.extend_from_slice(&self.root_moves);
            return;
        }
        self.g.generate(moves);
    }

    fn make(&mut self, mv: Move) -> Undo {
        self.g.make(mv)
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        self.g.unmake(mv, undo);
    }

    fn make_pass(&mut self) {
        let undo = self.g.make_pass();
        self.passes.push(undo);
    }

    fn unmake_pass(&mut self) {
        let undo = self.passes.pop().expect("a pass to take back");
        self.g.unmake(Move::Pass, undo);
    }

    fn order(&self, mv: Move) -> i32 {
        self.g.position().order_key(mv)
    }

    fn hash(&self) -> Option<u64> {
        Some(SearchGame::hash(&self.g))
    }

    fn move_index(&self, mv: Move) -> Option<usize> {
        Some(match mv {
            Move::Swap => 0,
            Move::Pass => 1,
            Move::Place(cell) => 2 + usize::from(cell.code()),
        })
    }
}

impl MultiEvaluator<MultiPosition> for Evaluation {
    fn evaluate(&self, g: &MultiPosition) -> ScoreVector {
        let pos = g.position();
        let values = self.values(pos, g.g.cap());
        let n = usize::from(pos.players());
        let mut out = [0; 4];
        for p in 0..n {
            out[p] = (values[p] - self.opposition(pos, &values, p)).clamp(-WIN / 8, WIN / 8);
        }
        out
    }
}

/// The protocol score of a value of [`Paranoid`] or [`Brs`] for the root player: a first
/// place alone as a win, a shared first place or a draw as 0, a loss as a loss, an
/// evaluation as it is (clamped).
fn score_of(value: i32, depth: u32) -> Score {
    let plies = depth.min(u32::from(Score::MAX_PLY.unsigned_abs()));
    if value > WIN / 2 + WIN / 8 {
        Score::win_in(plies)
    } else if value < -WIN / 2 {
        Score::loss_in(plies)
    } else if value > WIN / 8 {
        Score::DRAW
    } else {
        Score::new(value.clamp(-30_000, 30_000) as i16)
    }
}

impl Engine {
    /// Searches three and four players with `kind` from the next search on (by default
    /// [`default_search`] of the number of players). [`SearchKind::Paranoid`] is the two-sided paranoid
    /// reduction (with the table, killer moves and history of the searcher);
    /// [`SearchKind::Brs`], [`SearchKind::BrsPlus`] and [`SearchKind::Mcts`] run
    /// `ploy_search::multi`'s searches on [`MultiPosition`]. Two players are always
    /// searched as two sides.
    ///
    /// ```
    /// use ploy_search::multi::SearchKind;
    /// use pyloff::{Engine, Game, Limits, Options, RuleSet};
    /// let game = Game::from_moves(Options::new(4, 4, RuleSet::Default)?, "a1")?;
    /// let mut engine = Engine::new().with_search_kind(SearchKind::Mcts);
    /// assert_eq!(engine.search_kind(), Some(SearchKind::Mcts));
    /// let r = engine.search(&game, &Limits::nodes(2_000));
    /// assert!(game.position().is_legal(r.best_move.unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_search_kind(&mut self, kind: SearchKind) {
        self.kind = Some(kind);
    }

    /// The engine with [`Engine::set_search_kind`] `kind`.
    #[must_use]
    pub fn with_search_kind(mut self, kind: SearchKind) -> Engine {
        self.kind = Some(kind);
        self
    }

    /// Searches three and four players with [`default_search`] of their number again (as
    /// a new engine does).
    ///
    /// ```
    /// use ploy_search::multi::SearchKind;
    /// let mut engine = pyloff::Engine::new().with_search_kind(SearchKind::Mcts);
    /// engine.set_default_search();
    /// assert_eq!(engine.search_kind(), None);
    /// assert_eq!(engine.search_kind_for(4), SearchKind::BrsPlus);
    /// ```
    pub fn set_default_search(&mut self) {
        self.kind = None;
    }

    /// The three- and four-player search set by [`Engine::set_search_kind`]; `None` when
    /// the engine uses [`default_search`].
    #[must_use]
    pub fn search_kind(&self) -> Option<SearchKind> {
        self.kind
    }

    /// The search the engine runs for `players` players (three or four; two players are
    /// searched as two sides whatever this says): the kind set, else at full strength
    /// (level 8) [`default_search`], and at the levels below 8 the paranoid reduction,
    /// with which their ladder was measured.
    ///
    /// ```
    /// use ploy_search::multi::SearchKind;
    /// use pyloff::{Engine, Level};
    /// let mut engine = Engine::new();
    /// assert_eq!(engine.search_kind_for(4), SearchKind::BrsPlus);
    /// engine.set_level(Level::new(5)?);
    /// assert_eq!(engine.search_kind_for(4), SearchKind::Paranoid);
    /// engine.set_search_kind(SearchKind::BrsPlus);
    /// assert_eq!(engine.search_kind_for(4), SearchKind::BrsPlus);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn search_kind_for(&self, players: u8) -> SearchKind {
        match self.kind {
            Some(kind) => kind,
            None if self.level.is_full() => default_search(players),
            None => SearchKind::Paranoid,
        }
    }

    /// The settings of [`SearchKind::Mcts`] (its seed is mixed with the engine's seed
    /// and the position).
    pub fn set_mcts_config(&mut self, config: MctsConfig) {
        self.mcts = config;
    }

    /// [`Engine::search_root`] for three and four players with a kind other than
    /// paranoid: the root moves of `options` are honoured; its lines, mate search and
    /// pondering are not (the time budgets count from the start). `observer` is called
    /// once, with the answer.
    pub(crate) fn search_multi(
        &mut self,
        root: &SearchPosition,
        limits: &Limits,
        options: &SearchOptions<Move>,
        mut observer: impl FnMut(&Info<'_, Move>),
    ) -> SearchResult<Move> {
        let started = Instant::now();
        let mut limits = limits.clone();
        let level = (!self.level.is_full()).then(|| LevelParams::of(self.level));
        if let Some(p) = level {
            limits.nodes = min_option(limits.nodes, p.nodes);
            limits.depth = min_option(limits.depth, p.depth);
        }
        let g = MultiPosition::new(root.clone()).with_root_moves(&options.root_moves);
        let eval = self.searcher.evaluator().clone();
        let kind = self.search_kind_for(root.position().players());
        let result = match kind {
            SearchKind::Paranoid => Paranoid::new(eval).search(&g, &limits),
            SearchKind::Brs => Brs::new(eval).search(&g, &limits),
            SearchKind::BrsPlus => Brs::plus(eval).search(&g, &limits),
            SearchKind::Mcts => self.mcts_search(&g, eval, &limits),
        };
        let MultiResult {
            best_move,
            value,
            depth,
            nodes,
        } = result;
        let mut best_move = best_move;
        if let (Some(p), Some(best)) = (level, best_move) {
            best_move = Some(self.level_choice(&g, best, p));
        }
        let score = if kind == SearchKind::Mcts {
            Score::new(value as i16)
        } else {
            score_of(value, depth)
        };
        let pv: Vec<Move> = best_move.into_iter().collect();
        let time = started.elapsed();
        if best_move.is_some() {
            observer(&Info::new(depth, score, &pv, nodes, time));
        }
        let stopped = limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let interrupted = stopped
            || limits.nodes.is_some_and(|n| nodes >= n)
            || limits.hard_time.is_some_and(|t| time >= t);
        SearchResult {
            best_move,
            score,
            depth,
            pv,
            nodes,
            time,
            interrupted,
        }
    }

    /// MCTS within `limits`, as a [`MultiResult`]: the value is the root player's expected
    /// share of first place above the fair `1 / players`, in thousandths; the depth is 1.
    fn mcts_search(
        &self,
        g: &MultiPosition,
        eval: Evaluation,
        limits: &Limits,
    ) -> MultiResult<Move> {
        let open = limits.nodes.is_none()
            && limits.hard_time.is_none()
            && limits.soft_time.is_none()
            && limits.stop.is_none();
        let iterations = match limits.depth {
            Some(d) if open => MCTS_ITERATIONS_PER_PLY * u64::from(d.max(1)),
            _ => u64::MAX,
        };
        let mut limits = limits.clone();
        if limits.hard_time.is_none() {
            limits.hard_time = limits.soft_time.map(|t| t * 2);
        }
        let pos = g.position();
        let config = MctsConfig {
            seed: self.mcts.seed ^ self.seed ^ pos.hash() ^ u64::from(pos.plies()),
            ..self.mcts
        };
        let r = Mcts::new(config, eval).search(g, iterations, &limits);
        let root = g.to_move();
        let fair = 1.0 / g.players() as f64;
        MultiResult {
            best_move: r.best_move,
            value: ((r.value[root] - fair) * 1000.0).round() as i32,
            depth: u32::from(r.iterations > 0),
            nodes: r.nodes,
        }
    }

    /// The deliberate error of a level below 8 on a multi-player search's answer `best`:
    /// every root move is scored by the mover's own evaluation one move later, `best`
    /// counted as the best of them; the level chooses among its best `lines` of them as it
    /// does among the paranoid search's lines (see [`LevelParams`]).
    fn level_choice(&self, g: &MultiPosition, best: Move, p: LevelParams) -> Move {
        let mut probe = g.clone();
        let me = probe.to_move();
        let mut moves = Vec::new();
        probe.generate(&mut moves);
        let eval = self.searcher.evaluator();
        let mut scored: Vec<(Move, i64)> = moves
            .iter()
            .map(|&m| {
                let undo = probe.make(m);
                let v = match probe.outcome() {
                    Some(s) => s[me],
                    None => eval.evaluate(&probe)[me],
                };
                probe.unmake(m, undo);
                (m, i64::from(v))
            })
            .collect();
        let top = scored.iter().map(|&(_, v)| v).max().unwrap_or(0);
        for line in &mut scored {
            if line.0 == best {
                line.1 = top;
            }
        }
        // The best first (stable: the search's answer before equals), then the level's
        // number of lines.
        scored.sort_by_key(|&(m, v)| (core::cmp::Reverse(v), m != best));
        scored.truncate(p.lines.max(1));
        if scored.len() < 2 {
            return best;
        }
        let pos = g.position();
        let mut rng = LevelRng::new(self.seed, pos.hash(), u64::from(pos.plies()));
        let margin = if rng.chance(p.other_per_mille) {
            i64::MAX
        } else {
            p.margin
        };
        choose_within(&scored, margin, &mut rng).unwrap_or(best)
    }
}
