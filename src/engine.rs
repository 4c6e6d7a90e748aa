//! The engine behind the `play` and `engine` examples: one object that searches a [`Game`]
//! of any variant the search supports, and the UCI-style line protocol of the `engine`
//! example (documented in `docs/PROTOCOL.md`).
//!
//! [`Engine`] searches every variant through [`PloyGame`]: two-player games with the two
//! sides, partnership games with the two teams as the sides, four-player free-for-all games
//! by the paranoid reduction (the player to move against all the others; see ploy-search's
//! docs).

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use ploy_core::{
    BareCommander, Elimination, Game, Move, PartnerElimination, Position, Rotation, Rules, Variant,
};
use ploy_notation::{PositionString, UniversityMove, read_algebraic};
use ploy_search::{Config, Evaluation, Info, Limits, PloyGame, SearchResult, Searcher};

/// The engine's name in the protocol's `id name` line.
pub const NAME: &str = concat!("ploy ", env!("CARGO_PKG_VERSION"));
/// The author in the protocol's `id author` line.
pub const AUTHOR: &str = "The ploy developers";
/// Default transposition table size in MiB (the `Hash` option).
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest table size the `Hash` option accepts, in MiB.
pub const MAX_HASH_MB: usize = 4096;

/// Why the engine cannot search a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The search does not support this variant yet.
    #[error("the search does not support {} games yet", variant_name(*.0))]
    Unsupported(Variant),
}

/// The variant's name as the protocol and the score sheets write it.
#[must_use]
pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::FreeForAll => "free-for-all",
        Variant::Partnership => "partnership",
        _ => "two-player",
    }
}

/// Searches games of every variant, keeping one searcher (with its table) from move to move.
pub struct Engine {
    hash_mb: usize,
    searcher: Option<Searcher<PloyGame, Evaluation>>,
}

impl Engine {
    /// An engine with a transposition table of `hash_mb` MiB (at least 1).
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            hash_mb: hash_mb.clamp(1, MAX_HASH_MB),
            searcher: None,
        }
    }

    /// The table size in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Changes the table size; the table is made anew on the next search.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb.clamp(1, MAX_HASH_MB);
        self.searcher = None;
    }

    /// Forgets everything learnt (table, killers, history): for a new game.
    pub fn clear(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    /// Whether the engine can search games of `variant` (every variant, since the search
    /// has the paranoid reduction for free-for-all games).
    #[must_use]
    pub fn supports(variant: Variant) -> bool {
        matches!(
            variant,
            Variant::TwoPlayer | Variant::FreeForAll | Variant::Partnership
        )
    }

    fn config(&self) -> Config {
        Config {
            table_bytes: self.hash_mb << 20,
            ..Config::default()
        }
    }

    /// Searches the current position of `game` (its earlier positions count for
    /// repetitions) within `limits`, calling `observer` after every completed iteration.
    ///
    /// # Errors
    /// [`EngineError::Unsupported`] for a variant the search cannot play (none at present).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> Result<SearchResult<Move>, EngineError> {
        let pos = game.position();
        if !Engine::supports(pos.variant()) {
            return Err(EngineError::Unsupported(pos.variant()));
        }
        let config = self.config();
        let searcher = self
            .searcher
            .get_or_insert_with(|| Searcher::new(config, Evaluation::default()));
        let root = searcher.evaluator().game(pos.clone());
        let history = root.history(game);
        Ok(searcher.search(&root, &history, limits, observer))
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}

/// Reads one move in either notation (university `e3-e4-0` or Tensi's algebraic `e3-e4`,
/// `c3+3`, `e7-d6+2`) and checks that it is legal in `game` now.
///
/// # Errors
/// A message that says what is wrong: malformed text, an illegal move (and why), or a game
/// that is over.
pub fn read_move(game: &Game, text: &str) -> Result<Move, String> {
    if let Some(o) = game.outcome() {
        return Err(format!(
            "`{text}`: the game is over ({})",
            ploy_sheet::ResultText(Some(o))
        ));
    }
    let mv = read_algebraic(game.position(), text).map_err(|e| format!("`{text}`: {e}"))?;
    if !game.is_legal(mv) {
        return Err(format!("`{text}`: not legal here"));
    }
    Ok(mv)
}

