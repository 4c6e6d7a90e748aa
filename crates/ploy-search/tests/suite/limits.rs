//! Budgets: the time helpers saturate instead of overflowing, and the builders combine.

use ploy_search::Limits;
use std::time::Duration;

const EXTREMES: [Duration; 6] = [
    Duration::ZERO,
    Duration::from_millis(5),
    Duration::from_secs(60),
    Duration::from_secs(u64::MAX / 4),
    Duration::from_secs(u64::MAX),
    Duration::MAX,
];

#[test]
fn clock_saturates_at_the_extremes() {
    for left in EXTREMES {
        for increment in EXTREMES {
            let l = Limits::clock(left, increment);
            let (soft, hard) = (l.soft_time.unwrap(), l.hard_time.unwrap());
            assert!(soft <= hard, "{left:?} {increment:?}: {soft:?} > {hard:?}");
            // Never more than what is left on the clock.
            assert!(hard <= left, "{left:?} {increment:?}: {hard:?}");
        }
    }
    let l = Limits::clock(Duration::MAX, Duration::MAX);
    assert!(l.hard_time.unwrap() > Duration::from_secs(1 << 60));
}

#[test]
fn move_time_saturates_at_the_extremes() {
    for t in EXTREMES {
        let l = Limits::move_time(t);
        assert_eq!(l.hard_time, Some(t));
        assert!(l.soft_time.unwrap() <= t);
    }
}

#[test]
fn builders_combine() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let stop = Arc::new(AtomicBool::new(false));
    let l = Limits::move_time(Duration::from_millis(800))
        .with_depth(7)
        .with_nodes(5000)
        .with_stop(stop.clone());
    assert_eq!(l.depth, Some(7));
    assert_eq!(l.nodes, Some(5000));
    assert_eq!(l.soft_time, Some(Duration::from_millis(400)));
    assert_eq!(l.hard_time, Some(Duration::from_millis(800)));
    assert!(Arc::ptr_eq(l.stop.as_ref().unwrap(), &stop));
    // In any order, the same limits.
    let m = Limits::depth(7)
        .with_stop(stop.clone())
        .with_nodes(5000)
        .with_move_time(Duration::from_millis(800));
    assert_eq!(
        (m.depth, m.nodes, m.soft_time, m.hard_time),
        (l.depth, l.nodes, l.soft_time, l.hard_time)
    );
    let c = Limits::nodes(10).with_clock(Duration::from_millis(30_010), Duration::ZERO);
    assert_eq!(c.nodes, Some(10));
    assert_eq!(c.hard_time, Some(Duration::from_millis(6_000)));
    assert_eq!(
        (c.soft_time, c.hard_time),
        (
            Limits::clock(Duration::from_millis(30_010), Duration::ZERO).soft_time,
            Limits::clock(Duration::from_millis(30_010), Duration::ZERO).hard_time
        )
    );
}

/// A clock that moves on a millisecond each time it is read: the search reads it every
/// [`ploy_search::POLL_INTERVAL`] nodes and at the ends of iterations, so its time grows
/// with the work done, the same on every machine.
struct Ticking(std::sync::atomic::AtomicU64);

impl ploy_search::Clock for Ticking {
    fn now(&self) -> Duration {
        Duration::from_millis(self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

/// A search of a deep random tree on the ticking clock: the result and the times at which
/// its iterations ended.
fn ticking_search(
    seed: u64,
    limits: &Limits,
    fit: bool,
) -> (ploy_search::SearchResult<u16>, Vec<Duration>) {
    use crate::common::Tree;
    use ploy_search::{Config, SearchOptions, Searcher};
    let tree = Tree::new(seed, 64, false);
    let eval = |t: &Tree| t.eval();
    let mut s = Searcher::new(Config::default(), eval);
    s.set_clock(Ticking(std::sync::atomic::AtomicU64::new(0)));
    let mut options = SearchOptions::default();
    if fit {
        options = options.with_fitted_iterations();
    }
    let mut ends = Vec::new();
    let r = s.search_with(&tree, &[], limits, &options, |info| ends.push(info.time));
    (r, ends)
}

/// The documented expectation of the next iteration's time.
fn expected_next(ends: &[Duration]) -> Duration {
    let took = |i: usize| ends[i] - if i == 0 { Duration::ZERO } else { ends[i - 1] };
    match ends.len() {
        0 => Duration::ZERO,
        1 | 2 => took(ends.len() - 1) * 2,
        n => {
            let (last, before) = (took(n - 1).as_secs_f64(), took(n - 2).as_secs_f64());
            let growth = if before > 0.0 {
                (last / before).clamp(1.5, 4.0)
            } else {
                4.0
            };
            Duration::from_secs_f64(last * growth)
        }
    }
}

/// With a fixed time a move, fitted iterations go past half the time: they start an
/// iteration after the soft time when it is expected to end within the whole time, where
/// the soft time's rule starts none.
#[test]
fn fitted_iterations_go_past_the_soft_time() {
    let limits = Limits::move_time(Duration::from_millis(400));
    let half = Duration::from_millis(200);
    let mut later = 0;
    for seed in 0..16 {
        let (plain, plain_ends) = ticking_search(seed, &limits, false);
        let (fitted, ends) = ticking_search(seed, &limits, true);
        if plain.score.is_win() || plain.score.is_loss() {
            continue;
        }
        // An iteration that ended after the one that ended after the soft time started
        // after it.
        let started_late = |e: &[Duration]| e.len() >= 2 && e[e.len() - 2] > half;
        assert!(!started_late(&plain_ends), "seed {seed}: {plain_ends:?}");
        later += usize::from(started_late(&ends));
        assert!(
            fitted.depth >= plain.depth,
            "seed {seed}: {fitted:?} {plain:?}"
        );
        assert!(*ends.last().unwrap() <= Duration::from_millis(400));
    }
    assert!(
        later > 0,
        "no fitted search started an iteration after the soft time"
    );
}

/// An iteration starts only when it is expected to end within the time aimed at (twice
/// the soft time, at most the hard time); one expected to fit is started. The clock's reads
/// between an iteration's end and the next decision shift the times by a few milliseconds:
/// the bounds allow for them.
#[test]
fn fitted_iterations_start_only_when_expected_to_fit() {
    let mut stopped = 0;
    for seed in 0..24 {
        for (soft, hard) in [(30u64, 60u64), (75, 500), (150, 300), (400, 300)] {
            let limits = Limits {
                soft_time: Some(Duration::from_millis(soft)),
                hard_time: Some(Duration::from_millis(hard)),
                ..Limits::default()
            };
            let aim = (2 * soft).min(hard);
            let (r, ends) = ticking_search(seed, &limits, true);
            if r.score.is_win() || r.score.is_loss() || ends.len() < 2 {
                continue;
            }
            let end = ends[ends.len() - 1] + expected_next(&ends);
            let slack = Duration::from_millis(aim / 20 + 3);
            let aim = Duration::from_millis(aim);
            if r.interrupted {
                assert!(end <= aim + slack, "seed {seed} {soft}/{hard}: {ends:?}");
            } else {
                stopped += 1;
                assert!(end + slack > aim, "seed {seed} {soft}/{hard}: {ends:?}");
            }
        }
    }
    assert!(
        stopped > 0,
        "some searches stopped before an iteration that would not fit"
    );
}
