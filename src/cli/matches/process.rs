//! An engine program as a player: driven over the engine protocol on its standard input
//! and output, so that another build (an older one, say) can be the opponent.
//!
//! What the match sends, and what it reads back:
//!
//! - At start: `uci` and `isready`, then it reads until `readyok` (up to 30 s), whether the
//!   program greets with its `id`/`option` block at once or only in answer to `uci`; the
//!   `id name` line is kept for the output. Then `setoption name <name> value <value>` for
//!   the match's rules (`Elimination`, `Rotation`, `Repetition draw`, `No-capture limit`,
//!   `Partner elimination`, `Bare commander`; for Pente and Pyloff instead `Game` and the
//!   game's options, see [`EngineProcess::start_with`]), then the options given on the
//!   command line, then `isready`: an `info string error` line before `readyok` means an option was
//!   refused, and the match stops with it.
//! - Each game: `ucinewgame` and `isready` (the program forgets its tables).
//! - Each move: `position startpos moves ...` (or `position ffa|partnership moves ...`, or
//!   `position fen <position string> moves ...` for another start; for Pente and Pyloff
//!   `position startpos moves ...` in the game's notation), with every move of the game so
//!   far, then `go movetime T` (or `go depth D`, `go nodes N`), and it reads until
//!   `bestmove <move>`. The last `nodes N` of the `info` lines is counted as the move's
//!   nodes.
//! - At the end: `quit`; a program that has not ended a second later is killed.
//!
//! The program loses the game when it ends or its pipes break (crashed: the exit status and
//! its last line on standard error are recorded), when `bestmove` does not come in time
//! (timed out: with a time budget, the time per move plus the margin, 5 s unless
//! `--timeout` says otherwise; with a depth or node budget, 60 s or `--timeout`), or when
//! its move is malformed, not legal, or `none` in an undecided game. After a crash or a
//! time-out it is shut down (killed if need be) and started again for the next game.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use ploy_core::{
    BareCommander, Elimination, Game, Move, PartnerElimination, Position, Rotation, Rules, Variant,
};
use ploy_notation::{PositionString, UniversityMove, read_algebraic};

use super::player::{Budget, Fault, FaultKind, Player, PlayerStats};
use crate::cli::excerpt;

/// An engine program: its path and the options to set (`(name, value)`, in order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessSpec {
    /// The program.
    pub path: PathBuf,
    /// Options sent with `setoption` after the rules.
    pub options: Vec<(String, String)>,
}

/// Reads `NAME=VALUE`, an engine option of the command line.
///
/// # Errors
/// A message when there is no `=` or the name is empty.
///
/// ```
/// use ploy::cli::matches::parse_option;
/// assert_eq!(parse_option("Hash=64"), Ok(("Hash".to_owned(), "64".to_owned())));
/// assert_eq!(parse_option("No-capture limit = 0").unwrap().0, "No-capture limit");
/// assert!(parse_option("Hash").is_err());
/// ```
pub fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() && !text.contains(['\n', '\r']) => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!(
            "`{}`: an engine option is NAME=VALUE, e.g. Hash=64",
            excerpt(text, 40)
        )),
    }
}

/// The longest line read from a program; the rest of a longer line is dropped.
const MAX_LINE: u64 = 64 * 1024;

/// How long the handshake, `ucinewgame` and `quit` may take.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Lines of the program's standard error kept for a crash report.
const STDERR_LINES: usize = 4;

/// A running program.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: thread::JoinHandle<()>,
}

/// An engine program playing a match (see the [module docs](self)).
pub struct EngineProcess {
    name: String,
    spec: ProcessSpec,
    /// The options that set the game and its rules, sent before the spec's.
    game_options: Vec<(String, String)>,
    budget: Budget,
    move_timeout: Duration,
    running: Option<Running>,
    about: Option<String>,
    stats: PlayerStats,
}

