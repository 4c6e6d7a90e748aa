//! The bot workers of `ployd serve` on PostgreSQL, where several processes share one
//! database: the queue is the database's (`store/pg/shared.rs`), so a game waiting for the
//! bot is played by exactly one process, in the same fair order across users as one
//! process's queue, and a game whose process died is played by another.
//!
//! One thread per process listens for the notification of a queued game (`LISTEN
//! ployd_bots`) and wakes the worker threads, which claim games until none is left. The
//! listening connection names the process in its claims; when the connection or the
//! process is gone, the claims are free again. Every `--bot-recheck` the workers look
//! again even without a notification: that is how a claim of a process that died (which
//! sends no notification) is taken over.

use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};
use std::time::Duration;

use super::Service;
use crate::store::{Channel, Claimer};

#[derive(Debug, Default)]
struct State {
    /// Counts the wake-ups: a worker that found nothing waits for the next.
    generation: u64,
    /// This process's name in claims, once its listener is connected.
    claimer: Option<Claimer>,
    closed: bool,
}

/// What the listener and the workers of one process share.
#[derive(Debug, Default)]
pub(super) struct SharedBots {
    state: Mutex<State>,
    woken: Condvar,
}

impl SharedBots {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes every worker to look for games to claim.
    pub(super) fn wake(&self) {
        self.lock().generation += 1;
        self.woken.notify_all();
    }

    /// Stops the workers and the listener.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.woken.notify_all();
    }

    fn set_claimer(&self, claimer: Option<Claimer>) {
        self.lock().claimer = claimer;
    }

    /// The claimer to claim with and the generation seen, waiting while there is no
    /// claimer; `None` once closed.
    fn current(&self) -> Option<(Claimer, u64)> {
        let mut st = self.lock();
        loop {
            if st.closed {
                return None;
            }
            if let Some(c) = &st.claimer {
                return Some((c.clone(), st.generation));
            }
            st = self.woken.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Waits for a wake-up after generation `seen`; `false` once closed.
    fn wait_after(&self, seen: u64) -> bool {
        let mut st = self.lock();
        while !st.closed && st.generation == seen {
            st = self.woken.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
        !st.closed
    }
}

/// Starts the listener and `threads` workers of `service` (which holds `shared`).
pub(super) fn start(
    service: &Arc<Service>,
    shared: &Arc<SharedBots>,
    threads: usize,
    recheck: Duration,
) -> std::io::Result<()> {
    let weak = Arc::downgrade(service);
    let bots = Arc::clone(shared);
    std::thread::Builder::new()
        .name("bot-listener".to_owned())
        .spawn(move || listen(&weak, &bots, recheck))?;
    for i in 0..threads.max(1) {
        let weak = Arc::downgrade(service);
        let bots = Arc::clone(shared);
        std::thread::Builder::new()
            .name(format!("bot-{i}"))
            .spawn(move || work(&weak, &bots))?;
    }
    Ok(())
}

/// The listener: (re)connects, queues games that wait unqueued, and wakes the workers on
/// every notification and every `recheck`.
fn listen(service: &Weak<Service>, bots: &SharedBots, recheck: Duration) {
    loop {
        let Some(s) = service.upgrade() else { break };
        if bots.lock().closed {
            break;
        }
        let listener = s.store().listen(&[Channel::Bots]);
        if let Err(e) = s.store().queue_waiting_games() {
            eprintln!("ployd: bot queue: {e}");
        }
        drop(s);
        let mut listener = match listener {
            Ok(l) => l,
            Err(e) => {
                eprintln!("ployd: bot queue: cannot listen: {e}");
                bots.set_claimer(None);
                std::thread::sleep(recheck);
                continue;
            }
        };
        bots.set_claimer(Some(listener.claimer()));
        bots.wake();
        loop {
            if bots.lock().closed || service.strong_count() == 0 {
                return;
            }
            match listener.wait(recheck) {
                Ok(_) => bots.wake(),
                Err(e) => {
                    eprintln!("ployd: bot queue: the listening connection failed: {e}");
                    bots.set_claimer(None);
                    break;
                }
            }
        }
    }
}

/// A worker: claims and plays games until none is left, then waits for a wake-up.
fn work(service: &Weak<Service>, bots: &SharedBots) {
    while let Some((claimer, seen)) = bots.current() {
        let Some(s) = service.upgrade() else { break };
        match s.store().claim_bot(&claimer) {
            Ok(Some(id)) => {
                // The bot's write updates the game's row in the queue itself; a game where
                // the bot had nothing to do leaves the queue.
                let moved = s.bot_turn(id).unwrap_or_else(|e| {
                    eprintln!("ployd: bot on board {id}: {e}");
                    false
                });
                if !moved && let Err(e) = s.store().release_bot(id, &claimer, true) {
                    eprintln!("ployd: bot queue: board {id}: {e}");
                }
            }
            Ok(None) => {
                drop(s);
                if !bots.wait_after(seen) {
                    break;
                }
            }
            Err(e) => {
                eprintln!("ployd: bot queue: {e}");
                drop(s);
                if !bots.wait_after(seen) {
                    break;
                }
            }
        }
    }
}
