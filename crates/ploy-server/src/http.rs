//! The HTTP API (axum on tokio): JSON routes, the command route, Server-Sent Events.
//!
//! Every service call runs on tokio's blocking pool (`spawn_blocking`): SQLite and replays
//! never hold up the async workers; argon2 runs on the service's hash workers and bot
//! searches on their own threads.
//!
//! Checks come in this order, the first failure answers: 403 `cross_origin` for a
//! cookie-bearing action from another origin (`guard.rs`, before any route); 408 a body
//! slower than the body timeout (it is read whole before the handler runs); 404 unknown
//! game; 415 a non-empty body not marked `application/json`; 400 malformed body or missing
//! field; 403 unknown user, wrong password, or no seat; 409 game over, stale `ply`, not the
//! user's turn; 422 an illegal move. Where a password is checked, a throttled client
//! address gets 429 `throttled` and full hash workers 503 `busy`, both with `Retry-After`.
//! Every error body is
//! `{"error": word, "message": text}`, including the framework's own (unknown route, wrong
//! method, oversized body), which a last layer rewrites.
//!
//! Outside that, [`tower_http`]'s header layers give every response (API answers, page
//! files, errors, 404s, event streams) `X-Content-Type-Options: nosniff`,
//! `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and, unless it has its own
//! policy (the page's, which already says so), `Content-Security-Policy: frame-ancestors
//! 'none'`. Every response but the page's own files (which hold no user data and keep
//! `Cache-Control: no-cache`) answers `Cache-Control: no-store`: so every `/api/` answer,
//! the signed-in ones among them, is never stored by a browser or a proxy. With
//! `secure_cookies` the session cookie is `Secure` (sent over HTTPS only).
//!
//! Connections are served by hyper directly (`conn.rs`), with hyper's header timeout, an
//! idle limit for kept-alive connections and a cap on open connections; see
//! [`ServeOptions`].

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use serde_json::{Value, json};
use tokio::sync::broadcast;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::command;
use crate::page;
use crate::service::{ApiError, Credentials, Service, Setup, Verdicts};
use crate::store::{Event, Summary};
use bodies::{Account, Challenge, Empty, NewPassword, PlayMove, SeatsOf, Who};
use client::Client;
use guard::RequestBody;
pub use guard::parse_public_origin;
pub use options::ServeOptions;

mod bodies;
mod client;
mod conn;
mod events;
mod guard;
mod options;
mod ratings;

/// The largest request body accepted, bytes.
pub const MAX_BODY: usize = 64 * 1024;

/// The session cookie's name.
pub const COOKIE: &str = "ployd_session";

#[derive(Clone)]
struct AppState {
    service: Arc<Service>,
    events: broadcast::Sender<Event>,
    /// What `ployd serve` was told.
    options: Arc<ServeOptions>,
}

/// Marks a response as one of the page's own files, which keep their `Cache-Control`.
#[derive(Clone, Copy)]
struct PageFile;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut res = json_response(
            status,
            &json!({"error": self.word, "message": self.message}),
        );
        if let Some(seconds) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        res
    }
}

/// Runs `f` on the blocking pool.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|e| Err(ApiError::internal(format!("the request failed: {e}"))))
}

fn json_response(status: StatusCode, value: &Value) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}

// ----------------------------------------------------------------------------------------
// Request reading.
// ----------------------------------------------------------------------------------------

fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_owned())
}

/// The credentials of a request from `client`: `userid` and `password` in the body
/// (checked under the throttles of the client's address), or the session cookie. Missing
/// fields without a cookie are 400; a dead session is 403. (The body's reader has already
/// checked that both, when given, are strings.)
fn credentials(
    service: &Service,
    headers: &HeaderMap,
    who: Who,
    client: Client,
) -> Result<Credentials, ApiError> {
    let Who { userid, password } = who;
    if let (Some(userid), Some(password)) = (&userid, password) {
        return Ok(Credentials::from_client(userid, &password, Some(client.ip)));
    }
    let Some(token) = cookie_token(headers) else {
        let missing = if userid.is_none() {
            "userid"
        } else {
            "password"
        };
        return Err(ApiError::bad_request(format!(
            "missing field `{missing}` (or sign in for a session cookie)"
        )));
    };
    let user = service
        .session_user(&token)?
        .ok_or_else(|| ApiError::forbidden("the session has ended; sign in again"))?;
    match userid {
        Some(u) if !u.eq_ignore_ascii_case(&user) => Err(ApiError::forbidden(format!(
            "the session is {user}'s, not {u}'s"
        ))),
        _ => Ok(Credentials::Session(user)),
    }
}

