//! The terminal game of the `play` example: people against the engine, the engine against
//! itself, or people against each other, in every variant and under every rule option.
//!
//! The whole session is [`run`] over a line reader and a writer, so tests drive complete
//! games through it in-process; [`run_threaded`] reads the lines on a thread of its own so
//! that a clock can run out while nobody types; [`run_stdio`] is what the example runs: in
//! a terminal (with the default `cli` feature) a small line editor in raw mode that shows
//! the running clock in the prompt, otherwise plain lines (so a script can be piped in).
//! Colours are used only when asked ([`Options::colour`], which the example sets when
//! standard output is a terminal).
//!
//! Commands (also listed by `help`):
//!
//! | command | what it does |
//! |---|---|
//! | a move | `e3-e4`, `e4xf5`, `c3+3`, `e7-d6+2` (Tensi) or `e3-e4-0` (university) |
//! | `undo` | takes back a resignation, time forfeit or agreed draw (only that: the moves stay), or else the last move and the engine's moves before it, back to a person's turn |
//! | `redo` | plays again what `undo` took back; a new move forgets it |
//! | `hint` | the engine's suggestion for the side to move |
//! | `go` | the engine makes the next move, whoever's turn it is |
//! | `history` | the moves so far, numbered by round (the seat's letter before each move in four-player games), players who left, the result |
//! | `save <file> [force]` / `load <file>` | a game record; `load` reads score sheets too |
//! | `sheet <file> [force]` | exports the score sheet (tab-separated text) |
//! | `new [options]` | a new game: `two-player`, `ffa`, `partnership`, and rule words |
//! | `<seat> human\|engine`, `all human\|engine` | who plays a seat |
//! | `level N` | the engine's level, 1 (weakest) to 8 (full strength; [`ploy_engine::Level`]) |
//! | `budget time S \| clock M+I \| nodes N \| depth D` | the engine's search budget (called `level` before 0.2.0) |
//! | `view <seat>`, `flip` | the board from a seat's side (his corner at the bottom left in a free-for-all game), or turned round |
//! | `board`, `moves`, `position`, `rules`, `players` | show the board, legal moves, position string, rules, players |
//! | `resign` | the player to move resigns |
//! | `draw` | offers a draw: people agree at once, the engine may decline |
//! | `help`, `quit` | |
//!
//! A mistyped or illegal move is answered with what is wrong (by character, counting
//! from 1) and the same prompt; so is a line that is not UTF-8 text. Quitting (or starting
//! or loading another game) with unsaved moves asks for the command again.
//!
//! # Clocks
//!
//! With `budget clock M+I` (or `--clock`), every player has `M` minutes for the game and
//! gets `I` seconds after each move. The clock of the player to move runs while he thinks;
//! in a terminal the prompt shows it (`green 4:59.3> `), redrawn ten times a second in
//! place. At zero the game ends with a time forfeit (in a free-for-all game with two or
//! more opponents left, he leaves the game as when he resigns), also when nobody types.
//! `undo` takes the forfeit back and gives him his turn's time again; `undo` of a move
//! gives back the clocks as they were before it. While the engine waits after `undo`, its
//! clock stands still.
//!
//! # Choices where the rules are silent
//!
//! - **Resigning in a free-for-all game** with two or more opponents in play: the player
//!   leaves the game, and every piece he controls (his own and those he took over) leaves
//!   the board; nobody takes them over, and the others play on. With one opponent left, the
//!   opponent wins. The same for a time forfeit. Saved games keep it (ploy-sheet writes
//!   `resigns` / `out of time` in his column, `red-resigns` in a record).
//! - **The engine and draws**: `draw` is agreed at once among people. An engine playing an
//!   opponent of the player to move searches the position (as for `hint`) and declines when
//!   it judges its side winning: a score of at least [`DRAW_THRESHOLD`] (a shield) or a
//!   forced win in a game of two sides, an expected share of the win at least
//!   [`DRAW_SHARE_MARGIN`] of the way from an equal share to 100 % in a free-for-all game.
//! - **Scores** always say whose view they are: `+35 for Green` (two players), `for Green
//!   and Yellow` (partnership), `for Green against all, share 31%` (free-for-all: the
//!   paranoid search's score of the mover against all the others, and the mover's expected
//!   share of the win, [`ploy_engine::win_share`]).
//! - **Saving** never replaces a file that holds another game (or anything that is not a
//!   game) unless told `force`; a file holding an earlier state of the same game (the same
//!   start, its moves a beginning of this game's) is replaced without asking. The new text
//!   goes to a temporary file beside it, which is then renamed over it, so the file always
//!   holds one whole game. Saved games carry the date the game began (UTC) and the time
//!   control (or `untimed (engine: ...)`).
//! - **Levels**: the level (`level N`, `--level N`) weakens only the engine's own moves;
//!   `hint` and the engine's judgement of a draw offer search at full strength, at the
//!   budget. The seed of a weaker level's choices is `--seed` (0 unless given), so the same
//!   game at the same node or depth budget gets the same engine moves.
//! - **Loading** reads at most [`MAX_FILE_BYTES`]; `--load` of a file that cannot be loaded
//!   is an error before anything is shown.
//! - **The view** starts from the seat of the one person playing, if one person plays, and
//!   from Green's otherwise.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use ploy_core::{
    BareCommander, Elimination, PartnerElimination, PieceKind, Rotation, Rules, Seat, Variant,
};

