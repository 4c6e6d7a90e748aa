//! The inbox of notes to users, and the event log the event streams follow.

use rusqlite::params;

use super::rows::{Event, Note, NoteRow};
use super::{Store, StoreError, insert_rows, to_i64, to_usize};

impl Store {
    /// The notifications for `userid`, oldest first, after note number `after`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn inbox(&self, userid: &str, after: i64) -> Result<Vec<NoteRow>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.inbox(userid, after);
        }
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
        if let Some(pg) = &self.postgres {
            return pg.events_after(after, limit);
        }
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
        if let Some(pg) = &self.postgres {
            return pg.last_event();
        }
        self.with(
            |c| Ok(c.query_row("SELECT COALESCE(MAX(seq), 0) FROM events", [], |r| r.get(0))?),
        )
    }
}

pub(super) fn insert_notes(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    notes: &[Note],
    now: i64,
) -> Result<(), StoreError> {
    let board = id.to_string();
    let rows: Vec<(&str, Option<i64>, String, String)> = notes
        .iter()
        .map(|n| {
            (
                n.userid.as_str(),
                n.game_id.or(Some(id)),
                n.subject.replace("{board}", &board),
                n.body.replace("{board}", &board),
            )
        })
        .collect();
    insert_rows(
        tx,
        "INSERT INTO outbox(userid, game_id, at, subject, body) VALUES (?1, ?2, ?3, ?4, ?5)",
        rows.iter()
            .map(|(user, game, subject, body)| (user, game, now, subject, body)),
    )?;
    // The same notes go by mail to the users with a confirmed address, in the same
    // transaction.
    super::mail::mail_notes(tx, &rows, now)
}
