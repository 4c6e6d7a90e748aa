//! A set of squares in a `u128`.

use crate::Square;
use crate::bitset::{bit_set, bit_set_iter};
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of squares: bit `i` is the square with index `i`. Only the low 81 bits are used;
/// every operation keeps the others clear.
///
/// ```
/// use ploy_core::{bitboard, Bitboard, Square};
/// let centre = Bitboard::from(Square::E5);
/// let ring = bitboard! {
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . X X X . . .
///     . . . X . X . . .
///     . . . X X X . . .
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . . . . . .
/// };
/// assert_eq!(ring.count(), 8);
/// assert!(!ring.contains(Square::E5));
/// assert_eq!((ring | centre).count(), 9);
/// assert_eq!(!ring & centre, centre);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 81) - 1);

    /// The set with only `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        // A table: a variable shift of a 128-bit word takes several instructions.
        Bitboard(SQUARE_BITS[sq.index()])
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Whether the set has at least one square.
    #[inline]
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// The square with the lowest index, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::from_index(self.0.trailing_zeros() as u8)
        }
    }

    /// Iterates over the squares in index order.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// `SQUARE_BITS[i]`: the bitboard of the square with index `i`.
const SQUARE_BITS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 81 squares.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

bit_set!(Bitboard of Square, iter BitboardIter);

bit_set_iter!(
    /// Iterator over the squares of a [`Bitboard`], lowest index first.
    BitboardIter(u128) -> Square,
    |i| Some(Square::from_index_unchecked(i))
);

impl fmt::Debug for Bitboard {
    /// A 9x9 picture, rank 9 first, `X` for a member and `.` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Bitboard {\n")?;
        for rank in (0..9).rev() {
            f.write_str("   ")?;
            for file in 0..9 {
                let c = if self.contains(Square::new(file, rank)) {
                    " X"
                } else {
                    " ."
                };
                f.write_str(c)?;
            }
            f.write_str("\n")?;
        }
        f.write_str("}")
    }
}

/// Builds a [`Bitboard`] from a 9x9 picture: 81 tokens, rank 9 first, `X` for a member and
/// `.` for a non-member.
#[macro_export]
macro_rules! bitboard {
    ($($t:tt)*) => {{
        let cells: &[u8] = &[$($crate::__bitboard_cell!($t)),*];
        $crate::Bitboard::__from_picture(cells)
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bitboard_cell {
    (X) => {
        1u8
    };
    (.) => {
        0u8
    };
}

impl Bitboard {
    #[doc(hidden)]
    #[must_use]
    pub const fn __from_picture(cells: &[u8]) -> Bitboard {
        assert!(cells.len() == 81, "a bitboard picture has 81 cells");
        let mut bb = 0u128;
        let mut i = 0;
        while i < 81 {
            if cells[i] != 0 {
                let rank = 8 - i / 9;
                let file = i % 9;
                bb |= 1u128 << (rank * 9 + file);
            }
            i += 1;
        }
        Bitboard(bb)
    }
}
