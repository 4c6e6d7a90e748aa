//! The engine protocol end to end: the compiled `engine` example as a child process, fed
//! commands on its standard input, its answers read from its standard output.
//!
//! It runs the example `cargo test` built (the tests never run cargo).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The `engine` example.
fn engine_binary() -> PathBuf {
    crate::common::example("engine")
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
        Engine::start_with(&[])
    }

    /// The engine started with command-line `args`.
    fn start_with(args: &[&str]) -> Engine {
        let mut child = Command::new(engine_binary())
            .args(args)
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
    e.send("uci");
    let hello = e.until("uciok");
    assert_eq!(
        hello[0],
        "id name ploy 0.1.0".replace("0.1.0", env!("CARGO_PKG_VERSION"))
    );
    assert!(hello[1].starts_with("id author "));
    for name in [
        "Hash",
        "MultiPV",
        "Threads",
        "Ponder",
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

// ---------------------------------------------------------------------------------------
// Faults of issue 11: each test failed before its fix.
// ---------------------------------------------------------------------------------------

impl Engine {
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript
            .push(format!("> {}", String::from_utf8_lossy(bytes)));
        let input = self.input.as_mut().expect("stdin open");
        input.write_all(bytes).expect("the engine reads");
        input.flush().expect("flush");
    }

    /// Sends `isready` and returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }
}

#[test]
fn invalid_utf8_is_bad_input_not_the_end() {
    let mut e = Engine::start();
    e.send_bytes(b"position startpos moves e3-e4-0 \xff\xfe\n");
    let lines = e.sync();
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("info string error ") && l.contains("UTF-8")),
        "{}",
        e.transcript()
    );
    // The engine goes on: the bad line changed nothing.
    e.send("d");
    let shown = e.next("the position");
    assert!(shown.ends_with(" b"), "{shown}");
}

#[test]
fn a_refused_setoption_changes_nothing() {
    let mut e = Engine::start();
    // A game with a three-step turn, which single-step rotation forbids.
    e.send("position startpos moves e1-e1-3");
    e.send("setoption name Rotation value single-step");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string error ")),
        "{lines:?}"
    );
    // The rule was not changed: the same game is still accepted.
    e.send("position startpos moves e1-e1-3 e9-e9-1");
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("info string error")),
        "{}",
        e.transcript()
    );
}

#[test]
fn error_lines_quote_a_bounded_excerpt() {
    let mut e = Engine::start();
    let long = "x".repeat(100_000);
    for cmd in [
        format!("frobnicate{long}"),
        format!("go depth {long}"),
        format!("go {long}"),
        format!("position fen {long} b"),
        format!("position startpos moves {long}"),
        format!("setoption name Hash value {long}"),
        format!("setoption name {long} value 1"),
        format!("setoption name Rotation value {long}"),
    ] {
        e.send(&cmd);
        let lines = e.sync();
        let error = lines
            .iter()
            .find(|l| l.starts_with("info string error "))
            .unwrap_or_else(|| panic!("no error for {}...: {lines:?}", &cmd[..20]));
        assert!(
            error.len() < 400,
            "{}...: an error line of {} bytes",
            &cmd[..20],
            error.len()
        );
    }
}

