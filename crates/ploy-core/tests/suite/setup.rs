//! Validation of setups (`docs/rules.md` section 8, valid positions).

use crate::common::{START_BOARD, board_of, parse_board, piece, sq};
use ploy_core::{PieceKind, Position, PositionError, Rules, Seat, SeatSet, Setup, SetupProblem};

const G: Seat = Seat::Green;
const R: Seat = Seat::Red;

fn reject(setup: Setup) -> PositionError {
    let err = Position::from_setup(setup.clone(), Rules::standard())
        .expect_err("the setup must be rejected");
    assert_eq!(*err.setup, setup, "the error returns the setup unchanged");
    assert!(!err.problems.is_empty());
    err
}

#[test]
fn the_start_army_is_valid() {
    let setup = Setup::two_player(parse_board(START_BOARD), G);
    let pos = Position::from_setup(setup.clone(), Rules::standard()).unwrap();
    assert_eq!(pos, Position::new());
    assert_eq!(pos.to_setup(), setup);
    for seat in [G, R] {
        for (kind, n) in [
            (PieceKind::Shield, 3),
            (PieceKind::Probe, 5),
            (PieceKind::Lance, 6),
            (PieceKind::Commander, 1),
        ] {
            assert_eq!(pos.board().count(seat, kind), n, "{seat} {kind}");
        }
        assert_eq!(pos.controller(seat), seat);
    }
    assert_eq!(pos.in_play(), SeatSet::TWO_PLAYER);
    // Red to move is as valid.
    assert!(
        Position::from_setup(
            Setup::two_player(parse_board(START_BOARD), R),
            Rules::standard()
        )
        .is_ok()
    );
}

#[test]
fn too_many_pieces_of_a_kind() {
    // The start army plus one more piece of each kind in turn, for each colour.
    for (colour, at) in [(G, "e5"), (R, "a5")] {
        for (mask, kind, max) in [
            (1u8, PieceKind::Shield, 3),
            (17, PieceKind::Probe, 5),
            (21, PieceKind::Lance, 6),
            (15, PieceKind::Commander, 1),
        ] {
            let mut board = parse_board(START_BOARD);
            board.put(sq(at), piece(colour, mask));
            let err = reject(Setup::two_player(board, G));
            assert_eq!(
                err.problems,
                vec![SetupProblem::TooManyPieces {
                    colour,
                    kind,
                    count: max + 1,
                    max
                }]
            );
            let text = err.to_string();
            assert!(text.contains(colour.name()), "{text}");
            assert!(text.contains(kind.name()), "{text}");
        }
    }
}

#[test]
fn two_commanders() {
    let board = board_of(&[("a1", R, 170), ("e5", R, 85), ("i9", G, 170), ("c3", G, 1)]);
    let err = reject(Setup::two_player(board, G));
    assert_eq!(
        err.problems,
        vec![SetupProblem::TooManyPieces {
            colour: R,
            kind: PieceKind::Commander,
            count: 2,
            max: 1
        }]
    );
    assert!(err.to_string().contains("red"), "{err}");
}

#[test]
fn colour_not_in_the_variant() {
    let mut board = parse_board(START_BOARD);
    board.put(sq("c4"), piece(Seat::Yellow, 1));
    let err = reject(Setup::two_player(board, G));
    assert_eq!(
        err.problems,
        vec![SetupProblem::ColourNotInVariant {
            square: sq("c4"),
            colour: Seat::Yellow
        }]
    );
    let text = err.to_string();
    assert!(text.contains("c4") && text.contains("yellow"), "{text}");

    let err = reject(Setup::two_player(parse_board(START_BOARD), Seat::Blue));
    assert_eq!(
        err.problems,
        vec![SetupProblem::TurnNotInVariant(Seat::Blue)]
    );
    assert!(err.to_string().contains("blue"), "{err}");
}

#[test]
fn controllers_must_fit_the_variant() {
    let mut setup = Setup::two_player(parse_board(START_BOARD), G);
    setup.controllers[1] = G;
    assert_eq!(reject(setup).problems, vec![SetupProblem::Control]);
    let mut setup = Setup::two_player(parse_board(START_BOARD), G);
    setup.in_play = SeatSet::only(G);
    assert_eq!(reject(setup).problems, vec![SetupProblem::Control]);
}

#[test]
fn every_problem_is_reported() {
    let mut board = parse_board(START_BOARD);
    board.put(sq("e5"), piece(G, 1));
    board.put(sq("e4"), piece(Seat::Blue, 1));
    board.put(sq("a5"), piece(R, 170));
    let err = reject(Setup::two_player(board, G));
    for p in [
        SetupProblem::TooManyPieces {
            colour: G,
            kind: PieceKind::Shield,
            count: 4,
            max: 3,
        },
        SetupProblem::TooManyPieces {
            colour: R,
            kind: PieceKind::Commander,
            count: 2,
            max: 1,
        },
        SetupProblem::ColourNotInVariant {
            square: sq("e4"),
            colour: Seat::Blue,
        },
    ] {
        assert!(
            err.problems.contains(&p),
            "{p:?} missing from {:?}",
            err.problems
        );
    }
    assert_eq!(err.problems.len(), 3);
}

#[test]
fn a_two_player_board_without_commanders_is_rejected() {
    // The game ends at the first commander capture, so no game reaches a board without
    // any commander, under any rules.
    for board in [board_of(&[("e5", G, 1), ("e7", R, 16)]), board_of(&[])] {
        for turn in [G, R] {
            for rules in [
                Rules::standard(),
                Rules::university().with_elimination(ploy_core::Elimination::Relaxed),
            ] {
                let err = Position::from_setup(Setup::two_player(board.clone(), turn), rules)
                    .expect_err("no commander on the board");
                assert_eq!(
                    err.problems,
                    vec![SetupProblem::NoCommander],
                    "{turn} to move"
                );
                assert!(err.to_string().contains("commander"), "{err}");
            }
        }
    }
    // One commander is enough: the game is decided, not impossible.
    for turn in [G, R] {
        let board = board_of(&[("e5", G, 1), ("e7", R, 170), ("e8", R, 1)]);
        let pos = Position::from_setup(Setup::two_player(board, turn), Rules::standard());
        assert_eq!(pos.unwrap().outcome().and_then(|o| o.winner()), Some(R));
    }
}
