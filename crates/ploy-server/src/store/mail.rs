//! Mail: users' e-mail addresses with their confirmation codes, and the queue of mail to
//! send.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{Store, StoreError};

/// A user's e-mail address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailAddress {
    /// The address.
    pub address: String,
    /// When it was confirmed (`None`: waiting for its code).
    pub confirmed_at: Option<i64>,
}

/// A mail to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMail {
    /// The user it is for, if it is for an account.
    pub userid: Option<String>,
    /// The address it goes to.
    pub recipient: String,
    /// The subject.
    pub subject: String,
    /// The body (plain text).
    pub body: String,
    /// The thread it belongs to (mail of one thread refers to the thread's first message).
    pub thread: Option<String>,
    /// The `Message-ID` of the mail it answers (with its angle brackets), if any.
    pub in_reply_to: Option<String>,
}

/// A mail in the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedMail {
    /// Its number in the queue.
    pub id: i64,
    /// What was queued.
    pub mail: NewMail,
    /// When it was queued.
    pub queued_at: i64,
    /// The attempts to send it so far.
    pub attempts: i64,
    /// When it is tried next.
    pub next_try: i64,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    /// When the relay accepted it (`None`: not yet).
    pub sent_at: Option<i64>,
    /// When the relay refused it for good (`None`: not refused, or only for a while).
    pub failed_at: Option<i64>,
}

/// What became of a confirmation code ([`Store::confirm_mail_address`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirmation {
    /// The code was right: the address is confirmed.
    Confirmed,
    /// The address was confirmed already.
    Already,
    /// The user has no address.
    NoAddress,
    /// The code was wrong; the tries left.
    Wrong {
        /// The tries left for this code.
        tries_left: i64,
    },
    /// The code's tries are used up.
    NoTriesLeft,
    /// The code has expired.
    Expired,
}