/// Reads `start`, `startpos` (the start of `variant`), `ffa`, `partnership`, or a position
/// string of any variant, into a position played by `rules`.
///
/// # Errors
/// A message naming what is wrong with the text.
pub fn read_position_text(text: &str, variant: Variant, rules: Rules) -> Result<Position, String> {
    match text.trim() {
        "startpos" => Ok(Position::start(variant, rules)),
        "two-player" => Ok(Position::start(Variant::TwoPlayer, rules)),
        "free-for-all" => Ok(Position::start(Variant::FreeForAll, rules)),
        // `start`, `ffa`, `partnership` and position strings, as every example reads them.
        t => ploy_notation::protocol::read_position_arg(t.as_bytes(), rules),
    }
}

// ---------------------------------------------------------------------------------------
// The protocol.
// ---------------------------------------------------------------------------------------

/// The protocol's settings: the rules new positions are played by, the variant of
/// `position startpos`, and the table size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Settings {
    variant: Variant,
    rules: Rules,
    hash_mb: usize,
}

/// What the search thread is asked to do.
enum Job {
    Search {
        game: Box<Game>,
        limits: Limits,
        infinite: bool,
        stop: Arc<AtomicBool>,
    },
    Hash(usize),
    Clear,
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    // A closed output leaves nothing to tell; the loop ends at the end of the input.
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The search thread: owns the engine, answers every search with `bestmove`, and sends
/// `()` on `done` when a search has answered.
fn search_thread(jobs: mpsc::Receiver<Job>, done: mpsc::Sender<()>, out: Out) {
    let mut engine = Engine::default();
    for job in jobs {
        match job {
            Job::Hash(mb) => engine.set_hash_mb(mb),
            Job::Clear => engine.clear(),
            Job::Search {
                game,
                limits,
                infinite,
                stop,
            } => {
                let answer = if let Some(o) = game.outcome() {
                    // Decided, by the board or by a draw rule of the game (the position
                    // alone may still have moves): nothing to search.
                    let result = ploy_sheet::ResultText(Some(o));
                    say(&out, &format!("info string game over: {result}"));
                    "bestmove none".to_owned()
                } else {
                    match engine.search(&game, &limits, |info| {
                        say(&out, &format!("info {info}"));
                    }) {
                        Ok(result) => match result.best_move {
                            Some(mv) => format!("bestmove {}", UniversityMove::from(mv)),
                            None => "bestmove none".to_owned(),
                        },
                        Err(e) => {
                            say(&out, &format!("info string error {e}"));
                            "bestmove none".to_owned()
                        }
                    }
                };
                // `go infinite` answers only when told to stop.
                while infinite && !stop.load(Ordering::Relaxed) {
                    thread::sleep(Duration::from_millis(2));
                }
                say(&out, &answer);
                let _ = done.send(());
            }
        }
    }
}

/// A running search: its stop flag, and whether it runs until stopped.
struct Running {
    stop: Arc<AtomicBool>,
    infinite: bool,
}

/// The protocol's state on the input side.
struct Session {
    settings: Settings,
    game: Game,
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<()>,
    running: Option<Running>,
    out: Out,
}

impl Session {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, why: &str) {
        self.say(&format!("info string error {why}"));
    }

    /// Notices a search that has answered by itself.
    fn poll_done(&mut self) {
        if self.running.is_some() && self.done.try_recv().is_ok() {
            self.running = None;
        }
    }