impl EngineProcess {
    /// Starts the program of `spec`, does the handshake and sets the rules and options.
    ///
    /// `timeout`: with a time budget, how long past it a move may take (default 5 s);
    /// otherwise how long a move may take (default 60 s).
    ///
    /// # Errors
    /// A message when the program cannot be started, does not finish the handshake, or
    /// refuses an option.
    pub fn start(
        name: String,
        spec: ProcessSpec,
        rules: Rules,
        budget: Budget,
        timeout: Option<Duration>,
    ) -> Result<EngineProcess, String> {
        let options = rule_options(rules)
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v))
            .collect();
        EngineProcess::start_with(name, spec, options, budget, timeout)
    }

    /// Starts the program of `spec` for any game: as [`EngineProcess::start`], with
    /// `game_options` (`(name, value)`, e.g. `("Game", "pente")`, `("Size", "9")`) sent
    /// before the spec's options instead of Ploy's rules.
    ///
    /// # Errors
    /// As [`EngineProcess::start`].
    pub fn start_with(
        name: String,
        spec: ProcessSpec,
        game_options: Vec<(String, String)>,
        budget: Budget,
        timeout: Option<Duration>,
    ) -> Result<EngineProcess, String> {
        let move_timeout = match budget {
            Budget::MoveTime(t) => t.saturating_add(timeout.unwrap_or(Duration::from_secs(5))),
            _ => timeout.unwrap_or(Duration::from_secs(60)),
        };
        let mut p = EngineProcess {
            name,
            spec,
            game_options,
            budget,
            move_timeout,
            running: None,
            about: None,
            stats: PlayerStats::default(),
        };
        p.launch().map_err(|f| {
            format!(
                "engine `{}`: {}",
                excerpt(&p.spec.path.display().to_string(), 80),
                f.detail
            )
        })?;
        Ok(p)
    }

    /// Starts the program and brings it to `readyok` with the rules and options set.
    fn launch(&mut self) -> Result<(), Fault> {
        let crashed = |detail: String| Fault::new(FaultKind::Crashed, detail);
        let mut child = Command::new(&self.spec.path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| crashed(format!("cannot start: {e}")))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(crashed("cannot open its pipes".to_owned()));
        };
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let keep = Arc::clone(&tail);
        let stderr_reader = thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            while let Some(line) = read_line(&mut reader) {
                if let Ok(mut t) = keep.lock() {
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            }
        });
        self.running = Some(Running {
            child,
            stdin,
            lines,
            stderr: tail,
            stderr_reader,
        });
        self.send("uci\nisready")?;
        let mut about = None;
        self.read_until(START_TIMEOUT, |line| {
            if let Some(name) = line.strip_prefix("id name ") {
                about = Some(name.trim().to_owned());
            }
            line == "readyok"
        })?;
        if about.is_some() {
            self.about = about;
        }
        let mut commands = self.game_options.clone();
        commands.extend(self.spec.options.iter().cloned());
        for (name, value) in &commands {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("isready")?;
        let mut refused = Vec::new();
        self.read_until(START_TIMEOUT, |line| {
            if let Some(why) = line.strip_prefix("info string error") {
                refused.push(why.trim().to_owned());
            }
            line == "readyok"
        })?;
        if !refused.is_empty() {
            self.shut_down();
            return Err(crashed(format!(
                "refused an option: {}",
                excerpt(&refused.join("; "), 200)
            )));
        }
        Ok(())
    }

    /// Writes `text` and a line end to the program.
    fn send(&mut self, text: &str) -> Result<(), Fault> {
        let Some(r) = self.running.as_mut() else {
            return Err(Fault::new(FaultKind::Crashed, "not running"));
        };
        let sent = writeln!(r.stdin, "{text}").and_then(|()| r.stdin.flush());
        if let Err(e) = sent {
            return Err(self.crash(&format!("cannot write to it: {e}")));
        }
        Ok(())
    }

    /// Reads lines until `done` says so, within `limit`.
    fn read_until(
        &mut self,
        limit: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + limit;
        loop {
            let Some(r) = self.running.as_ref() else {
                return Err(Fault::new(FaultKind::Crashed, "not running"));
            };
            let left = deadline.saturating_duration_since(Instant::now());
            match r.lines.recv_timeout(left) {
                Ok(line) => {
                    if done(line.trim()) {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.shut_down();
                    return Err(Fault::new(
                        FaultKind::TimedOut,
                        format!("no answer within {}", seconds(limit)),
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crash("its output ended"));
                }
            }
        }
    }

    /// The program ended or broke a pipe: a crash fault with its exit status and last words.
    fn crash(&mut self, what: &str) -> Fault {
        let mut detail = what.to_owned();
        if let Some(mut r) = self.running.take() {
            drop(r.stdin);
            let status = wait_for(&mut r.child, Duration::from_secs(1));
            match status {
                Some(s) => detail = format!("{what}; {}", exit_text(s)),
                None => {
                    let _ = r.child.kill();
                    let _ = r.child.wait();
                }
            }
            // The standard error reader reaches the end once the program has ended (give it
            // a second: a program's own child could hold the pipe open).
            let deadline = Instant::now() + Duration::from_secs(1);
            while !r.stderr_reader.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(5));
            }
            if let Some(last) = r
                .stderr
                .lock()
                .ok()
                .and_then(|t| t.iter().rev().find(|l| !l.trim().is_empty()).cloned())
            {
                detail = format!("{detail}; last words: {}", excerpt(last.trim(), 200));
            }
        }
        Fault::new(FaultKind::Crashed, detail)
    }

    /// Ends the program: `quit`, then a kill if it has not ended a second later.
    fn shut_down(&mut self) {
        if let Some(mut r) = self.running.take() {
            let _ = writeln!(r.stdin, "quit").and_then(|()| r.stdin.flush());
            drop(r.stdin);
            if wait_for(&mut r.child, Duration::from_secs(1)).is_none() {
                let _ = r.child.kill();
                let _ = r.child.wait();
            }
        }
    }

    /// Sends `position` (a whole `position ...` command) and `go` with the budget, and
    /// reads until `bestmove`: the move as the program wrote it, not checked (the caller
    /// reads it in its game's notation). The last `nodes N` of the `info` lines is counted.
    ///
    /// # Errors
    /// A [`Fault`] when the program crashes, does not answer in time, or answers
    /// `bestmove none` (or nothing) in an undecided game.
    pub fn best_move(&mut self, position: &str) -> Result<String, Fault> {
        let t = Instant::now();
        self.send(position)?;
        self.send(&format!("go {}", self.budget.go_words()))?;
        let mut nodes = 0;
        let mut answer = None;
        let result = self.read_until(self.move_timeout, |line| {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let mut words = words.peekable();
                    while let Some(w) = words.next() {
                        if w == "nodes" {
                            if let Some(n) = words.peek().and_then(|n| n.parse().ok()) {
                                nodes = n;
                            }
                        }
                        if w == "string" || w == "pv" {
                            break;
                        }
                    }
                    false
                }
                Some("bestmove") => {
                    answer = Some(words.next().unwrap_or_default().to_owned());
                    true
                }
                _ => false,
            }
        });
        self.stats.time += t.elapsed();
        result?;
        self.stats.moves += 1;
        self.stats.nodes += nodes;
        let answer = answer.unwrap_or_default();
        if answer == "none" || answer.is_empty() {
            return Err(Fault::new(
                FaultKind::NoMove,
                format!("`bestmove {answer}` in an undecided game"),
            ));
        }
        Ok(answer)
    }

    /// The `position` command for `game`.
    pub(super) fn position_command(game: &Game) -> String {
        let start = game.start_position();
        let standard = *start == Position::start(start.variant(), start.rules());
        let head = match start.variant() {
            Variant::TwoPlayer if standard => "position startpos".to_owned(),
            Variant::FreeForAll if standard => "position ffa".to_owned(),
            Variant::Partnership if standard => "position partnership".to_owned(),
            _ => format!("position fen {}", PositionString::from_position(start)),
        };
        if game.moves().is_empty() {
            head
        } else {
            let mut s = head;
            s.push_str(" moves");
            for &m in game.moves() {
                s.push(' ');
                s.push_str(&UniversityMove::from(m).to_string());
            }
            s
        }
    }
}

