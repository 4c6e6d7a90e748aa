//! The checks that pin the rules (each check of the rule book is a test here), and more
//! hand-made positions: edges, several captures at once, wins by captures, the full-board
//! draw, what is legal after the end.

use pente::{
    Color, IllegalMove, Move, Outcome, Point, Position, Rules, Setup, SetupError, Size, WinReason,
};

fn mv(s: &str) -> Move {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pt(s: &str) -> Point {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn play_all(rules: Rules, moves: &str) -> Position {
    let list: Vec<Move> = moves.split_whitespace().map(mv).collect();
    Position::from_moves(rules, &list).unwrap_or_else(|(i, e)| panic!("move {i}: {e}"))
}

fn setup(rules: Rules, white: &str, black: &str, captures: [u8; 2], turn: Color) -> Position {
    let mut stones = Vec::new();
    for s in white.split_whitespace() {
        stones.push((pt(s), Color::White));
    }
    for s in black.split_whitespace() {
        stones.push((pt(s), Color::Black));
    }
    Position::from_setup(&Setup {
        rules,
        stones,
        captures,
        turn,
    })
    .expect("valid setup")
}

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

// ----- the rule book's checks ------------------------------------------------------------

#[test]
fn empty_board_only_the_centre() {
    for (size, centre) in [(Size::S19, "K10"), (Size::S9, "E5"), (Size::S7, "D4")] {
        for rules in [Rules::new(size), Rules::new(size).without_tournament_rule()] {
            let pos = Position::new(rules);
            assert_eq!(names(&pos.legal_moves()), vec![centre.to_owned()]);
            assert_eq!(pos.check(mv("A1")), Err(IllegalMove::NotCentre));
        }
    }
    // Every size: the centre and only the centre.
    for size in Size::ALL {
        assert_eq!(
            Position::new(Rules::new(size)).legal_moves(),
            vec![Move(size.centre())]
        );
    }
}

#[test]
fn tournament_rule_on_9x9() {
    let pos = play_all(Rules::new(Size::S9), "E5 F6");
    assert_eq!(pos.side_to_move(), Some(Color::White));
    let legal = pos.legal_moves();
    assert_eq!(legal.len(), 56);
    for m in &legal {
        let p = m.point();
        let inside = (2..=6).contains(&p.col()) && (2..=6).contains(&p.row());
        assert!(!inside, "{m} lies in C..G x 3..7");
    }
    assert!(pos.is_legal(mv("B3")));
    assert!(pos.is_legal(mv("J9")));
    assert_eq!(pos.check(mv("C3")), Err(IllegalMove::TournamentRule));
    assert_eq!(pos.check(mv("E7")), Err(IllegalMove::TournamentRule));
    assert_eq!(pos.check(mv("F6")), Err(IllegalMove::Occupied));

    let free = play_all(Rules::new(Size::S9).without_tournament_rule(), "E5 F6");
    assert_eq!(free.legal_moves().len(), 79);
    assert!(free.is_legal(mv("C3")) && free.is_legal(mv("E7")));
}

#[test]
fn a_pair_is_captured() {
    // W K10, B L10 M10, W plays N10.
    let mut pos = play_all(Rules::default(), "K10 L10 A1 M10");
    let before = pos.clone();
    let undo = pos.play(mv("N10")).unwrap();
    assert_eq!(pos.stone_at(pt("L10")), None);
    assert_eq!(pos.stone_at(pt("M10")), None);
    assert_eq!(pos.captures(Color::White), 2);
    assert_eq!(pos.captures(Color::Black), 0);
    assert_eq!(undo.pairs_captured(), 1);
    pos.unmake(mv("N10"), undo);
    assert_eq!(pos, before);
}

#[test]
fn three_stones_are_not_captured() {
    // W K10, B L10 M10 N10, W plays O10.
    let mut pos = play_all(Rules::default(), "K10 L10 A1 M10 A3 N10");
    pos.play(mv("O10")).unwrap();
    for s in ["L10", "M10", "N10"] {
        assert_eq!(pos.stone_at(pt(s)), Some(Color::Black));
    }
    assert_eq!(pos.captures(Color::White), 0);
}

#[test]
fn one_stone_is_not_captured() {
    let mut pos = play_all(Rules::default(), "K10 L10 A1 A2");
    pos.play(mv("M10")).unwrap();
    assert_eq!(pos.stone_at(pt("L10")), Some(Color::Black));
    assert_eq!(pos.captures(Color::White), 0);
}

#[test]
fn no_suicide() {
    // W K10 N10, B L10, Black plays M10: nothing is captured.
    let mut pos = play_all(Rules::default(), "K10 L10 N10");
    pos.play(mv("M10")).unwrap();
    assert_eq!(pos.stone_at(pt("L10")), Some(Color::Black));
    assert_eq!(pos.stone_at(pt("M10")), Some(Color::Black));
    assert_eq!(pos.captures(Color::White), 0);
    assert_eq!(pos.captures(Color::Black), 0);
}

#[test]
fn diagonal_capture_across_h_and_j() {
    // W G13, B H12 J11, W plays K10 (H and J are neighbouring columns).
    let mut pos = setup(Rules::default(), "G13 A1", "H12 J11", [0, 0], Color::White);
    pos.play(mv("K10")).unwrap();
    assert_eq!(pos.stone_at(pt("H12")), None);
    assert_eq!(pos.stone_at(pt("J11")), None);
    assert_eq!(pos.captures(Color::White), 2);
}

#[test]
fn five_and_a_capture_at_once() {
    // W K10 L10 M10 N10 with B O11 O12 and W O13, W plays O10.
    let mut pos = setup(
        Rules::default(),
        "K10 L10 M10 N10 O13",
        "O11 O12 A1 C1 E1",
        [0, 0],
        Color::White,
    );
    pos.play(mv("O10")).unwrap();
    assert_eq!(pos.stone_at(pt("O11")), None);
    assert_eq!(pos.stone_at(pt("O12")), None);
    assert_eq!(pos.captures(Color::White), 2);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Five
        })
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.side_to_move(), None);
}

