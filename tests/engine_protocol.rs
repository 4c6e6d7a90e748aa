//! The engine protocol end to end: the compiled `engine` example as a child process, fed
//! commands on its standard input, its answers read from its standard output.
//!
//! The test runs `cargo build --example engine` (with the test binary's profile and target
//! directory, offline; a no-op when the example is up to date, and `cargo test` has
//! usually built it already) once, so that a run filtered to this test alone never uses a
//! stale binary.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The `engine` example next to this test binary (`target/<profile>/examples/engine`),
/// brought up to date once per test run.
fn engine_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let profile_dir = exe
            .parent()
            .and_then(|deps| deps.parent())
            .expect("target/<profile>/deps/<test>");
        let target_dir = profile_dir.parent().expect("target/<profile>");
        let bin = profile_dir
            .join("examples")
            .join(format!("engine{}", std::env::consts::EXE_SUFFIX));
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let profile = if profile_dir.file_name().is_some_and(|n| n == "release") {
            "release"
        } else {
            "test"
        };
        let mut build = Command::new(cargo);
        build
            .args(["build", "--quiet", "--offline", "--example", "engine"])
            .args(["--profile", profile, "--target-dir"])
            .arg(target_dir)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        // The features this test was built with, so that the build matches the one
        // `cargo test` made of the examples (and is a no-op).
        if cfg!(feature = "serde") {
            build.args(["--features", "serde"]);
        }
        let built = build.status();
        match built {
            Ok(status) => assert!(status.success(), "building the engine example failed"),
            // No cargo to run: use the binary `cargo test` built, if there is one.
            Err(e) => eprintln!("cannot run cargo ({e}); using {}", bin.display()),
        }
        assert!(bin.exists(), "no engine example at {}", bin.display());
        bin
    })
    .clone()
}

/// A running engine: its input, and its output lines through a channel (read by a thread,
/// so that no read can hang the test).
struct Engine {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

const WAIT: Duration = Duration::from_secs(20);

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(engine_binary())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the engine starts");
        let out = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let input = child.stdin.take();
        Engine {
            child,
            input,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let input = self.input.as_mut().expect("stdin open");
        writeln!(input, "{line}").expect("the engine reads");
        input.flush().expect("flush");
    }

