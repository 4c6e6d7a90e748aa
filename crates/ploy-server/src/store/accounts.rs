//! Users and sessions.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{Store, StoreError};

impl Store {
    /// Adds a user. `false` if the userid is taken (in any case of letters).
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_user(&self, userid: &str, hash: &str, now: i64) -> Result<bool, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.create_user(userid, hash, now);
        }
        self.with(|c| {
            let n = c.execute(
                "INSERT INTO users(userid, password_hash, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT(userid) DO NOTHING",
                params![userid, hash, now],
            )?;
            Ok(n == 1)
        })
    }

    /// The stored spelling of a userid and its password hash.
    ///
    /// # Errors
    /// Storage failure.
    pub fn user(&self, userid: &str) -> Result<Option<(String, String)>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.user(userid);
        }
        self.with(|c| {
            Ok(c.query_row(
                "SELECT userid, password_hash FROM users WHERE userid = ?1",
                params![userid],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
        })
    }

    /// The stored spellings of userids that exist, in the order given (`None` for unknown
    /// ones).
    ///
    /// # Errors
    /// Storage failure.
    pub fn users(&self, userids: &[String]) -> Result<Vec<Option<String>>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.users(userids);
        }
        self.with(|c| {
            let mut stmt = c.prepare_cached("SELECT userid FROM users WHERE userid = ?1")?;
            let mut out = Vec::with_capacity(userids.len());
            for u in userids {
                out.push(stmt.query_row(params![u], |r| r.get(0)).optional()?);
            }
            Ok(out)
        })
    }

    /// Stores a session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_session(
        &self,
        token_hash: &str,
        userid: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.create_session(token_hash, userid, now, expires);
        }
        self.with(|c| {
            c.execute("DELETE FROM sessions WHERE expires_at <= ?1", params![now])?;
            c.execute(
                "INSERT INTO sessions(token_hash, userid, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![token_hash, userid, now, expires],
            )?;
            Ok(())
        })
    }

    /// The user of a live session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn session_user(&self, token_hash: &str, now: i64) -> Result<Option<String>, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.session_user(token_hash, now);
        }
        self.with(|c| {
            Ok(c.query_row(
                "SELECT userid FROM sessions WHERE token_hash = ?1 AND expires_at > ?2",
                params![token_hash, now],
                |r| r.get(0),
            )
            .optional()?)
        })
    }

    /// Ends a session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.delete_session(token_hash);
        }
        self.with(|c| {
            c.execute(
                "DELETE FROM sessions WHERE token_hash = ?1",
                params![token_hash],
            )?;
            Ok(())
        })
    }

    /// Replaces the password hash of `userid` and ends every session of the user but the
    /// one whose token hash is `keep`, in one transaction. `false` if there is no such
    /// user (nothing changed).
    ///
    /// # Errors
    /// Storage failure (nothing changed).
    pub fn set_password(
        &self,
        userid: &str,
        hash: &str,
        keep: Option<&str>,
    ) -> Result<bool, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.set_password(userid, hash, keep);
        }
        self.with(|c| {
            let tx = c.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let n = tx.execute(
                "UPDATE users SET password_hash = ?2 WHERE userid = ?1",
                params![userid, hash],
            )?;
            if n != 1 {
                return Ok(false);
            }
            tx.execute(
                "DELETE FROM sessions WHERE userid = ?1 AND token_hash IS NOT ?2",
                params![userid, keep],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    /// Ends every session of `userid`; the number ended.
    ///
    /// # Errors
    /// Storage failure.
    pub fn delete_sessions_of(&self, userid: &str) -> Result<usize, StoreError> {
        if let Some(pg) = &self.postgres {
            return pg.delete_sessions_of(userid);
        }
        self.with(|c| Ok(c.execute("DELETE FROM sessions WHERE userid = ?1", params![userid])?))
    }
}
