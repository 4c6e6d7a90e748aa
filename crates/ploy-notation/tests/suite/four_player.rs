//! Four-player position strings (free-for-all and partnership): the start positions against
//! `docs/rules.md` section 7, round trips, a table of malformed inputs with the error each must
//! give, never mistaken for a two-player string, validity under the rules, algebraic `#` on
//! eliminating moves, legality reasons, and the `moves`/`perft` protocols.

use ploy_core::{
    Board, Flags, Move, PartnerElimination, Piece, Position, Rules, Seat, SeatSet, Setup,
    SetupProblem, Square, Variant,
};
use ploy_notation::conformance::{MovesOptions, moves_line, perft_command};
use ploy_notation::{
    AlgebraicMove, FourPlayerPositionString, IllegalMoveError, InvalidPositionError,
    ParseBoardError, ParsePositionError, PositionString, ReadPositionError,
    TwoPlayerPositionString, check_legal, read_algebraic, read_position,
};

const G: Seat = Seat::Green;
const R: Seat = Seat::Red;
const Y: Seat = Seat::Yellow;
const B: Seat = Seat::Blue;

/// The start layouts of `docs/rules.md` section 7 as board strings, written out by hand.
const FFA_BOARD: &str = "r85,r28,r48,,,,y24,y168,y85/r42,r20,r8,,,,y32,y80,y112/r6,r8,r8,,,,y32,y32,y192/,,,,,,,,/,,,,,,,,/,,,,,,,,/g12,g2,g2,,,,b128,b128,b96/g7,g5,g2,,,,b128,b65,b162/g85,g138,g129,,,,b3,b193,b85";
const PARTNERSHIP_BOARD: &str = ",r84,r170,r56,,b56,b170,b84,/,r24,r40,r48,,b24,b40,b48,/,r16,r16,r16,,b16,b16,b16,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,g1,g1,g1,,y1,y1,y1,/,g3,g130,g129,,y3,y130,y129,/,g69,g170,g131,,y131,y170,y69,";
const TWO_PLAYER_START: &str = ",w84,w41,w56,w170,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,w16,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/,b69,b146,b131,b170,b131,b146,b69, b";

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn setup(variant: Variant, pieces: &[(Seat, &str, u8)]) -> Setup {
    let mut board = Board::empty();
    for &(c, s, m) in pieces {
        board.put(sq(s), Piece::new(c, Flags::new(m)).unwrap());
    }
    let mut st = Setup::start_of(variant);
    st.board = board;
    st
}

fn university() -> MovesOptions {
    MovesOptions::default()
}

#[test]
fn start_strings_are_the_setup_sheets_boards() {
    let ffa = Position::start(Variant::FreeForAll, Rules::university());
    let text = format!("ffa {FFA_BOARD} g gryb -");
    assert_eq!(PositionString::from_position(&ffa).to_string(), text);
    assert_eq!(
        PositionString::start_of(Variant::FreeForAll).to_string(),
        text
    );
    assert_eq!(read_position(&text, Rules::university()).unwrap(), ffa);

    let part = Position::start(Variant::Partnership, Rules::university());
    let text = format!("partnership {PARTNERSHIP_BOARD} g gryb -");
    assert_eq!(PositionString::from_position(&part).to_string(), text);
    assert_eq!(read_position(&text, Rules::university()).unwrap(), part);

    // The two-player string is unchanged.
    assert_eq!(
        PositionString::from_position(&Position::new()).to_string(),
        TWO_PLAYER_START
    );
    assert_eq!(PositionString::start().to_string(), TWO_PLAYER_START);
}

