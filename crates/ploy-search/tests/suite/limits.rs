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
