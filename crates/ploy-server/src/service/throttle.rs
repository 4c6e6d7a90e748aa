//! Throttles of what a client on the network may try: failed password checks and new
//! accounts, counted per client address.
//!
//! - Failed password checks (on any route: signing in, a move, a command, changing a
//!   password) are counted per client address and per (address, userid), whether the
//!   userid exists or not. When a count reaches its limit ([`Limits::failures_per_address`],
//!   [`Limits::failures_per_user`]), further attempts under that key are refused with `429
//!   throttled` before any password is checked, for one failure's share of the period (6 s
//!   for 10 a minute); every further time the limit is reached while the failures go on,
//!   that wait doubles. A period with no failure forgets the doubling. A user signing in
//!   from another address has other keys, so an attacker's failures never lock them out.
//! - New accounts are counted per client address ([`Limits::signups_per_address`]); beyond
//!   the limit, `429 throttled` until the limiter allows one more.
//!
//! Requests without a client address (the local `ployd cmd`) are not throttled.
//!
//! # Where the counts are kept
//!
//! On SQLite (one process) in memory, with [`governor`]'s rate limiters. On PostgreSQL,
//! where several `ployd` processes may serve one site, in the database's `throttles` table
//! (the store's `limit_*` methods), so that failures counted by one process lock the key on
//! every other, by the database's clock: the same rate limiter (GCRA, a burst of the count,
//! one share of the period coming back at a time) and the same lock. When the database
//! cannot answer a throttle's check or count, the request is refused with `503 busy`
//! (`Retry-After: 1`) rather than let through uncounted: with the database away, a flood
//! of guesses gets no verdict, not an unlimited number.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use super::error::ApiError;
use crate::store::{Gcra, LimitKey, LimitKind, Store, StoreError};

/// A limit: at most `count` events per `period`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many.
    pub count: NonZeroU32,
    /// In how long.
    pub period: Duration,
}

impl Rate {
    /// `count` per `period`; `None` when either is zero.
    #[must_use]
    pub fn new(count: u32, period: Duration) -> Option<Rate> {
        let count = NonZeroU32::new(count)?;
        (!period.is_zero()).then_some(Rate { count, period })
    }

    /// Reads `N/DURATION` (`10/1m`, `5/15m`, `5/1h`; the duration as `ployd`'s flags take
    /// it, through `parse_duration`) or `off` (`None`: no limit).
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(
        text: &str,
        parse_duration: impl Fn(&str) -> Result<Duration, String>,
    ) -> Result<Option<Rate>, String> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("off") {
            return Ok(None);
        }
        let bad = || {
            format!(
                "`{}` is not a limit: N/DURATION such as 10/1m, or off",
                crate::game::excerpt(t)
            )
        };
        let (n, d) = t.split_once('/').ok_or_else(bad)?;
        let n: u32 = n.trim().parse().map_err(|_| bad())?;
        let d = parse_duration(d.trim())?;
        Rate::new(n, d).map(Some).ok_or_else(bad)
    }

    /// The time one event's share of the period takes to come back.
    #[must_use]
    pub fn share(&self) -> Duration {
        self.period / self.count.get()
    }

    fn quota(&self) -> Quota {
        Quota::with_period(self.share().max(Duration::from_nanos(1)))
            .expect("a share of a non-zero period is not zero")
            .allow_burst(self.count)
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}s", self.count, self.period.as_secs_f64())
    }
}

/// The throttles' limits (`None`: off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Failed password checks per client address (10 a minute).
    pub failures_per_address: Option<Rate>,
    /// Failed password checks per client address and userid (5 in 15 minutes).
    pub failures_per_user: Option<Rate>,
    /// New accounts per client address (5 an hour).
    pub signups_per_address: Option<Rate>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            failures_per_address: Rate::new(10, Duration::from_secs(60)),
            failures_per_user: Rate::new(5, Duration::from_secs(15 * 60)),
            signups_per_address: Rate::new(5, Duration::from_secs(3600)),
        }
    }
}

type Keyed<K> = RateLimiter<K, DefaultKeyedStateStore<K>, DefaultClock, StateInformationMiddleware>;

/// The most a wait doubles.
const MAX_DOUBLINGS: u32 = 16;

/// Forgets stale keys every so many counted events.
const SWEEP_EVERY: u64 = 1024;

/// A key under a lock: until when, and how many times the limit was reached in a row.
#[derive(Clone, Copy, Debug)]
struct Lock {
    until: Instant,
    strikes: u32,
}

/// Failures under one kind of key.
struct Failures<K: Hash + Eq + Clone> {
    rate: Rate,
    limiter: Keyed<K>,
    locks: Mutex<HashMap<K, Lock>>,
    counted: AtomicU64,
}