#[test]
fn never_mistaken_for_a_two_player_string() {
    let four = format!("ffa {FFA_BOARD} g gryb -");
    let partnership = format!("partnership {PARTNERSHIP_BOARD} b gryb -");
    for text in [&four, &partnership] {
        assert!(TwoPlayerPositionString::from_ascii(text.as_bytes()).is_err());
        assert!(matches!(
            text.parse::<PositionString>(),
            Ok(PositionString::FourPlayer(_))
        ));
    }
    assert!(FourPlayerPositionString::from_ascii(TWO_PLAYER_START.as_bytes()).is_err());
    assert!(matches!(
        TWO_PLAYER_START.parse::<PositionString>(),
        Ok(PositionString::TwoPlayer(_))
    ));
    // The two-player reader reports the variant word where it expects the first square.
    assert_eq!(
        TwoPlayerPositionString::from_ascii(four.as_bytes()),
        Err(ParsePositionError::Turn {
            offset: four.len() - 1,
            found: Some(b'-'),
        })
    );
    // Only Blue pieces on a four-player board: still the variant word sets it apart, and
    // `b` means Blue.
    let blue_only = "ffa ,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b85,b1,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,, b bbbb gry";
    let parsed: PositionString = blue_only.parse().unwrap();
    let setup = parsed.to_setup().unwrap();
    assert_eq!(setup.board.piece_at(Square::E5).unwrap().colour(), B);
    assert_eq!(setup.in_play, SeatSet::only(B));
    let pos = parsed.to_position(Rules::university()).unwrap();
    assert_eq!(pos.outcome().unwrap().winners(), SeatSet::only(B));
}

#[test]
fn fields_after_the_board() {
    // Green took Red's commander in a free-for-all; Yellow to move.
    let text = "ffa r16,,,,,,,y16,y85/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,g17,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/g85,,,,,,,b1,b85 y ggyb r";
    let parsed: FourPlayerPositionString = text.parse().unwrap();
    assert_eq!(parsed.variant(), Variant::FreeForAll);
    assert_eq!(parsed.turn(), Y);
    assert_eq!(parsed.controllers(), [G, G, Y, B]);
    assert_eq!(parsed.out_of_play(), SeatSet::only(R));
    assert_eq!(parsed.to_string(), text);
    let pos = parsed.to_position(Rules::university()).unwrap();
    assert_eq!(pos.controller(R), G);
    assert_eq!(pos.turn(), Y);
    assert!(pos.is_legal(Move::new(sq("h9"), sq("h8"), 0)));
    // The same state reached by play writes the same string.
    let mut st = setup(
        Variant::FreeForAll,
        &[
            (G, "a1", 85),
            (G, "e3", 17),
            (R, "e5", 85),
            (R, "a9", 16),
            (Y, "i9", 85),
            (Y, "h9", 16),
            (B, "i1", 85),
            (B, "h1", 1),
        ],
    );
    st.turn = G;
    let mut played = Position::from_setup(st, Rules::university()).unwrap();
    played.play(Move::new(sq("e3"), sq("e5"), 0)).unwrap();
    assert_eq!(PositionString::from_position(&played).to_string(), text);
    assert!(pos.same_state(&played));
    // Whitespace around squares is accepted in the board, as for two players.
    let spaced = text.replacen(",,,,g17", " , , , , g17 ", 1);
    assert_eq!(spaced.parse::<FourPlayerPositionString>().unwrap(), parsed);
}

fn ffa_with(tail: &str) -> String {
    format!("ffa {FFA_BOARD} {tail}")
}

