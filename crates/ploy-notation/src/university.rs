//! University move strings: `<from>-<to>-<r>`, exactly 7 characters (`docs/notation.md` section 2).
//!
//! `e3-e4-0` moves the piece on `e3` to `e4`; `d2-d2-5` turns the piece on `d2` five steps
//! clockwise (a direction move); `e3-e4-3` moves a shield and then turns it three steps
//! clockwise. `r` is always clockwise, `0`..`7`.
//!
//! # Leniency
//!
//! None: this is the exact format of ploy-core's [`Move`] text ([`Move::from_ascii`], which
//! this reader uses). The text must be exactly 7 characters: a file `a`..`i`, a rank
//! `1`..`9`, `-`, a file, a rank, `-`, a digit `0`..`7`. Upper case, whitespace, `x` for
//! `-`, a second digit or a sign are all rejected, and so is a wrong number of characters
//! before anything else is looked at. (The algebraic reader, [`crate::algebraic`], reads
//! every university move string too, and is lenient about case and separators: use it for
//! text people type.)
//!
//! Errors name the character (counting from 1) and show the character found there, so
//! non-ASCII input is reported as typed: `e3-e4-é` is "character 7: expected a rotation
//! digit `0`..`7`, found `é`".
//!
//! # Two stages
//!
//! [`UniversityMove`] is the syntax: any `(from, to, r)` triple, legal or not. Resolution
//! against a position ([`UniversityMove::to_move`]) checks that the triple is a legal move
//! there and says why not if it is not ([`IllegalMoveError`]).

use core::fmt;

use ploy_core::{Move, Position, Square};

use crate::moves::{IllegalMoveError, ParseMoveError, ReadMoveError, check_legal};

/// A university move string: a `(from, to, r)` triple, legal or not.
///
/// ```
/// use ploy_core::{Move, Position, Square};
/// use ploy_notation::UniversityMove;
/// let text: UniversityMove = "e3-e4-0".parse()?;
/// let mv = text.to_move(&Position::new())?;
/// assert_eq!(mv, Move::new(Square::E3, Square::E4, 0));
/// assert_eq!(UniversityMove::from(mv).to_string(), "e3-e4-0");
/// assert!("e3-e4".parse::<UniversityMove>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct UniversityMove {
    /// The start square.
    pub from: Square,
    /// The end square (the start square for a direction move).
    pub to: Square,
    /// Clockwise eighths of a turn after moving, 0..7.
    rotation: u8,
}

impl UniversityMove {
    /// The move string for `(from, to, rotation)`, or `None` if `rotation` is 8 or more.
    #[must_use]
    pub const fn new(from: Square, to: Square, rotation: u8) -> Option<UniversityMove> {
        if rotation < 8 {
            Some(UniversityMove { from, to, rotation })
        } else {
            None
        }
    }

    /// Clockwise eighths of a turn, 0..7.
    #[must_use]
    pub const fn rotation(self) -> u8 {
        self.rotation
    }

    /// The triple as a core move, without checking it is legal anywhere.
    #[must_use]
    pub const fn as_move(self) -> Move {
        Move::new(self.from, self.to, self.rotation)
    }

    /// Resolves the move in `pos`.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if it is not legal there, with the reason.
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMoveError> {
        let mv = self.as_move();
        check_legal(pos, mv)?;
        Ok(mv)
    }

    /// Reads a move string from bytes (any bytes: the input need not be UTF-8).
    ///
    /// # Errors
    /// [`ParseMoveError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<UniversityMove, ParseMoveError> {
        Move::from_ascii(text).map(UniversityMove::from)
    }
}

impl From<Move> for UniversityMove {
    fn from(mv: Move) -> UniversityMove {
        UniversityMove {
            from: mv.from(),
            to: mv.to(),
            rotation: mv.rotation(),
        }
    }
}

impl From<UniversityMove> for Move {
    fn from(m: UniversityMove) -> Move {
        m.as_move()
    }
}

impl fmt::Display for UniversityMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.from, self.to, self.rotation)
    }
}

crate::util::from_str_via_ascii!(UniversityMove => ParseMoveError);

/// Reads a university move string and resolves it in `pos`: both stages at once.
///
/// # Errors
/// [`ReadMoveError::Malformed`] or [`ReadMoveError::Illegal`].
pub fn read_university(pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
    Ok(UniversityMove::from_ascii(text.as_bytes())?.to_move(pos)?)
}