impl<K: Hash + Eq + Clone> Failures<K> {
    fn new(rate: Rate) -> Failures<K> {
        Failures {
            rate,
            limiter: RateLimiter::keyed(rate.quota())
                .with_middleware::<StateInformationMiddleware>(),
            locks: Mutex::new(HashMap::new()),
            counted: AtomicU64::new(0),
        }
    }

    fn locks(&self) -> std::sync::MutexGuard<'_, HashMap<K, Lock>> {
        self.locks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// How long `key` must still wait, if it is locked.
    fn wait(&self, key: &K, now: Instant) -> Option<Duration> {
        self.locks()
            .get(key)
            .filter(|l| l.until > now)
            .map(|l| l.until - now)
    }

    /// Counts a failure of `key`; locks it when that used up its limit.
    fn failed(&self, key: &K, now: Instant) {
        let used_up = match self.limiter.check_key(key) {
            Ok(state) => state.remaining_burst_capacity() == 0,
            Err(_) => true,
        };
        let period = self.rate.period;
        let mut locks = self.locks();
        if used_up {
            // Failures went on if the last lock ended less than a period ago.
            let strikes = match locks.get(key) {
                Some(l) if now < l.until + period => (l.strikes + 1).min(MAX_DOUBLINGS),
                _ => 1,
            };
            let until = now + self.rate.share() * (1u32 << (strikes - 1));
            locks.insert(key.clone(), Lock { until, strikes });
        }
        if self.counted.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            locks.retain(|_, l| now < l.until + period);
            drop(locks);
            self.limiter.retain_recent();
        }
    }
}

/// The address a throttle counts: an IPv4 address as it is (also when written as an
/// IPv4-mapped IPv6 address), an IPv6 address by its /64 network, which one client
/// usually holds whole.
fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// Whole seconds to wait, rounded up, at least 1.
fn seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// The throttles of one service: in memory, or in the database for every process on it.
#[derive(Debug)]
pub(crate) enum Throttle {
    /// One process's own (SQLite).
    Local(Box<Local>),
    /// Kept in the database (PostgreSQL).
    Shared(Shared),
}

/// The throttles of one process, in memory.
pub(crate) struct Local {
    by_address: Option<Failures<IpAddr>>,
    by_user: Option<Failures<(IpAddr, String)>>,
    signups: Option<Keyed<IpAddr>>,
}

impl fmt::Debug for Local {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Local")
            .field("by_address", &self.by_address.as_ref().map(|t| t.rate))
            .field("by_user", &self.by_user.as_ref().map(|t| t.rate))
            .finish_non_exhaustive()
    }
}

/// `429 throttled` for a network locked by failures, `wait` more.
fn address_locked(wait: Duration) -> ApiError {
    let s = seconds(wait);
    ApiError::throttled(
        format!("too many failed password checks from this address; try again in {s} s"),
        s,
    )
}

/// `429 throttled` for a network and userid locked by failures, `wait` more.
fn user_locked(wait: Duration) -> ApiError {
    let s = seconds(wait);
    ApiError::throttled(
        format!(
            "too many failed password checks for this userid from this address; try again in {s} s"
        ),
        s,
    )
}

/// `429 throttled` for a network that made its share of accounts, `wait` more.
fn signups_used_up(wait: Duration) -> ApiError {
    let s = seconds(wait);
    ApiError::throttled(
        format!("too many new accounts from this address; try again in {s} s"),
        s,
    )
}

/// The key of `userid` from `client`: the userid in lower case; every text that is no
/// userid at all (too long, other characters) shares one key, so that junk cannot fill the
/// table with large keys.
fn user_key(client: IpAddr, userid: &str) -> (IpAddr, String) {
    let userid = if crate::auth::check_userid(userid).is_ok() {
        userid.to_ascii_lowercase()
    } else {
        String::new()
    };
    (client, userid)
}

impl Throttle {
    /// The throttles of `limits`: in the database when `shared` (PostgreSQL), else in
    /// memory.
    pub(crate) fn new(limits: Limits, shared: bool) -> Throttle {
        if shared {
            Throttle::Shared(Shared {
                limits,
                counted: AtomicU64::new(0),
            })
        } else {
            Throttle::Local(Box::new(Local::new(limits)))
        }
    }

    /// Whether `client` may have a password of `userid` checked now.
    ///
    /// # Errors
    /// `429 throttled` with the time to wait; `503 busy` when the database cannot tell.
    pub(crate) fn admit(
        &self,
        store: &Store,
        client: IpAddr,
        userid: &str,
    ) -> Result<(), ApiError> {
        match self {
            Throttle::Local(t) => t.admit(client, userid),
            Throttle::Shared(t) => t.admit(store, client, userid),
        }
    }