mod commands;
mod files;
mod input;
mod render;
mod session;
#[cfg(feature = "cli")]
mod terminal;

use files::read_game_file;
#[cfg(feature = "cli")]
pub(crate) use files::{today, write_atomically};
use input::{Blocking, CLOCK_REDRAW, Threaded};
pub(crate) use input::{Event, Input};
use render::{char_count, count_moves, rules_text, secs};
use session::{Flow, Session};

/// The most `load` (and `--load`) reads of a file, in bytes: 16 MiB, far more than any
/// game needs (a record takes about 10 bytes a move). A longer file, or an endless one such
/// as `/dev/zero`, is refused with a message instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = ploy_sheet::MAX_BYTES;

/// The engine declines a draw offer when its search gives its side at least this score
/// (the value of a shield, the smallest piece: [`ploy_engine::EvalParams`]' material) or
/// a forced win; it accepts otherwise.
pub const DRAW_THRESHOLD: i16 = 100;

/// In a free-for-all game the engine declines a draw when its expected share of the win
/// ([`ploy_engine::win_share`]) is at least this part of the way from an equal share
/// (100 % / players in play) to 100 %: 0.28, the same margin as a score of
/// [`DRAW_THRESHOLD`] in a game of two sides (50 % to 64 %).
pub const DRAW_SHARE_MARGIN: f64 = 0.28;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person typing moves.
    Human,
    /// The engine.
    Engine,
}

/// How strong the engine plays: what limits its search for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A whole-game clock per player with an increment per move; the engine keeps to it,
    /// and a player whose clock reaches zero loses on time (see the [module docs](self)).
    Clock {
        /// Time per player for the whole game.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A node budget per move (the same moves on any machine).
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

impl std::fmt::Display for Strength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Strength::MoveTime(t) => write!(f, "{} s per move", secs(t)),
            Strength::Clock { base, increment } => write!(
                f,
                "{} min per game + {} s per move",
                secs(base / 60),
                secs(increment)
            ),
            Strength::Nodes(n) => write!(f, "{n} nodes per move"),
            Strength::Depth(d) => write!(f, "depth {d} per move"),
        }
    }
}

