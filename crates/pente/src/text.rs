//! The position string: a whole position on one line, and the unvalidated [`Setup`].
//!
//! ```text
//! <board> <turn> <white captures> <black captures> <rule>
//! 9/9/9/9/4w4/9/9/9/9 b 0 0 t
//! ```
//!
//! - `<board>`: the rows from the top (row `S`) down to row 1, separated by `/`; in a row,
//!   from column A, `w` a White stone, `b` a Black stone, a number (1 to 19) a run of that
//!   many empty points. The board is square: `S` rows of `S` points, `S` odd from 7 to 19.
//! - `<turn>`: `w` or `b`, the player whose turn it is by the count of moves (also when the
//!   game is over). It must agree with the counts: White has made `white stones + black
//!   captures` moves, Black `black stones + white captures`, and White moves first.
//! - `<white captures>`, `<black captures>`: stones captured by each player, even numbers
//!   from 0 to 24.
//! - `<rule>`: `t` with the tournament rule, `-` without.
//!
//! Reading accepts upper-case letters and any run of spaces or tabs between and around the
//! fields, and nothing else. Writing gives the canonical form: lower case,
//! single spaces, joined runs. A position string says nothing about the order of the moves
//! that led to it; it need not be reachable, but its counts must be consistent, and at most
//! the player who moved last may have won (a five on the board or ten captures).

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::position::Position;
use crate::types::{COLUMNS, Color, Point, Rules, Size};

/// An unvalidated position: anything [`Position::from_setup`] may reject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board size and tournament rule.
    pub rules: Rules,
    /// The stones.
    pub stones: Vec<(Point, Color)>,
    /// Stones captured by White and by Black.
    pub captures: [u8; 2],
    /// The player whose turn it is.
    pub turn: Color,
}

/// Why a [`Setup`] is not a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A stone off the board.
    #[error("stone on {0} is off the board")]
    OffBoard(Point),
    /// Two stones on one point.
    #[error("two stones on {0}")]
    Doubled(Point),
    /// An odd capture count, or more than 24.
    #[error("{0} has captured {1} stones (captures are even, at most 24)")]
    Captures(Color, u8),
    /// The counts of stones and captures do not allow this turn.
    #[error(
        "inconsistent counts: White has made {white} moves and Black {black}, so it cannot be {turn}'s turn"
    )]
    Turn {
        /// Moves White has made (stones on the board plus stones Black captured).
        white: u32,
        /// Moves Black has made.
        black: u32,
        /// The turn given.
        turn: Color,
    },
    /// The player to move has already won.
    #[error("{0}, to move, has already won")]
    MoverWon(Color),
}

impl Position {
    /// Validates a setup.
    ///
    /// # Errors
    /// [`SetupError`]: stones off the board or doubled, odd or excessive captures, counts
    /// that disagree with the turn, or a player to move who has already won.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupError> {
        let size = setup.rules.size;
        let mut seen = vec![false; 19 * 19];
        let mut count = [0u32; 2];
        for &(p, c) in &setup.stones {
            if !size.contains(p) {
                return Err(SetupError::OffBoard(p));
            }
            let k = usize::from(p.code());
            if seen[k] {
                return Err(SetupError::Doubled(p));
            }
            seen[k] = true;
            count[c.index()] += 1;
        }
        for c in Color::ALL {
            let n = setup.captures[c.index()];
            if n % 2 != 0 || n > 24 {
                return Err(SetupError::Captures(c, n));
            }
        }
        let white = count[0] + u32::from(setup.captures[1]);
        let black = count[1] + u32::from(setup.captures[0]);
        let turn_ok = match setup.turn {
            Color::White => white == black,
            Color::Black => white == black + 1,
        };
        if !turn_ok {
            return Err(SetupError::Turn {
                white,
                black,
                turn: setup.turn,
            });
        }
        let plies = u16::try_from(white + black).expect("at most 361 stones and 48 captures");
        let pos = Position::from_parts(setup.rules, &setup.stones, setup.captures, plies);
        let mover = setup.turn;
        if pos.has_five(mover) || setup.captures[mover.index()] >= 10 {
            return Err(SetupError::MoverWon(mover));
        }
        Ok(pos)
    }

    /// The setup of this position.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            rules: self.rules(),
            stones: self.stones_iter().collect(),
            captures: [self.captures(Color::White), self.captures(Color::Black)],
            turn: self.turn(),
        }
    }
}