impl Player for EngineProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn about(&self) -> Option<String> {
        self.about.clone()
    }

    fn new_game(&mut self, _number: u32) -> Result<(), Fault> {
        if self.running.is_none() {
            self.launch().map_err(|f| {
                Fault::new(f.kind, format!("could not be started again: {}", f.detail))
            })?;
        }
        self.send("ucinewgame\nisready")?;
        self.read_until(START_TIMEOUT, |line| line == "readyok")
    }

    fn choose(&mut self, game: &Game) -> Result<Move, Fault> {
        let answer = self.best_move(&EngineProcess::position_command(game))?;
        let illegal = |why: String| {
            Fault::new(
                FaultKind::IllegalMove,
                format!("`{}`: {why}", excerpt(&answer, 40)),
            )
        };
        let mv = read_algebraic(game.position(), &answer).map_err(|e| illegal(e.to_string()))?;
        if !game.is_legal(mv) {
            return Err(illegal("not legal here".to_owned()));
        }
        Ok(mv)
    }

    fn stats(&self) -> PlayerStats {
        self.stats
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// The rule options that tell an engine program the match's rules.
pub(super) fn rule_options(rules: Rules) -> [(&'static str, String); 6] {
    [
        (
            "Elimination",
            match rules.elimination {
                Elimination::Strict => "strict",
                Elimination::Relaxed => "relaxed",
            }
            .to_owned(),
        ),
        (
            "Rotation",
            match rules.rotation {
                Rotation::Any => "any",
                Rotation::SingleStep => "single-step",
            }
            .to_owned(),
        ),
        ("Repetition draw", rules.repetition_draw.to_string()),
        (
            "No-capture limit",
            rules.no_capture_limit.map_or(0, |n| n).to_string(),
        ),
        (
            "Partner elimination",
            match rules.partner_elimination {
                PartnerElimination::Absorbed => "absorbed",
                PartnerElimination::PlaysOn => "plays-on",
            }
            .to_owned(),
        ),
        (
            "Bare commander",
            match rules.bare_commander {
                BareCommander::Stays => "stays",
                BareCommander::Removed => "removed",
            }
            .to_owned(),
        ),
    ]
}

/// One line from `reader` without its line end (at most [`MAX_LINE`] bytes of it, read
/// lossily as UTF-8); `None` at the end or on an error.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE)
        .read_until(b'\n', &mut buf)
        .ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE {
        // Drop the rest of an overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => break,
                Ok(_) if rest.last() == Some(&b'\n') => break,
                Ok(_) => {}
            }
        }
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// Waits up to `limit` for `child` to end.
fn wait_for(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            _ => return None,
        }
    }
}

