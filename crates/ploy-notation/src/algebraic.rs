//! Tensi's algebraic notation (`docs/notation.md` section 3).
//!
//! # Output (canonical)
//!
//! - A motion move is the start square, `-` (or `x` when it captures) and the end square:
//!   `e4-d5`, `e4xf5`.
//! - A direction move is the square and the turn: `c3+3` (three steps counterclockwise),
//!   `c3-1` (one step clockwise).
//! - A shield that turns after moving appends the turn: `e7-d6+2`, `e4xe5+2`.
//! - The turn of `r` clockwise steps is written `-r` for `r` in 1..3, `+4` for 4 and
//!   `+(8-r)` for 5..7. A motion without a turn has no suffix.
//! - `#` comes last when the move wins the game or eliminates a player (a draw gets none).
//!
//! # Input (lenient where no doubt can arise)
//!
//! ```text
//! move     := square ( sep? square turn? | turn ) '#'?
//! sep      := '-' | 'x' | 'X'
//! turn     := ( '+' | '-' ) '0'..'7'      ('+n': n steps counterclockwise, '-n': clockwise)
//! square   := file rank
//! file     := 'a'..'i' | 'A'..'I'
//! rank     := '1'..'9'
//! ```
//!
//! - Upper and lower case alike: `E3-E4`, `e4Xf5`.
//! - The separator may be left out: `e4e5` is `e4-e5`, `e3e4+2` is `e3-e4+2`.
//! - `-` and `x` are both accepted whether or not the move captures.
//! - `#` is optional, and accepted on a move that does not win (it is ignored).
//! - Any turn `+n` or `-n` with `n` in 0..7 is accepted, so `-4` and `+4` are the same
//!   move, and `-0`/`+0` mean no turn.
//! - A university move string reads as the same move: `e3-e4-3` is the shield's motion with
//!   three steps clockwise, `d2-d2-5` is a direction move (start and end square equal),
//!   `e3-e4-0` is the plain motion.
//! - **Rejected:** whitespace anywhere, an empty turn, a digit 8 or 9, two digits, anything
//!   after `#` or after the move.
//!
//! Errors ([`ParseMoveError`]) name the character where the problem is, counting from 1,
//! and show the character found there (`e3-é4`: "character 4: expected a file `a`..`i`,
//! found `é`"), not a byte offset or a byte value.
//!
//! # Two stages
//!
//! [`AlgebraicMove`] is the syntax: a `(from, to, r)` triple with the decorations as written
//! (`x`, `#`). Resolution ([`AlgebraicMove::to_move`]) names the one legal move it stands for
//! in a position: the triple itself, if legal there; the decorations are not checked.
//! Writing ([`AlgebraicMove::from_move`]) looks at the position to decide `x` and `#`.

use core::fmt;

use ploy_core::{Move, Position};

use crate::moves::{IllegalMoveError, ParseMoveError, ReadMoveError, check_legal, is_file_at};

/// A move in Tensi's algebraic notation: a `(from, to, r)` triple (legal or not) with the
/// capture mark and the winning mark as written.
///
/// `Display` writes the canonical text of the triple with these marks; it does not
/// allocate.
///
/// ```
/// use ploy_core::{Move, Position, Square};
/// use ploy_notation::AlgebraicMove;
/// let pos = Position::new();
/// let mv = Move::new(Square::E3, Square::E4, 6); // a shield steps and turns
/// let written = AlgebraicMove::from_move(&pos, mv);
/// assert_eq!(written.to_string(), "e3-e4+2");
/// let read: AlgebraicMove = "e3-e4+2".parse()?;
/// assert_eq!(read.to_move(&pos)?, mv);
/// // Lenient input: the university string and the clockwise spelling name the same move.
/// assert_eq!("e3-e4-6".parse::<AlgebraicMove>()?.to_move(&pos)?, mv);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AlgebraicMove {
    mv: Move,
    capture: bool,
    wins: bool,
}

impl AlgebraicMove {
    /// The text of `mv` with the given marks. A direction move never has the capture mark
    /// (`capture` is ignored for it).
    #[must_use]
    pub const fn new(mv: Move, capture: bool, wins: bool) -> AlgebraicMove {
        AlgebraicMove {
            mv,
            capture: capture && !mv.is_direction_move(),
            wins,
        }
    }

