//! The throttles' state in the database, for the limits that must hold for a whole site of
//! several `ployd` processes on one PostgreSQL database: failed password checks per client
//! network and per network and userid, and new accounts per network. One SQLite server
//! keeps the same state in memory (`service::throttle`), and these methods refuse there
//! ([`StoreError::Unsupported`]).
//!
//! Each row of `throttles` is one key of one limit ([`LimitKind`]): a rate limiter's
//! state, the theoretical arrival time of GCRA (`tat`), and the lock of failed password
//! checks (`locked_until`, and `strikes`: how many times in a row the limit was reached).
//! Times are microseconds since the Unix epoch **by the database's clock**, so that
//! processes on several machines agree whatever their own clocks say. The arithmetic is
//! [`Gcra`]'s, in Rust: a check locks the rows of its keys, reads them and the database's
//! time, computes, and writes them back, in one short transaction (so two processes
//! counting under one key at once count twice, one after the other). A row that remembers
//! nothing a fresh key would not (the limiter full again, no lock within a period) is as
//! good as absent, and [`Store::limit_sweep`] deletes such rows.

use std::fmt;
use std::num::NonZeroU32;
use std::time::Duration;

use super::{Store, StoreError};

/// The most times a lock's wait doubles.
const MAX_DOUBLINGS: u32 = 16;

/// One of the limits kept in `throttles` (the `kind` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// Failed password checks per client network.
    FailuresPerAddress,
    /// Failed password checks per client network and userid.
    FailuresPerUser,
    /// New accounts per client network.
    SignupsPerAddress,
}

impl LimitKind {
    /// The word stored in the `kind` column.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            LimitKind::FailuresPerAddress => "failures-per-address",
            LimitKind::FailuresPerUser => "failures-per-user",
            LimitKind::SignupsPerAddress => "signups-per-address",
        }
    }
}

impl fmt::Display for LimitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A key of one limit: the limit and the client's key under it (a network, or a network and
/// a userid, in the caller's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitKey<'a> {
    /// The limit.
    pub kind: LimitKind,
    /// The key.
    pub key: &'a str,
}

/// A rate limiter's parameters: at most `count` events per `period`, as the generic cell
/// rate algorithm (GCRA) counts them, with a burst of `count` and one event's share of the
/// period (`period / count`) coming back at a time; in whole microseconds (a share is at
/// least 1 µs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gcra {
    burst: NonZeroU32,
    share: i64,
    period: i64,
}

fn micros(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX)
}

/// A row's state: GCRA's theoretical arrival time and the lock, in µs of the database's
/// clock. A key without a row is [`LimitRow::default`] (a `tat` in the past counts as now).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct LimitRow {
    pub(super) tat: i64,
    pub(super) locked_until: i64,
    pub(super) strikes: i64,
}

impl Gcra {
    /// `count` events per `period`.
    #[must_use]
    pub fn new(count: NonZeroU32, period: Duration) -> Gcra {
        Gcra {
            burst: count,
            share: micros(period / count.get()).max(1),
            period: micros(period),
        }
    }

    /// One event's share of the period, in µs.
    #[must_use]
    pub fn share_micros(&self) -> i64 {
        self.share
    }

    /// The period, in µs.
    #[must_use]
    pub fn period_micros(&self) -> i64 {
        self.period
    }

    /// GCRA's test of one event at `now` against the theoretical arrival time `tat`: the new
    /// `tat` and how many more events the burst allows at once after this one, or (refused)
    /// the time from which one is allowed.
    fn test(&self, tat: i64, now: i64) -> Result<(i64, u32), i64> {
        let tau = self.share.saturating_mul(i64::from(self.burst.get() - 1));
        let earliest = tat.saturating_sub(tau);
        if now < earliest {
            return Err(earliest);
        }
        let next = tat.max(now).saturating_add(self.share);
        let room = now
            .saturating_add(tau)
            .saturating_add(self.share)
            .saturating_sub(next)
            .clamp(0, tau.saturating_add(self.share));
        Ok((next, u32::try_from(room / self.share).unwrap_or(u32::MAX)))
    }

