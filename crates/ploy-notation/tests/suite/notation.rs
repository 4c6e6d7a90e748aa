//! The source texts' examples in positions where they are legal, tables of malformed and
//! illegal inputs with the error each must give, and the line protocols of the examples.

use ploy_core::{
    Elimination, Flags, InvalidFlags, Move, Outcome, PieceKind, Position, Rotation, Rules, Seat,
    SetupProblem, Square, Variant, WinReason,
};
use ploy_notation::conformance::{MovesOptions, PerftCommand, moves_line, perft_command};
use ploy_notation::{
    AlgebraicMove, BoardString, IllegalMoveError, InvalidPositionError, ParseBoardError,
    ParseMoveError, ParsePositionError, PositionString, ReadMoveError, ReadPositionError, Side,
    UniversityMove, read_algebraic, read_position, read_university,
};

const START_BOARD: &str = ",w84,w41,w56,w170,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,w16,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/,b69,b146,b131,b170,b131,b146,b69,";

/// The university task's wrapped start position, as extracted (it lost squares).
const WRAPPED_SEED: &str = ",w84,w41,w56,w170,w56,w41,w84,/ , ,w24,w40,w17,w40,w48,/ , , , w16
, w16 , w16 , , , / , , , , , , / , , , , , , / , , , b1 , b1 , b1
, , , / , , b3 , b130 , b17 , b130 , b129 , , / , b69 , b146 , b131 , b170 ,
b131 , b146 , b69 ,";

/// Builds a position string from `(square, side, mask)` triples.
fn position_text(pieces: &[(&str, char, u8)], turn: char) -> String {
    let mut board = BoardString::empty();
    for &(sq, side, mask) in pieces {
        let side = Side::from_letter(side as u8).unwrap();
        let raw = ploy_notation::RawPiece {
            side,
            mask: mask.try_into().unwrap(),
        };
        board.set(sq.parse().unwrap(), Some(raw));
    }
    format!("{board} {turn}")
}

fn pos_of(pieces: &[(&str, char, u8)], turn: char) -> Position {
    read_position(&position_text(pieces, turn), Rules::university()).unwrap()
}

/// Tensi's figure 4: a light lance on e4 (flags NE, S, NW), an own piece on c6 and an
/// opponent's on f5. Red keeps a shield on a9 so that the capture does not end the game.
fn lance_position() -> Position {
    pos_of(
        &[
            ("e4", 'b', 146),
            ("c6", 'b', 1),
            ("f5", 'w', 1),
            ("a1", 'b', 170),
            ("e9", 'w', 170),
            ("a9", 'w', 16),
        ],
        'b',
    )
}

fn mv(from: Square, to: Square, r: u8) -> Move {
    Move::new(from, to, r)
}

// ----- source examples ---------------------------------------------------------------------

#[test]
fn start_position_string_is_the_rule_book_one() {
    let start = Position::start(Variant::TwoPlayer, Rules::university());
    let text = format!("{START_BOARD} b");
    assert_eq!(PositionString::from_position(&start).to_string(), text);
    assert_eq!(read_position(&text, Rules::university()).unwrap(), start);
    assert_eq!(BoardString::start().to_string(), START_BOARD);
    assert_eq!(PositionString::start().to_string(), text);
}

#[test]
fn university_seed_move_from_the_start() {
    let start = Position::new();
    let e3e4 = mv(Square::E3, Square::E4, 0);
    assert_eq!(read_university(&start, "e3-e4-0"), Ok(e3e4));
    assert_eq!(read_algebraic(&start, "e3-e4-0"), Ok(e3e4));
    assert_eq!(AlgebraicMove::from_move(&start, e3e4).to_string(), "e3-e4");
    // The university task's other examples: a direction move and a shield's combined move.
    let pos = pos_of(
        &[
            ("d2", 'b', 3),
            ("e3", 'b', 1),
            ("e1", 'b', 170),
            ("e9", 'w', 170),
            ("a9", 'w', 16),
        ],
        'b',
    );
    assert_eq!(
        read_university(&pos, "d2-d2-5"),
        Ok(Move::turn(Square::D2, 5))
    );
    assert_eq!(
        read_university(&pos, "e3-e4-3"),
        Ok(mv(Square::E3, Square::E4, 3))
    );
    assert_eq!(
        read_algebraic(&pos, "e3-e4-3"),
        Ok(mv(Square::E3, Square::E4, 3))
    );
    assert_eq!(
        AlgebraicMove::from_move(&pos, mv(Square::E3, Square::E4, 3)).to_string(),
        "e3-e4-3"
    );
}

