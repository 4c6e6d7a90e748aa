//! Accounts and sessions: signing up, authenticating, signing in and out, changing a
//! password.
//!
//! Every argon2id computation runs on the service's hash workers
//! ([`HashWorkers`](super::hashing::HashWorkers)); a password sent by a client on the network
//! ([`Credentials::Remote`]) is checked under the throttles of its address
//! ([`throttle`](super::throttle)).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::Service;
use super::error::ApiError;
use crate::auth::{self, BOT};

/// Who is asking.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// A userid and password (checked against the stored hash), from the local machine
    /// (`ployd cmd`, a program using the library): not throttled.
    Password {
        /// The userid.
        userid: String,
        /// The password (never logged or stored).
        password: String,
    },
    /// A user already authenticated by a session cookie.
    Session(String),
    /// A userid and password that a client on the network sent: checked like
    /// [`Credentials::Password`], under the throttles of the client's address, and at most
    /// once per request when the request shares its [`Verdicts`].
    Remote {
        /// The userid.
        userid: String,
        /// The password (never logged or stored).
        password: String,
        /// The client's address.
        client: IpAddr,
        /// The verdicts already reached in the same request, if it keeps them.
        verdicts: Option<Arc<Verdicts>>,
    },
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Password { userid, .. } => write!(f, "Password({userid}, ***)"),
            Credentials::Session(u) => write!(f, "Session({u})"),
            Credentials::Remote { userid, client, .. } => {
                write!(f, "Remote({userid}, ***, from {client})")
            }
        }
    }
}

impl Credentials {
    /// A userid and password from `client` (a client on the network), or from the local
    /// machine when `client` is `None`.
    #[must_use]
    pub fn from_client(userid: &str, password: &str, client: Option<IpAddr>) -> Credentials {
        match client {
            Some(client) => Credentials::Remote {
                userid: userid.to_owned(),
                password: password.to_owned(),
                client,
                verdicts: None,
            },
            None => Credentials::Password {
                userid: userid.to_owned(),
                password: password.to_owned(),
            },
        }
    }

    /// The same credentials, sharing the verdicts of one request (a `Remote` password is
    /// then checked at most once in it).
    #[must_use]
    pub fn in_request(self, verdicts: &Arc<Verdicts>) -> Credentials {
        match self {
            Credentials::Remote {
                userid,
                password,
                client,
                ..
            } => Credentials::Remote {
                userid,
                password,
                client,
                verdicts: Some(Arc::clone(verdicts)),
            },
            other => other,
        }
    }
}

/// The verdicts of the password checks of one request (`POST /api/command`), so that a
/// (userid, password) pair named on many lines is checked once: the userid as stored, or
/// the refusal.
#[derive(Default)]
pub struct Verdicts(Mutex<HashMap<(String, String), Result<String, ApiError>>>);

impl Verdicts {
    /// No verdicts yet.
    #[must_use]
    pub fn new() -> Verdicts {
        Verdicts::default()
    }

    /// Forgets every verdict about `userid` (its password changed).
    fn forget(&self, userid: &str) {
        self.map()
            .retain(|(u, _), _| !u.eq_ignore_ascii_case(userid));
    }

    fn map(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<(String, String), Result<String, ApiError>>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl std::fmt::Debug for Verdicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Verdicts({} pairs)", self.map().len())
    }
}

/// The verdicts of one request are the same only as themselves.
impl PartialEq for Verdicts {
    fn eq(&self, other: &Verdicts) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Verdicts {}

impl Service {
    /// Creates an account.
    ///
    /// # Errors
    /// 400 for a bad userid or password, 409 if the userid is taken or reserved.
    pub fn signup(&self, userid: &str, password: &str) -> Result<String, ApiError> {
        self.signup_from(userid, password, None)
    }

    /// Creates an account for `client` (a client on the network, counted against the new
    /// accounts its address may make; `None`: the local machine, not counted).
    ///
    /// # Errors
    /// 400 for a bad userid or password, 409 if the userid is taken or reserved, 429 when
    /// the address has made its share of accounts, 503 when the hash workers are busy (or,
    /// on PostgreSQL, the database cannot count the account against its address).
    pub fn signup_from(
        &self,
        userid: &str,
        password: &str,
        client: Option<IpAddr>,
    ) -> Result<String, ApiError> {
        auth::check_new_userid(userid).map_err(ApiError::bad_request)?;
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
        // A place among the hash workers first, so that a busy server counts no account.
        let ticket = self.hashers.reserve()?;
        if let Some(client) = client {
            self.throttle.signup(&self.store, client)?;
        }
        let owned = password.to_owned();
        let params = self.config.hash;
        let hash = ticket
            .run(move |memory| auth::hash_password_in(&owned, params, memory))?
            .map_err(ApiError::internal)?;
        if !self.store.create_user(userid, &hash, self.now())? {
            return Err(ApiError::conflict(
                "taken",
                format!("the userid `{userid}` is taken"),
            ));
        }
        Ok(userid.to_owned())
    }