// ----- more ---------------------------------------------------------------------------

/// `n` filler stones far from the action: every other point of rows 19, 17, 15 for White
/// (`white`) or rows 1, 3, 5 for Black (no line, no bracket).
fn filler(white: bool, n: usize) -> String {
    (0..n)
        .map(|i| {
            let row = (2 * (i / 10)) as u8;
            let row = if white { 18 - row } else { row };
            Point::new(2 * (i % 10) as u8, row).unwrap().to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn five_and_ten_captures_at_once() {
    // As the rule book's last check, with 8 stones already captured by White.
    let mut pos = setup(
        Rules::default(),
        &format!("K10 L10 M10 N10 O13 {}", filler(true, 5)),
        "O11 O12",
        [8, 0],
        Color::White,
    );
    pos.play(mv("O10")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::FiveAndCaptures
        })
    );
    assert_eq!(pos.captures(Color::White), 10);
}

#[test]
fn ten_captures_win() {
    let mut pos = setup(
        Rules::default(),
        &format!("K10 {}", filler(true, 9)),
        "L10 M10",
        [8, 0],
        Color::White,
    );
    pos.play(mv("N10")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Captures
        })
    );
    assert_eq!(pos.side_to_move(), None);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.check(mv("S19")), Err(IllegalMove::GameOver));
    // Black wins by captures the same way.
    let mut pos = setup(
        Rules::default(),
        "L10 M10",
        &format!("K10 {}", filler(false, 8)),
        [0, 8],
        Color::Black,
    );
    pos.play(mv("N10")).unwrap();
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Captures
        })
    );
}

