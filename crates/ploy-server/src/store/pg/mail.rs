//! Mail addresses and the mail queue, on PostgreSQL.

use postgres::Row;

use super::super::StoreError;
use super::super::mail::{Confirmation, MailAddress, NewMail, QueuedMail};
use super::Postgres;

const QUEUED_COLUMNS: &str = "id, userid::text, recipient, subject, body, thread, queued_at,
    attempts, next_try, last_error, sent_at, failed_at, in_reply_to";

impl Postgres {
    pub(in super::super) fn mail_address(
        &self,
        userid: &str,
    ) -> Result<Option<MailAddress>, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT address::text, confirmed_at FROM mail_addresses WHERE userid = $1",
            &[&userid],
        )?;
        Ok(row.map(|r| MailAddress {
            address: r.get(0),
            confirmed_at: r.get(1),
        }))
    }

    #[allow(clippy::too_many_arguments)]
    pub(in super::super) fn set_mail_address(
        &self,
        userid: &str,
        address: &str,
        code_hash: &str,
        expires: i64,
        tries: i64,
        mail: &NewMail,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let known = tx.query_opt(
            "SELECT userid::text FROM users WHERE userid = $1 FOR UPDATE",
            &[&userid],
        )?;
        let Some(known) = known else {
            return Ok(false);
        };
        let userid: String = known.get(0);
        tx.execute(
            "INSERT INTO mail_addresses(userid, address, confirmed_at, code_hash,
                 code_expires, tries_left)
             VALUES ($1, $2, NULL, $3, $4, $5)
             ON CONFLICT(userid) DO UPDATE SET address = $2, confirmed_at = NULL,
                 code_hash = $3, code_expires = $4, tries_left = $5",
            &[&userid, &address, &code_hash, &expires, &tries],
        )?;
        tx.execute(
            "DELETE FROM mail_queue WHERE userid = $1 AND sent_at IS NULL",
            &[&userid],
        )?;
        insert_mail(&mut tx, mail, now)?;
        tx.commit()?;
        Ok(true)
    }

    pub(in super::super) fn remove_mail_address(&self, userid: &str) -> Result<bool, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let n = tx.execute("DELETE FROM mail_addresses WHERE userid = $1", &[&userid])?;
        tx.execute(
            "DELETE FROM mail_queue WHERE userid = $1 AND sent_at IS NULL",
            &[&userid],
        )?;
        tx.commit()?;
        Ok(n == 1)
    }

    pub(in super::super) fn confirm_mail_address(
        &self,
        userid: &str,
        code_hash: &str,
        now: i64,
    ) -> Result<Confirmation, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let row = tx.query_opt(
            "SELECT confirmed_at, code_hash, code_expires, tries_left
             FROM mail_addresses WHERE userid = $1 FOR UPDATE",
            &[&userid],
        )?;
        type Fields = (Option<i64>, Option<String>, Option<i64>, i64);
        let row: Option<Fields> = row.map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)));
        let outcome = match row {
            None => Confirmation::NoAddress,
            Some((Some(_), _, _, _)) => Confirmation::Already,
            Some((None, _, _, tries)) if tries <= 0 => Confirmation::NoTriesLeft,
            Some((None, _, expires, _)) if expires.is_none_or(|e| now >= e) => {
                Confirmation::Expired
            }
            Some((None, Some(hash), _, _)) if hash == code_hash => {
                tx.execute(
                    "UPDATE mail_addresses SET confirmed_at = $2, code_hash = NULL,
                         code_expires = NULL, tries_left = 0
                     WHERE userid = $1",
                    &[&userid, &now],
                )?;
                Confirmation::Confirmed
            }
            Some((None, _, _, tries)) => {
                tx.execute(
                    "UPDATE mail_addresses SET tries_left = tries_left - 1 WHERE userid = $1",
                    &[&userid],
                )?;
                Confirmation::Wrong {
                    tries_left: tries - 1,
                }
            }
        };
        tx.commit()?;
        Ok(outcome)
    }

    pub(in super::super) fn mail_queue(&self, all: bool) -> Result<Vec<QueuedMail>, StoreError> {
        let rows = self.conn()?.query(
            &format!(
                "SELECT {QUEUED_COLUMNS} FROM mail_queue
                 WHERE $1 OR (sent_at IS NULL AND failed_at IS NULL) ORDER BY id"
            ),
            &[&all],
        )?;
        Ok(rows.iter().map(queued_row).collect())
    }

    pub(in super::super) fn users_of_address(
        &self,
        address: &str,
    ) -> Result<Vec<String>, StoreError> {
        let rows = self.conn()?.query(
            "SELECT userid::text FROM mail_addresses
             WHERE address = $1::citext AND confirmed_at IS NOT NULL
             ORDER BY lower(userid::text), userid::text",
            &[&address],
        )?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    pub(in super::super) fn next_mail(&self, now: i64) -> Result<Option<QueuedMail>, StoreError> {
        let row = self.conn()?.query_opt(
            &format!(
                "SELECT {QUEUED_COLUMNS} FROM mail_queue
                 WHERE sent_at IS NULL AND failed_at IS NULL ORDER BY id LIMIT 1"
            ),
            &[],
        )?;
        Ok(row.map(|r| queued_row(&r)).filter(|m| m.next_try <= now))
    }

    pub(in super::super) fn thread_start(&self, id: i64) -> Result<i64, StoreError> {
        let row = self.conn()?.query_opt(
            "SELECT COALESCE(
                 (SELECT MIN(o.id) FROM mail_queue o
                  WHERE o.thread = m.thread AND o.recipient = m.recipient),
                 m.id)
             FROM mail_queue m WHERE m.id = $1",
            &[&id],
        )?;
        Ok(row.map_or(id, |r| r.get(0)))
    }

    pub(in super::super) fn mail_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        self.conn()?.execute(
            "UPDATE mail_queue SET sent_at = $2, attempts = attempts + 1 WHERE id = $1",
            &[&id, &now],
        )?;
        Ok(())
    }

    pub(in super::super) fn mail_failed(
        &self,
        id: i64,
        now: i64,
        error: &str,
        retry_at: Option<i64>,
    ) -> Result<(), StoreError> {
        self.conn()?.execute(
            "UPDATE mail_queue SET attempts = attempts + 1, last_error = $3,
                 next_try = COALESCE($4, next_try),
                 failed_at = CASE WHEN $4::BIGINT IS NULL THEN $2::BIGINT ELSE NULL END
             WHERE id = $1",
            &[&id, &now, &error, &retry_at],
        )?;
        Ok(())
    }

    pub(in super::super) fn queue_mail(&self, mail: &NewMail, now: i64) -> Result<(), StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        insert_mail(&mut tx, mail, now)?;
        tx.commit()?;
        Ok(())
    }
}