/// How a session starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The variant of the first game.
    pub variant: Variant,
    /// Its rules.
    pub rules: Rules,
    /// Who plays each seat, by seat index (Green, Red, Yellow, Blue).
    pub players: [Player; 4],
    /// The engine's search budget.
    pub strength: Strength,
    /// The engine's level: 8 (the default) is full strength at the budget, 1 to 7 weaker
    /// ([`ploy_engine::Engine::set_level`]).
    pub level: ploy_engine::Level,
    /// The seed of a weaker level's choices (0 by default): the same game and seed give the
    /// same engine moves at a node or depth budget.
    pub seed: u64,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// The engine's search in the free-for-all, `None` for the engine's default
    /// ([`ploy_engine::Engine::set_ffa_search`]; the other variants are two-sided).
    pub search: Option<ploy_search::multi::SearchKind>,
    /// ANSI colours.
    pub colour: bool,
    /// Rewrite one line while the engine thinks (for a terminal); otherwise each completed
    /// iteration gets its own line.
    pub live: bool,
    /// Repeat each input line after the prompt (for input that is not a terminal, so that
    /// the transcript reads like a session).
    pub echo: bool,
    /// A game record or score sheet to load at the start.
    pub load: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::TwoPlayer,
            rules: Rules::standard(),
            players: [
                Player::Human,
                Player::Engine,
                Player::Engine,
                Player::Engine,
            ],
            strength: Strength::MoveTime(Duration::from_secs(2)),
            level: ploy_engine::Level::MAX,
            seed: 0,
            hash_mb: crate::engine::DEFAULT_HASH_MB,
            search: None,
            colour: false,
            live: false,
            echo: false,
            load: None,
        }
    }
}

fn seat_from_name(name: &str) -> Option<Seat> {
    Seat::ALL
        .into_iter()
        .find(|s| s.name().eq_ignore_ascii_case(name))
}

fn parse_player(text: &str) -> Result<Player, String> {
    match text {
        "human" | "person" | "h" => Ok(Player::Human),
        "engine" | "computer" | "e" => Ok(Player::Engine),
        _ => Err(format!("`{text}`: expected human or engine")),
    }
}

fn parse_variant(text: &str) -> Option<Variant> {
    match text {
        "two-player" | "2" | "two" => Some(Variant::TwoPlayer),
        "ffa" | "free-for-all" => Some(Variant::FreeForAll),
        "partnership" | "teams" => Some(Variant::Partnership),
        _ => None,
    }
}

fn parse_seconds(text: &str) -> Option<Duration> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && (0.0..1e9).contains(&s)).then(|| Duration::from_secs_f64(s))
}

fn parse_strength(kind: &str, value: &str) -> Result<Strength, String> {
    let bad = || format!("{kind}: `{value}` is not valid here");
    Ok(match kind {
        "time" => Strength::MoveTime(
            parse_seconds(value)
                .filter(|d| !d.is_zero())
                .ok_or_else(bad)?,
        ),
        "clock" => {
            let (m, i) = value.split_once('+').unwrap_or((value, "0"));
            let base = parse_seconds(m).ok_or_else(bad)? * 60;
            let increment = parse_seconds(i).ok_or_else(bad)?;
            if base.is_zero() {
                return Err(bad());
            }
            Strength::Clock { base, increment }
        }
        "nodes" => Strength::Nodes(value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?),
        "depth" => Strength::Depth(
            value
                .parse()
                .ok()
                .filter(|d| (1..=100).contains(d))
                .ok_or_else(bad)?,
        ),
        _ => {
            return Err(format!(
                "unknown strength `{kind}`: time, clock, nodes or depth"
            ));
        }
    })
}

