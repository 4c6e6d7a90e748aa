//! The engine protocol (UCI-style, documented in `docs/PROTOCOL.md`, also
//! [`crate::docs::protocol`]): [`run_protocol`] reads commands and writes answers, with the
//! search on a thread of its own; `ploy engine` runs it on standard input and output.
//!
//! The session ([`session`](self) module's `Session`) is common to every game; each game
//! the protocol plays is a `ProtocolGame` in a file of its own: Ploy in every variant
//! (through [`ploy_engine::Engine`]), and with the `cli` feature (the default) Pente and
//! Pyloff, chosen by `setoption name Game value pente|pyloff` (through the `pente` and
//! `pyloff` crates, which the library without that feature does not depend on).

use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use ploy_core::{Game, Move, Position, Rules, Variant};
use ploy_engine::{DEFAULT_HASH_MB, Engine};
use ploy_notation::read_algebraic;
use ploy_search::{MAX_THREADS, excerpt};

mod game;
#[cfg(feature = "cli")]
mod game_option;
#[cfg(feature = "cli")]
mod pente;
mod ploy;
#[cfg(feature = "cli")]
mod pyloff;
mod session;

use ploy::PloyProtocol;
use session::{Options, Session, read_line};

/// The engine's name in the protocol's `id name` line.
pub const NAME: &str = concat!("ploy ", env!("CARGO_PKG_VERSION"));
/// The author in the protocol's `id author` line.
pub const AUTHOR: &str = "The ploy developers";
/// Most lines the `MultiPV` option accepts.
pub const MAX_MULTIPV: usize = 64;
/// The longest input line the protocol reads, in bytes; a longer line is refused whole.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// How long a search that has a budget may still run after the end of the input.
pub const END_OF_INPUT_GRACE: Duration = Duration::from_secs(10);

/// How much of a word of the input an error message quotes.
const QUOTE: usize = 40;
/// The longest error line the protocol writes (a last guard; quotes are excerpts already).
const MAX_ERROR_CHARS: usize = 300;

/// Reads one move in either notation (university `e3-e4-0` or Tensi's algebraic `e3-e4`,
/// `c3+3`, `e7-d6+2`) and checks that it is legal in `game` now.
///
/// # Errors
/// A message that says what is wrong: malformed text, an illegal move (and why), or a game
/// that is over. It quotes at most 40 characters of `text`.
pub fn read_move(game: &Game, text: &str) -> Result<Move, String> {
    let quoted = excerpt(text, QUOTE);
    if let Some(o) = game.outcome() {
        return Err(format!(
            "`{quoted}`: the game is over ({})",
            ploy_sheet::ResultText(Some(o))
        ));
    }
    let mv = read_algebraic(game.position(), text).map_err(|e| format!("`{quoted}`: {e}"))?;
    if !game.is_legal(mv) {
        return Err(format!("`{quoted}`: not legal here"));
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
        t => ploy_notation::conformance::read_position_arg(t.as_bytes(), rules),
    }
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    // A closed output leaves nothing to tell; the loop ends at the end of the input.
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// What lives on the search thread: each game's engine, made there when first needed (a
/// game that joins the protocol adds its engine here).
struct Engines {
    ploy: Option<Engine>,
    /// The table size of the engines made from now on (the `Hash` option).
    hash_mb: usize,
    /// Ploy's search threads (the `Threads` option).
    threads: usize,
    /// The engines of the other games.
    #[cfg(feature = "cli")]
    games: game_option::Engines,
}

impl Default for Engines {
    fn default() -> Engines {
        Engines {
            ploy: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            #[cfg(feature = "cli")]
            games: game_option::Engines::default(),
        }
    }
}

impl Engines {
    fn ploy(&mut self) -> &mut Engine {
        let (mb, threads) = (self.hash_mb, self.threads);
        self.ploy.get_or_insert_with(|| {
            let mut engine = Engine::with_hash_mb(mb);
            engine.set_threads(threads);
            engine
        })
    }

    /// The `Threads` option: Ploy's engine searches with `threads` threads, now and when
    /// made again.
    fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
        if let Some(engine) = &mut self.ploy {
            engine.set_threads(threads);
        }
    }

    /// The `Hash` option: every engine made from now on gets a table of `mb` MiB; the
    /// engines made so far are dropped (the current game's engine is made again at once by
    /// its [`ProtocolGame::set_hash`] job).
    fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.ploy = None;
        #[cfg(feature = "cli")]
        {
            self.games = game_option::Engines::default();
        }
    }
}