    /// The next line, or a failure naming what was expected.
    fn next(&mut self, expecting: &str) -> String {
        match self.lines.recv_timeout(WAIT) {
            Ok(line) => {
                self.transcript.push(line.clone());
                line
            }
            Err(RecvTimeoutError::Timeout) => panic!(
                "no answer within {WAIT:?}, expecting {expecting}; transcript:\n{}",
                self.transcript.join("\n")
            ),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "the engine closed its output, expecting {expecting}; transcript:\n{}",
                self.transcript.join("\n")
            ),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next(prefix);
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn transcript(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave the child running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks an info line's format:
/// `depth D score S view V share P [multipv K] nodes N nps R time MS pv M ...`.
fn check_info(line: &str) {
    let w: Vec<&str> = line.split(' ').collect();
    assert_eq!(w[0], "info", "{line}");
    assert_eq!(w[1], "depth", "{line}");
    assert!(w[2].parse::<u32>().is_ok(), "{line}");
    assert_eq!(w[3], "score", "{line}");
    let mut i = 4;
    if w[i] == "win" || w[i] == "loss" {
        i += 1;
    }
    assert!(w[i].parse::<i32>().is_ok(), "{line}");
    assert_eq!(w[i + 1], "view", "{line}");
    assert!(
        ["green", "red", "yellow", "blue", "green+yellow", "red+blue"].contains(&w[i + 2]),
        "{line}"
    );
    assert_eq!(w[i + 3], "share", "{line}");
    assert!(w[i + 4].parse::<u32>().is_ok_and(|p| p <= 100), "{line}");
    i += 4;
    if w[i + 1] == "multipv" {
        assert!(w[i + 2].parse::<u32>().is_ok_and(|k| k >= 1), "{line}");
        i += 2;
    }
    for (k, name) in ["nodes", "nps", "time"].iter().enumerate() {
        assert_eq!(w[i + 1 + 2 * k], *name, "{line}");
        assert!(w[i + 2 + 2 * k].parse::<u64>().is_ok(), "{line}");
    }
    assert_eq!(w[i + 7], "pv", "{line}");
    for mv in &w[i + 8..] {
        assert_eq!(mv.len(), 7, "a university move string in {line}");
    }
}

#[test]
fn a_protocol_session() {
    let mut e = Engine::start();
    let hello = e.until("uciok");
    assert_eq!(
        hello[0],
        "id name ploy 0.1.0".replace("0.1.0", env!("CARGO_PKG_VERSION"))
    );
    assert!(hello[1].starts_with("id author "));
    for name in [
        "Hash",
        "Variant",
        "Rules",
        "Elimination",
        "Rotation",
        "Repetition draw",
        "No-capture limit",
        "Partner elimination",
        "Bare commander",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}: {hello:?}"
        );
    }

    e.send("isready");
    assert_eq!(e.next("readyok"), "readyok");

    // A fixed-depth search: one info line per depth, then the move.
    e.send("position startpos moves e3-e4-0 e9-e9-1");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert_eq!(lines.len(), 3, "{lines:?}");
    check_info(&lines[0]);
    check_info(&lines[1]);
    assert!(lines[1].starts_with("info depth 2 score "), "{lines:?}");
    let best = lines[2].strip_prefix("bestmove ").unwrap();
    assert_eq!(best.len(), 7, "{best}");
    // The move is legal: it can be played after the others.
    e.send(&format!("position startpos moves e3-e4-0 e9-e9-1 {best}"));
    e.send("isready");
    assert_eq!(e.next("readyok"), "readyok");

    // Bad input: an error line each, and the engine goes on.
    for bad in [
        "frobnicate",
        "go depth x",
        "go sideways",
        "position startpos moves e3-e5-0",
        "position fen nonsense b",
        "position",
        "setoption name Colour value blue",
        "setoption name Hash value 0",
        "setoption name Rotation value sideways",
    ] {
        e.send(bad);
        let line = e.next("an error");
        assert!(line.starts_with("info string error "), "{bad}: {line}");
    }
    // The failed `position` commands left the last good position.
    e.send("d");
    let shown = e.next("the position");
    assert!(shown.starts_with("info string position "), "{shown}");
    assert!(
        shown.ends_with(" w"),
        "Red to move after three plies: {shown}"
    );
    e.next("the outcome");

    // `stop` answers at once with the best move so far.
    e.send("position startpos");
    e.send("go infinite");
    check_info(&e.next("an info line"));
    let asked = Instant::now();
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(asked.elapsed() < Duration::from_secs(2), "{lines:?}");
    assert!(
        lines.last().unwrap().len() == "bestmove e3-e4-0".len(),
        "{lines:?}"
    );

    // Node budget and clock.
    e.send("go nodes 3000");
    assert!(e.until("bestmove").last().unwrap() != "bestmove none");
    e.send("go time 1000 inc 10");
    assert!(e.until("bestmove").last().unwrap() != "bestmove none");
    e.send("go movetime 50");
    assert!(e.until("bestmove").last().unwrap() != "bestmove none");

    // A decided position: no move.
    let red_without_commander = ",w84,w41,w56,,w56,w41,w84,/,,w24,w40,w17,w40,w48,,/,,,w16,w16,\
        w16,,,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,,,b1,b1,b1,,,/,,b3,b130,b17,b130,b129,,/,b69,b146,\
        b131,b170,b131,b146,b69, w";
    e.send(&format!("position fen {red_without_commander}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(
        lines,
        [
            "info string game over: Green wins, commander captured",
            "bestmove none"
        ]
    );
    // A game drawn by a rule of the game, though the position alone has moves.
    e.send("setoption name No-capture limit value 2");
    e.send("position startpos moves e3-e4-0 e9-e9-1");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert_eq!(
        lines,
        [
            "info string game over: draw, no-capture limit",
            "bestmove none"
        ]
    );
    e.send("setoption name Rules value standard");

    // Rule options: single-step rotation makes a three-step turn illegal.
    e.send("setoption name Rotation value single-step");
    e.send("position startpos moves e1-e1-3");
    assert!(e.next("an error").starts_with("info string error move 1"));
    e.send("setoption name Rotation value any");
    e.send("setoption name Repetition draw value false");
    e.send("setoption name No-capture limit value 0");
    e.send("setoption name Elimination value relaxed");
    e.send("setoption name Hash value 1");
    e.send("position startpos moves e1-e1-3");
    e.send("isready");
    assert_eq!(e.next("readyok"), "readyok", "{}", e.transcript());

    // Four-player games: partnership and free-for-all are both searched.
    e.send("setoption name Variant value partnership");
    e.send("newgame");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert_ne!(lines.last().unwrap(), "bestmove none", "{lines:?}");
    // A four-player position string, with a move: Red's shield on b7 turns, Yellow is next.
    let red_to_move = "partnership ,r84,r170,r56,,b56,b170,b84,/,r24,r40,r48,,b24,b40,b48,/,\
        r16,r16,r16,,b16,b16,b16,/,,,,,,,,/,,,,,,,,/,,,,,,,,/,g1,g1,g1,,y1,y1,y1,/,g6,g130,g129,,\
        y3,y130,y129,/,g69,g170,g131,,y131,y170,y69, r gryb -";
    e.send(&format!("position fen {red_to_move} moves b7-b7-1"));
    e.send("d");
    let shown = e.next("the position");
    assert!(
        shown.starts_with("info string position partnership "),
        "{shown}"
    );
    assert!(shown.contains("/,r32,r16,r16,,b16"), "{shown}");
    assert!(shown.ends_with(" y gryb -"), "{shown}");
    e.next("the outcome");
    // Free-for-all is searched by the paranoid reduction: a legal move of Green's.
    e.send("position ffa");
    e.send("go depth 2");
    let lines = e.until("bestmove");
    let best = lines.last().unwrap();
    assert!(lines[0].starts_with("info depth 1 "), "{lines:?}");
    let start = ploy::core::Position::start(
        ploy::core::Variant::FreeForAll,
        ploy::core::Rules::standard(),
    );
    let mv = ploy::notation::read_university(&start, best.trim_start_matches("bestmove ")).unwrap();
    assert!(start.is_legal(mv), "{lines:?}");

    // `quit` while a search runs: the engine stops and exits.
    e.send("position startpos");
    e.send("go infinite");
    e.next("an info line");
    e.send("quit");
    e.until("bestmove");
    let started = Instant::now();
    loop {
        if let Some(status) = e.child.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            started.elapsed() < WAIT,
            "the engine did not exit after quit"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_end_of_the_input_waits_for_the_search() {
    // A script piped in whole: the engine answers the `go` before it exits.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 2");
    drop(e.input.take());
    let lines = e.until("bestmove");
    assert_ne!(lines.last().unwrap(), "bestmove none");
}
