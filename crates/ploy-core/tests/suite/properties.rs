//! Properties of the move generator, make/unmake and hashing, on random valid positions and
//! on random playouts from the start position, checked against the reference generator in
//! `common/reference.rs`.

use crate::common::reference::{self, RefState};
use crate::common::{SplitMix, any_position, any_rules};
use ploy_core::{Bitboard, Move, MoveList, Outcome, Position, Seat, Square, Variant};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::collections::BTreeSet;

fn set_of(moves: &[Move]) -> BTreeSet<Move> {
    moves.iter().copied().collect()
}

fn squares_of(b: Bitboard) -> BTreeSet<Square> {
    b.into_iter().collect()
}

/// The fast generator lists exactly the reference moves, without duplicates, and its other
/// entry points (count, per square, appending) agree with it.
fn check_generation(pos: &Position) -> BTreeSet<Move> {
    let fast = pos.legal_moves();
    let fast_set = set_of(&fast);
    assert_eq!(fast_set.len(), fast.len(), "duplicate moves in {pos:?}");
    let reference = set_of(&reference::legal_moves(pos));
    if fast_set != reference {
        let extra: Vec<_> = fast_set.difference(&reference).collect();
        let missing: Vec<_> = reference.difference(&fast_set).collect();
        panic!(
            "generator differs from the reference in {pos:?}\nextra {extra:?}\nmissing {missing:?}"
        );
    }
    assert_eq!(
        pos.count_legal_moves(),
        fast.len(),
        "count_legal_moves in {pos:?}"
    );
    assert!(
        fast.is_sorted_by_key(crate::common::generation_order),
        "generation order in {pos:?}: {:?}",
        fast.iter().collect::<Vec<_>>()
    );
    crate::common::check_board_sets(pos.board());

    let mut appended = MoveList::new();
    appended.push(Move::turn(Square::A1, 0));
    pos.generate_moves(&mut appended);
    assert_eq!(
        appended[0],
        Move::turn(Square::A1, 0),
        "generate_moves must append"
    );
    assert_eq!(set_of(&appended[1..]), fast_set);
    assert_eq!(appended.len(), fast.len() + 1);

    for from in Square::ALL {
        let mine = pos.legal_moves_from(from);
        let expected: BTreeSet<Move> = fast_set
            .iter()
            .copied()
            .filter(|m| m.from() == from)
            .collect();
        assert_eq!(
            set_of(&mine),
            expected,
            "legal_moves_from({from}) in {pos:?}"
        );
        assert_eq!(
            mine.len(),
            expected.len(),
            "duplicates from {from} in {pos:?}"
        );
    }

    for &mv in &fast_set {
        assert!(
            pos.is_legal(mv),
            "generated {mv:?} is not is_legal in {pos:?}"
        );
    }
    assert_eq!(
        pos.outcome(),
        reference::outcome_of_board(pos.board(), pos.turn(), pos.rules())
    );
    assert_eq!(pos.is_game_over(), pos.outcome().is_some());
    // No stalemate (`docs/rules.md` section 5): a side with a piece can always turn it.
    assert_eq!(
        fast_set.is_empty(),
        pos.outcome().is_some(),
        "moves vs outcome in {pos:?}"
    );
    fast_set
}

/// `is_legal` agrees with the generator on every `(from, to, r)` triple.
fn check_is_legal_exhaustive(pos: &Position, legal: &BTreeSet<Move>) {
    for from in Square::ALL {
        for to in Square::ALL {
            for r in 0..8 {
                let mv = Move::new(from, to, r);
                assert_eq!(
                    pos.is_legal(mv),
                    legal.contains(&mv),
                    "is_legal({mv:?}) in {pos:?}"
                );
            }
        }
    }
}

/// `attacks`, `attackers` and `is_attacked` agree with the reference motion rules.
fn check_attacks(pos: &Position) {
    let board = pos.board();
    for sq in Square::ALL {
        let expected: BTreeSet<Square> = reference::motion_targets(board, sq).into_iter().collect();
        assert_eq!(
            squares_of(pos.attacks(sq)),
            expected,
            "attacks({sq}) in {pos:?}"
        );
    }
    for target in Square::ALL {
        for seat in [Seat::Green, Seat::Red] {
            // Pieces of `seat` whose line reaches `target` within range over empty squares:
            // they could capture an enemy piece standing there.
            let expected: BTreeSet<Square> = board
                .pieces()
                .filter(|&(s, p)| {
                    p.colour() == seat && s != target && reference::reaches(board, s, p, target)
                })
                .map(|(s, _)| s)
                .collect();
            let got = pos.attackers(target, seat);
            assert_eq!(
                squares_of(got),
                expected,
                "attackers({target}, {seat}) in {pos:?}"
            );
            assert_eq!(pos.is_attacked(target, seat), !expected.is_empty());
            // When the target is empty or an enemy's, the attackers are exactly the pieces
            // with a motion move onto it.
            if board.piece_at(target).is_none_or(|p| p.colour() != seat) {
                let movers: BTreeSet<Square> = board
                    .pieces()
                    .filter(|&(s, p)| {
                        p.colour() == seat && reference::motion_targets(board, s).contains(&target)
                    })
                    .map(|(s, _)| s)
                    .collect();
                assert_eq!(
                    squares_of(got),
                    movers,
                    "attackers({target}, {seat}) in {pos:?}"
                );
            }
        }
    }
}

