//! Storage: every SQL statement of the server lives in this module, behind domain-level
//! methods, so that the rest of the server does not know which database it runs on.
//!
//! # Two backends behind one API
//!
//! [`Store`] is one type whatever the database; [`Store::connect`] chooses the backend from
//! the address of `--db` ([`DbAddress`]): a file (or `sqlite:FILE`) is SQLite, embedded,
//! the default; `postgres://USER@HOST:PORT/NAME` is PostgreSQL, for a site that outgrows
//! one machine. Every public method dispatches on the backend at its start: SQLite's
//! statements stay as they were, in this module's files; PostgreSQL's are in `pg/`, one
//! method of the same name and meaning each. An enum inside [`Store`] rather than a trait
//! object: the service keeps one concrete type, and a method that one backend lacks does
//! not compile.
//!
//! PostgreSQL is reached through the synchronous `postgres` client with an `r2d2` pool
//! (`r2d2_postgres`), so the store stays synchronous as the service expects (its calls run
//! on tokio's blocking pool); both crates build on ployd's `rust-version` (`postgres` 0.19
//! declares 1.85). The connection is plain TCP or a Unix socket (no TLS: a database on
//! the same machine or a private network). The password is never part of the address (one
//! there is refused): it comes from `--db-password-file`, libpq's `PGPASSWORD` or libpq's
//! password file ([`PgAddress::password`]), and no error or message prints it.
//!
//! # The schema
//!
//! The same logical schema on both, in numbered migrations compiled into the binary, one
//! list per backend with the same numbers ([`MIGRATIONS`] for SQLite, kept byte for byte
//! since existing files have applied them; [`PG_MIGRATIONS`]). They are applied when the
//! store opens; a database written by a newer binary (a higher number) is refused. SQLite
//! keeps the number in `user_version`, PostgreSQL in the table `ployd_schema`
//! ([`Store::schema_version`]).
//!
//! # The rules of truth
//!
//! The truth of a game is its row in `games` (type, options, rules version, timers), its
//! `seats`, the append-only `moves` (triggers refuse updates and deletes) and at most one
//! row in `endings` (resignation, time, agreement). The other columns of `games` (ply,
//! status, seat to move, result, ...) are a cache written in the same transaction as the
//! log; `ployd check` replays every game and compares.
//!
//! Writes ([`Store::write`]) run in one transaction that first checks that the game still
//! has the number of moves (read from the log itself) and the revision the caller saw; the
//! caller does all slow work (password hashing, search, replay) before. On SQLite the
//! transaction is `BEGIN IMMEDIATE` (one writer at a time); on PostgreSQL it locks the
//! game's row first, so that of two racing moves exactly one is written and the other is
//! refused as stale (see `pg/mod.rs` for the other locks).
//!
//! # SQLite
//!
//! SQLite through `rusqlite` (bundled), one database file, WAL mode, `synchronous=FULL` (a
//! commit is on disk before the move is acknowledged), foreign keys on. SQLite's own checks
//! of the file ([`Store::damage`]: `quick_check` when `ployd serve` starts,
//! `integrity_check` and `foreign_key_check` in `ployd check`) and consistent copies of a
//! live database ([`Store::backup_to`], `ployd backup`) are in `health.rs`; on PostgreSQL
//! the first finds nothing to check (the server keeps its own files) and the second is
//! refused in favour of `pg_dump`.
//!
//! # Several processes on one PostgreSQL database
//!
//! Several `ployd serve` processes may share one PostgreSQL database. Besides the locks
//! above, which hold across processes, what they share is in `shared.rs` (its SQL and
//! design in `pg/shared.rs`): the bot queue, a table that every write of a game brings up
//! to date in its transaction and that the processes claim from with `SKIP LOCKED`;
//! notifications of new events and queued games (`LISTEN`, [`Store::listen`]); jobs that
//! one process at a time runs under an advisory lock ([`Store::exclusive`]: the timers, the
//! mail); and limits counted inside a write's transaction ([`Quotas`]). One SQLite server
//! keeps its bot queue in memory, and its tables of migration 6 stay empty.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::Connection;

use schema::migrate;

mod accounts;
mod address;
mod copy;
mod games;
mod health;
mod inbox;
mod invitations;
mod mail;
mod pg;
mod ratings;
mod rows;
mod schema;
mod shared;

pub use address::{AddressError, DbAddress, PgAddress};
pub use copy::{Copied, copy_to_postgres};
pub use games::GameQuery;
pub use health::Scan;
pub use invitations::Join;
pub use mail::{Confirmation, MailAddress, NewMail, QueuedMail};
pub use pg::schema::PG_MIGRATIONS;
pub use ratings::{
    RatedEnd, RatedOutcome, Rating, RatingChange, RatingRow, TAU as GLICKO2_TAU, rating_period,
};
pub use rows::{
    Cache, EndKind, Ending, Event, GameRow, Invitation, MoveRow, NewGame, Note, NoteRow,
    OfferChange, Quota, Quotas, Source, Summary, Write, WriteError, status_word,
};
pub use schema::MIGRATIONS;
pub use shared::{Channel, Claimer, Job, Listener};

