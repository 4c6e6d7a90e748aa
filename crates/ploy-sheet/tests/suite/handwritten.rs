//! Hand-written sheets and records, with the damage people and spreadsheets do to them.

use crate::common::tabs;
use ploy_core::{
    DrawReason, Game, Move, Outcome, Position, Rules, Seat, Square, Variant, WinReason,
};
use ploy_notation::{IllegalMoveError, ReadMoveError, read_position};
use ploy_sheet::{
    Format, ReadError, ReadErrorKind, SavedGame, WriteError, read, read_record, read_sheet,
};

const DOC_SHEET: &str = "\
Ploy score sheet
Event→Club night
Date→2026-11-22
Variant→two-player
Elimination→strict
Rotation→any
Repetition draw→yes
No-capture limit→200
Green→Alice
Red→Bob
Round→Green→Red
1→e3-e4→e7-e6
2→e4-e5→e6xe5
3→d2-e3→e9-1
4→e3-d4
Result→Red wins→time forfeit
";

const DOC_RECORD: &str = "\
ploy-record: 1
event: Club night
date: 2026-11-22
variant: two-player
elimination: strict
rotation: any
repetition-draw: yes
no-capture-limit: 200
start: standard
green: Alice
red: Bob
result: Red wins, time forfeit
moves:
e3-e4-0
e7-e6-0
e4-e5-0
e6-e5-0
d2-e3-0
e9-e9-1
e3-d4-0
";

/// The documented sheet with `from` replaced by `to`.
fn edit(from: &str, to: &str) -> String {
    assert!(DOC_SHEET.contains(from), "{from}");
    tabs(&DOC_SHEET.replace(from, to))
}

fn doc_game() -> SavedGame {
    read_sheet(&tabs(DOC_SHEET)).expect("the documented sheet reads")
}

fn fail(r: Result<SavedGame, ReadError>) -> (usize, usize, ReadErrorKind) {
    let e = r.expect_err("an error");
    (e.line, e.column, e.kind)
}

/// Extracts the first ```text block after `marker` from the crate docs.
fn doc_block(marker: &str) -> String {
    let src = include_str!("../../src/lib.rs");
    let at = src.find(marker).expect("marker in the crate docs");
    let rest = &src[at..];
    let start = rest.find("//! ```text\n").expect("a text block") + "//! ```text\n".len();
    let end = rest[start..].find("//! ```").expect("end of block");
    rest[start..start + end]
        .lines()
        .map(|l| format!("{}\n", l.strip_prefix("//! ").unwrap_or("")))
        .collect()
}

#[test]
fn crate_docs_show_what_the_writers_write() {
    assert_eq!(doc_block("A score sheet of a two-player game"), DOC_SHEET);
    assert_eq!(doc_block("The same game as a record"), DOC_RECORD);
    let saved = doc_game();
    assert_eq!(saved.to_sheet().unwrap(), tabs(DOC_SHEET));
    assert_eq!(saved.to_record().unwrap().to_string(), DOC_RECORD);
    assert_eq!(read_record(DOC_RECORD).unwrap(), saved);
    assert_eq!(saved.header.players.get(Seat::Green), Some("Alice"));
    assert_eq!(saved.game.moves().len(), 7);
    assert_eq!(
        saved.game.outcome(),
        Some(Outcome::win(Seat::Red, WinReason::TimeForfeit))
    );
}

#[test]
fn the_documented_partnership_sheet() {
    let text = doc_block("A partnership game that goes on");
    let saved = read_sheet(&tabs(&text)).unwrap();
    assert_eq!(saved.to_sheet().unwrap(), tabs(&text));
    let game = &saved.game;
    assert_eq!(game.moves().len(), 33);
    assert_eq!(game.position().in_play().count(), 3);
    // Plies 28 and 32 are Blue's turns, played by Red.
    for ply in [28, 32] {
        let pos = &game.positions()[ply - 1];
        assert_eq!((pos.turn(), pos.mover()), (Seat::Blue, Seat::Red));
    }
    assert_eq!(
        read_record(&saved.to_record().unwrap().to_string()).unwrap(),
        saved
    );
}

