//! The engine protocol's other games end to end: `setoption name Game value pente|pyloff`,
//! their options, positions, searches and refusals, through the compiled `engine` example
//! as a child process. Every `bestmove` and every principal variation is checked with the
//! game crates' own rules.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// The `engine` example.
fn engine_binary() -> PathBuf {
    crate::common::example("engine")
}

/// A running engine; its output lines arrive through a channel (no read can hang).
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

const WAIT: Duration = Duration::from_secs(30);

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
        let input = child.stdin.take().expect("piped stdin");
        Engine {
            child,
            input,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        writeln!(self.input, "{line}").expect("the engine reads");
        self.input.flush().expect("flush");
    }

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

    /// The lines written so far and not read yet.
    fn waiting(&mut self) -> Vec<String> {
        let lines: Vec<String> = self.lines.try_iter().collect();
        self.transcript.extend(lines.iter().cloned());
        lines
    }

    /// Sends `line`, then `isready`: the lines written before `readyok` (error lines of
    /// a refused command, or nothing).
    fn answer(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut lines = self.until("readyok");
        lines.pop();
        lines
    }

    /// Sends `line`, which must be refused with exactly one error line containing `why`.
    fn refused(&mut self, line: &str, why: &str) {
        let answer = self.answer(line);
        assert_eq!(answer.len(), 1, "{line}: {answer:?}");
        assert!(
            answer[0].starts_with("info string error ") && answer[0].contains(why),
            "{line}: {answer:?}, expected an error about {why}"
        );
    }

    /// `d`: the position string.
    fn position(&mut self) -> String {
        self.send("d");
        let line = self.next("info string position");
        let outcome = self.next("info string outcome");
        assert!(outcome.starts_with("info string outcome "), "{outcome}");
        line.strip_prefix("info string position ")
            .unwrap_or_else(|| panic!("{line}"))
            .to_owned()
    }

    /// `go ...`: the info lines' words after `info` (checked for their form) and the
    /// best move.
    fn go(&mut self, go: &str, view: &[&str]) -> (Vec<Info>, String) {
        self.send(go);
        let mut lines = self.until("bestmove ");
        let best = lines.pop().expect("the bestmove line");
        let infos = lines.iter().map(|l| parse_info(l, view)).collect();
        let best = best.strip_prefix("bestmove ").expect("bestmove").to_owned();
        (infos, best)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An info line: `info depth D score S view V share P [multipv K] nodes N nps R time MS
/// pv M ...`.
struct Info {
    multipv: Option<u32>,
    pv: Vec<String>,
}

fn parse_info(line: &str, views: &[&str]) -> Info {
    let w: Vec<&str> = line.split(' ').collect();
    assert_eq!(&w[..2], ["info", "depth"], "{line}");
    assert!(w[2].parse::<u32>().is_ok(), "{line}");
    assert_eq!(w[3], "score", "{line}");
    let mut i = 4;
    if w[i] == "win" || w[i] == "loss" {
        i += 1;
    }
    assert!(w[i].parse::<i32>().is_ok(), "{line}");
    assert_eq!(w[i + 1], "view", "{line}");
    assert!(views.contains(&w[i + 2]), "{line}");
    assert_eq!(w[i + 3], "share", "{line}");
    assert!(w[i + 4].parse::<u32>().is_ok_and(|p| p <= 100), "{line}");
    i += 5;
    let mut multipv = None;
    if w[i] == "multipv" {
        multipv = Some(w[i + 1].parse().expect("a line number"));
        i += 2;
    }
    for (k, name) in ["nodes", "nps", "time"].iter().enumerate() {
        assert_eq!(w[i + 2 * k], *name, "{line}");
        assert!(w[i + 1 + 2 * k].parse::<u64>().is_ok(), "{line}");
    }
    assert_eq!(w[i + 6], "pv", "{line}");
    Info {
        multipv,
        pv: w[i + 7..].iter().map(|m| (*m).to_owned()).collect(),
    }
}

// ---------------------------------------------------------------------------------------
// Pente.
// ---------------------------------------------------------------------------------------

/// Plays `moves` (texts) on the empty board of `rules` with the pente crate.
fn pente_position(rules: pente::Rules, moves: &[String]) -> pente::Position {
    let mut pos = pente::Position::new(rules);
    for m in moves {
        pos.play(m.parse().expect("a Pente move"))
            .unwrap_or_else(|e| panic!("{m} after {moves:?}: {e}"));
    }
    pos
}

/// Whether `line` is a legal sequence of moves from `pos`.
fn pente_line_is_legal(pos: &pente::Position, line: &[String]) -> bool {
    let mut pos = pos.clone();
    line.iter()
        .all(|m| m.parse().is_ok_and(|mv| pos.play(mv).is_ok()))
}

#[test]
fn a_pente_game_over_the_protocol() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.contains(
        &"option name Game type combo default ploy var ploy var pente var pyloff".to_owned()
    ));
    assert!(e.answer("setoption name Game value pente").is_empty());
    e.send("uci");
    let hello = e.until("uciok");
    for name in ["Hash", "Ponder", "Size", "Tournament rule", "Game"] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}: {hello:?}"
        );
    }
    // Pente's options only: no Ploy option, and no MultiPV (one line is searched).
    for name in ["MultiPV", "Variant", "Rules", "Players"] {
        assert!(
            !hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}: {hello:?}"
        );
    }
    assert!(e.answer("setoption name Size value 9").is_empty());
    assert!(e.answer("ucinewgame").is_empty());
    assert_eq!(e.position(), "9/9/9/9/9/9/9/9/9 w 0 0 t");

    // Engine against engine from the start, each move checked with the pente crate.
    let rules = pente::Rules::new(pente::Size::S9);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let pos = pente_position(rules, &moves);
        if pos.is_over() || moves.len() >= 81 {
            break;
        }
        let list = moves.join(" ");
        e.send(&format!("position startpos moves {list}"));
        let view = [pos.turn().name()];
        let (infos, best) = e.go("go depth 2", &view);
        assert!(!infos.is_empty());
        for info in &infos {
            assert!(info.multipv.is_none());
            assert!(
                pente_line_is_legal(&pos, &info.pv),
                "pv {:?} after {list}",
                info.pv
            );
        }
        let mv: pente::Move = best.parse().expect("bestmove in Pente's notation");
        assert!(pos.is_legal(mv), "bestmove {best} after {list}");
        // Written as the notation writes it (`K10`, capital letter).
        assert_eq!(best, mv.to_string());
        moves.push(best);
    }
    let pos = pente_position(rules, &moves);
    assert!(pos.is_over(), "the game ended within the board: {moves:?}");
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("go depth 2");
    let over = e.next("game over");
    assert_eq!(
        over,
        format!("info string game over: {}", pos.outcome().expect("over"))
    );
    assert_eq!(e.next("bestmove none"), "bestmove none");
    e.refused(
        &format!("position startpos moves {} A1", moves.join(" ")),
        "the game is over",
    );
    // The refused position changed nothing.
    assert_eq!(e.position(), pos.to_string());
}

