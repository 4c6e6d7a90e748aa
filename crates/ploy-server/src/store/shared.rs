//! What several `ployd` processes on one PostgreSQL database share: notifications, the bot
//! queue, and jobs that one process at a time runs (`pg/shared.rs` has the SQL and the
//! design). One SQLite server keeps these in memory: there the methods answer
//! [`StoreError::Unsupported`], or run the job at once.

use std::time::Duration;

use super::pg::{PgClaimer, PgListener};
use super::{Store, StoreError};

/// The channels of notifications.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// An event was written (a move, an ending, a new game, ...).
    Events,
    /// A game was queued for the bot, or given back to the queue.
    Bots,
}

impl Channel {
    fn name(self) -> &'static str {
        match self {
            Channel::Events => "ployd_events",
            Channel::Bots => "ployd_bots",
        }
    }
}

/// Jobs that one process at a time runs on a shared database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Reminders, forfeits on time, lapsed invitations.
    Timers,
    /// Sending the mail queue.
    Mail,
}

impl Job {
    /// The job's advisory lock (numbers of this server's own, beside the migrations' and
    /// the events').
    fn key(self) -> i64 {
        match self {
            Job::Timers => 0x706c_6f79_6400_0003,
            Job::Mail => 0x706c_6f79_6400_0004,
        }
    }
}

/// A connection of its own that waits for notifications on a PostgreSQL database; while
/// it is open it also names its process in the bot queue's claims.
#[derive(Debug)]
pub struct Listener(PgListener);

impl Listener {
    /// Waits up to `timeout` for a notification; `true` when one came.
    ///
    /// # Errors
    /// The connection failed (listen again: notifications sent meanwhile are lost).
    pub fn wait(&mut self, timeout: Duration) -> Result<bool, StoreError> {
        self.0.wait(timeout)
    }

    /// The name of this listener's process in the bot queue's claims.
    #[must_use]
    pub fn claimer(&self) -> Claimer {
        Claimer(self.0.claimer())
    }
}

/// A process in the bot queue's claims ([`Listener::claimer`]): its claims stand while
/// its listener's connection lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claimer(PgClaimer);

const SQLITE_KEEPS_IT: &str = "one SQLite server keeps this in memory";

impl Store {
    /// A connection that listens on `channels` (PostgreSQL).
    ///
    /// # Errors
    /// The database cannot be reached; [`StoreError::Unsupported`] on SQLite.
    pub fn listen(&self, channels: &[Channel]) -> Result<Listener, StoreError> {
        let Some(pg) = &self.postgres else {
            return Err(StoreError::Unsupported(SQLITE_KEEPS_IT));
        };
        let names: Vec<&str> = channels.iter().map(|c| c.name()).collect();
        pg.listen(&names).map(Listener)
    }

    /// Claims the next game waiting for the bot for the process that `claimer` names: the
    /// game of the user served least recently, the oldest of his; `None` when no game is
    /// waiting unclaimed (or claimed by a process that is gone).
    ///
    /// # Errors
    /// Storage failure; [`StoreError::Unsupported`] on SQLite.
    pub fn claim_bot(&self, claimer: &Claimer) -> Result<Option<i64>, StoreError> {
        let Some(pg) = &self.postgres else {
            return Err(StoreError::Unsupported(SQLITE_KEEPS_IT));
        };
        pg.claim_bot(&claimer.0)
    }

    /// Gives up `claimer`'s claim on game `id`: the game leaves the queue when `done` (the
    /// bot has nothing to play there, or it cannot be played), or waits for another try.
    /// Nothing happens if the claim is no longer `claimer`'s.
    ///
    /// # Errors
    /// Storage failure; [`StoreError::Unsupported`] on SQLite.
    pub fn release_bot(&self, id: i64, claimer: &Claimer, done: bool) -> Result<(), StoreError> {
        let Some(pg) = &self.postgres else {
            return Err(StoreError::Unsupported(SQLITE_KEEPS_IT));
        };
        pg.release_bot(id, &claimer.0, done)
    }

    /// Queues for the bot every game waiting for it that is not queued (a database copied
    /// from SQLite); returns how many. Nothing on SQLite.
    ///
    /// # Errors
    /// Storage failure.
    pub fn queue_waiting_games(&self) -> Result<usize, StoreError> {
        match &self.postgres {
            Some(pg) => pg.queue_waiting_games(),
            None => Ok(0),
        }
    }

    /// Runs `f` unless another process runs `job` now: on PostgreSQL under an advisory
    /// lock (released when this process dies), `None` when another holds it; on SQLite at
    /// once.
    ///
    /// # Errors
    /// Storage failure while taking or giving back the lock.
    pub fn exclusive<T>(&self, job: Job, f: impl FnOnce() -> T) -> Result<Option<T>, StoreError> {
        match &self.postgres {
            Some(pg) => pg.exclusive(job.key(), f),
            None => Ok(Some(f())),
        }
    }
}