#[test]
fn the_end_of_the_input_stops_an_unbounded_search() {
    // `go depth 1000` would run for hours: at the end of the input it gets at most 10 s.
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 1000");
    drop(e.input.take());
    let lines = e.until("bestmove");
    assert_ne!(lines.last().unwrap(), "bestmove none");
    let started = Instant::now();
    loop {
        if let Some(status) = e.child.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(started.elapsed() < WAIT, "the engine did not exit");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Resident memory of a process in KiB (Linux), if known.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn setoption_hash_allocates_the_table_before_isready_answers() {
    let mut e = Engine::start();
    let pid = e.child.id();
    e.sync();
    let Some(before) = resident_kib(pid) else {
        eprintln!("no /proc: skipped");
        return;
    };
    e.send("setoption name Hash value 256");
    e.sync();
    let after = resident_kib(pid).expect("/proc");
    // Every page of the new table is touched before `readyok`, not at the next `go`.
    assert!(
        after >= before + 250 * 1024,
        "resident {before} KiB before, {after} KiB after"
    );
}

// ---------------------------------------------------------------------------------------
// The UCI words of issue 11.
// ---------------------------------------------------------------------------------------

/// The parts of an info line the tests look at.
#[derive(Debug)]
struct InfoLine {
    depth: u32,
    score: String,
    multipv: Option<u32>,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> InfoLine {
    check_info(line);
    let w: Vec<&str> = line.split(' ').collect();
    let after = |key: &str| w.iter().position(|&x| x == key).map(|i| w[i + 1]);
    let score_at = w.iter().position(|&x| x == "score").unwrap() + 1;
    let score = if w[score_at] == "win" || w[score_at] == "loss" {
        format!("{} {}", w[score_at], w[score_at + 1])
    } else {
        w[score_at].to_owned()
    };
    let pv_at = w.iter().position(|&x| x == "pv").unwrap() + 1;
    InfoLine {
        depth: after("depth").unwrap().parse().unwrap(),
        score,
        multipv: after("multipv").map(|k| k.parse().unwrap()),
        pv: w[pv_at..].iter().map(|m| (*m).to_owned()).collect(),
    }
}

/// Checks that `pv` is a legal line from `start` no longer than `depth` plus the
/// quiescence plies (16).
fn check_pv(start: &ploy::core::Position, info: &InfoLine) {
    assert!(!info.pv.is_empty(), "{info:?}");
    assert!(info.pv.len() <= info.depth as usize + 16, "{info:?}");
    let mut pos = start.clone();
    for text in &info.pv {
        let mv = ploy::notation::read_university(&pos, text)
            .unwrap_or_else(|e| panic!("{text} in {info:?}: {e}"));
        assert!(pos.is_legal(mv), "{text} in {info:?}");
        pos.make_move(mv);
    }
}

fn info_lines(lines: &[String]) -> Vec<InfoLine> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| parse_info(l))
        .collect()
}

fn bestmove(lines: &[String]) -> &str {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove: {lines:?}"))
}

fn start(variant: ploy::core::Variant) -> ploy::core::Position {
    ploy::core::Position::start(variant, ploy::core::Rules::standard())
}

#[test]
fn nothing_is_written_before_uci() {
    let mut e = Engine::start();
    e.send("isready");
    assert_eq!(e.next("readyok"), "readyok", "{}", e.transcript());
    e.send("uci");
    let block = e.until("uciok");
    assert_eq!(
        block[0],
        format!("id name ploy {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(block.contains(&"option name MultiPV type spin default 1 min 1 max 64".to_owned()));
    assert!(block.contains(&"option name Ponder type check default false".to_owned()));
}

#[test]
fn every_principal_variation_is_a_legal_line() {
    let mut e = Engine::start();
    for (variant, setup) in [
        (ploy::core::Variant::TwoPlayer, "position startpos"),
        (ploy::core::Variant::FreeForAll, "position ffa"),
        (ploy::core::Variant::Partnership, "position partnership"),
    ] {
        e.send(setup);
        e.send("go depth 5");
        let lines = e.until("bestmove");
        let infos = info_lines(&lines);
        assert_eq!(infos.len(), 5, "{lines:?}");
        for info in &infos {
            check_pv(&start(variant), info);
        }
        assert_eq!(infos[4].pv[0], bestmove(&lines));
    }
}

#[test]
fn clocks_by_the_letters_of_the_position_string() {
    let mut e = Engine::start();
    // Green (`b`) to move: `btime` is his clock. Were `wtime` read, the search would
    // think for an hour.
    e.send("position startpos");
    e.send("go btime 300 wtime 100000000 binc 0 winc 100000000");
    assert_ne!(bestmove(&e.until("bestmove")), "none");
    // Red (`w`) to move.
    e.send("position startpos moves e3-e4-0");
    e.send("go wtime 300 btime 100000000 winc 0 binc 100000000 movestogo 20");
    assert_ne!(bestmove(&e.until("bestmove")), "none");
    // Only the opponent's clock: the default second.
    e.send("go btime 100000000");
    assert_ne!(bestmove(&e.until("bestmove")), "none");
    // Four players: g, r, y, b (b is Blue here).
    e.send("position ffa");
    e.send(
        "go gtime 300 rtime 100000000 ytime 100000000 btime 100000000 ginc 0 rinc 0 yinc 0 binc 0",
    );
    let lines = e.until("bestmove");
    let mv = bestmove(&lines);
    let pos = start(ploy::core::Variant::FreeForAll);
    assert!(pos.is_legal(ploy::notation::read_university(&pos, mv).unwrap()));
    for bad in ["go wtime 1000", "go winc 10", "go xtime 5"] {
        e.send(bad);
        let line = e.next("an error");
        assert!(line.starts_with("info string error `go "), "{bad}: {line}");
    }
    e.send("position startpos");
    e.send("go gtime 1000");
    assert!(
        e.next("an error")
            .starts_with("info string error `go gtime`")
    );
    e.sync();
}

#[test]
fn searchmoves_limits_the_root() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 3 searchmoves e3-e4-0 e1-e1-3");
    let lines = e.until("bestmove");
    let best = bestmove(&lines);
    assert!(["e3-e4-0", "e1-e1-3"].contains(&best), "{lines:?}");
    for info in info_lines(&lines) {
        assert!(
            ["e3-e4-0", "e1-e1-3"].contains(&info.pv[0].as_str()),
            "{info:?}"
        );
        check_pv(&start(ploy::core::Variant::TwoPlayer), &info);
    }
    // Tensi's notation too, and the words after the moves still count.
    e.send("go searchmoves e3-e4 depth 2");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "e3-e4-0");
    assert_eq!(info_lines(&lines).len(), 2);
    for bad in [
        "go searchmoves e3-e5-0",
        "go searchmoves",
        "go depth 2 searchmoves xyz",
    ] {
        e.send(bad);
        let line = e.next("an error");
        assert!(
            line.starts_with("info string error `go searchmoves`"),
            "{bad}: {line}"
        );
    }
    e.sync();
}

#[test]
fn multipv_reports_the_best_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let infos = info_lines(&lines);
    assert_eq!(infos.len(), 9, "{lines:?}");
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.depth as usize, i / 3 + 1, "{lines:?}");
        assert_eq!(info.multipv, Some(i as u32 % 3 + 1), "{lines:?}");
        check_pv(&start(ploy::core::Variant::TwoPlayer), info);
    }
    for depth in infos.chunks(3) {
        let firsts: Vec<&str> = depth.iter().map(|i| i.pv[0].as_str()).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{firsts:?}"
        );
    }
    assert_eq!(bestmove(&lines), infos[6].pv[0]);
    for bad in [
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 65",
    ] {
        e.send(bad);
        assert!(
            e.next("an error").starts_with("info string error "),
            "{bad}"
        );
    }
    // Back to one line: no `multipv` word.
    e.send("setoption name MultiPV value 1");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(info_lines(&lines).iter().all(|i| i.multipv.is_none()));
}

