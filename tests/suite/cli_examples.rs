//! The examples as child processes: their documented flags and output still answer as
//! before (other tools drive them), and the faults found in them stay fixed: bad arguments
//! end with status 2 and a message (never a panic), `match` prints readable results,
//! `sheet` writes four-player position strings and reads a bounded amount.
//!
//! The examples are the ones `cargo test` built (the tests never run cargo).

use std::io::Write;
use std::process::{Command, Output, Stdio};

use crate::common::example;

/// Runs example `name` with `args` and `input` on standard input.
fn run(name: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(example(name))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let mut stdin = child.stdin.take().expect("piped");
    // The example may stop reading early; a closed pipe is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("the example ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A usage error: status 2, a message on standard error, no panic or backtrace.
fn assert_usage_error(name: &str, args: &[&str]) {
    let out = run(name, args, "");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {err}");
    assert!(!err.contains("panicked"), "{name} {args:?}: {err}");
    assert!(!err.contains("stack backtrace"), "{name} {args:?}: {err}");
    assert!(err.contains("error"), "{name} {args:?}: {err}");
}

/// Fault 11: `bench` and `match` panicked on bad arguments.
#[test]
fn bench_and_match_refuse_bad_arguments_without_panic() {
    assert_usage_error("bench", &["--depth", "x"]);
    assert_usage_error("bench", &["--depth"]);
    assert_usage_error("bench", &["--bogus"]);
    assert_usage_error("bench", &["--overrun", "0", "5"]);
    assert_usage_error("match", &["--games", "x"]);
    assert_usage_error("match", &["--a", "nosuch"]);
    assert_usage_error("match", &["--a", "full@x4"]);
    assert_usage_error("match", &["--bogus"]);
    assert_usage_error("match", &["--seed"]);
}

/// Fault 11: `match --games 0` printed `NaN`.
#[test]
fn match_with_no_games_prints_no_nan() {
    let out = run("match", &["--games", "0"], "");
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(
        !all.contains("NaN") && !all.contains("-inf") && !all.contains("+inf"),
        "{all}"
    );
    assert!(!all.contains("panicked"), "{all}");
    assert_eq!(out.status.code(), Some(2), "{all}");
}

/// Fault 11: `match` printed results as Rust `Debug` text
/// (`Win { winners: {Red}, reason: CommanderCaptured }`, `elo -inf`).
#[test]
fn match_results_are_readable() {
    let out = run(
        "match",
        &[
            "--games",
            "2",
            "--a",
            "random",
            "--b",
            "full@d1",
            "--ply-cap",
            "60",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("game   1 A plays green : "),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("game   2 A plays red   : "),
        "{stdout}"
    );
    for line in &lines[..2] {
        // `(Red wins, commander captured)` or `(ply cap)`, never Debug text.
        assert!(line.ends_with(')'), "{line}");
        assert!(!line.contains('{') && !line.contains("::"), "{line}");
        assert!(
            line.contains("wins, ") || line.contains("draw") || line.contains("(ply cap)"),
            "{line}"
        );
    }
    assert!(stdout.contains("A = random  B = full@d1"), "{stdout}");
    assert!(stdout.contains("games 2 wins "), "{stdout}");
    let elo = lines
        .iter()
        .find(|l| l.starts_with("elo "))
        .expect("an elo line");
    assert!(!elo.contains("inf") && !elo.contains("NaN"), "{elo}");
    assert!(elo.contains("(95 %: "), "{elo}");
}

/// A free-for-all game record with two moves (Green c2-d3, Red turns b8).
const FFA_RECORD: &str = "ploy-record: 1\nvariant: free-for-all\nelimination: strict\n\
rotation: any\nrepetition-draw: yes\nno-capture-limit: 200\nbare-commander: stays\n\
start: standard\ngreen: human\nred: human\nyellow: human\nblue: human\nresult: unfinished\n\
moves:\nc2-d3-0\nb8-b8-1\n";

/// Fault 10: `sheet` said four-player position strings do not exist; it writes them, and
/// they read back as the game's position.
#[test]
fn sheet_writes_four_player_position_strings() {
    let out = run("sheet", &["-"], FFA_RECORD);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let fields: Vec<&str> = stdout.trim_end().split(" ; ").collect();
    assert_eq!(fields.len(), 4, "{stdout}");
    assert_eq!(fields[..2], ["ok", "game record, 2 moves"]);
    assert_eq!(fields[3], "unfinished");
    assert!(fields[2].starts_with("ffa "), "{stdout}");
    // The same position as the moves played from the free-for-all start.
    let moves = run("moves", &[], "ffa | c2-d3-0 b8-b8-1\n");
    let expected = text(&moves.stdout);
    let expected: Vec<&str> = expected.trim_end().split(" ; ").collect();
    assert_eq!(fields[2], expected[1]);
}

/// Fault 6: `sheet /dev/zero` read until memory ran out. It now reads at most 16 MiB and
/// says why it stops. (Run under a 2 GiB address-space limit, so that a regression fails
/// the test instead of eating the machine's memory.)
#[cfg(target_os = "linux")]
#[test]
fn sheet_reads_a_bounded_amount() {
    let bin = example("sheet");
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" /dev/zero")
        .arg(&bin)
        .output()
        .expect("sh runs");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("larger than 16 MiB"), "{err}");
    assert!(out.stdout.is_empty());
}

