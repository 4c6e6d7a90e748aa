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
//! ([`Position::from_setup`]: at most one commander, no more pieces of a kind than the start
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

use core::fmt;
use core::num::NonZeroU8;
use core::str::FromStr;

use ploy_core::{
    Board, Flags, InvalidFlags, Piece, Position, PositionError, Rules, Seat, Setup, Square, Variant,
};

use crate::four_player::FourPlayerPositionString;
use crate::util::{ByteDisplay, is_ws};

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
        let mut board = Board::empty();
        for sq in text_order() {
            if let Some(raw) = self.get(sq) {
                let piece = raw
                    .to_piece()
                    .map_err(|source| NotAPieceError { square: sq, source })?;
                board.put(sq, piece);
            }
        }
        Ok(board)
    }

    /// Reads a board string from bytes (any bytes: the input need not be UTF-8).
    ///
    /// # Errors
    /// [`ParseBoardError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<BoardString, ParseBoardError> {
        parse_board(text, 0)
    }
}

/// The squares in the order a board string lists them: rank 9 to 1, file `a` to `i`.
fn text_order() -> impl Iterator<Item = Square> {
    (0..9u8)
        .rev()
        .flat_map(|rank| (0..9u8).map(move |file| Square::new(file, rank)))
}

impl Default for BoardString {
    fn default() -> BoardString {
        BoardString::empty()
    }
}

impl fmt::Display for BoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for rank in (0..9u8).rev() {
            for file in 0..9u8 {
                if let Some(raw) = self.get(Square::new(file, rank)) {
                    fmt::Display::fmt(&raw, f)?;
                }
                if file < 8 {
                    f.write_char(',')?;
                }
            }
            if rank > 0 {
                f.write_char('/')?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for BoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoardString({self})")
    }
}

impl FromStr for BoardString {
    type Err = ParseBoardError;
    fn from_str(s: &str) -> Result<BoardString, ParseBoardError> {
        BoardString::from_ascii(s.as_bytes())
    }
}

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

/// Splits `text` at every `sep`, giving each part with its offset.
fn split_offsets(text: &[u8], sep: u8) -> impl Iterator<Item = (usize, &[u8])> {
    let mut start = 0;
    text.split(move |&b| b == sep).map(move |part| {
        let at = start;
        start += part.len() + 1;
        (at, part)
    })
}

fn parse_board(text: &[u8], base: usize) -> Result<BoardString, ParseBoardError> {
    let grid = parse_grid(text, base, Letters::TwoPlayer)?;
    let mut board = BoardString::empty();
    for (i, field) in grid.iter().enumerate() {
        if let Some((letter, mask)) = *field {
            let side = Side::from_letter(letter).expect("the grid parser checked the letter");
            board.squares[i] = Some(RawPiece { side, mask });
        }
    }
    Ok(board)
}

/// The colour letters a board string may use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Letters {
    /// `b` and `w`.
    TwoPlayer,
    /// `g`, `r`, `y` and `b`.
    FourPlayer,
}

impl Letters {
    fn accepts(self, letter: u8) -> bool {
        match self {
            Letters::TwoPlayer => matches!(letter, b'b' | b'w'),
            Letters::FourPlayer => matches!(letter, b'g' | b'r' | b'y' | b'b'),
        }
    }
}

/// What a board string holds, square by square (index order), as `(letter, mask)`.
pub(crate) type Grid = [Option<(u8, NonZeroU8)>; 81];

