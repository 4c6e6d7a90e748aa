//! Storage: every SQL statement of the server lives in this module, behind domain-level
//! methods, so that another backend (PostgreSQL for deployments that outgrow one machine)
//! can replace it without touching the rest.
//!
//! SQLite through `rusqlite` (bundled), one database file, WAL mode, `synchronous=FULL` (a
//! commit is on disk before the move is acknowledged), foreign keys on. The schema is
//! created and upgraded by the numbered [`MIGRATIONS`] compiled into the binary; the
//! database's `user_version` is the number applied. A database written by a newer binary
//! (a higher number) is refused.
//!
//! The truth of a game is its row in `games` (type, options, rules version, timers), its
//! `seats`, the append-only `moves` (triggers refuse updates and deletes) and at most one
//! row in `endings` (resignation, time, agreement). The other columns of `games` (ply,
//! status, seat to move, result, ...) are a cache written in the same transaction as the
//! log; `ployd check` replays every game and compares.
//!
//! Writes ([`Store::write`]) run in one `BEGIN IMMEDIATE` transaction that first checks
//! that the game still has the number of moves (read from the log itself) and the revision
//! the caller saw; the caller does all slow work (password hashing, search, replay) before.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

/// The schema, one migration per entry; entry `i` moves `user_version` from `i` to `i + 1`.
pub const MIGRATIONS: &[&str] = &[
    // 1: users, sessions, games with their seats, move log, endings, draw offers, outbox,
    //    events.
    "
    CREATE TABLE users (
        userid TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY NOT NULL,
        userid TEXT NOT NULL REFERENCES users(userid),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        rules_version INTEGER NOT NULL,
        deadline INTEGER,
        reminder INTEGER,
        created_at INTEGER NOT NULL,
        revision INTEGER NOT NULL DEFAULT 0,
        ply INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active',
        to_move_seat INTEGER,
        winners TEXT NOT NULL DEFAULT '[]',
        result TEXT NOT NULL DEFAULT '',
        turn_since INTEGER NOT NULL,
        reminded_ply INTEGER
    );
    INSERT INTO sqlite_sequence(name, seq) VALUES ('games', 100);
    CREATE INDEX games_by_status ON games(status, id);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        userid TEXT NOT NULL COLLATE NOCASE,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_user ON seats(userid, game_id);
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL,
        source TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TABLE endings (
        game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat INTEGER,
        at INTEGER NOT NULL
    );
    CREATE TRIGGER endings_no_update BEFORE UPDATE ON endings
        BEGIN SELECT RAISE(ABORT, 'endings are append-only'); END;
    CREATE TRIGGER endings_no_delete BEFORE DELETE ON endings
        BEGIN SELECT RAISE(ABORT, 'endings are append-only'); END;
    CREATE TABLE draw_offers (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        userid TEXT NOT NULL COLLATE NOCASE,
        game_id INTEGER,
        at INTEGER NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        sent_at INTEGER
    );
    CREATE INDEX outbox_by_user ON outbox(userid, id);
    CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        kind TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    ",
];