/// Green to move can take Red's commander on e9 with the lance on e6.
fn mate_in_one() -> String {
    use ploy::core::{Board, Flags, Piece, Position, Rules, Seat, Setup};
    let mut board = Board::empty();
    for (seat, mask, sq) in [
        (Seat::Green, 85, "a1"),
        (Seat::Green, 1, "b2"),
        (Seat::Green, 131, "e6"),
        (Seat::Red, 85, "e9"),
        (Seat::Red, 16, "i8"),
    ] {
        let piece = Piece::new(seat, Flags::new(mask)).unwrap();
        board.put(sq.parse().unwrap(), piece);
    }
    let pos =
        Position::from_setup(Setup::two_player(board, Seat::Green), Rules::standard()).unwrap();
    ploy::notation::PositionString::from_position(&pos).to_string()
}

#[test]
fn go_mate_finds_a_forced_win() {
    let mut e = Engine::start();
    e.send(&format!("position fen {}", mate_in_one()));
    e.send("go mate 1");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(&lines), "e6-e9-0", "{lines:?}");
    let infos = info_lines(&lines);
    assert_eq!(infos.last().unwrap().score, "win 1", "{lines:?}");
    // No forced win within one move from the start: the search stops at its depth (one
    // ply) and still answers.
    e.send("position startpos");
    e.send("go mate 1");
    let lines = e.until("bestmove");
    assert!(info_lines(&lines).iter().all(|i| i.depth == 1), "{lines:?}");
    e.send("go mate 0");
    assert!(
        e.next("an error")
            .starts_with("info string error `go mate`")
    );
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e3-e4-0");
    // A search that ends by itself long before `ponderhit`: its answer waits.
    e.send("go ponder depth 2 btime 1000 wtime 1000");
    std::thread::sleep(Duration::from_millis(300));
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    let lines = e.until("bestmove");
    // With the `Ponder` option the answer names the expected reply.
    let answer = lines.last().unwrap();
    let words: Vec<&str> = answer.split(' ').collect();
    assert_eq!(words.len(), 4, "{answer}");
    assert_eq!(words[2], "ponder", "{answer}");
    // `stop` while pondering answers at once.
    e.send("go ponder");
    e.next("an info line");
    e.send("stop");
    assert_ne!(bestmove(&e.until("bestmove")), "none");
    // `ponderhit` with a budget: the budget counts from it, then the answer comes.
    e.send("go ponder movetime 200");
    e.next("an info line");
    e.send("ponderhit");
    assert_ne!(bestmove(&e.until("bestmove")), "none");
    e.send("ponderhit");
    assert!(
        e.next("an error")
            .starts_with("info string error `ponderhit`")
    );
    // Without the option, `bestmove` is the move alone.
    e.send("setoption name Ponder value false");
    e.send("go depth 2");
    assert_eq!(e.until("bestmove").last().unwrap().split(' ').count(), 2);
}