#[test]
fn manual_light_lance_moves() {
    let pos = lance_position();
    let cases = [
        ("e4-d5", Square::D5),
        ("e4xf5", Square::F5),
        ("e4-e3", Square::E3),
        ("e4-e2", Square::E2),
        ("e4-e1", Square::E1),
    ];
    for (text, to) in cases {
        let m = mv(Square::E4, to, 0);
        assert_eq!(read_algebraic(&pos, text), Ok(m), "{text}");
        assert_eq!(AlgebraicMove::from_move(&pos, m).to_string(), text);
    }
    // Exactly those five motion moves, as the manual says.
    let mut targets: Vec<Square> = pos
        .legal_moves_from(Square::E4)
        .iter()
        .filter(|m| !m.is_direction_move())
        .map(|m| m.to())
        .collect();
    targets.sort();
    assert_eq!(
        targets,
        [Square::E1, Square::E2, Square::E3, Square::D5, Square::F5]
    );
    // Blocked on and beyond c6 by the own piece, beyond f5 by the opponent's.
    for text in ["e4-c6", "e4-b7", "e4-g6"] {
        assert!(matches!(
            read_algebraic(&pos, text),
            Err(ReadMoveError::Illegal(IllegalMoveError::Unreachable { .. }))
        ));
    }
    // Lenient input: `-` for the capture, `x` for a quiet move, a needless `#`.
    assert_eq!(
        read_algebraic(&pos, "e4-f5"),
        Ok(mv(Square::E4, Square::F5, 0))
    );
    assert_eq!(
        read_algebraic(&pos, "e4xd5#"),
        Ok(mv(Square::E4, Square::D5, 0))
    );
}

#[test]
fn manual_probe_turn_c3_plus_3() {
    let pos = pos_of(
        &[
            ("c3", 'b', 17),
            ("e1", 'b', 170),
            ("e9", 'w', 170),
            ("a9", 'w', 16),
        ],
        'b',
    );
    let turn = Move::turn(Square::C3, 5); // 3 steps counterclockwise = 5 clockwise
    assert_eq!(read_algebraic(&pos, "c3+3"), Ok(turn));
    assert_eq!(AlgebraicMove::from_move(&pos, turn).to_string(), "c3+3");
    // Other spellings of the same move.
    for text in ["c3-5", "c3-c3-5", "c3xc3+3"] {
        assert_eq!(read_algebraic(&pos, text), Ok(turn), "{text}");
    }
    // Clockwise 1..3 is written with `-`, 4 with `+4` (which `-4` also reads as).
    assert_eq!(
        AlgebraicMove::from_move(&pos, Move::turn(Square::C3, 1)).to_string(),
        "c3-1"
    );
    assert_eq!(
        AlgebraicMove::from_move(&pos, Move::turn(Square::C3, 3)).to_string(),
        "c3-3"
    );
    // A probe N+S turned by 4 is unchanged: never legal, in any spelling.
    assert!(matches!(
        read_algebraic(&pos, "c3-4"),
        Err(ReadMoveError::Illegal(IllegalMoveError::NoChange {
            rotation: 4,
            ..
        }))
    ));
    let pos = pos_of(
        &[
            ("c3", 'b', 3),
            ("e1", 'b', 170),
            ("e9", 'w', 170),
            ("a9", 'w', 16),
        ],
        'b',
    );
    assert_eq!(
        AlgebraicMove::from_move(&pos, Move::turn(Square::C3, 4)).to_string(),
        "c3+4"
    );
    assert_eq!(read_algebraic(&pos, "c3-4"), Ok(Move::turn(Square::C3, 4)));
}

#[test]
fn manual_shield_combined_move_e7_d6_plus_2() {
    // A shield pointing SW on e7 steps to d6 and turns 90 degrees counterclockwise.
    let pos = pos_of(
        &[
            ("e7", 'b', 32),
            ("e1", 'b', 170),
            ("e9", 'w', 170),
            ("a9", 'w', 16),
        ],
        'b',
    );
    let m = mv(Square::E7, Square::D6, 6);
    assert_eq!(read_algebraic(&pos, "e7-d6+2"), Ok(m));
    assert_eq!(read_university(&pos, "e7-d6-6"), Ok(m));
    assert_eq!(AlgebraicMove::from_move(&pos, m).to_string(), "e7-d6+2");
    assert_eq!(UniversityMove::from(m).to_string(), "e7-d6-6");
    // Without the turn the shield's motion has no suffix.
    assert_eq!(
        AlgebraicMove::from_move(&pos, mv(Square::E7, Square::D6, 0)).to_string(),
        "e7-d6"
    );
}

#[test]
fn winning_moves_get_a_hash() {
    // Capturing the commander.
    let pos = pos_of(
        &[
            ("e4", 'b', 2),
            ("f5", 'w', 170),
            ("a1", 'b', 170),
            ("i9", 'w', 1),
        ],
        'b',
    );
    let m = mv(Square::E4, Square::F5, 0);
    assert_eq!(AlgebraicMove::from_move(&pos, m).to_string(), "e4xf5#");
    assert_eq!(read_algebraic(&pos, "e4xf5#"), Ok(m));
    assert_eq!(read_algebraic(&pos, "e4xf5"), Ok(m));
    // A shield capturing the last non-commander (strict elimination), turning after it.
    let pos = pos_of(
        &[
            ("e4", 'b', 1),
            ("e5", 'w', 1),
            ("a1", 'b', 170),
            ("i9", 'w', 170),
        ],
        'b',
    );
    let m = mv(Square::E4, Square::E5, 6);
    assert_eq!(AlgebraicMove::from_move(&pos, m).to_string(), "e4xe5+2#");
    // Under relaxed elimination the same capture does not win.
    let relaxed = pos
        .with_rules(Rules::university().with_elimination(Elimination::Relaxed))
        .unwrap();
    assert_eq!(AlgebraicMove::from_move(&relaxed, m).to_string(), "e4xe5+2");
}

// ----- malformed position and board strings ----------------------------------------------