/// Parses the ranks and fields of a board string; `base` is the offset of `text` in the
/// whole input. The letters are checked against `letters` and returned as written.
pub(crate) fn parse_grid(
    text: &[u8],
    base: usize,
    letters: Letters,
) -> Result<Grid, ParseBoardError> {
    let ranks = text.iter().filter(|&&b| b == b'/').count() + 1;
    if ranks != 9 {
        let offset = if ranks > 9 {
            // The 9th `/` (which starts the 10th rank).
            split_offsets(text, b'/')
                .nth(9)
                .map_or(text.len(), |(at, _)| at - 1)
        } else {
            text.len()
        };
        return Err(ParseBoardError::RankCount {
            found: ranks,
            offset: base + offset,
        });
    }
    let mut grid: Grid = [None; 81];
    for (i, (rank_at, rank_text)) in split_offsets(text, b'/').enumerate() {
        let rank = 8 - i as u8; // 0-based rank
        let fields = rank_text.iter().filter(|&&b| b == b',').count() + 1;
        if fields != 9 {
            let offset = if fields > 9 {
                split_offsets(rank_text, b',')
                    .nth(9)
                    .map_or(rank_text.len(), |(at, _)| at - 1)
            } else {
                rank_text.len()
            };
            return Err(ParseBoardError::SquareCount {
                rank: rank + 1,
                found: fields,
                offset: base + rank_at + offset,
            });
        }
        for (file, (field_at, field)) in split_offsets(rank_text, b',').enumerate() {
            let square = Square::new(file as u8, rank);
            grid[square.index()] = parse_field(field, base + rank_at + field_at, square, letters)?;
        }
    }
    Ok(grid)
}

fn parse_field(
    field: &[u8],
    at: usize,
    square: Square,
    letters: Letters,
) -> Result<Option<(u8, NonZeroU8)>, ParseBoardError> {
    let lead = field.iter().take_while(|&&b| is_ws(b)).count();
    let trail = field[lead..]
        .iter()
        .rev()
        .take_while(|&&b| is_ws(b))
        .count();
    let token = &field[lead..field.len() - trail];
    let at = at + lead;
    let Some((&letter, digits)) = token.split_first() else {
        return Ok(None);
    };
    if !letters.accepts(letter) {
        return Err(match letters {
            Letters::TwoPlayer => ParseBoardError::Colour {
                square,
                offset: at,
                found: letter,
            },
            Letters::FourPlayer => ParseBoardError::FourPlayerColour {
                square,
                offset: at,
                found: letter,
            },
        });
    }
    let digits_at = at + 1;
    let Some(&first) = digits.first() else {
        // The field ends after the letter; report what follows it in the input, if anything.
        let found = field.get(lead + 1).copied();
        return Err(ParseBoardError::MissingMask {
            square,
            offset: digits_at,
            found,
        });
    };
    if !first.is_ascii_digit() {
        return Err(ParseBoardError::MissingMask {
            square,
            offset: digits_at,
            found: Some(first),
        });
    }
    let mut value: u32 = 0;
    for (i, &d) in digits.iter().enumerate() {
        if !d.is_ascii_digit() {
            return Err(ParseBoardError::Digit {
                square,
                offset: digits_at + i,
                found: d,
            });
        }
        value = value.saturating_mul(10).saturating_add(u32::from(d - b'0'));
    }
    if first == b'0' && digits.len() > 1 {
        return Err(ParseBoardError::LeadingZero {
            square,
            offset: digits_at,
        });
    }
    let mask =
        u8::try_from(value)
            .ok()
            .and_then(NonZeroU8::new)
            .ok_or(ParseBoardError::MaskRange {
                square,
                offset: digits_at,
            })?;
    Ok(Some((letter, mask)))
}

/// A two-player position string, parsed but not validated: a [`BoardString`], one space,
/// and the side to move. [`PositionString`] covers it and the four-player form.
///
/// ```
/// use ploy_core::{Position, Rules};
/// use ploy_notation::{Side, TwoPlayerPositionString};
/// let text = "\
///     ,w84,w41,w56,w170,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,w16,,,/\
///     ,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/\
///     ,b69,b146,b131,b170,b131,b146,b69, b";
/// let parsed: TwoPlayerPositionString = text.parse()?;
/// assert_eq!(parsed.turn(), Side::Black);
/// let pos = parsed.to_position(Rules::university())?;
/// assert_eq!(pos, Position::start(Default::default(), Rules::university()));
/// assert_eq!(TwoPlayerPositionString::from_position(&pos).unwrap().to_string(), text);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TwoPlayerPositionString {
    board: BoardString,
    turn: Side,
}

