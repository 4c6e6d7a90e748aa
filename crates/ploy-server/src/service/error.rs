//! The one error type of the service: an HTTP status, a word for programs and a message
//! for people.

use crate::store::{Quota, StoreError};

/// An error for the client: the HTTP status, a word, and a message for people. The command
/// language prints `error STATUS: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{status} {word}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// One word for programs: `bad_request`, `forbidden`, `not_found`, `taken`, `game_over`,
    /// `stale`, `not_your_turn`, `no_offer`, `declined`, `rules_version`, `illegal_move`,
    /// `too_large`, `method_not_allowed`, `busy`, `throttled`, `too_many_commands`,
    /// `not_started`, `started`, `too_many_bot_games`, `too_many_invitations`,
    /// `storage_full`, `internal`.
    pub word: &'static str,
    /// What went wrong.
    pub message: String,
    /// When to try again, seconds: the HTTP API sends it as `Retry-After` (with `429
    /// throttled` and `503 busy`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error.
    #[must_use]
    pub fn new(status: u16, word: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            word,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The same error, telling the client to try again after `seconds` (at least 1).
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// `429 throttled`: too many failed password checks or new accounts from one client;
    /// try again after `seconds`.
    #[must_use]
    pub fn throttled(message: impl Into<String>, seconds: u64) -> ApiError {
        ApiError::new(429, "throttled", message).retry_after(seconds)
    }

    /// 400.
    #[must_use]
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(400, "bad_request", message)
    }

    /// 403.
    #[must_use]
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, "forbidden", message)
    }

    /// 404.
    #[must_use]
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, "not_found", message)
    }

    /// 409.
    #[must_use]
    pub fn conflict(word: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(409, word, message)
    }

    /// 500.
    #[must_use]
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, "internal", message)
    }

    pub(super) fn no_game(id: i64) -> ApiError {
        ApiError::not_found(format!("there is no board {id}"))
    }

    pub(super) fn bad_login() -> ApiError {
        ApiError::forbidden("unknown userid or wrong password")
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        if let StoreError::TooMany { quota, user, held } = &e {
            return match quota {
                Quota::BotGames => ApiError::new(
                    429,
                    "too_many_bot_games",
                    format!(
                        "{user} has {held} games waiting for the bot, the most allowed; \
                         try again when the bot has moved"
                    ),
                ),
                Quota::Invitations => ApiError::new(
                    429,
                    "too_many_invitations",
                    format!(
                        "{user} has {held} invitations waiting for people to join, the most \
                         allowed; cancel one (decline it) or wait for answers"
                    ),
                ),
            };
        }
        if e.is_full() {
            ApiError::new(
                507,
                "storage_full",
                "the server's storage is full; nothing was changed",
            )
        } else if e.is_busy() {
            ApiError::new(503, "busy", "the database is busy; try again").retry_after(1)
        } else {
            ApiError::internal(e.to_string())
        }
    }
}