#[test]
fn malformed_four_player_strings() {
    let board_end = 4 + FFA_BOARD.len(); // the space after the board
    let e =
        |offset: usize, expected: &'static str, found: Option<u8>| ParsePositionError::FourPlayer {
            offset,
            expected,
            found,
        };
    let missing = "the board, the seat to move, the controllers and the seats out of play, \
                   separated by single spaces";
    let cases: Vec<(String, ParsePositionError)> = vec![
        ("ffa".to_string(), e(3, "a space after the variant", None)),
        (
            format!("ffa,{FFA_BOARD} g gryb -"),
            e(3, "a space after the variant", Some(b',')),
        ),
        (ffa_with("g gryb"), e(board_end + 7, missing, None)),
        (ffa_with(""), e(board_end + 1, missing, None)),
        (
            ffa_with("x gryb -"),
            e(
                board_end + 1,
                "the seat to move, `g`, `r`, `y` or `b`",
                Some(b'x'),
            ),
        ),
        (
            ffa_with("G gryb -"),
            e(
                board_end + 1,
                "the seat to move, `g`, `r`, `y` or `b`",
                Some(b'G'),
            ),
        ),
        (
            ffa_with(" gryb -"),
            e(
                board_end + 1,
                "the seat to move, `g`, `r`, `y` or `b`",
                Some(b' '),
            ),
        ),
        (
            ffa_with("gr gryb -"),
            e(board_end + 2, "a space after the seat to move", Some(b'r')),
        ),
        (
            ffa_with("g grb -"),
            e(
                board_end + 6,
                "the controller of Blue's pieces, `g`, `r`, `y` or `b`",
                Some(b' '),
            ),
        ),
        (
            ffa_with("g gwyb -"),
            e(
                board_end + 4,
                "the controller of Red's pieces, `g`, `r`, `y` or `b`",
                Some(b'w'),
            ),
        ),
        (
            ffa_with("g grybg -"),
            e(
                board_end + 7,
                "a space after the four controllers",
                Some(b'g'),
            ),
        ),
        (
            ffa_with("g gryb "),
            e(
                board_end + 8,
                "the seats out of play, `-` or letters `g`, `r`, `y`, `b` in turn order",
                None,
            ),
        ),
        (
            ffa_with("g gryb rg"),
            e(
                board_end + 9,
                "the seats out of play in turn order `g`, `r`, `y`, `b`, each once",
                Some(b'g'),
            ),
        ),
        (
            ffa_with("g gryb rr"),
            e(
                board_end + 9,
                "the seats out of play in turn order `g`, `r`, `y`, `b`, each once",
                Some(b'r'),
            ),
        ),
        (
            ffa_with("g gryb r-"),
            e(
                board_end + 9,
                "a seat out of play, `g`, `r`, `y` or `b` (or `-` alone for none)",
                Some(b'-'),
            ),
        ),
        (
            ffa_with("g gryb -r"),
            e(board_end + 9, "the end of the input after `-`", Some(b'r')),
        ),
        (
            ffa_with("g gryb -\n"),
            e(board_end + 9, "the end of the input after `-`", Some(b'\n')),
        ),
        (
            ffa_with("g gryb - "),
            e(
                board_end + 10,
                "the seats out of play, `-` or letters `g`, `r`, `y`, `b` in turn order",
                None,
            ),
        ),
        (
            format!("ffa {} g gryb -", FFA_BOARD.replacen("r85", "w85", 1)),
            ParsePositionError::Board(ParseBoardError::FourPlayerColour {
                square: Square::A9,
                offset: 4,
                found: b'w',
            }),
        ),
        (
            format!("ffa {} g gryb -", FFA_BOARD.replacen("r85,", "r085,", 1)),
            ParsePositionError::Board(ParseBoardError::LeadingZero {
                square: Square::A9,
                offset: 5,
            }),
        ),
        (
            format!("ffa {} g gryb -", FFA_BOARD.replacen("/,,,,,,,,", "", 1)),
            ParsePositionError::Board(ParseBoardError::RankCount {
                found: 8,
                offset: board_end - 9,
            }),
        ),
    ];
    // Single spaces between the fields: the board may not begin or end with whitespace.
    assert_eq!(
        format!("partnership  {PARTNERSHIP_BOARD} g gryb -").parse::<PositionString>(),
        Err(ParsePositionError::Separator { offset: 12 })
    );
    assert_eq!(
        format!("ffa {FFA_BOARD}\t g gryb -").parse::<PositionString>(),
        Err(ParsePositionError::Separator {
            offset: 4 + FFA_BOARD.len()
        })
    );
    for (text, expected) in cases {
        let got = text.parse::<PositionString>();
        assert_eq!(got, Err(expected), "input {text:?}");
        assert_eq!(
            FourPlayerPositionString::from_ascii(text.as_bytes()),
            Err(expected)
        );
        let e = got.unwrap_err();
        assert!(e.offset() <= text.len());
        if text == "ffa" {
            // `read_position` reads the bare word as the start position.
            assert_eq!(
                read_position(&text, Rules::university()).unwrap(),
                Position::start(Variant::FreeForAll, Rules::university())
            );
            continue;
        }
        assert!(matches!(
            read_position(&text, Rules::university()),
            Err(ReadPositionError::Malformed(_))
        ));
    }
}

