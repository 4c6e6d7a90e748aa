//! The Pente programs end to end, as child processes: `ploy pente moves` and `ploy pente
//! analyze` (their JSON is a contract other tools drive: every key, every value's spelling,
//! the error object), `ploy pente play` fed scripts, and the Piskvork brain
//! (`pbrain-ploy-pente`).

use crate::pente_common as common;

use common::programs::{json_lines, run};
use pente::{Color, Record};
use serde_json::{Value, json};

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_str().expect("a string").to_owned())
        .collect()
}

#[test]
fn moves_start_and_keys() {
    let out = json_lines("moves", &[], "\n");
    assert_eq!(out.len(), 1);
    let v = &out[0];
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for k in [
        "legal", "to_move", "captures", "outcome", "reason", "plies", "position",
    ] {
        assert!(keys.contains(&k), "{k} missing in {v}");
    }
    assert_eq!(v["legal"], json!(["K10"]));
    assert_eq!(v["to_move"], json!("white"));
    assert_eq!(v["captures"], json!({"white": 0, "black": 0}));
    assert_eq!(v["outcome"], json!("ongoing"));
    assert_eq!(v["reason"], Value::Null);
}

#[test]
fn moves_rule_book_checks() {
    let input = "\nE5 F6\n";
    let on = json_lines("moves", &["--size", "9"], input);
    assert_eq!(on[0]["legal"], json!(["E5"]));
    let legal = strings(&on[1]["legal"]);
    assert_eq!(legal.len(), 56);
    assert!(legal.contains(&"B3".to_owned()) && legal.contains(&"J9".to_owned()));
    assert!(!legal.contains(&"C3".to_owned()) && !legal.contains(&"E7".to_owned()));
    let off = json_lines("moves", &["--size", "9", "--no-tournament-rule"], input);
    assert_eq!(strings(&off[1]["legal"]).len(), 79);
    let seven = json_lines("moves", &["--size", "7"], "\n");
    assert_eq!(seven[0]["legal"], json!(["D4"]));

    let lines = [
        "K10 L10 A1 M10 N10",        // a pair captured
        "K10 L10 A1 M10 A3 N10 O10", // three are not
        "K10 L10 N10 M10",           // no suicide
    ];
    let out = json_lines("moves", &[], &lines.join("\n"));
    assert_eq!(out[0]["captures"], json!({"white": 2, "black": 0}));
    assert!(strings(&out[0]["legal"]).contains(&"L10".to_owned()));
    assert_eq!(out[0]["to_move"], json!("black"));
    assert_eq!(out[1]["captures"], json!({"white": 0, "black": 0}));
    assert_eq!(out[2]["captures"], json!({"white": 0, "black": 0}));
    assert!(!strings(&out[2]["legal"]).contains(&"L10".to_owned()));
}