/// Connections kept open for reuse.
const MAX_IDLE: usize = 16;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused or failed.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused or failed (its messages hold no password).
    #[error("database: {}", postgres_message(.0))]
    Postgres(#[from] postgres::Error),
    /// No PostgreSQL connection could be had from the pool in time.
    #[error("database connection: {0}")]
    Pool(String),
    /// The database address, or its password, was refused.
    #[error(transparent)]
    Address(#[from] AddressError),
    /// `ployd migrate` refused, or could not copy.
    #[error("{0}")]
    Copy(String),
    /// The operation is one of the other backend's.
    #[error("{0}")]
    Unsupported(&'static str),
    /// The database was written by a newer `ployd`.
    #[error("the database has schema version {found}; this ployd knows up to {known}")]
    TooNew {
        /// The database's version.
        found: i64,
        /// The newest this binary knows.
        known: i64,
    },
    /// A limit of [`Quotas`] is reached: `user` has `held` of what it counts, the most
    /// allowed. Nothing was written.
    #[error("{user} has {held} of {quota:?}, the most allowed")]
    TooMany {
        /// What is counted.
        quota: Quota,
        /// Whose.
        user: String,
        /// How many he has.
        held: usize,
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
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code == rusqlite::ErrorCode::DiskFull
            }
            StoreError::Postgres(e) => e.code() == Some(&postgres::error::SqlState::DISK_FULL),
            _ => false,
        }
    }

    /// Whether the database was busy (another writer held it past the timeout).
    #[must_use]
    pub fn is_busy(&self) -> bool {
        use postgres::error::SqlState;
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.code,
                rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
            ),
            StoreError::Postgres(e) => e.code().is_some_and(|c| {
                [
                    SqlState::T_R_SERIALIZATION_FAILURE,
                    SqlState::T_R_DEADLOCK_DETECTED,
                    SqlState::LOCK_NOT_AVAILABLE,
                    SqlState::TOO_MANY_CONNECTIONS,
                ]
                .contains(c)
            }),
            StoreError::Pool(_) => true,
            _ => false,
        }
    }
}

/// The database: a pool of connections to one SQLite file, or to one PostgreSQL database.
#[derive(Debug)]
pub struct Store {
    /// The SQLite file (empty on PostgreSQL).
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    /// The most pages the file may grow to (`PRAGMA max_page_count`), if limited.
    max_pages: Option<u64>,
    /// PostgreSQL: when set, every operation goes there and the fields above are unused.
    postgres: Option<pg::Postgres>,
}

/// A PostgreSQL error in words: the server's own message, or the client's with its cause.
fn postgres_message(e: &postgres::Error) -> String {
    use std::error::Error;
    if let Some(db) = e.as_db_error() {
        return format!("{}: {} ({})", db.severity(), db.message(), db.code().code());
    }
    match e.source() {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
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
            postgres: None,
        };
        let mut conn = store.sqlite_connection()?;
        migrate(&mut conn)?;
        store.put(conn);
        Ok(store)
    }

    /// Opens the database at `address`: a SQLite file as [`Store::open`], or a PostgreSQL
    /// database, with the password of [`PgAddress::password`] (`password_file` first);
    /// brings its schema up to date.
    ///
    /// # Errors
    /// The database cannot be reached or refuses the connection; the password file cannot
    /// be read; the database is not one of this server's or is newer.
    pub fn connect(address: &DbAddress, password_file: Option<&Path>) -> Result<Store, StoreError> {
        match address {
            DbAddress::Sqlite(path) => Store::open(path),
            DbAddress::Postgres(pg) => {
                let password = pg.password(password_file)?;
                Ok(Store {
                    path: PathBuf::new(),
                    idle: Mutex::new(Vec::new()),
                    max_pages: None,
                    postgres: Some(pg::Postgres::open(pg, password.as_deref())?),
                })
            }
        }
    }

    /// The number of the last migration applied: [`MIGRATIONS`]`.len()` on SQLite,
    /// [`PG_MIGRATIONS`]`.len()` on PostgreSQL, once the store is open.
    ///
    /// # Errors
    /// Storage failure.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.version();
        }
        self.with(|c| Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?))
    }

    /// Whether the database is on PostgreSQL.
    #[must_use]
    pub fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }

    /// Limits the file to `pages` database pages (SQLite's `max_page_count`; `ployd
    /// --max-db-pages`): a write that needs more fails with `SQLITE_FULL`
    /// ([`StoreError::is_full`]), as on a full disk, and changes nothing. A file already
    /// larger keeps its size and does not grow.
    ///
    /// # Errors
    /// A connection cannot be opened with the limit.
    /// On PostgreSQL: [`StoreError::Unsupported`] (the database server has its own limits).
    pub fn limit_pages(&mut self, pages: u64) -> Result<(), StoreError> {
        if self.postgres.is_some() {
            return Err(StoreError::Unsupported(
                "--max-db-pages limits a SQLite file; a PostgreSQL database has its own limits",
            ));
        }
        self.max_pages = Some(pages);
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clear();
        let conn = self.sqlite_connection()?;
        self.put(conn);
        Ok(())
    }

    /// The database file (`None` on PostgreSQL).
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.postgres.is_none().then_some(self.path.as_path())
    }

    fn sqlite_connection(&self) -> Result<Connection, StoreError> {
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
            None => self.sqlite_connection(),
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
            quotas: Quotas::default(),
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
            quotas: Quotas::default(),
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
