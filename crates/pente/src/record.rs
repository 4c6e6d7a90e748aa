//! Game records: pente.org-style coordinates under PGN-like headers.
//!
//! ```text
//! [Game "Pente"]
//! [Size "19"]
//! [Rules "tournament"]
//! [White "Ann"]
//! [Black "Bob"]
//! [Result "1-0"]
//!
//! 1. K10 L9 2. N13 M10 3. ... 1-0
//! ```
//!
//! - **Headers**, one per line: `[Name "value"]`, the name letters, digits and `_`, the value
//!   with `\"` and `\\` escapes. Known headers: `Game` (must be `Pente`, any case), `Size`
//!   (odd, 7 to 19; default 19), `Rules` (`tournament` or `no-tournament`; default
//!   `tournament`), `White` and `Black` (the players), `Result`. Any other header is kept
//!   and written back in its place. A known header may appear only once.
//! - **Moves**: the points in the order played (White first), as `K10`, with optional
//!   move numbers (`1.`, `12...`, also glued to the move: `1.K10`) that are not checked,
//!   and comments in braces `{...}` that are skipped. The text may end with a result
//!   token.
//! - **Result**: `1-0` (White won), `0-1` (Black won), `1/2-1/2` (draw) or `*` (not
//!   finished), in the header, at the end of the moves, or both (then they must agree).
//!   When the moves end the game, the result must be that game's; a game the moves leave
//!   unfinished may carry any result (a resignation, an agreed draw, a time loss).
//!
//! Reading replays every move and reports the first problem with its line and column.
//! Writing gives the known headers in the order above, then the others, a blank line and
//! the moves, ten moves (five numbered pairs) a line, ending with the result token. Header
//! values are written with their quotes and backslashes escaped and control characters
//! (line breaks) as spaces; extra tags whose names could not be read back (not letters,
//! digits and `_`, or a known header's name) are left out.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::game::Game;
use crate::position::IllegalMoveError;
use crate::types::{Color, Move, Outcome, ParsePointError, Rules, Size};

/// The result of a recorded game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum GameResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Black won (`0-1`).
    BlackWins,
    /// A draw (`1/2-1/2`).
    Draw,
    /// Not finished, or unknown (`*`).
    #[default]
    Unfinished,
}

impl GameResult {
    /// The token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub const fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// The result of a finished game.
    #[must_use]
    pub const fn of(outcome: Option<Outcome>) -> GameResult {
        match outcome {
            Some(Outcome::Win {
                winner: Color::White,
                ..
            }) => GameResult::WhiteWins,
            Some(Outcome::Win {
                winner: Color::Black,
                ..
            }) => GameResult::BlackWins,
            Some(Outcome::Draw) => GameResult::Draw,
            None => GameResult::Unfinished,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

impl FromStr for GameResult {
    type Err = RecordErrorKind;

    fn from_str(s: &str) -> Result<GameResult, RecordErrorKind> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unfinished),
            _ => Err(RecordErrorKind::BadResult(excerpt(s))),
        }
    }
}

/// A game record: rules, players, result, moves and any other headers.
///
/// ```
/// use pente::{Game, GameResult, Record, Rules, Size};
/// let game = Game::from_moves(Rules::new(Size::S9), &["E5".parse()?, "F6".parse()?])
///     .map_err(|(_, e)| e)?;
/// let record = Record::from_game(&game, "Ann", "Bob");
/// let text = record.to_string();
/// assert!(text.starts_with("[Game \"Pente\"]\n[Size \"9\"]\n"));
/// let back: Record = text.parse()?;
/// assert_eq!(back, record);
/// assert_eq!(back.replay().position(), game.position());
/// assert_eq!(back.result, GameResult::Unfinished);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record {
    /// Board size and tournament rule.
    pub rules: Rules,
    /// The White player, if known.
    pub white: Option<String>,
    /// The Black player, if known.
    pub black: Option<String>,
    /// The result.
    pub result: GameResult,
    /// Other headers, in order.
    pub tags: Vec<(String, String)>,
    /// The moves from the empty board.
    pub moves: Vec<Move>,
}

