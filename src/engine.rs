//! The engine behind the `play` and `engine` examples: one object that searches a [`Game`]
//! of any variant the search supports, and the UCI-style line protocol of the `engine`
//! example (documented in `docs/PROTOCOL.md`).
//!
//! [`Engine`] searches every variant through [`PloyGame`]: two-player games with the two
//! sides, partnership games with the two teams as the sides, four-player free-for-all games
//! by the paranoid reduction (the player to move against all the others; see ploy-search's
//! docs).
//!
//! With the `cli` feature (the default) the protocol also plays Pente and Pyloff, chosen
//! by `setoption name Game value pente|pyloff` (through the `pente` and `pyloff` crates,
//! which the library without that feature does not depend on).

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use ploy_core::{
    BareCommander, Elimination, Game, Move, PartnerElimination, Position, Rotation, Rules, Seat,
    Variant,
};
use ploy_notation::{PositionString, UniversityMove, read_algebraic};
use ploy_search::{
    Config, Evaluation, Info, Limits, PloyGame, SearchOptions, SearchResult, Searcher,
};

/// The engine's name in the protocol's `id name` line.
pub const NAME: &str = concat!("ploy ", env!("CARGO_PKG_VERSION"));
/// The author in the protocol's `id author` line.
pub const AUTHOR: &str = "The ploy developers";
/// Default transposition table size in MiB (the `Hash` option).
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest table size the `Hash` option accepts, in MiB.
pub const MAX_HASH_MB: usize = 4096;
/// Most lines the `MultiPV` option accepts.
pub const MAX_MULTIPV: usize = 64;
/// The longest input line the protocol reads, in bytes; a longer line is refused whole.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// How long a search that has a budget may still run after the end of the input.
pub const END_OF_INPUT_GRACE: Duration = Duration::from_secs(10);

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
///
/// The table is allocated, and every page of it touched, when the engine is made and when
/// its size changes ([`Engine::set_hash_mb`]), never during a search: a large table costs
/// its time there, not in a move's time budget.
pub struct Engine {
    hash_mb: usize,
    searcher: Option<Searcher<PloyGame, Evaluation>>,
}

impl Engine {
    /// An engine with a transposition table of `hash_mb` MiB (clamped to
    /// 1..=[`MAX_HASH_MB`]), allocated now.
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        let mut engine = Engine {
            hash_mb: 0,
            searcher: None,
        };
        engine.set_hash_mb(hash_mb);
        engine
    }

    /// The table size in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Changes the table size (clamped to 1..=[`MAX_HASH_MB`]): the old table is freed
    /// first, then the new one allocated and every page of it touched, which may take
    /// seconds for a large table. Everything learnt is forgotten.
    pub fn set_hash_mb(&mut self, hash_mb: usize) {
        self.hash_mb = hash_mb.clamp(1, MAX_HASH_MB);
        self.searcher = None;
        let config = Config {
            table_bytes: self.hash_mb << 20,
            ..Config::default()
        };
        self.searcher = Some(Searcher::new(config, Evaluation::default()));
    }

    /// Forgets everything learnt (table, killers, history): for a new game. Clears every
    /// entry of the table (touching every page).
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
        self.search_with(game, limits, &SearchOptions::default(), observer)
    }

    /// [`Engine::search`] with [`SearchOptions`]: only some moves, several lines, a mate
    /// search, pondering (see ploy-search's `Searcher::search_with`).
    ///
    /// # Errors
    /// [`EngineError::Unsupported`] for a variant the search cannot play (none at present).
    pub fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions<Move>,
        observer: impl FnMut(&Info<'_, Move>),
    ) -> Result<SearchResult<Move>, EngineError> {
        let pos = game.position();
        if !Engine::supports(pos.variant()) {
            return Err(EngineError::Unsupported(pos.variant()));
        }
        if self.searcher.is_none() {
            self.set_hash_mb(self.hash_mb);
        }
        let searcher = self.searcher.as_mut().expect("made above");
        let root = searcher.evaluator().game(pos.clone());
        let history = root.history(game);
        Ok(searcher.search_with(&root, &history, limits, options, observer))
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}

