//! The board: which piece stands on which square.

use crate::tables::TURN_MOVES;
use crate::{Bitboard, Direction, Piece, PieceKind, Seat, Square};
use core::fmt;

/// What stands on each of the 81 squares, with square sets per colour, per kind and per flag
/// direction, and piece counts, kept up to date by every change.
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
///
/// The square sets per flag direction are what the move generator works on: the pieces that
/// may step north are `board.with_flag(Direction::N)` (together with a colour's set).
///
/// ```
/// use ploy_core::{Board, Direction, Flags, Piece, PieceKind, Seat, Square};
/// let mut board = Board::empty();
/// board.put(Square::E1, Piece::new(Seat::Green, Flags::new(0b0000_0101)).unwrap()); // N, E
/// board.put(Square::E9, Piece::new(Seat::Red, Flags::new(0b0001_0000)).unwrap()); // S
/// assert_eq!(board.with_flag(Direction::N).iter().collect::<Vec<_>>(), [Square::E1]);
/// assert_eq!(board.with_flag(Direction::S).iter().collect::<Vec<_>>(), [Square::E9]);
/// assert!(board.with_flag(Direction::W).is_empty());
/// assert_eq!(board.by_kind(PieceKind::Probe).iter().collect::<Vec<_>>(), [Square::E1]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 81],
    by_colour: [Bitboard; 4],
    occupied: Bitboard,
    /// `by_kind[k]`: the squares of pieces of kind index `k` (every colour).
    by_kind: [Bitboard; 4],
    /// `by_flag[w][d]`: word `w` (squares `64 * w ..`) of the set of squares of pieces with a
    /// flag in direction `d` (every colour). Word-major, so that the eight words a square's
    /// flags touch lie side by side and change without a branch per flag.
    by_flag: FlagWords,
    counts: [[u8; 4]; 4],
    /// `turn_moves[c]`: the direction moves of colour `c`'s pieces under
    /// [`crate::Rotation::Any`] (the sum of [`TURN_MOVES`] over its masks).
    turn_moves: [u16; 4],
}

/// The words of [`Board`]'s flag sets, aligned for vector loads and stores.
#[derive(Clone, PartialEq, Eq, Hash)]
#[repr(align(64))]
struct FlagWords([[u64; 8]; 2]);

impl Board {
    /// A board with no pieces.
    #[must_use]
    pub const fn empty() -> Board {
        Board {
            squares: [None; 81],
            by_colour: [Bitboard::EMPTY; 4],
            occupied: Bitboard::EMPTY,
            by_kind: [Bitboard::EMPTY; 4],
            by_flag: FlagWords([[0; 8]; 2]),
            counts: [[0; 4]; 4],
            turn_moves: [0; 4],
        }
    }

