//! The `play` and `piskvork` examples end to end, as child processes fed scripts on their
//! standard input.

mod common;

use common::examples::run;
use pente::{Color, Record};

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