fn query_value(query: Option<&str>, name: &str) -> Option<String> {
    query?
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

fn board_id(text: &str) -> Result<i64, ApiError> {
    match text.parse::<i64>() {
        Ok(n) if n > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(ApiError::not_found(format!(
            "there is no board `{}`",
            crate::game::excerpt(text)
        ))),
    }
}

/// 404 first: the board must exist before the body is looked at.
async fn existing(service: &Arc<Service>, id: &str) -> Result<i64, ApiError> {
    let id = board_id(id)?;
    let s = Arc::clone(service);
    let found = blocking(move || s.exists(id)).await?;
    if found {
        Ok(id)
    } else {
        Err(ApiError::not_found(format!("there is no board {id}")))
    }
}

fn summary_json(g: &Summary) -> Value {
    json!({
        "id": g.id,
        "game": g.game,
        "options": g.options,
        "players": g.players,
        "ply": g.ply,
        "status": g.status(),
        "waiting_for": g.waiting_for,
        "to_move": g.to_move_seat.and_then(|s| g.players.get(s)),
        "to_move_seat": g.to_move_seat,
        "result": g.result,
    })
}

// ----------------------------------------------------------------------------------------
// Handlers.
// ----------------------------------------------------------------------------------------

/// A file of the page (`/`, `/page/...`), with a policy that allows no other server.
fn page_file(path: &str) -> Result<Response, ApiError> {
    let asset = page::asset(path).ok_or_else(|| {
        ApiError::not_found(format!(
            "the page has no file `{}`",
            crate::game::excerpt(path)
        ))
    })?;
    let mut res = (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::CACHE_CONTROL, "no-cache"),
            (header::CONTENT_SECURITY_POLICY, page::CSP),
        ],
        asset.body,
    )
        .into_response();
    res.extensions_mut().insert(PageFile);
    Ok(res)
}

async fn index() -> Result<Response, ApiError> {
    page_file("/")
}

async fn page_asset(Path(file): Path<String>) -> Result<Response, ApiError> {
    page_file(&format!("/page/{file}"))
}

async fn create_user(
    State(app): State<AppState>,
    client: Client,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let Account {
        userid,
        password,
        email,
    } = body.read(Empty::Refused)?;
    // A bad address refuses the signup before the account is made.
    let email = email
        .as_deref()
        .map(crate::mail::check_address)
        .transpose()?;
    let s = Arc::clone(&app.service);
    let user = blocking(move || {
        let user = s.signup_from(&userid, &password, Some(client.ip))?;
        if let Some(address) = &email {
            s.send_code(&user, address)?;
        }
        Ok::<_, ApiError>(user)
    })
    .await?;
    Ok(json_response(StatusCode::CREATED, &json!({"userid": user})))
}

/// The session cookie; `Secure` when `secure` (`ployd serve --secure-cookies`).
fn session_cookie(token: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("ployd_session=; Path=/"))
}

impl AppState {
    /// Whether the session cookie sent to `client` carries `Secure`.
    fn secure_cookie(&self, client: Client) -> bool {
        self.options.secure_cookies || client.https
    }
}

async fn create_session(
    State(app): State<AppState>,
    client: Client,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let Account {
        userid, password, ..
    } = body.read(Empty::Refused)?;
    let s = Arc::clone(&app.service);
    let (token, user) = blocking(move || {
        s.open_session(&Credentials::from_client(
            &userid,
            &password,
            Some(client.ip),
        ))
    })
    .await?;
    let mut res = json_response(StatusCode::CREATED, &json!({"userid": user}));
    res.headers_mut().insert(
        header::SET_COOKIE,
        session_cookie(&token, 30 * 24 * 3600, app.secure_cookie(client)),
    );
    Ok(res)
}

