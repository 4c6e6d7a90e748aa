//! One test per rule of `docs/rules.md` sections 2 to 6, with expectations worked out by hand.

use crate::common::{START_BOARD, parse_board, position, sq, with_commanders};
use ploy_core::{Elimination, Move, Outcome, Position, Rotation, Rules, Seat, Square, WinReason};
use std::collections::BTreeSet;

const G: Seat = Seat::Green;
const R: Seat = Seat::Red;

fn uni() -> Rules {
    Rules::university()
}

fn squares(names: &[&str]) -> BTreeSet<Square> {
    names.iter().map(|n| sq(n)).collect()
}

/// Where the piece on `from` may go with a plain motion move (`r = 0`).
fn targets(pos: &Position, from: &str) -> BTreeSet<Square> {
    pos.legal_moves_from(sq(from))
        .iter()
        .filter(|m| !m.is_direction_move() && m.rotation() == 0)
        .map(|m| m.to())
        .collect()
}

/// The rotations of the direction moves of the piece on `from`.
fn turns(pos: &Position, from: &str) -> BTreeSet<u8> {
    pos.legal_moves_from(sq(from))
        .iter()
        .filter(|m| m.is_direction_move())
        .map(|m| m.rotation())
        .collect()
}

fn mv(from: &str, to: &str, r: u8) -> Move {
    Move::new(sq(from), sq(to), r)
}

fn mask_at(pos: &Position, at: &str) -> Option<u8> {
    pos.board().piece_at(sq(at)).map(|p| p.flags().bits())
}

// ---- Section 4: the start position ------------------------------------------------------

#[test]
fn start_position_is_the_rule_books() {
    let pos = Position::new();
    assert_eq!(pos.board(), &parse_board(START_BOARD));
    assert_eq!(pos.turn(), Seat::BLACK);
    assert_eq!(Seat::BLACK, Seat::Green);
    assert_eq!(Seat::WHITE, Seat::Red);
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.board().count_colour(G), 15);
    assert_eq!(pos.board().count_colour(R), 15);
}

#[test]
fn start_position_counting_check() {
    // `docs/rules.md` section 3: each shield has 1 target x 8 rotations + 7 direction moves; the
    // commander (mask 170) has the 4 odd rotations and no free square.
    let pos = Position::new();
    for shield in ["d3", "e3", "f3"] {
        assert_eq!(pos.legal_moves_from(sq(shield)).len(), 15, "{shield}");
    }
    assert_eq!(pos.legal_moves_from(sq("e1")).len(), 4);
    assert_eq!(turns(&pos, "e1"), BTreeSet::from([1, 3, 5, 7]));
    assert_eq!(pos.legal_moves().len(), 145);
}

// ---- Section 3: motion moves ------------------------------------------------------------

#[test]
fn own_piece_blocks_the_path() {
    // Lance N, E, S on e4; own shields on e6 and g4.
    let pos = with_commanders(&[("e4", G, 21), ("e6", G, 1), ("g4", G, 1)], G, uni());
    assert_eq!(
        targets(&pos, "e4"),
        squares(&["e5", "f4", "e3", "e2", "e1"])
    );
    assert!(
        !pos.is_legal(mv("e4", "e6", 0)),
        "no capture of an own piece"
    );
    assert!(!pos.is_legal(mv("e4", "e7", 0)), "no jumping");
    assert!(!pos.is_legal(mv("e4", "h4", 0)), "no jumping");
}

#[test]
fn a_capture_ends_the_move() {
    // Lance N, E, S on e4; red pieces on e6 and e7, and on f4.
    let pos = with_commanders(
        &[("e4", G, 21), ("e6", R, 16), ("e7", R, 17), ("f4", R, 3)],
        G,
        uni(),
    );
    assert_eq!(
        targets(&pos, "e4"),
        squares(&["e5", "e6", "f4", "e3", "e2", "e1"])
    );
    assert!(
        !pos.is_legal(mv("e4", "e7", 0)),
        "never past the captured square"
    );
    assert!(
        !pos.is_legal(mv("e4", "g4", 0)),
        "never past the captured square"
    );
    let mut after = pos.clone();
    let undo = after.play(mv("e4", "e6", 0)).unwrap();
    assert_eq!(
        undo.captured().map(|p| (p.colour(), p.flags().bits())),
        Some((R, 16))
    );
    assert_eq!(mask_at(&after, "e4"), None);
    assert_eq!(mask_at(&after, "e6"), Some(21));
    assert_eq!(
        mask_at(&after, "e7"),
        Some(17),
        "the piece behind is untouched"
    );
    assert_eq!(
        after.board().count_colour(R),
        pos.board().count_colour(R) - 1
    );
}

