//! Seats (players and colours), piece kinds and pieces.

use crate::Flags;
use crate::bitset::bit_set;
use crate::named::named_values;
use core::fmt;

named_values! {
    /// A seat at the table, which is also the colour of its pieces.
    ///
    /// Turn order is Green, Red, Yellow, Blue. The two-player game uses Green (first, bottom) and
    /// Red (second, top); the university format calls them black ([`Seat::BLACK`]) and white
    /// ([`Seat::WHITE`]).
    pub enum Seat: "seat" {
        /// Moves first. In the two-player game the bottom side ("black" in the university format).
        Green = 0 => "green",
        /// Moves second. In the two-player game the top side ("white" in the university format).
        Red = 1 => "red",
        /// Third in turn order (four-player games only).
        Yellow = 2 => "yellow",
        /// Fourth in turn order (four-player games only).
        Blue = 3 => "blue",
    }
    /// All seats in turn order.
    ALL;
    /// Index in turn order, 0 (Green) to 3 (Blue).
    index;
    /// The lower-case colour name.
    name;
}

impl Seat {
    /// The university format's "black": the two-player side that moves first, at the bottom.
    pub const BLACK: Seat = Seat::Green;
    /// The university format's "white": the two-player side that moves second, at the top.
    pub const WHITE: Seat = Seat::Red;

    /// The partner in a partnership game (Green with Yellow, Red with Blue).
    #[inline]
    #[must_use]
    pub const fn partner(self) -> Seat {
        Seat::ALL[(self as usize + 2) & 3]
    }
}

/// A set of seats (a team, the winners of a game, the players still in play).
///
/// With the `serde` feature a set travels as the list of its seats in turn order
/// (`["Green", "Yellow"]`), so no value outside the four seats can be read.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(u8);

#[cfg(feature = "serde")]
impl serde::Serialize for SeatSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for SeatSet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SeatSet, D::Error> {
        let seats = <Vec<Seat> as serde::Deserialize>::deserialize(deserializer)?;
        Ok(seats.into_iter().collect())
    }
}

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);
    /// The two seats of the two-player game.
    pub const TWO_PLAYER: SeatSet = SeatSet(0b0011);
    /// All four seats.
    pub const ALL: SeatSet = SeatSet(0b1111);

    /// The set with just `seat`.
    #[inline]
    #[must_use]
    pub const fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat as u8)
    }

    /// The set from its bits (bit `i` is the seat with index `i`); higher bits are dropped.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> SeatSet {
        SeatSet(bits & 0b1111)
    }

    /// The bits.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `seat` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat as u8) != 0
    }

    /// The set with `seat` added.
    #[inline]
    #[must_use]
    pub const fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | 1 << seat as u8)
    }

    /// The set with `seat` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 & !(1 << seat as u8))
    }

    /// The only seat, if the set has exactly one.
    #[inline]
    #[must_use]
    pub const fn single(self) -> Option<Seat> {
        if self.0.count_ones() == 1 {
            Seat::from_index(self.0.trailing_zeros() as u8)
        } else {
            None
        }
    }

    /// The seats in turn order.
    pub fn iter(self) -> impl Iterator<Item = Seat> + Clone {
        Seat::ALL.into_iter().filter(move |s| self.contains(*s))
    }
}

impl From<Seat> for SeatSet {
    fn from(s: Seat) -> SeatSet {
        SeatSet::only(s)
    }
}

bit_set!(SeatSet of Seat);

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The kind of a piece, given by its number of flags.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum PieceKind {
    /// One flag, range 1; may turn after moving.
    Shield = 1,
    /// Two flags, range 2.
    Probe = 2,
    /// Three flags, range 3.
    Lance = 3,
    /// Four flags, range 1. Losing it loses the game.
    Commander = 4,
}

impl PieceKind {
    /// All kinds, by number of flags.
    pub const ALL: [PieceKind; 4] = [
        PieceKind::Shield,
        PieceKind::Probe,
        PieceKind::Lance,
        PieceKind::Commander,
    ];