/// At most `max` characters of `text`, with `...` when cut: what an error message quotes of
/// the input, however long the input is.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

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
        t => ploy_notation::protocol::read_position_arg(t.as_bytes(), rules),
    }
}

// ---------------------------------------------------------------------------------------
// The protocol.
// ---------------------------------------------------------------------------------------

// The other games of the protocol (the `Game` option): the game crates are dependencies of
// the `cli` feature only.
#[cfg(feature = "cli")]
mod games;
#[cfg(feature = "cli")]
mod pente_game;
#[cfg(feature = "cli")]
mod pyloff_game;

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
    /// The engines of the other games.
    #[cfg(feature = "cli")]
    games: games::Engines,
}

impl Default for Engines {
    fn default() -> Engines {
        Engines {
            ploy: None,
            hash_mb: DEFAULT_HASH_MB,
            #[cfg(feature = "cli")]
            games: games::Engines::default(),
        }
    }
}

impl Engines {
    fn ploy(&mut self) -> &mut Engine {
        let mb = self.hash_mb;
        self.ploy.get_or_insert_with(|| Engine::new(mb))
    }

    /// The `Hash` option: every engine made from now on gets a table of `mb` MiB; the
    /// engines made so far are dropped (the current game's engine is made again at once by
    /// its [`ProtocolGame::set_hash`] job).
    fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb;
        self.ploy = None;
        #[cfg(feature = "cli")]
        {
            self.games = games::Engines::default();
        }
    }
}

/// Work for the search thread, which runs it in the order sent.
type Job = Box<dyn FnOnce(&mut Engines) + Send>;

/// A search for the search thread: it writes its `info` lines and returns the `bestmove`
/// line.
type SearchJob = Box<dyn FnOnce(&mut Engines) -> String + Send>;

/// What a `go` asks for, whatever the game.
struct GoRequest {
    limits: Limits,
    /// When the `go` arrived: time budgets count from here.
    received: Instant,
    /// Lines to search (the `MultiPV` option).
    lines: usize,
    /// `go mate N`: a forced win within N of the engine's own moves.
    mate: Option<u32>,
    /// `go ponder`: raised by `ponderhit`.
    ponder: Option<Arc<AtomicBool>>,
    /// `go searchmoves ...`, as written.
    searchmoves: Vec<String>,
    /// Whether `bestmove` also names the expected reply (the `Ponder` option).
    ponder_move: bool,
}

/// One game the protocol can play: Ploy, and with the `cli` feature Pente and Pyloff
/// (chosen through the `Game` option; see the `games` module). Everything else (the threads, `go`,
/// `stop`, `ponderhit`, `isready`, the input) is common.
trait ProtocolGame: Send {
    /// The game's name, as the `Game` option writes it.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    fn name(&self) -> &'static str;
    /// Whether `go` can search several lines (the `MultiPV` option).
    fn has_multipv(&self) -> bool {
        true
    }
    /// The `option name ...` lines of this game's options.
    fn option_lines(&self) -> Vec<String>;
    /// Sets one of this game's options (`key`: the name in lower case without spaces or
    /// hyphens). `None` if it is not one of them; an error changes nothing.
    fn set_option(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>>;
    /// Work for the search thread that makes the table `mb` MiB.
    fn set_hash(&mut self, mb: usize) -> Job;
    /// Starts a new game; returns the work that clears the engine's tables.
    fn new_game(&mut self) -> Job;
    /// `position ...` (the words after `position`); an error changes nothing.
    fn set_position(&mut self, args: &[&str]) -> Result<(), String>;
    /// The lines `d` writes.
    fn show(&self) -> Vec<String>;
    /// The letters of the seats in `wtime`/`btime`-style words, and the letter of the
    /// player to move.
    fn clock_letters(&self) -> (&'static [char], char);
    /// The search for `request`, checked now (an error for bad `searchmoves`).
    fn search(&self, request: GoRequest, out: Out) -> Result<SearchJob, String>;
}

/// Ploy's settings: the rules new positions are played by, the variant of
/// `position startpos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PloySettings {
    variant: Variant,
    rules: Rules,
}

/// Ploy in the protocol.
struct PloyProtocol {
    settings: PloySettings,
    game: Game,
}

impl PloyProtocol {
    fn new() -> PloyProtocol {
        let settings = PloySettings {
            variant: Variant::TwoPlayer,
            rules: Rules::standard(),
        };
        PloyProtocol {
            settings,
            game: Game::new(settings.rules),
        }
    }

