//! Levels 1 to 8 in the Pente and Pyloff programs: `--level N` on `ploy pente
//! play|analyze|match` and `ploy pyloff play|analyze|match`, refused outside 1 to 8 with the
//! level's message; a level's answers replay for the same seed; level 8 answers as full
//! strength; Pente's old `--difficulty D` plays level D + 1.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// Runs `ploy <game> <program> args...` with `input` on standard input.
fn run(game: &str, program: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ploy"))
        .args([game, program])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ploy starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("ploy runs");
    writer.join().expect("the writer");
    out
}

/// The JSON answers of a program that must succeed, without their `time_ms`.
fn answers(game: &str, program: &str, args: &[&str], input: &str) -> Vec<Value> {
    let out = run(game, program, args, input);
    assert!(
        out.status.success(),
        "{game} {program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).expect("JSON");
            if let Some(o) = v.as_object_mut() {
                o.remove("time_ms");
            }
            v
        })
        .collect()
}

#[test]
fn level_flags_outside_1_to_8_are_refused_with_the_reason() {
    let cases: [(&str, &str, &[&str]); 9] = [
        ("pente", "play", &["--level"]),
        ("pente", "analyze", &["--level"]),
        ("pente", "match", &["--openings", "1", "--a"]),
        ("pente", "match", &["--openings", "1", "--b"]),
        ("pyloff", "play", &["--level"]),
        ("pyloff", "analyze", &["--level"]),
        (
            "pyloff",
            "match",
            &["--opponent", "random", "--games", "1", "--level"],
        ),
        (
            "pyloff",
            "match",
            &["--opponent", "level", "--games", "1", "--opponent-level"],
        ),
        ("pente", "analyze", &["--nodes", "100", "--level"]),
    ];
    for (game, program, args) in cases {
        for bad in ["0", "9", "x"] {
            let mut all = args.to_vec();
            all.push(bad);
            let out = run(game, program, &all, "K10\n");
            assert_eq!(out.status.code(), Some(2), "{game} {program} {all:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(&format!(
                    "`{bad}` is not a level: a level is a whole number from 1 to 8"
                )),
                "{game} {program} {all:?}: {err}"
            );
            assert!(
                out.stdout.is_empty(),
                "{game} {program} {all:?}: nothing played"
            );
        }
    }
    // The 2018 option spelling refuses too.
    let out = run("pente", "play", &["level(9)"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected a whole number from 1 to 8"));
}

#[test]
fn pente_analyze_at_a_level_replays_and_level_8_is_full_strength() {
    let input = "K10 L11 N10\nK10 L11 N10 K12 J11\n";
    for level in 1..=8 {
        let l = level.to_string();
        let args = ["--nodes", "4000", "--seed", "9", "--level", &l];
        let first = answers("pente", "analyze", &args, input);
        assert_eq!(first.len(), 2);
        assert_eq!(
            first,
            answers("pente", "analyze", &args, input),
            "level {level}"
        );
    }
    let full = answers("pente", "analyze", &["--depth", "3"], input);
    let eight = answers("pente", "analyze", &["--depth", "3", "--level", "8"], input);
    assert_eq!(full, eight);
}

#[test]
fn pyloff_analyze_at_a_level_replays_and_level_8_is_full_strength() {
    let input = "c3\nc3 d4 b2\n";
    for level in 1..=8 {
        let l = level.to_string();
        let args = ["--nodes", "3000", "--seed", "9", "--level", &l];
        let first = answers("pyloff", "analyze", &args, input);
        assert_eq!(first.len(), 2);
        assert_eq!(
            first,
            answers("pyloff", "analyze", &args, input),
            "level {level}"
        );
    }
    let full = answers("pyloff", "analyze", &["--depth", "3"], input);
    let eight = answers(
        "pyloff",
        "analyze",
        &["--depth", "3", "--level", "8"],
        input,
    );
    assert_eq!(full, eight);
}

#[test]
fn pente_difficulty_plays_the_level_one_above() {
    for (args, want) in [
        (&["--difficulty", "1"][..], "bot: level 2,"),
        (&["--difficulty", "5"][..], "bot: level 6,"),
        (&["difficulty(3)"][..], "bot: level 4,"),
        (&["--level", "1"][..], "bot: level 1,"),
        (&[][..], "bot: full strength,"),
        (
            &["--difficulty", "2", "--depth", "3"][..],
            "bot: depth 3, padding 1, width [3,2],",
        ),
    ] {
        let out = run("pente", "play", args, "options\nquit\n");
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(want), "{args:?}: {text}");
    }
}

#[test]
fn pyloff_play_with_a_level_bot() {
    // A person against the bot at level 1, seeded: the same answer twice.
    let args = [
        "--size",
        "3",
        "--bots",
        "2",
        "--level",
        "1",
        "--seed",
        "4",
        "--movetime",
        "50ms",
    ];
    let a = run("pyloff", "play", &args, "a1\nquit\n");
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let b = run("pyloff", "play", &args, "a1\nquit\n");
    assert_eq!(a.stdout, b.stdout);
}
