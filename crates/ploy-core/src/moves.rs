//! Moves, their university move string (`e3-e4-0`), and fixed-capacity move lists.

use crate::Square;
use core::fmt;
use core::str::FromStr;

/// A move `(from, to, r)`: the piece on `from` ends on `to` and is then turned `r` eighths of
/// a turn clockwise (`docs/rules.md` section 3). `from == to` is a direction move.
///
/// Packed into 16 bits as `(from * 81 + to) * 8 + r` (81 x 81 x 8 = 52,488 < 65,536), so any
/// triple is representable, legal or not.
///
/// Its text is the university move string `<from>-<to>-<r>`, exactly 7 characters:
/// `e3-e4-0` moves the piece on `e3` to `e4`, `d2-d2-5` turns the piece on `d2` five steps
/// clockwise, `e3-e4-3` moves a shield and then turns it three steps clockwise. `Display`
/// writes it and `FromStr` reads it, strictly (lower case, no whitespace: see
/// [`Move::from_ascii`]); ploy-notation has the lenient readers for people and Tensi's
/// algebraic notation. With the `serde` feature a move travels as this text.
///
/// ```
/// use ploy_core::{Move, Square};
/// let mv = Move::new(Square::E3, Square::E4, 0);
/// assert_eq!((mv.from(), mv.to(), mv.rotation()), (Square::E3, Square::E4, 0));
/// assert!(!mv.is_direction_move());
/// assert_eq!(Move::from_u16(mv.to_u16()), Some(mv));
/// assert_eq!(mv.to_string(), "e3-e4-0");
/// assert_eq!("e3-e4-0".parse::<Move>()?, mv);
/// assert_eq!(
///     "e3-e4-9".parse::<Move>().unwrap_err().to_string(),
///     "character 7: expected a rotation digit `0`..`7`, found `9`"
/// );
/// # Ok::<(), ploy_core::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const _: () = assert!(core::mem::size_of::<Move>() == 2);
const _: () = assert!(core::mem::size_of::<Option<crate::Piece>>() == 2);

impl Move {
    /// The move `(from, to, rotation)`.
    ///
    /// # Panics
    /// If `rotation` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square, rotation: u8) -> Move {
        assert!(rotation < 8, "rotation must be 0..8");
        Move(((from.index() * 81 + to.index()) * 8) as u16 | rotation as u16)
    }

    /// The move `(from, to, rotation)`, or `None` if `rotation` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn try_new(from: Square, to: Square, rotation: u8) -> Option<Move> {
        if rotation < 8 {
            Some(Move::new(from, to, rotation))
        } else {
            None
        }
    }

    /// The direction move turning the piece on `sq` by `rotation` (1..7 for a legal one).
    ///
    /// # Panics
    /// If `rotation` is 8 or more.
    #[inline]
    #[must_use]
    pub const fn turn(sq: Square, rotation: u8) -> Move {
        Move::new(sq, sq, rotation)
    }

    /// Start square.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 3) / 81) as u8)
    }

    /// End square.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 3) % 81) as u8)
    }

    /// Clockwise eighths of a turn applied after moving, 0..8.
    #[inline]
    #[must_use]
    pub const fn rotation(self) -> u8 {
        (self.0 & 7) as u8
    }

    /// Whether the piece stays on its square (`from == to`).
    #[inline]
    #[must_use]
    pub const fn is_direction_move(self) -> bool {
        (self.0 >> 3) % 82 == 0
    }

    /// The move with packed value `code`, which must be below `81 * 81 * 8`.
    #[inline(always)]
    pub(crate) const fn from_code(code: u16) -> Move {
        debug_assert!((code >> 3) < 81 * 81);
        Move(code)
    }

    /// The packed 16-bit value (stable: `(from * 81 + to) * 8 + rotation`).
    #[inline]
    #[must_use]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks [`Move::to_u16`]'s value, or `None` if it is not one.
    #[inline]
    #[must_use]
    pub const fn from_u16(v: u16) -> Option<Move> {
        if ((v >> 3) as usize) < 81 * 81 {
            Some(Move(v))
        } else {
            None
        }
    }
}

