//! The one error type of the service: an HTTP status, a word for programs and a message
//! for people.

use crate::store::StoreError;

/// An error for the client: the HTTP status, a word, and a message for people. The command
/// language prints `error STATUS: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{status} {word}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// One word for programs: `bad_request`, `forbidden`, `not_found`, `taken`, `game_over`,
    /// `stale`, `not_your_turn`, `no_offer`, `declined`, `rules_version`, `illegal_move`,
    /// `too_large`, `method_not_allowed`, `busy`, `storage_full`, `internal`.
    pub word: &'static str,
    /// What went wrong.
    pub message: String,
}

impl ApiError {
    /// An error.
    #[must_use]
    pub fn new(status: u16, word: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            word,
            message: message.into(),
        }
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
        if e.is_full() {
            ApiError::new(
                507,
                "storage_full",
                "the server's storage is full; nothing was changed",
            )
        } else if e.is_busy() {
            ApiError::new(503, "busy", "the database is busy; try again")
        } else {
            ApiError::internal(e.to_string())
        }
    }
}