// The documented flags and output of the examples, as other tools use them.

#[test]
fn perft_answers_as_documented() {
    let out = run("perft", &["start", "2", "--divide"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 146);
    assert_eq!(lines[145], "21025");
    assert!(lines[..145].iter().all(|l| l.ends_with(" 145")), "{stdout}");
    let mut sorted = lines[..145].to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, lines[..145]);
    let out = run("perft", &["start", "2", "--single-step"], "");
    assert_eq!(text(&out.stdout), "3481\n");
    let out = run("perft", &["ffa", "1"], "");
    assert_eq!(text(&out.stdout), "84\n");
    let out = run("perft", &["start"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: "));
    let out = run("perft", &["start 2 b", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: position: "));
}

#[test]
fn moves_answers_as_documented() {
    let out = run(
        "moves",
        &["--draw-rules", "--single-step"],
        "start\r\nnonsense\nstart | e3-e4-0\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let first: Vec<&str> = lines[0].split(" ; ").collect();
    assert_eq!(first[0].split(' ').count(), 59);
    assert!(
        first[1].ends_with(" b") && first[2] == "ongoing",
        "{stdout}"
    );
    assert!(lines[1].starts_with("error: "), "{stdout}");
    assert!(lines[2].split(" ; ").nth(1).unwrap().ends_with(" w"));
    let out = run("moves", &["--algebraic"], "start\n");
    assert!(
        text(&out.stdout).starts_with("b1-a1 b1-1 "),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(run("moves", &["--nonsense"], "").status.code(), Some(2));
}

#[test]
fn analyze_answers_as_documented() {
    for budget in [
        &["--depth", "2"][..],
        &["--nodes", "3000"],
        &["--time", "200"],
    ] {
        let mut args = vec!["start"];
        args.extend_from_slice(budget);
        let out = run("analyze", &args, "");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(lines[0].starts_with("depth 1 score "), "{stdout}");
        assert!(lines.len() >= 2, "{stdout}");
        let best = lines.last().unwrap();
        assert_eq!(best.len(), 7, "{stdout}");
        assert_eq!(best.matches('-').count(), 2, "{stdout}");
    }
    let out = run("analyze", &["ffa", "--depth", "1", "--single-step"], "");
    assert!(out.status.success());
    assert_eq!(
        run("analyze", &["start", "--depth", "x"], "").status.code(),
        Some(2)
    );
    assert_eq!(run("analyze", &[], "").status.code(), Some(2));
}

#[test]
fn play_answers_as_documented() {
    // `--time S` is seconds, `--clock M+I` minutes and seconds: both still accepted.
    let out = run(
        "play",
        &["--time", "1", "--red", "human", "--no-color"],
        "rules\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("repetition draw on"));
    let out = run(
        "play",
        &[
            "--humans",
            "--clock",
            "5+2",
            "--university",
            "--single-step",
        ],
        "rules\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("rotation single-step; repetition draw off"),
        "{stdout}"
    );
    let out = run("play", &["--help"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("--load"));
    assert_eq!(run("play", &["--bogus"], "").status.code(), Some(2));
    assert_eq!(run("play", &["--time", "x"], "").status.code(), Some(2));
}

#[test]
fn bench_answers_as_documented() {
    let out = run("bench", &["--depth", "1", "--verbose"], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 27, "{stdout}");
    assert!(
        lines[0].starts_with("position  0 moves 145 depth 1 score "),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Some(") && !stdout.contains("None"),
        "{stdout}"
    );
    assert!(lines[24].starts_with("nodes "));
    assert!(lines[25].starts_with("nps "));
    assert!(lines[26].starts_with("time ") && lines[26].ends_with(" ms"));
}