fn start_with(replace: &str, by: &str) -> String {
    let text = format!("{START_BOARD} b");
    assert!(text.contains(replace));
    text.replacen(replace, by, 1)
}

#[test]
fn malformed_position_strings() {
    use ParseBoardError as B;
    use ParsePositionError as P;
    let start = format!("{START_BOARD} b");
    let eight_ranks = start.replacen(",,,,,,,,/", "", 1);
    let ten_ranks = start.replacen(",,,,,,,,/", ",,,,,,,,/,,,,,,,,/", 1);
    let cases: Vec<(String, ParsePositionError)> = vec![
        // Wrong rank count.
        (
            eight_ranks.clone(),
            P::Board(B::RankCount {
                found: 8,
                offset: eight_ranks.len() - 2,
            }),
        ),
        (
            ten_ranks.clone(),
            P::Board(B::RankCount {
                found: 10,
                offset: ten_ranks.rfind('/').unwrap(),
            }),
        ),
        // Wrong square count: rank 7 with 8 and with 10 fields.
        (
            start_with(",,,w16,w16,w16,,,/", ",,w16,w16,w16,,,/"),
            P::Board(B::SquareCount {
                rank: 7,
                found: 8,
                offset: 71,
            }),
        ),
        (
            start_with(",,,w16,w16,w16,,,/", ",,,w16,w16,w16,,,,/"),
            P::Board(B::SquareCount {
                rank: 7,
                found: 10,
                offset: 72,
            }),
        ),
        // Bad colour letter.
        (
            start_with("w84", "g84"),
            P::Board(B::Colour {
                square: Square::B9,
                offset: 1,
                found: b'g',
            }),
        ),
        (
            start_with("w84", "W84"),
            P::Board(B::Colour {
                square: Square::B9,
                offset: 1,
                found: b'W',
            }),
        ),
        (
            start_with("w84", "84"),
            P::Board(B::Colour {
                square: Square::B9,
                offset: 1,
                found: b'8',
            }),
        ),
        // Mask 0, mask 256, leading zeros, no mask, a sign, whitespace inside a field.
        (
            start_with("w84", "w0"),
            P::Board(B::MaskRange {
                square: Square::B9,
                offset: 2,
            }),
        ),
        (
            start_with("w84", "w256"),
            P::Board(B::MaskRange {
                square: Square::B9,
                offset: 2,
            }),
        ),
        (
            start_with("w84", "w99999999999999999999"),
            P::Board(B::MaskRange {
                square: Square::B9,
                offset: 2,
            }),
        ),
        (
            start_with("w84", "w084"),
            P::Board(B::LeadingZero {
                square: Square::B9,
                offset: 2,
            }),
        ),
        (
            start_with("w84", "w00"),
            P::Board(B::LeadingZero {
                square: Square::B9,
                offset: 2,
            }),
        ),
        (
            start_with("w84", "w"),
            P::Board(B::MissingMask {
                square: Square::B9,
                offset: 2,
                found: None,
            }),
        ),
        (
            start_with("w84", "w "),
            P::Board(B::MissingMask {
                square: Square::B9,
                offset: 2,
                found: Some(b' '),
            }),
        ),
        (
            start_with("w84", "w+84"),
            P::Board(B::MissingMask {
                square: Square::B9,
                offset: 2,
                found: Some(b'+'),
            }),
        ),
        (
            start_with("w84", "w8 4"),
            P::Board(B::Digit {
                square: Square::B9,
                offset: 3,
                found: b' ',
            }),
        ),
        (
            start_with("w84", "w8\u{e9}"),
            P::Board(B::Digit {
                square: Square::B9,
                offset: 3,
                found: 0xc3,
            }),
        ),
        // Trailing garbage, bad side to move.
        (
            format!("{START_BOARD} bw"),
            P::Trailing {
                offset: START_BOARD.len() + 2,
                found: b'w',
            },
        ),
        (
            format!("{START_BOARD} b\n"),
            P::Trailing {
                offset: START_BOARD.len() + 2,
                found: b'\n',
            },
        ),
        (
            format!("{START_BOARD} b x"),
            P::Turn {
                offset: START_BOARD.len() + 3,
                found: Some(b'x'),
            },
        ),
        (
            format!("{START_BOARD} g"),
            P::Turn {
                offset: START_BOARD.len() + 1,
                found: Some(b'g'),
            },
        ),
        (
            format!("{START_BOARD} B"),
            P::Turn {
                offset: START_BOARD.len() + 1,
                found: Some(b'B'),
            },
        ),
        (
            format!("{START_BOARD} "),
            P::Turn {
                offset: START_BOARD.len() + 1,
                found: None,
            },
        ),
        (
            START_BOARD.to_string(),
            P::MissingTurn {
                offset: START_BOARD.len(),
            },
        ),
        (
            format!("{START_BOARD}b"),
            P::MissingTurn {
                offset: START_BOARD.len() + 1,
            },
        ),
        (
            format!("{START_BOARD}/ b"),
            P::Board(B::RankCount {
                found: 10,
                offset: START_BOARD.len(),
            }),
        ),
        (
            format!("{START_BOARD}, b"),
            P::Board(B::SquareCount {
                rank: 1,
                found: 10,
                offset: START_BOARD.len(),
            }),
        ),
        (
            format!("{START_BOARD}x b"),
            P::Board(B::Colour {
                square: Square::I1,
                offset: START_BOARD.len(),
                found: b'x',
            }),
        ),
        (String::new(), P::MissingTurn { offset: 0 }),
        (
            " b".to_string(),
            P::Board(B::RankCount {
                found: 1,
                offset: 0,
            }),
        ),
    ];
    for (text, expected) in cases {
        let got = text.parse::<PositionString>();
        assert_eq!(got, Err(expected), "input {text:?}");
        let e = got.unwrap_err();
        assert!(e.offset() <= text.len());
        assert!(!e.to_string().is_empty());
        // The one-call reader keeps malformed apart.
        assert!(matches!(
            read_position(&text, Rules::university()),
            Err(ReadPositionError::Malformed(_))
        ));
    }
}