impl TwoPlayerPositionString {
    /// The position string of `board` with `turn` to move.
    #[must_use]
    pub const fn new(board: BoardString, turn: Side) -> TwoPlayerPositionString {
        TwoPlayerPositionString { board, turn }
    }

    /// The two-player start position, black (Green) to move.
    #[must_use]
    pub fn start() -> TwoPlayerPositionString {
        TwoPlayerPositionString::new(BoardString::start(), Side::Black)
    }

    /// The board.
    #[must_use]
    pub const fn board(&self) -> &BoardString {
        &self.board
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The string of a two-player position, or `None` for a position of another variant
    /// (use [`PositionString::from_position`] for any position).
    #[must_use]
    pub fn from_position(pos: &Position) -> Option<TwoPlayerPositionString> {
        if pos.variant() != Variant::TwoPlayer {
            return None;
        }
        let board = BoardString::from_board(pos.board()).ok()?;
        let turn = Side::from_seat(pos.turn())?;
        Some(TwoPlayerPositionString { board, turn })
    }

    /// The validity stage, first half: the unvalidated core setup.
    ///
    /// # Errors
    /// [`NotAPieceError`] for a mask with 5 to 8 flags.
    pub fn to_setup(&self) -> Result<Setup, NotAPieceError> {
        Ok(Setup::two_player(self.board.to_board()?, self.turn.seat()))
    }

    /// The validity stage: the position, played by `rules`.
    ///
    /// # Errors
    /// [`InvalidPositionError`]: a mask that is not a piece, or a board that breaks the rules
    /// of a valid position (`docs/rules.md` section 8).
    pub fn to_position(&self, rules: Rules) -> Result<Position, InvalidPositionError> {
        Ok(Position::from_setup(self.to_setup()?, rules)?)
    }

    /// Reads a two-player position string from bytes (any bytes: the input need not be
    /// UTF-8).
    ///
    /// # Errors
    /// [`ParsePositionError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<TwoPlayerPositionString, ParsePositionError> {
        let Some(space) = text.iter().rposition(|&b| b == b' ') else {
            return Err(ParsePositionError::MissingTurn { offset: text.len() });
        };
        let turn_text = &text[space + 1..];
        // Text after the last space that looks like board text (a separator, or a field
        // such as `b69` on square i1) means the side to move is missing.
        let looks_like_a_field =
            turn_text.len() > 1 && turn_text[1..].iter().all(u8::is_ascii_digit);
        if looks_like_a_field || turn_text.iter().any(|&b| b == b',' || b == b'/') {
            return Err(ParsePositionError::MissingTurn { offset: text.len() });
        }
        let turn = match turn_text.first() {
            None => {
                return Err(ParsePositionError::Turn {
                    offset: space + 1,
                    found: None,
                });
            }
            Some(&b) => Side::from_letter(b).ok_or(ParsePositionError::Turn {
                offset: space + 1,
                found: Some(b),
            })?,
        };
        if let Some(&b) = turn_text.get(1) {
            return Err(ParsePositionError::Trailing {
                offset: space + 2,
                found: b,
            });
        }
        // Exactly one space separates the board from the side to move.
        let ws = text[..space]
            .iter()
            .rev()
            .take_while(|&&b| is_ws(b))
            .count();
        if ws > 0 {
            return Err(ParsePositionError::Separator { offset: space - ws });
        }
        let board = parse_board(&text[..space], 0)?;
        Ok(TwoPlayerPositionString { board, turn })
    }
}

impl fmt::Display for TwoPlayerPositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.board, self.turn)
    }
}

impl FromStr for TwoPlayerPositionString {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<TwoPlayerPositionString, ParsePositionError> {
        TwoPlayerPositionString::from_ascii(s.as_bytes())
    }
}