    /// Adds or removes (XOR) the flags `mask` on square index `sq`: eight words, no branch.
    #[inline(always)]
    fn toggle_flags(&mut self, sq: usize, mask: u8) {
        let bit = 1u64 << (sq & 63);
        let row = &mut self.by_flag.0[(sq >> 6) & 1];
        let spread = &SPREAD.0[mask as usize];
        for (word, &on) in row.iter_mut().zip(spread) {
            *word ^= bit & on;
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
        let k = piece.kind().index();
        let bit = Bitboard::from_square(sq);
        self.by_colour[c] |= bit;
        self.occupied |= bit;
        self.by_kind[k] |= bit;
        self.toggle_flags(sq.index(), piece.flags().bits());
        self.counts[c][k] += 1;
        self.turn_moves[c] += u16::from(TURN_MOVES[piece.flags().bits() as usize]);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let old = self.squares[sq.index()].take();
        if let Some(p) = old {
            let c = p.colour().index();
            let k = p.kind().index();
            let bit = Bitboard::from_square(sq);
            self.by_colour[c] ^= bit;
            self.occupied ^= bit;
            self.by_kind[k] ^= bit;
            self.toggle_flags(sq.index(), p.flags().bits());
            self.counts[c][k] -= 1;
            self.turn_moves[c] -= u16::from(TURN_MOVES[p.flags().bits() as usize]);
        }
        old
    }

    /// Replaces `old`, the piece on `sq`, by `piece`, the same piece turned (a direction
    /// move, or taking one back).
    #[inline(always)]
    pub(crate) fn turn_piece(&mut self, sq: Square, old: Piece, piece: Piece) {
        debug_assert_eq!(self.squares[sq.index()], Some(old));
        debug_assert_eq!((old.colour(), old.kind()), (piece.colour(), piece.kind()));
        self.squares[sq.index()] = Some(piece);
        self.toggle_flags(sq.index(), old.flags().bits() ^ piece.flags().bits());
    }

    /// Moves `old`, the piece on `from`, to the empty square `to` as `piece` (the same piece,
    /// perhaps turned).
    #[inline(always)]
    pub(crate) fn relocate(&mut self, from: Square, to: Square, old: Piece, piece: Piece) {
        debug_assert!(self.squares[to.index()].is_none());
        debug_assert_eq!(self.squares[from.index()], Some(old));
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        let delta = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.by_colour[piece.colour().index()] ^= delta;
        self.occupied ^= delta;
        self.by_kind[piece.kind().index()] ^= delta;
        self.toggle_flags(from.index(), old.flags().bits());
        self.toggle_flags(to.index(), piece.flags().bits());
    }

    /// Moves `old`, the piece on `from`, onto `victim` on `to`, which it captures, as `piece`
    /// (the same piece, perhaps turned).
    #[inline(always)]
    pub(crate) fn capture(
        &mut self,
        from: Square,
        to: Square,
        old: Piece,
        piece: Piece,
        victim: Piece,
    ) {
        debug_assert_eq!(self.squares[to.index()], Some(victim));
        debug_assert_eq!(self.squares[from.index()], Some(old));
        self.squares[from.index()] = None;
        self.squares[to.index()] = Some(piece);
        self.toggle_capture(from, to, old, piece, victim);
        let vc = victim.colour().index();
        self.counts[vc][victim.kind().index()] -= 1;
        self.turn_moves[vc] -= u16::from(TURN_MOVES[victim.flags().bits() as usize]);
    }

    /// The square sets and flag sets that a capture changes, toggled (XOR, so the same call
    /// makes and takes back the capture): `old` leaves `from`, `piece` (the same piece,
    /// perhaps turned) replaces `victim` on `to`. [`Board::capture`] and
    /// [`Board::uncapture`] share it; the piece array and the counts are theirs.
    #[inline(always)]
    fn toggle_capture(
        &mut self,
        from: Square,
        to: Square,
        old: Piece,
        piece: Piece,
        victim: Piece,
    ) {
        let f = Bitboard::from_square(from);
        let t = Bitboard::from_square(to);
        self.by_colour[piece.colour().index()] ^= f | t;
        self.by_colour[victim.colour().index()] ^= t;
        self.occupied ^= f;
        self.by_kind[piece.kind().index()] ^= f | t;
        self.by_kind[victim.kind().index()] ^= t;
        self.toggle_flags(from.index(), old.flags().bits());
        self.toggle_flags(to.index(), piece.flags().bits() ^ victim.flags().bits());
    }

    /// Takes back [`Board::capture`]: `piece` on `to` goes back to `from` as `old`, and
    /// `victim` returns to `to`.
    #[inline(always)]
    pub(crate) fn uncapture(
        &mut self,
        from: Square,
        to: Square,
        old: Piece,
        piece: Piece,
        victim: Piece,
    ) {
        debug_assert!(self.squares[from.index()].is_none());
        debug_assert_eq!(self.squares[to.index()], Some(piece));
        self.squares[from.index()] = Some(old);
        self.squares[to.index()] = Some(victim);
        self.toggle_capture(from, to, old, piece, victim);
        let vc = victim.colour().index();
        self.counts[vc][victim.kind().index()] += 1;
        self.turn_moves[vc] += u16::from(TURN_MOVES[victim.flags().bits() as usize]);
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

    /// The squares holding pieces of `kind`, of every colour.
    #[inline]
    #[must_use]
    pub fn by_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// The squares holding pieces (of every colour) with a flag in direction `dir`.
    #[inline]
    #[must_use]
    pub fn with_flag(&self, dir: Direction) -> Bitboard {
        self.flag_set(dir.index())
    }

    /// [`Board::with_flag`] by direction index.
    #[inline(always)]
    pub(crate) fn flag_set(&self, d: usize) -> Bitboard {
        Bitboard(u128::from(self.by_flag.0[0][d]) | u128::from(self.by_flag.0[1][d]) << 64)
    }

    /// The flags of the piece on square index `sq`, 0 if it is empty.
    #[inline(always)]
    pub(crate) fn squares_mask(&self, sq: usize) -> u8 {
        self.squares[sq].map_or(0, |p| p.flags().bits())
    }

    /// Number of pieces of `colour` (from the counts by kind).
    #[inline(always)]
    pub(crate) fn pieces_of(&self, colour: Seat) -> u32 {
        self.counts[colour.index()]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// The number of direction moves `colour`'s pieces have when any rotation is allowed.
    #[inline]
    pub(crate) fn turn_moves(&self, colour: Seat) -> u32 {
        u32::from(self.turn_moves[colour.index()])
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

/// `SPREAD.0[m][d]`: all ones if bit `d` of the mask `m` is set, else zero. One 64-byte line
/// per mask, of which a game uses few.
#[repr(align(64))]
struct Spread([[u64; 8]; 256]);

static SPREAD: Spread = {
    let mut t = [[0u64; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut d = 0;
        while d < 8 {
            if m >> d & 1 != 0 {
                t[m][d] = !0;
            }
            d += 1;
        }
        m += 1;
    }
    Spread(t)
};

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