#[test]
fn human_damage_changes_nothing() {
    let clean = doc_game();
    // Extra blank lines, lines of tabs, trailing tabs, Windows line ends, spaces around
    // cells, capital letters, other spellings of keys and values, `Black`/`White`.
    let damaged = "\r\n\r\n  ploy SCORE sheet\t\t\r\n\
        EVENT\t Club night \t\r\n\
        \t\t\r\n\
        date\t2026-11-22\r\n\
        variant\tTwo Player\r\n\
        repetition_draw\ton\r\n\
        Black\tAlice\r\n\
        White\tBob\t\t\t\r\n\
        \r\n\
        ROUND\tgreen\tRED\t\r\n\
        1.\tE3-E4\te7-e6\t\r\n\
        \r\n\
        2\te4-e5\te6-e5\r\n\
        3\t d2-e3 \te9-e9-1\r\n\
        4\te3-d4#\t\t\t\r\n\
        \r\n\
        Result\tred WINS\tTime forfeit\t\r\n\r\n\t\r\n";
    assert_eq!(read_sheet(damaged).unwrap(), clean);
    // A byte order mark, as some spreadsheets write.
    let bom = format!("\u{feff}{}", tabs(DOC_SHEET));
    assert_eq!(read(&bom).unwrap(), (Format::Sheet, clean.clone()));
    let bom = format!("\u{feff}{DOC_RECORD}");
    assert_eq!(read(&bom).unwrap(), (Format::Record, clean.clone()));
    // The result in one cell, comma and all.
    let one_cell = edit("Red wins→time forfeit", "Red wins, time forfeit");
    assert_eq!(read_sheet(&one_cell).unwrap(), clean);
    // Records: comments, blank lines, Windows line ends, several moves on a line.
    let record = "# saved by hand\r\n\r\nPloy-Record : 1\r\n  event:   Club night  \r\n\
        date: 2026-11-22\r\nvariant: TWO-PLAYER\r\nrules: standard\r\nblack: Alice\r\n\
        white: Bob\r\n# the result\r\nresult: red wins, time forfeit\r\nmoves:\r\n\
        e3-e4-0 e7-e6-0\r\n\r\n  e4-e5-0\te6-e5-0  \r\n# comment\r\nd2-e3-0\r\ne9-e9-1\r\n\
        e3-d4-0\r\n\r\n";
    assert_eq!(read_record(record).unwrap(), clean);
}

#[test]
fn a_misspelled_move_is_reported_where_it_stands() {
    let text = edit("e6xe5", "e6xe55");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (13, 14)); // `2→e4-e5→e6xe55`: the second 5 is character 14
    assert!(matches!(
        kind,
        ReadErrorKind::Move {
            ply: 4,
            seat: Seat::Red,
            source: ReadMoveError::Malformed(_),
            ..
        }
    ));
    let text = edit("e6xe5", "e6ye5");
    let e = read_sheet(&text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 13, column 11: move 4 (red) `e6ye5`: character 3: expected `-`, `x`, `+` or the end square, found `y`"
    );
    // In a record.
    let text = DOC_RECORD.replace("e6-e5-0", "e6-e5-9");
    let e = read_record(&text).unwrap_err();
    assert_eq!((e.line, e.column), (17, 7));
    assert!(e.to_string().contains("expected a rotation digit"), "{e}");
}

#[test]
fn an_illegal_move_is_reported_with_the_reason() {
    let text = edit("d2-e3", "d2-d3");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (14, 3));
    assert_eq!(
        kind.to_string(),
        "move 5 (green) `d2-d3`: not legal here: the probe on d2 cannot move to d3"
    );
    let text = DOC_RECORD.replace("e9-e9-1", "e9-e9-2");
    let (line, column, kind) = fail(read_record(&text));
    assert_eq!((line, column), (19, 1));
    assert!(matches!(
        kind,
        ReadErrorKind::Move {
            ply: 6,
            source: ReadMoveError::Illegal(IllegalMoveError::NoChange { .. }),
            ..
        }
    ));
}

