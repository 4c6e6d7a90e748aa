//! Users and sessions.

use rusqlite::{OptionalExtension, params};

use super::{Store, StoreError};

impl Store {
    /// Adds a user. `false` if the userid is taken (in any case of letters).
    ///
    /// # Errors
    /// Storage failure.
    pub fn create_user(&self, userid: &str, hash: &str, now: i64) -> Result<bool, StoreError> {
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
        self.with(|c| {
            c.execute(
                "DELETE FROM sessions WHERE token_hash = ?1",
                params![token_hash],
            )?;
            Ok(())
        })
    }
}