    /// The settings after option `key` is set to `value`, or why not.
    fn changed(&self, key: &str, name: &str, value: &str) -> Option<Result<PloySettings, String>> {
        let mut s = self.settings;
        let v = value.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "option `{}`: bad value `{}`",
                excerpt(name, QUOTE),
                excerpt(value, QUOTE)
            )
        };
        let yes_no = |v: &str| match v {
            "true" | "yes" | "on" | "1" => Ok(true),
            "false" | "no" | "off" | "0" => Ok(false),
            _ => Err(bad()),
        };
        let result = (|| {
            match key {
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
                _ => return Ok(None),
            }
            Ok(Some(s))
        })();
        result.transpose()
    }
}

impl ProtocolGame for PloyProtocol {
    fn name(&self) -> &'static str {
        "ploy"
    }

    fn option_lines(&self) -> Vec<String> {
        [
            "option name Variant type combo default two-player var two-player var free-for-all \
             var partnership",
            "option name Rules type combo default standard var standard var university",
            "option name Elimination type combo default strict var strict var relaxed",
            "option name Rotation type combo default any var any var single-step",
            "option name Repetition draw type check default true",
            "option name No-capture limit type spin default 200 min 0 max 65535",
            "option name Partner elimination type combo default absorbed var absorbed var \
             plays-on",
            "option name Bare commander type combo default stays var stays var removed",
        ]
        .map(str::to_owned)
        .to_vec()
    }

    fn set_option(&mut self, key: &str, name: &str, value: &str) -> Option<Result<(), String>> {
        let settings = match self.changed(key, name, value)? {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        // The rules of the current game follow the options (replayed from its start); only
        // when that works does anything change.
        let game = if settings.rules == self.settings.rules {
            None
        } else {
            let start = match self.game.start_position().with_rules(settings.rules) {
                Ok(start) => start,
                Err(e) => {
                    return Some(Err(format!(
                        "the current position under the new rules: {e}"
                    )));
                }
            };
            match Game::replay(start, self.game.moves().iter().copied()) {
                Ok(g) => Some(g),
                Err((i, e)) => {
                    return Some(Err(format!(
                        "move {} of the current game under the new rules: {e}; nothing \
                         changed",
                        i + 1
                    )));
                }
            }
        };
        self.settings = settings;
        if let Some(game) = game {
            self.game = game;
        }
        Some(Ok(()))
    }

    fn set_hash(&mut self, mb: usize) -> Job {
        Box::new(move |engines: &mut Engines| match &mut engines.ploy {
            Some(engine) => engine.set_hash_mb(mb),
            None => engines.ploy = Some(Engine::new(mb)),
        })
    }

    fn new_game(&mut self) -> Job {
        self.game =
            Game::from_position(Position::start(self.settings.variant, self.settings.rules));
        Box::new(|engines: &mut Engines| engines.ploy().clear())
    }

    fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let (pos_words, moves) = match args.iter().position(|&w| w == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let (variant, rules) = (self.settings.variant, self.settings.rules);
        let start = match pos_words {
            [] => return Err("expected `position startpos` or `position fen <string>`".into()),
            ["fen"] => return Err("`position fen` needs a position string".into()),
            ["fen", rest @ ..] => read_position_text(&rest.join(" "), variant, rules),
            [word] => read_position_text(word, variant, rules),
            [first, ..] => {
                return Err(format!(
                    "unexpected `{} ...`: expected `startpos`, `start`, `ffa`, `partnership` \
                     or `fen <string>`",
                    excerpt(first, QUOTE)
                ));
            }
        }
        .map_err(|e| excerpt(&e, 200))?;
        let mut game = Game::from_position(start);
        for (i, text) in moves.iter().enumerate() {
            let mv = read_move(&game, text).map_err(|e| format!("move {}: {e}", i + 1))?;
            game.play(mv)
                .map_err(|e| format!("move {} `{}`: {e}", i + 1, excerpt(text, QUOTE)))?;
        }
        self.game = game;
        Ok(())
    }

    fn show(&self) -> Vec<String> {
        let pos = self.game.position();
        let outcome = match self.game.outcome() {
            Some(o) => ploy_sheet::ResultText(Some(o)).to_string(),
            None => "ongoing".to_owned(),
        };
        vec![
            format!(
                "info string position {}",
                PositionString::from_position(pos)
            ),
            format!("info string outcome {outcome}"),
        ]
    }

    fn clock_letters(&self) -> (&'static [char], char) {
        let pos = self.game.position();
        let mover = pos.mover();
        if pos.variant() == Variant::TwoPlayer {
            // The two-player position string's side letters: `b` Green, `w` Red.
            (&['b', 'w'], if mover == Seat::Green { 'b' } else { 'w' })
        } else {
            (&['g', 'r', 'y', 'b'], ['g', 'r', 'y', 'b'][mover.index()])
        }
    }

    fn search(&self, request: GoRequest, out: Out) -> Result<SearchJob, String> {
        let game = self.game.clone();
        let mut root_moves = Vec::new();
        for text in &request.searchmoves {
            let mv = read_move(&game, text).map_err(|e| format!("`go searchmoves`: {e}"))?;
            root_moves.push(mv);
        }
        let mut options = SearchOptions::default()
            .with_root_moves(root_moves)
            .with_lines(request.lines);
        if let Some(n) = request.mate {
            options = options.with_mate_plies(mate_plies(game.position(), n));
        }
        if let Some(flag) = &request.ponder {
            options = options.with_ponder(flag.clone());
        }
        Ok(Box::new(move |engines: &mut Engines| {
            if let Some(o) = game.outcome() {
                // Decided, by the board or by a draw rule of the game (the position
                // alone may still have moves): nothing to search.
                let result = ploy_sheet::ResultText(Some(o));
                say(&out, &format!("info string game over: {result}"));
                return "bestmove none".to_owned();
            }
            let limits = count_from(request.limits, request.received, request.ponder.is_some());
            let result = engines
                .ploy()
                .search_with(&game, &limits, &options, |info| {
                    say(&out, &format!("info {info}"));
                });
            match result {
                Ok(r) => match r.best_move {
                    Some(mv) => {
                        let mut line = format!("bestmove {}", UniversityMove::from(mv));
                        if request.ponder_move {
                            if let Some(&reply) = r.pv.get(1).filter(|_| r.pv[0] == mv) {
                                line.push_str(&format!(" ponder {}", UniversityMove::from(reply)));
                            }
                        }
                        line
                    }
                    None => "bestmove none".to_owned(),
                },
                Err(e) => {
                    say(&out, &format!("info string error {e}"));
                    "bestmove none".to_owned()
                }
            }
        }))
    }
}