async fn get_session(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let user = match cookie_token(&headers) {
        Some(token) => {
            let s = Arc::clone(&app.service);
            blocking(move || s.session_user(&token)).await?
        }
        None => None,
    };
    Ok(json_response(StatusCode::OK, &json!({"userid": user})))
}

/// `DELETE /api/sessions`: signs out (with `?all=1`: ends every session of the user, on
/// every device).
async fn delete_session(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let everywhere = match query_value(q.as_deref(), "all").as_deref() {
        None | Some("0") => false,
        Some("1") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "`all={}` is not 0 or 1",
                crate::game::excerpt(other)
            )));
        }
    };
    if let Some(token) = cookie_token(&headers) {
        let s = Arc::clone(&app.service);
        if everywhere {
            blocking(move || s.logout_everywhere(&token).map(drop)).await?;
        } else {
            blocking(move || s.logout(&token)).await?;
        }
    }
    let mut res = StatusCode::NO_CONTENT.into_response();
    res.headers_mut().insert(
        header::SET_COOKIE,
        session_cookie("", 0, app.secure_cookie(client)),
    );
    Ok(res)
}

/// `POST /api/password`: changes the password (the current one is always needed) and ends
/// the user's other sessions.
async fn change_password(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let NewPassword {
        new_password,
        who: Who { userid, password },
    } = body.read(Empty::Refused)?;
    let Some(password) = password else {
        return Err(ApiError::bad_request(
            "missing field `password` (the current password)",
        ));
    };
    let s = Arc::clone(&app.service);
    let token = cookie_token(&headers);
    blocking(move || {
        let userid = match (userid, &token) {
            (Some(u), _) => u,
            (None, Some(token)) => s
                .session_user(token)?
                .ok_or_else(|| ApiError::forbidden("the session has ended; sign in again"))?,
            (None, None) => {
                return Err(ApiError::bad_request(
                    "missing field `userid` (or sign in for a session cookie)",
                ));
            }
        };
        let creds = Credentials::from_client(&userid, &password, Some(client.ip));
        s.change_password(&creds, &new_password, token.as_deref())
    })
    .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn list_types(State(app): State<AppState>) -> Response {
    let types: Vec<Value> = app
        .service
        .registry()
        .iter()
        .map(|g| {
            // The game's options, then the server's `-level` (for a game with a bot seat)
            // and `-rated` (for a game of two people).
            let options: Vec<Value> = g
                .options()
                .iter()
                .chain([&crate::game::LEVEL_OPTION, &crate::game::RATED_OPTION])
                .map(|o| {
                    let (kind, extra) = match o.kind {
                        crate::game::OptionKind::Flag => ("flag", json!(null)),
                        crate::game::OptionKind::Number { min, max } => {
                            ("number", json!({"min": min, "max": max}))
                        }
                        crate::game::OptionKind::Choice(words) => ("choice", json!(words)),
                    };
                    json!({"name": o.name, "aliases": o.aliases, "kind": kind,
                           "values": extra, "help": o.help})
                })
                .collect();
            json!({"name": g.name(), "rules_version": g.rules_version(),
                   "options": options, "help": g.help()})
        })
        .collect();
    json_response(StatusCode::OK, &json!({"types": types}))
}

fn setup_json(s: &Setup) -> Value {
    json!({
        "game": s.game,
        "options": s.options,
        "players": {"min": s.min_players, "max": s.max_players},
        "seats": s.seats,
    })
}

async fn type_seats(
    State(app): State<AppState>,
    Path(name): Path<String>,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let SeatsOf { options } = body.read(Empty::NoFields)?;
    let s = Arc::clone(&app.service);
    let setup = blocking(move || s.setup(&name, &options)).await?;
    Ok(json_response(StatusCode::OK, &setup_json(&setup)))
}

async fn list_games(
    State(app): State<AppState>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let user = query_value(q.as_deref(), "user");
    let filter = query_value(q.as_deref(), "filter").unwrap_or_else(|| "all".to_owned());
    let game = query_value(q.as_deref(), "game");
    let page = match query_value(q.as_deref(), "page") {
        None => 1,
        Some(p) => p.parse::<usize>().map_err(|_| {
            ApiError::bad_request(format!(
                "`page={}` is not a page number (1, 2, ...)",
                crate::game::excerpt(&p)
            ))
        })?,
    };
    let s = Arc::clone(&app.service);
    let (games, next_page) =
        blocking(move || s.games_page(user.as_deref(), &filter, game.as_deref(), page)).await?;
    let games: Vec<Value> = games.iter().map(summary_json).collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({"games": games, "page": page, "next_page": next_page}),
    ))
}