    /// Counts one event at `now` if the limiter allows it: the new row, or (refused,
    /// nothing counted) how many µs until it does.
    pub(super) fn take(&self, row: LimitRow, now: i64) -> Result<LimitRow, i64> {
        match self.test(row.tat, now) {
            Ok((tat, _)) => Ok(LimitRow { tat, ..row }),
            Err(earliest) => Err(earliest - now),
        }
    }

    /// Counts one failure at `now`. When it uses up the limit (or the limiter refuses it),
    /// the key is locked for one share, doubled for each time in a row the limit was
    /// reached (the last lock ended less than a period ago), at most
    /// [`MAX_DOUBLINGS`] times.
    pub(super) fn failure(&self, row: LimitRow, now: i64) -> LimitRow {
        let (tat, used_up) = match self.test(row.tat, now) {
            Ok((tat, room)) => (tat, room == 0),
            Err(_) => (row.tat, true),
        };
        if !used_up {
            return LimitRow { tat, ..row };
        }
        let strikes = if now < row.locked_until.saturating_add(self.period) {
            (row.strikes + 1).clamp(1, i64::from(MAX_DOUBLINGS))
        } else {
            1
        };
        let wait = self.share.saturating_mul(1 << (strikes - 1));
        LimitRow {
            tat,
            locked_until: now.saturating_add(wait),
            strikes,
        }
    }
}

fn unsupported() -> StoreError {
    StoreError::Unsupported("one SQLite server keeps its throttles in memory")
}

fn duration(us: i64) -> Duration {
    Duration::from_micros(u64::try_from(us).unwrap_or(0))
}