#[test]
fn moves_in_the_wrong_place() {
    // Red's move in round 1 is missing, but round 2 goes on.
    let text = edit("1→e3-e4→e7-e6\n2→e4-e5→e6xe5", "1→e3-e4\n2→→e7-e6");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!(
        kind,
        ReadErrorKind::MissingMove {
            round: 1,
            seat: Seat::Red
        }
    );
    assert_eq!((line, column), (12, 8));
    // Both moves of round 1 in Green's column: the second is in a row of its own.
    let text = edit("1→e3-e4→e7-e6", "1→e3-e4\n2→e7-e6");
    let (_, _, kind) = fail(read_sheet(&text));
    assert!(
        matches!(
            kind,
            ReadErrorKind::MissingMove {
                round: 1,
                seat: Seat::Red
            }
        ),
        "{kind}"
    );
    // A move in Red's column when Green is to move.
    let text = edit("4→e3-d4", "4→→e3-d4");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (15, 3));
    assert!(matches!(
        kind,
        ReadErrorKind::MissingMove {
            round: 4,
            seat: Seat::Green
        }
    ));
    // A round number skipped.
    let text = edit("3→d2-e3", "4→d2-e3");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (14, 1));
    assert_eq!(
        kind,
        ReadErrorKind::Round {
            expected: 3,
            found: "4".into()
        }
    );
    // Three moves in a two-player row.
    let text = edit("4→e3-d4", "4→e3-d4→e9-1→e1-1");
    let (_, column, kind) = fail(read_sheet(&text));
    assert_eq!(column, 14);
    assert!(matches!(kind, ReadErrorKind::ExtraCell(_)));
}

#[test]
fn wrong_column_when_the_seat_is_not_to_move() {
    // A game starting with Red to move: Green's cell in round 1 stays empty.
    let pos = read_position(
        ",,,,w170,,,,/,,,,w16,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b1,,,,/,,,,,,,,/,,,,b170,,,, w",
        Rules::standard(),
    )
    .unwrap();
    let mut game = Game::from_position(pos);
    game.play(Move::new(Square::E8, Square::E7, 0)).unwrap();
    game.play(Move::new(Square::E3, Square::E4, 0)).unwrap();
    let sheet = SavedGame::new(game).to_sheet().unwrap();
    assert!(sheet.contains("\nStart\t"), "{sheet}");
    assert!(
        sheet.contains("Round\tGreen\tRed\n1\t\te8-e7\n2\te3-e4\nResult\tunfinished\n"),
        "{sheet}"
    );
    let back = read_sheet(&sheet).unwrap();
    assert_eq!(back.game.moves().len(), 2);
    // Green's move put in round 1: Red is to move there.
    let bad = sheet.replace("1\t\te8-e7\n2\te3-e4", "1\te3-e4\te8-e7");
    let (line, column, kind) = fail(read_sheet(&bad));
    assert_eq!((line, column), (line, 3));
    assert_eq!(
        kind,
        ReadErrorKind::WrongColumn {
            round: 1,
            seat: Seat::Green,
            turn: Seat::Red
        }
    );
}

#[test]
fn header_damage() {
    let text = edit("Variant", "Varient");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!(
        (line, column, kind),
        (4, 1, ReadErrorKind::UnknownKey("Varient".into()))
    );
    let text = edit("Rotation→any", "Rotation→sometimes");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (6, 10));
    assert_eq!(
        kind.to_string(),
        "rotation: expected `any` or `single-step`, found `sometimes`"
    );
    let text = edit("Date→2026-11-22", "Event→again");
    let (line, _, kind) = fail(read_sheet(&text));
    assert_eq!(
        (line, kind),
        (3, ReadErrorKind::DuplicateKey("Event".into()))
    );
    let text = edit("Ploy score sheet", "Ploy score");
    assert!(matches!(
        kind_of(read_sheet(&text)),
        ReadErrorKind::Title { .. }
    ));
    let text = edit("Round→Green→Red", "Round→Red→Green");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (11, 7));
    assert_eq!(
        kind.to_string(),
        "expected the column header `Round Green Red`"
    );
    let text = edit("Red→Bob", "Yellow→Bob");
    assert_eq!(
        kind_of(read_sheet(&text)),
        ReadErrorKind::SeatNotInVariant {
            seat: Seat::Yellow,
            variant: Variant::TwoPlayer
        }
    );
    assert_eq!(kind_of(read_sheet("")), ReadErrorKind::Empty);
    assert_eq!(kind_of(read_sheet("\n\t\r\n")), ReadErrorKind::Empty);
    assert!(matches!(
        kind_of(read_sheet("Ploy score sheet\n")),
        ReadErrorKind::Columns { .. }
    ));
    // Records.
    let text = DOC_RECORD.replace("ploy-record: 1", "ploy-record: 2");
    let (line, column, kind) = fail(read_record(&text));
    assert_eq!(
        (line, column, kind),
        (1, 14, ReadErrorKind::Version("2".into()))
    );
    let text = DOC_RECORD.replace("date:", "dat:");
    assert_eq!(
        kind_of(read_record(&text)),
        ReadErrorKind::UnknownKey("dat".into())
    );
    let text = DOC_RECORD.replace("date: 2026-11-22", "date 2026-11-22");
    assert!(matches!(
        kind_of(read_record(&text)),
        ReadErrorKind::Syntax { .. }
    ));
    let text = format!("{DOC_RECORD}result: draw, agreement\n");
    let (line, _, kind) = fail(read_record(&text));
    assert_eq!(line, 21);
    assert!(matches!(kind, ReadErrorKind::Unexpected { .. }));
    assert!(matches!(
        kind_of(read_record("moves:\n")),
        ReadErrorKind::Title { .. }
    ));
    let text = DOC_RECORD.replace("no-capture-limit: 200", "no-capture-limit: 70000");
    assert!(matches!(
        kind_of(read_record(&text)),
        ReadErrorKind::Value { .. }
    ));
}

