//! The small game interface the search is written against.

use core::fmt;
use core::ops::{Deref, DerefMut};

/// One of the two sides of a search: in the two-player game a seat, in a partnership game a
/// team. Only the values 0 and 1 are used.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Side(pub u8);

impl Side {
    /// The first side (moves first in the two-player game).
    pub const FIRST: Side = Side(0);
    /// The second side.
    pub const SECOND: Side = Side(1);

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Side {
        Side(self.0 ^ 1)
    }

    /// 0 or 1.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        (self.0 & 1) as usize
    }
}

/// How a decided position ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Terminal {
    /// This side has won.
    Win(Side),
    /// Nobody has won.
    Draw,
}

/// A move list the search can fill: a `Vec` or a fixed-capacity stack list.
pub trait MoveBuffer<M>: Default + Deref<Target = [M]> + DerefMut {
    /// Removes every move.
    fn clear(&mut self);
    /// Appends a move.
    fn push(&mut self, mv: M);
}

impl<M> MoveBuffer<M> for Vec<M> {
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
    #[inline]
    fn push(&mut self, mv: M) {
        Vec::push(self, mv);
    }
}

/// The most moves a position may offer the search (the search keeps per-node scratch arrays
/// of this size on the stack).
pub const MAX_MOVES: usize = 512;

/// A two-sided, perfect-information game the search can play: ploy-engine's Ploy positions,
/// Pente and Pyloff implement it, and so do the toy games of the test suite.
///
/// The side to move need not alternate: a partnership game in which one team moves twice in
/// a row (a player absorbed his partner) is searched correctly, because the search compares
/// [`SearchGame::side`] before and after every move instead of assuming alternation.
///
/// Contract:
/// - a position with [`SearchGame::terminal`] `Some` has no moves, and one without has at
///   least one;
/// - [`SearchGame::generate_captures`] lists a subset of [`SearchGame::generate`]'s moves
///   (the moves quiescence search looks at) and each of them satisfies
///   [`SearchGame::is_capture`];
/// - `make` followed by `unmake` restores the position exactly, hash included;
/// - [`SearchGame::move_to_u16`] is injective on legal moves and never returns `0xFFFF`.
pub trait SearchGame {
    /// A move.
    type Move: Copy + Eq + fmt::Debug;
    /// What `unmake` needs besides the move.
    type Undo;
    /// The move list type.
    type Moves: MoveBuffer<Self::Move>;

    /// The side to move.
    fn side(&self) -> Side;
    /// A hash of everything that decides the future of the game (pieces, side to move).
    fn hash(&self) -> u64;
    /// The result if the game is decided, else `None`.
    fn terminal(&self) -> Option<Terminal>;
    /// Appends every legal move to `moves` (the caller clears it first).
    fn generate(&self, moves: &mut Self::Moves);
    /// Appends the legal moves quiescence search considers (captures) to `moves`.
    fn generate_captures(&self, moves: &mut Self::Moves);
    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool;
    /// Whether `mv` (legal here) captures: irreversible, and ordered by
    /// [`SearchGame::capture_order`] before the quiet moves.
    fn is_capture(&self, mv: Self::Move) -> bool;
    /// Ordering key of a capture: higher is tried first (most valuable victim, least
    /// valuable attacker). Only called for captures.
    fn capture_order(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }
    /// Plays the legal move `mv`.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back `mv`, the last move made.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);
    /// A compact, injective code of a move, never `0xFFFF` (for the table and history).
    fn move_to_u16(mv: Self::Move) -> u16;
    /// Size of the history table per side: [`SearchGame::history_index`] is below it.
    const HISTORY_SIZE: usize = 1 << 16;
    /// The history heuristic's slot for `mv` (moves may share a slot; default: the move's
    /// code). A small table stays in the processor's cache.
    fn history_index(mv: Self::Move) -> usize {
        usize::from(Self::move_to_u16(mv))
    }
    /// The move of a code from [`SearchGame::move_to_u16`]; any other value may give `None`
    /// or any move (the search checks legality before playing a stored move).
    fn move_from_u16(code: u16) -> Option<Self::Move>;
    /// Size of the continuation history's index ([`SearchGame::continuation_index`] is
    /// below it). The search keeps `2 * CONTINUATION_SIZE²` counters, so keep it to a few
    /// hundred.
    const CONTINUATION_SIZE: usize = 64;
    /// The continuation history's slot for `mv`, legal here and not yet made: what moves
    /// where, as "piece and target square" is in chess (default: the history slot modulo
    /// [`SearchGame::CONTINUATION_SIZE`]).
    fn continuation_index(&self, mv: Self::Move) -> usize {
        Self::history_index(mv) % Self::CONTINUATION_SIZE
    }
    /// Whether the side to move stands in danger of losing at once: in Ploy, whether its
    /// commander is attacked. The search extends such nodes, never prunes them and never
    /// tries a null move there. Default: `false` (the game gives no such hint).
    fn in_check(&self) -> bool {
        false
    }
    /// Makes a *null move* (the side to move passes) if the game lets the search try one
    /// here, and says whether it did; [`SearchGame::unmake_null`] takes it back. A game
    /// refuses where a pass misleads: where having to move can hurt (few pieces left), or
    /// where it has no notion of passing. The hash after a pass is that of the same
    /// pieces with the other side to move. Default: never.
    fn make_null(&mut self) -> bool {
        false
    }
    /// Takes back the null move just made by a [`SearchGame::make_null`] that returned
    /// `true`.
    fn unmake_null(&mut self) {}
    /// The value of what the capture `mv` (legal here) takes, in evaluation units, for
    /// delta pruning in quiescence search (a capture that cannot lift the score near alpha
    /// is skipped). Default: `None`, unknown (nothing is skipped).
    fn capture_value(&self, mv: Self::Move) -> Option<i32> {
        let _ = mv;
        None
    }
    /// Static exchange evaluation of the capture `mv` (legal here): the material the side
    /// to move wins if both sides then keep capturing on its target square, each with its
    /// least valuable piece and each free to stop, in evaluation units. Quiescence search
    /// skips captures that lose material. Default: `None`, unknown (nothing is skipped).
    fn exchange_value(&self, mv: Self::Move) -> Option<i32> {
        let _ = mv;
        None
    }
    /// Whose view the search's scores of this position take: the name of the side to move
    /// (a player or a team), as [`crate::Info`]'s text writes it after `view`. Default:
    /// `None` (the text leaves `view` out).
    fn view(&self) -> Option<&'static str> {
        None
    }
    /// The side to move's expected share of the win in percent, for `score`, the search's
    /// score of this position. Default: [`crate::two_sided_share`], a logistic of the score.
    fn win_share(&self, score: crate::Score) -> f64 {
        crate::two_sided_share(score)
    }
}

/// A static evaluation of positions of `G`.
pub trait Evaluator<G> {
    /// The value of `g` for the side to move, in centipawn-like units, within
    /// `-`[`crate::Score::EVAL_MAX`]`..=`[`crate::Score::EVAL_MAX`] (the search clamps).
    /// Called only for positions that are not terminal.
    fn evaluate(&self, g: &G) -> i32;
}

impl<G, F: Fn(&G) -> i32> Evaluator<G> for F {
    #[inline]
    fn evaluate(&self, g: &G) -> i32 {
        self(g)
    }
}
