//! The password-hash workers: every argon2id computation of the service (signing up,
//! signing in, the password of a move or a command, changing a password) runs on one of a
//! fixed number of threads, with a bounded queue in front of them.
//!
//! An argon2id computation takes its whole memory cost (19 MiB by default) while it runs,
//! so the number of threads that may run one bounds the memory that password checks can
//! take, whatever the number of requests. A request whose computation finds the queue full
//! is refused at once with `503 busy` and `Retry-After`, before anything is written.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use super::error::ApiError;

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of threads that compute password hashes, with a bounded wait queue.
#[derive(Debug)]
pub struct HashWorkers {
    queue: Mutex<mpsc::SyncSender<Job>>,
    workers: usize,
    waiting: usize,
}

impl HashWorkers {
    /// `workers` threads (at least one), and room for `waiting` computations waiting for one
    /// of them (0: a computation runs only if a thread is free at once).
    ///
    /// # Errors
    /// A thread cannot start.
    pub fn start(workers: usize, waiting: usize) -> std::io::Result<HashWorkers> {
        let workers = workers.max(1);
        let (tx, rx) = mpsc::sync_channel::<Job>(waiting);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..workers {
            let rx = Arc::clone(&rx);
            std::thread::Builder::new()
                .name(format!("hash-{i}"))
                .spawn(move || {
                    loop {
                        let next = rx
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner)
                            .recv();
                        // The service (the sender) is gone: nothing more to compute.
                        let Ok(job) = next else { break };
                        job();
                    }
                })?;
        }
        Ok(HashWorkers {
            queue: Mutex::new(tx),
            workers,
            waiting,
        })
    }

    /// The number of threads.
    #[must_use]
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Runs `f` on a hash worker and waits for its result.
    ///
    /// # Errors
    /// `503 busy` with `Retry-After: 1` when every worker is busy and the queue is full
    /// (`f` is not run); `500` if the worker failed.
    pub fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let (done_tx, done_rx) = mpsc::sync_channel::<T>(1);
        let job: Job = Box::new(move || {
            let _ = done_tx.send(f());
        });
        let sent = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .try_send(job);
        match sent {
            Ok(()) => {}
            Err(mpsc::TrySendError::Full(_)) => {
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
            Err(mpsc::TrySendError::Disconnected(_)) => {
                return Err(ApiError::internal("the password workers have stopped"));
            }
        }
        done_rx
            .recv()
            .map_err(|_| ApiError::internal("a password worker failed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// `f` until it answers (a rendezvous queue takes a job only while a worker waits).
    fn until_taken<T>(mut f: impl FnMut() -> Result<T, ApiError>) -> T {
        for _ in 0..2000 {
            if let Ok(v) = f() {
                return v;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("the worker never took the job");
    }

    #[test]
    fn refuses_while_every_worker_is_busy_and_the_queue_is_full() {
        let pool = Arc::new(HashWorkers::start(1, 0).unwrap());
        assert_eq!(pool.workers(), 1);
        assert_eq!(until_taken(|| pool.run(|| 6 * 7)), 42);
        let (entered_tx, entered_rx) = mpsc::channel::<()>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let holder = {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || {
                until_taken(|| {
                    let entered = entered_tx.clone();
                    let release = Arc::clone(&release_rx);
                    pool.run(move || {
                        entered.send(()).unwrap();
                        release.lock().unwrap().recv().unwrap();
                        1
                    })
                })
            })
        };
        entered_rx.recv().unwrap();
        let e = pool.run(|| 3).unwrap_err();
        assert_eq!((e.status, e.word, e.retry_after), (503, "busy", Some(1)));
        release_tx.send(()).unwrap();
        assert_eq!(holder.join().unwrap(), 1);
        assert_eq!(until_taken(|| pool.run(|| 4)), 4);
    }
}