    /// Waits for the running search, if any, to answer; an infinite one is stopped.
    fn finish(&mut self) {
        if let Some(run) = self.running.take() {
            if run.infinite {
                run.stop.store(true, Ordering::Relaxed);
            }
            let _ = self.done.recv();
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some(run) = self.running.take() {
            run.stop.store(true, Ordering::Relaxed);
            let _ = self.done.recv();
        }
    }

    fn hello(&self) {
        self.say(&format!("id name {NAME}"));
        self.say(&format!("id author {AUTHOR}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        self.say(
            "option name Variant type combo default two-player var two-player var free-for-all \
             var partnership",
        );
        self.say("option name Rules type combo default standard var standard var university");
        self.say("option name Elimination type combo default strict var strict var relaxed");
        self.say("option name Rotation type combo default any var any var single-step");
        self.say("option name Repetition draw type check default true");
        self.say("option name No-capture limit type spin default 200 min 0 max 65535");
        self.say(
            "option name Partner elimination type combo default absorbed var absorbed var plays-on",
        );
        self.say("option name Bare commander type combo default stays var stays var removed");
        self.say("uciok");
    }

    /// Handles one line; `false` ends the session.
    fn line(&mut self, line: &str) -> bool {
        self.poll_done();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return true;
        };
        match cmd {
            "quit" => {
                self.stop();
                return false;
            }
            "uci" => self.hello(),
            "isready" => self.say("readyok"),
            "stop" => self.stop(),
            "newgame" | "ucinewgame" => {
                self.finish();
                self.game = Game::from_position(Position::start(
                    self.settings.variant,
                    self.settings.rules,
                ));
                let _ = self.jobs.send(Job::Clear);
            }
            "setoption" => {
                self.finish();
                if let Err(e) = self.set_option(args) {
                    self.error(&e);
                }
            }
            "position" => {
                self.finish();
                match self.position(args) {
                    Ok(game) => self.game = game,
                    Err(e) => self.error(&e),
                }
            }
            "go" => {
                self.finish();
                if let Err(e) = self.go(args) {
                    self.error(&e);
                }
            }
            "d" | "show" => {
                let pos = self.game.position();
                self.say(&format!(
                    "info string position {}",
                    PositionString::from_position(pos)
                ));
                let outcome = match self.game.outcome() {
                    Some(o) => ploy_sheet::ResultText(Some(o)).to_string(),
                    None => "ongoing".to_owned(),
                };
                self.say(&format!("info string outcome {outcome}"));
            }
            other => self.error(&format!(
                "unknown command `{other}`; expected uci, isready, setoption, newgame, \
                 position, go, stop, d or quit"
            )),
        }
        true
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let (name, value) = match args {
            ["name", rest @ ..] => match rest.iter().position(|&w| w == "value") {
                Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
                None => (rest.join(" "), String::new()),
            },
            _ => return Err("expected `setoption name <option> value <value>`".to_owned()),
        };
        let key: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let v = value.trim().to_ascii_lowercase();
        let bad = || format!("option `{name}`: bad value `{value}`");
        let yes_no = |v: &str| match v {
            "true" | "yes" | "on" | "1" => Ok(true),
            "false" | "no" | "off" | "0" => Ok(false),
            _ => Err(bad()),
        };
        let s = &mut self.settings;
        match key.as_str() {
            "hash" => {
                let mb: usize = v.parse().map_err(|_| bad())?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(format!(
                        "option `Hash`: {mb} is not within 1..={MAX_HASH_MB}"
                    ));
                }
                s.hash_mb = mb;
                let _ = self.jobs.send(Job::Hash(mb));
            }
            "variant" => {
                s.variant = match v.as_str() {
                    "two-player" | "twoplayer" | "2" => Variant::TwoPlayer,
                    "free-for-all" | "freeforall" | "ffa" => Variant::FreeForAll,
                    "partnership" => Variant::Partnership,
                    _ => return Err(bad()),
                };
            }
            "rules" => {
                s.rules = match v.as_str() {
                    "standard" => Rules::standard(),
                    "university" => Rules::university(),
                    _ => return Err(bad()),
                };
            }
            "elimination" => {
                s.rules.elimination = match v.as_str() {
                    "strict" => Elimination::Strict,
                    "relaxed" => Elimination::Relaxed,
                    _ => return Err(bad()),
                };
            }
            "rotation" => {
                s.rules.rotation = match v.as_str() {
                    "any" => Rotation::Any,
                    "single-step" | "singlestep" => Rotation::SingleStep,
                    _ => return Err(bad()),
                };
            }
            "repetitiondraw" => s.rules.repetition_draw = yes_no(&v)?,
            "nocapturelimit" => {
                let n: u16 = v.parse().map_err(|_| bad())?;
                s.rules.no_capture_limit = (n > 0).then_some(n);
            }
            "partnerelimination" => {
                s.rules.partner_elimination = match v.as_str() {
                    "absorbed" => PartnerElimination::Absorbed,
                    "plays-on" | "playson" => PartnerElimination::PlaysOn,
                    _ => return Err(bad()),
                };
            }
            "barecommander" => {
                s.rules.bare_commander = match v.as_str() {
                    "stays" => BareCommander::Stays,
                    "removed" => BareCommander::Removed,
                    _ => return Err(bad()),
                };
            }
            _ => return Err(format!("unknown option `{name}`")),
        }
        // The rules of the current game follow the options (replayed from its start).
        if key != "hash" && key != "variant" {
            let start = self
                .game
                .start_position()
                .with_rules(self.settings.rules)
                .map_err(|e| format!("the current position under the new rules: {e}"))?;
            match Game::replay(start, self.game.moves().iter().copied()) {
                Ok(g) => self.game = g,
                Err((i, e)) => {
                    return Err(format!(
                        "move {} of the current game under the new rules: {e}",
                        i + 1
                    ));
                }
            }
        }
        Ok(())
    }

