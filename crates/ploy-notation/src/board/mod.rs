//! Board strings and position strings (the university "FEN" format, `docs/notation.md`
//! sections 4 and 5).
//!
//! # Grammar
//!
//! ```text
//! position := board ' ' side
//! board    := rank '/' rank '/' rank '/' rank '/' rank '/' rank '/' rank '/' rank '/' rank
//! rank     := field ',' field ',' field ',' field ',' field ',' field ',' field ',' field ',' field
//! field    := ws* ( side mask )? ws*
//! side     := 'b' | 'w'
//! mask     := '1'..'9' digit*          (value 1..255, no leading zeros, no sign)
//! ws       := ' ' | '\t' | '\n' | '\r' | '\x0c'
//! ```
//!
//! Ranks come from 9 down to 1 and fields from file `a` to file `i`: exactly 9 ranks with 8
//! `/` and exactly 9 fields per rank with 8 `,` (a rank whose `a` square is empty begins with
//! `,`). `b` is the bottom side (Green, moves first), `w` the top side (Red).
//!
//! # Leniency
//!
//! - **Accepted on input:** ASCII whitespace (space, tab, line feed, carriage return, form
//!   feed) before and after each field, so a board may be wrapped over several lines.
//!   Nothing else is lenient.
//! - **Rejected:** any other number of ranks or fields, a colour other than lower-case `b` or
//!   `w`, a missing mask, a mask of 0 or above 255, leading zeros (`b01`), signs, whitespace
//!   inside a field (`b 1`, `b1 7`), any other byte (non-ASCII included).
//! - **Position strings** are split at their **last** space byte: the text before it is the
//!   board, the text after it must be exactly `b` or `w`. Exactly one space separates them:
//!   the board may not end in whitespace (`<board>  b` with two spaces is rejected,
//!   [`ParsePositionError::Separator`]). Nothing may follow the side to move, not even a
//!   line ending. (Text after the last space that looks like a field, `b69`, or holds `,`
//!   or `/` is reported as a missing side to move.)
//!
//! Errors report the first problem in this order: the number of ranks, then rank by rank
//! (9 down to 1) the number of fields and then each field from `a` to `i`; for a position
//! string the side to move is checked before the board. Every error carries the byte offset
//! (counted from the start of the input) and, where there is one, the rank or square.
//!
//! # Two stages
//!
//! The syntax stage ([`BoardString`], [`PositionString`]) accepts any mask 1..255, as the
//! university format says. Turning the text into core values is the validity stage:
//! [`BoardString::to_board`] rejects masks with 5 to 8 flags (not pieces, `docs/rules.md`
//! section 2) and [`PositionString::to_position`] then applies the rules of a valid position
//! ([`Position::from_setup`](ploy_core::Position::from_setup): at most one commander, no more pieces of a kind than the start
//! army, and nothing no game can reach, such as a board without any commander; a board
//! that shows a decided game, one side without its commander, is valid and has its
//! outcome). ploy-core's crate docs give the reasoning.
//!
//! # Four-player positions
//!
//! Four-player positions have their own form, `ffa <board> <turn> <controllers> <out>` (or
//! `partnership ...`), described in [`crate::four_player`]. It starts with the variant word,
//! and no two-player string can start with a letter other than `b` or `w`, so the two forms
//! never overlap: [`TwoPlayerPositionString`] (this module's grammar, unchanged) rejects
//! every four-player string, and [`PositionString`] reads text starting with `ffa` or
//! `partnership` as four-player and anything else as two-player.
//!
//! # Files
//!
//! The board string lives here ([`Side`], [`RawPiece`], [`BoardString`]); its grammar's
//! parser, shared with the four-player strings, in `grid`; the position strings
//! ([`TwoPlayerPositionString`], [`PositionString`], [`read_position`]) in `position`; the
//! errors of both stages in `error`.

mod error;
mod grid;
mod position;

pub use error::{
    InvalidPositionError, NotAPieceError, NotTwoPlayerError, ParseBoardError, ParsePositionError,
    ReadPositionError,
};
pub(crate) use grid::{Letters, board_from_fields, parse_grid, write_grid};
pub use position::{PositionString, TwoPlayerPositionString, read_position, read_position_bytes};

use core::fmt;
use core::num::NonZeroU8;

use ploy_core::{Board, Flags, InvalidFlags, Piece, Seat, Setup, Square};

use grid::parse_board;

/// A side of the two-player game as the university format names it.
///
/// `b` (black) is the bottom side that moves first, Green in Tensi's names and in
/// [`Seat`]; `w` (white) is the top side, Red.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// `b`: the bottom side, moves first ([`Seat::Green`], [`Seat::BLACK`]).
    Black,
    /// `w`: the top side, moves second ([`Seat::Red`], [`Seat::WHITE`]).
    White,
}

impl Side {
    /// The seat this side plays: Green for black, Red for white.
    #[must_use]
    pub const fn seat(self) -> Seat {
        match self {
            Side::Black => Seat::Green,
            Side::White => Seat::Red,
        }
    }

