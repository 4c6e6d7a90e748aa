//! A text picture of a board for terminals: every square a cell of 5 x 3 characters, the
//! piece's colour letter in the middle and its flags drawn around it, the last move marked,
//! optionally in ANSI colours, from any side of the table.
//!
//! The programs that show a board to people (`ploy play`, the server's text view) share it;
//! it writes pictures, not a notation, so nothing reads it back.

use core::fmt::Write as _;

use ploy_core::{Move, Piece, PieceKind, Position, Seat, Square};

use crate::seat_letter;

/// The board picture: one 5 x 3 character cell per square, the piece's colour letter in
/// the middle (capital for a commander) and its flags around it (`|`, `-`, `/`, `\\`) in the
/// directions they point. The last move's squares are marked: `:` `:` on the start square,
/// `[` `]` on the end square, `*` `*` when it captured. Green's side is at the bottom; see
/// [`board_picture_turned`] for the other sides. With `colour`, the pieces are drawn in
/// their seat's ANSI colour (commanders bold) and the last move's squares on a grey (red
/// for a capture) background.
///
/// ```
/// use ploy_core::{Move, Position, Square};
/// use ploy_notation::board_picture;
///
/// let mut pos = Position::new();
/// let mv = Move::new(Square::E3, Square::E4, 0);
/// pos.play(mv)?;
/// let picture = board_picture(&pos, Some((mv, false)), false);
/// let lines: Vec<&str> = picture.lines().collect();
/// assert_eq!(lines.len(), 9 * 3 + 1); // three lines a rank, then the files
/// assert_eq!(lines[27], "     a    b    c    d    e    f    g    h    i  ");
/// // The green commander on e1: its capital letter, its diagonal flags around it.
/// assert!(lines[24].contains("\\ /") && lines[26].contains("/ \\"));
/// assert!(lines[25].starts_with(" 1 ") && lines[25].contains(" G "));
/// // The shield that moved: `:` `:` around e3, `[` `]` around e4.
/// assert!(lines[19].contains(": . :") && lines[16].contains("[ g ]"));
/// # Ok::<(), ploy_core::IllegalMove>(())
/// ```
#[must_use]
pub fn board_picture(pos: &Position, last: Option<(Move, bool)>, colour: bool) -> String {
    board_picture_turned(pos, last, colour, 0)
}

/// [`board_picture`] turned `quarter_turns` quarter turns counterclockwise (1: the top left
/// corner comes to the bottom left; 2: the board is seen from the other side; 3: the bottom
/// right corner comes to the bottom left). The flags turn with the board, and the ranks
/// and files are written along the sides where they now are.
#[must_use]
pub fn board_picture_turned(
    pos: &Position,
    last: Option<(Move, bool)>,
    colour: bool,
    quarter_turns: u8,
) -> String {
    let k = quarter_turns % 4;
    // The square shown in picture row `r` (0 at the top) and column `c` (0 at the left).
    let square_at = |r: u8, c: u8| match k {
        0 => Square::new(c, 8 - r),
        1 => Square::new(8 - r, 8 - c),
        2 => Square::new(8 - c, r),
        _ => Square::new(r, c),
    };
    // The label of a picture row and of a picture column.
    let file = |f: u8| (b'a' + f) as char;
    let rank = |r: u8| (b'1' + r) as char;
    let row_label = |r: u8| match k {
        0 => rank(8 - r),
        1 => file(8 - r),
        2 => rank(r),
        _ => file(r),
    };
    let col_label = |c: u8| match k {
        0 => file(c),
        1 => rank(8 - c),
        2 => file(8 - c),
        _ => rank(c),
    };
    let board = pos.board();
    let mut out = String::new();
    for r in 0..9u8 {
        for row in 0..3 {
            if row == 1 {
                let _ = write!(out, " {} ", row_label(r));
            } else {
                out.push_str("   ");
            }
            for c in 0..9u8 {
                let sq = square_at(r, c);
                let piece = board.piece_at(sq);
                let (left, right) = match last {
                    Some((mv, captured)) if mv.to() == sq && row == 1 => {
                        if captured {
                            ('*', '*')
                        } else {
                            ('[', ']')
                        }
                    }
                    Some((mv, _)) if mv.from() == sq && row == 1 => (':', ':'),
                    _ => (' ', ' '),
                };
                let cells = cell(piece, row, k);
                if colour {
                    let fg = piece.map_or("", |p| seat_colour(p.colour()));
                    let bg = match last {
                        Some((mv, true)) if mv.to() == sq => "\x1b[41m",
                        Some((mv, _)) if mv.to() == sq || mv.from() == sq => "\x1b[100m",
                        _ => "",
                    };
                    let bold = piece.is_some_and(|p| p.kind() == PieceKind::Commander);
                    let bold = if bold { "\x1b[1m" } else { "" };
                    if bg.is_empty() && fg.is_empty() {
                        let _ = write!(out, "{left}{cells}{right}");
                    } else {
                        let _ = write!(out, "{bg}{left}{fg}{bold}{cells}{right}\x1b[0m");
                    }
                } else {
                    out.push(left);
                    out.push_str(&cells);
                    out.push(right);
                }
            }
            out.push('\n');
        }
    }
    out.push_str("   ");
    for c in 0..9u8 {
        let _ = write!(out, "  {}  ", col_label(c));
    }
    out.push('\n');
    out
}