#[test]
fn error_messages_say_what_and_where() {
    let board_end = 4 + FFA_BOARD.len();
    let msg = |tail: &str| {
        ffa_with(tail)
            .parse::<PositionString>()
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        msg("g grb -"),
        format!(
            "byte {}: expected the controller of Blue's pieces, `g`, `r`, `y` or `b`, found a space",
            board_end + 6
        )
    );
    assert_eq!(
        msg("g gryb yr"),
        format!(
            "byte {}: expected the seats out of play in turn order `g`, `r`, `y`, `b`, each once, found `r`",
            board_end + 9
        )
    );
    let e = format!("ffa {} g gryb -", FFA_BOARD.replacen("g12", "x12", 1))
        .parse::<PositionString>()
        .unwrap_err();
    assert!(
        e.to_string().starts_with("a3 (byte ")
            && e.to_string()
                .ends_with("expected `g`, `r`, `y` or `b` or an empty square, found `x`"),
        "{e}"
    );
}

#[test]
fn validity_depends_on_the_rules() {
    // Red absorbed by Blue in a partnership game: Blue controls Red's pieces and plays
    // Red's turn.
    let board = ",,,,,,,,/,b16,,,,,b170,,/,,,,,,,,/,,,,,,,,/,,,,g17,,,,/,,,,,,,,/,,,,,,,,/,,,,,,y1,,/,,g170,,,,y170,, r gbyb r";
    let text = format!("partnership {board}");
    let pos = read_position(&text, Rules::university()).unwrap();
    assert_eq!((pos.turn(), pos.mover()), (R, B));
    // Under "plays on" an eliminated player keeps his own pieces: this control cannot arise.
    let plays_on = Rules::university().with_partner_elimination(PartnerElimination::PlaysOn);
    match read_position(&text, plays_on) {
        Err(ReadPositionError::Invalid(InvalidPositionError::Rules(e))) => {
            assert!(e.problems.contains(&SetupProblem::Controller {
                colour: R,
                controller: B
            }));
        }
        other => panic!("{other:?}"),
    }
    // A seat in play controlled by another, an out-of-play seat controlling itself in a
    // free-for-all, a seat in play without a commander.
    for (tail, problem) in [
        (
            "g rryb -",
            SetupProblem::Controller {
                colour: G,
                controller: R,
            },
        ),
        (
            "g gryb r",
            SetupProblem::Controller {
                colour: R,
                controller: R,
            },
        ),
    ] {
        match read_position(&ffa_with(tail), Rules::university()) {
            Err(ReadPositionError::Invalid(InvalidPositionError::Rules(e))) => {
                assert!(e.problems.contains(&problem), "{tail}: {e}");
            }
            other => panic!("{tail}: {other:?}"),
        }
    }
    let no_commander = format!("ffa {} g gryb -", FFA_BOARD.replacen("g85", "", 1));
    match read_position(&no_commander, Rules::university()) {
        Err(ReadPositionError::Invalid(InvalidPositionError::Rules(e))) => {
            assert!(e.problems.contains(&SetupProblem::ShouldBeEliminated(G)));
        }
        other => panic!("{other:?}"),
    }
    // Everybody out.
    assert!(read_position(&ffa_with("g gryb gryb"), Rules::university()).is_err());
}

