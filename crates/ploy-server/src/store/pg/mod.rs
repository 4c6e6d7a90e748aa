//! The PostgreSQL backend: the same operations as SQLite's, over a pool of synchronous
//! `postgres` clients (`r2d2`), in PostgreSQL's SQL.
//!
//! Transactions run at PostgreSQL's default isolation, `READ COMMITTED`, with explicit row
//! locks where SQLite's `BEGIN IMMEDIATE` serialized writers: a write of a game locks the
//! game's row (`SELECT ... FOR UPDATE`) before it counts the moves of the log again, so of
//! two racing moves the second waits, then sees the first's move and is refused as stale;
//! a rated ending locks its two players' rows before it reads their ratings; a confirmation
//! code locks its address row.
//!
//! Events are read in the order their transactions committed, so that a stream reading
//! "after N" misses none, without every write waiting for the others: a write inserts its
//! events unnumbered (their `seq` is only an identity), and a reader first gives every
//! committed unnumbered event its place `pos`, after the highest given, in one short
//! transaction under an advisory lock ([`Postgres::order_events`]). Events numbered by one
//! such transaction are all visible at once, and the next starts after it committed, so
//! the places grow in the order they become visible. (Numbering them inside each write,
//! under one lock held until its commit, made every write of the site wait for the
//! previous one's commit.)

mod accounts;
mod games;
mod limits;
mod mail;
mod ratings;
pub(super) mod schema;
mod shared;

pub(super) use shared::{PgClaimer, PgListener};

use std::time::Duration;

use postgres::NoTls;
use r2d2_postgres::PostgresConnectionManager;

use super::address::PgAddress;
use super::{StoreError, to_i64};

/// A client taken from the pool.
type Conn = r2d2::PooledConnection<PostgresConnectionManager<NoTls>>;

/// The most connections one process opens.
const POOL_SIZE: u32 = 16;

/// The advisory lock under which committed events get their places in order.
const EVENTS_LOCK: i64 = 0x706c_6f79_6400_0002;

/// A PostgreSQL database.
pub(super) struct Postgres {
    pool: r2d2::Pool<PostgresConnectionManager<NoTls>>,
    /// For connections of their own (listeners).
    config: postgres::Config,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Postgres").finish_non_exhaustive()
    }
}

impl Postgres {
    /// Connects (one client at once, so that a refusal is told now, in the server's
    /// words), brings the schema up to date and keeps a pool.
    pub(super) fn open(
        address: &PgAddress,
        password: Option<&str>,
    ) -> Result<Postgres, StoreError> {
        let mut config = address.config(password).map_err(StoreError::Address)?;
        config.connect_timeout(Duration::from_secs(10));
        let mut first = config.connect(NoTls)?;
        schema::migrate(&mut first)?;
        drop(first);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(0))
            .test_on_check_out(false)
            .connection_timeout(Duration::from_secs(10))
            .error_handler(Box::new(r2d2::NopErrorHandler))
            .build_unchecked(PostgresConnectionManager::new(config.clone(), NoTls));
        Ok(Postgres { pool, config })
    }

    pub(super) fn conn(&self) -> Result<Conn, StoreError> {
        self.pool.get().map_err(|e| StoreError::Pool(e.to_string()))
    }

    /// Gives every committed event without a place its place in the order of commits (see
    /// the module's documentation); nothing when there is none.
    pub(super) fn order_events(&self) -> Result<(), StoreError> {
        let mut c = self.conn()?;
        if c.query_opt("SELECT 1 FROM events WHERE pos IS NULL LIMIT 1", &[])?
            .is_none()
        {
            return Ok(());
        }
        let mut tx = c.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&EVENTS_LOCK])?;
        tx.execute(
            "WITH base AS (SELECT COALESCE(MAX(pos), 0) AS top FROM events),
                  todo AS (SELECT seq, row_number() OVER (ORDER BY seq) AS n
                           FROM events WHERE pos IS NULL)
             UPDATE events e SET pos = base.top + todo.n
             FROM todo, base WHERE e.seq = todo.seq",
            &[],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The schema version applied.
    pub(super) fn version(&self) -> Result<i64, StoreError> {
        let row = self
            .conn()?
            .query_one("SELECT version FROM ployd_schema", &[])?;
        Ok(row.get(0))
    }
}

/// The triggers of the schema, by table: the append-only rules.
const TRIGGERS: &[(&str, &str)] = &[
    ("moves", "moves_no_update"),
    ("moves", "moves_no_delete"),
    ("moves", "moves_no_truncate"),
    ("endings", "endings_no_update"),
    ("endings", "endings_no_delete"),
    ("endings", "endings_no_truncate"),
    ("invitations", "invitations_no_delete"),
    ("invitations", "invitations_no_truncate"),
    ("rating_changes", "rating_changes_no_update"),
    ("rating_changes", "rating_changes_no_delete"),
    ("rating_changes", "rating_changes_no_truncate"),
];

impl Postgres {
    /// What keeps the schema's rules from holding, at most `limit` lines: a trigger of the
    /// append-only logs missing or disabled (`ALTER TABLE ... DISABLE TRIGGER`), a
    /// constraint added without being checked (`NOT VALID`). PostgreSQL checks the rest at
    /// every write, and keeps its files itself.
    pub(super) fn rule_problems(&self, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut c = self.conn()?;
        let mut out = Vec::new();
        for (table, name) in TRIGGERS {
            let row = c.query_opt(
                "SELECT t.tgenabled::text FROM pg_trigger t
                 JOIN pg_class c ON c.oid = t.tgrelid
                 WHERE c.relname = $1 AND t.tgname = $2
                   AND c.relnamespace = to_regnamespace(current_schema())::oid",
                &[table, name],
            )?;
            match row.map(|r| r.get::<_, String>(0)) {
                None => out.push(format!("trigger {name} of {table} is missing")),
                Some(state) if state == "D" => {
                    out.push(format!("trigger {name} of {table} is disabled"));
                }
                Some(_) => {}
            }
        }
        for r in c.query(
            "SELECT c.relname::text, k.conname::text FROM pg_constraint k
             JOIN pg_class c ON c.oid = k.conrelid
             WHERE NOT k.convalidated
               AND c.relnamespace = to_regnamespace(current_schema())::oid
             ORDER BY 1, 2",
            &[],
        )? {
            let (table, name): (String, String) = (r.get(0), r.get(1));
            out.push(format!("constraint {name} of {table} is not validated"));
        }
        out.truncate(limit);
        Ok(out)
    }
}

/// Appends an event inside `tx`; it gets its place once committed ([`Postgres::order_events`]).
fn insert_event(
    tx: &mut postgres::Transaction<'_>,
    game_id: i64,
    ply: usize,
    kind: &str,
    at: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO events(game_id, ply, kind, at) VALUES ($1, $2, $3, $4)",
        &[&game_id, &to_i64(ply), &kind, &at],
    )?;
    Ok(())
}
