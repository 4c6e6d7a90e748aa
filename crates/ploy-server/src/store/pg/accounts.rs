//! Users, sessions, the inbox of notes and the event log, on PostgreSQL.

use super::super::rows::{Event, Note, NoteRow};
use super::super::{StoreError, to_i64, to_usize};
use super::Postgres;

impl Postgres {
    pub(in super::super) fn create_user(
        &self,
        userid: &str,
        hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = self.conn()?.execute(
            "INSERT INTO users(userid, password_hash, created_at) VALUES ($1, $2, $3)
             ON CONFLICT(userid) DO NOTHING",
            &[&userid, &hash, &now],
        )?;
        Ok(n == 1)
    }

    pub(in super::super) fn user(
        &self,
        userid: &str,
    ) -> Result<Option<(String, String)>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT userid, password_hash FROM users WHERE userid = $1",
            &[&userid],
        )?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    pub(in super::super) fn users(
        &self,
        userids: &[String],
    ) -> Result<Vec<Option<String>>, StoreError> {
        let mut c = self.conn()?;
        let stmt = c.prepare("SELECT userid::text FROM users WHERE userid = $1::citext")?;
        let mut out = Vec::with_capacity(userids.len());
        for u in userids {
            out.push(c.query_opt(&stmt, &[u])?.map(|r| r.get(0)));
        }
        Ok(out)
    }

    pub(in super::super) fn user_public(
        &self,
        userid: &str,
    ) -> Result<Option<(String, i64)>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT userid, created_at FROM users WHERE userid = $1",
            &[&userid],
        )?;
        Ok(row.map(|r| (r.get(0), r.get(1))))
    }

    pub(in super::super) fn create_session(
        &self,
        token_hash: &str,
        userid: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), StoreError> {
        let mut c = self.conn()?;
        c.execute("DELETE FROM sessions WHERE expires_at <= $1", &[&now])?;
        c.execute(
            "INSERT INTO sessions(token_hash, userid, created_at, expires_at)
             VALUES ($1, $2, $3, $4)",
            &[&token_hash, &userid, &now, &expires],
        )?;
        Ok(())
    }

    pub(in super::super) fn session_user(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<String>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT userid FROM sessions WHERE token_hash = $1 AND expires_at > $2",
            &[&token_hash, &now],
        )?;
        Ok(row.map(|r| r.get(0)))
    }

    pub(in super::super) fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.conn()?
            .execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])?;
        Ok(())
    }

    pub(in super::super) fn set_password(
        &self,
        userid: &str,
        hash: &str,
        keep: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let n = tx.execute(
            "UPDATE users SET password_hash = $2 WHERE userid = $1",
            &[&userid, &hash],
        )?;
        if n != 1 {
            return Ok(false);
        }
        tx.execute(
            "DELETE FROM sessions WHERE userid = $1 AND token_hash IS DISTINCT FROM $2",
            &[&userid, &keep],
        )?;
        tx.commit()?;
        Ok(true)
    }

    pub(in super::super) fn delete_sessions_of(&self, userid: &str) -> Result<usize, StoreError> {
        let n = self
            .conn()?
            .execute("DELETE FROM sessions WHERE userid = $1", &[&userid])?;
        Ok(usize::try_from(n).unwrap_or(usize::MAX))
    }

    pub(in super::super) fn inbox(
        &self,
        userid: &str,
        after: i64,
    ) -> Result<Vec<NoteRow>, StoreError> {
        let rows = self.conn()?.query(
            "SELECT id, userid, game_id, at, subject, body FROM outbox
             WHERE userid = $1 AND id > $2 ORDER BY id",
            &[&userid, &after],
        )?;
        Ok(rows
            .iter()
            .map(|r| NoteRow {
                id: r.get(0),
                at: r.get(3),
                note: Note {
                    userid: r.get(1),
                    game_id: r.get(2),
                    subject: r.get(4),
                    body: r.get(5),
                },
            })
            .collect())
    }

    pub(in super::super) fn events_after(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        self.order_events()?;
        let rows = self.conn()?.query(
            "SELECT pos, game_id, ply, kind FROM events WHERE pos > $1 ORDER BY pos LIMIT $2",
            &[&after, &to_i64(limit)],
        )?;
        rows.iter()
            .map(|r| {
                Ok(Event {
                    seq: r.get(0),
                    game_id: r.get(1),
                    ply: to_usize(r.get(2))?,
                    kind: r.get(3),
                })
            })
            .collect()
    }

    pub(in super::super) fn last_event(&self) -> Result<i64, StoreError> {
        let row = self
            .conn()?
            .query_one("SELECT COALESCE(MAX(pos), 0)::BIGINT FROM events", &[])?;
        Ok(row.get(0))
    }
}

/// Stores the notes of a change of game `id` inside `tx`, and queues them by mail to the
/// users with a confirmed address (as SQLite's `insert_notes`).
pub(super) fn insert_notes(
    tx: &mut postgres::Transaction<'_>,
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
    if rows.is_empty() {
        return Ok(());
    }
    let stmt = tx.prepare(
        "INSERT INTO outbox(userid, game_id, at, subject, body) VALUES ($1, $2, $3, $4, $5)",
    )?;
    for (user, game, subject, body) in &rows {
        tx.execute(&stmt, &[user, game, &now, subject, body])?;
    }
    super::mail::mail_notes(tx, &rows, now)
}
