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
    /// Not a move: the seat's player left a game that goes on without him (a free-for-all
    /// player who resigned or ran out of time); the text is the reason, `resignation` or
    /// `time`.
    Withdrawal,
}

impl Source {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Source::Player => "player",
            Source::Bot => "bot",
            Source::Forced => "forced",
            Source::Withdrawal => "withdrawal",
        }
    }

    pub(super) fn parse(text: &str) -> Result<Source, StoreError> {
        match text {
            "player" => Ok(Source::Player),
            "bot" => Ok(Source::Bot),
            "forced" => Ok(Source::Forced),
            "withdrawal" => Ok(Source::Withdrawal),
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
    /// An invited player declined before the game started.
    Declined,
    /// The challenger withdrew the invitation before the game started.
    Cancelled,
    /// The invitation was not taken up in time.
    Lapsed,
    /// Every person left a game the bots would go on playing alone: nobody wins.
    Abandoned,
}

impl EndKind {
    /// The reason word (`resignation`, `time`, `agreement`, `declined`, `cancelled`,
    /// `lapsed`, `abandoned`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            EndKind::Resignation => "resignation",
            EndKind::Time => "time",
            EndKind::Agreement => "agreement",
            EndKind::Declined => "declined",
            EndKind::Cancelled => "cancelled",
            EndKind::Lapsed => "lapsed",
            EndKind::Abandoned => "abandoned",
        }
    }

    /// Whether it ends a game that never started (an invitation declined, cancelled or
    /// lapsed): nobody wins.
    #[must_use]
    pub fn is_invitation(self) -> bool {
        matches!(
            self,
            EndKind::Declined | EndKind::Cancelled | EndKind::Lapsed
        )
    }

    pub(super) fn parse(text: &str) -> Result<EndKind, StoreError> {
        match text {
            "resignation" => Ok(EndKind::Resignation),
            "time" => Ok(EndKind::Time),
            "agreement" => Ok(EndKind::Agreement),
            "declined" => Ok(EndKind::Declined),
            "cancelled" => Ok(EndKind::Cancelled),
            "lapsed" => Ok(EndKind::Lapsed),
            "abandoned" => Ok(EndKind::Abandoned),
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
    /// The seat that resigned, ran out of time, declined or cancelled (`None` for an
    /// agreement or a lapse).
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
    /// Cached status, `invited`, `active` or `over`.
    pub status: String,
    /// Who started the game (`None` for games stored before invitations existed).
    pub challenger: Option<String>,
    /// The other people the challenger seated, each with the time he joined.
    pub invitations: Vec<Invitation>,
    /// Whether the game is rated (`-rated`).
    pub rated: bool,
}

impl GameRow {
    /// The invited userids who have not joined yet, in seat order.
    #[must_use]
    pub fn waiting_for(&self) -> Vec<String> {
        self.players
            .iter()
            .filter(|p| {
                self.invitations
                    .iter()
                    .any(|i| i.joined_at.is_none() && i.userid.eq_ignore_ascii_case(p))
            })
            .cloned()
            .collect()
    }

    /// When the last invited player joined (`None` while some have not, and for games
    /// without invitations).
    #[must_use]
    pub fn started_at(&self) -> Option<i64> {
        self.invitations
            .iter()
            .map(|i| i.joined_at)
            .collect::<Option<Vec<i64>>>()
            .and_then(|times| times.into_iter().max())
    }
}

/// A person the challenger seated, and whether he joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// The userid.
    pub userid: String,
    /// When he joined; `None` while he has not.
    pub joined_at: Option<i64>,
}

/// The cached state written with each change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    /// Moves played.
    pub ply: usize,
    /// Whether the game is over.
    pub over: bool,
    /// Whether it waits for invited players to join (no seat is to move then).
    pub invited: bool,
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
    /// The end of a rated game: its players' ratings change in the same transaction.
    pub rating: Option<super::RatedEnd>,
    /// The limits the write checks in its transaction.
    pub quotas: Quotas,
}

/// Limits that a write checks inside its transaction, against counts in the database, so
/// that they hold for every `ployd` process on it (a refused write changes nothing:
/// [`StoreError::TooMany`](super::StoreError::TooMany)).
///
/// The bot queue is the database's on PostgreSQL only (several processes claim from it);
/// a SQLite server keeps its queue in memory and ignores `bot_owner` and `bot_games`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quotas {
    /// Whom a game left to the bot is counted for in the bot queue: the user whose move or
    /// challenge left the bot to move (`None`: the first person seated, as for a timer's
    /// or the bot's own write).
    pub bot_owner: Option<String>,
    /// The most games `bot_owner` may have waiting for the bot; the write that would queue
    /// one more is refused (`None`: no limit).
    pub bot_games: Option<usize>,
    /// The most open invitations the challenger of a new game may have; the game that
    /// would be one more is refused (`None`: no limit).
    pub invitations: Option<usize>,
}

/// What a [`Quotas`] limit counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quota {
    /// Games waiting for the bot, per user.
    BotGames,
    /// Open invitations, per challenger.
    Invitations,
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
    /// Who started it.
    pub challenger: String,
    /// The people seated who must join before it starts.
    pub invited: Vec<String>,
    /// Moves the server plays at once (forced), numbered from 0.
    pub moves: Vec<MoveRow>,
    /// The cache after them.
    pub cache: Cache,
    /// Notifications; `{board}` in a subject or body stands for the new board's number.
    pub notes: Vec<Note>,
    /// Whether the game is rated (`-rated`).
    pub rated: bool,
    /// The limits the write checks in its transaction.
    pub quotas: Quotas,
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
    /// Whether it waits for invited players.
    pub invited: bool,
    /// The invited players who have not joined, in seat order.
    pub waiting_for: Vec<String>,
    /// The seat to move.
    pub to_move_seat: Option<usize>,
    /// The result text (empty while it goes on).
    pub result: String,
}

impl Summary {
    /// `invited`, `active` or `over`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        status_word(self.over, self.invited)
    }
}

/// The status word of a game: `over`, `invited` or `active`.
#[must_use]
pub fn status_word(over: bool, invited: bool) -> &'static str {
    if over {
        "over"
    } else if invited {
        "invited"
    } else {
        "active"
    }
}

/// A change of a game, for listeners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its number, increasing in the order the changes committed (on PostgreSQL the place
    /// the event was given after its commit, `pos`, rather than its identity).
    pub seq: i64,
    /// The game.
    pub game_id: i64,
    /// Moves played after it.
    pub ply: usize,
    /// What happened.
    pub kind: String,
}
