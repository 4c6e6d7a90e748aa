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
//! SQLite's own checks of the file ([`Store::damage`]: `quick_check` when `ployd serve`
//! starts, `integrity_check` and `foreign_key_check` in `ployd check`) and consistent copies
//! of a live database ([`Store::backup_to`], `ployd backup`) are in `health.rs`.
//!
//! Writes ([`Store::write`]) run in one `BEGIN IMMEDIATE` transaction that first checks
//! that the game still has the number of moves (read from the log itself) and the revision
//! the caller saw; the caller does all slow work (password hashing, search, replay) before.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::Connection;

use schema::migrate;

mod accounts;
mod games;
mod health;
mod inbox;
mod invitations;
mod mail;
mod ratings;
mod rows;
mod schema;

pub use games::GameQuery;
pub use health::Scan;
pub use invitations::Join;
pub use mail::{Confirmation, MailAddress, NewMail, QueuedMail};
pub use ratings::{
    RatedEnd, RatedOutcome, Rating, RatingChange, RatingRow, TAU as GLICKO2_TAU, rating_period,
};
pub use rows::{
    Cache, EndKind, Ending, Event, GameRow, Invitation, MoveRow, NewGame, Note, NoteRow,
    OfferChange, Source, Summary, Write, WriteError, status_word,
};
pub use schema::MIGRATIONS;

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
    /// A backup could not be made ([`Store::backup_to`]).
    #[error("backup: {0}")]
    Backup(String),
}

impl StoreError {
    /// Whether the disk, or the file's page limit ([`Store::limit_pages`]), is full
    /// (`SQLITE_FULL`): the write was rolled back whole.
    #[must_use]
    pub fn is_full(&self) -> bool {
        matches!(self, StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::DiskFull)
    }

    /// Whether the database was busy (another writer held it past the timeout).
    #[must_use]
    pub fn is_busy(&self) -> bool {
        matches!(self, StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            if matches!(e.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
    }
}

/// The database: a pool of connections to one SQLite file.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    /// The most pages the file may grow to (`PRAGMA max_page_count`), if limited.
    max_pages: Option<u64>,
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

/// Runs the statement `sql` (an insert) once with each of `rows` as its parameters.
fn insert_rows<P: rusqlite::Params>(
    tx: &rusqlite::Transaction<'_>,
    sql: &str,
    rows: impl IntoIterator<Item = P>,
) -> Result<(), StoreError> {
    let mut stmt = tx.prepare_cached(sql)?;
    for row in rows {
        stmt.execute(row)?;
    }
    Ok(())
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
            max_pages: None,
        };
        let mut conn = store.connect()?;
        migrate(&mut conn)?;
        store.put(conn);
        Ok(store)
    }

    /// Limits the file to `pages` database pages (SQLite's `max_page_count`; `ployd
    /// --max-db-pages`): a write that needs more fails with `SQLITE_FULL`
    /// ([`StoreError::is_full`]), as on a full disk, and changes nothing. A file already
    /// larger keeps its size and does not grow.
    ///
    /// # Errors
    /// A connection cannot be opened with the limit.
    pub fn limit_pages(&mut self, pages: u64) -> Result<(), StoreError> {
        self.max_pages = Some(pages);
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        let conn = self.connect()?;
        self.put(conn);
        Ok(())
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
        if let Some(pages) = self.max_pages {
            // SQLite answers with the limit now in force; reading it is enough.
            let _: i64 = conn.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |r| {
                r.get(0)
            })?;
        }
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
            invited: false,
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
            challenger: "alice".into(),
            invited: vec![],
            moves: vec![],
            cache: cache(0),
            notes: vec![],
            rated: false,
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
            rating: None,
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
