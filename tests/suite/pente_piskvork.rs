//! The Piskvork brain (`pbrain-ploy-pente`) keeps step with a Gomocup manager: a scripted
//! session with bad lines in it, every reply line checked.
//!
//! The expectations come from the protocol's rules, not from the program's output:
//! `START n` → `OK`; `BEGIN` → the brain's move (the first move of Pente is the centre);
//! `BOARD` ... `DONE` → the brain's move, or exactly one `ERROR <reason>` when a line is bad
//! (a field value 3, Gomocup's continuous-game mark, included), the game being left as it
//! was; `TURN x,y` → the brain's move; `TAKEBACK x,y` of the last move → `OK`; `INFO` and
//! `END` → no reply; an unknown command → `UNKNOWN ...`.

use std::io::Write;
use std::process::{Command, Stdio};

use pente::{Move, Point, Position, Rules, Size};

/// Runs the brain on `script` and returns its reply lines (asserting a clean exit).
fn session(script: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-ploy-pente"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the brain starts");
    let mut input = script.join("\n");
    input.push('\n');
    child
        .stdin
        .take()
        .expect("a pipe")
        .write_all(input.as_bytes())
        .expect("the brain reads the script");
    let out = child.wait_with_output().expect("the brain ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The point of a reply `X,Y` on 19x19 (X from the left, Y from the top).
fn point(reply: &str) -> Point {
    let (x, y) = reply
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {reply:?}"));
    let (x, y): (u8, u8) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < 19 && y < 19, "off the board: {reply}");
    Point::new(x, 18 - y).unwrap()
}

#[test]
fn bad_board_lines_get_one_error_each_and_the_session_goes_on() {
    let turn = "5,5";
    let script = [
        "START 19",
        "INFO timeout_turn 300",
        "BEGIN",
        // A field value 3 (a continuous game): one ERROR at DONE, nothing before.
        "BOARD",
        "9,9,1",
        "10,10,3",
        "DONE",
        // A malformed line and a point off the board: one ERROR at DONE.
        "BOARD",
        "9,9,1",
        "frob",
        "11,11,2",
        "30,1,1",
        "DONE",
        // The game is still the one before BOARD: the centre was the last move.
        "TAKEBACK 9,9",
        "INFO time_left 100000",
        // A good BOARD: White (the opponent, field 2) K10, the brain N10, White K13.
        "BOARD",
        "9,9,2",
        "12,9,1",
        "9,6,2",
        "DONE",
        &format!("TURN {turn}"),
        "FROB",
        "END",
    ];
    let replies = session(&script);
    assert_eq!(
        replies.len(),
        8,
        "one reply per command that has one: {replies:?}"
    );
    assert_eq!(replies[0], "OK");
    assert_eq!(replies[1], "9,9", "the first move of Pente is the centre");
    for error in &replies[2..4] {
        assert!(error.starts_with("ERROR "), "{error}");
        assert!(error.len() > "ERROR ".len(), "a reason: {error}");
    }
    assert_eq!(replies[4], "OK");
    // The brain's moves are legal in the game the manager described.
    let rules = Rules::new(Size::S19);
    let mut pos = Position::new(rules);
    for p in [(9, 9), (12, 9), (9, 6)] {
        pos.play(Move(point(&format!("{},{}", p.0, p.1)))).unwrap();
    }
    let board_reply = point(&replies[5]);
    pos.play(Move(board_reply))
        .unwrap_or_else(|e| panic!("the BOARD reply {}: {e}", replies[5]));
    pos.play(Move(point(turn))).unwrap();
    pos.play(Move(point(&replies[6])))
        .unwrap_or_else(|e| panic!("the TURN reply {}: {e}", replies[6]));
    assert!(replies[7].starts_with("UNKNOWN"), "{}", replies[7]);
}

#[test]
fn ploy_pente_piskvork_is_the_same_brain() {
    let script = "START 9\nBEGIN\nBOARD\n4,4,1\n4,4,3\nDONE\nABOUT\nEND\n";
    let run = |mut c: Command| {
        let mut child = c
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let brain = run(Command::new(env!("CARGO_BIN_EXE_pbrain-ploy-pente")));
    let mut ploy = Command::new(env!("CARGO_BIN_EXE_ploy"));
    ploy.args(["pente", "piskvork"]);
    let ploy = run(ploy);
    assert!(brain.status.success() && ploy.status.success());
    assert_eq!(brain.stdout, ploy.stdout);
    let text = String::from_utf8(brain.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(&lines[..2], ["OK", "4,4"]);
    assert!(lines[2].starts_with("ERROR "));
    assert!(lines[3].starts_with("name="));
}
