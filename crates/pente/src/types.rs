//! The small value types: colours, board sizes, points, moves and rule options.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

/// A player's colour. White moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The first player (the filled stones on the text board).
    White = 0,
    /// The second player (the hollow stones).
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"white"` or `"black"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// `'w'` or `'b'` (the letter of position strings).
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    /// `white` or `black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A colour that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("not a colour (expected white, black, w or b)")]
pub struct ParseColorError;

impl FromStr for Color {
    type Err = ParseColorError;

    /// `white`, `black`, `w` or `b`, in any case.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError),
        }
    }
}

/// The side of a square board in intersections: odd, from 7 to 19.
///
/// ```
/// use pente::Size;
/// assert_eq!(Size::new(13).unwrap().get(), 13);
/// assert!(Size::new(12).is_err());
/// assert_eq!(Size::default(), Size::S19);
/// assert_eq!("9".parse::<Size>().unwrap().centre().to_string(), "E5");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Size(u8);

/// A board size outside the rule book's range.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SizeError {
    /// Not a number.
    #[error("board size is not a number")]
    NotANumber,
    /// A number, but not odd or not within 7..=19.
    #[error("board size {0} is not an odd number from 7 to 19")]
    OutOfRange(u32),
}

impl Size {
    /// The smallest board, 7x7.
    pub const MIN: Size = Size(7);
    /// The largest board and the default, 19x19.
    pub const MAX: Size = Size(19);
    /// 7x7.
    pub const S7: Size = Size(7);
    /// 9x9.
    pub const S9: Size = Size(9);
    /// 11x11.
    pub const S11: Size = Size(11);
    /// 13x13.
    pub const S13: Size = Size(13);
    /// 15x15.
    pub const S15: Size = Size(15);
    /// 17x17.
    pub const S17: Size = Size(17);
    /// 19x19.
    pub const S19: Size = Size(19);
    /// Every size, smallest first.
    pub const ALL: [Size; 7] = [
        Size::S7,
        Size::S9,
        Size::S11,
        Size::S13,
        Size::S15,
        Size::S17,
        Size::S19,
    ];

    /// The size `n`.
    ///
    /// # Errors
    /// [`SizeError::OutOfRange`] unless `n` is odd and within 7..=19.
    pub const fn new(n: u32) -> Result<Size, SizeError> {
        if n >= 7 && n <= 19 && n % 2 == 1 {
            Ok(Size(n as u8))
        } else {
            Err(SizeError::OutOfRange(n))
        }
    }

    /// The side length.
    #[inline]
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number of intersections.
    #[inline]
    #[must_use]
    pub const fn points(self) -> usize {
        self.0 as usize * self.0 as usize
    }

    /// The centre point (K10 on 19x19).
    #[must_use]
    pub const fn centre(self) -> Point {
        Point {
            col: self.0 / 2,
            row: self.0 / 2,
        }
    }

    /// Whether `p` lies on a board of this size.
    #[inline]
    #[must_use]
    pub const fn contains(self, p: Point) -> bool {
        p.col < self.0 && p.row < self.0
    }

    /// Every point of the board, row by row from row 1, columns from A.
    pub fn points_iter(self) -> impl Iterator<Item = Point> {
        let n = self.0;
        (0..n).flat_map(move |row| (0..n).map(move |col| Point { col, row }))
    }
}

impl Default for Size {
    fn default() -> Size {
        Size::S19
    }
}

impl fmt::Display for Size {
    /// The side length, `19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// A decimal number (`19`; `19x19` is also accepted).
    fn from_str(s: &str) -> Result<Size, SizeError> {
        let s = s.trim();
        let s = match s.split_once(['x', 'X']) {
            Some((a, b)) if a == b => a,
            Some(_) => return Err(SizeError::NotANumber),
            None => s,
        };
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SizeError::NotANumber);
        }
        let n: u32 = s.parse().map_err(|_| SizeError::NotANumber)?;
        Size::new(n)
    }
}