/// `go mate N` in plies: a forced win within `n` of the mover's own moves. With two sides
/// taking turns that is `2n - 1` plies; in free-for-all, with `p` players in play, the
/// others move between his turns: `(n - 1) p + 1` plies.
fn mate_plies(pos: &Position, n: u32) -> u32 {
    let n = n.clamp(1, 1000);
    let between = match pos.variant() {
        Variant::FreeForAll => pos.in_play().count().max(2),
        _ => 2,
    };
    (n - 1).saturating_mul(between).saturating_add(1)
}

/// The limits with their time budgets shortened by the time since `received` (unless the
/// search ponders: its budgets count from `ponderhit`).
fn count_from(mut limits: Limits, received: Instant, pondering: bool) -> Limits {
    if !pondering {
        let late = received.elapsed();
        limits.soft_time = limits.soft_time.map(|t| t.saturating_sub(late));
        limits.hard_time = limits.hard_time.map(|t| t.saturating_sub(late));
    }
    limits
}

/// Soft and hard time for one move from the time `left`, the increment and (if given) the
/// moves to the next time control: without it as [`Limits::clock`]; with `m` moves to go
/// (at most 30 counted), aim at `left / m + 3/4 increment` and never use more than
/// `4 left / (m + 3) + increment` (all of it for the last move), keeping 10 ms in reserve.
fn clock_budget(left: Duration, inc: Duration, moves_to_go: Option<u64>) -> (Duration, Duration) {
    match moves_to_go {
        None => {
            let c = Limits::clock(left, inc);
            (
                c.soft_time.unwrap_or_default(),
                c.hard_time.unwrap_or_default(),
            )
        }
        Some(m) => {
            let m = m.clamp(1, 30) as u32;
            let usable = left.saturating_sub(Duration::from_millis(10));
            let target = (usable / m).saturating_add(inc * 3 / 4).min(usable);
            let hard = (usable * 4 / (m + 3)).saturating_add(inc).min(usable);
            (target / 2, hard)
        }
    }
}