/// What is wrong with a position string, and where (a byte offset into the input).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParsePositionError {
    /// Not five fields.
    #[error("expected 5 fields (board, turn, white captures, black captures, rule), found {0}")]
    Fields(usize),
    /// A character that has no place in a board.
    #[error("bad character {ch:?} in the board at byte {offset}")]
    BoardChar {
        /// The character.
        ch: char,
        /// Its byte offset.
        offset: usize,
    },
    /// A row of the wrong length.
    #[error("row {row} (from the top) has {len} points, expected {size} (at byte {offset})")]
    RowLength {
        /// The row, counted from the top from 1.
        row: usize,
        /// Points in it.
        len: usize,
        /// Points expected (the number of rows).
        size: usize,
        /// Byte offset of the row.
        offset: usize,
    },
    /// The number of rows is not a board size.
    #[error("{0} rows: the board size must be odd, from 7 to 19")]
    Size(usize),
    /// The turn is not `w` or `b`.
    #[error("bad turn {0:?} (expected w or b) at byte {1}")]
    Turn(String, usize),
    /// A capture count that is not a number.
    #[error("bad capture count {0:?} at byte {1}")]
    Captures(String, usize),
    /// The rule is not `t` or `-`.
    #[error("bad rule {0:?} (expected t or -) at byte {1}")]
    Rule(String, usize),
    /// Well formed, but not a valid position.
    #[error("invalid position: {0}")]
    Invalid(#[from] SetupError),
}

impl ParsePositionError {
    /// The byte offset the error points at (0 when it concerns the whole text).
    #[must_use]
    pub fn offset(&self) -> usize {
        match self {
            ParsePositionError::BoardChar { offset, .. }
            | ParsePositionError::RowLength { offset, .. }
            | ParsePositionError::Turn(_, offset)
            | ParsePositionError::Captures(_, offset)
            | ParsePositionError::Rule(_, offset) => *offset,
            _ => 0,
        }
    }
}