    /// The kind with `n` flags, or `None` unless `n` is 1..4.
    #[inline]
    #[must_use]
    pub const fn from_flag_count(n: u32) -> Option<PieceKind> {
        match n {
            1 => Some(PieceKind::Shield),
            2 => Some(PieceKind::Probe),
            3 => Some(PieceKind::Lance),
            4 => Some(PieceKind::Commander),
            _ => None,
        }
    }

    /// Number of flags.
    #[inline]
    #[must_use]
    pub const fn flag_count(self) -> u32 {
        self as u32
    }

    /// The most squares one motion move may cover: 1, 2, 3, or 1 for a commander.
    #[inline]
    #[must_use]
    pub const fn range(self) -> u8 {
        match self {
            PieceKind::Commander => 1,
            k => k as u8,
        }
    }

    /// Index 0 (Shield) to 3 (Commander).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The lower-case name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        ["shield", "probe", "lance", "commander"][self.index()]
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A mask with 0 or 5..8 flags is not a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("mask {0} has {flags} flags; a piece has 1 to 4", flags = .0.count_ones())]
pub struct InvalidFlags(pub u8);

/// A piece: its colour (the seat that owns it) and its flags (1 to 4 of them).
///
/// ```
/// use ploy_core::{Flags, Piece, PieceKind, Seat};
/// let p = Piece::new(Seat::BLACK, Flags::new(17)).unwrap(); // N and S
/// assert_eq!(p.kind(), PieceKind::Probe);
/// assert!(Piece::new(Seat::WHITE, Flags::new(0)).is_err());
/// assert!(Piece::new(Seat::WHITE, Flags::new(31)).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "PieceRepr", into = "PieceRepr"))]
pub struct Piece {
    colour: Seat,
    flags: Flags,
}

impl Piece {
    /// A piece of `colour` with `flags`.
    ///
    /// # Errors
    /// [`InvalidFlags`] unless `flags` has 1 to 4 flags.
    #[inline]
    pub const fn new(colour: Seat, flags: Flags) -> Result<Piece, InvalidFlags> {
        match flags.kind() {
            Some(_) => Ok(Piece { colour, flags }),
            None => Err(InvalidFlags(flags.bits())),
        }
    }

    /// The seat whose colour the piece has (its owner for the whole game).
    #[inline]
    #[must_use]
    pub const fn colour(self) -> Seat {
        self.colour
    }

    /// The flags.
    #[inline]
    #[must_use]
    pub const fn flags(self) -> Flags {
        self.flags
    }

    /// The kind.
    #[inline]
    #[must_use]
    pub const fn kind(self) -> PieceKind {
        // A piece always has 1 to 4 flags; the table maps the other masks to shields.
        PIECE_KINDS[self.flags.bits() as usize]
    }

    /// The same piece turned `steps` eighths clockwise.
    #[inline]
    #[must_use]
    pub const fn rotate(self, steps: u8) -> Piece {
        Piece {
            colour: self.colour,
            flags: self.flags.rotate(steps),
        }
    }
}

/// `PIECE_KINDS[mask]`: the kind of a piece with `mask` (1 to 4 flags; any other mask maps
/// to a shield and never occurs in a [`Piece`]).
const PIECE_KINDS: [PieceKind; 256] = {
    let mut t = [PieceKind::Shield; 256];
    let mut m = 0;
    while m < 256 {
        if let Some(k) = PieceKind::from_flag_count((m as u8).count_ones()) {
            t[m] = k;
        }
        m += 1;
    }
    t
};

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {:?}", self.colour, self.kind(), self.flags)
    }
}

#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct PieceRepr {
    colour: Seat,
    flags: u8,
}

#[cfg(feature = "serde")]
impl From<Piece> for PieceRepr {
    fn from(p: Piece) -> PieceRepr {
        PieceRepr {
            colour: p.colour,
            flags: p.flags.bits(),
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<PieceRepr> for Piece {
    type Error = InvalidFlags;
    fn try_from(r: PieceRepr) -> Result<Piece, InvalidFlags> {
        Piece::new(r.colour, Flags::new(r.flags))
    }
}