#[test]
fn moves_game_over_and_errors() {
    // White makes five on row 10 while Black plays on row 1.
    let five = "K10 A1 N10 B1 L10 C1 M10 D1 O10";
    let out = json_lines(
        "moves",
        &[],
        &format!("{five}\n{five} E1\nK10 K10\nK10 Z1\nK10 L11 L12\n"),
    );
    assert_eq!(out[0]["legal"], json!([]));
    assert_eq!(out[0]["to_move"], Value::Null);
    assert_eq!(out[0]["outcome"], json!("white"));
    assert_eq!(out[0]["reason"], json!("five"));
    assert_eq!(out[1], json!({"error": "move 10 (E1): the game is over"}));
    assert_eq!(
        out[2],
        json!({"error": "move 2 (K10): the point is occupied"})
    );
    assert_eq!(out[3].as_object().unwrap().len(), 1);
    assert!(
        out[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("move 2 (Z1): bad column")
    );
    assert_eq!(
        out[4],
        json!({"error": "move 3 (L12): the tournament rule: White's second stone must be at least 3 points from the centre"})
    );
}

#[test]
fn moves_win_by_captures() {
    // Black captures five pairs: White keeps feeding pairs next to Black's stones.
    let (moves, pos) = common::random_game(11, pente::Rules::new(pente::Size::S9), 400);
    let line: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let out = json_lines("moves", &["--size", "9"], &line.join(" "));
    let o = pos.outcome().map_or("ongoing", |o| o.name());
    assert_eq!(out[0]["outcome"], json!(o));
    assert_eq!(
        out[0]["captures"],
        json!({"white": pos.captures(pente::Color::White), "black": pos.captures(pente::Color::Black)})
    );
}

#[test]
fn usage_errors_exit_2() {
    for (name, args) in [
        ("moves", &["--size", "8"][..]),
        ("moves", &["--frobnicate"][..]),
        ("analyze", &["--depth", "2", "--nodes", "5"][..]),
        ("analyze", &["--size", "21"][..]),
    ] {
        let out = run(name, args, "");
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
    for name in ["moves", "analyze"] {
        let out = run(name, &["--help"], "");
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn analyze_answers() {
    let five = "K10 A1 N10 B1 L10 C1 M10 D1";
    let input = format!("{five}\n{five} O10\nK10 K10\n\n");
    let out = json_lines("analyze", &["--depth", "3"], &input);
    let best = out[0]["bestmove"].as_str().unwrap();
    assert!(best == "J10" || best == "O10", "{best}");
    assert_eq!(out[0]["score"], json!("win 1"));
    for k in [
        "bestmove",
        "score",
        "depth",
        "nodes",
        "time_ms",
        "pv",
        "threat_search",
    ] {
        assert!(out[0].get(k).is_some(), "{k} missing in {}", out[0]);
    }
    assert_eq!(
        out[1],
        json!({"bestmove": null, "outcome": "white", "reason": "five"})
    );
    assert_eq!(
        out[2],
        json!({"error": "move 2 (K10): the point is occupied"})
    );
    assert_eq!(out[3]["bestmove"], json!("K10"));
    assert!(out[3]["score"].is_i64());
    assert!(out[3]["depth"].as_u64().unwrap() >= 1);
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("pente-test-{}-{name}", std::process::id()))
}

fn output(name: &str, args: &[&str], input: &str) -> String {
    let out = run(name, args, input);
    assert!(
        out.status.success(),
        "{name} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn play_a_whole_game_between_people_save_and_load() {
    let file = temp("game.txt");
    let file_text = file.to_str().unwrap();
    // Options before the first move, in the 2018 program's spelling; then a game on 9x9
    // with a capture (White's E3 takes C3 D3) and a five for White on row 5.
    let script = [
        "size(9).",
        "flip(false)",
        "E5",
        "C3",
        "A1",
        "D3",
        "B3",
        "A9",
        "E3",
        "undo",
        "E3",
        "C9",
        "D5",
        "E9",
        "F5",
        "G9",
        "rule(true)", // refused: moves were played
        "C5",
        "Z1",
        "E5",
        "J9",
        &format!("save {file_text}"),
        "G5",
        "J5",
        "quit",
    ];
    let out = output(
        "play",
        &["--white", "human", "--black", "human"],
        &script.join("\n"),
    );
    assert!(out.contains("Pente on 19x19"), "{out}");
    assert!(out.contains("Set board_size(9)."));
    assert!(out.contains("Options change the game only before the first move"));
    assert!(out.contains("Captured: White (●) 2, Black (○) 0"));
    assert!(out.contains("Not a move or command"));
    assert!(out.contains("E5: the point is occupied."));
    assert!(out.contains("Game over: white wins (five)."), "{out}");
    assert!(out.contains("J5: the game is over."));
    // The saved record reads back and replays to the position before B5.
    let record: Record = std::fs::read_to_string(&file).unwrap().parse().unwrap();
    assert_eq!(record.rules.size.get(), 9);
    let game = record.replay();
    assert_eq!(game.position().captures(Color::White), 2);
    assert_eq!(game.moves().len(), 14);
    // Loading it in a new session shows the board and lets the game go on.
    let out = output(
        "play",
        &["--white", "human", "--black", "human"],
        &format!("load {file_text}\nG5\nquit\n"),
    );
    assert!(out.contains("Loaded"));
    assert!(out.contains("Game over: white wins (five)."));
    let _ = std::fs::remove_file(&file);
}

#[test]
fn play_against_the_bot_with_flags_and_flip() {
    // The bot (difficulty 1) answers; the board is shown turned for Black.
    let out = output(
        "play",
        &[
            "--size",
            "9",
            "--difficulty",
            "1",
            "--white",
            "bot",
            "--black",
            "human",
            "--flip",
            "--seed",
            "3",
        ],
        "hint\nquit\n",
    );
    assert!(out.contains("White plays E5"), "{out}");
    // Flipped for Black: row 1 at the top, columns from J.
    assert!(out.contains("   J H G F E D C B A"), "{out}");
    assert!(out.contains("Hint: "));
    // Options as arguments in the seed's spelling; bad ones are usage errors.
    let out = run("play", &["size(8)"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = run("play", &["--width", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = output(
        "play",
        &["size(7)", "rule(false)", "--white", "human"],
        "options\nquit\n",
    );
    assert!(out.contains("Board 7x7, tournament rule off"), "{out}");
    assert!(out.contains("bot: full strength"));
}

#[test]
fn piskvork_brain() {
    let out = output(
        "piskvork",
        &[],
        "ABOUT\nSTART 8\nSTART 9\nINFO timeout_turn 300\nBEGIN\nTAKEBACK 4,4\nBEGIN\nFROB\nEND\nSTART 9\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("name=\"pente\""));
    assert!(lines[1].starts_with("ERROR"));
    assert_eq!(lines[2], "OK");
    assert_eq!(lines[3], "4,4");
    assert_eq!(lines[4], "OK");
    assert_eq!(lines[5], "4,4");
    assert!(lines[6].starts_with("UNKNOWN"));
    assert_eq!(lines.len(), 7, "nothing after END: {out}");
    // BOARD: every move in order (the Pente extension); the brain captures.
    let out = output(
        "piskvork",
        &[],
        "START 19\nINFO timeout_turn 300\nBOARD\n9,9,1\n10,9,2\n0,18,1\n11,9,2\nDONE\nEND\n",
    );
    assert_eq!(out, "OK\n12,9\n");
    let out = output(
        "piskvork",
        &[],
        "START 19\nINFO pente_tournament_rule 1\nBOARD\n9,9,2\n10,10,1\n11,11,2\nDONE\nEND\n",
    );
    assert!(out.starts_with("OK\nERROR move 3"), "{out}");
}
