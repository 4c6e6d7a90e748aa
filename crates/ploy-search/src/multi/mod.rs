//! Searches for games of two to four players, each with a score of his own.
//!
//! The two-sided [`crate::Searcher`] sees a game of more players only through a reduction to
//! two sides. This module searches such games as they are: a game implements [`MultiGame`]
//! (whose turn it is, the moves, a pass, the final scores) and a [`MultiEvaluator`] gives a
//! score for every player of a position that is not decided. Three searches run on them:
//!
//! - [`Paranoid`]: the searching player (the *root player*) maximises his own score and every
//!   other player minimises it, as one coalition; alpha-beta with iterative deepening;
//! - [`Brs`]: Best-Reply Search (Schadd and Winands, 2011): between two moves of the root
//!   player, only the one opponent whose reply hurts him most moves, the others pass; and
//!   BRS+ ([`BrsPlayers::Policy`], Esser et al., 2013), in which the other opponents play
//!   the move their move ordering ([`MultiGame::order`]) ranks first instead of passing;
//! - [`Mcts`]: Monte-Carlo tree search by UCT, each player choosing by his own share of
//!   the win, with a playout of random moves or the evaluation at the leaf, seeded and
//!   deterministic.
//!
//! [`Paranoid`] and [`Brs`] order moves by [`MultiGame::order`], then killer moves and
//! history ([`MultiGame::move_index`]); a game that gives [`MultiGame::hash`] gets a
//! transposition table (`with_table`), whose stored values cut off only at the depth they
//! were searched to, so that a search to a fixed depth keeps its value.
//!
//! [`paranoid_reference`] and [`brs_reference`] are the plain recursions without pruning
//! that the test suite compares the alpha-beta versions with.
//!
//! # Example
//!
//! A race of three players: on his turn a player adds 1 or 2 to his own counter, or takes 1
//! from the player after him; whoever first reaches 4 wins.
//!
//! ```
//! use ploy_search::multi::{Brs, Mcts, MctsConfig, MultiGame, Paranoid, ScoreVector};
//! use ploy_search::Limits;
//!
//! #[derive(Clone)]
//! struct Race { counts: [i32; 3], turn: usize }
//!
//! #[derive(Clone, Copy, PartialEq, Eq, Debug)]
//! enum Step { Add(i32), Hinder }
//!
//! impl MultiGame for Race {
//!     type Move = Step;
//!     type Undo = [i32; 3];
//!     type Moves = Vec<Step>;
//!     fn players(&self) -> usize { 3 }
//!     fn to_move(&self) -> usize { self.turn }
//!     fn outcome(&self) -> Option<ScoreVector> {
//!         let winner = self.counts.iter().position(|&c| c >= 4)?;
//!         let mut s = [-1000; 4];
//!         s[winner] = 1000;
//!         Some(s)
//!     }
//!     fn generate(&self, moves: &mut Vec<Step>) {
//!         moves.extend([Step::Add(1), Step::Add(2), Step::Hinder]);
//!     }
//!     fn make(&mut self, mv: Step) -> [i32; 3] {
//!         let before = self.counts;
//!         match mv {
//!             Step::Add(n) => self.counts[self.turn] += n,
//!             Step::Hinder => self.counts[(self.turn + 1) % 3] -= 1,
//!         }
//!         self.turn = (self.turn + 1) % 3;
//!         before
//!     }
//!     fn unmake(&mut self, _: Step, before: [i32; 3]) {
//!         self.counts = before;
//!         self.turn = (self.turn + 2) % 3;
//!     }
//!     fn make_pass(&mut self) { self.turn = (self.turn + 1) % 3; }
//!     fn unmake_pass(&mut self) { self.turn = (self.turn + 2) % 3; }
//! }
//!
//! // Each player's score: his counter against the best of the others'.
//! let eval = |r: &Race| {
//!     let mut s = [0; 4];
//!     for p in 0..3 {
//!         let best_other = (0..3).filter(|&o| o != p).map(|o| r.counts[o]).max().unwrap();
//!         s[p] = r.counts[p] - best_other;
//!     }
//!     s
//! };
//!
//! // Player 0 stands at 2 and moves: adding 2 wins at once.
//! let race = Race { counts: [2, 1, 0], turn: 0 };
//! let p = Paranoid::new(eval).search(&race, &Limits::depth(3));
//! assert_eq!(p.best_move, Some(Step::Add(2)));
//! assert_eq!(p.value, 1000);
//! let b = Brs::new(eval).search(&race, &Limits::depth(3));
//! assert_eq!(b.best_move, Some(Step::Add(2)));
//! let m = Mcts::new(MctsConfig::default(), eval).search(&race, 500, &Limits::default());
//! assert_eq!(m.best_move, Some(Step::Add(2)));
//! assert_eq!(m.visits.iter().map(|&(_, n)| n).sum::<u64>(), m.iterations);
//! ```

mod brs;
mod kind;
mod mcts;
mod paranoid;
mod reference;
mod tables;

use core::fmt;
use std::time::{Duration, Instant};

