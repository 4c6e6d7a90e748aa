//! Error types: malformed text apart from moves that are not legal here.

pub(crate) use crate::types::excerpt;
use crate::types::{Move, Player};
pub use crate::types::{OptionsError, ParseMoveError};

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMoveReason {
    /// The game is over: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// The cell lies outside this board's grid.
    #[error("outside the board")]
    OffBoard,
    /// Every point of the cell is occupied.
    #[error("the cell is full")]
    Full,
    /// The cell's lowest empty point does not rest on four pieces.
    #[error("the point does not rest on four pieces")]
    Unsupported,
    /// The piece would have no freedom after the captures.
    #[error("suicide")]
    Suicide,
    /// The player to move has no legal placement: he must pass.
    #[error("player must pass")]
    MustPass,
    /// A pass while a placement is legal (no voluntary pass).
    #[error("no voluntary pass")]
    Pass,
    /// A swap other than player 2's second move of a two-player game.
    #[error("swap is only the second move of a two-player game")]
    Swap,
}

/// A move that is not legal in a position (the position is left unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} by player {player} is illegal: {reason}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// The player to move.
    pub player: Player,
    /// Why.
    pub reason: IllegalMoveReason,
}

/// A position string that cannot be read, or describes no reachable kind of position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// The wrong number of space-separated fields.
    #[error("a position string has 5 fields (board, players, rules, to move, moves made), not {0}")]
    Fields(usize),
    /// The board field is malformed.
    #[error("board: {0}")]
    Board(String),
    /// The players field is not 2 to 4.
    #[error("players `{0}` is not 2 to 4")]
    Players(String),
    /// Not a rule set.
    #[error(transparent)]
    Options(#[from] OptionsError),
    /// The player to move is not one of the game's players.
    #[error("to move `{0}` is not one of the players")]
    ToMove(String),
    /// The moves-made field is not a number.
    #[error("moves made `{0}` is not a number")]
    Plies(String),
    /// The position described is not a valid setup.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// A setup that is no position of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A piece of a player the game does not have.
    #[error("a piece of player {0}, who does not play")]
    Colour(u8),
    /// A point that is not on the board.
    #[error("{0} is not a point of a board of size {1}")]
    OffBoard(crate::geometry::Point, u8),
    /// Two pieces on one point.
    #[error("two pieces on {0}")]
    Twice(crate::geometry::Point),
    /// A piece above the board whose four supporters are not all occupied.
    #[error("the piece at {0} does not rest on four pieces")]
    Floating(crate::geometry::Point),
    /// The player to move is not one of the game's players.
    #[error("player {0} is not one of the players")]
    ToMove(Player),
    /// One move made in a two-player game is player 1's single piece with player 2 to move.
    #[error(
        "after one move of a two-player game the board holds player 1's piece alone and player 2 is to move"
    )]
    FirstMove,
}

/// A game record that cannot be read or does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Line `line` (from 1) is malformed.
    #[error("line {line}: {message}")]
    Syntax {
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The header line with the options is missing.
    #[error("no header line (pyloff size=N players=K rules=R)")]
    NoHeader,
    /// A move is played by the wrong player.
    #[error("line {line}: move {number} is player {expected}'s, not player {found}'s")]
    WrongPlayer {
        /// The line number, from 1.
        line: usize,
        /// The move's number, from 1.
        number: usize,
        /// Whose turn it is.
        expected: Player,
        /// The player the record names.
        found: Player,
    },
    /// A move is illegal.
    #[error("line {line}: move {number}: {error}")]
    Illegal {
        /// The line number, from 1.
        line: usize,
        /// The move's number, from 1.
        number: usize,
        /// Why.
        error: IllegalMove,
    },
    /// The recorded result is not the result of the replayed game.
    #[error("the recorded result `{recorded}` is not the game's (`{actual}`)")]
    Result {
        /// As written.
        recorded: String,
        /// As replayed.
        actual: String,
    },
}
