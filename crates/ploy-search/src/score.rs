//! Scores: evaluation units, and won or lost games with their distance.

use core::fmt;

/// A search result for the side to move: an evaluation, or a forced win or loss a number of
/// plies away. A quicker win is a higher score, a slower loss a higher score.
///
/// Encoding: wins are `MATE - plies`, losses `-(MATE - plies)`, everything else lies within
/// `±EVAL_MAX`. Scores order as a player would: any win beats any evaluation.
///
/// ```
/// use ploy_search::Score;
/// assert!(Score::win_in(1) > Score::win_in(3));
/// assert!(Score::loss_in(2) < Score::loss_in(4));
/// assert!(Score::loss_in(4) < Score::new(-Score::EVAL_MAX));
/// assert_eq!(Score::win_in(3).to_string(), "win 3");
/// assert_eq!(-Score::win_in(3), Score::loss_in(3));
/// assert_eq!(Score::new(-12).to_string(), "-12");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Score(i16);

const _: () = assert!(core::mem::size_of::<Score>() == 2);

impl Score {
    /// The score of a win now (0 plies away).
    pub const MATE: i16 = 32_000;
    /// The longest distance to a decided result the encoding tells apart.
    pub const MAX_PLY: i16 = 1_000;
    /// The largest evaluation.
    pub const EVAL_MAX: i16 = 30_000;
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// Above every score (a bound, not a result).
    pub const INFINITE: Score = Score(32_001);

    /// An evaluation, clamped to `±EVAL_MAX`.
    #[must_use]
    pub const fn new(value: i16) -> Score {
        if value > Score::EVAL_MAX {
            Score(Score::EVAL_MAX)
        } else if value < -Score::EVAL_MAX {
            Score(-Score::EVAL_MAX)
        } else {
            Score(value)
        }
    }

    /// The raw value (see the type's encoding).
    #[inline]
    #[must_use]
    pub const fn raw(self) -> i16 {
        self.0
    }

    /// The score with this raw value, unchecked.
    #[inline]
    #[must_use]
    pub const fn from_raw(raw: i16) -> Score {
        Score(raw)
    }

    /// A forced win `plies` plies away.
    ///
    /// # Panics
    /// If `plies` exceeds [`Score::MAX_PLY`].
    #[must_use]
    pub const fn win_in(plies: u32) -> Score {
        assert!(plies <= Score::MAX_PLY as u32, "distance too large");
        Score(Score::MATE - plies as i16)
    }

    /// A forced loss `plies` plies away.
    ///
    /// # Panics
    /// If `plies` exceeds [`Score::MAX_PLY`].
    #[must_use]
    pub const fn loss_in(plies: u32) -> Score {
        assert!(plies <= Score::MAX_PLY as u32, "distance too large");
        Score(-(Score::MATE - plies as i16))
    }

    /// Whether this is a forced win.
    #[inline]
    #[must_use]
    pub const fn is_win(self) -> bool {
        self.0 >= Score::MATE - Score::MAX_PLY && self.0 <= Score::MATE
    }

    /// Whether this is a forced loss.
    #[inline]
    #[must_use]
    pub const fn is_loss(self) -> bool {
        self.0 <= -(Score::MATE - Score::MAX_PLY) && self.0 >= -Score::MATE
    }

    /// Plies to the forced result, if the score is a win or a loss.
    #[must_use]
    pub const fn plies_to_result(self) -> Option<u32> {
        if self.is_win() {
            Some((Score::MATE - self.0) as u32)
        } else if self.is_loss() {
            Some((Score::MATE + self.0) as u32)
        } else {
            None
        }
    }
}

impl core::ops::Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    /// `win N`, `loss N`, or the evaluation as an integer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_win() {
            write!(f, "win {}", Score::MATE - self.0)
        } else if self.is_loss() {
            write!(f, "loss {}", Score::MATE + self.0)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Score({self})")
    }
}

/// Internal arithmetic type of the search.
pub(crate) type Value = i32;
pub(crate) const MATE: Value = Score::MATE as Value;
pub(crate) const INF: Value = Score::INFINITE.0 as Value;
pub(crate) const EVAL_MAX: Value = Score::EVAL_MAX as Value;
pub(crate) const WIN_BOUND: Value = MATE - Score::MAX_PLY as Value;

/// A terminal value at `ply` for the side to move there.
#[inline]
pub(crate) fn terminal_value(t: crate::Terminal, side: crate::Side, ply: usize) -> Value {
    match t {
        crate::Terminal::Draw => 0,
        crate::Terminal::Win(s) if s == side => MATE - ply as Value,
        crate::Terminal::Win(_) => -(MATE - ply as Value),
    }
}

/// Converts a score relative to the root into one relative to the node at `ply` (table).
#[inline]
pub(crate) fn to_table(v: Value, ply: usize) -> Value {
    if v >= WIN_BOUND {
        v + ply as Value
    } else if v <= -WIN_BOUND {
        v - ply as Value
    } else {
        v
    }
}

/// Inverse of [`to_table`].
#[inline]
pub(crate) fn from_table(v: Value, ply: usize) -> Value {
    if v >= WIN_BOUND {
        v - ply as Value
    } else if v <= -WIN_BOUND {
        v + ply as Value
    } else {
        v
    }
}