impl fmt::Debug for Move {
    /// The university move string, such as `e3-e4-0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Move {
    /// The university move string, such as `e3-e4-0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.from(), self.to(), self.rotation())
    }
}

impl Move {
    /// Reads a university move string from bytes (any bytes: the input need not be UTF-8).
    ///
    /// Strict: exactly 7 characters, a file `a`..`i`, a rank `1`..`9`, `-`, a file, a rank,
    /// `-`, a rotation digit `0`..`7`. Upper case, whitespace, a missing part or anything
    /// after the digit are errors; a wrong number of characters is reported before anything
    /// else is looked at.
    ///
    /// # Errors
    /// [`ParseMoveError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<Move, ParseMoveError> {
        let chars = char_count(text);
        if chars != 7 {
            return Err(ParseMoveError::Length { found: chars });
        }
        // Seven characters but more bytes: the first non-ASCII one is reported below, as
        // every byte the format allows is ASCII.
        let from = ParseMoveError::square_at(text, 0)?;
        ParseMoveError::byte_at(text, 2, b'-', "`-`")?;
        let to = ParseMoveError::square_at(text, 3)?;
        ParseMoveError::byte_at(text, 5, b'-', "`-`")?;
        let rotation = ParseMoveError::digit_at(text, 6)?;
        Ok(Move::new(from, to, rotation))
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    /// See [`Move::from_ascii`].
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        Move::from_ascii(s.as_bytes())
    }
}

/// Move text was malformed: what is wrong and where.
///
/// `offset` is the byte offset of the problem in the text. The formats allow only ASCII and
/// a reader stops at the first byte it does not expect, so everything before `offset` is
/// ASCII: it is also the number of characters before the problem, and messages name the
/// character `offset + 1` (counting from 1). `found` is the character found there (`None`
/// at the end of the input; a byte that is not UTF-8 shows as U+FFFD).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// A university move string is not exactly 7 characters long.
    #[error("expected exactly 7 characters such as `e3-e4-0`, found {found}")]
    Length {
        /// The length in characters.
        found: usize,
    },
    /// A square's file is not `a`..`i`.
    #[error("character {}: expected a file `a`..`i`, found {}", .offset + 1, Found(*.found))]
    File {
        /// Where the file should be (bytes).
        offset: usize,
        /// What is there instead (`None`: the input ends).
        found: Option<char>,
    },
    /// A square's rank is not `1`..`9`.
    #[error("character {}: expected a rank `1`..`9`, found {}", .offset + 1, Found(*.found))]
    Rank {
        /// Where the rank should be (bytes).
        offset: usize,
        /// What is there instead (`None`: the input ends).
        found: Option<char>,
    },
    /// A separator or sign is missing or wrong.
    #[error("character {}: expected {expected}, found {}", .offset + 1, Found(*.found))]
    Unexpected {
        /// Where (bytes).
        offset: usize,
        /// What the notation allows there.
        expected: &'static str,
        /// What is there instead (`None`: the input ends).
        found: Option<char>,
    },
    /// A rotation is not a digit `0`..`7`.
    #[error("character {}: expected a rotation digit `0`..`7`, found {}", .offset + 1, Found(*.found))]
    Rotation {
        /// Where the digit should be (bytes).
        offset: usize,
        /// What is there instead (`None`: the input ends).
        found: Option<char>,
    },
    /// Something follows a complete move.
    #[error("character {}: expected the end of the move, found {}", .offset + 1, Found(Some(*.found)))]
    Trailing {
        /// Where the rest starts (bytes).
        offset: usize,
        /// Its first character.
        found: char,
    },
}

impl ParseMoveError {
    /// The byte offset of the problem (0 for a wrong length); also the number of
    /// characters before it (see the type docs).
    #[must_use]
    pub const fn offset(&self) -> usize {
        match *self {
            ParseMoveError::Length { .. } => 0,
            ParseMoveError::File { offset, .. }
            | ParseMoveError::Rank { offset, .. }
            | ParseMoveError::Unexpected { offset, .. }
            | ParseMoveError::Rotation { offset, .. }
            | ParseMoveError::Trailing { offset, .. } => offset,
        }
    }