#[test]
fn pente_options_budgets_and_refusals() {
    let mut e = Engine::start();
    assert!(e.answer("setoption name Game value pente").is_empty());
    assert_eq!(
        e.position(),
        pente::Position::new(pente::Rules::default()).to_string()
    );

    // The tournament rule: White's second stone at least three points from the centre.
    let near = "position startpos moves K10 A1 L11";
    e.refused(near, "tournament rule");
    assert!(
        e.answer("setoption name Tournament rule value false")
            .is_empty()
    );
    assert!(e.answer(near).is_empty());
    let rules = pente::Rules::default().without_tournament_rule();
    let moves: Vec<String> = ["K10", "A1", "L11"].map(str::to_owned).to_vec();
    assert_eq!(e.position(), pente_position(rules, &moves).to_string());

    // Refused options and values: an error line each, nothing changed.
    let before = e.position();
    e.refused("setoption name Size value 8", "Size");
    e.refused("setoption name Size value 21", "Size");
    e.refused("setoption name Size value big", "bad value");
    e.refused("setoption name Tournament rule value maybe", "bad value");
    e.refused(
        "setoption name Variant value ffa",
        "not an option of pente games",
    );
    e.refused(
        "setoption name MultiPV value 2",
        "not an option of pente games",
    );
    e.refused(
        "setoption name Players value 3",
        "not an option of pente games",
    );
    e.refused("setoption name Colour value blue", "unknown option");
    e.refused(
        "setoption name Game value chess",
        "expected ploy, pente or pyloff",
    );
    e.refused("position startpos moves K10 K10", "occupied");
    e.refused("position startpos moves e3-e4-0", "move 1");
    e.refused("position start", "expected `startpos` or `fen");
    e.refused("position fen nonsense", "position string");
    e.refused("go searchmoves K10", "not available in pente games");
    e.refused("go mate 2", "not available in pente games");
    e.refused("go gtime 1000", "the players of this position are w, b");
    assert_eq!(e.position(), before);

    // A position string, then moves; the usual budgets.
    let fen = "9/9/9/9/4w2w1/9/9/1w7/9 b 2 0 t";
    assert!(e.answer(&format!("position fen {fen} moves A9")).is_empty());
    let pos = {
        let mut p: pente::Position = fen.parse().unwrap();
        p.play("A9".parse().unwrap()).unwrap();
        p
    };
    assert_eq!(e.position(), pos.to_string());
    for go in [
        "go depth 3",
        "go nodes 2000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 10 binc 10",
        "go time 1000 inc 0",
    ] {
        let (_, best) = e.go(go, &["white"]);
        assert!(pos.is_legal(best.parse().unwrap()), "{go}: {best}");
    }

    // A win in one: the threat search proves it and says so.
    assert!(e.answer("setoption name Size value 9").is_empty());
    e.send("position startpos moves E5 A9 B5 B9 C5 C9 D5 D9");
    let (infos, best) = e.go("go depth 4", &["white"]);
    assert!(["A5", "F5"].contains(&best.as_str()), "{best}");
    assert!(e.transcript.iter().any(|l| l.contains(" score win 1 ")));
    assert_eq!(infos.last().map(|i| i.pv[0].clone()), Some(best));
    e.send(&format!("position fen {fen} moves A9"));

    // go infinite answers only after stop.
    e.send("go infinite");
    e.send("isready");
    // Answered during the search (info lines may come first), and no bestmove yet.
    let before_stop = e.until("readyok");
    assert!(!before_stop.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    let lines = e.until("bestmove ");
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(pos.is_legal(best.parse().unwrap()), "{best}");

    // Pondering: no bestmove before ponderhit; the ponder reply is legal after it.
    assert!(e.answer("setoption name Ponder value true").is_empty());
    e.send("go ponder movetime 200");
    e.send("isready");
    let before_hit = e.until("readyok");
    assert!(!before_hit.iter().any(|l| l.starts_with("bestmove")));
    // Longer than the budget: still no bestmove, the budget starts at ponderhit.
    std::thread::sleep(Duration::from_millis(300));
    assert!(!e.waiting().iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    let lines = e.until("bestmove ");
    let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
    let mv: pente::Move = words[1].parse().unwrap();
    assert!(pos.is_legal(mv));
    if let ["bestmove", _, "ponder", reply] = words[..] {
        let mut after = pos.clone();
        after.play(mv).unwrap();
        assert!(after.is_legal(reply.parse().unwrap()), "{words:?}");
    }
    e.send("quit");
}

/// The `OwnBook` option: on by default, a position of the committed book (here turned a
/// quarter from the line it was stored with) is answered with the book's move without a
/// search; off, the engine searches; the option does not touch the game.
#[test]
fn pente_plays_from_its_book_unless_told_not_to() {
    let book = pente::book::Book::builtin();
    let entry = book
        .entries()
        .find(|e| e.line.len() == 3)
        .expect("the book holds three-stone positions");
    // The entry's line turned a quarter about the centre: the same position to the book.
    let turn = pente::book::Symmetry::ALL[1];
    let size = pente::Size::S19;
    let line: Vec<String> = entry
        .line
        .iter()
        .map(|m| turn.apply(size, m.point()).to_string())
        .collect();
    let expected = turn.apply(size, entry.reply.point()).to_string();

    let mut e = Engine::start();
    assert!(e.answer("setoption name Game value pente").is_empty());
    e.send("uci");
    let hello = e.until("uciok");
    assert!(hello.contains(&"option name OwnBook type check default true".to_owned()));
    let position = format!("position startpos moves {}", line.join(" "));
    assert!(e.answer(&position).is_empty());
    let (infos, best) = e.go("go nodes 20000", &["white", "black"]);
    assert_eq!(best.split(' ').next(), Some(expected.as_str()), "{line:?}");
    assert_eq!(infos.len(), 1);
    assert_eq!(infos[0].pv, std::slice::from_ref(&expected));

    let before = e.position();
    e.refused("setoption name OwnBook value maybe", "bad value");
    assert!(e.answer("setoption name OwnBook value false").is_empty());
    assert_eq!(e.position(), before, "the option keeps the game");
    e.send("go nodes 20000");
    let lines = e.until("bestmove ");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth") && !l.contains(" nodes 0 ")),
        "a search: {lines:?}"
    );
    // Another game's option name is refused as before.
    assert!(e.answer("setoption name Game value pyloff").is_empty());
    e.refused(
        "setoption name OwnBook value true",
        "not an option of pyloff games",
    );
    e.send("quit");
}

// ---------------------------------------------------------------------------------------
// Pyloff.
// ---------------------------------------------------------------------------------------

/// A game of size 3 for two players (default rules) in which player 2 must pass after
/// the seventh move, and which ends after the twelfth: player 1 wins 6 to 5.
const FORCED_PASS: &str = "a3 a1 e3 c3 c1 a5 c5";
const TO_THE_END: &str = "e5 c5 e3 a3 c3 a5 c1 d4 b4 pass e1 d2";

fn pyloff_options(size: u8, players: u8, rules: pyloff::RuleSet) -> pyloff::Options {
    pyloff::Options::new(size, players, rules).expect("valid options")
}

/// Whether `line` is a legal sequence of moves from `pos`.
fn pyloff_line_is_legal(pos: &pyloff::Position, line: &[String]) -> bool {
    let mut pos = pos.clone();
    line.iter()
        .all(|m| m.parse().is_ok_and(|mv| pos.play(mv).is_ok()))
}

#[test]
fn a_pyloff_game_with_a_forced_pass() {
    let mut e = Engine::start();
    assert!(e.answer("setoption name Game value pyloff").is_empty());
    e.send("uci");
    let hello = e.until("uciok");
    for name in [
        "Hash",
        "MultiPV",
        "Ponder",
        "Size",
        "Players",
        "All freedoms",
        "Cut down",
        "Game",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}: {hello:?}"
        );
    }
    assert!(!hello.iter().any(|l| l.contains("Tournament rule")));
    assert!(e.answer("setoption name Size value 3").is_empty());
    let options = pyloff_options(3, 2, pyloff::RuleSet::Default);

    // The forced pass: the engine answers `pass`, the only move.
    let game = pyloff::Game::from_moves(options, FORCED_PASS).unwrap();
    assert_eq!(game.position().status(), pyloff::Status::MustPass);
    assert!(
        e.answer(&format!("position startpos moves {FORCED_PASS}"))
            .is_empty()
    );
    assert_eq!(e.position(), game.position().to_string());
    let (_, best) = e.go("go depth 3", &["2"]);
    assert_eq!(best, "pass");
    e.refused(
        &format!("position startpos moves {FORCED_PASS} a1"),
        "move 8",
    );

    // Engine against engine from the forced pass on, every move checked.
    let mut moves: Vec<String> = FORCED_PASS.split(' ').map(str::to_owned).collect();
    moves.push(best);
    for _ in 0..30 {
        let game = pyloff::Game::from_moves(options, &moves.join(" ")).unwrap();
        let pos = game.position();
        if pos.is_over() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let view = pos.to_move().number().to_string();
        let (infos, best) = e.go("go depth 2", &[view.as_str()]);
        for info in &infos {
            assert!(pyloff_line_is_legal(pos, &info.pv), "pv {:?}", info.pv);
        }
        let mv: pyloff::Move = best.parse().expect("bestmove in Pyloff's notation");
        assert!(pos.is_legal(mv), "bestmove {best} after {moves:?}");
        moves.push(best);
    }

    // A finished game: no move.
    let game = pyloff::Game::from_moves(options, TO_THE_END).unwrap();
    assert!(game.position().is_over());
    e.send(&format!("position startpos moves {TO_THE_END}"));
    e.send("go depth 2");
    assert_eq!(
        e.next("game over"),
        "info string game over: player 1 wins (pieces 6 5)"
    );
    assert_eq!(e.next("bestmove none"), "bestmove none");
    e.refused(
        &format!("position startpos moves {TO_THE_END} a1"),
        "the game is over",
    );
}