async fn create_game(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let Challenge {
        game,
        options,
        players,
        who,
    } = body.read(Empty::Refused)?;
    let s = Arc::clone(&app.service);
    let view = blocking(move || {
        let creds = credentials(&s, &headers, who, client)?;
        s.challenge(&game, &options, &creds, &players)
    })
    .await?;
    Ok(json_response(StatusCode::CREATED, &view.to_json()))
}

async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let id = existing(&app.service, &id).await?;
    let ply = match query_value(q.as_deref(), "ply") {
        Some(p) => Some(p.parse::<usize>().map_err(|_| {
            ApiError::bad_request(format!(
                "`ply={}` is not a move number",
                crate::game::excerpt(&p)
            ))
        })?),
        None => None,
    };
    let s = Arc::clone(&app.service);
    let view = blocking(move || s.view(id, ply)).await?;
    Ok(json_response(StatusCode::OK, &view.to_json()))
}

/// `GET /api/games/{id}/record`: the game's record as a file to download.
async fn get_record(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = existing(&app.service, &id).await?;
    let s = Arc::clone(&app.service);
    let (file, name) = blocking(move || s.record(id)).await?;
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, file.media_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        file.text,
    )
        .into_response())
}

async fn post_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    client: Client,
    headers: HeaderMap,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let id = existing(&app.service, &id).await?;
    let PlayMove { text, ply, who } = body.read(Empty::Refused)?;
    let s = Arc::clone(&app.service);
    let view = blocking(move || {
        let creds = credentials(&s, &headers, who, client)?;
        s.play(id, &creds, &text, Some(ply))
    })
    .await?;
    Ok(json_response(StatusCode::OK, &view.to_json()))
}

async fn game_action(
    app: AppState,
    id: String,
    client: Client,
    headers: HeaderMap,
    body: RequestBody,
    action: &'static str,
) -> Result<Response, ApiError> {
    let id = existing(&app.service, &id).await?;
    let who: Who = body.read(Empty::Refused)?;
    let s = Arc::clone(&app.service);
    let view = blocking(move || {
        let creds = credentials(&s, &headers, who, client)?;
        match action {
            "resign" => s.resign(id, &creds),
            "join" => s.join(id, &creds),
            "decline" => s.decline(id, &creds),
            _ => s.draw(id, &creds, action),
        }
    })
    .await?;
    Ok(json_response(StatusCode::OK, &view.to_json()))
}

/// `POST /api/games/{id}/rematch`: a new game with the same options, the seats rotated.
async fn rematch_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    client: Client,
    headers: HeaderMap,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let id = existing(&app.service, &id).await?;
    let who: Who = body.read(Empty::Refused)?;
    let s = Arc::clone(&app.service);
    let view = blocking(move || {
        let creds = credentials(&s, &headers, who, client)?;
        s.rematch(id, &creds)
    })
    .await?;
    Ok(json_response(StatusCode::CREATED, &view.to_json()))
}

/// The route of a game action (`resign`, `propose`, `accept`, `reject`, `join`,
/// `decline`): one handler for them all, told which action it serves.
fn action_route(action: &'static str) -> MethodRouter<AppState> {
    post(
        move |State(app): State<AppState>,
              Path(id): Path<String>,
              client: Client,
              headers: HeaderMap,
              body: RequestBody| game_action(app, id, client, headers, body, action),
    )
}