use crate::game::MoveBuffer;
use crate::limits::Limits;

pub use brs::{Brs, BrsPlayers};
pub use kind::{SearchKind, SearchKindError};
pub use mcts::{Mcts, MctsConfig, MctsResult};
pub use paranoid::Paranoid;
pub use reference::{brs_reference, paranoid_reference};

/// The most players a [`MultiGame`] may have.
pub const MAX_PLAYERS: usize = 4;

/// The most plies (or, in [`Brs`], layers) an iteration of [`Paranoid`] or [`Brs`] goes
/// when no depth limit is given.
pub const MAX_MULTI_DEPTH: u32 = 64;

/// A score for every player, indexed by player (`0..players`); the entries past the game's
/// [`MultiGame::players`] are not read.
pub type ScoreVector = [i32; MAX_PLAYERS];

/// A perfect-information game of two to four players, each with a score of his own, that
/// [`Paranoid`], [`Brs`] and [`Mcts`] can search. Players are numbered `0..players()`.
///
/// Contract:
/// - [`MultiGame::players`] is between 2 and [`MAX_PLAYERS`] and does not change in a game;
/// - a position with [`MultiGame::outcome`] `Some` has no moves, and one without has at
///   least one;
/// - `make` followed by `unmake` restores the position exactly, and so does `make_pass`
///   followed by `unmake_pass`.
///
/// The turn need not rotate: a game may skip a player who is out, or let one move twice;
/// the searches read [`MultiGame::to_move`] after every move.
pub trait MultiGame {
    /// A move.
    type Move: Copy + Eq + fmt::Debug;
    /// What `unmake` needs besides the move.
    type Undo;
    /// The move list type.
    type Moves: MoveBuffer<Self::Move>;

    /// The number of players, 2 to [`MAX_PLAYERS`].
    fn players(&self) -> usize;
    /// The player to move, below [`MultiGame::players`].
    fn to_move(&self) -> usize;
    /// The final score of every player if the game is decided, else `None`. The searches
    /// compare final scores with evaluations, so a game puts a win above (and a loss below)
    /// every score its evaluator gives.
    fn outcome(&self) -> Option<ScoreVector>;
    /// Appends every legal move to `moves` (the caller clears it first).
    fn generate(&self, moves: &mut Self::Moves);
    /// Plays the legal move `mv`.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, the last move made.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The player to move passes: the turn goes on as after a move, and nothing else
    /// changes. [`Brs`] with [`BrsPlayers::Pass`] lets the opponents who do not reply pass;
    /// the other searches never pass.
    fn make_pass(&mut self);
    /// Takes back the pass just made.
    fn unmake_pass(&mut self);
    /// The move ordering's key of `mv`, legal here: higher is tried first, and BRS+ plays
    /// the highest (the first generated among equals) for the opponents who do not reply.
    /// Default: 0, the generation order.
    fn order(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
    /// A hash of the position for the transposition table of [`Paranoid`] and [`Brs`]
    /// (see their `with_table`): equal for positions whose searches are equal, the player
    /// to move included. Default: `None`, no table.
    fn hash(&self) -> Option<u64> {
        None
    }
    /// A small number for `mv` (below a few thousand, the same for the same move in every
    /// position) that indexes the history scores of [`Paranoid`] and [`Brs`]' move
    /// ordering. Default: `None`, no history (killer moves still order).
    fn move_index(&self, mv: Self::Move) -> Option<usize> {
        let _ = mv;
        None
    }
}

/// A static evaluation of positions of `G` for every player.
pub trait MultiEvaluator<G> {
    /// Every player's score in `g`, which is not decided; higher is better for him.
    fn evaluate(&self, g: &G) -> ScoreVector;
}

impl<G, F: Fn(&G) -> ScoreVector> MultiEvaluator<G> for F {
    #[inline]
    fn evaluate(&self, g: &G) -> ScoreVector {
        self(g)
    }
}

/// What [`Paranoid`] and [`Brs`] answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiResult<M> {
    /// The root player's best move found by the last completed iteration (or, if none
    /// completed, the first move by [`MultiGame::order`]); `None` in a decided position.
    pub best_move: Option<M>,
    /// The root player's score of the position by the last completed iteration (the final
    /// score in a decided position, his evaluation if no iteration completed).
    pub value: i32,
    /// The depth of the last completed iteration (0 if none).
    pub depth: u32,
    /// Moves (and passes) made, over all iterations.
    pub nodes: u64,
}

/// Polls the limits every this many nodes.
const POLL: u64 = 1024;

/// The shared budget of one search: node limit, time and stop flag.
pub(crate) struct Budget {
    start: Instant,
    nodes: Option<u64>,
    soft: Option<Duration>,
    hard: Option<Duration>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    pub(crate) count: u64,
    pub(crate) stopped: bool,
}

impl Budget {
    pub(crate) fn new(limits: &Limits) -> Budget {
        Budget {
            start: Instant::now(),
            nodes: limits.nodes,
            soft: limits.soft_time,
            hard: limits.hard_time,
            stop: limits.stop.clone(),
            count: 0,
            stopped: false,
        }
    }