/// Makes `mv` (legal) and checks the result against the reference, the incremental hash
/// against the recomputed one, and the position against a fresh one from its setup; then
/// unmakes it and checks that everything is restored bit for bit.
fn check_make_unmake(pos: &mut Position, mv: Move) {
    let before = pos.clone();
    let expected_capture = if mv.is_direction_move() {
        None
    } else {
        before.board().piece_at(mv.to())
    };
    let undo = pos.make_move(mv);
    assert_eq!(
        undo.captured(),
        expected_capture,
        "captured piece of {mv:?} in {before:?}"
    );
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash after {mv:?} in {before:?}"
    );
    assert_eq!(
        pos.board(),
        &reference::board_after(before.board(), mv),
        "board after {mv:?}"
    );
    let mover = before.turn();
    assert_eq!(pos.turn(), reference::other(mover));
    let expected_outcome = reference::eliminated(pos.board(), pos.turn(), pos.rules().elimination)
        .map(|reason| Outcome::win(mover, reason));
    assert_eq!(
        pos.outcome(),
        expected_outcome,
        "outcome after {mv:?} in {before:?}"
    );
    assert_eq!(pos.rules(), before.rules());
    let fresh = Position::from_setup(pos.to_setup(), pos.rules()).expect("still valid");
    assert_eq!(
        &fresh, pos,
        "incremental state after {mv:?} differs from a fresh position"
    );
    assert_eq!(before.after(mv).as_ref(), Ok(&*pos), "after({mv:?})");
    let mut checked = before.clone();
    assert!(checked.play(mv).is_ok());
    assert_eq!(&checked, pos, "play({mv:?})");
    pos.unmake_move(mv, undo);
    assert_eq!(*pos, before, "unmake {mv:?}");
    assert_eq!(pos.hash(), before.hash());
}

/// `play` of an illegal move fails and leaves the position as it was.
fn check_illegal(pos: &Position, rng: &mut SplitMix, legal: &BTreeSet<Move>) {
    for _ in 0..64 {
        let mv = Move::new(
            Square::ALL[rng.below(81)],
            Square::ALL[rng.below(81)],
            rng.below(8) as u8,
        );
        if legal.contains(&mv) {
            continue;
        }
        let mut p = pos.clone();
        assert!(p.play(mv).is_err(), "illegal {mv:?} accepted in {pos:?}");
        assert_eq!(&p, pos);
        assert!(pos.after(mv).is_err());
    }
}

/// Every check on one position, making and unmaking every legal move.
fn check_all(pos: &Position, exhaustive: bool, rng: &mut SplitMix) -> BTreeSet<Move> {
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_eq!(pos.variant(), Variant::TwoPlayer);
    let legal = check_generation(pos);
    if exhaustive {
        check_is_legal_exhaustive(pos, &legal);
    }
    check_attacks(pos);
    check_illegal(pos, rng, &legal);
    let mut p = pos.clone();
    for &mv in &legal {
        check_make_unmake(&mut p, mv);
    }
    // perft counts its last ply after a non-capture without making the move: the same
    // count as making every move down to the leaves.
    assert_eq!(
        ploy_core::perft(pos, 2),
        ploy_core::perft_full(pos, 2),
        "perft 2 in {pos:?}"
    );
    legal
}

/// `cases` cases (or `PLOY_PROPTEST_CASES`); failures are saved beside this file
/// (`properties.regressions`) and rerun first.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        // `PLOY_PROPTEST_CASES=5000 cargo test --release -p ploy-core --test ...` for a deep run.
        cases: std::env::var("PLOY_PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// Random valid positions (and the positions one and two moves later).
    #[test]
    fn random_positions(pos in any_position(), seed in any::<u64>()) {
        let mut rng = SplitMix(seed);
        let legal = check_all(&pos, true, &mut rng);
        let mut p = pos.clone();
        let mut legal: Vec<Move> = legal.into_iter().collect();
        for _ in 0..2 {
            if legal.is_empty() {
                break;
            }
            p.make_move(legal[rng.below(legal.len())]);
            legal = check_all(&p, true, &mut rng).into_iter().collect();
        }
    }

}

proptest! {
    #![proptest_config(config(32))]

    /// Random playouts from the start position, preferring captures so that games end.
    #[test]
    fn random_playouts(rules in any_rules(), seed in any::<u64>()) {
        let mut rng = SplitMix(seed);
        let mut pos = Position::start(Variant::TwoPlayer, rules);
        let mut reference = RefState::of(&pos);
        let mut history = vec![pos.clone()];
        let mut played = Vec::new();
        for ply in 0..240 {
            let legal = if ply % 16 == 0 {
                check_all(&pos, ply % 64 == 0, &mut rng)
            } else {
                let legal = check_generation(&pos);
                for &mv in legal.iter().take(16) {
                    check_make_unmake(&mut pos, mv);
                }
                legal
            };
            assert_eq!(legal, set_of(&reference.moves()));
            if legal.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            let legal: Vec<Move> = legal.into_iter().collect();
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
                .collect();
            let mv = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            check_make_unmake(&mut pos, mv);
            pos.make_move(mv);
            reference = reference.after(mv);
            assert_eq!(pos.board(), &reference.board);
            assert_eq!(pos.hash(), pos.compute_hash());
            history.push(pos.clone());
            played.push(mv);
        }
        // Unwinding a whole game with unmake restores every earlier position.
        let mut game = ploy_core::Game::from_position(history[0].clone());
        for &mv in &played {
            game.play(mv).expect("legal");
        }
        assert_eq!(game.position(), history.last().unwrap());
        for expected in history.iter().rev().skip(1) {
            game.undo().expect("a move to undo");
            assert_eq!(game.position(), expected);
        }
    }
}