#[test]
fn error_messages_say_what_and_where() {
    let e = start_with(",,,w16,w16,w16,,,/", ",,w16,w16,w16,,,/")
        .parse::<PositionString>()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "rank 7 (byte 71): expected 9 squares separated by `,`, found 8"
    );
    let e = start_with("w84", "w084")
        .parse::<PositionString>()
        .unwrap_err();
    assert_eq!(e.to_string(), "b9 (byte 2): the mask has a leading zero");
    let e = format!("{START_BOARD} x")
        .parse::<PositionString>()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "byte {}: expected the side to move, `b` or `w`, found `x`",
            START_BOARD.len() + 1
        )
    );
    let e = read_university(&Position::new(), "e3-e4-8").unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 7: expected a rotation digit `0`..`7`, found `8`"
    );
    let e = read_university(&Position::new(), "e3-e5-0").unwrap_err();
    assert_eq!(
        e.to_string(),
        "not legal here: the shield on e3 cannot move to e5"
    );
}

#[test]
fn whitespace_around_squares_is_accepted() {
    let spaced = format!(
        " {} b",
        START_BOARD
            .replace(',', " ,\t")
            .replace('/', "\r\n/ ")
            .trim_end()
    );
    let parsed: PositionString = spaced.parse().unwrap();
    assert_eq!(parsed, PositionString::start());
    assert_eq!(parsed.to_string(), format!("{START_BOARD} b"));
    // But exactly one space before the side to move.
    for gap in ["  ", " \n ", "\t "] {
        let text = format!("{START_BOARD}{gap}b");
        assert_eq!(
            text.parse::<PositionString>(),
            Err(ParsePositionError::Separator {
                offset: START_BOARD.len()
            }),
            "{text:?}"
        );
    }
}

#[test]
fn wrapped_university_seed_board_is_rejected() {
    assert_eq!(
        WRAPPED_SEED.parse::<BoardString>(),
        Err(ParseBoardError::RankCount {
            found: 8,
            offset: WRAPPED_SEED.len()
        })
    );
}

#[test]
fn masks_that_are_not_pieces_fail_validity_not_syntax() {
    for (mask, flags) in [(31u8, 5u32), (63, 6), (127, 7), (255, 8), (0b1111_1000, 5)] {
        let text = start_with("w84", &format!("w{mask}"));
        let parsed: PositionString = text.parse().expect("masks 1..255 are well-formed");
        let board = parsed.as_two_player().unwrap().board();
        assert_eq!(board.get(Square::B9).unwrap().mask.get(), mask);
        let err = parsed.to_position(Rules::university()).unwrap_err();
        assert_eq!(
            err,
            InvalidPositionError::NotAPiece(ploy_notation::NotAPieceError {
                square: Square::B9,
                source: InvalidFlags(mask),
            })
        );
        assert_eq!(
            err.to_string(),
            format!("b9: mask {mask} has {flags} flags; a piece has 1 to 4")
        );
        assert!(matches!(
            read_position(&text, Rules::university()),
            Err(ReadPositionError::Invalid(_))
        ));
    }
}