#[test]
fn several_pairs_in_one_move_count_in_stones() {
    // White plays K10: pairs to the east, the north and the south-west.
    for (before_captures, won) in [(0, false), (4, true)] {
        let extra = usize::from(before_captures);
        let mut pos = setup(
            Rules::default(),
            &format!("N10 K13 G7 {}", filler(true, 3 + extra)),
            "L10 M10 K11 K12 J9 H8",
            [before_captures, 0],
            Color::White,
        );
        let before = pos.clone();
        let undo = pos.play(mv("K10")).unwrap();
        assert_eq!(undo.pairs_captured(), 3);
        assert_eq!(pos.captures(Color::White), before_captures + 6);
        for s in ["L10", "M10", "K11", "K12", "J9", "H8"] {
            assert_eq!(pos.stone_at(pt(s)), None, "{s}");
        }
        assert_eq!(pos.stones(Color::Black), 0);
        assert_eq!(pos.is_over(), won);
        if won {
            assert_eq!(
                pos.outcome(),
                Some(Outcome::Win {
                    winner: Color::White,
                    reason: WinReason::Captures
                })
            );
        }
        pos.unmake(mv("K10"), undo);
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

#[test]
fn captures_at_the_edges() {
    // Along the bottom edge: a pair on B1 C1 bracketed by A1 and D1.
    let mut pos = setup(
        Rules::new(Size::S7).without_tournament_rule(),
        "D4 A1",
        "B1 C1",
        [0, 0],
        Color::White,
    );
    pos.play(mv("D1")).unwrap();
    assert_eq!(pos.captures(Color::White), 2);
    // The edge does not bracket: a pair on A2 B2 with White on C2 and the board edge.
    let mut pos = setup(
        Rules::new(Size::S7).without_tournament_rule(),
        "D4 G7",
        "A2 B2",
        [0, 0],
        Color::White,
    );
    pos.play(mv("C2")).unwrap();
    assert_eq!(pos.captures(Color::White), 0);
    // A pair along the right edge.
    let mut pos = setup(
        Rules::new(Size::S7).without_tournament_rule(),
        "G7 A7",
        "G6 G5",
        [0, 0],
        Color::White,
    );
    pos.play(mv("G4")).unwrap();
    assert_eq!(pos.captures(Color::White), 2);
    assert_eq!(pos.stone_at(pt("G6")), None);
    assert_eq!(pos.stone_at(pt("G5")), None);
    // A pair leading off the board diagonally is never captured.
    let mut pos = setup(
        Rules::new(Size::S7).without_tournament_rule(),
        "D4 A1",
        "F6 G7",
        [0, 0],
        Color::White,
    );
    pos.play(mv("E5")).unwrap();
    assert_eq!(pos.captures(Color::White), 0);
    // Across the corner: H and J are neighbours on the 19x19 board's top row too.
    let mut pos = setup(Rules::default(), "G19 A1", "H19 J19", [0, 0], Color::White);
    pos.play(mv("K19")).unwrap();
    assert_eq!(pos.captures(Color::White), 2);
}

#[test]
fn full_board_is_a_draw() {
    // A 7x7 board with one point left, no five, and a last stone that captures nothing
    // (found by a random search): White fills D1 and the game is drawn.
    let mut pos: Position = "bbwwwbw/bbbbwbb/bwbbwbb/wbbbbww/wwbwwww/wwwwbww/bbb1wwb w 0 0 t"
        .parse()
        .expect("valid position");
    assert!(!pos.is_over());
    assert_eq!(pos.legal_moves(), vec![mv("D1")]);
    pos.play(mv("D1")).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert!(pos.is_full());
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.side_to_move(), None);
    assert_eq!(pos.check(mv("D1")), Err(IllegalMove::GameOver));
}

#[test]
fn setup_rejections() {
    let r = Rules::default();
    let bad = Position::from_setup(&Setup {
        rules: r,
        stones: vec![(pt("K10"), Color::White)],
        captures: [0, 0],
        turn: Color::White,
    });
    assert!(matches!(bad, Err(SetupError::Turn { .. })));
    let bad = Position::from_setup(&Setup {
        rules: Rules::new(Size::S7),
        stones: vec![(pt("K10"), Color::White)],
        captures: [0, 0],
        turn: Color::Black,
    });
    assert_eq!(bad, Err(SetupError::OffBoard(pt("K10"))));
    let bad = Position::from_setup(&Setup {
        rules: r,
        stones: vec![(pt("K10"), Color::White)],
        captures: [3, 0],
        turn: Color::Black,
    });
    assert_eq!(bad, Err(SetupError::Captures(Color::White, 3)));
}

#[test]
fn illegal_moves_leave_the_position_unchanged() {
    let mut pos = play_all(Rules::default(), "K10 L10");
    let before = pos.clone();
    for (m, reason) in [
        ("K10", IllegalMove::Occupied),
        ("L11", IllegalMove::TournamentRule),
        ("M12", IllegalMove::TournamentRule),
        ("H8", IllegalMove::TournamentRule),
    ] {
        let err = pos.play(mv(m)).unwrap_err();
        assert_eq!(err.reason, reason, "{m}");
        assert_eq!(err.mv, mv(m));
        assert_eq!(pos, before);
    }
    // The zone ends exactly three points away: N13 and G7 are legal.
    for m in ["N13", "G7", "K13", "K7", "T19"] {
        assert!(pos.is_legal(mv(m)), "{m}");
    }
    let small = play_all(Rules::new(Size::S9), "E5");
    assert_eq!(small.check(mv("K10")), Err(IllegalMove::OffBoard));
    // The rule restricts White's second stone only.
    let later = play_all(Rules::default(), "K10 L10 A1");
    assert!(later.is_legal(mv("L11")));
}