    /// The argon2id hash of a new password, computed on a hash worker.
    fn hash(&self, password: &str) -> Result<String, ApiError> {
        let password = password.to_owned();
        let params = self.config.hash;
        self.hashers
            .run(move |memory| auth::hash_password_in(&password, params, memory))?
            .map_err(ApiError::internal)
    }

    /// Checks a userid and password against the stored hash on a hash worker; an unknown
    /// userid takes the same time and answers the same as a wrong password.
    fn check_password(&self, userid: &str, password: &str) -> Result<String, ApiError> {
        if auth::check_userid(userid).is_err() || password.len() > auth::MAX_PASSWORD_BYTES {
            return Err(ApiError::bad_login());
        }
        // The place among the hash workers first: a request beyond the bound does no work.
        let ticket = self.hashers.reserve()?;
        let found = self.store.user(userid)?;
        let password = password.to_owned();
        let params = self.config.hash;
        let stored = ticket.run(move |memory| match found {
            Some((stored, hash)) => {
                auth::verify_password_in(&password, &hash, memory).then_some(stored)
            }
            None => {
                auth::verify_nothing_in(&password, params, memory);
                None
            }
        })?;
        stored.ok_or_else(ApiError::bad_login)
    }

    /// Checks credentials; returns the userid as stored.
    ///
    /// # Errors
    /// 403 for an unknown userid or a wrong password (the same message for both); for
    /// [`Credentials::Remote`], 429 while the client's address (or the address and userid)
    /// is throttled; 503 when the hash workers are busy, or (on PostgreSQL, where the
    /// throttles are in the database) when the database cannot check the throttles or count
    /// a failure (then no 403 is given).
    pub fn authenticate(&self, credentials: &Credentials) -> Result<String, ApiError> {
        match credentials {
            Credentials::Session(u) => Ok(u.clone()),
            Credentials::Password { userid, password } => self.check_password(userid, password),
            Credentials::Remote {
                userid,
                password,
                client,
                verdicts,
            } => {
                let key = (userid.to_ascii_lowercase(), password.clone());
                if let Some(known) = verdicts.as_ref().and_then(|v| v.map().get(&key).cloned()) {
                    return known;
                }
                self.throttle.admit(&self.store, *client, userid)?;
                let verdict = self.check_password(userid, password);
                let settled = match &verdict {
                    Ok(_) => true,
                    Err(e) => e.status == 403,
                };
                if verdict.is_err() && settled {
                    self.throttle.failed(&self.store, *client, userid)?;
                }
                if settled && let Some(v) = verdicts {
                    v.map().insert(key, verdict.clone());
                }
                verdict
            }
        }
    }

    /// Opens a session; returns the token (for the cookie) and the userid.
    ///
    /// # Errors
    /// 403 for bad credentials.
    pub fn login(&self, userid: &str, password: &str) -> Result<(String, String), ApiError> {
        self.open_session(&Credentials::Password {
            userid: userid.to_owned(),
            password: password.to_owned(),
        })
    }

    /// Opens a session for `credentials`; returns the token (for the cookie) and the
    /// userid.
    ///
    /// # Errors
    /// As [`Service::authenticate`].
    pub fn open_session(&self, credentials: &Credentials) -> Result<(String, String), ApiError> {
        let user = self.authenticate(credentials)?;
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

    /// Ends every session of the user of session `token` (signing out everywhere); the
    /// userid, if the session was live.
    ///
    /// # Errors
    /// Storage failure.
    pub fn logout_everywhere(&self, token: &str) -> Result<Option<String>, ApiError> {
        let Some(user) = self.session_user(token)? else {
            return Ok(None);
        };
        self.store.delete_sessions_of(&user)?;
        Ok(Some(user))
    }

    /// Changes the password of the user of `credentials` to `new_password`, and ends every
    /// session of the user but `keep` (the session token the request came with, if any).
    /// Returns the userid.
    ///
    /// # Errors
    /// 400 for a new password that breaks the rules; as [`Service::authenticate`] (403 for
    /// a wrong password); nothing changes on any error.
    pub fn change_password(
        &self,
        credentials: &Credentials,
        new_password: &str,
        keep: Option<&str>,
    ) -> Result<String, ApiError> {
        auth::check_password(new_password)
            .map_err(|e| ApiError::bad_request(format!("the new password: {e}")))?;
        if matches!(credentials, Credentials::Session(_)) {
            return Err(ApiError::forbidden(
                "changing a password takes the current password",
            ));
        }
        let user = self.authenticate(credentials)?;
        let hash = self.hash(new_password)?;
        let keep = keep.map(auth::token_hash);
        if !self.store.set_password(&user, &hash, keep.as_deref())? {
            return Err(ApiError::bad_login());
        }
        // Later lines of the same request must check the new password, not reuse the old.
        if let Credentials::Remote {
            verdicts: Some(v), ..
        } = credentials
        {
            v.forget(&user);
        }
        Ok(user)
    }
}
