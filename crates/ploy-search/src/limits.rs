//! Budgets and clocks.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A monotonic clock the search reads to keep its time budget. The search polls it every
/// [`crate::POLL_INTERVAL`] nodes; tests inject a fake one. A searcher keeps its clock, and
/// is [`Send`] (it may search on another thread) when its clock is: so
/// [`crate::Searcher::set_clock`] takes a `Clock + Send`.
pub trait Clock {
    /// Time since some fixed origin; never decreases.
    fn now(&self) -> Duration;
}

/// The real clock ([`Instant`]).
#[derive(Clone, Copy, Debug)]
pub struct SystemClock(Instant);

impl SystemClock {
    /// A clock whose origin is now.
    #[must_use]
    pub fn new() -> SystemClock {
        SystemClock(Instant::now())
    }
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// What ends a search: whichever limit is reached first. With none set, the search runs to
/// [`crate::MAX_DEPTH`] or until the stop flag is raised.
///
/// - `depth`: the deepest iteration, in plies;
/// - `nodes`: the search stops as soon as this many nodes (moves made) were searched;
/// - `soft_time`: no new iteration starts after this much time;
/// - `hard_time`: the search stops at this time even inside an iteration (it notices within
///   [`crate::POLL_INTERVAL`] nodes);
/// - `stop`: an external flag, polled like the clock.
///
/// Whatever stops it, the search answers with the best move of the last completed iteration
/// (or, if even the first was cut short, a legal move chosen by move ordering).
///
/// Build limits from one constructor and combine them with the `with_` methods: every limit
/// set applies, and the first reached ends the search. The time helpers never overflow:
/// arithmetic on durations saturates, so `Duration::MAX` means "no practical limit".
///
/// ```
/// use ploy_search::Limits;
/// use std::sync::Arc;
/// use std::sync::atomic::AtomicBool;
/// use std::time::Duration;
/// let l = Limits::move_time(Duration::from_secs(2));
/// assert_eq!(l.hard_time, Some(Duration::from_secs(2)));
/// assert!(l.soft_time.unwrap() < l.hard_time.unwrap());
/// let c = Limits::clock(Duration::from_secs(60), Duration::from_secs(1));
/// assert!(c.hard_time.unwrap() < Duration::from_secs(60));
///
/// // At most 2 s, at most depth 8, at most a million nodes, or until `stop` is raised.
/// let stop = Arc::new(AtomicBool::new(false));
/// let l = Limits::move_time(Duration::from_secs(2))
///     .with_depth(8)
///     .with_nodes(1_000_000)
///     .with_stop(stop.clone());
/// assert_eq!((l.depth, l.nodes), (Some(8), Some(1_000_000)));
/// assert_eq!(l.hard_time, Some(Duration::from_secs(2)));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest iteration (plies).
    pub depth: Option<u32>,
    /// Most nodes.
    pub nodes: Option<u64>,
    /// No iteration starts after this time.
    pub soft_time: Option<Duration>,
    /// The search stops at this time.
    pub hard_time: Option<Duration>,
    /// Raised by another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Search to `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search at most `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed time per move: never more than `time`, and no new iteration after half of it
    /// (the next one would most likely not finish).
    #[must_use]
    pub fn move_time(time: Duration) -> Limits {
        Limits::default().with_move_time(time)
    }

    /// Time for one move from the time `left` on the clock and the `increment` per move:
    /// aim at `left / 30 + increment * 3 / 4` (soft limit: half of that), and never use more
    /// than `left / 5 + increment` (hard limit), always keeping 10 ms in reserve and never
    /// more than is left. Saturates: any durations, up to `Duration::MAX`, are fine.
    #[must_use]
    pub fn clock(left: Duration, increment: Duration) -> Limits {
        Limits::default().with_clock(left, increment)
    }

    /// The same limits with a depth limit of `depth` plies.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// The same limits with a node limit of `nodes`.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// The same limits with the time limits of [`Limits::move_time`].
    #[must_use]
    pub fn with_move_time(mut self, time: Duration) -> Limits {
        self.soft_time = Some(time / 2);
        self.hard_time = Some(time);
        self
    }

    /// The same limits with the time limits of [`Limits::clock`].
    #[must_use]
    pub fn with_clock(mut self, left: Duration, increment: Duration) -> Limits {
        let reserve = Duration::from_millis(10);
        let usable = left.saturating_sub(reserve);
        let target = (usable / 30)
            .saturating_add(increment.saturating_mul(3) / 4)
            .min(usable);
        let hard = (usable / 5).saturating_add(increment).min(usable);
        self.soft_time = Some(target / 2);
        self.hard_time = Some(hard);
        self
    }

    /// The same limits with the stop flag `stop`.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Limits {
        self.stop = Some(stop);
        self
    }
}
