//! The password-hash workers: every argon2id computation of the service (signing up,
//! signing in, the password of a move or a command, changing a password) runs on one of a
//! fixed number of threads, with a bounded queue in front of them.
//!
//! An argon2id computation takes its whole memory cost (19 MiB by default) while it runs,
//! so the number of threads that may run one bounds the memory that password checks can
//! take, whatever the number of requests. A request whose computation finds the queue full
//! is refused at once with `503 busy` and `Retry-After`, before anything is written. A
//! password check takes its place ([`HashWorkers::reserve`]) before it reads the account,
//! so the requests beyond the bound do no other work either.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::error::ApiError;
use crate::auth::HashMemory;

type Job = Box<dyn FnOnce(&mut HashMemory) + Send>;

/// A fixed set of threads that compute password hashes, with a bounded wait queue.
#[derive(Debug)]
pub struct HashWorkers {
    queue: Mutex<mpsc::SyncSender<Job>>,
    workers: usize,
    waiting: usize,
    /// Tickets out: computations running, waiting, or about to be sent.
    tickets: AtomicUsize,
}

/// A place among the hash workers and their queue ([`HashWorkers::reserve`]), held from
/// before a password check reads the database until its computation is done, so that the
/// requests beyond the bound are refused before they do any work.
#[derive(Debug)]
pub struct HashTicket<'a> {
    pool: &'a HashWorkers,
}

impl HashWorkers {
    /// `workers` threads (at least one), and room for `waiting` computations waiting for one
    /// of them (0: a computation runs only if a thread is free at once).
    ///
    /// # Errors
    /// A thread cannot start.
    pub fn start(workers: usize, waiting: usize) -> std::io::Result<HashWorkers> {
        let workers = workers.max(1);
        // The tickets keep the jobs sent below this; the channel never refuses one.
        let (tx, rx) = mpsc::sync_channel::<Job>(workers.saturating_add(waiting));
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..workers {
            let rx = Arc::clone(&rx);
            std::thread::Builder::new()
                .name(format!("hash-{i}"))
                .spawn(move || {
                    // The argon2 memory of this thread, kept from one computation to the
                    // next.
                    let mut memory = HashMemory::new();
                    loop {
                        let next = rx
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .recv();
                        // The service (the sender) is gone: nothing more to compute.
                        let Ok(job) = next else { break };
                        job(&mut memory);
                    }
                })?;
        }
        Ok(HashWorkers {
            queue: Mutex::new(tx),
            workers,
            waiting,
            tickets: AtomicUsize::new(0),
        })
    }

    /// The number of threads.
    #[must_use]
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// A place for one computation: at most `workers + waiting` are out at once.
    ///
    /// # Errors
    /// `503 busy` with `Retry-After: 1` when every place is taken.
    pub fn reserve(&self) -> Result<HashTicket<'_>, ApiError> {
        let out = self.tickets.fetch_add(1, Ordering::SeqCst);
        if out >= self.workers.saturating_add(self.waiting) {
            self.tickets.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::new(
                503,
                "busy",
                format!(
                    "the server is checking too many passwords ({} at once, {} waiting); try again",
                    self.workers, self.waiting
                ),
            )
            .retry_after(1));
        }
        Ok(HashTicket { pool: self })
    }

    /// Runs `f` on a hash worker, with the worker's argon2 memory, and waits for its result
    /// ([`HashWorkers::reserve`], then [`HashTicket::run`]).
    ///
    /// # Errors
    /// `503 busy` when every place is taken (`f` is not run); `500` if the worker failed.
    pub fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut HashMemory) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        self.reserve()?.run(f)
    }
}

impl HashTicket<'_> {
    /// Runs `f` on a hash worker, with the worker's argon2 memory, and waits for its result;
    /// the place is given back after.
    ///
    /// # Errors
    /// `500` if the workers have stopped or the worker failed.
    pub fn run<T: Send + 'static>(
        self,
        f: impl FnOnce(&mut HashMemory) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let (done_tx, done_rx) = mpsc::sync_channel::<T>(1);
        let job: Job = Box::new(move |memory| {
            let _ = done_tx.send(f(memory));
        });
        self.pool
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .try_send(job)
            .map_err(|_| ApiError::internal("the password workers cannot take the job"))?;
        done_rx
            .recv()
            .map_err(|_| ApiError::internal("a password worker failed"))
    }
}

impl Drop for HashTicket<'_> {
    fn drop(&mut self) {
        self.pool.tickets.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_while_every_worker_is_busy_and_the_queue_is_full() {
        let pool = Arc::new(HashWorkers::start(1, 1).unwrap());
        assert_eq!(pool.workers(), 1);
        assert_eq!(pool.run(|_| 6 * 7).unwrap(), 42);
        // One job holds the worker; a ticket holds the one place in the queue.
        let (entered_tx, entered_rx) = mpsc::channel::<()>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let holder = {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || {
                pool.run(move |_| {
                    entered_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                    1
                })
            })
        };
        entered_rx.recv().unwrap();
        let queued = pool.reserve().unwrap();
        let e = pool.run(|_| 3).unwrap_err();
        assert_eq!((e.status, e.word, e.retry_after), (503, "busy", Some(1)));
        assert_eq!(pool.reserve().unwrap_err().word, "busy");
        release_tx.send(()).unwrap();
        assert_eq!(holder.join().unwrap().unwrap(), 1);
        assert_eq!(queued.run(|_| 2).unwrap(), 2);
        // Every place is back.
        let a = pool.reserve().unwrap();
        let b = pool.reserve().unwrap();
        assert!(pool.reserve().is_err());
        drop((a, b));
        assert_eq!(pool.run(|_| 4).unwrap(), 4);
    }
}
