//! The rows the store reads and writes: games, moves, endings, notes, events, and the
//! one write a change of a game makes.

use super::StoreError;

/// Who played a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The seat's player.
    Player,
    /// The built-in bot (its seat, or a player's seat after a timeout).
    Bot,
    /// The server, because the rules allowed nothing else (a forced pass).
    Forced,
}

impl Source {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Source::Player => "player",
            Source::Bot => "bot",
            Source::Forced => "forced",
        }
    }

    pub(super) fn parse(text: &str) -> Result<Source, StoreError> {
        match text {
            "player" => Ok(Source::Player),
            "bot" => Ok(Source::Bot),
            "forced" => Ok(Source::Forced),
            other => Err(StoreError::Corrupt(format!("move source `{other}`"))),
        }
    }
}

/// One move of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// Moves played before this one.
    pub ply: usize,
    /// The seat that moved.
    pub seat: usize,
    /// The canonical text.
    pub text: String,
    /// Who played it.
    pub source: Source,
    /// When (seconds since 1970).
    pub at: i64,
}

/// How a game ended outside its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Time,
    /// The players agreed to a draw.
    Agreement,
}

impl EndKind {
    /// The reason word (`resignation`, `time`, `agreement`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EndKind::Resignation => "resignation",
            EndKind::Time => "time",
            EndKind::Agreement => "agreement",
        }
    }

    pub(super) fn parse(text: &str) -> Result<EndKind, StoreError> {
        match text {
            "resignation" => Ok(EndKind::Resignation),
            "time" => Ok(EndKind::Time),
            "agreement" => Ok(EndKind::Agreement),
            other => Err(StoreError::Corrupt(format!("ending `{other}`"))),
        }
    }
}

/// A recorded ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Moves played when it happened.
    pub ply: usize,
    /// What happened.
    pub kind: EndKind,
    /// The seat that resigned or ran out of time (`None` for an agreement).
    pub seat: Option<usize>,
    /// When.
    pub at: i64,
}

/// A stored game: the truth (type, options, seats, log, ending) and the cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The board number.
    pub id: i64,
    /// The game type's name.
    pub game: String,
    /// The canonical option texts.
    pub options: Vec<String>,
    /// The rules version the game is played under.
    pub rules_version: u32,
    /// Seconds a player has for a move.
    pub deadline: Option<i64>,
    /// Seconds after which a player is reminded.
    pub reminder: Option<i64>,
    /// When it was created.
    pub created_at: i64,
    /// Bumped by every write; a write names the revision it was computed from.
    pub revision: i64,
    /// The userids in seat order.
    pub players: Vec<String>,
    /// The move log.
    pub moves: Vec<MoveRow>,
    /// The ending, if a player resigned, ran out of time or the players agreed.
    pub ending: Option<Ending>,
    /// Seats offering a draw at the current move number.
    pub offers: Vec<usize>,
    /// The move number at which the player to move was last reminded.
    pub reminded_ply: Option<usize>,
    /// Cached status, `active` or `over`.
    pub status: String,
}

/// The cached state written with each change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    /// Moves played.
    pub ply: usize,
    /// Whether the game is over.
    pub over: bool,
    /// The seat to move.
    pub to_move_seat: Option<usize>,
    /// The winners' seats.
    pub winners: Vec<usize>,
    /// The result text.
    pub result: String,
    /// Since when the player to move has been thinking.
    pub turn_since: i64,
}

/// A notification for a user (what pbmserv would have mailed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Whom for.
    pub userid: String,
    /// About which game.
    pub game_id: Option<i64>,
    /// One line.
    pub subject: String,
    /// The message.
    pub body: String,
}

/// A stored notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteRow {
    /// Its number.
    pub id: i64,
    /// When it was written.
    pub at: i64,
    /// The note.
    pub note: Note,
}

/// What happens to draw offers in a write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OfferChange {
    /// Nothing.
    Keep,
    /// These seats offer (or agree to) a draw at the current move number.
    Add(Vec<usize>),
    /// Every offer is withdrawn.
    Clear,
}

/// One change of a game, written atomically.
#[derive(Clone, Debug)]
pub struct Write {
    /// The game.
    pub game_id: i64,
    /// The number of moves the change was computed on.
    pub expected_ply: usize,
    /// The revision the change was computed on.
    pub expected_revision: i64,
    /// Moves to append (numbered from `expected_ply`).
    pub moves: Vec<MoveRow>,
    /// An ending to record.
    pub ending: Option<Ending>,
    /// Draw offers.
    pub offers: OfferChange,
    /// The new cache.
    pub cache: Cache,
    /// Notifications.
    pub notes: Vec<Note>,
    /// The kind of the event for listeners (`move`, `resign`, `draw`, `time`, ...).
    pub event: &'static str,
    /// The move number of a reminder sent.
    pub reminded_ply: Option<usize>,
    /// When.
    pub now: i64,
}

/// Why a write was not made.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The log has a different number of moves, or an ending, than the caller saw.
    #[error("the game has {ply} moves")]
    Stale {
        /// Moves in the log now.
        ply: usize,
        /// Whether an ending is recorded.
        ended: bool,
    },
    /// Something else changed (a draw offer); computing again will do.
    #[error("the game changed")]
    Changed,
    /// No such game.
    #[error("no such game")]
    Missing,
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for WriteError {
    fn from(e: rusqlite::Error) -> WriteError {
        WriteError::Store(StoreError::Sqlite(e))
    }
}

/// A new game.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game type's name.
    pub game: String,
    /// Canonical option texts.
    pub options: Vec<String>,
    /// The rules version.
    pub rules_version: u32,
    /// Seconds per move.
    pub deadline: Option<i64>,
    /// Seconds before a reminder.
    pub reminder: Option<i64>,
    /// Userids in seat order.
    pub players: Vec<String>,
    /// Moves the server plays at once (forced), numbered from 0.
    pub moves: Vec<MoveRow>,
    /// The cache after them.
    pub cache: Cache,
    /// Notifications.
    pub notes: Vec<Note>,
}

/// A game in a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The board number.
    pub id: i64,
    /// The game type.
    pub game: String,
    /// Canonical options.
    pub options: Vec<String>,
    /// Userids in seat order.
    pub players: Vec<String>,
    /// Moves played.
    pub ply: usize,
    /// Whether it is over.
    pub over: bool,
    /// The seat to move.
    pub to_move_seat: Option<usize>,
    /// The result text (empty while it goes on).
    pub result: String,
}

/// A change of a game, for listeners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its number (increasing).
    pub seq: i64,
    /// The game.
    pub game_id: i64,
    /// Moves played after it.
    pub ply: usize,
    /// What happened.
    pub kind: String,
}
