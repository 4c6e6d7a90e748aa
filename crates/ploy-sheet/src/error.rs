//! Errors of the readers and writers.

use ploy_core::{GameError, Outcome, Seat, Variant};
use ploy_notation::{ReadMoveError, ReadPositionError};

use crate::result::ResultText;

/// A sheet or record could not be read: where (1-based line and column, columns counted in
/// characters, a tab counting as one) and why.
///
/// Text quoted from the input (a key, a value, a move, a result) is a bounded excerpt: at
/// most [`ploy_notation::EXCERPT_CHARS`] characters, with `...` and the length when cut, so
/// a message stays one short line whatever the input holds.
///
/// ```
/// let err = ploy_sheet::read_record("ploy-record: 1\nmoves:\ne3-e5-0\n").unwrap_err();
/// assert_eq!((err.line, err.column), (3, 1));
/// assert_eq!(
///     err.to_string(),
///     "line 3, column 1: move 1 (green) `e3-e5-0`: not legal here: the shield on e3 cannot move to e5"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ReadError {
    /// The line, counting from 1.
    pub line: usize,
    /// The column in characters, counting from 1.
    pub column: usize,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

impl ReadError {
    pub(crate) fn new(line: usize, column: usize, kind: ReadErrorKind) -> ReadError {
        ReadError { line, column, kind }
    }
}

/// What is wrong with a sheet or record ([`ReadError`] adds where), or with a [`Record`]
/// that is replayed ([`Record::replay`]).
///
/// [`Record`]: crate::Record
/// [`Record::replay`]: crate::Record::replay
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The text has no content at all.
    #[error("the text is empty")]
    Empty,
    /// The first line is not the format's title.
    #[error("expected {expected} on the first line")]
    Title {
        /// The title of the format.
        expected: &'static str,
    },
    /// The record's format version is not one this reader knows.
    #[error("format version `{0}` is not supported; this reader knows version 1")]
    Version(String),
    /// A header line is not of the form the format needs.
    #[error("expected {expected}")]
    Syntax {
        /// What the format needs here.
        expected: &'static str,
    },
    /// A header key that the format does not have.
    #[error("unknown header `{0}`")]
    UnknownKey(String),
    /// A header key given twice.
    #[error("`{0}` is given twice")]
    DuplicateKey(String),
    /// A header value that does not fit its key.
    #[error("{key}: expected {expected}, found `{found}`")]
    Value {
        /// The key.
        key: &'static str,
        /// What the key takes.
        expected: &'static str,
        /// What was written.
        found: String,
    },
    /// A player is named for a seat that does not play in this variant.
    #[error("{seat} does not play in a {variant} game")]
    SeatNotInVariant {
        /// The seat.
        seat: Seat,
        /// The variant.
        variant: Variant,
    },
    /// The start position cannot be read.
    #[error("start position: {0}")]
    Start(ReadPositionError),
    /// The start position belongs to another variant than the one the header names.
    #[error("the start position is a {start} position, but the variant is {variant}")]
    StartVariant {
        /// The variant the header names.
        variant: Variant,
        /// The variant of the start position.
        start: Variant,
    },
    /// The score sheet's column header row is missing or wrong.
    #[error("expected the column header `{expected}`")]
    Columns {
        /// The row the variant needs, cells separated by spaces.
        expected: String,
    },
    /// A round row does not start with the next round number.
    #[error("expected round number {expected}, found `{found}`")]
    Round {
        /// The number the row should have.
        expected: u32,
        /// What it has.
        found: String,
    },
    /// A row has more cells than the format has columns.
    #[error("unexpected cell `{0}`: the row has no more columns")]
    ExtraCell(String),
    /// A move is malformed or not legal where it stands.
    #[error("move {ply} ({seat}) `{text}`: {source}")]
    Move {
        /// The move's number in the game, counting from 1.
        ply: usize,
        /// The seat whose turn it was (its column on a sheet; in a partnership game the
        /// partner of an absorbed player plays his turns).
        seat: Seat,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        source: ReadMoveError,
    },
    /// A move after the game ended (by the board or by a draw rule).
    #[error("move {ply} `{text}`: the game is already over ({})", ResultText(Some(*.outcome)))]
    AfterEnd {
        /// The move's number in the game, counting from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// A score sheet has a move in a seat's column when another seat is to move.
    #[error("round {round}: a move in {seat}'s column, but it is {turn}'s turn")]
    WrongColumn {
        /// The round.
        round: u32,
        /// The column's seat.
        seat: Seat,
        /// The seat to move.
        turn: Seat,
    },
    /// A score sheet has an empty cell where a seat was to move, and moves after it.
    #[error("round {round}: {seat}'s move is missing")]
    MissingMove {
        /// The round.
        round: u32,
        /// The seat that was to move.
        seat: Seat,
    },
    /// The result cannot be read.
    #[error(
        "expected a result: `unfinished`, `draw` and a reason, or the winners (`Green wins`, `Red and Blue win`) and a reason; found `{0}`"
    )]
    Result(String),
    /// The stated result is not what the moves give.
    #[error("the result says {}, but the moves give {}", ResultText(*.stated), ResultText(*.actual))]
    ResultMismatch {
        /// The stated result (`None`: unfinished).
        stated: Option<Outcome>,
        /// The result of the moves (`None`: unfinished).
        actual: Option<Outcome>,
    },
    /// A free-for-all player's leaving (`resigns`, `out of time`) where it cannot be:
    /// not a free-for-all game, the game is over, the player is out, or only one opponent
    /// is left (then the result line says it).
    #[error("after {ply} moves, {} cannot leave the game here (`{text}`)", .seat.name())]
    Leaving {
        /// Moves played before it.
        ply: usize,
        /// The player.
        seat: ploy_core::Seat,
        /// The text.
        text: String,
    },
    /// A resignation, time forfeit or agreed draw cannot be recorded in the final position.
    #[error("the recorded ending cannot be applied: {0}")]
    Ending(GameError),
    /// A line where the format expects none.
    #[error("unexpected line after {after}")]
    Unexpected {
        /// What the line follows.
        after: &'static str,
    },
}

/// A game cannot be written as a sheet or record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// A header text that would not read back as itself.
    #[error("{field}: {problem}")]
    Text {
        /// The header field.
        field: &'static str,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A player is named for a seat that does not play in this variant.
    #[error("{seat} does not play in a {variant} game")]
    SeatNotInVariant {
        /// The seat.
        seat: Seat,
        /// The variant.
        variant: Variant,
    },
}