impl Store {
    /// How much longer each of `keys` is locked by failed password checks (`None`: not
    /// locked), in the same order, by the database's clock.
    ///
    /// # Errors
    /// Storage failure; on SQLite [`StoreError::Unsupported`].
    pub fn limit_waits(&self, keys: &[LimitKey<'_>]) -> Result<Vec<Option<Duration>>, StoreError> {
        let pg = self.postgres.as_ref().ok_or_else(unsupported)?;
        let found = pg.limit_locks(keys)?;
        Ok(keys
            .iter()
            .map(|k| {
                found
                    .iter()
                    .find(|(kind, key, _)| kind == k.kind.as_str() && key == k.key)
                    .map(|(_, _, us)| duration(*us))
            })
            .collect())
    }

    /// Counts one failed password check under each of `keys` with its limiter, in one
    /// transaction ([`Gcra`]: a key whose limit is used up is locked for a share of the
    /// period, doubling while the failures go on). The keys' rows are locked in the order
    /// given; callers give the kinds in one order (by network before by userid).
    ///
    /// # Errors
    /// Storage failure (nothing is counted); on SQLite [`StoreError::Unsupported`].
    pub fn limit_failures(&self, keys: &[(LimitKey<'_>, Gcra)]) -> Result<(), StoreError> {
        let pg = self.postgres.as_ref().ok_or_else(unsupported)?;
        let only: Vec<LimitKey<'_>> = keys.iter().map(|(k, _)| *k).collect();
        pg.limit_step(&only, |i, row, now| Some(keys[i].1.failure(row, now)))
    }

    /// Counts one event of `key` if its limiter allows one now; else (nothing counted) how
    /// long until it does.
    ///
    /// # Errors
    /// Storage failure (nothing is counted); on SQLite [`StoreError::Unsupported`].
    pub fn limit_take(
        &self,
        key: LimitKey<'_>,
        rate: Gcra,
    ) -> Result<Result<(), Duration>, StoreError> {
        let pg = self.postgres.as_ref().ok_or_else(unsupported)?;
        let mut refused = None;
        pg.limit_step(&[key], |_, row, now| match rate.take(row, now) {
            Ok(row) => Some(row),
            Err(wait) => {
                refused = Some(duration(wait));
                None
            }
        })?;
        Ok(refused.map_or(Ok(()), Err))
    }

    /// Deletes the rows of `kind` (counted with `rate`) that remember nothing a new key
    /// would not: the limiter full again and no lock ended within a period. Returns how
    /// many.
    ///
    /// # Errors
    /// Storage failure; on SQLite [`StoreError::Unsupported`].
    pub fn limit_sweep(&self, kind: LimitKind, rate: Gcra) -> Result<u64, StoreError> {
        let pg = self.postgres.as_ref().ok_or_else(unsupported)?;
        pg.limit_sweep(kind.as_str(), rate.period_micros())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;
    use governor::middleware::StateInformationMiddleware;
    use governor::{Quota, RateLimiter};

    fn rate(count: u32, period_ms: u64) -> Gcra {
        Gcra::new(
            NonZeroU32::new(count).unwrap(),
            Duration::from_millis(period_ms),
        )
    }

    /// The same checks of one key, at the same times, as [`governor`]'s limiter decides
    /// them (the in-memory throttles of one SQLite server): allowed or not, the burst left,
    /// the wait.
    #[test]
    fn gcra_decides_as_governor_does() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for (count, period_ms) in [(1, 1000), (2, 2000), (3, 30_000), (5, 900), (10, 60_000)] {
            let ours = rate(count, period_ms);
            let count = NonZeroU32::new(count).unwrap();
            let quota = Quota::with_period(Duration::from_millis(period_ms) / count.get())
                .unwrap()
                .allow_burst(count);
            let clock = FakeRelativeClock::default();
            let theirs = RateLimiter::direct_with_clock(quota, clock.clone())
                .with_middleware::<StateInformationMiddleware>();
            let start = 1_700_000_000_000_000i64;
            let mut now = start;
            let mut row = LimitRow::default();
            for step in 0..2000 {
                let advance_ms = match next(4) {
                    0 => 0,
                    1 => next(period_ms / u64::from(count.get()) + 1),
                    _ => next(period_ms / 4 + 1),
                };
                clock.advance(Duration::from_millis(advance_ms));
                now += i64::try_from(advance_ms).unwrap() * 1000;
                let mine = ours.test(row.tat, now);
                match (theirs.check(), mine) {
                    (Ok(state), Ok((tat, room))) => {
                        assert_eq!(state.remaining_burst_capacity(), room, "step {step}");
                        row.tat = tat;
                    }
                    (Err(not_until), Err(earliest)) => {
                        let wait = not_until.wait_time_from(governor::clock::Clock::now(&clock));
                        assert_eq!(duration(earliest - now), wait, "step {step}");
                    }
                    (g, m) => panic!("step {step}: governor {g:?}, here {m:?}"),
                }
            }
        }
    }

    #[test]
    fn failures_lock_a_key_and_the_wait_doubles_while_they_go_on() {
        // 3 in 3000 s: a share is 1000 s.
        let r = rate(3, 3_000_000);
        let s = 1_000_000;
        let now = 5_000_000_000_000;
        let mut row = LimitRow::default();
        row = r.failure(row, now);
        row = r.failure(row, now);
        assert_eq!(row.locked_until, 0, "two failures of three lock nothing");
        row = r.failure(row, now);
        assert_eq!((row.locked_until - now, row.strikes), (1000 * s, 1));
        row = r.failure(row, now);
        assert_eq!((row.locked_until - now, row.strikes), (2000 * s, 2));
        row = r.failure(row, now);
        assert_eq!((row.locked_until - now, row.strikes), (4000 * s, 3));
        // A period after the last lock ended, the doubling is forgotten.
        let later = row.locked_until + 3000 * s;
        let again = r.failure(row, later);
        assert!(again.locked_until < later, "the limiter has room again");
        let again = r.failure(r.failure(again, later), later);
        assert_eq!((again.locked_until - later, again.strikes), (1000 * s, 1));
        // The doubling stops at 2^16 shares.
        let mut row = LimitRow::default();
        for _ in 0..40 {
            row = r.failure(row, now);
        }
        assert_eq!(row.strikes, i64::from(MAX_DOUBLINGS));
        assert_eq!(
            row.locked_until - now,
            1000 * s * (1 << (MAX_DOUBLINGS - 1))
        );
    }

    #[test]
    fn a_take_refused_counts_nothing_and_says_how_long() {
        let r = rate(2, 60_000);
        let now = 1_000_000_000;
        let row = r.take(LimitRow::default(), now).unwrap();
        let row = r.take(row, now).unwrap();
        assert_eq!(r.take(row, now), Err(30_000_000));
        assert_eq!(r.take(row, now + 10_000_000), Err(20_000_000));
        assert!(r.take(row, now + 30_000_000).is_ok());
        assert_eq!(LimitKind::FailuresPerUser.to_string(), "failures-per-user");
    }
}