#[test]
fn board_edges() {
    // A shield at the east edge pointing east: no move, and no wrap to the next rank.
    let pos = with_commanders(&[("i5", G, 4)], G, uni());
    assert!(targets(&pos, "i5").is_empty());
    assert!(!pos.is_legal(mv("i5", "a6", 0)));
    // A probe on the top edge pointing N and S moves only south.
    let pos = with_commanders(&[("e9", G, 17)], G, uni());
    assert_eq!(targets(&pos, "e9"), squares(&["e8", "e7"]));
    // A lance on the a-file pointing NW, W, SW: nothing but direction moves.
    let pos = with_commanders(&[("a5", G, 224)], G, uni());
    assert_eq!(pos.legal_moves_from(sq("a5")).len(), 7);
    // A lance on b5 pointing N, S, W: one square west, three north and south.
    let pos = with_commanders(&[("b5", G, 81)], G, uni());
    assert_eq!(
        targets(&pos, "b5"),
        squares(&["a5", "b6", "b7", "b8", "b4", "b3", "b2"])
    );
    // The corner: a commander on a1 with mask 170 reaches only b2.
    let pos = with_commanders(&[], G, uni());
    assert_eq!(targets(&pos, "a1"), squares(&["b2"]));
}

#[test]
fn range_per_kind() {
    // Shield: 1 square, 8 rotations each, plus 7 direction moves.
    let pos = with_commanders(&[("e5", G, 1)], G, uni());
    assert_eq!(targets(&pos, "e5"), squares(&["e6"]));
    assert_eq!(pos.legal_moves_from(sq("e5")).len(), 8 + 7);
    // Probe: 2 squares.
    let pos = with_commanders(&[("e5", G, 17)], G, uni());
    assert_eq!(targets(&pos, "e5"), squares(&["e6", "e7", "e4", "e3"]));
    // Turning N+S by 4 changes nothing: 6 direction moves.
    assert_eq!(pos.legal_moves_from(sq("e5")).len(), 4 + 6);
    // Lance: 3 squares.
    let pos = with_commanders(&[("e5", G, 21)], G, uni());
    assert_eq!(
        targets(&pos, "e5"),
        squares(&["e6", "e7", "e8", "f5", "g5", "h5", "e4", "e3", "e2"])
    );
    assert_eq!(pos.legal_moves_from(sq("e5")).len(), 9 + 7);
    // Commander: 1 square; mask 170 has only 4 distinct rotations.
    let pos = with_commanders(&[("e5", G, 170)], G, uni());
    assert_eq!(targets(&pos, "e5"), squares(&["d6", "f6", "d4", "f4"]));
    assert_eq!(pos.legal_moves_from(sq("e5")).len(), 4 + 4);
    assert!(!pos.is_legal(mv("e5", "g7", 0)));
    // A commander N, NE, E, SE: every rotation changes it.
    let pos = with_commanders(&[("e5", G, 15)], G, uni());
    assert_eq!(targets(&pos, "e5"), squares(&["e6", "f6", "f5", "f4"]));
    assert_eq!(pos.legal_moves_from(sq("e5")).len(), 4 + 7);
}

#[test]
fn only_shields_turn_after_moving() {
    let pos = with_commanders(&[("e5", G, 17), ("c5", G, 21)], G, uni());
    for r in 1..8 {
        assert!(!pos.is_legal(mv("e5", "e6", r)), "probe e5-e6-{r}");
        assert!(!pos.is_legal(mv("c5", "c6", r)), "lance c5-c6-{r}");
    }
    assert!(pos.is_legal(mv("e5", "e6", 0)));
    let pos = with_commanders(&[("e5", G, 170)], G, uni());
    assert!(!pos.is_legal(mv("e5", "f6", 1)), "commander e5-f6-1");
}