#[test]
fn invalid_armies_fail_validity() {
    // A second black commander.
    let text = start_with(",,,b1,b1,b1,,,/", ",,,b1,b170,b1,,,/");
    match read_position(&text, Rules::university()) {
        Err(ReadPositionError::Invalid(InvalidPositionError::Rules(e))) => {
            assert_eq!(
                e.problems,
                [SetupProblem::TooManyPieces {
                    colour: Seat::Green,
                    kind: PieceKind::Commander,
                    count: 2,
                    max: 1
                }]
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn decided_positions_are_read_with_their_outcome() {
    // Red has no commander.
    let pos = pos_of(&[("e1", 'b', 170), ("e3", 'b', 1), ("e7", 'w', 16)], 'w');
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Seat::Green, WinReason::CommanderCaptured))
    );
    assert!(pos.legal_moves().is_empty());
}

// ----- malformed and illegal moves ------------------------------------------------------

#[test]
fn malformed_university_moves() {
    use ParseMoveError as E;
    let cases = [
        ("e3-e4", E::Length { found: 5 }),
        ("e3-e4-00", E::Length { found: 8 }),
        (" e3-e4-0", E::Length { found: 8 }),
        ("e3-e4-0\n", E::Length { found: 8 }),
        ("", E::Length { found: 0 }),
        (
            "e3-e4-8",
            E::Rotation {
                offset: 6,
                found: Some('8'),
            },
        ),
        (
            "e3-e4-9",
            E::Rotation {
                offset: 6,
                found: Some('9'),
            },
        ),
        (
            "e3-e4-a",
            E::Rotation {
                offset: 6,
                found: Some('a'),
            },
        ),
        (
            "j3-e4-0",
            E::File {
                offset: 0,
                found: Some('j'),
            },
        ),
        (
            "E3-e4-0",
            E::File {
                offset: 0,
                found: Some('E'),
            },
        ),
        // Seven characters but eight bytes: the `é` is reported as a character.
        (
            "e3-e4-é",
            E::Rotation {
                offset: 6,
                found: Some('é'),
            },
        ),
        ("e3-e4-éé", E::Length { found: 8 }),
        (
            "e0-e4-0",
            E::Rank {
                offset: 1,
                found: Some('0'),
            },
        ),
        (
            "e3-e0-0",
            E::Rank {
                offset: 4,
                found: Some('0'),
            },
        ),
        (
            "e3-z4-0",
            E::File {
                offset: 3,
                found: Some('z'),
            },
        ),
        (
            "e3xe4-0",
            E::Unexpected {
                offset: 2,
                expected: "`-`",
                found: Some('x'),
            },
        ),
        (
            "e3-e4+1",
            E::Unexpected {
                offset: 5,
                expected: "`-`",
                found: Some('+'),
            },
        ),
        (
            "e10e4-0",
            E::Unexpected {
                offset: 2,
                expected: "`-`",
                found: Some('0'),
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            text.parse::<UniversityMove>(),
            Err(expected),
            "input {text:?}"
        );
        assert!(matches!(
            read_university(&Position::new(), text),
            Err(ReadMoveError::Malformed(_))
        ));
    }
}

#[test]
fn malformed_algebraic_moves() {
    use ParseMoveError as E;
    let sep = "`-`, `x`, `+` or the end square";
    let cases = [
        (
            "",
            E::File {
                offset: 0,
                found: None,
            },
        ),
        (
            "e",
            E::Rank {
                offset: 1,
                found: None,
            },
        ),
        (
            "e4",
            E::Unexpected {
                offset: 2,
                expected: sep,
                found: None,
            },
        ),
        (
            "e4*d5",
            E::Unexpected {
                offset: 2,
                expected: sep,
                found: Some('*'),
            },
        ),
        (
            "e4 d5",
            E::Unexpected {
                offset: 2,
                expected: sep,
                found: Some(' '),
            },
        ),
        (
            "e4-",
            E::File {
                offset: 3,
                found: None,
            },
        ),
        (
            "e4-j5",
            E::File {
                offset: 3,
                found: Some('j'),
            },
        ),
        (
            "e4-d0",
            E::Rank {
                offset: 4,
                found: Some('0'),
            },
        ),
        (
            "e4xd",
            E::Rank {
                offset: 4,
                found: None,
            },
        ),
        (
            "e4+",
            E::Rotation {
                offset: 3,
                found: None,
            },
        ),
        (
            "e4+8",
            E::Rotation {
                offset: 3,
                found: Some('8'),
            },
        ),
        (
            "e4-9",
            E::Rotation {
                offset: 3,
                found: Some('9'),
            },
        ),
        (
            "e4+x",
            E::Rotation {
                offset: 3,
                found: Some('x'),
            },
        ),
        (
            "e4-d5+",
            E::Rotation {
                offset: 6,
                found: None,
            },
        ),
        (
            "e4-d5-9",
            E::Rotation {
                offset: 6,
                found: Some('9'),
            },
        ),
        (
            "e4+10",
            E::Trailing {
                offset: 4,
                found: '0',
            },
        ),
        (
            "e4-d5+12",
            E::Trailing {
                offset: 7,
                found: '2',
            },
        ),
        (
            "e4-d5#x",
            E::Trailing {
                offset: 6,
                found: 'x',
            },
        ),
        (
            "e4xd5##",
            E::Trailing {
                offset: 6,
                found: '#',
            },
        ),
        (
            "e4-d5 ",
            E::Trailing {
                offset: 5,
                found: ' ',
            },
        ),
        (
            "e4-d5-é",
            E::Rotation {
                offset: 6,
                found: Some('é'),
            },
        ),
        (
            "é4-d5",
            E::File {
                offset: 0,
                found: Some('é'),
            },
        ),
        (
            "e4é",
            E::Unexpected {
                offset: 2,
                expected: sep,
                found: Some('é'),
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            text.parse::<AlgebraicMove>(),
            Err(expected),
            "input {text:?}"
        );
        assert!(matches!(
            read_algebraic(&Position::new(), text),
            Err(ReadMoveError::Malformed(_))
        ));
    }
}

#[test]
fn illegal_moves_say_why() {
    use IllegalMoveError as E;
    let pos = lance_position();
    let cases = [
        ("e5-e6", E::Empty(Square::E5)),
        (
            "e9-e8",
            E::NotYours {
                square: Square::E9,
                colour: Seat::Red,
                turn: Seat::Green,
            },
        ),
        (
            "e4-c6",
            E::Unreachable {
                from: Square::E4,
                to: Square::C6,
                kind: PieceKind::Lance,
            },
        ),
        (
            "e4-h7",
            E::Unreachable {
                from: Square::E4,
                to: Square::H7,
                kind: PieceKind::Lance,
            },
        ),
        (
            "e4-d5-2",
            E::TurnAfterMotion {
                square: Square::E4,
                kind: PieceKind::Lance,
            },
        ),
        (
            "e4-0",
            E::NoChange {
                square: Square::E4,
                kind: PieceKind::Lance,
                rotation: 0,
            },
        ),
        (
            "e4-e4",
            E::NoChange {
                square: Square::E4,
                kind: PieceKind::Lance,
                rotation: 0,
            },
        ),
        (
            "a1-2",
            E::NoChange {
                square: Square::A1,
                kind: PieceKind::Commander,
                rotation: 2,
            },
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(
            read_algebraic(&pos, text),
            Err(ReadMoveError::Illegal(expected)),
            "{text}"
        );
    }
    assert_eq!(read_algebraic(&pos, "a1-1"), Ok(Move::turn(Square::A1, 1)));
    // The rotation rule.
    let single = pos
        .with_rules(Rules::university().with_rotation(Rotation::SingleStep))
        .unwrap();
    assert_eq!(
        read_algebraic(&single, "e4-3"),
        Err(ReadMoveError::Illegal(E::RotationRule { rotation: 3 }))
    );
    assert_eq!(
        read_algebraic(&single, "e4-1"),
        Ok(Move::turn(Square::E4, 1))
    );
    let shield = pos_of(
        &[
            ("e4", 'b', 1),
            ("a1", 'b', 170),
            ("i9", 'w', 170),
            ("a9", 'w', 16),
        ],
        'b',
    )
    .with_rules(Rules::university().with_rotation(Rotation::SingleStep))
    .unwrap();
    assert_eq!(
        read_algebraic(&shield, "e4-e5-2"),
        Err(ReadMoveError::Illegal(E::RotationRule { rotation: 2 }))
    );
    assert_eq!(
        read_algebraic(&shield, "e4-e5+1"),
        Ok(mv(Square::E4, Square::E5, 7))
    );
    // A decided position.
    let over = pos_of(&[("e1", 'b', 170), ("e3", 'b', 1), ("e7", 'w', 16)], 'w');
    assert_eq!(
        read_algebraic(&over, "e7-e6"),
        Err(ReadMoveError::Illegal(E::GameOver))
    );
}

#[test]
fn syntax_values_write_text_that_reads_back() {
    for text in [
        "e4-0", "e4+0", "e4xe4", "e4-e4-0", "a1xi9#", "e3-e4-0", "c3+3#",
    ] {
        let a: AlgebraicMove = text.parse().unwrap();
        let written = a.to_string();
        assert_eq!(
            written.parse::<AlgebraicMove>(),
            Ok(a),
            "{text} -> {written}"
        );
    }
    assert_eq!(
        "e4xe4".parse::<AlgebraicMove>().unwrap().to_string(),
        "e4-0"
    );
    assert_eq!(
        "e3-e4-0".parse::<AlgebraicMove>().unwrap().to_string(),
        "e3-e4"
    );
    assert_eq!(
        "c3-c3-5".parse::<AlgebraicMove>().unwrap().to_string(),
        "c3+3"
    );
    assert_eq!("c3-4".parse::<AlgebraicMove>().unwrap().to_string(), "c3+4");
    let _ = Flags::new(0);
}

// ----- the line protocols -------------------------------------------------------------------

const UNIVERSITY: MovesOptions = MovesOptions {
    algebraic: false,
    draw_rules: false,
    single_step: false,
    relaxed: false,
    plays_on: false,
    bare_commander_removed: false,
};

fn fields(line: &str) -> (Vec<&str>, &str, &str) {
    let parts: Vec<&str> = line.split(" ; ").collect();
    assert_eq!(parts.len(), 3, "{line}");
    let moves = if parts[0].is_empty() {
        Vec::new()
    } else {
        parts[0].split(' ').collect()
    };
    (moves, parts[1], parts[2])
}

#[test]
fn moves_protocol_start() {
    let out = moves_line(b"start", &UNIVERSITY);
    let (moves, pos, outcome) = fields(&out);
    assert_eq!(moves.len(), 145);
    assert!(
        moves.windows(2).all(|w| w[0] < w[1]),
        "sorted by byte order"
    );
    assert!(moves.contains(&"e3-e4-0") && moves.contains(&"e1-e1-1"));
    assert_eq!(pos, format!("{START_BOARD} b"));
    assert_eq!(outcome, "ongoing");
    // The same with the start position spelled out.
    assert_eq!(
        moves_line(format!("{START_BOARD} b").as_bytes(), &UNIVERSITY),
        out
    );
    // Algebraic: the same moves, in the same order.
    let alg = moves_line(
        b"start",
        &MovesOptions {
            algebraic: true,
            ..UNIVERSITY
        },
    );
    let (alg_moves, _, _) = fields(&alg);
    let start = Position::new();
    for (u, a) in moves.iter().zip(&alg_moves) {
        assert_eq!(read_university(&start, u), read_algebraic(&start, a));
    }
    assert!(alg_moves.contains(&"e3-e4") && alg_moves.contains(&"e3-e4+2"));
}

#[test]
fn moves_protocol_plays_moves_first() {
    let out = moves_line(b"start | e3-e4-0 e7-e6-0", &UNIVERSITY);
    let (_, pos, outcome) = fields(&out);
    let expected = Position::new()
        .after(mv(Square::E3, Square::E4, 0))
        .unwrap()
        .after(mv(Square::E7, Square::E6, 0))
        .unwrap();
    assert_eq!(pos, PositionString::from_position(&expected).to_string());
    assert_eq!(outcome, "ongoing");
    // A win: the line shows the loser to move, no moves, and the winner.
    let text = position_text(
        &[
            ("e4", 'b', 2),
            ("f5", 'w', 170),
            ("a1", 'b', 170),
            ("i9", 'w', 1),
        ],
        'b',
    );
    let out = moves_line(format!("{text} | e4-f5-0").as_bytes(), &UNIVERSITY);
    assert!(out.starts_with(" ; "), "{out}");
    assert!(out.ends_with(" w ; b"), "{out}");
    // Algebraic input with --algebraic.
    let out = moves_line(
        format!("{text} | e4xf5#").as_bytes(),
        &MovesOptions {
            algebraic: true,
            ..UNIVERSITY
        },
    );
    assert!(out.ends_with(" w ; b"), "{out}");
}

#[test]
fn moves_protocol_errors() {
    let cases: [(&[u8], &str); 9] = [
        (b"", "error: position: "),
        (
            b"start | e3-e5-0",
            "error: move 1 `e3-e5-0`: not legal here: the shield on e3 cannot move to e5",
        ),
        (
            b"start | e3-e4-0 e3-e4-0",
            "error: move 2 `e3-e4-0`: not legal here: e3 is empty",
        ),
        (
            b"start | e3-e4",
            "error: move 1 `e3-e4`: expected exactly 7 characters",
        ),
        (b"start| e3-e4-0", "error: expected ` | ` between"),
        (b"start extra", "error: position: "),
        (b"\xff\xfe", "error: position: "),
        (
            b"start | \xff",
            "error: move 1 `\u{fffd}`: expected exactly 7",
        ),
        (
            b"start | e3-e4-0 e4-e5-0",
            "error: move 2 `e4-e5-0`: not legal here: the piece on e4 is green's, but red is to move",
        ),
    ];
    for (line, prefix) in cases {
        let out = moves_line(line, &UNIVERSITY);
        assert!(
            out.starts_with(prefix),
            "{:?} -> {out}",
            String::from_utf8_lossy(line)
        );
        assert!(!out.contains('\n'));
    }
    // After a win, no move is legal.
    let text = position_text(
        &[
            ("e4", 'b', 2),
            ("f5", 'w', 170),
            ("a1", 'b', 170),
            ("i9", 'w', 1),
        ],
        'b',
    );
    let out = moves_line(format!("{text} | e4-f5-0 i9-i9-1").as_bytes(), &UNIVERSITY);
    assert_eq!(
        out,
        "error: move 2 `i9-i9-1`: not legal here: the game is over"
    );
    // Extra spaces between moves are fine.
    assert!(!moves_line(b"start |  e3-e4-0   e7-e6-0 ", &UNIVERSITY).starts_with("error"));
}

#[test]
fn moves_protocol_draw_rules() {
    let line = b"start | e1-e1-1 e9-e9-1 e1-e1-7 e9-e9-7 e1-e1-1 e9-e9-1 e1-e1-7 e9-e9-7";
    let out = moves_line(line, &UNIVERSITY);
    let (moves, _, outcome) = fields(&out);
    assert_eq!((moves.len(), outcome), (145, "ongoing"));
    let draw = MovesOptions {
        draw_rules: true,
        ..UNIVERSITY
    };
    let out = moves_line(line, &draw);
    let (moves, pos, outcome) = fields(&out);
    assert_eq!((moves.len(), outcome), (0, "draw"));
    assert_eq!(pos, format!("{START_BOARD} b"));
    // One more move after the draw is an error.
    let mut longer = line.to_vec();
    longer.extend_from_slice(b" e3-e4-0");
    assert!(moves_line(&longer, &draw).contains("the game is over"));
}

#[test]
fn moves_protocol_rule_options() {
    let single = MovesOptions {
        single_step: true,
        ..UNIVERSITY
    };
    let out = moves_line(b"start", &single);
    let (moves, _, _) = fields(&out);
    assert!(moves.iter().all(|m| m.ends_with(['0', '1', '7'])));
    assert!(moves.contains(&"e1-e1-7") && !moves.contains(&"e1-e1-3"));
    // Green has only its commander left: lost under strict elimination, not under relaxed.
    let text = position_text(&[("a1", 'b', 170), ("e9", 'w', 170), ("e7", 'w', 16)], 'b');
    let out = moves_line(text.as_bytes(), &UNIVERSITY);
    let (moves, _, outcome) = fields(&out);
    assert_eq!((moves.len(), outcome), (0, "w"));
    let relaxed = MovesOptions {
        relaxed: true,
        ..UNIVERSITY
    };
    let out = moves_line(text.as_bytes(), &relaxed);
    let (moves, _, outcome) = fields(&out);
    assert_eq!(
        (moves, outcome),
        (
            vec!["a1-a1-1", "a1-a1-3", "a1-a1-5", "a1-a1-7", "a1-b2-0"],
            "ongoing"
        )
    );
}

#[test]
fn moves_options_from_args() {
    assert_eq!(
        MovesOptions::from_args(["--algebraic", "--relaxed"]),
        Ok(MovesOptions {
            algebraic: true,
            relaxed: true,
            ..UNIVERSITY
        })
    );
    assert!(
        MovesOptions::from_args(["--fast"])
            .unwrap_err()
            .to_string()
            .contains("--fast")
    );
}

#[test]
fn perft_protocol() {
    assert_eq!(perft_command(["start", "1"]).unwrap(), "145\n");
    assert_eq!(perft_command(["start", "0"]).unwrap(), "1\n");
    assert_eq!(perft_command(["start", "0", "--divide"]).unwrap(), "1\n");
    let out = perft_command(["start", "2", "--divide"]).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 146);
    assert_eq!(*lines.last().unwrap(), "21025");
    let moves: Vec<&str> = lines[..145]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert!(moves.windows(2).all(|w| w[0] < w[1]));
    let sum: u64 = lines[..145]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 21025);
    let text = format!("{START_BOARD} b");
    assert_eq!(perft_command([text.as_str(), "2"]).unwrap(), "21025\n");
    // Rule options change the count.
    let single = perft_command(["start", "1", "--single-step"]).unwrap();
    assert_ne!(single, "145\n");
    let cmd = PerftCommand::from_args(["--relaxed", "start", "3"]).unwrap();
    assert_eq!(cmd.position.rules().elimination, Elimination::Relaxed);
    // Errors.
    for args in [
        &["start"][..],
        &["start", "x"],
        &["start", "-1"],
        &["bad b", "1"],
        &["start", "1", "--fast"],
        &["start", "1", "2"],
    ] {
        let e = perft_command(args.iter().copied()).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_uses_the_canonical_strings() {
    let start = PositionString::start();
    let json = serde_json::to_string(&start).unwrap();
    assert_eq!(json, format!("\"{START_BOARD} b\""));
    assert_eq!(
        serde_json::from_str::<PositionString>(&json).unwrap(),
        start
    );
    let m: AlgebraicMove = "e7-d6+2".parse().unwrap();
    assert_eq!(serde_json::to_string(&m).unwrap(), "\"e7-d6+2\"");
    assert_eq!(
        serde_json::from_str::<AlgebraicMove>("\"e7-d6+2\"").unwrap(),
        m
    );
    let u: UniversityMove = serde_json::from_str("\"e3-e4-0\"").unwrap();
    assert_eq!(u.to_string(), "e3-e4-0");
    let err = serde_json::from_str::<UniversityMove>("\"e3-e4\"").unwrap_err();
    assert!(
        err.to_string().contains("expected exactly 7 characters"),
        "{err}"
    );
    assert!(serde_json::from_str::<BoardString>("\"x\"").is_err());
}

#[test]
fn people_may_type_moves_in_any_case_and_without_a_separator() {
    let pos = Position::new();
    let step = Move::new(Square::E3, Square::E4, 0);
    for text in ["E3-E4", "e3e4", "E3E4", "e3-E4", "e3X e4"] {
        let got = read_algebraic(&pos, text);
        if text.contains(' ') {
            assert!(got.is_err(), "{text}");
        } else {
            assert_eq!(got, Ok(step), "{text}");
        }
    }
    let turned = Move::new(Square::E3, Square::E4, 6);
    for text in ["E3-E4+2", "e3e4+2", "E3E4-6", "E3-E4-6"] {
        assert_eq!(read_algebraic(&pos, text), Ok(turned), "{text}");
    }
    // The university reader stays exact.
    assert!(read_university(&pos, "E3-E4-0").is_err());
    assert!(read_university(&pos, "e3e4-0").is_err());
}

#[test]
fn move_errors_name_the_character_not_the_byte() {
    // `é` takes two bytes: the character count and what was found are what the person typed.
    let e = "é3-e4".parse::<AlgebraicMove>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 1: expected a file `a`..`i`, found `é`"
    );
    let e = "e3-é4".parse::<AlgebraicMove>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 4: expected a file `a`..`i`, found `é`"
    );
    let e = "e3-e4-é".parse::<UniversityMove>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 7: expected a rotation digit `0`..`7`, found `é`"
    );
    let e = "e3-e4-0é".parse::<UniversityMove>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected exactly 7 characters such as `e3-e4-0`, found 8"
    );
    let e = "e3-e4\u{2014}".parse::<AlgebraicMove>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 6: expected the end of the move, found `\u{2014}`"
    );
    let e = AlgebraicMove::from_ascii(b"e3-e4\xff").unwrap_err();
    assert_eq!(
        e.to_string(),
        "character 6: expected the end of the move, found `\u{fffd}`"
    );
}

#[test]
fn read_position_takes_the_start_words() {
    for (word, variant) in [
        ("start", Variant::TwoPlayer),
        ("ffa", Variant::FreeForAll),
        ("partnership", Variant::Partnership),
    ] {
        for rules in [Rules::standard(), Rules::university()] {
            assert_eq!(
                read_position(word, rules).unwrap(),
                Position::start(variant, rules)
            );
        }
    }
    for not_a_word in ["Start", "start ", " ffa", "ffa2", "partner"] {
        assert!(
            read_position(not_a_word, Rules::standard()).is_err(),
            "{not_a_word:?}"
        );
    }
}
