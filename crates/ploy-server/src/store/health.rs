//! The file's health: SQLite's own checks of the database file (`PRAGMA quick_check`,
//! `integrity_check`, `foreign_key_check`), and consistent copies of a live database through
//! SQLite's online backup API.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, ErrorCode};

use super::{Store, StoreError};

/// Which of SQLite's checks [`Store::damage`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// `PRAGMA quick_check`: the pages, records and free list, without comparing each
    /// index with its table (linear in the file's size; `ployd serve` runs it at start).
    Quick,
    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check` (`ployd check`).
    Full,
}

/// Whether SQLite failed because the file is damaged or not a database.
fn is_damage(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if matches!(f.code, ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase))
}

/// Appends to `out` the lines of `PRAGMA {pragma}({limit})` other than a lone `ok` (the
/// lines read before a failure are kept).
fn pragma_lines(
    conn: &Connection,
    pragma: &str,
    limit: usize,
    out: &mut Vec<String>,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare(&format!("PRAGMA {pragma}({})", limit.max(1)))?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let text: String = r.get(0)?;
        if text != "ok" {
            // One report may hold several lines (`*** in database main ***` and its list).
            out.extend(text.lines().map(str::to_owned));
        }
    }
    Ok(())
}

/// Appends to `out` at most `limit` rows of `PRAGMA foreign_key_check`, in words.
fn foreign_key_lines(
    conn: &Connection,
    limit: usize,
    out: &mut Vec<String>,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare("PRAGMA foreign_key_check")?;
    let mut rows = stmt.query([])?;
    let start = out.len();
    while let Some(r) = rows.next()? {
        if out.len() - start == limit {
            break;
        }
        let table: String = r.get(0)?;
        let rowid: Option<i64> = r.get(1)?;
        let parent: String = r.get(2)?;
        out.push(match rowid {
            Some(id) => {
                format!("foreign key: row {id} of {table} refers to a missing {parent} row")
            }
            None => format!("foreign key: a row of {table} refers to a missing {parent} row"),
        });
    }
    Ok(())
}

/// The temporary file beside `target` that a backup is written to before it is renamed.
fn temporary_beside(target: &Path) -> Result<PathBuf, StoreError> {
    let name = target
        .file_name()
        .ok_or_else(|| StoreError::Backup(format!("{} names no file", target.display())))?;
    let mut tmp = std::ffi::OsString::from(".");
    tmp.push(name);
    tmp.push(format!(".tmp-{}", std::process::id()));
    Ok(target.with_file_name(tmp))
}

impl Store {
    /// Runs SQLite's checks of the file and returns at most `limit` lines of what they
    /// report, in SQLite's words (empty: no damage found). A check that SQLite cannot even
    /// run because the file is damaged is reported as a line too.
    ///
    /// # Errors
    /// Storage failure other than damage (the database is busy, say).
    ///
    /// On PostgreSQL there is no file of this server's to check: [`Scan::Quick`] reports
    /// nothing, and [`Scan::Full`] what keeps the schema's rules from holding (a trigger of
    /// the append-only logs missing or disabled, a constraint not validated).
    pub fn damage(&self, scan: Scan, limit: usize) -> Result<Vec<String>, StoreError> {
        if let Some(pg) = &self.postgres {
            return match scan {
                Scan::Quick => Ok(Vec::new()),
                Scan::Full => pg.rule_problems(limit),
            };
        }
        self.with(|conn| {
            let mut lines = Vec::new();
            let pragmas: &[&str] = match scan {
                Scan::Quick => &["quick_check"],
                Scan::Full => &["integrity_check", "foreign_key_check"],
            };
            for &pragma in pragmas {
                let left = limit.saturating_sub(lines.len());
                if left == 0 {
                    break;
                }
                let found = if pragma == "foreign_key_check" {
                    foreign_key_lines(conn, left, &mut lines)
                } else {
                    pragma_lines(conn, pragma, left, &mut lines)
                };
                match found {
                    Ok(()) => {}
                    Err(e) if is_damage(&e) => lines.push(format!("{pragma}: {e}")),
                    Err(e) => return Err(e.into()),
                }
            }
            lines.truncate(limit);
            Ok(lines)
        })
    }

    /// Copies the database to `target` with SQLite's online backup API: one consistent
    /// snapshot, taken while other connections (and processes) go on writing. The copy is
    /// written to a temporary file in `target`'s directory, checked with
    /// `PRAGMA quick_check`, synced, and renamed over `target`, so that `target` is
    /// either untouched or the whole copy. An existing `target` is refused unless `force`.
    ///
    /// # Errors
    /// `target` exists (without `force`) or is the database itself; the copy cannot be
    /// written or is damaged; storage failure.
    ///
    /// On PostgreSQL: refused, naming `pg_dump` (PostgreSQL's own consistent copy).
    pub fn backup_to(&self, target: &Path, force: bool) -> Result<(), StoreError> {
        if self.postgres.is_some() {
            return Err(StoreError::Backup(
                "the database is on PostgreSQL: copy it with pg_dump (pg_dump --format=custom)"
                    .to_owned(),
            ));
        }
        let fail = |what: String| StoreError::Backup(format!("{}: {what}", target.display()));
        if target.symlink_metadata().is_ok() {
            if !force {
                return Err(fail("exists (--force replaces it)".to_owned()));
            }
            let same = std::fs::canonicalize(target)
                .and_then(|t| std::fs::canonicalize(&self.path).map(|s| s == t))
                .unwrap_or(false);
            if same {
                return Err(fail("is the database itself".to_owned()));
            }
        }
        let tmp = temporary_beside(target)?;
        let copied = self.copy_to(&tmp);
        let done = copied.and_then(|()| {
            std::fs::File::open(&tmp)
                .and_then(|f| f.sync_all())
                .map_err(|e| fail(format!("cannot sync the copy: {e}")))?;
            std::fs::rename(&tmp, target).map_err(|e| fail(format!("cannot rename: {e}")))?;
            // The rename itself is durable once the directory is synced (where it can be).
            let dir = target.parent().filter(|d| !d.as_os_str().is_empty());
            if let Ok(d) = std::fs::File::open(dir.unwrap_or(Path::new("."))) {
                let _ = d.sync_all();
            }
            Ok(())
        });
        if done.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        done
    }

    /// Writes a copy of the database to the new file `tmp` and checks it.
    fn copy_to(&self, tmp: &Path) -> Result<(), StoreError> {
        let _ = std::fs::remove_file(tmp);
        let mut dst = Connection::open(tmp)?;
        self.with(|src| -> Result<(), StoreError> {
            let backup = Backup::new(src, &mut dst)?;
            // All pages in one step: one read transaction, one consistent snapshot (in WAL
            // mode writers are not blocked meanwhile).
            for _ in 0..200 {
                // More, Busy, Locked: try again shortly.
                if matches!(backup.step(-1)?, StepResult::Done) {
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(StoreError::Backup(
                "the database stayed busy for 10 s".to_owned(),
            ))
        })?;
        let mut problems = Vec::new();
        pragma_lines(&dst, "quick_check", 5, &mut problems)?;
        if !problems.is_empty() {
            return Err(StoreError::Backup(format!(
                "the copy is damaged: {}",
                problems.join("; ")
            )));
        }
        dst.close().map_err(|(_, e)| e)?;
        Ok(())
    }
}