/// `exit status 101`, `killed by signal 9`.
fn exit_text(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    "ended".to_owned()
}

/// A duration in seconds with one decimal: `5.1s`.
fn seconds(d: Duration) -> String {
    format!("{:.1}s", d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ploy_core::Square;

    #[test]
    fn position_commands() {
        let mut game = Game::new(Rules::standard());
        assert_eq!(EngineProcess::position_command(&game), "position startpos");
        game.play(Move::new(Square::E3, Square::E4, 0)).unwrap();
        assert_eq!(
            EngineProcess::position_command(&game),
            "position startpos moves e3-e4-0"
        );
        let ffa = Game::start(Variant::FreeForAll, Rules::standard());
        assert_eq!(EngineProcess::position_command(&ffa), "position ffa");
        let later = Game::from_position(game.position().clone());
        let cmd = EngineProcess::position_command(&later);
        assert!(
            cmd.starts_with("position fen ") && cmd.ends_with(" w"),
            "{cmd}"
        );
    }

    #[test]
    fn rules_as_options() {
        let rules = Rules::standard().with_no_capture_limit(None);
        let opts = rule_options(rules);
        assert!(opts.contains(&("Repetition draw", "true".to_owned())));
        assert!(opts.contains(&("No-capture limit", "0".to_owned())));
        assert!(opts.contains(&("Elimination", "strict".to_owned())));
    }

    #[test]
    fn long_lines_are_cut() {
        let mut text = "x".repeat(200_000);
        text.push_str("\nbestmove e3-e4-0\r\n");
        let mut r = BufReader::new(text.as_bytes());
        assert_eq!(read_line(&mut r).unwrap().len(), MAX_LINE as usize);
        assert_eq!(read_line(&mut r).unwrap(), "bestmove e3-e4-0");
        assert_eq!(read_line(&mut r), None);
    }

    #[test]
    fn options() {
        assert!(parse_option("=5").is_err());
        assert!(parse_option("Hash=1\nquit").is_err());
        assert_eq!(parse_option("A=b=c").unwrap().1, "b=c");
    }

    #[test]
    fn a_program_that_cannot_start() {
        let err = EngineProcess::start(
            "x".into(),
            ProcessSpec {
                path: "/nonexistent/engine".into(),
                options: Vec::new(),
            },
            Rules::standard(),
            Budget::Depth(1),
            None,
        )
        .err()
        .unwrap();
        assert!(err.contains("cannot start"), "{err}");
    }
}
