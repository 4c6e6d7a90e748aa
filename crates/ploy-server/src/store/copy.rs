//! `ployd migrate`: copies a SQLite database, row for row, into an empty PostgreSQL one.

use std::fs::File;
use std::path::Path;

use postgres::types::ToSql;
use rusqlite::types::Value;

use super::address::PgAddress;
use super::{Store, StoreError};

/// The tables in an order that keeps every foreign key satisfied.
const TABLES: &[&str] = &[
    "users",
    "sessions",
    "games",
    "seats",
    "moves",
    "endings",
    "draw_offers",
    "outbox",
    "events",
    "invitations",
    "mail_addresses",
    "mail_queue",
    "ratings",
    "rating_changes",
];

/// The identity columns whose next number follows the copied rows.
const IDENTITIES: &[(&str, &str)] = &[
    ("games", "id"),
    ("outbox", "id"),
    ("events", "seq"),
    ("mail_queue", "id"),
    ("rating_changes", "seq"),
];

/// What [`copy_to_postgres`] copied: each table with its rows.
pub type Copied = Vec<(&'static str, u64)>;

fn refused(m: String) -> StoreError {
    StoreError::Copy(m)
}

/// Copies every row of the SQLite database `source` into the PostgreSQL database
/// `target` (its schema brought up to date first), in one transaction, keeping every
/// number (boards, notes, events, mail); the next numbers follow the copied ones.
///
/// # Errors
/// `source` is missing, or a `ployd serve` holds it (it takes a shared lock on the file
/// while it runs); `target` holds rows already; either database fails. No row is written
/// to `target` then (its schema may have been brought up to date).
pub fn copy_to_postgres(
    source: &Path,
    target: &PgAddress,
    password_file: Option<&Path>,
) -> Result<Copied, StoreError> {
    if !source.exists() {
        return Err(refused(format!("no database at {}", source.display())));
    }
    // Held until the copy ends (closing it earlier would also drop SQLite's own locks).
    let lock = File::open(source).map_err(|e| refused(format!("{}: {e}", source.display())))?;
    if lock.try_lock().is_err() {
        return Err(refused(format!(
            "{} is in use by a running ployd serve: stop it first",
            source.display()
        )));
    }
    let from = Store::open(source)?;
    let to = Store::connect(&super::DbAddress::Postgres(target.clone()), password_file)?;
    let (Some(pg), None) = (&to.postgres, &from.postgres) else {
        return Err(StoreError::Unsupported(
            "copies go from SQLite to PostgreSQL",
        ));
    };
    let mut client = pg.conn()?;
    let mut tx = client.transaction()?;
    for table in TABLES {
        let any = tx
            .query_opt(&format!("SELECT 1 FROM {table} LIMIT 1"), &[])?
            .is_some();
        if any {
            return Err(refused(format!(
                "{target} is not empty ({table} has rows): ployd migrate copies into an empty \
                 database only"
            )));
        }
    }
    let mut copied = Vec::new();
    for &table in TABLES {
        let types: Vec<(String, String)> = tx
            .query(
                "SELECT column_name::text, data_type::text FROM information_schema.columns
                 WHERE table_name = $1 AND table_schema = current_schema()
                 ORDER BY ordinal_position",
                &[&table],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let names: Vec<&str> = types.iter().map(|(n, _)| n.as_str()).collect();
        let rows: Vec<Vec<Value>> = from.with(|c| {
            let mut stmt = c.prepare(&format!("SELECT {} FROM {table}", names.join(", ")))?;
            let rows = stmt.query_map([], |r| {
                (0..names.len()).map(|i| r.get::<_, Value>(i)).collect()
            })?;
            Ok::<_, StoreError>(rows.collect::<Result<Vec<_>, _>>()?)
        })?;
        let marks: Vec<String> = (1..=names.len()).map(|i| format!("${i}")).collect();
        let insert = tx.prepare(&format!(
            "INSERT INTO {table}({}) OVERRIDING SYSTEM VALUE VALUES ({})",
            names.join(", "),
            marks.join(", ")
        ))?;
        for row in &rows {
            let params = row
                .iter()
                .zip(&types)
                .map(|(v, (name, ty))| param(table, name, ty, v))
                .collect::<Result<Vec<_>, _>>()?;
            let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|p| &**p).collect();
            tx.execute(&insert, &refs)?;
        }
        copied.push((table, rows.len() as u64));
    }
    // The copied events keep their numbers as their places (SQLite's order is theirs).
    tx.execute("UPDATE events SET pos = seq", &[])?;
    for (table, column) in IDENTITIES {
        let floor: i64 = if *table == "games" { 100 } else { 0 };
        tx.execute(
            &format!(
                "SELECT setval(pg_get_serial_sequence('{table}', '{column}'),
                     GREATEST(COALESCE((SELECT MAX({column}) FROM {table}), 0), $1, 1),
                     GREATEST(COALESCE((SELECT MAX({column}) FROM {table}), 0), $1) > 0)"
            ),
            &[&floor],
        )?;
    }
    tx.commit()?;
    drop(lock);
    Ok(copied)
}

/// A SQLite value as the PostgreSQL column `name` of type `ty` takes it.
fn param(
    table: &str,
    name: &str,
    ty: &str,
    v: &Value,
) -> Result<Box<dyn ToSql + Sync>, StoreError> {
    let wrong = || StoreError::Corrupt(format!("{table}.{name}: {v:?} is not a {ty}"));
    Ok(match (ty, v) {
        ("bigint", Value::Null) => Box::new(None::<i64>),
        ("bigint", Value::Integer(i)) => Box::new(*i),
        ("double precision", Value::Null) => Box::new(None::<f64>),
        ("double precision", Value::Real(f)) => Box::new(*f),
        #[allow(clippy::cast_precision_loss)]
        ("double precision", Value::Integer(i)) => Box::new(*i as f64),
        ("boolean", Value::Integer(i)) => Box::new(*i != 0),
        ("text" | "USER-DEFINED", Value::Null) => Box::new(None::<String>),
        ("text" | "USER-DEFINED", Value::Text(t)) => Box::new(t.clone()),
        _ => return Err(wrong()),
    })
}
