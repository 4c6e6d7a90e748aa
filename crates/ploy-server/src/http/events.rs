//! The event streams (Server-Sent Events) and the watcher that feeds them every change to
//! the events table.

use std::convert::Infallible;
use std::sync::mpsc;
use std::sync::{Arc, Weak};
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
use crate::store::{Channel, Event};

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

/// Watches the events table and hands every new change to the event streams. On SQLite:
/// at once when this process wrote it (`poke`), and within a quarter of a second when
/// another process (`ployd cmd`) did. On PostgreSQL: when the database notifies an insert
/// into `events` (`LISTEN ployd_events`), whichever process wrote it.
pub(super) fn start_watcher(
    service: &Arc<Service>,
    tx: broadcast::Sender<Event>,
) -> mpsc::Sender<()> {
    let (poke_tx, poke_rx) = mpsc::channel::<()>();
    let weak = Arc::downgrade(service);
    if service.store().is_postgres() {
        std::thread::Builder::new()
            .name("events".to_owned())
            .spawn(move || listen(&weak, &tx))
            .expect("a thread for the event stream can start");
        return poke_tx;
    }
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

/// The watcher on PostgreSQL: listens, reads what was written since the last event handed
/// on (after connecting, and after each notification), and connects again when the
/// connection fails. The one-second wait only lets the thread notice that the server
/// stopped; events come by notification.
fn listen(service: &Weak<Service>, tx: &broadcast::Sender<Event>) {
    let mut last = None;
    loop {
        let Some(s) = service.upgrade() else { break };
        let listener = s.store().listen(&[Channel::Events]);
        let mut listener = match listener {
            Ok(l) => l,
            Err(e) => {
                eprintln!("ployd: events: cannot listen: {e}");
                drop(s);
                std::thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        // Listening from now on: what was written before is read here.
        let mut since = match last {
            Some(n) => n,
            None => match s.store().last_event() {
                Ok(n) => n,
                Err(e) => {
                    eprintln!("ployd: reading events: {e}");
                    drop(s);
                    std::thread::sleep(Duration::from_secs(1));
                    continue;
                }
            },
        };
        let hand_on = |s: &Service, since: &mut i64| {
            loop {
                match s.store().events_after(*since, 1000) {
                    Ok(events) => {
                        let full = events.len() == 1000;
                        for e in events {
                            *since = e.seq;
                            let _ = tx.send(e);
                        }
                        if !full {
                            break;
                        }
                    }
                    Err(e) => {
                        eprintln!("ployd: reading events: {e}");
                        break;
                    }
                }
            }
        };
        hand_on(&s, &mut since);
        drop(s);
        loop {
            last = Some(since);
            match listener.wait(Duration::from_secs(1)) {
                Ok(notified) => {
                    let Some(s) = service.upgrade() else { return };
                    if notified {
                        hand_on(&s, &mut since);
                    }
                }
                Err(e) => {
                    eprintln!("ployd: events: the listening connection failed: {e}");
                    break;
                }
            }
        }
    }
}