/// The column letters, `A` to `T` without `I`.
pub const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// An intersection, by column and row (both from 0: `A1` is column 0, row 0; rows count
/// from the bottom). A point is context-free: whether it lies on a board depends on the
/// board's [`Size`].
///
/// Text: the column letter (`A` to `T`, skipping `I`) and the row number (`1` to `19`), as
/// on pente.org: `K10` is the centre of the 19x19 board. Reading accepts either case and
/// nothing else (no spaces, no leading zeros); writing gives upper case.
///
/// ```
/// use pente::Point;
/// let p: Point = "k10".parse().unwrap();
/// assert_eq!((p.col(), p.row()), (9, 9));
/// assert_eq!(p.to_string(), "K10");
/// assert!("I5".parse::<Point>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Point {
    // Declared row first so that the derived order is row by row, then column.
    row: u8,
    col: u8,
}

/// A point that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParsePointError {
    /// Nothing to read.
    #[error("empty point")]
    Empty,
    /// The first character is not a column letter (`A`..`T` without `I`).
    #[error("bad column {0:?} (columns are A to T without I)")]
    Column(char),
    /// The row is missing, not a number, or outside 1..=19.
    #[error("bad row in {0:?} (rows are 1 to 19)")]
    Row(String),
}

impl Point {
    /// The point at column `col` and row `row` (both from 0), if both are below 19.
    #[must_use]
    pub const fn new(col: u8, row: u8) -> Option<Point> {
        if col < 19 && row < 19 {
            Some(Point { col, row })
        } else {
            None
        }
    }

    /// The column, from 0 (`A`).
    #[inline]
    #[must_use]
    pub const fn col(self) -> u8 {
        self.col
    }

    /// The row, from 0 (row `1`, the bottom).
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The column letter.
    #[must_use]
    pub const fn col_letter(self) -> char {
        COLUMNS[self.col as usize] as char
    }

    /// The Chebyshev distance (king steps) to `other`.
    #[must_use]
    pub const fn distance(self, other: Point) -> u8 {
        let dc = self.col.abs_diff(other.col);
        let dr = self.row.abs_diff(other.row);
        if dc > dr { dc } else { dr }
    }

    /// A compact code, `row * 19 + col`, below 361.
    #[inline]
    #[must_use]
    pub const fn code(self) -> u16 {
        self.row as u16 * 19 + self.col as u16
    }

    /// The point of a code from [`Point::code`].
    #[must_use]
    pub const fn from_code(code: u16) -> Option<Point> {
        if code < 361 {
            Some(Point {
                col: (code % 19) as u8,
                row: (code / 19) as u8,
            })
        } else {
            None
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.col_letter(), self.row + 1)
    }
}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let mut chars = s.chars();
        let c = chars.next().ok_or(ParsePointError::Empty)?;
        let upper = c.to_ascii_uppercase();
        let col = COLUMNS
            .iter()
            .position(|&l| l as char == upper)
            .ok_or(ParsePointError::Column(c))?;
        let rest = chars.as_str();
        let bad_row = || ParsePointError::Row(s.chars().take(8).collect());
        if rest.is_empty()
            || rest.len() > 2
            || !rest.bytes().all(|b| b.is_ascii_digit())
            || rest.starts_with('0')
        {
            return Err(bad_row());
        }
        let row: u8 = rest.parse().map_err(|_| bad_row())?;
        if !(1..=19).contains(&row) {
            return Err(bad_row());
        }
        Ok(Point {
            col: col as u8,
            row: row - 1,
        })
    }
}

/// A move: a stone placed on a point (there is no pass in Pente). Text as [`Point`]
/// (`K10`).
///
/// ```
/// use pente::{Move, Point};
/// let m: Move = "K10".parse().unwrap();
/// assert_eq!(m.point(), "K10".parse::<Point>().unwrap());
/// assert_eq!(m.to_string(), "K10");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Move(pub Point);

const _: () = assert!(core::mem::size_of::<Move>() == 2);

impl Move {
    /// The point the stone goes on.
    #[inline]
    #[must_use]
    pub const fn point(self) -> Point {
        self.0
    }
}

