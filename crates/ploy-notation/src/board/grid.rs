//! The parser of the board grammar (ranks, fields, colour letters and masks), shared by the
//! two-player board string and the four-player strings.

use core::fmt::{self, Write as _};
use core::num::NonZeroU8;

use ploy_core::{Board, InvalidFlags, Piece, Square};

use super::{BoardString, NotAPieceError, ParseBoardError, RawPiece, Side};
use crate::util::is_ws;

/// Splits `text` at every `sep`, giving each part with its offset.
pub(super) fn split_offsets(text: &[u8], sep: u8) -> impl Iterator<Item = (usize, &[u8])> {
    let mut start = 0;
    text.split(move |&b| b == sep).map(move |part| {
        let at = start;
        start += part.len() + 1;
        (at, part)
    })
}

/// Checks that `text` has nine parts separated by `sep`; if not, gives the number of parts
/// and the offset the error points at: the `sep` that starts a 10th part, or the end of the
/// text when there are fewer.
fn check_nine(text: &[u8], sep: u8) -> Result<(), (usize, usize)> {
    let parts = text.iter().filter(|&&b| b == sep).count() + 1;
    if parts == 9 {
        return Ok(());
    }
    let offset = if parts > 9 {
        split_offsets(text, sep)
            .nth(9)
            .map_or(text.len(), |(at, _)| at - 1)
    } else {
        text.len()
    };
    Err((parts, offset))
}

pub(super) fn parse_board(text: &[u8], base: usize) -> Result<BoardString, ParseBoardError> {
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
    if let Err((found, offset)) = check_nine(text, b'/') {
        return Err(ParseBoardError::RankCount {
            found,
            offset: base + offset,
        });
    }
    let mut grid: Grid = [None; 81];
    for (i, (rank_at, rank_text)) in split_offsets(text, b'/').enumerate() {
        let rank = 8 - i as u8; // 0-based rank
        if let Err((found, offset)) = check_nine(rank_text, b',') {
            return Err(ParseBoardError::SquareCount {
                rank: rank + 1,
                found,
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

/// Writes a board in the grammar [`parse_grid`] reads, canonically (no whitespace): ranks 9
/// down to 1 separated by `/`, each of nine fields separated by `,`, a field holding what
/// `field` gives for its square (nothing for `None`). The two-player and four-player board
/// strings share it.
pub(crate) fn write_grid<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    field: impl Fn(Square) -> Option<T>,
) -> fmt::Result {
    for rank in (0..9u8).rev() {
        for file in 0..9u8 {
            if let Some(piece) = field(Square::new(file, rank)) {
                fmt::Display::fmt(&piece, f)?;
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

/// The squares in the order a board string lists them: rank 9 to 1, file `a` to `i`.
fn text_order() -> impl Iterator<Item = Square> {
    (0..9u8)
        .rev()
        .flat_map(|rank| (0..9u8).map(move |file| Square::new(file, rank)))
}

/// The board whose pieces `field` gives square by square (`None`: empty; an error: the
/// field's mask is not a piece), checked in text order so that the first bad field is
/// the one reported: the validity stage of both board strings.
pub(crate) fn board_from_fields(
    field: impl Fn(Square) -> Option<Result<Piece, InvalidFlags>>,
) -> Result<Board, NotAPieceError> {
    let mut board = Board::empty();
    for square in text_order() {
        if let Some(piece) = field(square) {
            let piece = piece.map_err(|source| NotAPieceError { square, source })?;
            board.put(square, piece);
        }
    }
    Ok(board)
}