#[test]
fn shield_moves_with_each_rotation() {
    let pos = with_commanders(&[("e5", G, 1)], G, uni());
    for r in 0..8u8 {
        let m = mv("e5", "e6", r);
        assert!(pos.is_legal(m), "{m:?}");
        let after = pos.after(m).unwrap();
        assert_eq!(mask_at(&after, "e5"), None);
        assert_eq!(mask_at(&after, "e6"), Some(1 << r), "{m:?}");
    }
    // A shield turned by 3 points south-east (`docs/rules.md` section 2).
    assert_eq!(
        mask_at(&pos.after(mv("e5", "e6", 3)).unwrap(), "e6"),
        Some(8)
    );
}

// ---- Section 3: direction moves ---------------------------------------------------------

#[test]
fn commander_rotation_must_change_the_mask() {
    let pos = with_commanders(&[("e5", G, 170)], G, uni());
    for r in [2, 4, 6] {
        assert!(
            !pos.is_legal(Move::turn(sq("e5"), r)),
            "rotation {r} leaves mask 170"
        );
    }
    for r in [1, 3, 5, 7] {
        assert!(pos.is_legal(Move::turn(sq("e5"), r)), "rotation {r}");
        assert_eq!(
            mask_at(&pos.after(Move::turn(sq("e5"), r)).unwrap(), "e5"),
            Some(85)
        );
    }
    assert!(
        !pos.is_legal(Move::turn(sq("e5"), 0)),
        "a null move is not a move"
    );
    assert_eq!(turns(&pos, "e5"), BTreeSet::from([1, 3, 5, 7]));
}

#[test]
fn probe_with_opposite_flags_cannot_turn_by_four() {
    let pos = with_commanders(&[("e5", G, 17), ("c5", G, 3)], G, uni());
    assert!(!pos.is_legal(Move::turn(sq("e5"), 4)));
    assert_eq!(turns(&pos, "e5"), BTreeSet::from([1, 2, 3, 5, 6, 7]));
    // Adjacent flags (N, NE) change under every rotation.
    assert_eq!(turns(&pos, "c5"), (1..8).collect());
    assert_eq!(
        mask_at(&pos.after(Move::turn(sq("c5"), 4)).unwrap(), "c5"),
        Some(48)
    );
}

#[test]
fn direction_move_turns_clockwise() {
    // Lance N, E, S (21) turned by 1: NE, SE, SW (2 + 8 + 32).
    let pos = with_commanders(&[("e5", G, 21)], G, uni());
    assert_eq!(
        mask_at(&pos.after(Move::turn(sq("e5"), 1)).unwrap(), "e5"),
        Some(42)
    );
    // Turned by 7 (one step counterclockwise): NW, NE, SE (128 + 2 + 8).
    assert_eq!(
        mask_at(&pos.after(Move::turn(sq("e5"), 7)).unwrap(), "e5"),
        Some(138)
    );
}

#[test]
fn single_step_rotation() {
    let rules = uni().with_rotation(Rotation::SingleStep);
    let pos = with_commanders(&[("e5", G, 1), ("c5", G, 17), ("g5", G, 15)], G, rules);
    let shield: BTreeSet<Move> = pos.legal_moves_from(sq("e5")).iter().copied().collect();
    assert_eq!(
        shield,
        BTreeSet::from([
            mv("e5", "e6", 0),
            mv("e5", "e6", 1),
            mv("e5", "e6", 7),
            Move::turn(sq("e5"), 1),
            Move::turn(sq("e5"), 7),
        ])
    );
    assert_eq!(turns(&pos, "c5"), BTreeSet::from([1, 7]));
    assert_eq!(turns(&pos, "g5"), BTreeSet::from([1, 7]));
    for r in 2..7 {
        assert!(!pos.is_legal(Move::turn(sq("g5"), r)));
        assert!(!pos.is_legal(mv("e5", "e6", r)));
    }
    // The commander with mask 170: 1 and 7 are legal, 3 and 5 are not.
    let pos = with_commanders(&[], G, rules);
    assert_eq!(turns(&pos, "a1"), BTreeSet::from([1, 7]));
    // The start position: 3 shields x (3 + 2), the commander 2, ...; fewer moves than 145.
    let start = Position::start(ploy_core::Variant::TwoPlayer, rules);
    for shield in ["d3", "e3", "f3"] {
        assert_eq!(start.legal_moves_from(sq(shield)).len(), 5);
    }
    assert_eq!(start.legal_moves_from(sq("e1")).len(), 2);
}

// ---- Section 3/5: who moves ---------------------------------------------------------------