    /// The side a two-player seat plays, or `None` for Yellow and Blue.
    #[must_use]
    pub const fn from_seat(seat: Seat) -> Option<Side> {
        match seat {
            Seat::Green => Some(Side::Black),
            Seat::Red => Some(Side::White),
            _ => None,
        }
    }

    /// The letter, `b` or `w`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::Black => 'b',
            Side::White => 'w',
        }
    }

    /// The side with this letter (`b` or `w`, lower case only).
    #[must_use]
    pub const fn from_letter(byte: u8) -> Option<Side> {
        match byte {
            b'b' => Some(Side::Black),
            b'w' => Some(Side::White),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        f.write_char(self.letter())
    }
}

/// One occupied field of a board string: a side and a mask 1..255, not yet checked to be a
/// piece (a piece has 1 to 4 flags).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RawPiece {
    /// Whose piece it is.
    pub side: Side,
    /// The direction mask as written (bit 0 north, clockwise).
    pub mask: NonZeroU8,
}

impl RawPiece {
    /// The core piece, if the mask has 1 to 4 flags.
    ///
    /// # Errors
    /// [`InvalidFlags`] for a mask with 5 to 8 flags.
    pub const fn to_piece(self) -> Result<Piece, InvalidFlags> {
        Piece::new(self.side.seat(), Flags::new(self.mask.get()))
    }

    /// The field for a two-player piece, or `None` for a Yellow or Blue piece.
    #[must_use]
    pub const fn from_piece(piece: Piece) -> Option<RawPiece> {
        match (
            Side::from_seat(piece.colour()),
            NonZeroU8::new(piece.flags().bits()),
        ) {
            (Some(side), Some(mask)) => Some(RawPiece { side, mask }),
            _ => None,
        }
    }
}

impl fmt::Display for RawPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.side, self.mask)
    }
}

/// A board string, parsed but not validated: what stands on each square as written.
///
/// `FromStr`/[`BoardString::from_ascii`] read it (see the [module docs](self) for exactly
/// what is accepted); `Display` writes the canonical form (no whitespace). Writing does not
/// allocate.
///
/// ```
/// use ploy_notation::BoardString;
/// let text = "\
///     ,w84,w41,w56,w170,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,w16,,,/\
///     ,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/\
///     ,b69,b146,b131,b170,b131,b146,b69,";
/// let board: BoardString = text.parse()?;
/// assert_eq!(board.to_string(), text);
/// assert_eq!(board, BoardString::start());
/// // Whitespace around squares is fine on input:
/// let spaced = text.replace(',', " , ");
/// assert_eq!(spaced.parse::<BoardString>()?, board);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct BoardString {
    squares: [Option<RawPiece>; 81],
}

impl BoardString {
    /// A board with no pieces (`,,,,,,,,/` nine times, without the last `/`).
    #[must_use]
    pub const fn empty() -> BoardString {
        BoardString {
            squares: [None; 81],
        }
    }

    /// The two-player start position (`docs/rules.md` section 5).
    #[must_use]
    pub fn start() -> BoardString {
        BoardString::from_board(&Setup::start().board)
            .expect("the start position has two-player pieces only")
    }

    /// What is written on `sq`.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<RawPiece> {
        self.squares[sq.index()]
    }

    /// Sets what is written on `sq`.
    pub fn set(&mut self, sq: Square, field: Option<RawPiece>) {
        self.squares[sq.index()] = field;
    }

    /// The text of a board: the pieces of `board` as fields.
    ///
    /// # Errors
    /// [`NotTwoPlayerError`] if a piece is Yellow or Blue, which this format cannot write.
    pub fn from_board(board: &Board) -> Result<BoardString, NotTwoPlayerError> {
        let mut out = BoardString::empty();
        for (square, piece) in board.pieces() {
            let raw = RawPiece::from_piece(piece).ok_or(NotTwoPlayerError {
                square,
                colour: piece.colour(),
            })?;
            out.set(square, Some(raw));
        }
        Ok(out)
    }

    /// The validity stage, first half: the core board, if every mask is a piece.
    ///
    /// # Errors
    /// [`NotAPieceError`] for the first field (in text order: rank 9 to 1, file `a` to `i`)
    /// whose mask has 5 to 8 flags.
    pub fn to_board(&self) -> Result<Board, NotAPieceError> {
        board_from_fields(|sq| self.get(sq).map(RawPiece::to_piece))
    }

    /// Reads a board string from bytes (any bytes: the input need not be UTF-8).
    ///
    /// # Errors
    /// [`ParseBoardError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<BoardString, ParseBoardError> {
        parse_board(text, 0)
    }
}

impl Default for BoardString {
    fn default() -> BoardString {
        BoardString::empty()
    }
}

impl fmt::Display for BoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid(f, |sq| self.get(sq))
    }
}

impl fmt::Debug for BoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoardString({self})")
    }
}

crate::util::from_str_via_ascii!(BoardString => ParseBoardError);