fn partnership_game() -> Position {
    let st = setup(
        Variant::Partnership,
        &[
            (G, "c1", 170),
            (G, "e3", 17),
            (Y, "g1", 170),
            (Y, "g7", 17),
            (R, "e5", 170),
            (R, "b9", 16),
            (B, "g9", 170),
            (B, "f9", 16),
        ],
    );
    Position::from_setup(st, Rules::university()).unwrap()
}

#[test]
fn algebraic_hash_marks_eliminations_and_wins() {
    let mut pos = partnership_game();
    // Green takes Red's commander: Red is eliminated, the game goes on.
    let take = Move::new(sq("e3"), sq("e5"), 0);
    assert_eq!(AlgebraicMove::from_move(&pos, take).to_string(), "e3xe5#");
    assert_eq!(read_algebraic(&pos, "e3xe5#"), Ok(take));
    assert_eq!(read_algebraic(&pos, "e3-e5"), Ok(take));
    // A plain move has no mark.
    assert_eq!(
        AlgebraicMove::from_move(&pos, Move::new(sq("e3"), sq("e4"), 0)).to_string(),
        "e3-e4"
    );
    pos.play(take).unwrap();
    assert!(pos.outcome().is_none());
    // Blue plays Red's turn with Red's shield.
    let step = Move::new(sq("b9"), sq("b8"), 0);
    assert_eq!(AlgebraicMove::from_move(&pos, step).to_string(), "b9-b8");
    pos.play(step).unwrap();
    // Yellow takes Blue's commander: the team Green + Yellow wins.
    let win = Move::new(sq("g7"), sq("g9"), 0);
    assert_eq!(AlgebraicMove::from_move(&pos, win).to_string(), "g7xg9#");
}

#[test]
fn legality_reasons_name_the_player_who_moves() {
    let mut pos = partnership_game();
    pos.play(Move::new(sq("e3"), sq("e5"), 0)).unwrap();
    assert_eq!((pos.turn(), pos.mover()), (R, B));
    // Blue's own shield may move on Red's turn: a wrong target is unreachable, not "not
    // yours".
    assert_eq!(
        check_legal(&pos, Move::new(sq("f9"), sq("f7"), 0)),
        Err(IllegalMoveError::Unreachable {
            from: sq("f9"),
            to: sq("f7"),
            kind: ploy_core::PieceKind::Shield,
        })
    );
    assert!(check_legal(&pos, Move::new(sq("f9"), sq("f8"), 0)).is_ok());
    assert_eq!(
        check_legal(&pos, Move::new(sq("g7"), sq("g8"), 0)),
        Err(IllegalMoveError::NotYours {
            square: sq("g7"),
            colour: Y,
            turn: B,
        })
    );
}

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
fn moves_protocol_four_player_starts() {
    for (word, count, board) in [
        ("ffa", 84, FFA_BOARD),
        ("partnership", 86, PARTNERSHIP_BOARD),
    ] {
        let out = moves_line(word.as_bytes(), &university());
        let (moves, pos, outcome) = fields(&out);
        assert_eq!(moves.len(), count, "{word}");
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(pos, format!("{word} {board} g gryb -"));
        assert_eq!(outcome, "ongoing");
        // The same with the position spelled out.
        assert_eq!(moves_line(pos.as_bytes(), &university()), out);
    }
    // Moves are played first, turns go round.
    let out = moves_line(b"ffa | c3-d4-0 c7-d6-0 g7-f6-0 g3-f4-0", &university());
    let (_, pos, outcome) = fields(&out);
    assert!(pos.ends_with(" g gryb -"), "{pos}");
    assert_eq!(outcome, "ongoing");
    // Not Red's piece on Green's turn.
    assert!(moves_line(b"ffa | c7-d6-0", &university()).starts_with("error: move 1 `c7-d6-0`"));
}