/// What is wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    /// A header line that is not `[Name "value"]`.
    #[error("malformed header {0:?}")]
    BadHeader(String),
    /// A known header given twice.
    #[error("header {0} given twice")]
    DuplicateHeader(String),
    /// `Game` is not `Pente`.
    #[error("not a Pente record (Game is {0:?})")]
    NotPente(String),
    /// A bad `Size`.
    #[error("bad size {0:?} (odd, 7 to 19)")]
    BadSize(String),
    /// A bad `Rules`.
    #[error("bad rules {0:?} (tournament or no-tournament)")]
    BadRules(String),
    /// A bad result token.
    #[error("bad result {0:?} (1-0, 0-1, 1/2-1/2 or *)")]
    BadResult(String),
    /// The header and the final token disagree.
    #[error("the result header says {header} but the moves end with {token}")]
    ResultMismatch {
        /// The header's result.
        header: GameResult,
        /// The token's.
        token: GameResult,
    },
    /// A token that is not a move.
    #[error("bad move {text:?}: {error}")]
    BadMove {
        /// The token.
        text: String,
        /// Why.
        error: ParsePointError,
    },
    /// An illegal move (its index from 0).
    #[error("move {} is illegal: {error}", index + 1)]
    Illegal {
        /// Index of the move.
        index: usize,
        /// Why.
        error: IllegalMoveError,
    },
    /// The moves end the game with one result and the record says another.
    #[error("the moves end the game as {actual} but the record says {recorded}")]
    WrongResult {
        /// The game's result.
        actual: GameResult,
        /// The recorded one.
        recorded: GameResult,
    },
    /// Text after the result token.
    #[error("text after the result")]
    TrailingText,
    /// A comment without its closing brace.
    #[error("unclosed comment")]
    UnclosedComment,
}

/// A record that could not be read: what and where (line and column from 1).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct RecordError {
    /// Line, from 1.
    pub line: usize,
    /// Column (characters), from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

fn excerpt(s: &str) -> String {
    ploy_search::Excerpt::new(24).with_ellipsis("…").of(s)
}

/// Reads `[Name "value"]`.
fn parse_header(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return None;
    }
    let rest = rest.trim_start();
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                c @ ('"' | '\\') => value.push(c),
                _ => return None,
            },
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_owned(), value))
}

/// A header value as written: quotes and backslashes escaped, control characters (line
/// breaks) turned into spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Whether a name can be written as a header that reads back as an extra tag.
fn writable_tag(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !["Game", "Size", "Rules", "White", "Black", "Result"]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(name))
}

/// Positions of the characters of a text, for error locations.
struct Cursor<'a> {
    text: &'a str,
}

impl Cursor<'_> {
    fn locate(&self, byte: usize) -> (usize, usize) {
        let before = &self.text[..byte.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[start..].chars().count() + 1;
        (line, column)
    }
}

impl Record {
    /// The record of `game` with the players' names (empty names are left out).
    #[must_use]
    pub fn from_game(game: &Game, white: &str, black: &str) -> Record {
        let name = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        Record {
            rules: game.rules(),
            white: name(white),
            black: name(black),
            result: GameResult::of(game.outcome()),
            tags: Vec::new(),
            moves: game.moves().to_vec(),
        }
    }

    /// Replays the moves. A record read by [`Record::from_str`] always replays; one built
    /// by hand with illegal moves stops at the first of them.
    #[must_use]
    pub fn replay(&self) -> Game {
        let mut game = Game::new(self.rules);
        for &mv in &self.moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }

    /// Checks the moves and the result against the rules.
    ///
    /// # Errors
    /// [`RecordErrorKind::Illegal`] for the first illegal move,
    /// [`RecordErrorKind::WrongResult`] when the moves end the game with another result.
    pub fn validate(&self) -> Result<Game, RecordErrorKind> {
        let game = Game::from_moves(self.rules, &self.moves)
            .map_err(|(index, error)| RecordErrorKind::Illegal { index, error })?;
        if let Some(o) = game.outcome() {
            let actual = GameResult::of(Some(o));
            if self.result != actual {
                return Err(RecordErrorKind::WrongResult {
                    actual,
                    recorded: self.result,
                });
            }
        }
        Ok(game)
    }
}

impl FromStr for Record {
    type Err = RecordError;