    /// Counts a failed password check of `userid` by `client`.
    ///
    /// # Errors
    /// `503 busy` when the database cannot count it.
    pub(crate) fn failed(
        &self,
        store: &Store,
        client: IpAddr,
        userid: &str,
    ) -> Result<(), ApiError> {
        match self {
            Throttle::Local(t) => {
                t.failed(client, userid);
                Ok(())
            }
            Throttle::Shared(t) => t.failed(store, client, userid),
        }
    }

    /// Counts a new account for `client`.
    ///
    /// # Errors
    /// `429 throttled` when the address has made its share of accounts (nothing is
    /// counted); `503 busy` when the database cannot tell.
    pub(crate) fn signup(&self, store: &Store, client: IpAddr) -> Result<(), ApiError> {
        match self {
            Throttle::Local(t) => t.signup(client),
            Throttle::Shared(t) => t.signup(store, client),
        }
    }
}

impl Local {
    fn new(limits: Limits) -> Local {
        Local {
            by_address: limits.failures_per_address.map(Failures::new),
            by_user: limits.failures_per_user.map(Failures::new),
            signups: limits
                .signups_per_address
                .map(|r| RateLimiter::keyed(r.quota()).with_middleware()),
        }
    }

    /// Whether `client` may have a password of `userid` checked now.
    ///
    /// # Errors
    /// `429 throttled` with the time to wait.
    pub(crate) fn admit(&self, client: IpAddr, userid: &str) -> Result<(), ApiError> {
        let client = network(client);
        let now = Instant::now();
        if let Some(wait) = self.by_address.as_ref().and_then(|t| t.wait(&client, now)) {
            return Err(address_locked(wait));
        }
        let key = user_key(client, userid);
        if let Some(wait) = self.by_user.as_ref().and_then(|t| t.wait(&key, now)) {
            return Err(user_locked(wait));
        }
        Ok(())
    }

    /// Counts a failed password check of `userid` by `client`.
    pub(crate) fn failed(&self, client: IpAddr, userid: &str) {
        let client = network(client);
        let now = Instant::now();
        if let Some(t) = &self.by_address {
            t.failed(&client, now);
        }
        if let Some(t) = &self.by_user {
            t.failed(&user_key(client, userid), now);
        }
    }

    /// Counts a new account for `client`.
    ///
    /// # Errors
    /// `429 throttled` when the address has made its share of accounts (nothing is
    /// counted).
    pub(crate) fn signup(&self, client: IpAddr) -> Result<(), ApiError> {
        let Some(limiter) = &self.signups else {
            return Ok(());
        };
        let client = network(client);
        match limiter.check_key(&client) {
            Ok(_) => Ok(()),
            Err(not_until) => Err(signups_used_up(
                not_until.wait_time_from(limiter.clock().now()),
            )),
        }
    }
}

impl Rate {
    fn gcra(self) -> Gcra {
        Gcra::new(self.count, self.period)
    }
}

/// `503 busy` for a throttle the database could not check or count: the request is not let
/// through uncounted.
fn unavailable(e: &StoreError) -> ApiError {
    eprintln!("ployd: throttles: {e}");
    ApiError::new(
        503,
        "busy",
        "the server cannot check its limits now; try again",
    )
    .retry_after(1)
}

/// The throttles of every process on one PostgreSQL database, kept in its `throttles`
/// table.
pub(crate) struct Shared {
    limits: Limits,
    /// Counts this process made; every [`SWEEP_EVERY`] it deletes rows that remember
    /// nothing.
    counted: AtomicU64,
}

impl fmt::Debug for Shared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Shared {
    fn admit(&self, store: &Store, client: IpAddr, userid: &str) -> Result<(), ApiError> {
        let client = network(client);
        let address = client.to_string();
        let user = user_row_key(client, userid);
        let mut keys = Vec::new();
        if self.limits.failures_per_address.is_some() {
            keys.push(LimitKey {
                kind: LimitKind::FailuresPerAddress,
                key: &address,
            });
        }
        if self.limits.failures_per_user.is_some() {
            keys.push(LimitKey {
                kind: LimitKind::FailuresPerUser,
                key: &user,
            });
        }
        let waits = store.limit_waits(&keys).map_err(|e| unavailable(&e))?;
        for (key, wait) in keys.iter().zip(waits) {
            if let Some(wait) = wait {
                return Err(match key.kind {
                    LimitKind::FailuresPerAddress => address_locked(wait),
                    _ => user_locked(wait),
                });
            }
        }
        Ok(())
    }

