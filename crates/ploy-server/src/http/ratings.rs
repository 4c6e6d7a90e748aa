//! The ratings routes: a user's public profile (`GET /api/users/{id}`) and the
//! leaderboards (`GET /api/ratings?game=G&size=N&page=K`).

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;

use super::{AppState, blocking, json_response, query_value};
use crate::game::excerpt;
use crate::service::ApiError;

/// `GET /api/users/{id}`: the user's public profile with his ratings.
pub(super) async fn get_user(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let s = Arc::clone(&app.service);
    let profile = blocking(move || s.user_profile(&id)).await?;
    Ok(json_response(StatusCode::OK, &profile))
}

/// A positive whole number from the query's `name`, if given.
fn number_of(q: Option<&str>, name: &str, what: &str) -> Result<Option<u64>, ApiError> {
    match query_value(q, name) {
        None => Ok(None),
        Some(v) => match v.parse::<u64>() {
            Ok(n) if n > 0 && v.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
            _ => Err(ApiError::bad_request(format!(
                "`{name}={}` is not {what}",
                excerpt(&v)
            ))),
        },
    }
}

/// `GET /api/ratings?game=G&size=N&page=K`: a page of the leaderboard of a game type and
/// board size, best first.
pub(super) async fn get_ratings(
    State(app): State<AppState>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let q = q.as_deref();
    let game = query_value(q, "game")
        .ok_or_else(|| ApiError::bad_request("missing `game=` (a game type: `GET /api/types`)"))?;
    let size = number_of(q, "size", "a board size (a whole number from 1)")?
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let page = number_of(q, "page", "a page number (1, 2, ...)")?
        .map_or(1, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let s = Arc::clone(&app.service);
    let board = blocking(move || s.leaderboard(&game, size, page)).await?;
    Ok(json_response(StatusCode::OK, &board.to_json()))
}