fn kind_of(r: Result<SavedGame, ReadError>) -> ReadErrorKind {
    r.expect_err("an error").kind
}

#[test]
fn results_must_match_the_moves() {
    let unfinished = edit("Red wins→time forfeit", "unfinished");
    let saved = read_sheet(&unfinished).unwrap();
    assert_eq!(saved.game.outcome(), None);
    // No result row: the moves decide.
    let no_result = edit("Result→Red wins→time forfeit\n", "");
    assert_eq!(read_sheet(&no_result).unwrap(), saved);
    // A win the board does not give.
    let text = edit("time forfeit", "commander captured");
    let (line, column, kind) = fail(read_sheet(&text));
    assert_eq!((line, column), (16, 8));
    assert_eq!(
        kind.to_string(),
        "the result says Red wins, commander captured, but the moves give unfinished"
    );
    let text = edit("Red wins→time forfeit", "Green wins");
    assert!(matches!(
        kind_of(read_sheet(&text)),
        ReadErrorKind::Result(_)
    ));
    let text = edit("Red wins→time forfeit", "draw→agreement");
    assert_eq!(
        read_sheet(&text).unwrap().game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    let text = edit("Red wins→time forfeit", "Green wins→resignation");
    assert_eq!(
        read_sheet(&text).unwrap().game.outcome(),
        Some(Outcome::win(Seat::Green, WinReason::Resignation))
    );
    // Nothing after the result.
    let text = format!("{}5\te1-1\n", tabs(DOC_SHEET));
    assert!(matches!(
        kind_of(read_sheet(&text)),
        ReadErrorKind::Unexpected { .. }
    ));
}

/// A short game in which Green captures Red's commander.
fn commander_capture() -> Game {
    let pos = read_position(
        ",,,,w170,,,,/,,,,w1,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b3,,,,/,,,,b1,,,,/,,,,,,,,/,,,,b170,,,, b",
        Rules::standard().with_elimination(ploy_core::Elimination::Relaxed),
    )
    .unwrap();
    let mut game = Game::from_position(pos);
    for mv in [
        Move::new(Square::E4, Square::E6, 0),
        Move::turn(Square::E9, 1),
        Move::new(Square::E6, Square::E8, 0),
        Move::turn(Square::E9, 7),
        Move::new(Square::E8, Square::E9, 0),
    ] {
        game.play(mv).unwrap();
    }
    game
}

#[test]
fn a_won_game_and_a_move_after_the_end() {
    let game = commander_capture();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Seat::Green, WinReason::CommanderCaptured))
    );
    let sheet = SavedGame::new(game.clone()).to_sheet().unwrap();
    assert!(
        sheet.ends_with("3\te8xe9#\nResult\tGreen wins\tcommander captured\n"),
        "{sheet}"
    );
    assert_eq!(read_sheet(&sheet).unwrap().game, game);
    let more = sheet.replace("3\te8xe9#\n", "3\te8xe9#\te7-e6\n");
    let (_, column, kind) = fail(read_sheet(&more));
    assert_eq!(column, 10);
    assert!(
        matches!(kind, ReadErrorKind::AfterEnd { ply: 6, .. }),
        "{kind}"
    );
    let record = SavedGame::new(game).to_record().unwrap().to_string();
    let more = format!("{record}e7-e6-0\n");
    assert!(matches!(
        kind_of(read_record(&more)),
        ReadErrorKind::AfterEnd { .. }
    ));
}