#[test]
fn the_end_of_the_input_stops_infinite_and_ponder_at_once() {
    for go in ["go infinite", "go ponder wtime 100000 btime 100000"] {
        let mut e = Engine::start();
        e.send("position startpos");
        e.send(go);
        e.next("an info line");
        drop(e.input.take());
        assert_ne!(bestmove(&e.until("bestmove")), "none", "{go}");
    }
}

#[test]
fn a_line_too_long_is_refused_whole() {
    let mut e = Engine::start();
    let mut line = b"position startpos moves ".to_vec();
    line.extend(std::iter::repeat_n(b'x', 2 << 20));
    line.push(b'\n');
    e.send_bytes(&line);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error a line longer than "));
    e.send("d");
    assert!(e.next("the position").ends_with(" b"));
}

#[test]
fn threads_search_together_and_the_option_is_checked() {
    let mut e = Engine::start();
    e.send("uci");
    let block = e.until("uciok");
    assert!(
        block.contains(&"option name Threads type spin default 1 min 1 max 256".to_owned()),
        "{block:?}"
    );
    for bad in ["0", "257", "two", ""] {
        e.send(&format!("setoption name Threads value {bad}"));
        let line = e.next("an error");
        assert!(
            line.starts_with("info string error option `Threads`"),
            "{bad}: {line}"
        );
    }
    e.send("setoption name Threads value 2");
    let moves = ploy::core::Position::new().legal_moves();
    for go in ["go depth 4", "go nodes 20000", "go movetime 100"] {
        e.send("position startpos");
        e.send(go);
        let lines = e.until("bestmove");
        lines[..lines.len() - 1].iter().for_each(|l| check_info(l));
        let best = bestmove(&lines);
        assert!(
            moves
                .iter()
                .any(|&m| ploy::notation::UniversityMove::from(m).to_string() == best),
            "{go}: {best}"
        );
        if go == "go depth 4" {
            assert!(
                lines[lines.len() - 2].starts_with("info depth 4 "),
                "{lines:?}"
            );
        }
        if go == "go nodes 20000" {
            // The node budget bounds the nodes of both threads together.
            let nodes: u64 = lines[lines.len() - 2]
                .split(' ')
                .skip_while(|&w| w != "nodes")
                .nth(1)
                .and_then(|n| n.parse().ok())
                .expect("a node count");
            assert!(nodes <= 20_000, "{lines:?}");
        }
    }
    // Back to one thread: the same search twice gives the same lines.
    e.send("setoption name Threads value 1");
    let run = |e: &mut Engine| -> Vec<String> {
        e.send("newgame");
        e.send("position startpos moves e3-e4-0");
        e.send("go depth 4");
        // Every line without its speed and time.
        e.until("bestmove")
            .iter()
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                let timed = |i: usize| i > 0 && matches!(w[i - 1], "nps" | "time");
                (0..w.len())
                    .filter(|&i| !matches!(w[i], "nps" | "time") && !timed(i))
                    .map(|i| w[i])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let first = run(&mut e);
    assert_eq!(first, run(&mut e));

    // `--threads` sets the starting value, which `uci` announces as the default.
    let mut e = Engine::start_with(&["--threads", "2"]);
    e.send("uci");
    let block = e.until("uciok");
    assert!(
        block.contains(&"option name Threads type spin default 2 min 1 max 256".to_owned()),
        "{block:?}"
    );
    e.send("position startpos");
    e.send("go depth 3");
    assert_ne!(bestmove(&e.until("bestmove")), "none");

    // Pente searches on one thread: no `Threads` in its block, and the option is refused.
    if cfg!(feature = "cli") {
        e.send("setoption name Game value pente");
        e.send("uci");
        let block = e.until("uciok");
        assert!(!block.iter().any(|l| l.contains("Threads")), "{block:?}");
        e.send("setoption name Threads value 2");
        let line = e.next("an error");
        assert!(
            line.starts_with("info string error option `Threads`: pente games search on one"),
            "{line}"
        );
    }
}

/// `setoption name Level value N`: announced by `uci` as a spin from 1 to 8 (default 8);
/// refused outside 1 to 8 with the level's message, changing nothing; a weaker level
/// searches within its own limits (level 3: two plies deep, docs/search-tuning.md
/// "Levels"), and the same game gives the same move again.
#[test]
fn the_level_option_weakens_the_search_and_refuses_what_is_not_a_level() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(
        hello.contains(&"option name Level type spin default 8 min 1 max 8".to_owned()),
        "{hello:?}"
    );
    for bad in ["0", "9", "x", "3.5"] {
        e.send(&format!("setoption name Level value {bad}"));
        let line = e.next("an error");
        assert!(
            line.starts_with("info string error option `Level`: ")
                && line.contains("a level is a whole number from 1 to 8"),
            "{bad}: {line}"
        );
    }
    // Refused values left full strength: `go depth 3` reaches depth 3.
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(info_lines(&lines).last().map(|i| i.depth), Some(3));

    e.send("setoption name level value 3");
    // A new game each time: the engine's tables are part of what a search sees.
    e.send("ucinewgame");
    e.send("position startpos moves e3-e4-0");
    e.send("go depth 6");
    let first = e.until("bestmove");
    let infos = info_lines(&first);
    assert!(!infos.is_empty(), "{first:?}");
    assert!(infos.iter().all(|i| i.depth <= 2), "{first:?}");
    // One line shown (MultiPV 1), though the level searches several.
    assert!(infos.iter().all(|i| i.multipv.is_none()), "{first:?}");
    let game = "position startpos moves e3-e4-0";
    let mut pos = start(ploy::core::Variant::TwoPlayer);
    let e3e4 = ploy::notation::read_university(&pos, "e3-e4-0").unwrap();
    pos.make_move(e3e4);
    let mv = ploy::notation::read_university(&pos, bestmove(&first)).expect("a move");
    assert!(pos.is_legal(mv), "{first:?}");
    e.send("ucinewgame");
    e.send(game);
    e.send("go depth 6");
    let again = e.until("bestmove");
    assert_eq!(bestmove(&again), bestmove(&first));

    e.send("setoption name Level value 8");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert_eq!(info_lines(&lines).last().map(|i| i.depth), Some(3));
}