/// The search running on the search thread.
struct Running {
    stop: Arc<AtomicBool>,
    /// `go infinite` or `go ponder` before `ponderhit`: stopped, not waited for, when
    /// another command needs the thread or the input ends.
    open_ended: bool,
    /// The `ponderhit` flag of a pondering search.
    ponder: Option<Arc<AtomicBool>>,
}

/// The common options (`Hash` goes to the game's engine).
struct Options {
    multipv: usize,
    ponder: bool,
}

/// The protocol's state on the input side.
struct Session {
    game: Box<dyn ProtocolGame>,
    options: Options,
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<()>,
    /// Jobs sent and not yet done.
    pending: usize,
    running: Option<Running>,
    out: Out,
    /// The games not chosen now, kept with their options.
    #[cfg(feature = "cli")]
    parked: games::Parked,
}

impl Session {
    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn error(&self, why: &str) {
        self.say(&format!(
            "info string error {}",
            excerpt(why, MAX_ERROR_CHARS)
        ));
    }

    fn send(&mut self, job: Job) {
        if self.jobs.send(job).is_ok() {
            self.pending += 1;
        }
    }

    /// Notes the jobs done so far.
    fn poll(&mut self) {
        while self.pending > 0 && self.done.try_recv().is_ok() {
            self.pending -= 1;
        }
        if self.pending == 0 {
            self.running = None;
        }
    }

    /// Waits until every job sent is done.
    fn wait_idle(&mut self) {
        while self.pending > 0 {
            if self.done.recv().is_err() {
                self.pending = 0;
            }
            self.pending = self.pending.saturating_sub(1);
        }
        self.running = None;
    }

    /// Waits for the search thread; a search without an end of its own (`go infinite`,
    /// pondering) is stopped first.
    fn finish(&mut self) {
        if let Some(run) = &self.running {
            if run.open_ended
                || run
                    .ponder
                    .as_ref()
                    .is_some_and(|p| !p.load(Ordering::Relaxed))
            {
                run.stop.store(true, Ordering::Relaxed);
            }
        }
        self.wait_idle();
    }