async fn inbox(
    app: AppState,
    client: Client,
    headers: HeaderMap,
    who: Who,
    after: i64,
) -> Result<Response, ApiError> {
    let s = Arc::clone(&app.service);
    let (notes, invitations) = blocking(move || {
        let creds = credentials(&s, &headers, who, client)?;
        let user = s.authenticate(&creds)?;
        Ok((s.inbox(&user, after)?, s.invitations_for(&user)?))
    })
    .await?;
    let invitations: Vec<Value> = invitations.iter().map(summary_json).collect();
    let notes: Vec<Value> = notes
        .iter()
        .map(|n| {
            json!({"id": n.id, "at": n.at, "game": n.note.game_id,
                   "subject": n.note.subject, "body": n.note.body})
        })
        .collect();
    Ok(json_response(
        StatusCode::OK,
        &json!({"notes": notes, "invitations": invitations}),
    ))
}

fn after_param(q: Option<&str>) -> Result<i64, ApiError> {
    match query_value(q, "after") {
        Some(a) => a
            .parse::<i64>()
            .map_err(|_| ApiError::bad_request("`after` must be a note number")),
        None => Ok(0),
    }
}

async fn get_inbox(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
) -> Result<Response, ApiError> {
    let after = after_param(q.as_deref())?;
    inbox(app, client, headers, Who::default(), after).await
}

async fn post_inbox(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let after = after_param(q.as_deref())?;
    let who: Who = body.read(Empty::NoFields)?;
    inbox(app, client, headers, who, after).await
}

/// The most command lines one `POST /api/command` may hold.
pub const MAX_COMMANDS: usize = 32;

/// Once the replies of one `POST /api/command` reach this many bytes, its remaining lines
/// are not run.
pub const MAX_COMMAND_REPLY: usize = 1024 * 1024;

async fn post_command(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: RequestBody,
) -> Result<Response, ApiError> {
    let text = std::str::from_utf8(&body.bytes)
        .map_err(|_| ApiError::bad_request("the command is not UTF-8 text"))?
        .to_owned();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    if lines.is_empty() {
        return Err(ApiError::bad_request("the request holds no command"));
    }
    if lines.len() > MAX_COMMANDS {
        return Err(ApiError::new(
            413,
            "too_many_commands",
            format!(
                "the request holds {} commands; at most {MAX_COMMANDS} run in one request",
                lines.len()
            ),
        ));
    }
    let s = Arc::clone(&app.service);
    let out = blocking(move || {
        let token = cookie_token(&headers);
        let session = match &token {
            Some(token) => s.session_user(token)?,
            None => None,
        };
        let caller = command::Caller {
            session_token: session.as_ref().and(token),
            session,
            client: Some(client.ip),
            verdicts: Arc::new(Verdicts::new()),
        };
        let too_large =
            command::Reply::error(&ApiError::new(413, "too_large", "reply too large")).framed();
        let mut out = String::new();
        for line in &lines {
            if out.len() >= MAX_COMMAND_REPLY {
                out.push_str(&too_large);
            } else {
                out.push_str(&command::execute_for(&s, line, &caller).framed());
            }
        }
        Ok(out)
    })
    .await?;
    Ok((
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        out,
    )
        .into_response())
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such route; the API is under /api/ (see docs/server.md)")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        405,
        "method_not_allowed",
        "this route does not take that method",
    )
}

/// Rewrites the framework's own error responses (oversized bodies, malformed requests)
/// into the JSON error body.
async fn json_errors(res: Response) -> Response {
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if status.as_u16() < 400 || is_json {
        return res;
    }
    let word = match status.as_u16() {
        400 => "bad_request",
        404 => "not_found",
        405 => "method_not_allowed",
        413 => "too_large",
        415 => "unsupported_media_type",
        s if s >= 500 => "internal",
        _ => "error",
    };
    let message = match status.as_u16() {
        413 => format!("the request body is larger than {MAX_BODY} bytes"),
        _ => status
            .canonical_reason()
            .unwrap_or("the request was refused")
            .to_owned(),
    };
    let mut out = ApiError::new(status.as_u16(), word, message).into_response();
    if let Some(allow) = res.headers().get(header::ALLOW) {
        out.headers_mut().insert(header::ALLOW, allow.clone());
    }
    out
}