#[test]
fn history_is_restored_for_the_draw_rules() {
    // The commanders turn there and back: the start position recurs.
    let mut game = Game::new(Rules::standard());
    let cycle = [
        Move::turn(Square::E1, 1),
        Move::turn(Square::E9, 1),
        Move::turn(Square::E1, 7),
        Move::turn(Square::E9, 7),
    ];
    for mv in cycle {
        game.play(mv).unwrap();
    }
    assert_eq!(game.repetitions(), 2);
    let sheet = SavedGame::new(game.clone()).to_sheet().unwrap();
    let record = SavedGame::new(game.clone())
        .to_record()
        .unwrap()
        .to_string();
    for mut back in [
        read_sheet(&sheet).unwrap().game,
        read_record(&record).unwrap().game,
    ] {
        assert_eq!(back.repetitions(), 2);
        assert_eq!(back.plies_since_capture(), 4);
        for mv in cycle {
            back.play(mv).unwrap();
        }
        assert_eq!(
            back.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::Repetition
            })
        );
        // A draw by repetition round-trips, and nothing may follow it.
        let saved = SavedGame::new(back.clone());
        let sheet = saved.to_sheet().unwrap();
        assert!(sheet.ends_with("Result\tdraw\trepetition\n"));
        assert_eq!(read_sheet(&sheet).unwrap(), saved);
        let more = sheet.replace("Result", "5\te3-e4\nResult");
        assert!(matches!(
            kind_of(read_sheet(&more)),
            ReadErrorKind::AfterEnd { ply: 9, .. }
        ));
    }
    // The no-capture count goes on from where it was.
    let rules = Rules::university().with_no_capture_limit(Some(6));
    let mut game = Game::new(rules);
    for mv in &cycle[..3] {
        game.play(*mv).unwrap();
    }
    let saved = SavedGame::new(game);
    let mut back = read_record(&saved.to_record().unwrap().to_string())
        .unwrap()
        .game;
    assert_eq!(back.plies_since_capture(), 3);
    for mv in [cycle[3], cycle[0], cycle[1]] {
        back.play(mv).unwrap();
    }
    assert_eq!(
        back.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::NoCaptureLimit
        })
    );
}

#[test]
fn recorded_endings_round_trip() {
    for end in 0..3 {
        let mut game = Game::new(Rules::university());
        game.play(Move::new(Square::E3, Square::E4, 0)).unwrap();
        match end {
            0 => game.resign(Seat::Red).unwrap(),
            1 => game.forfeit_on_time(Seat::Green).unwrap(),
            _ => game.agree_draw().unwrap(),
        }
        let saved = SavedGame::new(game);
        let sheet = saved.to_sheet().unwrap();
        let record = saved.to_record().unwrap();
        assert_eq!(read_sheet(&sheet).unwrap(), saved);
        assert_eq!(read_record(&record.to_string()).unwrap(), saved);
        assert_eq!(record.replay().unwrap(), saved);
        assert_eq!(read(&sheet).unwrap().0, Format::Sheet);
    }
}

/// Seeds a random four-player game until `want` holds for it.
fn find_game(variant: Variant, rules: Rules, want: impl Fn(&Game) -> bool) -> Game {
    use rand::SeedableRng;
    for seed in 0..2000 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut game = Game::from_position(Position::start(variant, rules));
        while let Some(mv) = crate::common::pick(&game, &mut rng, 0.8) {
            game.play(mv).unwrap();
            if want(&game) {
                return game;
            }
        }
    }
    panic!("no such game found");
}

/// The sheet's rows as cells, the round number dropped.
fn rows(sheet: &str) -> Vec<Vec<String>> {
    let start = sheet.find("Round\t").unwrap();
    sheet[start..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("Result"))
        .map(|l| l.split('\t').skip(1).map(str::to_owned).collect())
        .collect()
}