    /// Stops the running search, if any, and waits for its `bestmove` (with no search
    /// running, returns at once even while a table is being made).
    fn stop(&mut self) {
        if let Some(run) = &self.running {
            run.stop.store(true, Ordering::Relaxed);
            self.wait_idle();
        }
    }

    /// At the end of the input: an open-ended search stops at once, one with a budget
    /// gets at most [`END_OF_INPUT_GRACE`] more.
    fn end_of_input(&mut self) {
        self.poll();
        if let Some(run) = &self.running {
            let pondering = run
                .ponder
                .as_ref()
                .is_some_and(|p| !p.load(Ordering::Relaxed));
            let stop = run.stop.clone();
            if run.open_ended || pondering {
                stop.store(true, Ordering::Relaxed);
            } else {
                let deadline = Instant::now() + END_OF_INPUT_GRACE;
                while self.pending > 0 {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match self.done.recv_timeout(left) {
                        Ok(()) => self.pending -= 1,
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => {
                            self.pending = 0;
                        }
                    }
                }
            }
        }
        self.wait_idle();
    }

    fn hello(&self) {
        self.say(&format!("id name {NAME}"));
        self.say(&format!("id author {AUTHOR}"));
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
        ));
        if self.game.has_multipv() {
            self.say(&format!(
                "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
            ));
        }
        self.say("option name Ponder type check default false");
        for line in self.game.option_lines() {
            self.say(&line);
        }
        #[cfg(feature = "cli")]
        self.say(games::GAME_OPTION_LINE);
        self.say("uciok");
    }

    /// Handles one line; `false` ends the session.
    fn line(&mut self, line: &str) -> bool {
        self.poll();
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
            "isready" => {
                // During a search at once; otherwise when the work before it (a new table,
                // a cleared one) is done.
                if self.running.is_none() {
                    self.wait_idle();
                }
                self.say("readyok");
            }
            "stop" => self.stop(),
            "ponderhit" => match &self.running {
                Some(Running {
                    ponder: Some(flag), ..
                }) if !flag.load(Ordering::Relaxed) => flag.store(true, Ordering::Relaxed),
                _ => self.error("`ponderhit` without a `go ponder` pondering"),
            },
            "newgame" | "ucinewgame" => {
                self.finish();
                let job = self.game.new_game();
                self.send(job);
            }
            "setoption" => {
                self.finish();
                if let Err(e) = self.set_option(args) {
                    self.error(&e);
                }
            }
            "position" => {
                self.finish();
                if let Err(e) = self.game.set_position(args) {
                    self.error(&e);
                }
            }
            "go" => {
                self.finish();
                if let Err(e) = self.go(args) {
                    self.error(&e);
                }
            }
            "d" | "show" => {
                for line in self.game.show() {
                    self.say(&line);
                }
            }
            other => self.error(&format!(
                "unknown command `{}`; expected uci, isready, setoption, newgame, position, go, \
                 stop, ponderhit, d or quit",
                excerpt(other, QUOTE)
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
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let v = value.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "option `{}`: bad value `{}`",
                excerpt(&name, QUOTE),
                excerpt(&value, QUOTE)
            )
        };
        match key.as_str() {
            "hash" => {
                let mb: usize = v.parse().map_err(|_| bad())?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(format!(
                        "option `Hash`: {mb} is not within 1..={MAX_HASH_MB}"
                    ));
                }
                let job = self.game.set_hash(mb);
                self.send(Box::new(move |engines: &mut Engines| {
                    engines.set_hash_mb(mb);
                    job(engines);
                }));
            }
            "multipv" if !self.game.has_multipv() => {
                return Err(self.not_here(&name));
            }
            "multipv" => {
                let k: usize = v.parse().map_err(|_| bad())?;
                if !(1..=MAX_MULTIPV).contains(&k) {
                    return Err(format!(
                        "option `MultiPV`: {k} is not within 1..={MAX_MULTIPV}"
                    ));
                }
                self.options.multipv = k;
            }
            "ponder" => {
                self.options.ponder = match v.as_str() {
                    "true" | "yes" | "on" | "1" => true,
                    "false" | "no" | "off" | "0" => false,
                    _ => return Err(bad()),
                };
            }
            #[cfg(feature = "cli")]
            "game" => self.choose_game(&value)?,
            _ => match self.game.set_option(&key, &name, &value) {
                Some(result) => result?,
                None => return Err(self.not_here(&name)),
            },
        }
        Ok(())
    }

    /// The error for an option the current game does not have: unknown, or (with the
    /// `cli` feature) an option of another game.
    fn not_here(&self, name: &str) -> String {
        #[cfg(feature = "cli")]
        if let Some(e) = games::other_games_option(name, self.game.as_ref()) {
            return e;
        }
        format!("unknown option `{}`", excerpt(name, QUOTE))
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let received = Instant::now();
        let (letters, mover) = self.game.clock_letters();
        let mut limits = Limits::default();
        let mut infinite = false;
        let mut ponder = false;
        let mut mate = None;
        let mut searchmoves = Vec::new();
        let mut own_time: Option<u64> = None;
        let mut own_inc: u64 = 0;
        let mut any_clock = false;
        let mut moves_to_go = None;
        let mut it = args.iter().peekable();
        while let Some(&word) = it.next() {
            let mut num = |what: &str| -> Result<u64, String> {
                let v = it
                    .next()
                    .ok_or_else(|| format!("`go {what}` needs a number"))?;
                v.parse::<u64>().map_err(|_| {
                    format!("`go {what}`: `{}` is not a whole number", excerpt(v, QUOTE))
                })
            };
            // Clock words: `time`/`inc` for the player to move, and `<letter>time`,
            // `<letter>inc` with the position string's letters of the seats.
            let clock_word = word
                .strip_suffix("time")
                .map(|l| (l, true))
                .or_else(|| word.strip_suffix("inc").map(|l| (l, false)))
                .filter(|(l, _)| l.chars().count() <= 1);
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
                    let t = Limits::move_time(Duration::from_millis(num("movetime")?.min(MAX_MS)));
                    limits.soft_time = t.soft_time;
                    limits.hard_time = t.hard_time;
                }
                "movestogo" => moves_to_go = Some(num("movestogo")?),
                "mate" => {
                    let n = num("mate")?;
                    if n == 0 {
                        return Err("`go mate`: the number of moves must be at least 1".into());
                    }
                    mate = Some(u32::try_from(n).unwrap_or(u32::MAX));
                }
                "infinite" => infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    while let Some(&&m) = it.peek() {
                        if GO_WORDS.contains(&m) || is_clock_word(m) {
                            break;
                        }
                        searchmoves.push(m.to_owned());
                        it.next();
                    }
                    if searchmoves.is_empty() {
                        return Err("`go searchmoves` needs at least one move".into());
                    }
                }
                _ => match clock_word {
                    Some((letter, is_time)) => {
                        let letter = letter.chars().next();
                        let own = match letter {
                            None => true,
                            Some(l) if letters.contains(&l) => l == mover,
                            Some(_) if letters.is_empty() => {
                                return Err(format!(
                                    "`go {}`: the players of this game have no clock \
                                     letters; give the clock of the player to move as \
                                     `time` and `inc`",
                                    excerpt(word, QUOTE)
                                ));
                            }
                            Some(_) => {
                                let list: Vec<String> =
                                    letters.iter().map(char::to_string).collect();
                                return Err(format!(
                                    "`go {word}`: the players of this position are {}",
                                    list.join(", ")
                                ));
                            }
                        };
                        let v = num(word)?.min(MAX_MS);
                        any_clock = true;
                        if own && is_time {
                            own_time = Some(v);
                        } else if own {
                            own_inc = v;
                        }
                    }
                    None => {
                        return Err(format!(
                            "`go`: unknown word `{}`; expected depth, nodes, movetime, wtime, \
                             btime, winc, binc (gtime, rtime, ytime, ginc, rinc, yinc in \
                             four-player games), time, inc, movestogo, mate, searchmoves, \
                             ponder or infinite",
                            excerpt(word, QUOTE)
                        ));
                    }
                },
            }
        }
        if let Some(t) = own_time {
            let (soft, hard) = clock_budget(
                Duration::from_millis(t),
                Duration::from_millis(own_inc),
                moves_to_go,
            );
            limits.soft_time = Some(limits.soft_time.map_or(soft, |s| s.min(soft)));
            limits.hard_time = Some(limits.hard_time.map_or(hard, |h| h.min(hard)));
        }
        if infinite {
            limits = Limits::default();
        } else if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.hard_time.is_none()
            && mate.is_none()
            && !(any_clock && own_time.is_some())
        {
            // A bare `go` (or one with only the others' clocks) thinks for one second.
            let t = Limits::move_time(Duration::from_secs(1));
            limits.soft_time = t.soft_time;
            limits.hard_time = t.hard_time;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_flag = ponder.then(|| Arc::new(AtomicBool::new(false)));
        let request = GoRequest {
            limits: limits.with_stop(stop.clone()),
            received,
            lines: self.options.multipv,
            mate,
            ponder: ponder_flag.clone(),
            searchmoves,
            ponder_move: self.options.ponder,
        };
        let search = self.game.search(request, self.out.clone())?;
        let out = self.out.clone();
        let (hold_stop, hold_ponder) = (stop.clone(), ponder_flag.clone());
        self.send(Box::new(move |engines: &mut Engines| {
            let answer = search(engines);
            // `go infinite` answers only when stopped, `go ponder` only after `ponderhit`
            // (or when stopped).
            loop {
                let stopped = hold_stop.load(Ordering::Relaxed);
                let pondering = hold_ponder
                    .as_ref()
                    .is_some_and(|p| !p.load(Ordering::Relaxed));
                if stopped || !(infinite || pondering) {
                    break;
                }
                thread::sleep(Duration::from_millis(2));
            }
            say(&out, &answer);
        }));
        self.running = Some(Running {
            stop,
            open_ended: infinite,
            ponder: ponder_flag,
        });
        Ok(())
    }
}

