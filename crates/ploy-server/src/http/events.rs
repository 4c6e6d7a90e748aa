//! The event streams (Server-Sent Events) and the watcher that feeds them every change to
//! the events table.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use serde_json::json;
use tokio::sync::broadcast;

use super::{AppState, blocking, existing};
use crate::service::{ApiError, Service};
use crate::store::Event;

pub(super) fn event_stream(
    app: &AppState,
    game: Option<i64>,
    backlog: Vec<Event>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>> + use<>> {
    let rx = app.events.subscribe();
    let last = backlog.last().map_or(0, |e| e.seq);
    let hello = SseEvent::default()
        .event("ready")
        .data(json!({"game": game}).to_string());
    let first = futures_util::stream::iter(
        std::iter::once(Ok(hello)).chain(backlog.into_iter().map(|e| Ok(sse_of(&e)))),
    );
    let live = futures_util::stream::unfold((rx, last), move |(mut rx, last)| async move {
        loop {
            match rx.recv().await {
                Ok(e) if e.seq > last && game.is_none_or(|g| g == e.game_id) => {
                    let seq = e.seq;
                    return Some((Ok(sse_of(&e)), (rx, seq)));
                }
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    use futures_util::StreamExt as _;
    Sse::new(first.chain(live)).keep_alive(KeepAlive::new().interval(app.options.stream_keep_alive))
}

fn sse_of(e: &Event) -> SseEvent {
    SseEvent::default()
        .event(e.kind.clone())
        .id(e.seq.to_string())
        .data(json!({"seq": e.seq, "id": e.game_id, "ply": e.ply, "kind": e.kind}).to_string())
}

async fn backlog(
    app: &AppState,
    headers: &HeaderMap,
    game: Option<i64>,
) -> Result<Vec<Event>, ApiError> {
    let Some(last) = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok())
    else {
        return Ok(Vec::new());
    };
    let s = Arc::clone(&app.service);
    let events = blocking(move || Ok(s.store().events_after(last, 1000)?)).await?;
    Ok(events
        .into_iter()
        .filter(|e| game.is_none_or(|g| g == e.game_id))
        .collect())
}

pub(super) async fn game_events(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id = existing(&app.service, &id).await?;
    let backlog = backlog(&app, &headers, Some(id)).await?;
    Ok(event_stream(&app, Some(id), backlog).into_response())
}

pub(super) async fn all_events(
    State(app): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let backlog = backlog(&app, &headers, None).await?;
    Ok(event_stream(&app, None, backlog).into_response())
}

/// Watches the events table and hands every new change to the event streams: at once
/// when this process wrote it (`poke`), and within a quarter of a second when another
/// process (`ployd cmd`) did.
pub(super) fn start_watcher(
    service: &Arc<Service>,
    tx: broadcast::Sender<Event>,
) -> mpsc::Sender<()> {
    let (poke_tx, poke_rx) = mpsc::channel::<()>();
    let weak = Arc::downgrade(service);
    std::thread::Builder::new()
        .name("events".to_owned())
        .spawn(move || {
            // Read here, not in the caller's async context: a PostgreSQL client blocks.
            let mut last = weak
                .upgrade()
                .map_or(0, |s| s.store().last_event().unwrap_or(0));
            while !matches!(
                poke_rx.recv_timeout(Duration::from_millis(250)),
                Err(mpsc::RecvTimeoutError::Disconnected)
            ) {
                while poke_rx.try_recv().is_ok() {}
                let Some(service) = weak.upgrade() else { break };
                match service.store().events_after(last, 1000) {
                    Ok(events) => {
                        for e in events {
                            last = e.seq;
                            let _ = tx.send(e);
                        }
                    }
                    Err(e) => eprintln!("ployd: reading events: {e}"),
                }
            }
        })
        .expect("a thread for the event stream can start");
    poke_tx
}