#[test]
fn moves_protocol_four_player_outcomes() {
    // The partnership game above: Green + Yellow win.
    let pos = partnership_game();
    let line = format!(
        "{} | e3-e5-0 b9-b8-0 g7-g9-0",
        PositionString::from_position(&pos)
    );
    let out = moves_line(line.as_bytes(), &university());
    let (moves, end, outcome) = fields(&out);
    assert!(moves.is_empty());
    assert_eq!(outcome, "gy");
    assert!(end.ends_with(" rb"), "{end}");
    // Algebraic input and output.
    let alg = MovesOptions {
        algebraic: true,
        ..university()
    };
    let line = format!("{} | e3xe5# b9-b8", PositionString::from_position(&pos));
    let out = moves_line(line.as_bytes(), &alg);
    let (moves, _, outcome) = fields(&out);
    assert_eq!(outcome, "ongoing");
    assert!(moves.contains(&"g7xg9#"), "{moves:?}");
    // Free-for-all: the last player left wins alone.
    let st = setup(
        Variant::FreeForAll,
        &[(G, "a1", 85), (G, "e3", 17), (R, "e5", 85), (R, "a9", 16)],
    );
    let mut st = st;
    st.in_play = SeatSet::only(G).with(R);
    st.controllers = [G, R, G, R];
    let pos = Position::from_setup(st, Rules::university()).unwrap();
    let line = format!("{} | e3-e5-0", PositionString::from_position(&pos));
    let out = moves_line(line.as_bytes(), &university());
    assert_eq!(fields(&out).2, "g");
}

#[test]
fn protocol_rule_flags() {
    let opts =
        MovesOptions::from_args(["--plays-on", "--bare-commander-removed", "--relaxed"]).unwrap();
    assert!(opts.plays_on && opts.bare_commander_removed && opts.relaxed);
    let rules = opts.rules();
    assert_eq!(rules.partner_elimination, PartnerElimination::PlaysOn);
    assert_eq!(rules.bare_commander, ploy_core::BareCommander::Removed);
    assert!(MovesOptions::from_args(["--plays-off"]).is_err());
    // The absorbed partnership position is not valid under --plays-on.
    let mut pos = partnership_game();
    pos.play(Move::new(sq("e3"), sq("e5"), 0)).unwrap();
    let text = PositionString::from_position(&pos).to_string();
    assert!(fields(&moves_line(text.as_bytes(), &university())).2 == "ongoing");
    let plays_on = MovesOptions {
        plays_on: true,
        ..university()
    };
    assert!(moves_line(text.as_bytes(), &plays_on).starts_with("error: position: "));
}

#[test]
fn perft_protocol_four_player() {
    assert_eq!(perft_command(["ffa", "2"]).unwrap(), "7056\n");
    assert_eq!(perft_command(["partnership", "2"]).unwrap(), "7396\n");
    assert_eq!(
        perft_command(["partnership", "3", "--single-step"]).unwrap(),
        "24534\n"
    );
    assert_eq!(
        perft_command(["ffa", "1", "--plays-on", "--bare-commander-removed"]).unwrap(),
        "84\n"
    );
    let text = format!("ffa {FFA_BOARD} g gryb -");
    let out = perft_command([text.as_str(), "2", "--divide"]).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 85);
    assert_eq!(*lines.last().unwrap(), "7056");
    assert!(lines[..84].iter().all(|l| l.ends_with(" 84")));
    assert!(perft_command(["ffa", "2", "--plays"]).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn serde_uses_the_four_player_strings() {
    let text = format!("ffa {FFA_BOARD} g gryb -");
    let parsed: PositionString = text.parse().unwrap();
    let json = serde_json::to_string(&parsed).unwrap();
    assert_eq!(json, format!("\"{text}\""));
    assert_eq!(
        serde_json::from_str::<PositionString>(&json).unwrap(),
        parsed
    );
    let four = parsed.as_four_player().unwrap();
    assert_eq!(
        serde_json::from_str::<FourPlayerPositionString>(&json).unwrap(),
        *four
    );
    assert!(serde_json::from_str::<TwoPlayerPositionString>(&json).is_err());
}
