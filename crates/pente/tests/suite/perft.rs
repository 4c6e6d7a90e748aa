//! Perft counts: the fast rules against the slow reference of the test suite; the counts
//! below were pinned only after both agreed (the deeper ones by the ignored test:
//! `cargo test --release -p pente --test perft -- --ignored`).

use crate::common::{Reference, reference_perft};
use pente::{Position, Rules, Size, perft};

/// `(size, tournament rule, depth, count)`.
const COUNTS: &[(Size, bool, u32, u64)] = &[
    (Size::S7, true, 1, 1),
    (Size::S7, true, 2, 48),
    (Size::S7, true, 3, 1128),
    (Size::S7, false, 3, 2256),
    (Size::S9, true, 3, 4424),
    (Size::S9, false, 3, 6320),
    (Size::S19, true, 3, 120_624),
    (Size::S19, false, 3, 129_240),
    (Size::S7, true, 4, 51_888),
    (Size::S7, false, 4, 103_776),
];

/// Deeper counts, checked by the ignored test.
const DEEP: &[(Size, bool, u32, u64)] = &[
    (Size::S7, true, 5, 2_334_960),
    (Size::S7, false, 5, 4_669_952),
    (Size::S9, true, 4, 345_072),
    (Size::S9, false, 4, 492_960),
    (Size::S13, true, 4, 3_991_968),
];

fn rules(size: Size, t: bool) -> Rules {
    Rules::new(size).with_tournament_rule(t)
}

#[test]
fn pinned_counts_agree_with_the_reference() {
    for &(size, t, depth, count) in COUNTS {
        let fast = perft(&Position::new(rules(size, t)), depth);
        let slow = reference_perft(&Reference::new(rules(size, t)), depth);
        eprintln!("({size}, {t}, {depth}) fast {fast} slow {slow}");
        assert_eq!(fast, slow, "{size} {t} depth {depth}");
        assert_eq!(fast, count, "{size} {t} depth {depth}");
    }
}

#[test]
#[ignore = "slow: cargo test --release -p pente --test perft -- --ignored"]
fn deep_counts_agree_with_the_reference() {
    for &(size, t, depth, count) in DEEP {
        let fast = perft(&Position::new(rules(size, t)), depth);
        let slow = reference_perft(&Reference::new(rules(size, t)), depth);
        eprintln!("({size}, {t}, {depth}) fast {fast} slow {slow}");
        assert_eq!(fast, slow, "{size} {t} depth {depth}");
        assert_eq!(fast, count, "{size} {t} depth {depth}");
    }
}