/// Connections kept open for reuse.
const MAX_IDLE: usize = 16;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database was written by a newer `ployd`.
    #[error("the database has schema version {found}; this ployd knows up to {known}")]
    TooNew {
        /// The database's version.
        found: i64,
        /// The newest this binary knows.
        known: i64,
    },
    /// A stored value is not what the server wrote.
    #[error("corrupt database: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// Whether the database was busy (another writer held it past the timeout).
    #[must_use]
    pub fn is_busy(&self) -> bool {
        matches!(self, StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            if matches!(e.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
    }
}

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
    fn as_str(self) -> &'static str {
        match self {
            Source::Player => "player",
            Source::Bot => "bot",
            Source::Forced => "forced",
        }
    }

    fn parse(text: &str) -> Result<Source, StoreError> {
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

    fn parse(text: &str) -> Result<EndKind, StoreError> {
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

/// The database: a pool of connections to one SQLite file.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

fn to_usize(v: i64) -> Result<usize, StoreError> {
    usize::try_from(v).map_err(|_| StoreError::Corrupt(format!("negative count {v}")))
}

fn to_i64(v: usize) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn json_list<T: serde::de::DeserializeOwned>(text: &str) -> Result<Vec<T>, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("list `{text}`: {e}")))
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".to_owned())
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// # Errors
    /// The file cannot be opened or is not a database of this server.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let store = Store {
            path: path.as_ref().to_owned(),
            idle: Mutex::new(Vec::new()),
        };
        let mut conn = store.connect()?;
        migrate(&mut conn)?;
        store.put(conn);
        Ok(store)
    }

    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn connect(&self) -> Result<Connection, StoreError> {
        let conn = Connection::open(&self.path)?;
        conn.busy_timeout(Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        Ok(conn)
    }

    fn take(&self) -> Result<Connection, StoreError> {
        let conn = self
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop();
        match conn {
            Some(c) => Ok(c),
            None => self.connect(),
        }
    }

    fn put(&self, conn: Connection) {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if idle.len() < MAX_IDLE {
            idle.push(conn);
        }
    }

    fn with<T, E: From<StoreError>>(
        &self,
        f: impl FnOnce(&mut Connection) -> Result<T, E>,
    ) -> Result<T, E> {
        let mut conn = self.take()?;
        let out = f(&mut conn);
        // A connection left inside a transaction by an error is not reused.
        if conn.is_autocommit() {
            self.put(conn);
        }
        out
    }

    // ----------------------------------------------------------------------------------
    // Users and sessions.
    // ----------------------------------------------------------------------------------

    /// Adds a user. `false` if the userid is taken (in any case of letters).
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_user(&self, userid: &str, hash: &str, now: i64) -> Result<bool, StoreError> {
        self.with(|c| {
            let n = c.execute(
                "INSERT INTO users(userid, password_hash, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(userid) DO NOTHING",
                params![userid, hash, now],
            )?;
            Ok(n == 1)
        })
    }

    /// The stored spelling of a userid and its password hash.
    ///
    /// # Errors
    /// Storage failure.
    pub fn user(&self, userid: &str) -> Result<Option<(String, String)>, StoreError> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT userid, password_hash FROM users WHERE userid = ?1",
                params![userid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
        })
    }

    /// The stored spellings of userids that exist, in the order given (`None` for unknown
    /// ones).
    ///
    /// # Errors
    /// Storage failure.
    pub fn users(&self, userids: &[String]) -> Result<Vec<Option<String>>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached("SELECT userid FROM users WHERE userid = ?1")?;
            let mut out = Vec::with_capacity(userids.len());
            for u in userids {
                out.push(stmt.query_row(params![u], |r| r.get(0)).optional()?);
            }
            Ok(out)
        })
    }

    /// Stores a session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_session(
        &self,
        token_hash: &str,
        userid: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now])?;
            c.execute(
                "INSERT INTO sessions(token_hash, userid, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, userid, now, expires],
            )?;
            Ok(())
        })
    }

    /// The user of a live session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT userid FROM sessions WHERE token_hash = ?1 AND expires_at > ?2",
                params![token_hash, now],
                |r| r.get(0),
            )
            .optional()?)
        })
    }

    /// Ends a session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "DELETE FROM sessions WHERE token_hash = ?1",
                params![token_hash],
            )?;
            Ok(())
        })
    }

    // ----------------------------------------------------------------------------------
    // Games.
    // ----------------------------------------------------------------------------------

    /// Whether game `id` exists.
    ///
    /// # Errors
    /// Storage failure.
    pub fn game_exists(&self, id: i64) -> Result<bool, StoreError> {
        self.with(|c| {
            Ok(
                c.query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(()))
                    .optional()?
                    .is_some(),
            )
        })
    }

    /// The game type of game `id`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn game_kind(&self, id: i64) -> Result<Option<String>, StoreError> {
        self.with(|c| {
            Ok(
                c.query_row("SELECT game FROM games WHERE id = ?1", params![id], |r| {
                    r.get(0)
                })
                .optional()?,
            )
        })
    }

    /// Creates a game, its seats, its first (forced) moves and notifications in one
    /// transaction; returns its number.
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_game(&self, new: &NewGame, now: i64) -> Result<i64, StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO games(game, options, rules_version, deadline, reminder, created_at,
                    ply, status, to_move_seat, winners, result, turn_since)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    new.game,
                    to_json(&new.options),
                    new.rules_version,
                    new.deadline,
                    new.reminder,
                    now,
                    to_i64(new.cache.ply),
                    if new.cache.over { "over" } else { "active" },
                    new.cache.to_move_seat.map(to_i64),
                    to_json(&new.cache.winners),
                    new.cache.result,
                    new.cache.turn_since,
                ],
            )?;
            let id = tx.last_insert_rowid();
            for (seat, user) in new.players.iter().enumerate() {
                tx.execute(
                    "INSERT INTO seats(game_id, seat, userid) VALUES (?1, ?2, ?3)",
                    params![id, to_i64(seat), user],
                )?;
            }
            insert_moves(&tx, id, &new.moves)?;
            insert_notes(&tx, id, &new.notes, now)?;
            tx.execute(
                "INSERT INTO events(game_id, ply, kind, at) VALUES (?1, ?2, 'new', ?3)",
                params![id, to_i64(new.cache.ply), now],
            )?;
            tx.commit()?;
            Ok(id)
        })
    }

    /// Reads a whole game in one read transaction (a consistent snapshot).
    ///
    /// # Errors
    /// Storage failure or a corrupt row.
    pub fn load_game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Deferred)?;
            let row = read_game(&tx, id)?;
            tx.commit()?;
            Ok(row)
        })
    }

    /// Writes one change of a game in a `BEGIN IMMEDIATE` transaction, after checking that
    /// the log still has `expected_ply` moves and no ending, and that the revision is
    /// unchanged. Returns the new revision.
    ///
    /// # Errors
    /// [`WriteError::Stale`] or [`WriteError::Changed`] when the game moved on (nothing is
    /// written), [`WriteError::Missing`], or a storage failure.
    pub fn write(&self, w: &Write) -> Result<i64, WriteError> {
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let revision: Option<i64> = tx
                .query_row(
                    "SELECT revision FROM games WHERE id = ?1",
                    params![w.game_id],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(revision) = revision else {
                return Err(WriteError::Missing);
            };
            let ply = to_usize(tx.query_row(
                "SELECT COUNT(*) FROM moves WHERE game_id = ?1",
                params![w.game_id],
                |r| r.get(0),
            )?)?;
            let ended = tx
                .query_row(
                    "SELECT 1 FROM endings WHERE game_id = ?1",
                    params![w.game_id],
                    |_| Ok(()),
                )
                .optional()?
                .is_some();
            if ply != w.expected_ply || ended {
                return Err(WriteError::Stale { ply, ended });
            }
            if revision != w.expected_revision {
                return Err(WriteError::Changed);
            }
            insert_moves(&tx, w.game_id, &w.moves)?;
            if let Some(e) = &w.ending {
                tx.execute(
                    "INSERT INTO endings(game_id, ply, kind, seat, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        w.game_id,
                        to_i64(e.ply),
                        e.kind.as_str(),
                        e.seat.map(to_i64),
                        e.at
                    ],
                )?;
            }
            match w.offers {
                OfferChange::Keep => {}
                OfferChange::Add(ref seats) => {
                    for &seat in seats {
                        tx.execute(
                            "INSERT OR REPLACE INTO draw_offers(game_id, seat, ply, at)
                             VALUES (?1, ?2, ?3, ?4)",
                            params![w.game_id, to_i64(seat), to_i64(w.cache.ply), w.now],
                        )?;
                    }
                }
                OfferChange::Clear => {
                    tx.execute(
                        "DELETE FROM draw_offers WHERE game_id = ?1",
                        params![w.game_id],
                    )?;
                }
            }
            if !w.moves.is_empty() || w.ending.is_some() {
                tx.execute(
                    "DELETE FROM draw_offers WHERE game_id = ?1 AND ply < ?2",
                    params![w.game_id, to_i64(w.cache.ply)],
                )?;
            }
            let cache = &w.cache;
            tx.execute(
                "UPDATE games SET revision = revision + 1, ply = ?2, status = ?3,
                    to_move_seat = ?4, winners = ?5, result = ?6, turn_since = ?7,
                    reminded_ply = COALESCE(?8, reminded_ply)
                 WHERE id = ?1",
                params![
                    w.game_id,
                    to_i64(cache.ply),
                    if cache.over { "over" } else { "active" },
                    cache.to_move_seat.map(to_i64),
                    to_json(&cache.winners),
                    cache.result,
                    cache.turn_since,
                    w.reminded_ply.map(to_i64),
                ],
            )?;
            insert_notes(&tx, w.game_id, &w.notes, w.now)?;
            tx.execute(
                "INSERT INTO events(game_id, ply, kind, at) VALUES (?1, ?2, ?3, ?4)",
                params![w.game_id, to_i64(cache.ply), w.event, w.now],
            )?;
            tx.commit()?;
            Ok(revision + 1)
        })
    }

    /// Games where `userid` holds a seat (`None`: every game), newest first, at most
    /// `limit`. With `next`, only active games where `userid` is to move.
    ///
    /// # Errors
    /// Storage failure.
    pub fn list_games(
        &self,
        userid: Option<&str>,
        active_only: bool,
        next: bool,
        limit: usize,
    ) -> Result<Vec<Summary>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT g.id, g.game, g.options, g.ply, g.status, g.to_move_seat, g.result,
                    (SELECT json_group_array(userid) FROM
                        (SELECT userid FROM seats WHERE game_id = g.id ORDER BY seat))
                 FROM games g
                 WHERE (?1 IS NULL OR g.id IN (SELECT game_id FROM seats WHERE userid = ?1))
                   AND (?2 = 0 OR g.status = 'active')
                   AND (?3 = 0 OR (SELECT userid FROM seats
                        WHERE game_id = g.id AND seat = g.to_move_seat) = ?1)
                 ORDER BY g.id DESC LIMIT ?4",
            )?;
            let rows = stmt.query_map(
                params![userid, active_only || next, next, to_i64(limit)],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, i64>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, Option<i64>>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, String>(7)?,
                    ))
                },
            )?;
            let mut out = Vec::new();
            for row in rows {
                let (id, game, options, ply, status, seat, result, players) = row?;
                out.push(Summary {
                    id,
                    game,
                    options: json_list(&options)?,
                    players: json_list(&players)?,
                    ply: to_usize(ply)?,
                    over: status == "over",
                    to_move_seat: seat.map(to_usize).transpose()?,
                    result,
                });
            }
            Ok(out)
        })
    }

    /// Every game number, in order.
    ///
    /// # Errors
    /// Storage failure.
    pub fn game_ids(&self) -> Result<Vec<i64>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare("SELECT id FROM games ORDER BY id")?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    /// Active games whose seat to move is held by `userid` (the bot).
    ///
    /// # Errors
    /// Storage failure.
    pub fn games_waiting_for(&self, userid: &str) -> Result<Vec<i64>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT g.id FROM games g JOIN seats s
                    ON s.game_id = g.id AND s.seat = g.to_move_seat
                 WHERE g.status = 'active' AND s.userid = ?1 ORDER BY g.id",
            )?;
            let ids = stmt.query_map(params![userid], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    /// Active games with a timer that is due at `now` (a reminder not yet sent, or the
    /// deadline passed).
    ///
    /// # Errors
    /// Storage failure.
    pub fn games_due(&self, now: i64) -> Result<Vec<i64>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(
                "SELECT id FROM games WHERE status = 'active' AND (
                    (deadline IS NOT NULL AND turn_since + deadline <= ?1) OR
                    (reminder IS NOT NULL AND turn_since + reminder <= ?1
                        AND (reminded_ply IS NULL OR reminded_ply < ply)))
                 ORDER BY id",
            )?;
            let ids = stmt.query_map(params![now], |r| r.get(0))?;
            Ok(ids.collect::<Result<Vec<i64>, _>>()?)
        })
    }

    /// The notifications for `userid`, oldest first, after note number `after`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn inbox(&self, userid: &str, after: i64) -> Result<Vec<NoteRow>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, userid, game_id, at, subject, body FROM outbox
                 WHERE userid = ?1 AND id > ?2 ORDER BY id",
            )?;
            let rows = stmt.query_map(params![userid, after], |r| {
                Ok(NoteRow {
                    id: r.get(0)?,
                    at: r.get(3)?,
                    note: Note {
                        userid: r.get(1)?,
                        game_id: r.get(2)?,
                        subject: r.get(4)?,
                        body: r.get(5)?,
                    },
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// Changes after event number `after`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn events_after(&self, after: i64, limit: usize) -> Result<Vec<Event>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seq, game_id, ply, kind FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![after, to_i64(limit)], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)?, r.get(3)?))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (seq, game_id, ply, kind) = row?;
                out.push(Event {
                    seq,
                    game_id,
                    ply: to_usize(ply)?,
                    kind,
                });
            }
            Ok(out)
        })
    }

    /// The number of the last event (0 if none).
    ///
    /// # Errors
    /// Storage failure.
    pub fn last_event(&self) -> Result<i64, StoreError> {
        self.with(
            |c| Ok(c.query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))?),
        )
    }

    /// Counts the rows of the move log (for checks).
    ///
    /// # Errors
    /// Storage failure.
    pub fn move_count(&self) -> Result<usize, StoreError> {
        self.with(|c| to_usize(c.query_row("SELECT COUNT(*) FROM moves", [], |r| r.get(0))?))
    }

    /// The cache columns of game `id`, as stored (for checks).
    ///
    /// # Errors
    /// Storage failure.
    pub fn cache(&self, id: i64) -> Result<Option<Cache>, StoreError> {
        self.with(|c| {
            let row = c
                .query_row(
                    "SELECT ply, status, to_move_seat, winners, result, turn_since
                     FROM games WHERE id = ?1",
                    params![id],
                    |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, Option<i64>>(2)?,
                            r.get::<_, String>(3)?,
                            r.get::<_, String>(4)?,
                            r.get::<_, i64>(5)?,
                        ))
                    },
                )
                .optional()?;
            row.map(|(ply, status, seat, winners, result, turn_since)| {
                Ok(Cache {
                    ply: to_usize(ply)?,
                    over: status == "over",
                    to_move_seat: seat.map(to_usize).transpose()?,
                    winners: json_list(&winners)?,
                    result,
                    turn_since,
                })
            })
            .transpose()
        })
    }
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let known = to_i64(MIGRATIONS.len());
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(StoreError::TooNew { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(to_usize(found)?) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", to_i64(i + 1))?;
    }
    tx.commit()?;
    Ok(())
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    moves: &[MoveRow],
) -> Result<(), StoreError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO moves(game_id, ply, seat, text, source, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for m in moves {
        stmt.execute(params![
            id,
            to_i64(m.ply),
            to_i64(m.seat),
            m.text,
            m.source.as_str(),
            m.at
        ])?;
    }
    Ok(())
}