/// The routes over `service`, with a channel of changes for the event streams.
fn router(app: AppState) -> Router {
    let router = Router::new()
        .route("/", get(index))
        .route("/api/users", post(create_user))
        .route(
            "/api/sessions",
            post(create_session).get(get_session).delete(delete_session),
        )
        .route("/api/password", post(change_password))
        .route("/page/{file}", get(page_asset))
        .route("/api/types", get(list_types))
        .route("/api/users/{id}", get(ratings::get_user))
        .route("/api/ratings", get(ratings::get_ratings))
        .route("/api/types/{name}/seats", post(type_seats))
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", post(post_move))
        .route("/api/games/{id}/record", get(get_record))
        .route("/api/games/{id}/rematch", post(rematch_game))
        .route("/api/games/{id}/resign", action_route("resign"))
        .route("/api/games/{id}/propose", action_route("propose"))
        .route("/api/games/{id}/accept", action_route("accept"))
        .route("/api/games/{id}/reject", action_route("reject"))
        .route("/api/games/{id}/join", action_route("join"))
        .route("/api/games/{id}/decline", action_route("decline"))
        .route("/api/games/{id}/events", get(events::game_events))
        .route("/api/events", get(events::all_events))
        .route("/api/inbox", get(get_inbox).post(post_inbox))
        .route("/api/command", post(post_command))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            guard::same_origin,
        ))
        .layer(axum::middleware::map_response(json_errors));
    // The headers every response carries (see the module's documentation), outside every
    // other layer, so that rewritten errors and the fallback's 404s get them too.
    let router = ALWAYS.into_iter().fold(router, |router, (name, value)| {
        router.layer(SetResponseHeaderLayer::overriding(
            name,
            HeaderValue::from_static(value),
        ))
    });
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("frame-ancestors 'none'"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            no_store,
        ))
        .with_state(app)
}

/// The headers every response carries as they are (the page's own policy already forbids
/// framing; other responses get `frame-ancestors 'none'` as their policy).
const ALWAYS: [(header::HeaderName, &str); 3] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
];

/// `Cache-Control: no-store` for every response but the page's own files.
fn no_store(res: &Response) -> Option<HeaderValue> {
    res.extensions()
        .get::<PageFile>()
        .is_none()
        .then(|| HeaderValue::from_static("no-store"))
}

/// Serves the API on `listener` until Ctrl-C or SIGTERM, with `options` (timers, limits,
/// cookies, the proxy).
///
/// # Errors
/// The listener fails.
pub async fn serve(
    service: Arc<Service>,
    listener: tokio::net::TcpListener,
    options: ServeOptions,
) -> std::io::Result<()> {
    let timer_interval = options.timer_interval;
    let (tx, _) = broadcast::channel::<Event>(4096);
    let poke = std::sync::Mutex::new(events::start_watcher(&service, tx.clone()));
    service.set_on_change(Box::new(move || {
        let _ = poke
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .send(());
    }));
    let timers = Arc::clone(&service);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(timer_interval.max(Duration::from_millis(100)));
        loop {
            tick.tick().await;
            let s = Arc::clone(&timers);
            if let Err(e) = blocking(move || s.sweep_timers()).await {
                eprintln!("ployd: timers: {e}");
            }
        }
    });
    let options = Arc::new(options);
    let app = router(AppState {
        service,
        events: tx,
        options: Arc::clone(&options),
    });
    // On Ctrl-C or SIGTERM: stop accepting, let requests finish, but do not wait more than
    // two seconds for open event streams (every write is already durable).
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown().await;
        let _ = stop_tx.send(true);
    });
    conn::serve(listener, app, &options, stop_rx).await
}

async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