#[test]
fn partnership_absorbed_turns_go_in_the_absorbed_seats_column() {
    let rules = Rules::university();
    // A partner has played an eliminated player's turn, and the game went on a little.
    let game = find_game(Variant::Partnership, rules, |g| {
        let n = g.positions().len();
        n > 3 && g.positions()[..n - 2].iter().any(|p| p.mover() != p.turn())
    });
    let sheet = SavedGame::new(game.clone()).to_sheet().unwrap();
    let rows = rows(&sheet);
    let mut round = 0;
    let mut last = usize::MAX;
    let mut checked = 0;
    for (i, &mv) in game.moves().iter().enumerate() {
        let pos = &game.positions()[i];
        let col = pos.turn().index();
        if last == usize::MAX || col <= last {
            round += 1;
        }
        last = col;
        let cell = &rows[round - 1][col];
        let written = ploy_notation::AlgebraicMove::from_move(pos, mv).to_string();
        assert_eq!(cell, &written, "round {round}, column {col}\n{sheet}");
        if pos.mover() != pos.turn() {
            checked += 1;
        }
    }
    assert!(checked > 0);
    assert_eq!(read_sheet(&sheet).unwrap().game, game);
    // An illegal move on an absorbed turn is refused for what it is, not for whose piece
    // it is: a piece of the partner's turned by 0.
    let i = (0..game.moves().len())
        .find(|&i| game.positions()[i].mover() != game.positions()[i].turn())
        .unwrap();
    let mut record = SavedGame::new(game.clone()).to_record().unwrap();
    let from = game.moves()[i].from();
    record.moves[i] = ploy_notation::UniversityMove::new(from, from, 0).unwrap();
    match record.replay().unwrap_err() {
        ReadErrorKind::Move { ply, source, .. } => {
            assert_eq!(ply, i + 1);
            assert!(
                matches!(
                    source,
                    ReadMoveError::Illegal(IllegalMoveError::NoChange { .. })
                ),
                "{source}"
            );
        }
        e => panic!("{e}"),
    }
}

#[test]
fn free_for_all_skipped_seats_leave_empty_cells() {
    let rules = Rules::university();
    // A player went out, and two rounds were played since.
    let game = find_game(Variant::FreeForAll, rules, |g| {
        let n = g.positions().len();
        n > 8 && g.positions()[n - 9].in_play().count() == 3
    });
    let out = Seat::ALL
        .into_iter()
        .find(|&s| !game.position().in_play().contains(s))
        .unwrap();
    let sheet = SavedGame::new(game.clone()).to_sheet().unwrap();
    let rows = rows(&sheet);
    // The rounds after the one in which he went out have no move in his column.
    let went_out = game
        .positions()
        .iter()
        .position(|p| !p.in_play().contains(out))
        .unwrap();
    let mut round = 0;
    let mut last = usize::MAX;
    let mut out_round = 0;
    for (i, pos) in game.positions()[..game.moves().len()].iter().enumerate() {
        let col = pos.turn().index();
        if last == usize::MAX || col <= last {
            round += 1;
        }
        last = col;
        if i + 1 == went_out {
            out_round = round;
        }
    }
    assert!(rows.len() > out_round + 1, "{sheet}");
    for row in &rows[out_round..] {
        assert!(row.get(out.index()).is_none_or(String::is_empty), "{sheet}");
    }
    assert_eq!(read_sheet(&sheet).unwrap().game, game);
    // A move written in the eliminated player's column is refused.
    let line = sheet.lines().rev().nth(1).unwrap().to_owned();
    let mut cells: Vec<&str> = line.split('\t').collect();
    while cells.len() < 5 {
        cells.push("");
    }
    cells[out.index() + 1] = "e5-e6";
    let bad = sheet.replace(&line, &cells.join("\t"));
    let e = read_sheet(&bad).unwrap_err();
    assert!(
        matches!(
            e.kind,
            ReadErrorKind::WrongColumn { .. } | ReadErrorKind::MissingMove { .. }
        ),
        "{e}\n{bad}"
    );
}

#[test]
fn four_player_start_positions() {
    // A two-player position string under a four-player header is refused where it stands.
    let sheet = "Ploy score sheet\nVariant\tfree-for-all\nStart\t,,,,w170,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,,b170,,,, b\nRound\tGreen\tRed\tYellow\tBlue\n";
    let (line, column, kind) = fail(read_sheet(sheet));
    assert_eq!((line, column), (3, 7));
    assert_eq!(
        kind,
        ReadErrorKind::StartVariant {
            variant: Variant::FreeForAll,
            start: Variant::TwoPlayer
        }
    );
    // The standard start is fine, spelled out or not.
    let sheet = "Ploy score sheet\nVariant\tpartnership\nStart\tstandard\nRound\tGreen\tRed\tYellow\tBlue\n1\tc3-c4\tc7-c6\tg3-g4\tg7-g6\n2\td3-d4\n";
    let saved = read_sheet(sheet).unwrap();
    assert_eq!(saved.game.moves().len(), 5);
    assert_eq!(saved.game.rules(), Rules::standard());
    // A four-player game from another position is written with its four-player position
    // string and reads back as the same game, as a sheet and as a record.
    for variant in [Variant::FreeForAll, Variant::Partnership] {
        let mut pos = Position::start(variant, Rules::standard());
        let mv = pos.legal_moves()[0];
        pos.make_move(mv);
        let mut game = Game::from_position(pos);
        let next = game.legal_moves()[3];
        game.play(next).unwrap();
        let saved = SavedGame::new(game.clone());
        let sheet = saved.to_sheet().unwrap();
        assert!(sheet.contains("Start\t"), "{sheet}");
        assert_eq!(read_sheet(&sheet).unwrap().game, game);
        let record = saved.to_record().unwrap().to_string();
        assert_eq!(read_record(&record).unwrap().game, game);
    }
}