/// `setoption name Search value KIND`: announced by `uci` as a combo of `default` and the
/// multi-player searches; anything else refused with the search's message, changing
/// nothing; a two-player game ignores it (the same search, line for line).
#[test]
fn the_search_option_names_a_multi_player_search_and_refuses_others() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(
        hello.contains(
            &"option name Search type combo default default var default var paranoid var brs var brs+ var mcts"
                .to_owned()
        ),
        "{hello:?}"
    );
    for bad in ["minimax", "brs++", "3"] {
        e.send(&format!("setoption name Search value {bad}"));
        let line = e.next("an error");
        assert!(
            line.starts_with("info string error option `Search`: ")
                && line.contains("paranoid, brs, brs+ or mcts"),
            "{bad:?}: {line}"
        );
    }
    e.send("position startpos");
    e.send("go depth 3");
    let before = e.until("bestmove");
    for kind in ["BRS+", "mcts", "default"] {
        e.send(&format!("setoption name Search value {kind}"));
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go depth 3");
        let after = e.until("bestmove");
        assert_eq!(bestmove(&after), bestmove(&before), "{kind}");
        let lines = |l: &[String]| {
            info_lines(l)
                .into_iter()
                .map(|i| (i.depth, i.score, i.pv))
                .collect::<Vec<_>>()
        };
        assert_eq!(lines(&after), lines(&before), "{kind}");
    }
}

