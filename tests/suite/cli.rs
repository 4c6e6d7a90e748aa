//! The `ploy` binary as a child process: help and version everywhere, usage errors with
//! status 2 and no panic, `--json` objects with the pinned perft counts, closed pipes,
//! durations and rule flags.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const PLOY: &str = env!("CARGO_BIN_EXE_ploy");

const SUBCOMMANDS: [&str; 8] = [
    "play", "analyze", "engine", "perft", "moves", "match", "bench", "sheet",
];

fn ploy(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(PLOY)
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ploy starts");
    let mut stdin = child.stdin.take().expect("piped");
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("ploy ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `ploy args`, expects success and one JSON object as the whole standard output.
fn json(args: &[&str]) -> Value {
    let out = ploy(args, "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let value: Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert!(value.is_object(), "{stdout}");
    value
}

fn assert_no_panic(what: &str, out: &Output) {
    let err = text(&out.stderr);
    assert!(!err.contains("panicked"), "{what}: {err}");
    assert!(!err.contains("stack backtrace"), "{what}: {err}");
}

#[test]
fn help_and_version_everywhere() {
    let version = format!("ploy {}\n", env!("CARGO_PKG_VERSION"));
    for flag in ["--help", "-h"] {
        let out = ploy(&[flag], "");
        assert!(out.status.success());
        let help = text(&out.stdout);
        for sub in SUBCOMMANDS {
            assert!(help.contains(&format!("  {sub} ")), "{help}");
        }
    }
    for flag in ["--version", "-V"] {
        let out = ploy(&[flag], "");
        assert!(out.status.success());
        assert_eq!(text(&out.stdout), version);
    }
    for sub in SUBCOMMANDS {
        let out = ploy(&[sub, "--help"], "");
        assert!(out.status.success(), "{sub}");
        assert!(
            text(&out.stdout).contains(&format!("Usage: ploy {sub}")),
            "{sub}"
        );
        let out = ploy(&["help", sub], "");
        assert!(out.status.success(), "{sub}");
        let out = ploy(&[sub, "--version"], "");
        assert!(out.status.success(), "{sub}");
        assert!(text(&out.stdout).starts_with("ploy"), "{sub}");
    }
    // The rule flags are the same wherever positions are read or played.
    for sub in ["play", "analyze", "perft", "moves", "match"] {
        let help = text(&ploy(&[sub, "--help"], "").stdout);
        for flag in [
            "--university",
            "--standard",
            "--relaxed",
            "--single-step",
            "--no-repetition",
            "--no-capture-limit",
            "--plays-on",
            "--bare-commander-removed",
        ] {
            assert!(help.contains(flag), "{sub} {flag}");
        }
    }
}

#[test]
fn usage_errors_exit_2_without_panic() {
    let cases: &[&[&str]] = &[
        &[],
        &["frobnicate"],
        &["--bogus"],
        &["perft"],
        &["perft", "start"],
        &["perft", "start", "two"],
        &["perft", "start", "-1"],
        &["perft", "start", "1", "--bogus"],
        &["perft", "nonsense", "1"],
        &["perft", "start", "1", "--university", "--standard"],
        &["perft", "start", "1", "--no-capture-limit", "x"],
        &["analyze"],
        &["analyze", "start", "--time", "2 parsecs"],
        &["analyze", "start", "--depth", "0"],
        &["analyze", "start w", "--depth", "1"],
        &["analyze", "start", "--threads", "0"],
        &["analyze", "start", "--threads", "257"],
        &["engine", "--threads", "0"],
        &["bench", "--threads", "x"],
        &["moves", "--bogus"],
        &["match", "--games", "x"],
        &["match", "--games", "-3"],
        &["match", "--a", "nosuch"],
        &["match", "--b", "full@"],
        &["match", "--time", "fast"],
        &["match", "--depth", "2", "--nodes", "5"],
        &["bench", "--depth", "x"],
        &["bench", "--overrun", "5"],
        &["bench", "--overrun", "x", "5"],
        &["bench", "--overrun", "5", "soon"],
        &["bench", "--set", "table_eval"],
        &["bench", "--set", "no_such_option=1"],
        &["bench", "--set", "null_move=maybe"],
        &["sheet"],
        &["sheet", "--to-sheet", "--to-record", "-"],
        &["play", "--time", "x"],
        &["play", "--move-time", "0s"],
        &["play", "--clock", "5m+"],
        &["play", "--variant", "three"],
        &["play", "--hash", "5000"],
        &["play", "--depth", "3", "--nodes", "5"],
        &["play", "--level", "0"],
        &["play", "--level", "9"],
        &["play", "--level", "x"],
        &["analyze", "start", "--level", "0"],
        &["analyze", "start", "--level", "9"],
        &["analyze", "start", "--level", "x"],
        &["match", "--a", "full@l0"],
        &["match", "--a", "full@l9"],
        &["match", "--b", "greedy@l3"],
        &["engine", "--bogus"],
    ];
    for args in cases {
        let out = ploy(args, "");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert_no_panic(&format!("{args:?}"), &out);
        let err = text(&out.stderr);
        // Either clap's message or ploy's own `error: ...`; the bare `ploy` shows the help.
        assert!(
            err.contains("error") || (args.is_empty() && err.contains("Usage")),
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn match_with_no_games_is_a_usage_error() {
    let out = ploy(&["match", "--games", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(!all.contains("NaN") && !all.contains("+inf") && !all.contains("-inf"));
    assert!(all.contains("--games"), "{all}");
}

/// The perft data files of ploy-core: `(id, position, rule flags, depth, count)`.
fn pinned_counts() -> Vec<(String, String, Vec<String>, u32, u64)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/ploy-core/tests/data");
    let mut out = Vec::new();
    for file in ["start.perft", "four_player.perft"] {
        let data = std::fs::read_to_string(format!("{dir}/{file}")).expect("perft data");
        let (mut id, mut setup, mut flags) = (String::new(), String::new(), Vec::new());
        for line in data.lines() {
            let Some((key, rest)) = line.split_once(' ') else {
                continue;
            };
            match key {
                "id" => {
                    id = rest.to_owned();
                    flags.clear();
                }
                "setup" => setup = rest.to_owned(),
                "rules" => {
                    flags = rest
                        .split(' ')
                        .filter_map(|w| match w {
                            "strict" | "any" | "absorbed" | "bare-commander-stays" => None,
                            "single-step" | "relaxed" | "plays-on" | "bare-commander-removed" => {
                                Some(format!("--{w}"))
                            }
                            other => panic!("unknown rule word {other}"),
                        })
                        .collect();
                }
                "perft" => {
                    let (d, n) = rest.split_once(' ').expect("perft D N");
                    out.push((
                        id.clone(),
                        setup.clone(),
                        flags.clone(),
                        d.parse().unwrap(),
                        n.parse().unwrap(),
                    ));
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn perft_json_gives_the_pinned_counts_under_the_rule_flags() {
    let cases = pinned_counts();
    assert!(cases.iter().any(|c| c.0 == "start-single-step"));
    let mut checked = 0;
    for (id, setup, flags, depth, count) in cases {
        // Small counts only: the test profile is not optimised.
        if count > 100_000 {
            continue;
        }
        let depth_text = depth.to_string();
        let mut args = vec!["perft", setup.as_str(), depth_text.as_str(), "--json"];
        args.extend(flags.iter().map(String::as_str));
        let v = json(&args);
        assert_eq!(v["nodes"], count, "{id} depth {depth}: {v}");
        assert_eq!(v["depth"], depth);
        assert!(v["seconds"].as_f64().unwrap() >= 0.0);
        assert!(v["nps"].as_u64().is_some(), "{v}");
        assert!(v["position"].is_string());
        assert!(v.get("divide").is_none());
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");

    // The start position, with the divide: 145 moves of 145 each.
    let v = json(&["perft", "start", "2", "--json", "--divide"]);
    assert_eq!(v["nodes"], 21025);
    let divide = v["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 145);
    assert!(divide.values().all(|n| n == 145));
    assert_eq!(divide["e3-e4-0"], 145);
    // The position comes back as a position string that reads as the same position.
    let pos = v["position"].as_str().unwrap();
    assert_eq!(json(&["perft", pos, "1", "--json"])["nodes"], 145);
    // Single step from the start: the pinned 59 and 3481 (standard or university alike).
    assert_eq!(
        json(&["perft", "start", "2", "--single-step", "--json"])["nodes"],
        3481
    );
    assert_eq!(
        json(&[
            "perft",
            "start",
            "1",
            "--single-step",
            "--standard",
            "--json"
        ])["nodes"],
        59
    );
}

#[test]
fn bench_json() {
    let v = json(&["bench", "--depth", "1", "--json"]);
    for key in ["depth", "signature", "nodes", "seconds", "nps"] {
        assert!(v.get(key).is_some(), "{key}: {v}");
    }
    assert_eq!(v["depth"], 1);
    assert_eq!(v["signature"], v["nodes"]);
    // At least one node per position; the same signature on every run.
    assert!(v["nodes"].as_u64().unwrap() >= 24);
    assert_eq!(
        json(&["bench", "--depth", "1", "--json"])["signature"],
        v["signature"]
    );
    // The text output counts the same.
    let out = ploy(&["bench", "--depth", "1"], "");
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with(&format!("nodes {}\n", v["nodes"])),
        "{stdout}"
    );

    // With two threads: the same depth, a `threads` key; the counts sum both threads'.
    let v2 = json(&["bench", "--depth", "2", "--threads", "2", "--json"]);
    assert_eq!(
        (v2["depth"].as_u64(), v2["threads"].as_u64()),
        (Some(2), Some(2))
    );
    assert!(v2["nodes"].as_u64().unwrap() >= 24);
    let out = ploy(&["bench", "--depth", "1", "--threads", "2"], "");
    assert!(text(&out.stdout).starts_with("threads 2\nnodes "));

    // `--set` takes a search option by name: the exact search (every selective switch
    // off) visits more nodes than the default one at the same depth.
    let exact = json(&[
        "bench",
        "--depth",
        "3",
        "--set",
        "late_move_reductions=off",
        "--set",
        "null_move=off",
        "--set",
        "reverse_futility=off",
        "--set",
        "check_extension=off",
        "--set",
        "internal_reductions=off",
        "--json",
    ]);
    let default = json(&["bench", "--depth", "3", "--json"]);
    assert!(
        exact["nodes"].as_u64() > default["nodes"].as_u64(),
        "{exact} {default}"
    );

    let v = json(&["bench", "--overrun", "2", "20ms", "--json"]);
    assert_eq!(v["searches"], 2);
    assert_eq!(v["limit_ms"], 20.0);
}

#[test]
fn match_json() {
    let v = json(&[
        "match",
        "--games",
        "3",
        "--a",
        "full@d1",
        "--b",
        "random",
        "--ply-cap",
        "60",
        "--json",
    ]);
    for key in [
        "games", "wins", "draws", "losses", "score", "elo", "elo_low", "elo_high",
    ] {
        assert!(v.get(key).is_some(), "{key}: {v}");
    }
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(n("games"), 3);
    assert_eq!(n("wins") + n("draws") + n("losses"), 3);
    let score = v["score"].as_f64().unwrap();
    assert!(
        (score - (n("wins") as f64 + 0.5 * n("draws") as f64) / 3.0).abs() < 1e-9,
        "{v}"
    );
    let (elo, low, high) = (
        v["elo"].as_f64().unwrap(),
        v["elo_low"].as_f64().unwrap(),
        v["elo_high"].as_f64().unwrap(),
    );
    assert!(low <= elo && elo <= high, "{v}");
    assert_eq!(v["a"], "full@d1");

    // A perfect score keeps every figure finite (JSON has no infinity: it would be null).
    let v = json(&[
        "match",
        "--games",
        "2",
        "--a",
        "full@d2",
        "--b",
        "random",
        "--ply-cap",
        "200",
        "--json",
    ]);
    if v["wins"] == 2 {
        assert!(
            v["elo"].is_f64() && v["elo_low"].is_f64() && v["elo_high"].is_f64(),
            "{v}"
        );
        assert!(v["elo_low"].as_f64() < v["elo"].as_f64(), "{v}");
    }
}

/// `ploy perft start 3 --divide | head -1`: the reader goes away; no panic, status 0.
#[test]
fn closed_pipes_end_quietly() {
    for args in [
        &["perft", "start", "3", "--divide"][..],
        &["analyze", "start", "--depth", "30"],
        &["bench", "--depth", "1", "--verbose"],
        &["match", "--games", "4", "--a", "random", "--b", "random"],
    ] {
        let mut child = Command::new(PLOY)
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ploy starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("a first line");
        assert!(!first.is_empty(), "{args:?}");
        drop(stdout);
        let status = child.wait().expect("ploy ends");
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
    }

    // `yes start | ploy moves | head -1`: endless input, the reader leaves after a line.
    let mut child = Command::new(PLOY)
        .arg("moves")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ploy starts");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        // Writes until ploy is gone (then the write fails).
        while stdin.write_all(b"start\n").is_ok() {}
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("b1-a1-0 "), "{first}");
    drop(stdout);
    let status = child.wait().unwrap();
    feeder.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.is_empty(), "{err}");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn durations_have_units() {
    // analyze: a bare number is milliseconds; units are read.
    for time in ["150", "150ms", "0.15s"] {
        let out = ploy(&["analyze", "start", "--time", time], "");
        assert!(out.status.success(), "{time}: {}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with("depth 1 "), "{time}");
    }
    // match: per-move time as a duration, and in a player spec.
    let out = ploy(
        &[
            "match",
            "--games",
            "1",
            "--time",
            "5ms",
            "--a",
            "full@t10ms",
            "--b",
            "random",
            "--ply-cap",
            "6",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // play: --move-time with units, --clock as time + increment, and the old spellings.
    for args in [
        &["--move-time", "1s"][..],
        &["--move-time", "750"],
        &["--clock", "5m+2s"],
        &["--clock", "90s"],
        &["--time", "2"],
        &["--clock", "5+2"],
    ] {
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        let out = ploy(&all, "quit\n");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
    let out = ploy(&["play", "--clock", "5m+2s", "--humans"], "quit\n");
    assert!(out.status.success());
}

#[test]
fn rule_flags_reach_the_rules() {
    // moves: the university rules by default; --standard (alias --draw-rules) plays the
    // moves as a game, so a threefold repetition draws and leaves no moves.
    let shuffle = "start | e3-e3-1 e7-e7-1 e3-e3-7 e7-e7-7 e3-e3-1 e7-e7-1 e3-e3-7 e7-e7-7\n";
    let university = text(&ploy(&["moves"], shuffle).stdout);
    assert!(
        university.trim_end().ends_with(" ; ongoing"),
        "{university}"
    );
    for flag in ["--standard", "--draw-rules"] {
        let standard = text(&ploy(&["moves", flag], shuffle).stdout);
        assert!(
            standard.trim_end().ends_with(" ; draw"),
            "{flag}: {standard}"
        );
        let no_rep = text(&ploy(&["moves", flag, "--no-repetition"], shuffle).stdout);
        assert!(
            no_rep.trim_end().ends_with(" ; ongoing"),
            "{flag}: {no_rep}"
        );
    }
    // play: the rules line shows them.
    let out = ploy(
        &[
            "play",
            "--humans",
            "--university",
            "--no-capture-limit",
            "50",
            "--relaxed",
        ],
        "rules\nquit\n",
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "elimination relaxed; rotation any; repetition draw off; no-capture limit 50 plies"
        ),
        "{stdout}"
    );
    // analyze and match take them too.
    let out = ploy(&["analyze", "start", "--depth", "1", "--single-step"], "");
    assert!(out.status.success());
    let best = text(&out.stdout);
    let best = best.lines().last().unwrap();
    // A single-step turn is at most one step either way: rotation 0, 1 or 7.
    assert!(
        best.ends_with("-0") || best.ends_with("-1") || best.ends_with("-7"),
        "{best}"
    );
    let out = ploy(
        &[
            "match",
            "--games",
            "1",
            "--depth",
            "1",
            "--single-step",
            "--ply-cap",
            "4",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn progress_stays_off_a_pipe() {
    // Standard error is a pipe here: no progress bar, nothing at all on a success.
    for args in [
        &["perft", "start", "2"][..],
        &["bench", "--depth", "1"],
        &["match", "--games", "2", "--a", "random", "--b", "random"],
    ] {
        let out = ploy(args, "");
        assert!(out.status.success(), "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn sheet_checks_and_converts() {
    let record = "ploy-record: 1\nvariant: two-player\nelimination: strict\nrotation: any\n\
repetition-draw: yes\nno-capture-limit: 200\nstart: standard\ngreen: human\nred: engine\n\
result: unfinished\nmoves:\ne3-e4-0\n";
    let out = ploy(&["sheet", "-"], record);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.starts_with("ok ; game record, 1 moves ; "),
        "{stdout}"
    );
    assert!(stdout.ends_with(" w ; unfinished\n"), "{stdout}");
    let sheet = ploy(&["sheet", "--to-sheet", "-"], record);
    assert!(sheet.status.success());
    let back = ploy(&["sheet", "--to-record", "-"], &text(&sheet.stdout));
    assert!(back.status.success());
    assert!(text(&back.stdout).contains("e3-e4-0"));
    let bad = ploy(&["sheet", "-"], "ploy-record: 1\nmoves:\nz9-z9-9\n");
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).starts_with("error: "));
    let missing = ploy(&["sheet", "/nonexistent/file.plg"], "");
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn engine_runs_the_protocol() {
    let out = ploy(&["engine"], "uci\nisready\nquit\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("uciok"), "{stdout}");
    assert!(stdout.contains("readyok"), "{stdout}");
}

#[test]
fn analyze_with_two_threads() {
    // Iterations 1 to 4 as with one thread, then a legal move.
    let out = ploy(&["analyze", "start", "--depth", "4", "--threads", "2"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    for (i, line) in lines[..4].iter().enumerate() {
        assert!(
            line.starts_with(&format!("depth {} score ", i + 1)),
            "{stdout}"
        );
    }
    let start = ploy::core::Position::new();
    let best = ploy::notation::read_university(&start, lines[4]).expect("a move");
    assert!(start.is_legal(best), "{stdout}");
}

#[test]
fn engine_plays_pente_and_pyloff() {
    let out = ploy(
        &["engine"],
        "setoption name Game value pente\nsetoption name Size value 9\n\
         position startpos moves E5 F6\ngo depth 2\nsetoption name Game value pyloff\n\
         setoption name Size value 3\nposition startpos moves a3 a1 e3 c3 c1 a5 c5\n\
         go depth 2\nquit\n",
    );
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let best: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 2, "{stdout}");
    let pente = pente::Position::from_moves(
        pente::Rules::new(pente::Size::S9),
        &["E5".parse().unwrap(), "F6".parse().unwrap()],
    )
    .unwrap();
    assert!(pente.is_legal(best[0].parse().unwrap()), "{stdout}");
    assert_eq!(best[1], "pass", "{stdout}");
}

/// `analyze --help` describes the lines `analyze` writes: the same words in the same order
/// (`depth D score S view V share P nodes N ...`), so that a reader of the help can parse
/// them.
#[test]
fn analyze_help_describes_its_lines() {
    let help = text(&ploy(&["analyze", "--help"], "").stdout);
    for position in ["start", "ffa", "partnership"] {
        let out = ploy(&["analyze", position, "--depth", "2"], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let line = stdout.lines().next().expect("an iteration line");
        // The words of the line (every other token, up to the moves of the `pv`).
        let words: Vec<&str> = line
            .split(' ')
            .step_by(2)
            .take_while(|w| *w != "pv")
            .collect();
        let mut described = String::new();
        for (word, placeholder) in words.iter().zip(["D", "S", "V", "P", "N", "R", "MS"]) {
            described.push_str(&format!("{word} {placeholder} "));
        }
        described.push_str("pv M1 M2 ...");
        assert!(
            words.len() == 7 && help.replace('\n', " ").contains(&described),
            "{line}\n{described}\n{help}"
        );
    }
}

/// `--level`: refused outside 1 to 8 with the level's message; `analyze --level 3`
/// searches no deeper than level 3's two plies and ends with a legal move, the same each
/// run; `match` plays levels and the greedy player.
#[test]
fn levels_in_analyze_and_match() {
    for (args, what) in [
        (
            &["analyze", "start", "--level", "9"][..],
            "`9` is not a level",
        ),
        (&["analyze", "start", "--level", "x"], "`x` is not a level"),
        (&["play", "--level", "0"], "`0` is not a level"),
        (&["match", "--a", "full@l9"], "a level override is lN"),
    ] {
        let out = ploy(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(what), "{args:?}: {err}");
    }
    let run = || {
        let out = ploy(&["analyze", "start", "--depth", "5", "--level", "3"], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let first = run();
    let lines: Vec<&str> = first.lines().collect();
    let (best, iterations) = lines.split_last().expect("lines");
    assert!(!iterations.is_empty(), "{first}");
    for line in iterations {
        let depth: u32 = line
            .strip_prefix("depth ")
            .and_then(|r| r.split(' ').next())
            .and_then(|d| d.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!(depth <= 2, "{first}");
    }
    let pos = ploy::core::Position::start(
        ploy::core::Variant::TwoPlayer,
        ploy::core::Rules::standard(),
    );
    let mv = ploy::notation::read_university(&pos, best).expect("a move");
    assert!(pos.is_legal(mv));
    // The same lines (but for the speed and time) and the same move again.
    let depths_and_lines = |text: &str| -> Vec<String> {
        text.lines()
            .map(
                |l| match (l.split(" nps ").next(), l.split(" pv ").nth(1)) {
                    (Some(head), Some(pv)) => format!("{head} pv {pv}"),
                    _ => l.to_owned(),
                },
            )
            .collect()
    };
    assert_eq!(depths_and_lines(&run()), depths_and_lines(&first));

    let v = json(&[
        "match", "--a", "full@l2", "--b", "greedy", "--games", "4", "--nodes", "2000", "--json",
    ]);
    assert_eq!(v["games"], 4);
    assert_eq!(v["a"], "full@l2");
    assert_eq!(v["b"], "greedy");
}

/// `analyze --search KIND` chooses the search of a free-for-all position: the default
/// (Best-Reply Search on the two-sided searcher) and the paranoid search write a line per
/// depth, scored for the mover against all three together; the plain BRS one line with the
/// mover's own score; each ends with a legal move. A name that is no search is refused.
#[test]
fn analyze_chooses_the_free_for_all_search() {
    let ffa = ploy::core::Position::start(
        ploy::core::Variant::FreeForAll,
        ploy::core::Rules::standard(),
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["analyze", "ffa", "--nodes", "3000"];
        args.extend_from_slice(extra);
        let out = ploy(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        // Each line without its speed and time, which vary.
        let lines: Vec<String> = stdout
            .lines()
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                w.iter()
                    .enumerate()
                    .filter(|&(i, _)| i == 0 || !["nps", "time"].contains(&w[i - 1]))
                    .map(|(_, x)| *x)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let best = ploy::notation::read_university(&ffa, lines.last().unwrap()).expect("a move");
        assert!(ffa.is_legal(best), "{stdout}");
        lines
    };
    let score = |line: &str| -> i32 { line.split(' ').nth(3).unwrap().parse().unwrap() };
    // The default (Best-Reply Search on the two-sided searcher) and the paranoid search:
    // a line per depth, the mover against all three together.
    for two_sided in [run(&[]), run(&["--search", "paranoid"])] {
        assert!(two_sided.len() >= 3, "{two_sided:?}");
        assert!(score(&two_sided[0]) < -1000, "{two_sided:?}");
    }
    let brs = run(&["--search", "brs"]);
    assert_eq!(brs.len(), 2, "{brs:?}");
    assert!(score(&brs[0]).abs() < 500, "{brs:?}");
    let out = ploy(&["analyze", "ffa", "--search", "minimax"], "");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("paranoid, brs, brs+ or mcts"),
        "{}",
        text(&out.stderr)
    );
}