    /// Counts one node; false (and stopped from then on) when the budget is spent.
    #[inline]
    pub(crate) fn step(&mut self) -> bool {
        if self.stopped {
            return false;
        }
        if self.nodes.is_some_and(|n| self.count >= n) {
            self.stopped = true;
            return false;
        }
        self.count += 1;
        if self.count % POLL == 0 && self.out_of_time(self.hard) {
            self.stopped = true;
            return false;
        }
        true
    }

    fn out_of_time(&self, limit: Option<Duration>) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            || limit.is_some_and(|t| self.start.elapsed() >= t)
    }

    /// Whether a new iteration may start.
    pub(crate) fn may_start(&self) -> bool {
        !self.stopped && !self.out_of_time(self.soft) && !self.out_of_time(self.hard)
    }
}

/// Fills `out` with the moves of `g` ordered by [`MultiGame::order`], highest first (a
/// stable sort: generation order among equals).
pub(crate) fn ordered_moves<G: MultiGame>(
    g: &G,
    scratch: &mut G::Moves,
    out: &mut Vec<(i32, G::Move)>,
) {
    scratch.clear();
    g.generate(scratch);
    out.clear();
    out.extend(scratch.iter().map(|&m| (g.order(m), m)));
    out.sort_by_key(|&(k, _)| core::cmp::Reverse(k));
}

/// The move BRS+ plays for an opponent who does not reply: the highest by
/// [`MultiGame::order`], the first generated among equals. `None` if there is no move.
pub fn policy_move<G: MultiGame>(g: &G, scratch: &mut G::Moves) -> Option<G::Move> {
    scratch.clear();
    g.generate(scratch);
    let mut best: Option<(i32, G::Move)> = None;
    for &m in scratch.iter() {
        let k = g.order(m);
        if best.is_none_or(|(b, _)| k > b) {
            best = Some((k, m));
        }
    }
    best.map(|(_, m)| m)
}

/// The infinite value of [`Paranoid`] and [`Brs`].
pub(crate) const INF: i32 = i32::MAX / 2;

/// What the iterative deepening of [`Paranoid`] and [`Brs`] needs of a search.
pub(crate) trait Deepening<G: MultiGame> {
    /// The search's budget.
    fn budget(&mut self) -> &mut Budget;
    /// The move lists' scratch buffer.
    fn scratch(&mut self) -> &mut G::Moves;
    /// Forgets whether a horizon was met.
    fn clear_horizon(&mut self);
    /// Whether the iteration met a horizon (a deeper one could change the answer).
    fn met_horizon(&self) -> bool;
    /// The value of `g`, just after a root move, searched `depth` more plies (or layers)
    /// with a lower bound `alpha` (fail-soft); `None` if stopped.
    fn after_root_move(&mut self, g: &mut G, depth: u32, alpha: i32) -> Option<i32>;
}

/// Iterative deepening at the root for the player to move in `g`: the result of the last
/// completed iteration, the last iteration's best move tried first in the next.
pub(crate) fn deepen<G, S>(
    g: &mut G,
    static_value: impl FnOnce(&G) -> i32,
    limits: &Limits,
    run: &mut S,
) -> MultiResult<G::Move>
where
    G: MultiGame,
    S: Deepening<G>,
{
    let root = g.to_move();
    if let Some(s) = g.outcome() {
        return MultiResult {
            best_move: None,
            value: s[root],
            depth: 0,
            nodes: 0,
        };
    }
    let mut root_moves = Vec::new();
    ordered_moves(g, run.scratch(), &mut root_moves);
    let mut result = MultiResult {
        best_move: root_moves.first().map(|&(_, m)| m),
        value: static_value(g),
        depth: 0,
        nodes: 0,
    };
    let max_depth = limits.depth.unwrap_or(MAX_MULTI_DEPTH).min(MAX_MULTI_DEPTH);
    'iterations: for depth in 1..=max_depth {
        if depth > 1 && !run.budget().may_start() {
            break;
        }
        run.clear_horizon();
        let mut alpha = -INF;
        let mut best = None;
        for (i, &(_, m)) in root_moves.iter().enumerate() {
            if !run.budget().step() {
                break 'iterations;
            }
            let undo = g.make(m);
            let v = run.after_root_move(g, depth - 1, alpha);
            g.unmake(m, undo);
            let Some(v) = v else {
                break 'iterations;
            };
            if best.is_none() || v > alpha {
                alpha = v;
                best = Some(i);
            }
        }
        let i = best.expect("a position that is not decided has a move");
        result.best_move = Some(root_moves[i].1);
        result.value = alpha;
        result.depth = depth;
        // The best move first in the next iteration, the others in their order.
        let b = root_moves.remove(i);
        root_moves.insert(0, b);
        if !run.met_horizon() {
            break; // every line ended in a decided position: deeper changes nothing
        }
    }
    result.nodes = run.budget().count;
    result
}
