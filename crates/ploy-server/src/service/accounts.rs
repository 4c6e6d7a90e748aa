//! Accounts and sessions: signing up, authenticating, signing in and out.

use super::Service;
use super::error::ApiError;
use crate::auth::{self, BOT};

/// Who is asking.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// A userid and password (checked against the stored hash).
    Password {
        /// The userid.
        userid: String,
        /// The password (never logged or stored).
        password: String,
    },
    /// A user already authenticated by a session cookie.
    Session(String),
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Password { userid, .. } => write!(f, "Password({userid}, ***)"),
            Credentials::Session(u) => write!(f, "Session({u})"),
        }
    }
}

impl Service {
    /// Creates an account.
    ///
    /// # Errors
    /// 400 for a bad userid or password, 409 if the userid is taken or reserved.
    pub fn signup(&self, userid: &str, password: &str) -> Result<String, ApiError> {
        auth::check_userid(userid).map_err(ApiError::bad_request)?;
        auth::check_password(password).map_err(ApiError::bad_request)?;
        if userid.eq_ignore_ascii_case(BOT) {
            return Err(ApiError::conflict(
                "taken",
                "the userid `bot` is reserved for the built-in bot",
            ));
        }
        if self.store.user(userid)?.is_some() {
            return Err(ApiError::conflict(
                "taken",
                format!("the userid `{userid}` is taken"),
            ));
        }
        let hash = auth::hash_password(password, self.config.hash).map_err(ApiError::internal)?;
        if !self.store.create_user(userid, &hash, self.now())? {
            return Err(ApiError::conflict(
                "taken",
                format!("the userid `{userid}` is taken"),
            ));
        }
        Ok(userid.to_owned())
    }

    /// Checks credentials; returns the userid as stored.
    ///
    /// # Errors
    /// 403 for an unknown userid or a wrong password (the same message for both).
    pub fn authenticate(&self, credentials: &Credentials) -> Result<String, ApiError> {
        match credentials {
            Credentials::Session(u) => Ok(u.clone()),
            Credentials::Password { userid, password } => {
                if auth::check_userid(userid).is_err() || password.len() > 1024 {
                    return Err(ApiError::bad_login());
                }
                match self.store.user(userid)? {
                    Some((stored, hash)) if auth::verify_password(password, &hash) => Ok(stored),
                    Some(_) => Err(ApiError::bad_login()),
                    None => {
                        auth::verify_nothing(password, self.config.hash);
                        Err(ApiError::bad_login())
                    }
                }
            }
        }
    }

    /// Opens a session; returns the token (for the cookie) and the userid.
    ///
    /// # Errors
    /// 403 for bad credentials.
    pub fn login(&self, userid: &str, password: &str) -> Result<(String, String), ApiError> {
        let user = self.authenticate(&Credentials::Password {
            userid: userid.to_owned(),
            password: password.to_owned(),
        })?;
        let token = auth::new_token();
        let now = self.now();
        self.store.create_session(
            &auth::token_hash(&token),
            &user,
            now,
            now + self.config.session_seconds,
        )?;
        Ok((token, user))
    }

    /// The user of a session token, if it is live.
    ///
    /// # Errors
    /// Storage failure.
    pub fn session_user(&self, token: &str) -> Result<Option<String>, ApiError> {
        if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        Ok(self
            .store
            .session_user(&auth::token_hash(token), self.now())?)
    }

    /// Ends a session.
    ///
    /// # Errors
    /// Storage failure.
    pub fn logout(&self, token: &str) -> Result<(), ApiError> {
        Ok(self.store.delete_session(&auth::token_hash(token))?)
    }
}
