//! The text board: Unicode box-drawing lines, White's stones filled (`●`), Black's hollow
//! (`○`), as the 2018 program drew them.

use crate::position::Position;
use crate::types::{COLUMNS, Color, Point};

/// The board of `pos` as text: column letters above and below, row numbers on both sides,
/// row `S` at the top. With `flip` the board is turned half a turn (row 1 at the top,
/// the last column at the left), as seen from the other side of the table; the labels turn
/// with it.
///
/// ```
/// use pente::{Position, Rules, Size, display::board};
/// let pos = Position::from_moves(Rules::new(Size::S7), &["D4".parse()?, "E5".parse()?])
///     .map_err(|(_, e)| e)?;
/// let text = board(&pos, false);
/// assert_eq!(text.lines().nth(3).unwrap(), " 5 ├─┼─┼─┼─○─┼─┤ 5");
/// assert_eq!(text.lines().nth(4).unwrap(), " 4 ├─┼─┼─●─┼─┼─┤ 4");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn board(pos: &Position, flip: bool) -> String {
    let n = pos.size().get();
    let order = |i: u8| if flip { i } else { n - 1 - i };
    let col_order = |i: u8| if flip { n - 1 - i } else { i };
    let mut out = String::new();
    let letters = |out: &mut String| {
        out.push_str("   ");
        for i in 0..n {
            out.push(COLUMNS[usize::from(col_order(i))] as char);
            if i + 1 < n {
                out.push(' ');
            }
        }
        out.push('\n');
    };
    letters(&mut out);
    for i in 0..n {
        let row = order(i);
        out.push_str(&format!("{:>2} ", row + 1));
        for j in 0..n {
            let col = col_order(j);
            let p = Point::new(col, row).expect("on the board");
            let (top, bottom) = (i == 0, i + 1 == n);
            let (left, right) = (j == 0, j + 1 == n);
            let glyph = match pos.stone_at(p) {
                Some(Color::White) => '●',
                Some(Color::Black) => '○',
                None => match (top, bottom, left, right) {
                    (true, _, true, _) => '┌',
                    (true, _, _, true) => '┐',
                    (_, true, true, _) => '└',
                    (_, true, _, true) => '┘',
                    (true, _, _, _) => '┬',
                    (_, true, _, _) => '┴',
                    (_, _, true, _) => '├',
                    (_, _, _, true) => '┤',
                    _ => '┼',
                },
            };
            out.push(glyph);
            if !right {
                out.push('─');
            }
        }
        out.push_str(&format!(" {}\n", row + 1));
    }
    letters(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Move, Rules, Size};

    #[test]
    fn empty_and_flipped() {
        let mut pos = Position::new(Rules::new(Size::S7));
        let text = board(&pos, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   A B C D E F G");
        assert_eq!(lines[1], " 7 ┌─┬─┬─┬─┬─┬─┐ 7");
        assert_eq!(lines[7], " 1 └─┴─┴─┴─┴─┴─┘ 1");
        pos.play(Move("D4".parse().unwrap())).unwrap();
        pos.play(Move("B2".parse().unwrap())).unwrap();
        let flipped = board(&pos, true);
        let lines: Vec<&str> = flipped.lines().collect();
        assert_eq!(lines[0], "   G F E D C B A");
        assert_eq!(lines[1], " 1 ┌─┬─┬─┬─┬─┬─┐ 1");
        assert_eq!(lines[2], " 2 ├─┼─┼─┼─┼─○─┤ 2");
        assert_eq!(lines[4], " 4 ├─┼─┼─●─┼─┼─┤ 4");
    }
}