#[test]
fn the_side_not_to_move_cannot_move() {
    let pos = Position::new();
    assert!(
        pos.legal_moves()
            .iter()
            .all(|m| pos.board().piece_at(m.from()).unwrap().colour() == G)
    );
    // The red shield on e7 points south at the empty e6.
    let red = mv("e7", "e6", 0);
    assert!(!pos.is_legal(red));
    assert!(pos.legal_moves_from(sq("e7")).is_empty());
    assert!(pos.clone().play(red).is_err());
    let after = pos.after(mv("b1", "b2", 0)).unwrap();
    assert_eq!(after.turn(), R);
    assert!(after.is_legal(red));
    assert!(
        after
            .legal_moves()
            .iter()
            .all(|m| after.board().piece_at(m.from()).unwrap().colour() == R)
    );
    // Nothing is legal from an empty square.
    assert!(pos.legal_moves_from(sq("e5")).is_empty());
    assert!(!pos.is_legal(mv("e5", "e6", 0)));
}

// ---- Section 4: elimination and decided positions ----------------------------------------

#[test]
fn capturing_the_commander_ends_the_game() {
    for elimination in [Elimination::Strict, Elimination::Relaxed] {
        let rules = uni().with_elimination(elimination);
        let pos = with_commanders(&[("e4", G, 21), ("e6", R, 170), ("c7", R, 16)], G, rules);
        assert_eq!(pos.outcome(), None);
        let after = pos.after(mv("e4", "e6", 0)).unwrap();
        assert_eq!(
            after.outcome(),
            Some(Outcome::win(G, WinReason::CommanderCaptured))
        );
        assert!(after.is_game_over());
        assert_eq!(after.turn(), R, "the turn passes; the loser is to move");
        assert!(after.legal_moves().is_empty());
        assert_eq!(after.count_legal_moves(), 0);
        assert!(
            !after.is_legal(mv("c7", "c6", 0)),
            "the red shield may not move"
        );
        assert!(after.legal_moves_from(sq("c7")).is_empty());
    }
}

#[test]
fn only_commanders_left_strict_but_not_relaxed() {
    // Red has its commander and one shield; green captures the shield.
    let pieces = [("a1", G, 170), ("e4", G, 21), ("i9", R, 170), ("e6", R, 16)];
    let strict = position(&pieces, G, uni());
    let after = strict.after(mv("e4", "e6", 0)).unwrap();
    assert_eq!(
        after.outcome(),
        Some(Outcome::win(G, WinReason::OnlyCommanders))
    );
    assert!(after.legal_moves().is_empty());

    let relaxed = position(&pieces, G, uni().with_elimination(Elimination::Relaxed));
    let after = relaxed.after(mv("e4", "e6", 0)).unwrap();
    assert_eq!(after.outcome(), None);
    // The red commander on i9 (NE, SE, SW, NW) may step to h8 or turn by 1, 3, 5 or 7.
    assert_eq!(after.legal_moves().len(), 5);
    assert!(after.is_legal(mv("i9", "h8", 0)));
}

#[test]
fn decided_setups_have_no_moves() {
    // Red has no commander: green wins, whoever is to move.
    for turn in [G, R] {
        let pos = position(&[("a1", G, 170), ("e5", G, 1), ("e7", R, 16)], turn, uni());
        assert_eq!(
            pos.outcome(),
            Some(Outcome::win(G, WinReason::CommanderCaptured))
        );
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.count_legal_moves(), 0);
        assert!(!pos.is_legal(mv("e5", "e6", 0)));
        assert!(!pos.is_legal(mv("e7", "e6", 0)));
        assert!(
            Square::ALL
                .iter()
                .all(|&s| pos.legal_moves_from(s).is_empty())
        );
    }
    // Strict: green (to move) has only its commander; red wins.
    let pieces = [("a1", G, 170), ("i9", R, 170), ("e7", R, 16)];
    let pos = position(&pieces, G, uni());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(R, WinReason::OnlyCommanders))
    );
    assert!(pos.legal_moves().is_empty());
    let pos = position(&pieces, G, uni().with_elimination(Elimination::Relaxed));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.legal_moves().len(), 5);
}