/// `setoption name Search value KIND` chooses the search of Ploy's free-for-all: `default`
/// (Best-Reply Search on the two-sided searcher) and `paranoid` are two-sided searches (an
/// info line per depth, its score the mover against all three together, far below zero at
/// the start, its principal variation a legal line), `brs`, `brs+` and `mcts` the plain
/// multi-player searches (one info line, the mover's own score, near zero at the start);
/// every answer is a legal move.
#[test]
fn the_search_option_chooses_the_free_for_all_search() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let ffa = start(ploy::core::Variant::FreeForAll);
    let mut run = |kind: &str| {
        e.send(&format!("setoption name Search value {kind}"));
        e.send("ucinewgame");
        e.send("position ffa");
        e.send("go nodes 4000");
        let lines = e.until("bestmove");
        let mv = ploy::notation::read_university(&ffa, bestmove(&lines)).expect("a move");
        assert!(ffa.is_legal(mv), "{kind}: {lines:?}");
        let infos = info_lines(&lines);
        for info in &infos {
            check_pv(&ffa, info);
        }
        let scores: Vec<i32> = infos.iter().map(|i| i.score.parse().unwrap()).collect();
        (bestmove(&lines).to_owned(), infos.len(), scores)
    };
    for two_sided in [run("default"), run("paranoid")] {
        assert!(two_sided.1 >= 2, "{two_sided:?}");
        assert!(two_sided.2.iter().all(|&s| s < -1000), "{two_sided:?}");
    }
    for kind in ["brs", "brs+", "mcts"] {
        let (_, lines, scores) = run(kind);
        assert_eq!(lines, 1, "{kind}: {scores:?}");
        assert!(scores[0].abs() < 500, "{kind}: {scores:?}");
    }
}
