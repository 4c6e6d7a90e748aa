//! The answers recorded from the former per-game examples (`cargo run -p pente --example
//! moves`, ...) before they became `ploy pente ...` and `ploy pyloff ...`: the new
//! subcommands must answer exactly the same. The recordings are in `tests/data/`:
//!
//! - `pente_moves_size9.in` / `.out`: `moves --size 9` of Pente, every line;
//! - `pyloff_moves_size4_players3.in` / `.out`: `moves --size 4 --players 3` of Pyloff;
//! - `pente_analyze.jsonl`: for 10 positions on 19x19 (tournament rule), the game, the
//!   `--depth` given, and the answer's `bestmove`, `score`, `depth` and `nodes`;
//! - `pyloff_bench_*.txt`: `bench` outputs, whose node counts (and best moves and scores)
//!   are the search's signature; the times and speeds are left out of the comparison.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

fn read(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs `ploy <args>` with `input` on standard input; its standard output.
fn ploy(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ploy"))
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
    let out = child.wait_with_output().expect("ploy ends");
    writer.join().expect("the writer");
    assert!(
        out.status.success(),
        "ploy {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn pente_moves_answers_the_recorded_lines() {
    let input = read("pente_moves_size9.in");
    let expected = read("pente_moves_size9.out");
    let got = ploy(&["pente", "moves", "--size", "9"], &input);
    assert_eq!(got.lines().count(), input.lines().count());
    for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, e, "line {}", i + 1);
    }
    assert_eq!(got, expected);
}

#[test]
fn pyloff_moves_answers_the_recorded_lines() {
    let input = read("pyloff_moves_size4_players3.in");
    let expected = read("pyloff_moves_size4_players3.out");
    let got = ploy(
        &["pyloff", "moves", "--size", "4", "--players", "3"],
        &input,
    );
    for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
        assert_eq!(g, e, "line {}", i + 1);
    }
    assert_eq!(got, expected);
}

#[test]
fn pente_analyze_finds_the_recorded_moves_with_the_recorded_nodes() {
    let recorded = read("pente_analyze.jsonl");
    let mut n = 0;
    for line in recorded.lines() {
        let rec: Value = serde_json::from_str(line).expect("a JSON line");
        let game = rec["game"].as_str().expect("the game");
        let depth = rec["depth_flag"].as_u64().expect("the --depth").to_string();
        let out = ploy(
            &["pente", "analyze", "--depth", &depth],
            &format!("{game}\n"),
        );
        let answer: Value = serde_json::from_str(out.trim()).expect("a JSON answer");
        for key in ["bestmove", "score", "depth", "nodes"] {
            assert_eq!(answer[key], rec[key], "{key} of {game:?} at depth {depth}");
        }
        n += 1;
    }
    assert_eq!(n, 10);
}

/// A `bench` output without its times and speeds: the word before `knps` and before `s,`
/// becomes `_`, and the columns' padding (which the speeds' widths change) one space.
fn without_times(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let kept: Vec<&str> = words
                .iter()
                .enumerate()
                .map(|(i, &w)| match words.get(i + 1) {
                    Some(&"knps" | &"s,") => "_",
                    _ => w,
                })
                .collect();
            kept.join(" ")
        })
        .collect()
}

#[test]
fn pyloff_bench_counts_the_recorded_nodes() {
    for (file, args) in [
        ("pyloff_bench_depth4.txt", &[][..]),
        ("pyloff_bench_depth8.txt", &["--depth", "8"][..]),
        (
            "pyloff_bench_depth6_size5_players3.txt",
            &["--depth", "6", "--size", "5", "--players", "3"][..],
        ),
        (
            "pyloff_bench_game_nodes200_size5.txt",
            &["--game-nodes", "200", "--size", "5"][..],
        ),
    ] {
        let expected = without_times(&read(file));
        let mut full = vec!["pyloff", "bench"];
        full.extend_from_slice(args);
        let got = without_times(&ploy(&full, ""));
        assert!(expected.last().unwrap().starts_with("total "), "{file}");
        assert_eq!(got, expected, "{file}");
    }
}