/// A position string of any variant, parsed but not validated: the two-player form
/// (`<board> b`) or the four-player form (`ffa <board> g gryb -`); see the
/// [module docs](self) and [`crate::four_player`].
///
/// `FromStr`/[`PositionString::from_ascii`] read either form: text that starts with `ffa`
/// or `partnership` is read as a four-player string, anything else as a two-player string.
/// [`PositionString::from_position`] writes any position. `Display` writes the canonical
/// form without allocating.
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_notation::PositionString;
/// for variant in [Variant::TwoPlayer, Variant::FreeForAll, Variant::Partnership] {
///     let pos = Position::start(variant, Rules::university());
///     let text = PositionString::from_position(&pos).to_string();
///     let parsed: PositionString = text.parse()?;
///     assert_eq!(parsed.variant(), variant);
///     assert_eq!(parsed.to_position(Rules::university())?, pos);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum PositionString {
    /// `<board> <b|w>`: a two-player position.
    TwoPlayer(TwoPlayerPositionString),
    /// `<ffa|partnership> <board> <turn> <controllers> <out of play>`: a four-player
    /// position.
    FourPlayer(FourPlayerPositionString),
}

impl PositionString {
    /// The two-player start position, black (Green) to move.
    #[must_use]
    pub fn start() -> PositionString {
        PositionString::TwoPlayer(TwoPlayerPositionString::start())
    }

    /// The start position of `variant`.
    #[must_use]
    pub fn start_of(variant: Variant) -> PositionString {
        PositionString::from_position(&Position::start(variant, Rules::university()))
    }

    /// The string of any position: the two-player form for a two-player position, the
    /// four-player form for the others. Never fails: every valid position has a string,
    /// and reading it back (with the same rules) gives the same state (board, seat to move,
    /// controllers, seats in play).
    #[must_use]
    pub fn from_position(pos: &Position) -> PositionString {
        match TwoPlayerPositionString::from_position(pos) {
            Some(two) => PositionString::TwoPlayer(two),
            None => PositionString::FourPlayer(FourPlayerPositionString::of(pos)),
        }
    }

    /// The variant the string is for.
    #[must_use]
    pub fn variant(&self) -> Variant {
        match self {
            PositionString::TwoPlayer(_) => Variant::TwoPlayer,
            PositionString::FourPlayer(four) => four.variant(),
        }
    }

    /// The seat to move (black is [`Seat::Green`], white [`Seat::Red`]).
    #[must_use]
    pub fn turn(&self) -> Seat {
        match self {
            PositionString::TwoPlayer(two) => two.turn().seat(),
            PositionString::FourPlayer(four) => four.turn(),
        }
    }

    /// The two-player string, if it is one.
    #[must_use]
    pub fn as_two_player(&self) -> Option<&TwoPlayerPositionString> {
        match self {
            PositionString::TwoPlayer(two) => Some(two),
            PositionString::FourPlayer(_) => None,
        }
    }

    /// The four-player string, if it is one.
    #[must_use]
    pub fn as_four_player(&self) -> Option<&FourPlayerPositionString> {
        match self {
            PositionString::TwoPlayer(_) => None,
            PositionString::FourPlayer(four) => Some(four),
        }
    }

    /// The validity stage, first half: the unvalidated core setup.
    ///
    /// # Errors
    /// [`NotAPieceError`] for a mask with 5 to 8 flags.
    pub fn to_setup(&self) -> Result<Setup, NotAPieceError> {
        match self {
            PositionString::TwoPlayer(two) => two.to_setup(),
            PositionString::FourPlayer(four) => four.to_setup(),
        }
    }

    /// The validity stage: the position, played by `rules`.
    ///
    /// # Errors
    /// [`InvalidPositionError`]: a mask that is not a piece, or a setup that breaks the rules
    /// of a valid position (`docs/rules.md` section 8; for four players also controllers
    /// and seats in play that cannot arise under `rules`).
    pub fn to_position(&self, rules: Rules) -> Result<Position, InvalidPositionError> {
        Ok(Position::from_setup(self.to_setup()?, rules)?)
    }

