//! Moves and fixed-capacity move lists.

use crate::Square;
use core::fmt;

/// A move `(from, to, r)`: the piece on `from` ends on `to` and is then turned `r` eighths of
/// a turn clockwise (`docs/rules.md` section 3). `from == to` is a direction move.
///
/// Packed into 16 bits as `(from * 81 + to) * 8 + r` (81 x 81 x 8 = 52,488 < 65,536), so any
/// triple is representable, legal or not.
///
/// ```
/// use ploy_core::{Move, Square};
/// let mv = Move::new(Square::E3, Square::E4, 0);
/// assert_eq!((mv.from(), mv.to(), mv.rotation()), (Square::E3, Square::E4, 0));
/// assert!(!mv.is_direction_move());
/// assert_eq!(Move::from_u16(mv.to_u16()), Some(mv));
/// assert_eq!(format!("{mv:?}"), "e3-e4-0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "u16", into = "u16"))]
pub struct Move(u16);

const _: () = assert!(core::mem::size_of::<Move>() == 2);
const _: () = assert!(core::mem::size_of::<Option<crate::Piece>>() == 2);

impl Move {
    /// The move `(from, to, rotation)`.
    ///
    /// # Panics
    /// If `rotation` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square, rotation: u8) -> Move {
        assert!(rotation < 8, "rotation must be 0..8");
        Move(((from.index() * 81 + to.index()) * 8) as u16 | rotation as u16)
    }

    /// The move `(from, to, rotation)`, or `None` if `rotation` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn try_new(from: Square, to: Square, rotation: u8) -> Option<Move> {
        if rotation < 8 {
            Some(Move::new(from, to, rotation))
        } else {
            None
        }
    }

    /// The direction move turning the piece on `sq` by `rotation` (1..7 for a legal one).
    ///
    /// # Panics
    /// If `rotation` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn turn(sq: Square, rotation: u8) -> Move {
        Move::new(sq, sq, rotation)
    }

    /// Start square.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 3) / 81) as u8)
    }

    /// End square.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 3) % 81) as u8)
    }

    /// Clockwise eighths of a turn applied after moving, 0..8.
    #[inline]
    #[must_use]
    pub const fn rotation(self) -> u8 {
        (self.0 & 7) as u8
    }

    /// Whether the piece stays on its square (`from == to`).
    #[inline]
    #[must_use]
    pub const fn is_direction_move(self) -> bool {
        (self.0 >> 3) % 82 == 0
    }

    /// The packed 16-bit value (stable: `(from * 81 + to) * 8 + rotation`).
    #[inline]
    #[must_use]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks [`Move::to_u16`]'s value, or `None` if it is not one.
    #[inline]
    #[must_use]
    pub const fn from_u16(v: u16) -> Option<Move> {
        if ((v >> 3) as usize) < 81 * 81 {
            Some(Move(v))
        } else {
            None
        }
    }
}

impl fmt::Debug for Move {
    /// The university move string, such as `e3-e4-0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.from(), self.to(), self.rotation())
    }
}

impl From<Move> for u16 {
    fn from(m: Move) -> u16 {
        m.0
    }
}

/// A number was not a packed move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not a packed move")]
pub struct MoveIndexError(pub u16);

impl TryFrom<u16> for Move {
    type Error = MoveIndexError;
    fn try_from(v: u16) -> Result<Move, MoveIndexError> {
        Move::from_u16(v).ok_or(MoveIndexError(v))
    }
}

/// The most moves a player can have in any valid position of any variant.
///
/// Proof. Per piece, with any rotation allowed (single-step rotation only lowers it): a
/// shield has 1 target x 8 rotations + 7 direction moves = 15; a probe 2 directions x 2
/// squares + 7 = 11; a lance 3 x 3 + 7 = 16; a commander 4 x 1 + 7 = 11. A colour never has
/// more pieces than its start army (`docs/rules.md` section 8, valid positions): two-player
/// 1 commander + 6 lances + 5 probes + 3 shields = 11 + 96 + 55 + 45 = 207; four-player
/// 1 + 2 + 3 + 3 = 11 + 32 + 33 + 45 = 121 per colour, and a player controls at most the
/// four colours: 484. Both are asserted at compile time below.
pub const MAX_MOVES: usize = 512;

const fn army_bound(army: [u32; 4]) -> u32 {
    // army = [shields, probes, lances, commanders]
    army[0] * (8 + 7) + army[1] * (2 * 2 + 7) + army[2] * (3 * 3 + 7) + army[3] * (4 + 7)
}
const _: () = assert!(army_bound(crate::rules::TWO_PLAYER_ARMY) as usize <= MAX_MOVES);
const _: () = assert!(4 * army_bound(crate::rules::FOUR_PLAYER_ARMY) as usize <= MAX_MOVES);

/// A list of moves with room for [`MAX_MOVES`], kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move(0); MAX_MOVES],
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list is full; move generation never fills it (see [`MAX_MOVES`]).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl core::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter { list: self, pos: 0 }
    }
}

/// Owning iterator over a [`MoveList`].
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    pos: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let m = self.list.get(self.pos).copied();
        self.pos += usize::from(m.is_some());
        m
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len() - self.pos;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}