#[test]
fn header_texts_that_would_not_read_back_are_refused() {
    let mut saved = doc_game();
    saved.header.event = Some("Club\tnight".into());
    assert!(matches!(
        saved.to_sheet(),
        Err(WriteError::Text { field: "event", .. })
    ));
    saved.header.event = Some(" Club".into());
    assert!(matches!(saved.to_record(), Err(WriteError::Text { .. })));
    saved.header.event = None;
    saved.header.players.set(Seat::Blue, Some("Dora".into()));
    assert!(matches!(
        saved.to_record(),
        Err(WriteError::SeatNotInVariant { .. })
    ));
}

#[test]
fn rule_options_round_trip() {
    let text = "Ploy score sheet\nVariant\tpartnership\nRules\tuniversity\nRotation\tsingle step\nPartner elimination\tplays on\nBare commander\tremoved\nNo-capture limit\t12\nRound\tGreen\tRed\tYellow\tBlue\n";
    let saved = read_sheet(text).unwrap();
    let rules = saved.game.rules();
    assert_eq!(
        rules,
        Rules::university()
            .with_rotation(ploy_core::Rotation::SingleStep)
            .with_partner_elimination(ploy_core::PartnerElimination::PlaysOn)
            .with_bare_commander(ploy_core::BareCommander::Removed)
            .with_no_capture_limit(Some(12))
    );
    let again = saved.to_sheet().unwrap();
    assert!(again.contains("Repetition draw\tno\nNo-capture limit\t12\nPartner elimination\tplays on\nBare commander\tremoved\n"), "{again}");
    assert_eq!(read_sheet(&again).unwrap(), saved);
}

/// A free-for-all player who resigns while two or more opponents play on is written in his
/// column (`resigns`, `out of time`) and among a record's moves (`red-resigns`), and read
/// back as such.
#[test]
fn a_free_for_all_player_leaving_is_written_and_read() {
    use ploy_core::{Game, Rules, Seat, Variant, WinReason};
    let mut game = Game::start(Variant::FreeForAll, Rules::standard());
    let first = game.legal_moves()[0];
    game.play(first).unwrap();
    game.resign(Seat::Red).unwrap(); // Red to move, leaves; Yellow moves next
    let next = game.legal_moves()[0];
    game.play(next).unwrap();
    game.forfeit_on_time(Seat::Green).unwrap();
    let saved = SavedGame::new(game);
    let sheet = saved.to_sheet().unwrap();
    assert!(sheet.contains("\tresigns\t"), "{sheet}");
    assert!(sheet.contains("out of time"), "{sheet}");
    assert_eq!(read_sheet(&sheet).unwrap(), saved);
    let record = saved.to_record().unwrap().to_string();
    assert!(record.contains("\nred-resigns\n"), "{record}");
    assert!(record.ends_with("\ngreen-out-of-time\n"), "{record}");
    let back = read_record(&record).unwrap();
    assert_eq!(back, saved);
    let left: Vec<_> = back
        .game
        .withdrawals()
        .map(|w| (w.ply, w.seat, w.reason))
        .collect();
    assert_eq!(
        left,
        [
            (1, Seat::Red, WinReason::Resignation),
            (2, Seat::Green, WinReason::TimeForfeit)
        ]
    );
    // Not where it cannot happen: a two-player game ends with a resignation instead.
    let bad = "ploy-record: 1\nvariant: two-player\nmoves:\nred-resigns\n";
    let err = read_record(bad).unwrap_err();
    assert!(
        err.to_string().contains("cannot leave the game here"),
        "{err}"
    );
}