fn insert_notes(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    notes: &[Note],
    now: i64,
) -> Result<(), StoreError> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO outbox(userid, game_id, at, subject, body) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for n in notes {
        stmt.execute(params![
            n.userid,
            n.game_id.or(Some(id)),
            now,
            n.subject,
            n.body
        ])?;
    }
    Ok(())
}

fn read_game(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<Option<GameRow>, StoreError> {
    let head = tx
        .query_row(
            "SELECT game, options, rules_version, deadline, reminder, created_at, revision,
                reminded_ply, status
             FROM games WHERE id = ?1",
            params![id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, Option<i64>>(7)?,
                    r.get::<_, String>(8)?,
                ))
            },
        )
        .optional()?;
    let Some((
        game,
        options,
        rules_version,
        deadline,
        reminder,
        created_at,
        revision,
        reminded,
        status,
    )) = head
    else {
        return Ok(None);
    };
    let mut stmt =
        tx.prepare_cached("SELECT userid FROM seats WHERE game_id = ?1 ORDER BY seat")?;
    let players = stmt
        .query_map(params![id], |r| r.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let mut stmt = tx.prepare_cached(
        "SELECT ply, seat, text, source, at FROM moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let raw = stmt
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut moves = Vec::with_capacity(raw.len());
    for (i, (ply, seat, text, source, at)) in raw.into_iter().enumerate() {
        let ply = to_usize(ply)?;
        if ply != i {
            return Err(StoreError::Corrupt(format!(
                "game {id}: move {i} is missing"
            )));
        }
        moves.push(MoveRow {
            ply,
            seat: to_usize(seat)?,
            text,
            source: Source::parse(&source)?,
            at,
        });
    }
    let ending = tx
        .query_row(
            "SELECT ply, kind, seat, at FROM endings WHERE game_id = ?1",
            params![id],
            |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            },
        )
        .optional()?;
    let ending = match ending {
        Some((ply, kind, seat, at)) => Some(Ending {
            ply: to_usize(ply)?,
            kind: EndKind::parse(&kind)?,
            seat: seat.map(to_usize).transpose()?,
            at,
        }),
        None => None,
    };
    let mut stmt = tx.prepare_cached(
        "SELECT seat FROM draw_offers WHERE game_id = ?1 AND ply = ?2 ORDER BY seat",
    )?;
    let offers = stmt
        .query_map(params![id, to_i64(moves.len())], |r| r.get::<_, i64>(0))?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(to_usize)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(GameRow {
        id,
        game,
        options: json_list(&options)?,
        rules_version,
        deadline,
        reminder,
        created_at,
        revision,
        players,
        moves,
        ending,
        offers,
        reminded_ply: reminded.map(to_usize).transpose()?,
        status,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_db(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ployd-store-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("test.db")
    }

    fn cache(ply: usize) -> Cache {
        Cache {
            ply,
            over: false,
            to_move_seat: Some(ply % 2),
            winners: vec![],
            result: String::new(),
            turn_since: 0,
        }
    }

    #[test]
    fn games_start_at_101_and_the_log_is_append_only() {
        let path = temp_db("log");
        let store = Store::open(&path).unwrap();
        assert!(store.create_user("alice", "h", 0).unwrap());
        assert!(!store.create_user("ALICE", "h", 0).unwrap());
        let new = NewGame {
            game: "ploy".into(),
            options: vec![],
            rules_version: 1,
            deadline: None,
            reminder: None,
            players: vec!["alice".into(), "bot".into()],
            moves: vec![],
            cache: cache(0),
            notes: vec![],
        };
        let id = store.create_game(&new, 0).unwrap();
        assert_eq!(id, 101);
        let row = store.load_game(id).unwrap().unwrap();
        let w = Write {
            game_id: id,
            expected_ply: 0,
            expected_revision: row.revision,
            moves: vec![MoveRow {
                ply: 0,
                seat: 0,
                text: "e3-e4-0".into(),
                source: Source::Player,
                at: 1,
            }],
            ending: None,
            offers: OfferChange::Keep,
            cache: cache(1),
            notes: vec![],
            event: "move",
            reminded_ply: None,
            now: 1,
        };
        store.write(&w).unwrap();
        // The same write again is stale: one row only.
        assert!(matches!(
            store.write(&w),
            Err(WriteError::Stale { ply: 1, .. })
        ));
        assert_eq!(store.move_count().unwrap(), 1);
        let conn = Connection::open(&path).unwrap();
        assert!(conn.execute("DELETE FROM moves", []).is_err());
        assert!(conn.execute("UPDATE moves SET text = 'x'", []).is_err());
        // Reopening runs no migration twice.
        drop(store);
        let store = Store::open(&path).unwrap();
        assert_eq!(store.load_game(id).unwrap().unwrap().moves.len(), 1);
        assert_eq!(store.create_game(&new, 0).unwrap(), 102);
    }
}
