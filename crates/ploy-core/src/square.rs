//! Squares of the 9x9 board.

use core::fmt;
use core::str::FromStr;

/// One of the 81 squares, `a1` (index 0) to `i9` (index 80).
///
/// The index is `rank * 9 + file`, with files `a`..`i` and ranks `1`..`9` both counted
/// from zero. `a1` is the lower left corner, `e5` the centre, `i9` the upper right.
///
/// ```
/// use ploy_core::Square;
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!((e4.file(), e4.rank()), (4, 3));
/// assert_eq!(e4.to_string(), "e4");
/// ```
///
/// With the `serde` feature a square travels as its name (`"e4"`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

#[cfg(feature = "serde")]
crate::serde_text::serde_as_text!(Square => "a square such as e4");

macro_rules! squares {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square `", stringify!($name), "` (lower case in text).")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7, I1 = 8,
    A2 = 9, B2 = 10, C2 = 11, D2 = 12, E2 = 13, F2 = 14, G2 = 15, H2 = 16, I2 = 17,
    A3 = 18, B3 = 19, C3 = 20, D3 = 21, E3 = 22, F3 = 23, G3 = 24, H3 = 25, I3 = 26,
    A4 = 27, B4 = 28, C4 = 29, D4 = 30, E4 = 31, F4 = 32, G4 = 33, H4 = 34, I4 = 35,
    A5 = 36, B5 = 37, C5 = 38, D5 = 39, E5 = 40, F5 = 41, G5 = 42, H5 = 43, I5 = 44,
    A6 = 45, B6 = 46, C6 = 47, D6 = 48, E6 = 49, F6 = 50, G6 = 51, H6 = 52, I6 = 53,
    A7 = 54, B7 = 55, C7 = 56, D7 = 57, E7 = 58, F7 = 59, G7 = 60, H7 = 61, I7 = 62,
    A8 = 63, B8 = 64, C8 = 65, D8 = 66, E8 = 67, F8 = 68, G8 = 69, H8 = 70, I8 = 71,
    A9 = 72, B9 = 73, C9 = 74, D9 = 75, E9 = 76, F9 = 77, G9 = 78, H9 = 79, I9 = 80,
}

impl Square {
    /// Number of squares on the board.
    pub const NUM: usize = 81;

    /// All squares in index order (`a1`, `b1`, ..., `i1`, `a2`, ..., `i9`).
    pub const ALL: [Square; 81] = {
        let mut all = [Square(0); 81];
        let mut i = 0;
        while i < 81 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square on `file` (0 = `a` .. 8 = `i`) and `rank` (0 = `1` .. 8 = `9`).
    ///
    /// # Panics
    /// If `file` or `rank` is 9 or more.
    #[inline]
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        assert!(file < 9 && rank < 9, "square coordinates out of range");
        Square(rank * 9 + file)
    }

    /// The square on `file` and `rank`, or `None` if either is off the board.
    #[inline]
    #[must_use]
    pub const fn try_new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 9 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The square with index `index` (`rank * 9 + file`), or `None` if it is 81 or more.
    #[inline]
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 81 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index, which the caller guarantees is below 81.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// The index, `rank * 9 + file`, in `0..81`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 8 (`i`).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 9
    }

    /// The rank, 0 (`1`) to 8 (`9`).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 9
    }

    /// The file letter, `'a'` to `'i'`.
    #[inline]
    #[must_use]
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The rank digit, `'1'` to `'9'`.
    #[inline]
    #[must_use]
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }

    /// The neighbour in `dir`, or `None` at the edge of the board.
    #[inline]
    #[must_use]
    pub const fn step(self, dir: crate::Direction) -> Option<Square> {
        let (df, dr) = dir.delta();
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 || f > 8 || r > 8 {
            None
        } else {
            Some(Square((r * 9 + f) as u8))
        }
    }

    /// Reads a square from two ASCII bytes such as `b"e4"`.
    ///
    /// # Errors
    /// [`ParseSquareError`] unless the input is exactly a file letter `a`..`i` followed by a
    /// rank digit `1`..`9`.
    pub const fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        if s.len() != 2 {
            return Err(ParseSquareError);
        }
        let (f, r) = (s[0], s[1]);
        if f < b'a' || f > b'i' || r < b'1' || r > b'9' {
            return Err(ParseSquareError);
        }
        Ok(Square::new(f - b'a', r - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.file_char())?;
        f.write_char(self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square's text was not a file letter `a`..`i` followed by a rank digit `1`..`9`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid square: expected a file a..i and a rank 1..9, such as e4")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

/// Gives `$ty`, a tuple struct over the integer `$int`, the conversions to its integer and
/// back: `From<$ty> for $int`, and `TryFrom<$int>` through `$ty::$check` (which gives `None`
/// for a number that is not a value), failing with `$error($int)`.
macro_rules! packed_int {
    ($ty:ident($int:ty), $check:ident, $error:ident) => {
        impl From<$ty> for $int {
            fn from(v: $ty) -> $int {
                v.0
            }
        }

        impl TryFrom<$int> for $ty {
            type Error = $error;
            fn try_from(v: $int) -> Result<$ty, $error> {
                $ty::$check(v).ok_or($error(v))
            }
        }
    };
}
pub(crate) use packed_int;

packed_int!(Square(u8), from_index, SquareIndexError);

/// A number was not a square index (0..81).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("square index {0} out of range 0..81")]
pub struct SquareIndexError(pub u8);