#[test]
fn both_sides_eliminated_the_side_not_to_move_wins() {
    // One side has no commander, the other only its commander (strict): both are out.
    for (turn, winner) in [(G, R), (R, G)] {
        let pos = position(&[("e5", G, 1), ("i9", R, 170)], turn, uni());
        assert_eq!(pos.outcome().and_then(Outcome::winner), Some(winner));
        assert!(pos.legal_moves().is_empty());
    }
    // Both sides have only their commanders (strict).
    for (turn, winner) in [(G, R), (R, G)] {
        let pos = position(&[("a1", G, 170), ("i9", R, 170)], turn, uni());
        assert_eq!(
            pos.outcome(),
            Some(Outcome::win(winner, WinReason::OnlyCommanders))
        );
        assert!(pos.legal_moves().is_empty());
        let relaxed = pos
            .with_rules(uni().with_elimination(Elimination::Relaxed))
            .unwrap();
        assert_eq!(relaxed.outcome(), None, "relaxed: commanders alone play on");
        assert!(!relaxed.legal_moves().is_empty());
    }
}

// ---- Attacks (what a GUI or an evaluation asks) ------------------------------------------

#[test]
fn attacks_and_attackers() {
    // Green lance N, E, S on e4 with its own shield on e6; a red probe E, W on g4 and a red
    // shield pointing N on e3.
    let pos = with_commanders(
        &[("e4", G, 21), ("e6", G, 1), ("g4", R, 68), ("e3", R, 1)],
        G,
        uni(),
    );
    let set = |b: ploy_core::Bitboard| b.into_iter().collect::<BTreeSet<Square>>();
    assert_eq!(
        set(pos.attacks(sq("e4"))),
        squares(&["e5", "f4", "g4", "e3"])
    );
    assert_eq!(
        set(pos.attacks(sq("g4"))),
        squares(&["f4", "e4", "h4", "i4"])
    );
    assert_eq!(set(pos.attacks(sq("e3"))), squares(&["e4"]));
    assert!(
        pos.attacks(sq("e5")).is_empty(),
        "an empty square attacks nothing"
    );
    assert_eq!(set(pos.attackers(sq("e4"), R)), squares(&["g4", "e3"]));
    assert!(pos.attackers(sq("e4"), G).is_empty());
    assert!(pos.is_attacked(sq("e4"), R));
    assert!(!pos.is_attacked(sq("e4"), G));
    assert_eq!(set(pos.attackers(sq("f4"), G)), squares(&["e4"]));
    assert_eq!(set(pos.attackers(sq("f4"), R)), squares(&["g4"]));
    assert_eq!(set(pos.attackers(sq("e5"), G)), squares(&["e4"]));
    assert!(pos.attackers(sq("e5"), R).is_empty());
    // On a square holding its own piece, a seat's attackers are the pieces that could
    // capture an enemy standing there (the documented meaning).
    assert_eq!(set(pos.attackers(sq("e6"), G)), squares(&["e4"]));
    assert!(pos.attackers(sq("e6"), R).is_empty());
    // Attacks do not depend on whose turn it is.
    let red = pos.to_setup();
    let red = ploy_core::Setup { turn: R, ..red };
    let red = Position::from_setup(red, uni()).unwrap();
    for s in Square::ALL {
        assert_eq!(red.attacks(s), pos.attacks(s));
    }
}

// ---- Hashing ------------------------------------------------------------------------------

#[test]
fn transpositions_reach_equal_positions_and_hashes() {
    let start = Position::new();
    let play = |moves: &[Move]| {
        let mut p = start.clone();
        for &m in moves {
            p.play(m).unwrap();
        }
        p
    };
    let a = play(&[mv("e3", "e4", 0), mv("e7", "e6", 0), mv("d3", "d4", 0)]);
    let b = play(&[mv("d3", "d4", 0), mv("e7", "e6", 0), mv("e3", "e4", 0)]);
    assert_eq!(a, b);
    assert_eq!(a.hash(), b.hash());
    // Two direction moves with the same result (`docs/rules.md` section 3) give the same position.
    let c = play(&[Move::turn(sq("e1"), 1)]);
    let d = play(&[Move::turn(sq("e1"), 3)]);
    assert_eq!(c, d);
    assert_eq!(c.hash(), c.compute_hash());
    // The side to move is part of the hash.
    let red = Position::from_setup(
        ploy_core::Setup {
            turn: R,
            ..start.to_setup()
        },
        start.rules(),
    )
    .unwrap();
    assert_ne!(red.hash(), start.hash());
    assert_eq!(red.hash(), red.compute_hash());
    // The hash is a function of the position: the same on every construction.
    assert_eq!(Position::new().hash(), start.hash());
}