/// Applies the words of `new` (variant and rule words) to a variant and rules.
fn apply_new_words(words: &[&str], variant: &mut Variant, rules: &mut Rules) -> Result<(), String> {
    let mut it = words.iter();
    while let Some(&w) = it.next() {
        if let Some(v) = parse_variant(w) {
            *variant = v;
            continue;
        }
        match w {
            "standard" => *rules = Rules::standard(),
            "university" => *rules = Rules::university(),
            "strict" => rules.elimination = Elimination::Strict,
            "relaxed" => rules.elimination = Elimination::Relaxed,
            "any" => rules.rotation = Rotation::Any,
            "single-step" => rules.rotation = Rotation::SingleStep,
            "repetition" => rules.repetition_draw = true,
            "no-repetition" => rules.repetition_draw = false,
            "no-limit" => rules.no_capture_limit = None,
            "limit" => {
                let n: u16 = it
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("`limit` needs a number of plies")?;
                rules.no_capture_limit = Some(n);
            }
            "absorbed" => rules.partner_elimination = PartnerElimination::Absorbed,
            "plays-on" => rules.partner_elimination = PartnerElimination::PlaysOn,
            "stays" => rules.bare_commander = BareCommander::Stays,
            "removed" => rules.bare_commander = BareCommander::Removed,
            other => {
                return Err(format!(
                    "`new`: unknown word `{other}`; expected two-player, ffa, partnership, \
                     standard, university, strict, relaxed, any, single-step, repetition, \
                     no-repetition, limit N, no-limit, absorbed, plays-on, stays, removed"
                ));
            }
        }
    }
    Ok(())
}

const HELP: &str = "\
Moves: Tensi's notation (e3-e4, e4xf5, c3+3 = turn 3 steps counterclockwise,
c3-2 = 2 steps clockwise, e7-d6+2 = a shield moves and turns) or university
strings (e3-e4-0, c3-c3-5).
Commands:
  undo              take back the last move (and the engine's reply), or a
                    resignation, time forfeit or agreed draw (the moves stay)
  redo              play again what `undo` took back
  hint              the engine's suggestion
  go                let the engine make the next move
  history           the moves so far, numbered
  save FILE [force] save the game record (e.g. game.plg); `force` replaces a
                    file that holds another game
  load FILE         load a game record or a score sheet
  sheet FILE [force]  export the score sheet (tab-separated text, e.g. game.txt)
  new [WORDS]       a new game; WORDS: two-player ffa partnership standard
                    university strict relaxed any single-step repetition
                    no-repetition limit N no-limit absorbed plays-on stays
                    removed
  green engine      who plays a seat (green red yellow blue all; human engine)
  level N           the engine's level: 1 (weakest) to 8 (full strength)
  budget time S | clock M+I | nodes N | depth D    the engine's search budget
  view SEAT  flip   show the board from a seat's side; turn it round
  board  moves  position  rules  players           show things
  resign            the player to move resigns (free-for-all: he leaves the
                    game and his pieces leave the board; the others play on)
  draw              offer a draw: people agree at once, the engine declines
                    when it judges that it is winning
  help  quit";

pub use ploy_notation::{board_picture, board_picture_turned};

fn seat_char(seat: Seat) -> char {
    match seat {
        Seat::Green => 'g',
        Seat::Red => 'r',
        Seat::Yellow => 'y',
        Seat::Blue => 'b',
    }
}

fn title(seat: Seat) -> String {
    let n = seat.name();
    let mut c = n.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Shield => "shield",
        PieceKind::Probe => "probe",
        PieceKind::Lance => "lance",
        PieceKind::Commander => "commander",
    }
}

/// Runs a session: reads lines from `input` until `quit` or its end, writes everything to
/// `output`. Whenever the engine is to move it moves without waiting for input, so a game
/// the engine plays against itself runs to its end. A line that is not UTF-8 text is
/// answered as bad input and the session goes on.
///
/// Each line is waited for as long as it takes, so a person's clock is looked at when his
/// line comes (if his time ran out meanwhile, the game ends with a time forfeit then);
/// [`run_threaded`] ends it at zero without waiting for a line.
///
/// # Errors
/// Reading `input` or writing `output` failed, or the file of [`Options::load`] cannot be
/// loaded (then nothing is written).
pub fn run(input: impl BufRead, output: impl Write, options: Options) -> io::Result<()> {
    session(&mut Blocking(input), output, options)
}