    /// The canonical text of `mv` played in `pos`: `x` if it captures, `#` if it wins the
    /// game or eliminates a player.
    ///
    /// `mv` should be legal in `pos`; for an illegal move the marks say whether the end
    /// square is occupied, and never `#`.
    #[must_use]
    pub fn from_move(pos: &Position, mv: Move) -> AlgebraicMove {
        let capture = !mv.is_direction_move() && pos.board().piece_at(mv.to()).is_some();
        let wins = pos.after(mv).is_ok_and(|next| {
            next.outcome().is_some_and(|o| !o.is_draw())
                || next.in_play().count() < pos.in_play().count()
        });
        AlgebraicMove::new(mv, capture, wins)
    }

    /// The triple as a core move, without checking it is legal anywhere.
    #[must_use]
    pub const fn as_move(self) -> Move {
        self.mv
    }

    /// Whether it is written with `x`.
    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.capture
    }

    /// Whether it is written with `#`.
    #[must_use]
    pub const fn is_win(self) -> bool {
        self.wins
    }

    /// Resolves the text in `pos` to the one legal move it names. The marks (`x`, `#`) are
    /// not checked against the position.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if the move is not legal there, with the reason.
    pub fn to_move(self, pos: &Position) -> Result<Move, IllegalMoveError> {
        check_legal(pos, self.mv)?;
        Ok(self.mv)
    }

    /// Reads algebraic text from bytes (any bytes: the input need not be UTF-8). See the
    /// [module docs](self) for the grammar and the leniency.
    ///
    /// # Errors
    /// [`ParseMoveError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<AlgebraicMove, ParseMoveError> {
        let from = ParseMoveError::square_at_any_case(text, 0)?;
        // The end square after a separator at 2 (`e4-e5`, `e4xe5`), or right at 2 (`e4e5`).
        let motion = |to_at: usize, capture: bool| -> Result<_, ParseMoveError> {
            let to = ParseMoveError::square_at_any_case(text, to_at)?;
            let after = to_at + 2;
            let (rotation, i) = match text.get(after).copied() {
                Some(b'+') => (
                    (8 - ParseMoveError::digit_at(text, after + 1)?) % 8,
                    after + 2,
                ),
                Some(b'-') => (ParseMoveError::digit_at(text, after + 1)?, after + 2),
                _ => (0, after),
            };
            Ok((to, capture, rotation, i))
        };
        let (to, mut capture, rotation, mut i) = match text.get(2).copied() {
            Some(b'+') => (from, false, (8 - ParseMoveError::digit_at(text, 3)?) % 8, 4),
            Some(b'-') if text.get(3).is_some_and(u8::is_ascii_digit) => {
                (from, false, ParseMoveError::digit_at(text, 3)?, 4)
            }
            Some(sep @ (b'-' | b'x' | b'X')) => motion(3, sep != b'-')?,
            Some(_) if is_file_at(text, 2) => motion(2, false)?,
            _ => {
                return Err(ParseMoveError::Unexpected {
                    offset: 2,
                    expected: "`-`, `x`, `+` or the end square",
                    found: ParseMoveError::found_at(text, 2),
                });
            }
        };
        let wins = text.get(i) == Some(&b'#');
        i += usize::from(wins);
        if let Some(found) = ParseMoveError::found_at(text, i) {
            return Err(ParseMoveError::Trailing { offset: i, found });
        }
        capture &= from != to;
        Ok(AlgebraicMove {
            mv: Move::new(from, to, rotation),
            capture,
            wins,
        })
    }
}

impl fmt::Display for AlgebraicMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (from, to, r) = (self.mv.from(), self.mv.to(), self.mv.rotation());
        fmt::Display::fmt(&from, f)?;
        if from != to {
            f.write_str(if self.capture { "x" } else { "-" })?;
            fmt::Display::fmt(&to, f)?;
        }
        match r {
            0 if from == to => f.write_str("-0")?,
            0 => {}
            1..=3 => write!(f, "-{r}")?,
            _ => write!(f, "+{}", 8 - r)?,
        }
        if self.wins {
            f.write_str("#")?;
        }
        Ok(())
    }
}

crate::util::from_str_via_ascii!(AlgebraicMove => ParseMoveError);

/// Reads algebraic text and resolves it in `pos`: both stages at once.
///
/// ```
/// use ploy_core::{Move, Position, Square};
/// let pos = Position::new();
/// assert_eq!(ploy_notation::read_algebraic(&pos, "e3-e4")?, Move::new(Square::E3, Square::E4, 0));
/// assert!(ploy_notation::read_algebraic(&pos, "e3-e5").is_err()); // well-formed, not legal
/// # Ok::<(), ploy_notation::ReadMoveError>(())
/// ```
///
/// # Errors
/// [`ReadMoveError::Malformed`] or [`ReadMoveError::Illegal`].
pub fn read_algebraic(pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
    Ok(AlgebraicMove::from_ascii(text.as_bytes())?.to_move(pos)?)
}
