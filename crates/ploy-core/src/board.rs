//! The board: which piece stands on which square.

use crate::{Bitboard, Piece, PieceKind, Seat, Square};
use core::fmt;

/// What stands on each of the 81 squares, with per-colour square sets and piece counts kept
/// up to date by every change.
///
/// A board holds any pieces; whether they make a valid position is decided by
/// [`crate::Position::from_setup`].
///
/// ```
/// use ploy_core::{Board, Flags, Piece, PieceKind, Seat, Square};
/// let mut board = Board::empty();
/// let commander = Piece::new(Seat::Green, Flags::new(170)).unwrap();
/// board.put(Square::E1, commander);
/// assert_eq!(board.piece_at(Square::E1), Some(commander));
/// assert_eq!(board.count(Seat::Green, PieceKind::Commander), 1);
/// assert_eq!(board.remove(Square::E1), Some(commander));
/// assert!(board.occupied().is_empty());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 81],
    by_colour: [Bitboard; 4],
    occupied: Bitboard,
    counts: [[u8; 4]; 4],
}

impl Board {
    /// A board with no pieces.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            squares: [None; 81],
            by_colour: [Bitboard::EMPTY; 4],
            occupied: Bitboard::EMPTY,
            counts: [[0; 4]; 4],
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Puts `piece` on `sq`, returning what stood there before.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        let old = self.remove(sq);
        self.put_on_empty(sq, piece);
        old
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub(crate) fn put_on_empty(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_none());
        self.squares[sq.index()] = Some(piece);
        let c = piece.colour().index();
        self.by_colour[c].insert(sq);
        self.occupied.insert(sq);
        self.counts[c][piece.kind().index()] += 1;
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let old = self.squares[sq.index()].take();
        if let Some(p) = old {
            let c = p.colour().index();
            self.by_colour[c].remove(sq);
            self.occupied.remove(sq);
            self.counts[c][p.kind().index()] -= 1;
        }
        old
    }

    /// Replaces the piece on `sq` by `piece` of the same colour and kind (a turn).
    #[inline]
    pub(crate) fn replace_same_kind(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(
            self.squares[sq.index()].map(|p| (p.colour(), p.kind())),
            Some((piece.colour(), piece.kind()))
        );
        self.squares[sq.index()] = Some(piece);
    }

    /// Moves the piece on `from` to the empty square `to`, changing its flags to `piece`'s.
    #[inline]
    pub(crate) fn relocate(&mut self, from: Square, to: Square, piece: Piece) {
        debug_assert!(self.squares[to.index()].is_none());
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        let delta = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_colour[piece.colour().index()] ^= delta;
        self.occupied ^= delta;
    }

    /// Every occupied square.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares holding pieces of `colour`.
    #[inline]
    #[must_use]
    pub fn by_colour(&self, colour: Seat) -> Bitboard {
        self.by_colour[colour.index()]
    }

    /// Number of pieces of `colour` and `kind` on the board.
    #[inline]
    #[must_use]
    pub fn count(&self, colour: Seat, kind: PieceKind) -> u32 {
        u32::from(self.counts[colour.index()][kind.index()])
    }

    /// Number of pieces of `colour` on the board.
    #[inline]
    #[must_use]
    pub fn count_colour(&self, colour: Seat) -> u32 {
        self.by_colour[colour.index()].count()
    }

    /// The square of `colour`'s commander (the first, should there be several).
    #[must_use]
    pub fn commander(&self, colour: Seat) -> Option<Square> {
        self.by_colour(colour)
            .into_iter()
            .find(|&sq| self.squares[sq.index()].is_some_and(|p| p.kind() == PieceKind::Commander))
    }

    /// Every piece with its square, in square index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .into_iter()
            .filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl fmt::Debug for Board {
    /// A picture, rank 9 first: a colour letter (`g r y b`) and the mask per piece.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Board {\n")?;
        for rank in (0..9).rev() {
            write!(f, "  {} ", rank + 1)?;
            for file in 0..9 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(p) => {
                        let c = ["g", "r", "y", "b"][p.colour().index()];
                        write!(f, " {c}{:<3}", p.flags().bits())?;
                    }
                    None => f.write_str("  .  ")?,
                }
            }
            f.write_str("\n")?;
        }
        f.write_str("     a    b    c    d    e    f    g    h    i\n}")
    }
}