impl Store {
    /// The e-mail address of `userid`, if it has one.
    ///
    /// # Errors
    /// Storage failure.
    pub fn mail_address(&self, userid: &str) -> Result<Option<MailAddress>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.mail_address(userid);
        }
        self.with(|c| {
            Ok(c.query_row(
                "SELECT address, confirmed_at FROM mail_addresses WHERE userid = ?1",
                params![userid],
                |r| {
                    Ok(MailAddress {
                        address: r.get(0)?,
                        confirmed_at: r.get(1)?,
                    })
                },
            )
            .optional()?)
        })
    }

    /// Gives `userid` the address `address`, unconfirmed, waiting for the code whose hash
    /// is `code_hash` until `expires` with `tries` tries, and queues `mail` (the code's
    /// mail), in one transaction. `false` if there is no such user (nothing changed).
    ///
    /// # Errors
    /// Storage failure (nothing changed).
    #[allow(clippy::too_many_arguments)]
    pub fn set_mail_address(
        &self,
        userid: &str,
        address: &str,
        code_hash: &str,
        expires: i64,
        tries: i64,
        mail: &NewMail,
        now: i64,
    ) -> Result<bool, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.set_mail_address(userid, address, code_hash, expires, tries, mail, now);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let known: Option<String> = tx
                .query_row(
                    "SELECT userid FROM users WHERE userid = ?1",
                    params![userid],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(userid) = known else {
                return Ok(false);
            };
            tx.execute(
                "INSERT INTO mail_addresses(userid, address, confirmed_at, code_hash,
                     code_expires, tries_left)
                 VALUES (?1, ?2, NULL, ?3, ?4, ?5)
                 ON CONFLICT(userid) DO UPDATE SET address = ?2, confirmed_at = NULL,
                     code_hash = ?3, code_expires = ?4, tries_left = ?5",
                params![userid, address, code_hash, expires, tries],
            )?;
            // Mail queued for the old address does not go to the new one, nor to the old.
            tx.execute(
                "DELETE FROM mail_queue WHERE userid = ?1 AND sent_at IS NULL",
                params![userid],
            )?;
            insert_mail(&tx, mail, now)?;
            tx.commit()?;
            Ok(true)
        })
    }

    /// Removes the address of `userid` and drops the mail queued for the user and not sent
    /// yet, in one transaction; whether there was an address.
    ///
    /// # Errors
    /// Storage failure (nothing changed).
    pub fn remove_mail_address(&self, userid: &str) -> Result<bool, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.remove_mail_address(userid);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let n = tx.execute(
                "DELETE FROM mail_addresses WHERE userid = ?1",
                params![userid],
            )?;
            tx.execute(
                "DELETE FROM mail_queue WHERE userid = ?1 AND sent_at IS NULL",
                params![userid],
            )?;
            tx.commit()?;
            Ok(n == 1)
        })
    }

    /// Checks a confirmation code (by its hash) for the address of `userid` at time `now`;
    /// a wrong code uses up one try.
    ///
    /// # Errors
    /// Storage failure (nothing changed).
    pub fn confirm_mail_address(
        &self,
        userid: &str,
        code_hash: &str,
        now: i64,
    ) -> Result<Confirmation, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.confirm_mail_address(userid, code_hash, now);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            type Row = (Option<i64>, Option<String>, Option<i64>, i64);
            let row: Option<Row> = tx
                .query_row(
                    "SELECT confirmed_at, code_hash, code_expires, tries_left
                     FROM mail_addresses WHERE userid = ?1",
                    params![userid],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                )
                .optional()?;
            let outcome = match row {
                None => Confirmation::NoAddress,
                Some((Some(_), _, _, _)) => Confirmation::Already,
                Some((None, _, _, tries)) if tries <= 0 => Confirmation::NoTriesLeft,
                Some((None, _, expires, _)) if expires.is_none_or(|e| now >= e) => {
                    Confirmation::Expired
                }
                Some((None, Some(hash), _, _)) if hash == code_hash => {
                    tx.execute(
                        "UPDATE mail_addresses SET confirmed_at = ?2, code_hash = NULL,
                             code_expires = NULL, tries_left = 0
                         WHERE userid = ?1",
                        params![userid, now],
                    )?;
                    Confirmation::Confirmed
                }
                Some((None, _, _, tries)) => {
                    tx.execute(
                        "UPDATE mail_addresses SET tries_left = tries_left - 1 WHERE userid = ?1",
                        params![userid],
                    )?;
                    Confirmation::Wrong {
                        tries_left: tries - 1,
                    }
                }
            };
            tx.commit()?;
            Ok(outcome)
        })
    }

    /// The mail queue, oldest first: only the mail waiting to be sent, or (`all`) every
    /// mail, sent and refused included.
    ///
    /// # Errors
    /// Storage failure.
    pub fn mail_queue(&self, all: bool) -> Result<Vec<QueuedMail>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.mail_queue(all);
        }
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, userid, recipient, subject, body, thread, queued_at, attempts,
                     next_try, last_error, sent_at, failed_at, in_reply_to
                 FROM mail_queue WHERE ?1 OR (sent_at IS NULL AND failed_at IS NULL)
                 ORDER BY id",
            )?;
            let rows = stmt.query_map(params![all], queued_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

impl Store {
    /// The users whose confirmed address is `address` (in any case of letters), in order.
    ///
    /// # Errors
    /// Storage failure.
    pub fn users_of_address(&self, address: &str) -> Result<Vec<String>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.users_of_address(address);
        }
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT userid FROM mail_addresses
                 WHERE address = ?1 COLLATE NOCASE AND confirmed_at IS NOT NULL
                 ORDER BY userid",
            )?;
            let rows = stmt.query_map(params![address], |r| r.get(0))?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    /// The oldest mail waiting to be sent, if it is due at `now` (mail goes out in the
    /// order it was queued: while the oldest waits for its next try, so does the rest).
    ///
    /// # Errors
    /// Storage failure.
    pub fn next_mail(&self, now: i64) -> Result<Option<QueuedMail>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.next_mail(now);
        }
        self.with(|c| {
            let first = c
                .query_row(
                    "SELECT id, userid, recipient, subject, body, thread, queued_at, attempts,
                         next_try, last_error, sent_at, failed_at, in_reply_to
                     FROM mail_queue WHERE sent_at IS NULL AND failed_at IS NULL
                     ORDER BY id LIMIT 1",
                    [],
                    queued_row,
                )
                .optional()?;
            Ok(first.filter(|m| m.next_try <= now))
        })
    }

    /// The number of the first mail of the thread of mail `id` to the same address (mail
    /// `id` itself if it is the first, or has no thread).
    ///
    /// # Errors
    /// Storage failure.
    pub fn thread_start(&self, id: i64) -> Result<i64, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.thread_start(id);
        }
        self.with(|c| {
            Ok(c.query_row(
                "SELECT COALESCE(
                     (SELECT MIN(o.id) FROM mail_queue o
                      WHERE o.thread = m.thread AND o.recipient = m.recipient),
                     m.id)
                 FROM mail_queue m WHERE m.id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(id))
        })
    }

    /// Marks mail `id` sent at `now` (the relay accepted it).
    ///
    /// # Errors
    /// Storage failure.
    pub fn mail_sent(&self, id: i64, now: i64) -> Result<(), StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.mail_sent(id, now);
        }
        self.with(|c| {
            c.execute(
                "UPDATE mail_queue SET sent_at = ?2, attempts = attempts + 1 WHERE id = ?1",
                params![id, now],
            )?;
            Ok(())
        })
    }

    /// Records a failed attempt to send mail `id` at `now`: tried again at `retry_at`, or
    /// (`None`) refused for good.
    ///
    /// # Errors
    /// Storage failure.
    pub fn mail_failed(
        &self,
        id: i64,
        now: i64,
        error: &str,
        retry_at: Option<i64>,
    ) -> Result<(), StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.mail_failed(id, now, error, retry_at);
        }
        self.with(|c| {
            c.execute(
                "UPDATE mail_queue SET attempts = attempts + 1, last_error = ?3,
                     next_try = COALESCE(?4, next_try),
                     failed_at = CASE WHEN ?4 IS NULL THEN ?2 ELSE NULL END
                 WHERE id = ?1",
                params![id, now, error, retry_at],
            )?;
            Ok(())
        })
    }

    /// Queues `mail`, due at `now`.
    ///
    /// # Errors
    /// Storage failure.
    pub fn queue_mail(&self, mail: &NewMail, now: i64) -> Result<(), StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.queue_mail(mail, now);
        }
        self.with(|c| {
            let tx = c.transaction()?;
            insert_mail(&tx, mail, now)?;
            tx.commit()?;
            Ok(())
        })
    }
}