impl From<Point> for Move {
    fn from(p: Point) -> Move {
        Move(p)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Move {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Move, ParsePointError> {
        s.parse().map(Move)
    }
}

/// The rule options of a game: the board size and the tournament rule.
///
/// ```
/// use pente::{Rules, Size};
/// let r = Rules::default();
/// assert_eq!(r.size, Size::S19);
/// assert!(r.tournament_rule);
/// assert!(!Rules::new(Size::S9).without_tournament_rule().tournament_rule);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rules {
    /// The board size.
    pub size: Size,
    /// White's second stone must lie outside the middle 5x5 (at least three intersections
    /// from the centre).
    pub tournament_rule: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            size: Size::S19,
            tournament_rule: true,
        }
    }
}

impl Rules {
    /// The rules on a board of `size`, with the tournament rule.
    #[must_use]
    pub const fn new(size: Size) -> Rules {
        Rules {
            size,
            tournament_rule: true,
        }
    }

    /// The same rules without the tournament rule.
    #[must_use]
    pub const fn without_tournament_rule(self) -> Rules {
        Rules {
            size: self.size,
            tournament_rule: false,
        }
    }

    /// The same rules with the tournament rule on or off.
    #[must_use]
    pub const fn with_tournament_rule(self, on: bool) -> Rules {
        Rules {
            size: self.size,
            tournament_rule: on,
        }
    }
}

/// Why a game was won.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WinReason {
    /// Five or more stones in an unbroken line.
    Five,
    /// Ten or more stones captured.
    Captures,
    /// Both at once, by the same move.
    FiveAndCaptures,
}

impl WinReason {
    /// Whether the win includes a line of five or more.
    #[must_use]
    pub const fn has_five(self) -> bool {
        matches!(self, WinReason::Five | WinReason::FiveAndCaptures)
    }

    /// Whether the win includes ten or more captured stones.
    #[must_use]
    pub const fn has_captures(self) -> bool {
        matches!(self, WinReason::Captures | WinReason::FiveAndCaptures)
    }

    /// `"five"`, `"captures"` or `"five and captures"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            WinReason::Five => "five",
            WinReason::Captures => "captures",
            WinReason::FiveAndCaptures => "five and captures",
        }
    }
}

impl fmt::Display for WinReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// A player won.
    Win {
        /// The winner (always the player who made the last move).
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// The board is full and nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// `"white"`, `"black"` or `"draw"` (as `ploy pente moves` writes it).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Win { winner, .. } => winner.name(),
            Outcome::Draw => "draw",
        }
    }

    /// The result token of game records: `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub const fn result_token(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// `white wins (five)`, `black wins (captures)`, `draw (full board)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins ({reason})"),
            Outcome::Draw => f.write_str("draw (full board)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_point_round_trips() {
        for col in 0..19 {
            for row in 0..19 {
                let p = Point::new(col, row).unwrap();
                let text = p.to_string();
                assert_eq!(text.parse::<Point>().unwrap(), p);
                assert_eq!(text.to_lowercase().parse::<Point>().unwrap(), p);
                assert_eq!(Point::from_code(p.code()), Some(p));
            }
        }
    }

    #[test]
    fn bad_points() {
        for bad in [
            "", "I5", "i5", "U1", "K0", "K20", "K01", "K", "10", "K10 ", " K10", "K1x", "K+1",
        ] {
            assert!(bad.parse::<Point>().is_err(), "{bad:?}");
        }
        assert_eq!("Z3".parse::<Point>(), Err(ParsePointError::Column('Z')));
    }

    #[test]
    fn centres() {
        assert_eq!(Size::S19.centre().to_string(), "K10");
        assert_eq!(Size::S13.centre().to_string(), "G7");
        assert_eq!(Size::S9.centre().to_string(), "E5");
        assert_eq!(Size::S7.centre().to_string(), "D4");
    }

    #[test]
    fn sizes() {
        for n in 0..40 {
            assert_eq!(Size::new(n).is_ok(), (7..=19).contains(&n) && n % 2 == 1);
        }
        assert_eq!("13x13".parse::<Size>(), Ok(Size::S13));
        assert!("13x11".parse::<Size>().is_err());
        assert_eq!("8".parse::<Size>(), Err(SizeError::OutOfRange(8)));
    }
}
