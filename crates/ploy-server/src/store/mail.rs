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

    /// The mail queue, oldest first: only the mail not sent yet, or (`all`) every mail.
    ///
    /// # Errors
    /// Storage failure.
    pub fn mail_queue(&self, all: bool) -> Result<Vec<QueuedMail>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, userid, recipient, subject, body, thread, queued_at, attempts,
                     next_try, last_error, sent_at
                 FROM mail_queue WHERE ?1 OR sent_at IS NULL ORDER BY id",
            )?;
            let rows = stmt.query_map(params![all], |r| {
                Ok(QueuedMail {
                    id: r.get(0)?,
                    mail: NewMail {
                        userid: r.get(1)?,
                        recipient: r.get(2)?,
                        subject: r.get(3)?,
                        body: r.get(4)?,
                        thread: r.get(5)?,
                    },
                    queued_at: r.get(6)?,
                    attempts: r.get(7)?,
                    next_try: r.get(8)?,
                    last_error: r.get(9)?,
                    sent_at: r.get(10)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }
}

/// Queues `mail` inside `tx`, due now.
pub(super) fn insert_mail(
    tx: &rusqlite::Transaction<'_>,
    mail: &NewMail,
    now: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO mail_queue(userid, recipient, subject, body, thread, queued_at, next_try)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        params![
            mail.userid,
            mail.recipient,
            mail.subject,
            mail.body,
            mail.thread,
            now
        ],
    )?;
    Ok(())
}