/// Splits on runs of spaces and tabs, keeping each field's byte offset.
fn fields(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in s.bytes().enumerate() {
        let blank = b == b' ' || b == b'\t';
        match (blank, start) {
            (true, Some(st)) => {
                out.push((st, &s[st..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

/// Reads a board field: the rows from the top, each a list of `Some(colour)`/`None`.
fn parse_board(text: &str, base: usize) -> Result<(Size, Vec<(Point, Color)>), ParsePositionError> {
    let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
    let mut offsets = Vec::new();
    let mut row = Vec::new();
    let mut row_start = base;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'/' => {
                rows.push(core::mem::take(&mut row));
                offsets.push(row_start);
                row_start = base + i + 1;
                i += 1;
            }
            b'w' | b'W' => {
                row.push(Some(Color::White));
                i += 1;
            }
            b'b' | b'B' => {
                row.push(Some(Color::Black));
                i += 1;
            }
            b'1'..=b'9' => {
                let mut n = 0usize;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    n = n * 10 + usize::from(bytes[i] - b'0');
                    if n > 19 {
                        return Err(ParsePositionError::BoardChar {
                            ch: bytes[i] as char,
                            offset: base + i,
                        });
                    }
                    i += 1;
                }
                row.extend(core::iter::repeat_n(None, n));
                if row.len() > 19 {
                    return Err(ParsePositionError::RowLength {
                        row: rows.len() + 1,
                        len: row.len(),
                        size: 19,
                        offset: row_start,
                    });
                }
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(ParsePositionError::BoardChar {
                    ch,
                    offset: base + i,
                });
            }
        }
        if rows.len() > 19 || row.len() > 19 {
            return Err(ParsePositionError::Size(rows.len() + 1));
        }
    }
    rows.push(row);
    offsets.push(row_start);
    let n = rows.len();
    let size = Size::new(n as u32).map_err(|_| ParsePositionError::Size(n))?;
    let mut stones = Vec::new();
    for (r, (cells, &offset)) in rows.iter().zip(&offsets).enumerate() {
        if cells.len() != n {
            return Err(ParsePositionError::RowLength {
                row: r + 1,
                len: cells.len(),
                size: n,
                offset,
            });
        }
        let row = (n - 1 - r) as u8;
        for (col, c) in cells.iter().enumerate() {
            if let Some(c) = c {
                stones.push((Point::new(col as u8, row).expect("within 19"), *c));
            }
        }
    }
    Ok((size, stones))
}

fn parse_count(text: &str, offset: usize) -> Result<u8, ParsePositionError> {
    let bad = || ParsePositionError::Captures(text.chars().take(8).collect(), offset);
    if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse().map_err(|_| bad())
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Reads a position string (see the [module docs](crate::text)).
    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let f = fields(s);
        if f.len() != 5 {
            return Err(ParsePositionError::Fields(f.len()));
        }
        let (size, stones) = parse_board(f[0].1, f[0].0)?;
        let turn = match f[1].1 {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => {
                return Err(ParsePositionError::Turn(
                    other.chars().take(8).collect(),
                    f[1].0,
                ));
            }
        };
        let white = parse_count(f[2].1, f[2].0)?;
        let black = parse_count(f[3].1, f[3].0)?;
        let tournament_rule = match f[4].1 {
            "t" | "T" => true,
            "-" => false,
            other => {
                return Err(ParsePositionError::Rule(
                    other.chars().take(8).collect(),
                    f[4].0,
                ));
            }
        };
        let setup = Setup {
            rules: Rules {
                size,
                tournament_rule,
            },
            stones,
            captures: [white, black],
            turn,
        };
        Ok(Position::from_setup(&setup)?)
    }
}

impl fmt::Display for Position {
    /// The canonical position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size().get();
        for r in (0..n).rev() {
            let mut empty = 0;
            for c in 0..n {
                let p = Point::new(c, r).expect("within 19");
                match self.stone_at(p) {
                    None => empty += 1,
                    Some(color) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", color.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} {} {} {}",
            self.turn().letter(),
            self.captures(Color::White),
            self.captures(Color::Black),
            if self.rules().tournament_rule {
                "t"
            } else {
                "-"
            }
        )
    }
}

/// The column letters as a string slice (for docs and boards).
#[must_use]
pub fn column_letters(size: Size) -> &'static str {
    let all = core::str::from_utf8(COLUMNS).expect("ASCII");
    &all[..usize::from(size.get())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Move;

    #[test]
    fn start_and_after_a_move() {
        let pos = Position::new(Rules::new(Size::S9));
        assert_eq!(pos.to_string(), "9/9/9/9/9/9/9/9/9 w 0 0 t");
        let mut pos2 = pos.clone();
        pos2.play("E5".parse::<Move>().unwrap()).unwrap();
        let text = pos2.to_string();
        assert_eq!(text, "9/9/9/9/4w4/9/9/9/9 b 0 0 t");
        let back: Position = text.parse().unwrap();
        assert_eq!(back, pos2);
        let loose: Position = "9/9/9/9/4W4/9/9/9/9\t b  0 0 T".parse().unwrap();
        assert_eq!(loose, pos2);
    }

    #[test]
    fn rejects() {
        let cases = [
            "9/9/9/9/9/9/9/9/9 w 0 0",
            "9/9/9/9/9/9/9/9/9 w 0 0 x",
            "9/9/9/9/9/9/9/9/9 b 0 0 t",
            "9/9/9/9/9/9/9/9/8 w 0 0 t",
            "8/8/8/8/8/8/8/8 w 0 0 t",
            "9/9/9/9/9/9/9/9/9 w 1 0 t",
            "9/9/9/9/9/9/9/9/9 w 26 0 t",
            "9/9/9/9/9/9/9/9/9 w x 0 t",
            "9/9/9/9/4x4/9/9/9/9 w 0 0 t",
            "9/9/9/9/4w4/9/9/9/9 w 0 0 t",
            "wwwww4/9/9/9/9/9/bbbb5/9/9 w 0 0 t",
            "wwwww4/9/9/9/9/9/bbbbb4/9/9 w 0 0 t",
        ];
        for c in cases {
            assert!(c.parse::<Position>().is_err(), "{c}");
        }
        // White just made five: fine, the game is over.
        let over: Position = "wwwww4/9/9/9/9/9/bbbb5/9/9 b 0 0 t".parse().unwrap();
        assert!(over.is_over());
        assert!(over.legal_moves().is_empty());
    }
}