/// Work for the search thread, which runs it in the order sent.
type Job = Box<dyn FnOnce(&mut Engines) + Send>;

/// A search for the search thread: it writes its `info` lines and returns the `bestmove`
/// line.
type SearchJob = Box<dyn FnOnce(&mut Engines) -> String + Send>;

/// Runs the engine protocol: reads commands from `input` until `quit` or its end, writes
/// the answers to `output`. The search runs on its own thread, so `stop`, `isready`,
/// `ponderhit` and `quit` are answered while it thinks.
///
/// Bad input is answered with an `info string error ...` line and changes nothing: a
/// line that is not UTF-8 or longer than [`MAX_LINE_BYTES`], an unknown command, a
/// malformed or refused one. At the end of the input a running `go infinite` or `go ponder`
/// stops at once, a search with a budget gets at most [`END_OF_INPUT_GRACE`] more; then it
/// answers and the function returns.
///
/// # Errors
/// Reading `input` failed.
pub fn run_protocol(input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    run_protocol_with(input, output, &ProtocolStart::default())
}

/// How a protocol session starts, before any `setoption`: the values `ploy engine`'s flags
/// give the common options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProtocolStart {
    /// The `Threads` option's value (and the default `uci` announces), 1..=[`MAX_THREADS`].
    pub threads: usize,
}

impl Default for ProtocolStart {
    fn default() -> ProtocolStart {
        ProtocolStart { threads: 1 }
    }
}

impl ProtocolStart {
    /// Starts with `threads` search threads (clamped to 1..=[`MAX_THREADS`]).
    #[must_use]
    pub fn with_threads(self, threads: usize) -> ProtocolStart {
        ProtocolStart {
            threads: threads.clamp(1, MAX_THREADS),
        }
    }
}

/// [`run_protocol`] with the common options starting as `start` says.
///
/// # Errors
/// Reading `input` failed.
pub fn run_protocol_with(
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
    start: &ProtocolStart,
) -> io::Result<()> {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let (jobs, job_rx) = mpsc::channel::<Job>();
    let (done_tx, done) = mpsc::channel();
    let worker = thread::spawn(move || {
        let mut engines = Engines::default();
        for job in job_rx {
            job(&mut engines);
            if done_tx.send(()).is_err() {
                break;
            }
        }
    });
    let mut session = Session {
        game: Box::new(PloyProtocol::new()),
        options: Options {
            multipv: 1,
            ponder: false,
            level: ploy_search::Level::MAX,
            search: None,
            start_threads: start.threads.clamp(1, MAX_THREADS),
        },
        jobs,
        done,
        pending: 0,
        running: None,
        out,
        #[cfg(feature = "cli")]
        parked: game_option::Parked::default(),
    };
    if session.options.start_threads > 1 {
        let n = session.options.start_threads;
        session.send(Box::new(move |engines: &mut Engines| {
            engines.set_threads(n)
        }));
    }
    let mut result = Ok(());
    let mut buf = Vec::new();
    loop {
        match read_line(&mut input, &mut buf) {
            Ok(None) => {
                session.end_of_input();
                break;
            }
            Ok(Some(false)) => session.error(&format!(
                "a line longer than {MAX_LINE_BYTES} bytes; ignored"
            )),
            Ok(Some(true)) => match std::str::from_utf8(&buf) {
                Ok(line) => {
                    if !session.line(line) {
                        break;
                    }
                }
                Err(e) => session.error(&format!(
                    "the line is not UTF-8 text (bad byte at {}); ignored",
                    e.valid_up_to() + 1
                )),
            },
            Err(e) => {
                session.end_of_input();
                result = Err(e);
                break;
            }
        }
    }
    session.wait_idle();
    drop(session);
    let _ = worker.join();
    result
}