    fn position(&self, args: &[&str]) -> Result<Game, String> {
        let (pos_words, moves) = match args.iter().position(|&w| w == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match pos_words {
            [] => return Err("expected `position startpos` or `position fen <string>`".into()),
            ["fen"] => return Err("`position fen` needs a position string".into()),
            ["fen", rest @ ..] => {
                read_position_text(&rest.join(" "), self.settings.variant, self.settings.rules)?
            }
            [word] => read_position_text(word, self.settings.variant, self.settings.rules)?,
            [first, ..] => {
                return Err(format!(
                    "unexpected `{first} ...`: expected `startpos`, `start`, `ffa`, \
                     `partnership` or `fen <string>`"
                ));
            }
        };
        let mut game = Game::from_position(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = read_move(&game, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            game.play(mv)
                .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        }
        Ok(game)
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let mut limits = Limits::default();
        let mut infinite = false;
        let mut time: Option<u64> = None;
        let mut inc: u64 = 0;
        let mut it = args.iter();
        while let Some(&word) = it.next() {
            let mut num = |what: &str| -> Result<u64, String> {
                let v = it
                    .next()
                    .ok_or_else(|| format!("`go {what}` needs a number"))?;
                v.parse::<u64>()
                    .map_err(|_| format!("`go {what}`: `{v}` is not a whole number"))
            };
            match word {
                "depth" => {
                    let d = num("depth")?;
                    if d == 0 {
                        return Err("`go depth`: the depth must be at least 1".into());
                    }
                    limits.depth = Some(u32::try_from(d).unwrap_or(u32::MAX));
                }
                "nodes" => limits.nodes = Some(num("nodes")?),
                "movetime" => {
                    let t = Limits::move_time(Duration::from_millis(num("movetime")?));
                    limits.soft_time = t.soft_time;
                    limits.hard_time = t.hard_time;
                }
                "time" => time = Some(num("time")?),
                "inc" => inc = num("inc")?,
                "infinite" => infinite = true,
                other => {
                    return Err(format!(
                        "`go`: unknown word `{other}`; expected depth, nodes, movetime, time, \
                         inc or infinite"
                    ));
                }
            }
        }
        if let Some(t) = time {
            let c = Limits::clock(Duration::from_millis(t), Duration::from_millis(inc));
            limits.soft_time = c.soft_time;
            limits.hard_time = c.hard_time;
        }
        if infinite {
            limits = Limits::default();
        } else if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.hard_time.is_none()
            && time.is_none()
        {
            // A bare `go` searches for one second, as `analyze` does.
            let t = Limits::move_time(Duration::from_secs(1));
            limits.soft_time = t.soft_time;
            limits.hard_time = t.hard_time;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let limits = limits.with_stop(stop.clone());
        self.jobs
            .send(Job::Search {
                game: Box::new(self.game.clone()),
                limits,
                infinite,
                stop: stop.clone(),
            })
            .map_err(|_| "the search thread has ended".to_owned())?;
        self.running = Some(Running { stop, infinite });
        Ok(())
    }
}

/// Runs the engine protocol: reads commands from `input` until `quit` or its end, writes
/// the answers to `output`. The search runs on its own thread, so `stop`, `isready` and
/// `quit` are answered while it thinks. At the end of the input a running search answers
/// first (`go infinite` is stopped; any other search runs to its budget).
///
/// # Errors
/// Reading `input` failed.
pub fn run_protocol(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let (jobs, job_rx) = mpsc::channel();
    let (done_tx, done) = mpsc::channel();
    let thread_out = out.clone();
    let worker = thread::spawn(move || search_thread(job_rx, done_tx, thread_out));
    let settings = Settings {
        variant: Variant::TwoPlayer,
        rules: Rules::standard(),
        hash_mb: DEFAULT_HASH_MB,
    };
    let mut session = Session {
        settings,
        game: Game::new(settings.rules),
        jobs,
        done,
        running: None,
        out,
    };
    session.hello();
    let mut result = Ok(());
    for line in input.lines() {
        match line {
            Ok(line) => {
                if !session.line(&line) {
                    break;
                }
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    session.finish();
    drop(session);
    let _ = worker.join();
    result
}