fn seat_colour(seat: Seat) -> &'static str {
    match seat {
        Seat::Green => "\x1b[32m",
        Seat::Red => "\x1b[31m",
        Seat::Yellow => "\x1b[33m",
        Seat::Blue => "\x1b[34m",
    }
}

/// Row `row` (0 top, 2 bottom) of a square's 3-character picture, in a picture turned
/// `k` quarter turns counterclockwise.
fn cell(piece: Option<Piece>, row: usize, k: u8) -> String {
    let Some(p) = piece else {
        return if row == 1 { " . ".into() } else { "   ".into() };
    };
    // Turning the picture counterclockwise turns every flag 2 eighths counterclockwise.
    let f = p.flags().bits().rotate_right(u32::from(2 * k));
    let has = |bit: u8, c: char| if f & (1 << bit) != 0 { c } else { ' ' };
    let letter = if p.kind() == PieceKind::Commander {
        seat_letter(p.colour()).to_ascii_uppercase()
    } else {
        seat_letter(p.colour())
    };
    // Directions: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW.
    let chars = match row {
        0 => [has(7, '\\'), has(0, '|'), has(1, '/')],
        1 => [has(6, '-'), letter, has(2, '-')],
        _ => [has(5, '/'), has(4, '|'), has(3, '\\')],
    };
    chars.iter().collect()
}

#[cfg(test)]
mod tests {
    use super::{board_picture, board_picture_turned};
    use ploy_core::Position;

    #[test]
    fn four_quarter_turns_are_none() {
        let pos = Position::new();
        let plain = board_picture(&pos, None, false);
        assert_eq!(board_picture_turned(&pos, None, false, 4), plain);
        assert_ne!(board_picture_turned(&pos, None, false, 1), plain);
    }

    #[test]
    fn turned_round_the_red_commander_is_at_the_bottom() {
        let text = board_picture_turned(&Position::new(), None, false, 2);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[25].starts_with(" 9 ") && lines[25].contains(" R "),
            "{text}"
        );
        assert!(lines[27].contains("i    h    g"), "{text}");
        assert!(lines[24].contains("\\ /"), "{text}");
    }

    #[test]
    fn colours_only_when_asked() {
        let pos = Position::new();
        assert!(!board_picture(&pos, None, false).contains('\x1b'));
        assert!(board_picture(&pos, None, true).contains("\x1b[32m"));
    }
}
