//! The crate's rules against the slow reference written straight from the rule book, on
//! random games of every size 2 to 7, player count and rule set; make/unmake and the hash.

use crate::common::reference::RefGame;
use crate::common::{mix, pick, random_move, reference, report};
use proptest::prelude::*;
use pyloff::{Cell, Move, Options, Position, RuleSet};

fn options(size: u8, players: u8, rules: usize) -> Options {
    Options::new(size, players, RuleSet::ALL[rules]).unwrap()
}

/// Plays a random game of at most `plies` moves, comparing the crate with the reference
/// after every move, and trying a few random illegal or legal cells on the way.
fn compare_game(options: Options, mut seed: u64, plies: usize) {
    let mut pos = Position::new(options);
    let mut reference: RefGame = reference(options);
    let size = options.size();
    for ply in 0..plies {
        let expected = reference.report();
        assert_eq!(report(&pos), expected, "ply {ply} of {pos}");
        // Any cell of the grid: legal for the crate exactly when for the reference.
        seed = mix(seed);
        let w = u64::from(2 * size - 1);
        let (x, y) = ((seed % w) as u8, ((seed >> 8) % w) as u8);
        if let Some(cell) = Cell::new(x, y) {
            let text = Move::Place(cell).to_string();
            let legal = expected.legal.contains(&text);
            assert_eq!(pos.is_legal(Move::Place(cell)), legal, "{text} in {pos}");
            if !legal {
                let before = pos.clone();
                assert!(pos.play(Move::Place(cell)).is_err());
                assert_eq!(pos, before);
                assert_eq!(pos.hash(), before.hash());
            }
        }
        for special in [Move::Pass, Move::Swap] {
            let legal = expected.legal.contains(&special.to_string());
            assert_eq!(pos.is_legal(special), legal, "{special} in {pos}");
        }
        let Some(mv) = random_move(&pos, &mut seed) else {
            break;
        };
        assert!(reference.play(&mv.to_string()), "reference refuses {mv}");
        let before = pos.clone();
        let undo = pos.play(mv).unwrap();
        assert_eq!(
            pos.hash(),
            pos.compute_hash(),
            "incremental hash after {mv}"
        );
        // Unmake restores everything, then make again.
        pos.unmake(undo);
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
        assert_eq!(pos.status(), before.status());
        pos.play(mv).unwrap();
        // The position string reads back as the same position.
        let again: Position = pos.to_string().parse().unwrap();
        assert_eq!(again, pos);
        assert_eq!(again.hash(), pos.hash());
        assert_eq!(again.status(), pos.status());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn small_boards_agree(size in 2u8..=4, players in 2u8..=4, rules in 0usize..3, seed: u64) {
        compare_game(options(size, players, rules), seed, 70);
    }

    #[test]
    fn medium_boards_agree(size in 5u8..=7, players in 2u8..=4, rules in 0usize..3, seed: u64) {
        compare_game(options(size, players, rules), seed, 40);
    }
}

/// Long games on size 3 and 4 to fill the pyramid, every player count and rule set.
#[test]
fn full_games_agree() {
    let mut seed = 7;
    for rules in 0..3 {
        for players in 2..=4 {
            for size in [3, 4] {
                seed = mix(seed);
                compare_game(options(size, players, rules), seed, 160);
            }
        }
    }
}

/// Every legal move of random positions is played and taken back.
#[test]
fn make_unmake_every_move() {
    let mut seed = 99;
    for rules in 0..3 {
        for players in 2..=4 {
            let mut pos = Position::new(options(5, players, rules));
            for _ in 0..60 {
                let start = pos.clone();
                for mv in pos.legal_moves() {
                    let undo = pos.play(mv).unwrap();
                    assert_eq!(pos.hash(), pos.compute_hash());
                    pos.unmake(undo);
                    assert_eq!(pos, start);
                    assert_eq!(pos.hash(), start.hash());
                }
                match random_move(&pos, &mut seed) {
                    Some(mv) => {
                        pos.play(mv).unwrap();
                    }
                    None => break,
                }
            }
        }
    }
    let _ = pick(&[1], &mut seed);
}