    /// The character the problem is at, counting from 1 (1 for a wrong length).
    #[must_use]
    pub const fn character(&self) -> usize {
        self.offset() + 1
    }

    /// The character at byte `offset` of `text` (`None` at the end; U+FFFD for a byte that
    /// is not UTF-8): what an error reports as found there.
    #[must_use]
    pub fn found_at(text: &[u8], offset: usize) -> Option<char> {
        let rest = text.get(offset..)?;
        let chunk = rest.utf8_chunks().next()?;
        Some(
            chunk
                .valid()
                .chars()
                .next()
                .unwrap_or(char::REPLACEMENT_CHARACTER),
        )
    }

    /// Reads the square at byte `offset` of a move text: a file `a`..`i` and a rank `1`..`9`
    /// (`e4`), as university move strings write it. The error says which of the two is
    /// missing or wrong, and where.
    ///
    /// ```
    /// use ploy_core::{ParseMoveError, Square};
    /// assert_eq!(ParseMoveError::square_at(b"e3-e4-0", 3), Ok(Square::E4));
    /// assert!(ParseMoveError::square_at(b"E4", 0).is_err());
    /// assert_eq!(ParseMoveError::square_at_any_case(b"E4", 0), Ok(Square::E4));
    /// ```
    ///
    /// # Errors
    /// [`ParseMoveError::File`] or [`ParseMoveError::Rank`] at the offending byte.
    pub fn square_at(text: &[u8], offset: usize) -> Result<Square, ParseMoveError> {
        Self::square_with_file(text, offset, text.get(offset).copied())
    }

    /// [`ParseMoveError::square_at`] that also accepts an upper-case file (`E4`), as
    /// Tensi's algebraic notation is read.
    ///
    /// # Errors
    /// [`ParseMoveError::File`] or [`ParseMoveError::Rank`] at the offending byte.
    pub fn square_at_any_case(text: &[u8], offset: usize) -> Result<Square, ParseMoveError> {
        let file = text.get(offset).map(u8::to_ascii_lowercase);
        Self::square_with_file(text, offset, file)
    }

    /// The square whose file byte, as the caller reads it, is `file` (`None`: the text ends
    /// at `offset`) and whose rank is the byte after it.
    fn square_with_file(
        text: &[u8],
        offset: usize,
        file: Option<u8>,
    ) -> Result<Square, ParseMoveError> {
        match (file, text.get(offset + 1).copied()) {
            (Some(f @ b'a'..=b'i'), Some(r @ b'1'..=b'9')) => Ok(Square::new(f - b'a', r - b'1')),
            (Some(b'a'..=b'i'), _) => Err(ParseMoveError::Rank {
                offset: offset + 1,
                found: ParseMoveError::found_at(text, offset + 1),
            }),
            _ => Err(ParseMoveError::File {
                offset,
                found: ParseMoveError::found_at(text, offset),
            }),
        }
    }

    /// Reads a rotation digit `0`..`7` at byte `offset` of a move text.
    ///
    /// # Errors
    /// [`ParseMoveError::Rotation`] if there is none.
    pub fn digit_at(text: &[u8], offset: usize) -> Result<u8, ParseMoveError> {
        match text.get(offset).copied() {
            Some(d @ b'0'..=b'7') => Ok(d - b'0'),
            _ => Err(ParseMoveError::Rotation {
                offset,
                found: ParseMoveError::found_at(text, offset),
            }),
        }
    }

    /// Checks that byte `offset` is `byte`, else reports `expected`.
    pub(crate) fn byte_at(
        text: &[u8],
        offset: usize,
        byte: u8,
        expected: &'static str,
    ) -> Result<(), ParseMoveError> {
        if text.get(offset) == Some(&byte) {
            Ok(())
        } else {
            Err(ParseMoveError::Unexpected {
                offset,
                expected,
                found: ParseMoveError::found_at(text, offset),
            })
        }
    }
}

/// The number of characters in `text`, counting each maximal invalid UTF-8 sequence as one
/// (as a lossy conversion to a string would).
fn char_count(text: &[u8]) -> usize {
    text.utf8_chunks()
        .map(|c| c.valid().chars().count() + usize::from(!c.invalid().is_empty()))
        .sum()
}