/// The longest time a `go` word may give, in milliseconds (more than 30 years); longer
/// times count as this.
const MAX_MS: u64 = 1 << 40;

/// The words of `go` that end a `searchmoves` list.
const GO_WORDS: [&str; 10] = [
    "depth",
    "nodes",
    "movetime",
    "movestogo",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "time",
    "inc",
];

fn is_clock_word(word: &str) -> bool {
    let stem = word
        .strip_suffix("time")
        .or_else(|| word.strip_suffix("inc"));
    stem.is_some_and(|l| l.len() == 1 && "wbgry".contains(l))
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes (without its line ending) into
/// `buf`. `Ok(None)` at the end of the input; `Ok(Some(false))` for a longer line, which is
/// skipped whole.
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> io::Result<Option<bool>> {
    buf.clear();
    let limit = MAX_LINE_BYTES as u64 + 1;
    let n = io::Read::take(&mut *input, limit).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Some(true));
    }
    if buf.len() <= MAX_LINE_BYTES {
        // The last line, without a line ending.
        return Ok(Some(true));
    }
    // Too long: skip to the end of the line without keeping it.
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        if let Some(i) = chunk.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            break;
        }
        let len = chunk.len();
        input.consume(len);
    }
    buf.clear();
    Ok(Some(false))
}

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
pub fn run_protocol(
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
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
        },
        jobs,
        done,
        pending: 0,
        running: None,
        out,
        #[cfg(feature = "cli")]
        parked: games::Parked::default(),
    };
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