fn queued_row(r: &Row) -> QueuedMail {
    QueuedMail {
        id: r.get(0),
        mail: NewMail {
            userid: r.get(1),
            recipient: r.get(2),
            subject: r.get(3),
            body: r.get(4),
            thread: r.get(5),
            in_reply_to: r.get(12),
        },
        queued_at: r.get(6),
        attempts: r.get(7),
        next_try: r.get(8),
        last_error: r.get(9),
        sent_at: r.get(10),
        failed_at: r.get(11),
    }
}

/// Queues, inside `tx`, the notes `rows` (user, board, subject, body) for the users among
/// them with a confirmed address, one thread per board.
pub(super) fn mail_notes(
    tx: &mut postgres::Transaction<'_>,
    rows: &[(&str, Option<i64>, String, String)],
    now: i64,
) -> Result<(), StoreError> {
    let find = tx.prepare(
        "SELECT userid::text, address::text FROM mail_addresses
         WHERE userid = $1::citext AND confirmed_at IS NOT NULL",
    )?;
    for (user, board, subject, body) in rows {
        let found = tx.query_opt(&find, &[user])?;
        if let Some(r) = found {
            let userid: String = r.get(0);
            let mail = NewMail {
                body: crate::mail::with_stop_line(body, &userid),
                userid: Some(userid),
                recipient: r.get(1),
                subject: subject.clone(),
                thread: board.map(|b| format!("board {b}")),
                in_reply_to: None,
            };
            insert_mail(tx, &mail, now)?;
        }
    }
    Ok(())
}

/// Queues `mail` inside `tx`, due now.
fn insert_mail(
    tx: &mut postgres::Transaction<'_>,
    mail: &NewMail,
    now: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO mail_queue(userid, recipient, subject, body, thread, in_reply_to,
             queued_at, next_try)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
        &[
            &mail.userid,
            &mail.recipient,
            &mail.subject,
            &mail.body,
            &mail.thread,
            &mail.in_reply_to,
            &now,
        ],
    )?;
    Ok(())
}