fn queued_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<QueuedMail> {
    Ok(QueuedMail {
        id: r.get(0)?,
        mail: NewMail {
            userid: r.get(1)?,
            recipient: r.get(2)?,
            subject: r.get(3)?,
            body: r.get(4)?,
            thread: r.get(5)?,
            in_reply_to: r.get(12)?,
        },
        queued_at: r.get(6)?,
        attempts: r.get(7)?,
        next_try: r.get(8)?,
        last_error: r.get(9)?,
        sent_at: r.get(10)?,
        failed_at: r.get(11)?,
    })
}

/// Queues, inside `tx`, the notes `rows` (user, board, subject, body) for the users among
/// them with a confirmed address, one thread per board.
pub(super) fn mail_notes(
    tx: &rusqlite::Transaction<'_>,
    rows: &[(&str, Option<i64>, String, String)],
    now: i64,
) -> Result<(), StoreError> {
    let mut find = tx.prepare_cached(
        "SELECT userid, address FROM mail_addresses
         WHERE userid = ?1 AND confirmed_at IS NOT NULL",
    )?;
    for (user, board, subject, body) in rows {
        let found: Option<(String, String)> = find
            .query_row(params![user], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        if let Some((userid, address)) = found {
            let mail = NewMail {
                body: crate::mail::with_stop_line(body, &userid),
                userid: Some(userid),
                recipient: address,
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
pub(super) fn insert_mail(
    tx: &rusqlite::Transaction<'_>,
    mail: &NewMail,
    now: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO mail_queue(userid, recipient, subject, body, thread, in_reply_to,
             queued_at, next_try)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
        params![
            mail.userid,
            mail.recipient,
            mail.subject,
            mail.body,
            mail.thread,
            mail.in_reply_to,
            now
        ],
    )?;
    Ok(())
}