/// [`run`] with `input` read by a thread of its own, so that a person's clock runs down
/// while the session waits for his line, and at zero the game ends with a time forfeit
/// without a line being typed.
///
/// # Errors
/// As [`run`].
pub fn run_threaded(
    input: impl BufRead + Send + 'static,
    output: impl Write,
    options: Options,
) -> io::Result<()> {
    session(&mut Threaded::new(input), output, options)
}

/// Runs a session on standard input and output: in a terminal (both of them terminals,
/// and the `cli` feature) with a line editor in raw mode that shows the player's running
/// clock in the prompt, redrawn in place ten times a second, without touching what he is
/// typing (arrows, Home/End, Backspace/Delete, Ctrl-U and the earlier lines with Up/Down
/// work as usual; Ctrl-C or Ctrl-D on an empty line end the session, and Ctrl-C while the
/// engine thinks leaves at once); otherwise as [`run_threaded`] over plain lines.
///
/// # Errors
/// As [`run`].
pub fn run_stdio(options: Options) -> io::Result<()> {
    #[cfg(feature = "cli")]
    {
        use std::io::IsTerminal as _;
        if io::stdin().is_terminal() && io::stdout().is_terminal() {
            return terminal::run(options);
        }
    }
    run_threaded(
        io::BufReader::new(io::stdin()),
        io::stdout().lock(),
        options,
    )
}

/// Loads the game of [`Options::load`], greets, and runs the loop.
pub(crate) fn session(
    input: &mut dyn Input,
    output: impl Write,
    options: Options,
) -> io::Result<()> {
    let loaded = match &options.load {
        Some(path) => Some(
            read_game_file(path)
                .map(|(f, g)| (path.clone(), f, g))
                .map_err(|e| io::Error::other(format!("cannot load {path}: {e}")))?,
        ),
        None => None,
    };
    let echo = options.echo;
    let mut s = Session::new(output, options);
    s.say(&format!(
        "Ploy ({}) - type `help` for the commands.",
        crate::protocol::NAME
    ))?;
    let msg = format!("Rules: {}.", rules_text(&s.game.rules(), s.variant()));
    s.say(&msg)?;
    s.players_text()?;
    s.check_players()?;
    match loaded {
        Some((path, format, saved)) => s.loaded(&path, format, saved)?,
        None => s.show_board()?,
    }
    let edits = input.edits();
    loop {
        if s.engine_to_move() {
            s.engine_move()?;
            continue;
        }
        if s.flag_fell()? {
            continue;
        }
        if !edits {
            s.prompt()?;
        }
        let event = loop {
            let running = s.running_clock();
            let wait = running.map(|left| if edits { left.min(CLOCK_REDRAW) } else { left });
            let prompt = s.prompt_text(edits && running.is_some());
            match input.next(&prompt, wait)? {
                // A redraw, or an early wake: the time is not up yet.
                Event::Tick if s.running_clock().is_some_and(|left| !left.is_zero()) => {}
                other => break other,
            }
        };
        let line = match event {
            Event::Tick => {
                input.suspend()?;
                if !edits {
                    writeln!(s.out)?;
                }
                s.flag_fell()?;
                continue;
            }
            Event::End => {
                input.suspend()?;
                writeln!(s.out)?;
                if s.dirty && !s.game.moves().is_empty() {
                    let n = count_moves(s.game.moves().len());
                    s.say(&format!("End of input: the game ({n}) was not saved."))?;
                }
                break;
            }
            Event::Line(line) => line,
        };
        let text = match std::str::from_utf8(&line) {
            Ok(text) => text,
            Err(e) => {
                if echo {
                    writeln!(s.out, "{}", String::from_utf8_lossy(&line).trim_end())?;
                }
                s.say(&format!(
                    "That line is not valid UTF-8 text (at character {}): ignored.",
                    char_count(&line[..e.valid_up_to()]) + 1
                ))?;
                continue;
            }
        };
        if echo {
            writeln!(s.out, "{}", text.trim_end())?;
        }
        if let Flow::Quit = s.command(text.trim())? {
            break;
        }
    }
    s.out.flush()
}