    /// Reads and replays a record (see the [module docs](crate::record)).
    fn from_str(text: &str) -> Result<Record, RecordError> {
        let cur = Cursor { text };
        let err = |byte: usize, kind: RecordErrorKind| {
            let (line, column) = cur.locate(byte);
            RecordError { line, column, kind }
        };
        let mut record = Record {
            rules: Rules::default(),
            white: None,
            black: None,
            result: GameResult::Unfinished,
            tags: Vec::new(),
            moves: Vec::new(),
        };
        let mut seen: Vec<&'static str> = Vec::new();
        let mut header_result = None;
        // Headers: lines starting with '[' before the moves.
        let mut offset = 0;
        let mut body_start = text.len();
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim();
            let lead = line.len() - line.trim_start().len();
            if trimmed.is_empty() {
                offset += line.len();
                continue;
            }
            if !trimmed.starts_with('[') {
                body_start = offset;
                break;
            }
            let at = offset + lead;
            let (name, value) = parse_header(trimmed)
                .ok_or_else(|| err(at, RecordErrorKind::BadHeader(excerpt(trimmed))))?;
            let known = ["Game", "Size", "Rules", "White", "Black", "Result"]
                .into_iter()
                .find(|k| k.eq_ignore_ascii_case(&name));
            if let Some(k) = known {
                if seen.contains(&k) {
                    return Err(err(at, RecordErrorKind::DuplicateHeader(k.to_owned())));
                }
                seen.push(k);
                match k {
                    "Game" => {
                        if !value.eq_ignore_ascii_case("pente") {
                            return Err(err(at, RecordErrorKind::NotPente(excerpt(&value))));
                        }
                    }
                    "Size" => {
                        record.rules.size = value
                            .parse::<Size>()
                            .map_err(|_| err(at, RecordErrorKind::BadSize(excerpt(&value))))?;
                    }
                    "Rules" => {
                        record.rules.tournament_rule = match value.to_ascii_lowercase().as_str() {
                            "tournament" => true,
                            "no-tournament" => false,
                            _ => {
                                return Err(err(at, RecordErrorKind::BadRules(excerpt(&value))));
                            }
                        };
                    }
                    "White" => record.white = Some(value),
                    "Black" => record.black = Some(value),
                    _ => {
                        header_result = Some(value.parse().map_err(|e| err(at, e))?);
                    }
                }
            } else {
                record.tags.push((name, value));
            }
            offset += line.len();
        }
        // Moves.
        let body = &text[body_start..];
        let bytes = body.as_bytes();
        let mut i = 0;
        let mut token_result: Option<(GameResult, usize)> = None;
        let mut spans = Vec::new();
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if b == b'{' {
                match body[i..].find('}') {
                    Some(end) => i += end + 1,
                    None => return Err(err(body_start + i, RecordErrorKind::UnclosedComment)),
                }
                continue;
            }
            let start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'{' {
                i += 1;
            }
            let token = &body[start..i];
            let at = body_start + start;
            if token_result.is_some() {
                return Err(err(at, RecordErrorKind::TrailingText));
            }
            if let Ok(r) = token.parse::<GameResult>() {
                token_result = Some((r, at));
                continue;
            }
            // Strip a move number: digits then dots.
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
            let (mv_text, mv_at) = if digits > 0 && dots > 0 {
                (&token[digits + dots..], at + digits + dots)
            } else {
                (token, at)
            };
            if mv_text.is_empty() {
                continue;
            }
            let mv: Move = mv_text.parse().map_err(|error| {
                err(
                    mv_at,
                    RecordErrorKind::BadMove {
                        text: excerpt(mv_text),
                        error,
                    },
                )
            })?;
            record.moves.push(mv);
            spans.push(mv_at);
        }
        record.result = match (header_result, token_result) {
            (Some(h), Some((t, at))) if h != t => {
                return Err(err(
                    at,
                    RecordErrorKind::ResultMismatch {
                        header: h,
                        token: t,
                    },
                ));
            }
            (Some(h), _) => h,
            (None, Some((t, _))) => t,
            (None, None) => GameResult::Unfinished,
        };
        match record.validate() {
            Ok(_) => Ok(record),
            Err(RecordErrorKind::Illegal { index, error }) => {
                Err(err(spans[index], RecordErrorKind::Illegal { index, error }))
            }
            Err(kind) => {
                let at = token_result.map_or(body_start, |(_, at)| at);
                Err(err(at, kind))
            }
        }
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "[Game \"Pente\"]")?;
        writeln!(f, "[Size \"{}\"]", self.rules.size)?;
        writeln!(
            f,
            "[Rules \"{}\"]",
            if self.rules.tournament_rule {
                "tournament"
            } else {
                "no-tournament"
            }
        )?;
        if let Some(w) = &self.white {
            writeln!(f, "[White \"{}\"]", escape(w))?;
        }
        if let Some(b) = &self.black {
            writeln!(f, "[Black \"{}\"]", escape(b))?;
        }
        writeln!(f, "[Result \"{}\"]", self.result)?;
        for (name, value) in self.tags.iter().filter(|(n, _)| writable_tag(n)) {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        for (i, pair) in self.moves.chunks(2).enumerate() {
            if i > 0 {
                f.write_str(if i % 5 == 0 { "\n" } else { " " })?;
            }
            write!(f, "{}. {}", i + 1, pair[0])?;
            if let Some(b) = pair.get(1) {
                write!(f, " {b}")?;
            }
        }
        if !self.moves.is_empty() {
            f.write_str(" ")?;
        }
        writeln!(f, "{}", self.result)
    }
}