    fn failed(&self, store: &Store, client: IpAddr, userid: &str) -> Result<(), ApiError> {
        let client = network(client);
        let address = client.to_string();
        let user = user_row_key(client, userid);
        let mut keys = Vec::new();
        if let Some(rate) = self.limits.failures_per_address {
            let key = LimitKey {
                kind: LimitKind::FailuresPerAddress,
                key: &address,
            };
            keys.push((key, rate.gcra()));
        }
        if let Some(rate) = self.limits.failures_per_user {
            let key = LimitKey {
                kind: LimitKind::FailuresPerUser,
                key: &user,
            };
            keys.push((key, rate.gcra()));
        }
        store.limit_failures(&keys).map_err(|e| unavailable(&e))?;
        self.counted(store);
        Ok(())
    }

    fn signup(&self, store: &Store, client: IpAddr) -> Result<(), ApiError> {
        let Some(rate) = self.limits.signups_per_address else {
            return Ok(());
        };
        let address = network(client).to_string();
        let key = LimitKey {
            kind: LimitKind::SignupsPerAddress,
            key: &address,
        };
        match store.limit_take(key, rate.gcra()) {
            Ok(Ok(())) => {
                self.counted(store);
                Ok(())
            }
            Ok(Err(wait)) => Err(signups_used_up(wait)),
            Err(e) => Err(unavailable(&e)),
        }
    }

    /// Notes one more count; every [`SWEEP_EVERY`], deletes the rows of every limit that
    /// remember nothing (a failure of that is only told: the next sweep tries again).
    fn counted(&self, store: &Store) {
        if self.counted.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY != SWEEP_EVERY - 1 {
            return;
        }
        let limits = [
            (
                LimitKind::FailuresPerAddress,
                self.limits.failures_per_address,
            ),
            (LimitKind::FailuresPerUser, self.limits.failures_per_user),
            (
                LimitKind::SignupsPerAddress,
                self.limits.signups_per_address,
            ),
        ];
        for (kind, rate) in limits {
            if let Some(rate) = rate
                && let Err(e) = store.limit_sweep(kind, rate.gcra())
            {
                eprintln!("ployd: sweeping the throttles of {kind}: {e}");
            }
        }
    }
}

/// The stored key of `userid` from the network `client`: the network, a space, and the
/// userid as [`user_key`] gives it (a userid holds no space).
fn user_row_key(client: IpAddr, userid: &str) -> String {
    let (client, userid) = user_key(client, userid);
    format!("{client} {userid}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(t: &str) -> Result<Duration, String> {
        let (n, unit) = t.split_at(t.len() - 1);
        let n: u64 = n.parse().map_err(|_| format!("bad {t}"))?;
        Ok(Duration::from_secs(match unit {
            "s" => n,
            "m" => n * 60,
            "h" => n * 3600,
            _ => return Err(format!("bad {t}")),
        }))
    }

    #[test]
    fn rates_read_and_refuse() {
        assert_eq!(
            Rate::parse("10/1m", secs).unwrap(),
            Rate::new(10, Duration::from_secs(60))
        );
        assert_eq!(Rate::parse("off", secs).unwrap(), None);
        assert!(Rate::parse("0/1m", secs).is_err());
        assert!(Rate::parse("10", secs).is_err());
        assert!(Rate::parse("x/1m", secs).is_err());
        assert!(Rate::parse("3/0s", secs).is_err());
        assert_eq!(
            Rate::new(10, Duration::from_secs(60)).unwrap().share(),
            Duration::from_secs(6)
        );
    }

    #[test]
    fn failures_lock_a_key_and_the_wait_doubles() {
        let rate = Rate::new(3, Duration::from_secs(3000)).unwrap();
        let t: Failures<u8> = Failures::new(rate);
        let now = Instant::now();
        t.failed(&1, now);
        t.failed(&1, now);
        assert_eq!(t.wait(&1, now), None);
        t.failed(&1, now);
        assert_eq!(t.wait(&1, now), Some(Duration::from_secs(1000)));
        assert_eq!(t.wait(&2, now), None, "another key is not locked");
        // A failure counted after the lock (here: at once) doubles the wait.
        t.failed(&1, now);
        assert_eq!(t.wait(&1, now), Some(Duration::from_secs(2000)));
        t.failed(&1, now);
        assert_eq!(t.wait(&1, now), Some(Duration::from_secs(4000)));
        assert_eq!(seconds(Duration::from_millis(1001)), 2);
        let ip = IpAddr::from([192, 0, 2, 1]);
        assert_eq!(network(ip), ip);
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(network(mapped), ip);
        let v6: IpAddr = "2001:db8:1:2:aaaa:bbbb:cccc:dddd".parse().unwrap();
        assert_eq!(network(v6), "2001:db8:1:2::".parse::<IpAddr>().unwrap());
        assert_eq!(user_key(ip, "Alice").1, "alice");
        assert_eq!(user_key(ip, &"x".repeat(5000)).1, "");
        assert_eq!(user_key(ip, "not one").1, "");
        assert_eq!(seconds(Duration::from_secs(3)), 3);
    }
}