/// Shows a character found in the input for an error message.
struct Found(Option<char>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("the end of the input"),
            Some(' ') => f.write_str("a space"),
            Some(c) if c.is_control() || c.is_whitespace() => write!(f, "U+{:04X}", u32::from(c)),
            Some(c) => write!(f, "`{c}`"),
        }
    }
}

#[cfg(feature = "serde")]
crate::serde_text::serde_as_text!(Move => "a university move string such as e3-e4-0");

crate::square::packed_int!(Move(u16), from_u16, MoveIndexError);

/// A number was not a packed move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{0} is not a packed move")]
pub struct MoveIndexError(pub u16);

/// The most moves a player can have in any valid position of any variant.
///
/// Proof. Per piece, with any rotation allowed (single-step rotation only lowers it): a
/// shield has 1 target x 8 rotations + 7 direction moves = 15; a probe 2 directions x 2
/// squares + 7 = 11; a lance 3 x 3 + 7 = 16; a commander 4 x 1 + 7 = 11. A colour never has
/// more pieces than its start army (`docs/rules.md` section 8, valid positions): two-player
/// 1 commander + 6 lances + 5 probes + 3 shields = 11 + 96 + 55 + 45 = 207; four-player
/// 1 + 2 + 3 + 3 = 11 + 32 + 33 + 45 = 121 per colour, and a player controls at most the
/// four colours: 484. Both are asserted at compile time below.
pub const MAX_MOVES: usize = 512;

const fn army_bound(army: [u32; 4]) -> u32 {
    // army = [shields, probes, lances, commanders]
    army[0] * (8 + 7) + army[1] * (2 * 2 + 7) + army[2] * (3 * 3 + 7) + army[3] * (4 + 7)
}
const _: () = assert!(army_bound(crate::rules::TWO_PLAYER_ARMY) as usize <= MAX_MOVES);
const _: () = assert!(4 * army_bound(crate::rules::FOUR_PLAYER_ARMY) as usize <= MAX_MOVES);

/// A list of moves with room for [`MAX_MOVES`], kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [Move; MAX_MOVES],
}

impl MoveList {
    /// An empty list.
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [Move(0); MAX_MOVES],
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list is full; move generation never fills it (see [`MAX_MOVES`]).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    /// The length and the whole storage, to write moves past the end before
    /// [`MoveList::set_len`].
    #[inline(always)]
    pub(crate) fn spare(&mut self) -> (usize, &mut [Move; MAX_MOVES]) {
        (self.len, &mut self.moves)
    }

    /// Sets the length after the moves up to `len` have been written through
    /// [`MoveList::spare`].
    #[inline(always)]
    pub(crate) fn set_len(&mut self, len: usize) {
        assert!(len <= MAX_MOVES);
        self.len = len;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `f` is true, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if f(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl core::ops::DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterates over the moves by value (a [`Move`] is two bytes and `Copy`); use
/// `list.iter()` (the slice's) for references.
///
/// ```
/// use ploy_core::{Move, Position};
/// let list = Position::new().legal_moves();
/// let by_ref: Vec<Move> = (&list).into_iter().collect();
/// let by_value: Vec<Move> = list.into_iter().collect();
/// assert_eq!(by_ref, by_value);
/// ```
impl<'a> IntoIterator for &'a MoveList {
    type Item = Move;
    type IntoIter = core::iter::Copied<core::slice::Iter<'a, Move>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter().copied()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = MoveListIntoIter;
    fn into_iter(self) -> MoveListIntoIter {
        MoveListIntoIter { list: self, pos: 0 }
    }
}

/// Owning iterator over a [`MoveList`].
#[derive(Clone, Debug)]
pub struct MoveListIntoIter {
    list: MoveList,
    pos: usize,
}

impl Iterator for MoveListIntoIter {
    type Item = Move;
    fn next(&mut self) -> Option<Move> {
        let m = self.list.get(self.pos).copied();
        self.pos += usize::from(m.is_some());
        m
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len() - self.pos;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveListIntoIter {}