    /// Reads a position string of either form from bytes (any bytes: the input need not be
    /// UTF-8). Text that starts with `ffa` or `partnership` is read as a four-player string
    /// ([`FourPlayerPositionString::from_ascii`]), anything else as a two-player string
    /// ([`TwoPlayerPositionString::from_ascii`]).
    ///
    /// # Errors
    /// [`ParsePositionError`] with what is wrong and where.
    pub fn from_ascii(text: &[u8]) -> Result<PositionString, ParsePositionError> {
        if crate::four_player::starts_four_player(text) {
            FourPlayerPositionString::from_ascii(text).map(PositionString::FourPlayer)
        } else {
            TwoPlayerPositionString::from_ascii(text).map(PositionString::TwoPlayer)
        }
    }
}

impl fmt::Display for PositionString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionString::TwoPlayer(two) => fmt::Display::fmt(two, f),
            PositionString::FourPlayer(four) => fmt::Display::fmt(four, f),
        }
    }
}

impl FromStr for PositionString {
    type Err = ParsePositionError;
    fn from_str(s: &str) -> Result<PositionString, ParsePositionError> {
        PositionString::from_ascii(s.as_bytes())
    }
}

impl From<&Position> for PositionString {
    /// See [`PositionString::from_position`].
    fn from(pos: &Position) -> PositionString {
        PositionString::from_position(pos)
    }
}

impl From<TwoPlayerPositionString> for PositionString {
    fn from(two: TwoPlayerPositionString) -> PositionString {
        PositionString::TwoPlayer(two)
    }
}

impl From<FourPlayerPositionString> for PositionString {
    fn from(four: FourPlayerPositionString) -> PositionString {
        PositionString::FourPlayer(four)
    }
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

/// Reads a position string into a position played by `rules`: both stages at once. The
/// words `start`, `ffa` and `partnership` stand for the start positions of the two-player,
/// free-for-all and partnership games, as every program of this workspace takes them.
///
/// The way back is [`PositionString::from_position`] (`to_string()` gives the text):
///
/// ```
/// use ploy_core::{Position, Rules, Variant};
/// use ploy_notation::{PositionString, read_position};
/// let pos = read_position("ffa", Rules::standard())?;
/// assert_eq!(pos, Position::start(Variant::FreeForAll, Rules::standard()));
/// let text = PositionString::from_position(&pos).to_string();
/// assert_eq!(read_position(&text, Rules::standard())?, pos);
/// # Ok::<(), ploy_notation::ReadPositionError>(())
/// ```
///
/// ```
/// use ploy_core::Rules;
/// let pos = ploy_notation::read_position(
///     ",,,,w170,,,,/,,,,,,,,/,,,,w1,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b16,,,,/,,,,,,,,/,,,,b170,,,, w",
///     Rules::university(),
/// )?;
/// // Red's commander on e9 has 2 steps and 4 turns, its shield on e7 8 + 7 moves.
/// assert_eq!(pos.legal_moves().len(), 21);
/// # Ok::<(), ploy_notation::ReadPositionError>(())
/// ```
///
/// # Errors
/// [`ReadPositionError::Malformed`] or [`ReadPositionError::Invalid`].
pub fn read_position(text: &str, rules: Rules) -> Result<Position, ReadPositionError> {
    read_position_bytes(text.as_bytes(), rules)
}

/// [`read_position`] on bytes (any bytes: the input need not be UTF-8).
///
/// # Errors
/// [`ReadPositionError::Malformed`] or [`ReadPositionError::Invalid`].
pub fn read_position_bytes(text: &[u8], rules: Rules) -> Result<Position, ReadPositionError> {
    let variant = match text {
        b"start" => Variant::TwoPlayer,
        b"ffa" => Variant::FreeForAll,
        b"partnership" => Variant::Partnership,
        _ => {
            let parsed = PositionString::from_ascii(text)?;
            return Ok(parsed.to_position(rules)?);
        }
    };
    Ok(Position::start(variant, rules))
}
