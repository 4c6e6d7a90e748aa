//! The errors of board and position strings: malformed text (the syntax stage) and
//! well-formed text that is no valid board or position (the validity stage).

use ploy_core::{InvalidFlags, PositionError, Seat, Square};

use crate::util::ByteDisplay;

/// A board string was malformed (the syntax stage).
///
/// Offsets count bytes from the start of the input given to the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// Not 9 ranks separated by 8 `/`.
    #[error("byte {offset}: expected 9 ranks separated by `/`, found {found}")]
    RankCount {
        /// How many ranks the text has.
        found: usize,
        /// Where the 10th rank starts (its `/`), or the end of the input for too few.
        offset: usize,
    },
    /// A rank does not have 9 fields separated by 8 `,`.
    #[error("rank {rank} (byte {offset}): expected 9 squares separated by `,`, found {found}")]
    SquareCount {
        /// The rank, 1..9 as on the board.
        rank: u8,
        /// How many fields it has.
        found: usize,
        /// Where the 10th field starts (its `,`), or the end of the rank for too few.
        offset: usize,
    },
    /// A field does not start with `b` or `w`.
    #[error("{square} (byte {offset}): expected `b` or `w` or an empty square, found {}", ByteDisplay(Some(*.found)))]
    Colour {
        /// The square.
        square: Square,
        /// Where the offending byte is.
        offset: usize,
        /// The offending byte.
        found: u8,
    },
    /// A field of a four-player board does not start with `g`, `r`, `y` or `b`.
    #[error("{square} (byte {offset}): expected `g`, `r`, `y` or `b` or an empty square, found {}", ByteDisplay(Some(*.found)))]
    FourPlayerColour {
        /// The square.
        square: Square,
        /// Where the offending byte is.
        offset: usize,
        /// The offending byte.
        found: u8,
    },
    /// A colour letter has no mask after it.
    #[error("{square} (byte {offset}): expected a mask 1..255 after the colour, found {}", ByteDisplay(*.found))]
    MissingMask {
        /// The square.
        square: Square,
        /// Where the mask should start.
        offset: usize,
        /// What is there instead (`None`: the field ends).
        found: Option<u8>,
    },
    /// A mask has a byte that is not a decimal digit (whitespace inside a field included).
    #[error("{square} (byte {offset}): expected a decimal digit in the mask, found {}", ByteDisplay(Some(*.found)))]
    Digit {
        /// The square.
        square: Square,
        /// Where the offending byte is.
        offset: usize,
        /// The offending byte.
        found: u8,
    },
    /// A mask starts with `0` and has more digits.
    #[error("{square} (byte {offset}): the mask has a leading zero")]
    LeadingZero {
        /// The square.
        square: Square,
        /// Where the mask starts.
        offset: usize,
    },
    /// A mask is 0 or above 255.
    #[error("{square} (byte {offset}): mask out of range, expected 1..255")]
    MaskRange {
        /// The square.
        square: Square,
        /// Where the mask starts.
        offset: usize,
    },
}

impl ParseBoardError {
    /// The byte offset of the problem.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match *self {
            ParseBoardError::RankCount { offset, .. }
            | ParseBoardError::SquareCount { offset, .. }
            | ParseBoardError::Colour { offset, .. }
            | ParseBoardError::FourPlayerColour { offset, .. }
            | ParseBoardError::MissingMask { offset, .. }
            | ParseBoardError::Digit { offset, .. }
            | ParseBoardError::LeadingZero { offset, .. }
            | ParseBoardError::MaskRange { offset, .. } => offset,
        }
    }

    /// The square of the problem, for errors inside a field.
    #[must_use]
    pub const fn square(&self) -> Option<Square> {
        match *self {
            ParseBoardError::RankCount { .. } | ParseBoardError::SquareCount { .. } => None,
            ParseBoardError::Colour { square, .. }
            | ParseBoardError::FourPlayerColour { square, .. }
            | ParseBoardError::MissingMask { square, .. }
            | ParseBoardError::Digit { square, .. }
            | ParseBoardError::LeadingZero { square, .. }
            | ParseBoardError::MaskRange { square, .. } => Some(square),
        }
    }
}

/// A field's mask has 5 to 8 flags: well-formed text, but not a piece (validity stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{square}: {source}")]
pub struct NotAPieceError {
    /// The square.
    pub square: Square,
    /// The mask and its number of flags.
    pub source: InvalidFlags,
}

/// A board holds a Yellow or Blue piece, which the two-player string cannot write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{square}: a {colour} piece has no letter in the two-player board string")]
pub struct NotTwoPlayerError {
    /// The square.
    pub square: Square,
    /// The piece's colour.
    pub colour: Seat,
}

/// A position string was malformed (the syntax stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// The board part is malformed.
    #[error(transparent)]
    Board(#[from] ParseBoardError),
    /// No space and side to move after the board.
    #[error("byte {offset}: expected a space and the side to move (`b` or `w`) after the board")]
    MissingTurn {
        /// The end of the input.
        offset: usize,
    },
    /// The side to move is not `b` or `w`.
    #[error("byte {offset}: expected the side to move, `b` or `w`, found {}", ByteDisplay(*.found))]
    Turn {
        /// Where the side to move should be.
        offset: usize,
        /// What is there instead (`None`: the input ends).
        found: Option<u8>,
    },
    /// More whitespace than the single space between the board and what follows it (the
    /// side to move; in a four-player string also between the variant and the board).
    #[error("byte {offset}: expected a single space between the fields, found more whitespace")]
    Separator {
        /// Where the extra whitespace starts.
        offset: usize,
    },
    /// Something follows the side to move.
    #[error("byte {offset}: expected the end after the side to move, found {}", ByteDisplay(Some(*.found)))]
    Trailing {
        /// Where the garbage starts.
        offset: usize,
        /// Its first byte.
        found: u8,
    },
    /// A field of a four-player position string outside the board is missing or wrong
    /// (the variant, the seat to move, the controllers or the seats out of play).
    #[error("byte {offset}: expected {expected}, found {}", ByteDisplay(*.found))]
    FourPlayer {
        /// Where.
        offset: usize,
        /// What the format allows there.
        expected: &'static str,
        /// What is there instead (`None`: the input ends).
        found: Option<u8>,
    },
}

impl ParsePositionError {
    /// The byte offset of the problem.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match *self {
            ParsePositionError::Board(e) => e.offset(),
            ParsePositionError::MissingTurn { offset }
            | ParsePositionError::Separator { offset }
            | ParsePositionError::Turn { offset, .. }
            | ParsePositionError::Trailing { offset, .. }
            | ParsePositionError::FourPlayer { offset, .. } => offset,
        }
    }
}

/// Well-formed text that is not a valid position (the validity stage).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidPositionError {
    /// A mask has 5 to 8 flags.
    #[error(transparent)]
    NotAPiece(#[from] NotAPieceError),
    /// The board breaks the rules of a valid position (`docs/rules.md` section 8).
    #[error(transparent)]
    Rules(#[from] PositionError),
}

/// Why text could not be read as a position: malformed, or not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadPositionError {
    /// The text is malformed.
    #[error(transparent)]
    Malformed(#[from] ParsePositionError),
    /// The text is well-formed but not a valid position.
    #[error(transparent)]
    Invalid(#[from] InvalidPositionError),
}
