//! `ploy match` with engine programs as players: this build's `engine` example driven over
//! the engine protocol, game records in a directory, openings files, parallel games, and
//! engine programs that misbehave (small shell scripts standing in for a broken build: one
//! that crashes, one that never answers, one that plays an illegal move, one that greets
//! the old way, before `uci`).
//!
//! It runs the example `cargo test` built (the tests never run cargo).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const PLOY: &str = env!("CARGO_BIN_EXE_ploy");

/// The `engine` example's path, as `ploy match` takes it.
fn engine() -> String {
    crate::common::example("engine").display().to_string()
}

pub(crate) fn ploy(args: &[&str]) -> Output {
    Command::new(PLOY)
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .output()
        .expect("ploy runs")
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `ploy match ... --json`, expects success, gives the object.
pub(crate) fn json(args: &[&str]) -> Value {
    let mut all = vec!["match", "--json"];
    all.extend_from_slice(args);
    let out = ploy(&all);
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match_engines_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_engine_example_plays_over_the_protocol_and_every_game_is_recorded() {
    let dir = scratch("records");
    let records = dir.join("records");
    let engine = format!("engine:{}", engine());
    let v = json(&[
        "--a",
        &engine,
        "--b",
        "full",
        "--depth",
        "2",
        "--games",
        "4",
        "--ply-cap",
        "30",
        "--no-capture-limit",
        "0",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(v["games"], 4, "{v}");
    assert_eq!(v["forfeits"], serde_json::json!([0, 0]), "{v}");
    for n in 1..=4 {
        let path = records.join(format!("game-00{n}.plg"));
        let record = std::fs::read_to_string(&path).unwrap();
        // The record reads back, and says who played, the opening and the result.
        let out = Command::new(PLOY)
            .args(["sheet", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{record}{}", text(&out.stderr));
        let (a_seat, b_seat) = if n % 2 == 1 {
            ("green", "red")
        } else {
            ("red", "green")
        };
        assert!(
            record.contains(&format!("\n{a_seat}: {engine}\n")),
            "{record}"
        );
        assert!(record.contains(&format!("\n{b_seat}: full\n")), "{record}");
        assert!(record.contains("\nno-capture-limit: none\n"), "{record}");
        assert!(record.contains("\n# opening of pair "), "{record}");
        assert!(record.contains("\n# match result: "), "{record}");
        assert!(record.contains("\ntime-control: depth 2\n"), "{record}");
    }
    // No temporary files are left behind.
    assert_eq!(std::fs::read_dir(&records).unwrap().count(), 4);
    // The engine program at depth 2 plays as the search does in this process at depth 2:
    // the same games, so every pair is split evenly.
    assert_eq!(v["wins"], v["losses"], "{v}");
}

#[test]
fn parallel_games_give_the_same_result() {
    let engine = format!("engine:{}", engine());
    let args = |jobs: &'static str| {
        vec![
            "--a".to_owned(),
            engine.clone(),
            "--b".to_owned(),
            "nolmr@d1".to_owned(),
            "--depth".to_owned(),
            "2".to_owned(),
            "--games".to_owned(),
            "6".to_owned(),
            "--ply-cap".to_owned(),
            "40".to_owned(),
            "-j".to_owned(),
            jobs.to_owned(),
        ]
    };
    let run = |jobs| {
        let a = args(jobs);
        json(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one, two);
    // The text output lists the games in order too.
    let a = args("3");
    let mut all = vec!["match"];
    all.extend(a.iter().map(String::as_str));
    let out = ploy(&all);
    let lines: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(str::to_owned)
        .collect();
    assert_eq!(lines.len(), 6);
    for (i, l) in lines.iter().enumerate() {
        assert!(l.starts_with(&format!("game {:3} ", i + 1)), "{l}");
    }
}

#[test]
fn an_openings_file_gives_each_opening_both_colours() {
    let dir = scratch("openings");
    let file = dir.join("openings.txt");
    std::fs::write(&file, "# two openings\nstart | e3-e4-0 e7-e6-0\nc2-c4-0\n").unwrap();
    let records = dir.join("sheets");
    let out = ploy(&[
        "match",
        "--openings",
        file.to_str().unwrap(),
        "--a",
        "full@d1",
        "--b",
        "random",
        "--games",
        "4",
        "--ply-cap",
        "10",
        "--sheets",
        records.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for (n, first) in [(1, "e3-e4"), (2, "e3-e4"), (3, "c2-c4"), (4, "c2-c4")] {
        let sheet = std::fs::read_to_string(records.join(format!("game-00{n}.txt"))).unwrap();
        assert!(sheet.contains(&format!("\n1\t{first}\t")), "{sheet}");
        assert!(sheet.starts_with("Ploy score sheet\n"), "{sheet}");
    }
    // A bad line is a usage error that names it.
    std::fs::write(&file, "start\nstart | e3-e9-0\n").unwrap();
    let out = ploy(&["match", "--openings", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 2: move 1 `e3-e9-0`"),
        "{}",
        text(&out.stderr)
    );
    let out = ploy(&["match", "--openings", "/nonexistent/openings.txt"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_sprt_stops_the_match_and_reports_its_ratio() {
    let v = json(&[
        "--a",
        "full@d1",
        "--b",
        "random",
        "--sprt",
        "0,300",
        "--alpha",
        "0.2",
        "--beta",
        "0.2",
        "--games",
        "40",
        "--ply-cap",
        "60",
    ]);
    assert_eq!(v["sprt"], "H1", "{v}");
    let (llr, upper) = (
        v["llr"].as_f64().unwrap(),
        v["upper_bound"].as_f64().unwrap(),
    );
    // ln((1 - beta) / alpha) = ln 4, and the lower bound ln(beta / (1 - alpha)) = -ln 4.
    assert!((upper - 4f64.ln()).abs() < 1e-12, "{v}");
    assert!(
        (v["lower_bound"].as_f64().unwrap() + 4f64.ln()).abs() < 1e-12,
        "{v}"
    );
    assert!(llr >= upper, "{v}");
    let games = v["games"].as_u64().unwrap();
    assert!(games < 40 && games % 2 == 0, "{v}");
    let pairs: u64 = v["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(pairs * 2, games, "{v}");
    // Without --sprt the keys are there, empty.
    let v = json(&["--a", "random", "--b", "random", "--games", "2"]);
    for key in ["llr", "lower_bound", "upper_bound", "sprt"] {
        assert!(v[key].is_null(), "{key}: {v}");
    }
    // The text says the same.
    let out = ploy(&[
        "match",
        "--a",
        "full@d1",
        "--b",
        "random",
        "--sprt",
        "-10,290",
        "--alpha",
        "0.2",
        "--beta",
        "0.2",
        "--games",
        "40",
        "--ply-cap",
        "60",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("sprt elo0 -10 elo1 290 alpha 0.2 beta 0.2: llr ")
            && stdout.contains("(bounds -1.39 and 1.39): H1 accepted"),
        "{stdout}"
    );
    // Usage errors.
    for args in [
        &["--alpha", "0.1"][..],
        &["--sprt", "10,0"],
        &["--sprt", "x"],
        &["--sprt", "0,10", "--beta", "0"],
        &["--sprt", "0,10", "--alpha", "0.7"],
        &["-j", "0"],
    ] {
        let mut all = vec!["match"];
        all.extend_from_slice(args);
        let out = ploy(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}

#[test]
fn engine_programs_that_cannot_start_or_refuse_options_stop_the_match() {
    let out = ploy(&["match", "--a", "engine:/nonexistent/engine", "--games", "2"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("/nonexistent/engine") && err.contains("cannot start"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let engine = format!("engine:{}", engine());
    let out = ploy(&[
        "match",
        "--a",
        &engine,
        "--a-option",
        "Frobnication=11",
        "--games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("refused an option"), "{err}");

    // Options are for engine programs only.
    let out = ploy(&[
        "match",
        "--a",
        "full",
        "--a-option",
        "Hash=4",
        "--games",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = ploy(&["match", "--a-option", "Hash"]);
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
mod misbehaving {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A shell script engine: answers the handshake (the new way, after `uci`, or with
    /// `greet_first` the old way, at once as well), and answers `go` with `on_go`.
    fn script(dir: &Path, name: &str, greet_first: bool, on_go: &str) -> String {
        let path = dir.join(name);
        let greeting = "echo 'id name fake 1'; echo 'option name Hash type spin default 1 min 1 max 8'; echo uciok";
        let text = format!(
            "#!/bin/sh\n{}\nwhile read -r line; do\n  case \"$line\" in\n    uci) {greeting};;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n",
            if greet_first { greeting } else { "" }
        );
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        format!("engine:{}", path.display())
    }

    /// Plays two games of `spec` (as A) against a random mover; gives the JSON and the
    /// records' texts.
    fn against_random(dir: &Path, spec: &str, extra: &[&str]) -> (Value, Vec<String>) {
        let records = dir.join(format!("records-{}", spec.len()));
        let mut args = vec![
            "--a",
            spec,
            "--b",
            "random",
            "--games",
            "2",
            "--ply-cap",
            "20",
            "--records",
            records.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let v = json(&args);
        let texts = (1..=2)
            .map(|n| std::fs::read_to_string(records.join(format!("game-00{n}.plg"))).unwrap())
            .collect();
        (v, texts)
    }

    #[test]
    fn a_crash_a_time_out_an_illegal_move_and_no_move_lose() {
        let dir = scratch("misbehaving");
        for (name, on_go, extra, words, how) in [
            (
                "crash",
                "echo 'thread main panicked: boom' >&2; exit 3",
                &[][..],
                "crashed",
                "exit status 3; last words: thread main panicked: boom",
            ),
            (
                "sleepy",
                ":",
                &["--time", "50ms", "--timeout", "300ms"][..],
                "timed out",
                "no answer within 0.3s",
            ),
            (
                "illegal",
                "echo 'info depth 1 nodes 12'; echo 'bestmove z9-z9-9'",
                &[][..],
                "illegal move",
                "`z9-z9-9`",
            ),
            (
                "none",
                "echo 'bestmove none'",
                &[][..],
                "no move",
                "bestmove none",
            ),
        ] {
            let spec = script(&dir, name, false, on_go);
            let (v, records) = against_random(&dir, &spec, extra);
            assert_eq!(v["losses"], 2, "{name}: {v}");
            assert_eq!(v["forfeits"], serde_json::json!([2, 0]), "{name}: {v}");
            for r in &records {
                assert!(
                    r.contains(&format!("# match result: B wins (A forfeits: {words}")),
                    "{name}: {r}"
                );
                assert!(r.contains(how), "{name}: {r}");
                let reason = if name == "sleepy" {
                    "time forfeit"
                } else {
                    "resignation"
                };
                assert!(r.contains(&format!("wins, {reason}\n")), "{name}: {r}");
            }
        }
    }

    /// An engine that greets before `uci` (as builds before the full UCI words did) is
    /// driven as well; its `id name` is shown.
    #[test]
    fn an_old_style_greeting_is_understood() {
        let dir = scratch("greeting");
        let spec = script(&dir, "old", true, "echo 'bestmove none'");
        let out = ploy(&["match", "--a", &spec, "--b", "random", "--games", "2"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains(&format!("A = {spec} (fake 1)")), "{stdout}");
    }
}