#[test]
fn pyloff_options_budgets_and_refusals() {
    let mut e = Engine::start();
    assert!(e.answer("setoption name Game value pyloff").is_empty());
    assert_eq!(
        e.position(),
        pyloff::Position::new(pyloff::Options::default()).to_string()
    );
    for (line, size, players, rules) in [
        (
            "setoption name Players value 3",
            6,
            3,
            pyloff::RuleSet::Default,
        ),
        (
            "setoption name All freedoms value true",
            6,
            3,
            pyloff::RuleSet::AllFreedoms,
        ),
        (
            "setoption name Cut down value true",
            6,
            3,
            pyloff::RuleSet::CutDown,
        ),
        (
            "setoption name Size value 4",
            4,
            3,
            pyloff::RuleSet::CutDown,
        ),
        (
            "setoption name cutdown value false",
            4,
            3,
            pyloff::RuleSet::AllFreedoms,
        ),
    ] {
        assert!(e.answer(line).is_empty(), "{line}");
        let start = pyloff::Position::new(pyloff_options(size, players, rules));
        assert_eq!(e.position(), start.to_string(), "{line}");
    }
    assert!(e.answer("position startpos moves c3 a1").is_empty());
    let before = e.position();
    e.refused("setoption name Size value 14", "Size");
    e.refused("setoption name Size value 1", "Size");
    e.refused("setoption name Players value 5", "Players");
    e.refused("setoption name All freedoms value perhaps", "bad value");
    e.refused(
        "setoption name Tournament rule value false",
        "not an option of pyloff games",
    );
    e.refused(
        "setoption name Rules value university",
        "not an option of pyloff games",
    );
    e.refused("position startpos moves c3 c3 b2", "move");
    e.refused("position startpos moves swap", "move 1");
    e.refused("position fen x y", "position string");
    e.refused("go searchmoves z9", "`go searchmoves`");
    // Three players: the clock is `time`/`inc`, not a colour's.
    e.refused("go wtime 1000", "time");
    assert_eq!(e.position(), before);

    // Three players, paranoid: the usual budgets, MultiPV, searchmoves, time.
    let game =
        pyloff::Game::from_moves(pyloff_options(4, 3, pyloff::RuleSet::AllFreedoms), "c3 a1")
            .unwrap();
    let pos = game.position();
    for go in [
        "go depth 2",
        "go nodes 3000",
        "go movetime 100",
        "go time 2000 inc 0",
    ] {
        let (_, best) = e.go(go, &["3"]);
        assert!(pos.is_legal(best.parse().unwrap()), "{go}: {best}");
    }
    let (_, best) = e.go("go depth 2 searchmoves e5 g7", &["3"]);
    assert!(["e5", "g7"].contains(&best.as_str()), "{best}");
    assert!(e.answer("setoption name MultiPV value 2").is_empty());
    let (infos, _) = e.go("go depth 2", &["3"]);
    assert!(infos.iter().any(|i| i.multipv == Some(2)));
    assert!(e.answer("setoption name MultiPV value 1").is_empty());

    // Two players: `wtime` is player 1's clock, `btime` player 2's.
    assert!(e.answer("setoption name Players value 2").is_empty());
    assert!(e.answer("position startpos moves c3").is_empty());
    let (_, best) = e.go("go wtime 100000 btime 300 binc 0", &["2"]);
    let game =
        pyloff::Game::from_moves(pyloff_options(4, 2, pyloff::RuleSet::AllFreedoms), "c3").unwrap();
    assert!(game.position().is_legal(best.parse().unwrap()));
    e.send("go infinite");
    e.send("stop");
    let lines = e.until("bestmove ");
    let best = lines.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(game.position().is_legal(best.parse().unwrap()), "{best}");

    // Pondering: no bestmove before ponderhit, then a legal move and reply.
    assert!(e.answer("setoption name Ponder value true").is_empty());
    e.send("go ponder depth 3");
    std::thread::sleep(Duration::from_millis(300));
    assert!(!e.waiting().iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    let lines = e.until("bestmove ");
    let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
    let mv: pyloff::Move = words[1].parse().unwrap();
    assert!(game.position().is_legal(mv), "{words:?}");
    if let ["bestmove", _, "ponder", reply] = words[..] {
        let mut after = game.position().clone();
        after.play(mv).unwrap();
        assert!(after.is_legal(reply.parse().unwrap()), "{words:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Switching games.
// ---------------------------------------------------------------------------------------

#[test]
fn switching_games_resets_the_position_and_keeps_the_options() {
    let mut e = Engine::start();
    let ploy_start = e.position();
    assert!(
        e.answer("setoption name Variant value free-for-all")
            .is_empty()
    );
    assert!(e.answer("position startpos moves c1-c1-2").is_empty());
    let ploy_moved = e.position();
    assert_ne!(ploy_moved, ploy_start);

    // Choosing the current game changes nothing.
    assert!(e.answer("setoption name Game value ploy").is_empty());
    assert_eq!(e.position(), ploy_moved);

    assert!(e.answer("setoption name Game value pente").is_empty());
    assert!(e.answer("setoption name Size value 7").is_empty());
    assert!(e.answer("position startpos moves D4 A1").is_empty());
    assert_eq!(e.position(), "7/7/7/3w3/7/7/b6 w 0 0 t");
    assert!(e.answer("setoption name Game value Pyloff").is_empty());
    assert!(e.answer("setoption name Players value 4").is_empty());
    assert_eq!(
        e.position(),
        pyloff::Position::new(pyloff_options(6, 4, pyloff::RuleSet::Default)).to_string()
    );

    // Back to Pente: the start of a game on 7x7 (its option kept), not the moves.
    assert!(e.answer("setoption name Game value pente").is_empty());
    assert_eq!(e.position(), "7/7/7/7/7/7/7 w 0 0 t");
    // Back to Ploy: the start of a free-for-all game (its option kept).
    assert!(e.answer("setoption name game value PLOY").is_empty());
    e.send("position ffa");
    let ffa = e.position();
    assert!(e.answer("setoption name Game value pyloff").is_empty());
    assert!(e.answer("setoption name Game value ploy").is_empty());
    assert_eq!(e.position(), ffa);
    assert!(
        e.answer("setoption name Variant value two-player")
            .is_empty()
    );
    assert!(e.answer("ucinewgame").is_empty());
    assert_eq!(e.position(), ploy_start);
    // A Ploy search after all that, and Ploy's notation back.
    let (_, best) = e.go(
        "go depth 2",
        &["green", "red", "yellow", "blue", "green+yellow", "red+blue"],
    );
    assert_eq!(best.len(), 7, "{best}");
    e.refused("setoption name Size value 9", "not an option of ploy games");
}

/// The `Level` option of Pente and Pyloff: listed by `uci`, 1 to 8, refused outside with
/// the level's message and nothing changed; a level's searches replay for the same game.
#[test]
fn pente_and_pyloff_levels() {
    for (game, setup, go, views) in [
        (
            "pente",
            "position startpos moves K10 L11 N10",
            "go nodes 3000",
            &["white", "black"][..],
        ),
        (
            "pyloff",
            "position startpos moves c3 e5",
            "go nodes 2000",
            &["1", "2"][..],
        ),
    ] {
        let mut e = Engine::start();
        assert!(
            e.answer(&format!("setoption name Game value {game}"))
                .is_empty()
        );
        e.send("uci");
        let hello = e.until("uciok");
        assert!(
            hello.contains(&"option name Level type spin default 8 min 1 max 8".to_owned()),
            "{game}: {hello:?}"
        );
        let answer = e.answer(setup);
        assert!(answer.is_empty(), "{game}: {answer:?}");
        let before = e.position();
        for bad in ["0", "9", "x", ""] {
            e.refused(
                &format!("setoption name Level value {bad}"),
                "is not a level: a level is a whole number from 1 to 8",
            );
        }
        assert_eq!(
            e.position(),
            before,
            "{game}: a refused level changes nothing"
        );
        let mut answers = Vec::new();
        for level in ["1", "3", "8"] {
            assert!(
                e.answer(&format!("setoption name Level value {level}"))
                    .is_empty()
            );
            // The level leaves the game as it is.
            assert_eq!(e.position(), before, "{game} level {level}");
            let (_, first) = e.go(go, views);
            assert!(e.answer("ucinewgame").is_empty());
            assert!(e.answer(setup).is_empty());
            let (_, again) = e.go(go, views);
            assert_eq!(first, again, "{game} level {level}: the same move again");
            answers.push(first);
        }
        assert_eq!(answers.len(), 3);
    }
}

/// `setoption name Search value KIND` reaches the search of a four-player Pyloff game: each
/// multi-player kind answers exactly as the `pyloff` crate's engine with that kind does at
/// the same node budget (one `info` line, for the answer), the paranoid reduction reports
/// every iteration, and `default` is the engine's default search, line for line: BRS+ for
/// four players, the paranoid reduction for three and below level 8.
#[test]
fn the_search_option_reaches_pyloff_for_four_players() {
    use ploy_search::SearchOptions;
    use ploy_search::multi::SearchKind;

    let moves = "c3 e5 g7 i9 a1 k11";
    let options = pyloff_options(6, 4, pyloff::RuleSet::Default);
    let game = pyloff::Game::from_moves(options, moves).expect("a game");
    let pos = game.position().clone();
    let views = ["1", "2", "3", "4"];
    let mut e = Engine::start();
    assert!(e.answer("setoption name Game value pyloff").is_empty());
    assert!(e.answer("setoption name Players value 4").is_empty());
    let run = |e: &mut Engine, kind: &str| {
        assert!(
            e.answer(&format!("setoption name Search value {kind}"))
                .is_empty()
        );
        assert!(e.answer("ucinewgame").is_empty());
        assert!(
            e.answer(&format!("position startpos moves {moves}"))
                .is_empty()
        );
        e.send("go nodes 3000");
        let mut lines = e.until("bestmove ");
        let best = lines.pop().expect("bestmove");
        for l in &lines {
            parse_info(l, &views);
        }
        (lines, best)
    };
    let (paranoid_lines, _) = run(&mut e, "paranoid");
    assert!(
        paranoid_lines.len() > 1,
        "the paranoid reduction reports each iteration: {paranoid_lines:?}"
    );
    let mut brs_plus = None;
    for kind in [SearchKind::Brs, SearchKind::BrsPlus, SearchKind::Mcts] {
        let (lines, best) = run(&mut e, kind.name());
        if kind == SearchKind::BrsPlus {
            brs_plus = Some((lines.clone(), best.clone()));
        }
        let mut engine = pyloff::Engine::new().with_search_kind(kind);
        let expected = engine.search_root(
            &pyloff::SearchPosition::new(pos.clone()),
            &[],
            &pyloff::Limits::nodes(3000),
            &SearchOptions::default(),
            |_| {},
        );
        let mv = expected.best_move.expect("a move");
        assert!(pos.is_legal(mv));
        assert_eq!(best, format!("bestmove {mv}"), "{kind}");
        assert_eq!(lines.len(), 1, "{kind}: {lines:?}");
        assert!(
            lines[0].contains(&format!(" nodes {} ", expected.nodes)),
            "{kind}: {} nodes expected in {lines:?}",
            expected.nodes
        );
    }
    let (default_lines, default_best) = run(&mut e, "default");
    let strip_time = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| l.split(" nps ").next().unwrap_or(l).to_owned())
            .collect()
    };
    // Four players: the default is BRS+ (at level 8).
    let (brs_plus_lines, brs_plus_best) = brs_plus.expect("BRS+ ran");
    assert_eq!(pyloff::multi::default_search(4), SearchKind::BrsPlus);
    assert_eq!(default_best, brs_plus_best);
    assert_eq!(strip_time(&default_lines), strip_time(&brs_plus_lines));
    // Three players: the paranoid reduction; and below level 8 the paranoid reduction
    // whatever the number of players.
    assert!(e.answer("setoption name Players value 3").is_empty());
    let (paranoid_lines, paranoid_best) = run(&mut e, "paranoid");
    let (default_lines, default_best) = run(&mut e, "default");
    assert_eq!(pyloff::multi::default_search(3), SearchKind::Paranoid);
    assert_eq!(default_best, paranoid_best);
    assert_eq!(strip_time(&default_lines), strip_time(&paranoid_lines));
    assert!(e.answer("setoption name Players value 4").is_empty());
    assert!(e.answer("setoption name Level value 6").is_empty());
    let (paranoid_lines, paranoid_best) = run(&mut e, "paranoid");
    let (default_lines, default_best) = run(&mut e, "default");
    assert_eq!(default_best, paranoid_best);
    assert_eq!(strip_time(&default_lines), strip_time(&paranoid_lines));
}
