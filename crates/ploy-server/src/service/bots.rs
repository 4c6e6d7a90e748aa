//! The bot queue of `ployd serve`: games waiting for a bot move, taken round-robin across
//! the users who queued them, with a bound on how many one user may have waiting.
//!
//! Every game waiting for the bot belongs to one user, the one whose move or challenge left
//! the bot to move (games found waiting when the server starts, or left to the bot by a
//! timer, belong to their first human player). A free worker takes the oldest game of the
//! user served least recently (a user new to the queue first; among equals, the one who
//! queued first), so users take turns, and a user with many games waiting delays another
//! user's game by at most the moves the workers are computing when it arrives. A game counts for its user from the moment his
//! request asks for a place ([`FairQueue::ticket`]) until its bot moves are written; a
//! request that would make one more than the limit is refused with 429
//! `too_many_bot_games` before anything is written.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::error::ApiError;

/// Where a game is in the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Waiting for a worker.
    Queued,
    /// A worker computes its move.
    Running,
    /// A worker computes its move, and the bot is to move again after it (several bot
    /// seats in a row): queued again when the worker is done.
    Again,
}

#[derive(Debug)]
struct Entry {
    owner: String,
    stage: Stage,
}

#[derive(Debug, Default)]
struct State {
    /// Every game in the queue, with its owner.
    games: HashMap<i64, Entry>,
    /// Games each owner has in `games`, plus the places his requests hold.
    counts: HashMap<String, usize>,
    /// Queued games by owner, oldest first.
    queued: HashMap<String, VecDeque<i64>>,
    /// Owners with queued games, in the order they (re)joined the line.
    turn: VecDeque<String>,
    /// When each owner with games in the queue was last served (a count of services).
    served: HashMap<String, u64>,
    /// Services so far.
    clock: u64,
    /// No more work: the workers stop.
    closed: bool,
}

impl State {
    fn add(&mut self, owner: &str, n: isize) {
        let c = self.counts.entry(owner.to_owned()).or_default();
        *c = c.saturating_add_signed(n);
        if *c == 0 {
            self.counts.remove(owner);
            self.served.remove(owner);
        }
    }

    fn enqueue(&mut self, id: i64, owner: &str) {
        let q = self.queued.entry(owner.to_owned()).or_default();
        if q.is_empty() {
            self.turn.push_back(owner.to_owned());
        }
        q.push_back(id);
    }
}

/// The queue (see the module's documentation).
#[derive(Debug)]
pub(super) struct FairQueue {
    state: Mutex<State>,
    ready: Condvar,
    /// The most games one user may have waiting.
    limit: usize,
}

/// A place held in the queue by a request that may leave the bot to move; given back when
/// dropped (the game written by then counts in its own right).
#[derive(Debug)]
pub(super) struct Ticket {
    queue: Arc<FairQueue>,
    owner: String,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.queue.lock().add(&self.owner, -1);
    }
}

fn key(user: &str) -> String {
    user.to_ascii_lowercase()
}

impl FairQueue {
    pub(super) fn new(limit: usize) -> FairQueue {
        FairQueue {
            state: Mutex::new(State::default()),
            ready: Condvar::new(),
            limit,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Holds a place for one more game of `owner`.
    ///
    /// # Errors
    /// 429 `too_many_bot_games` when he has as many as the limit waiting.
    pub(super) fn ticket(self: &Arc<Self>, owner: &str) -> Result<Ticket, ApiError> {
        let owner = key(owner);
        let mut st = self.lock();
        let held = st.counts.get(&owner).copied().unwrap_or(0);
        if held >= self.limit {
            return Err(ApiError::new(
                429,
                "too_many_bot_games",
                format!(
                    "{owner} has {held} games waiting for the bot, the most allowed; \
                     try again when the bot has moved"
                ),
            ));
        }
        st.add(&owner, 1);
        Ok(Ticket {
            queue: Arc::clone(self),
            owner,
        })
    }

    /// Queues game `id` for `owner`, unless it is queued already (a game counts once, for
    /// the user who queued it first).
    pub(super) fn schedule(&self, id: i64, owner: &str) {
        let owner = key(owner);
        let mut st = self.lock();
        match st.games.get_mut(&id) {
            Some(e) if e.stage == Stage::Running => e.stage = Stage::Again,
            Some(_) => {}
            None => {
                st.games.insert(
                    id,
                    Entry {
                        owner: owner.clone(),
                        stage: Stage::Queued,
                    },
                );
                st.add(&owner, 1);
                st.enqueue(id, &owner);
                drop(st);
                self.ready.notify_one();
            }
        }
    }

    /// The next game to play, waiting for one; `None` once closed.
    pub(super) fn next(&self) -> Option<i64> {
        let mut st = self.lock();
        loop {
            if st.closed {
                return None;
            }
            // The owner served least recently; the first in line among equals.
            let pick = st
                .turn
                .iter()
                .enumerate()
                .min_by_key(|(i, o)| (st.served.get(*o).copied().unwrap_or(0), *i))
                .map(|(i, _)| i);
            if let Some(owner) = pick.and_then(|i| st.turn.remove(i)) {
                st.clock += 1;
                let stamp = st.clock;
                st.served.insert(owner.clone(), stamp);
                let Some(q) = st.queued.get_mut(&owner) else {
                    continue;
                };
                let Some(id) = q.pop_front() else {
                    st.queued.remove(&owner);
                    continue;
                };
                if q.is_empty() {
                    st.queued.remove(&owner);
                } else {
                    st.turn.push_back(owner);
                }
                if let Some(e) = st.games.get_mut(&id) {
                    e.stage = Stage::Running;
                }
                return Some(id);
            }
            st = self.ready.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// A worker is done with game `id`: it leaves the queue, or is queued again when the
    /// bot is to move again there.
    pub(super) fn finish(&self, id: i64) {
        let mut st = self.lock();
        let Some(e) = st.games.get_mut(&id) else {
            return;
        };
        if e.stage == Stage::Again {
            e.stage = Stage::Queued;
            let owner = e.owner.clone();
            st.enqueue(id, &owner);
            drop(st);
            self.ready.notify_one();
        } else if let Some(e) = st.games.remove(&id) {
            st.add(&e.owner, -1);
        }
    }

    /// Stops the workers.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_take_turns_and_the_limit_holds() {
        let q = Arc::new(FairQueue::new(3));
        for id in 1..=3 {
            let t = q.ticket("Alice").unwrap();
            q.schedule(id, "alice");
            drop(t);
        }
        let refused = q.ticket("ALICE").unwrap_err();
        assert_eq!((refused.status, refused.word), (429, "too_many_bot_games"));
        q.schedule(10, "bob");
        // A game queued again counts once.
        q.schedule(10, "alice");
        // Alice was served first (she queued first), then bob, who had not been served.
        assert_eq!(q.next(), Some(1));
        assert_eq!(q.next(), Some(10));
        assert_eq!(q.next(), Some(2));
        // Game 10's bot is to move again: bob, served less recently than alice, is first.
        q.schedule(10, "bob");
        q.finish(10);
        q.finish(1);
        assert!(q.ticket("alice").is_ok());
        assert_eq!(q.next(), Some(10));
        assert_eq!(q.next(), Some(3));
        q.close();
        assert_eq!(q.next(), None);
    }
}
