//! Directions and direction masks ("flags").

use crate::bitset::{bit_set, bit_set_iter};
use crate::named::named_values;
use core::fmt;

named_values! {
    /// One of the eight directions a line on the board runs, clockwise from north.
    ///
    /// The discriminant is the bit a piece's flag mask uses for it (`docs/rules.md` section 2).
    pub enum Direction: "direction" {
        /// Up the board (towards rank 9): bit 0.
        N = 0 => "N",
        /// Bit 1.
        NE = 1 => "NE",
        /// Towards file `i`: bit 2.
        E = 2 => "E",
        /// Bit 3.
        SE = 3 => "SE",
        /// Towards rank 1: bit 4.
        S = 4 => "S",
        /// Bit 5.
        SW = 5 => "SW",
        /// Towards file `a`: bit 6.
        W = 6 => "W",
        /// Bit 7.
        NW = 7 => "NW",
    }
    /// All directions, clockwise from north.
    ALL;
    /// The bit number, 0 (N) to 7 (NW).
    index;
    /// Upper-case compass name (`"N"`, `"NE"`, ...).
    name;
}

impl Direction {
    /// `(dfile, drank)` of one step in each direction, indexed by the direction's bit number
    /// ([`Direction::index`], the bit of its flag): `DELTAS[0]` is north, one rank up, and
    /// so on clockwise. The one table of steps in the workspace, so that every program walks
    /// the board the same way (files grow towards `i`, ranks towards 9).
    ///
    /// ```
    /// use ploy_core::Direction;
    /// assert_eq!(Direction::DELTAS[Direction::NE.index()], (1, 1));
    /// for d in Direction::ALL {
    ///     let (df, dr) = Direction::DELTAS[d.index()];
    ///     assert_eq!(d.opposite().delta(), (-df, -dr));
    /// }
    /// ```
    pub const DELTAS: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    /// `(dfile, drank)` of one step in this direction ([`Direction::DELTAS`]).
    #[inline]
    #[must_use]
    pub const fn delta(self) -> (i8, i8) {
        Direction::DELTAS[self as usize]
    }

    /// The direction `steps` eighths of a turn clockwise from this one.
    #[inline]
    #[must_use]
    pub const fn rotate(self, steps: u8) -> Direction {
        Direction::ALL[((self as u8 + steps) & 7) as usize]
    }

    /// The opposite direction.
    #[inline]
    #[must_use]
    pub const fn opposite(self) -> Direction {
        self.rotate(4)
    }
}

/// A direction mask: bit `k` set means a flag (permission to move) in direction `k`.
///
/// Any `u8` is a mask; only masks with 1 to 4 flags are pieces (see [`crate::Piece`]).
///
/// ```
/// use ploy_core::{Direction, Flags, PieceKind};
/// let shield = Flags::from(Direction::N);
/// assert_eq!(shield.rotate(3), Flags::from(Direction::SE));
/// let commander = Flags::new(170); // NE, SE, SW, NW
/// assert_eq!(commander.count(), 4);
/// assert_eq!(commander.kind(), Some(PieceKind::Commander));
/// assert_eq!(commander.rotate(2), commander);
/// assert!(commander.contains(Direction::SW));
/// assert_eq!(commander.iter().collect::<Vec<_>>(),
///            [Direction::NE, Direction::SE, Direction::SW, Direction::NW]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Flags(pub u8);

impl Flags {
    /// No flags.
    pub const EMPTY: Flags = Flags(0);

    /// The mask with these bits.
    #[inline]
    #[must_use]
    pub const fn new(bits: u8) -> Flags {
        Flags(bits)
    }

    /// The bits.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether there is a flag in `dir`.
    #[inline]
    #[must_use]
    pub const fn contains(self, dir: Direction) -> bool {
        self.0 & (1 << dir as u8) != 0
    }

    /// The mask turned `steps` eighths of a turn clockwise (bit `k` to bit `(k + steps) % 8`).
    #[inline]
    #[must_use]
    pub const fn rotate(self, steps: u8) -> Flags {
        Flags(self.0.rotate_left((steps & 7) as u32))
    }

    /// The same mask with a flag in `dir` added.
    #[inline]
    #[must_use]
    pub const fn with(self, dir: Direction) -> Flags {
        Flags(self.0 | 1 << dir as u8)
    }

    /// The kind of piece with this mask, or `None` for 0 or 5..8 flags.
    #[inline]
    #[must_use]
    pub const fn kind(self) -> Option<crate::PieceKind> {
        KINDS[self.0 as usize]
    }

    /// The directions with a flag, clockwise from north.
    #[inline]
    pub fn iter(self) -> FlagsIter {
        FlagsIter(self.0)
    }
}

/// `KINDS[mask]`: the kind of a piece with `mask` (a table: no population count needed).
const KINDS: [Option<crate::PieceKind>; 256] = {
    let mut t = [None; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = crate::PieceKind::from_flag_count((m as u8).count_ones());
        m += 1;
    }
    t
};

impl From<Direction> for Flags {
    fn from(d: Direction) -> Flags {
        Flags(1 << d as u8)
    }
}

impl fmt::Debug for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Flags({}: ", self.0)?;
        let mut first = true;
        for d in *self {
            if !first {
                f.write_str(",")?;
            }
            first = false;
            f.write_str(d.name())?;
        }
        f.write_str(")")
    }
}

bit_set!(Flags of Direction, iter FlagsIter);

bit_set_iter!(
    /// Iterator over the directions of a [`Flags`] mask.
    FlagsIter(u8) -> Direction,
    |i| Direction::from_index(i)
);
