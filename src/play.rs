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
//! | `level time S \| clock M+I \| nodes N \| depth D` | the engine's strength |
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
//! With `level clock M+I` (or `--clock`), every player has `M` minutes for the game and
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
//! - **Loading** reads at most [`MAX_FILE_BYTES`]; `--load` of a file that cannot be loaded
//!   is an error before anything is shown.
//! - **The view** starts from the seat of the one person playing, if one person plays, and
//!   from Green's otherwise.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ploy_core::{
    BareCommander, Elimination, Ending, Game, Move, Outcome, PartnerElimination, Piece, PieceKind,
    Position, Rotation, Rules, Seat, Variant, WinReason,
};
use ploy_notation::{AlgebraicMove, ParseMoveError, PositionString, ReadMoveError, read_algebraic};
use ploy_search::{Info, Limits, Score, SearchResult};
use ploy_sheet::{ResultText, SavedGame};

use ploy_engine::Engine;

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

/// `1 move`, `2 moves`: a count of moves in a message.
fn count_moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_owned()
    } else {
        format!("{n} moves")
    }
}

fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
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
    /// The engine's strength.
    pub strength: Strength,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
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
            hash_mb: crate::engine::DEFAULT_HASH_MB,
            colour: false,
            live: false,
            echo: false,
            load: None,
        }
    }
}

impl Options {
    /// Reads the command-line options (without the program name) as the `play` example and
    /// `ploy play` do (`--help` lists them; the parser is `ploy::cli::play::PlayArgs`).
    ///
    /// # Errors
    /// clap's message naming the option that is wrong (or the help text for `--help`).
    #[cfg(feature = "cli")]
    pub fn from_args<I, S>(args: I) -> Result<Options, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        use clap::Parser as _;
        let args = std::iter::once("play".to_owned())
            .chain(args.into_iter().map(|a| a.as_ref().to_owned()));
        crate::cli::play::PlayArgs::try_parse_from(args)
            .map(|a| a.options())
            .map_err(|e| e.to_string())
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
  level time S | clock M+I | nodes N | depth D     the engine's strength
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

/// One move of the game, for messages: algebraic text and what it captured.
fn describe(before: &Position, mv: Move) -> (String, Option<Piece>) {
    let text = AlgebraicMove::from_move(before, mv).to_string();
    let captured = if mv.is_direction_move() {
        None
    } else {
        before.board().piece_at(mv.to())
    };
    (text, captured)
}

/// A principal variation in algebraic notation, played out from `pos`.
fn line_text(pos: &Position, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for &mv in pv {
        if !p.is_legal(mv) {
            break;
        }
        words.push(AlgebraicMove::from_move(&p, mv).to_string());
        if p.play(mv).is_err() {
            break;
        }
    }
    words.join(" ")
}

fn score_text(score: Score) -> String {
    if score.is_win() || score.is_loss() {
        score.to_string()
    } else {
        format!("{:+}", score.raw())
    }
}

fn rate(nps: u64) -> String {
    if nps >= 1_000_000 {
        format!("{:.1}M", nps as f64 / 1e6)
    } else if nps >= 1_000 {
        format!("{:.0}k", nps as f64 / 1e3)
    } else {
        nps.to_string()
    }
}

fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}.{}", s / 60, s % 60, d.subsec_millis() / 100)
}

fn is_time_forfeit_of(outcome: Outcome, seat: Seat) -> bool {
    matches!(
        outcome,
        Outcome::Win { winners, reason: WinReason::TimeForfeit }
            if !winners.contains(seat)
    )
}

fn rules_text(rules: &Rules, variant: Variant) -> String {
    let mut t = format!(
        "{}; elimination {}; rotation {}; repetition draw {}; no-capture limit {}",
        variant.name(),
        match rules.elimination {
            Elimination::Strict => "strict",
            _ => "relaxed",
        },
        match rules.rotation {
            Rotation::Any => "any",
            _ => "single-step",
        },
        if rules.repetition_draw { "on" } else { "off" },
        rules
            .no_capture_limit
            .map_or("none".to_owned(), |n| format!("{n} plies")),
    );
    if variant.is_four_player() {
        let _ = write!(
            t,
            "; eliminated partner {}; bare commander {}",
            match rules.partner_elimination {
                PartnerElimination::Absorbed => "absorbed",
                _ => "plays on",
            },
            match rules.bare_commander {
                BareCommander::Stays => "stays",
                _ => "removed",
            }
        );
    }
    t
}

/// Today's date in UTC as `YYYY-MM-DD` (the proleptic Gregorian calendar).
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days(secs / 86_400);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The calendar date `days` days after 1970-01-01.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // Eras of 400 years (146,097 days) from 0000-03-01, as in Howard Hinnant's algorithm.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// `items` joined by `, ` into lines of at most `width` columns, each line starting with
/// `indent` (an item longer than a line gets a line of its own).
fn wrap_items(items: &[String], indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for (i, item) in items.iter().enumerate() {
        let sep = if i + 1 < items.len() { "," } else { "" };
        let piece = format!("{item}{sep}");
        let fresh = line.len() == indent.len();
        let needed = if fresh { piece.len() } else { piece.len() + 1 };
        if !fresh && line.chars().count() + needed > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(&line);
    out
}

/// Reads a move typed by a person; errors name the character where the text goes wrong
/// (counting from 1), not the byte.
fn read_typed_move(game: &Game, text: &str) -> Result<Move, String> {
    if let Some(o) = game.outcome() {
        return Err(format!(
            "`{text}`: the game is over ({})",
            ResultText(Some(o))
        ));
    }
    match read_algebraic(game.position(), text) {
        Ok(mv) if game.is_legal(mv) => Ok(mv),
        Ok(_) => Err(format!("`{text}`: not legal here")),
        Err(ReadMoveError::Malformed(e)) => Err(format!("`{text}`: {}", malformed(text, &e))),
        Err(e) => Err(format!("`{text}`: {e}")),
    }
}

/// What is wrong with a malformed move, by character.
fn malformed(text: &str, e: &ParseMoveError) -> String {
    let offset = e.offset().min(text.len());
    let at = (0..=offset)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let n = text[..at].chars().count() + 1;
    let found = text[at..]
        .chars()
        .next()
        .map_or("the end of the move".to_owned(), |c| match c {
            ' ' => "a space".to_owned(),
            c if c.is_control() => format!("the control character {}", c.escape_unicode()),
            c => format!("`{c}`"),
        });
    let expected = match e {
        ParseMoveError::Length { .. } => {
            return format!(
                "expected exactly 7 characters such as `e3-e4-0`, found {}",
                text.chars().count()
            );
        }
        ParseMoveError::File { .. } => "a file `a`..`i`",
        ParseMoveError::Rank { .. } => "a rank `1`..`9`",
        ParseMoveError::Unexpected { expected, .. } => expected,
        ParseMoveError::Rotation { .. } => "a rotation digit `0`..`7`",
        ParseMoveError::Trailing { .. } => "the end of the move",
        other => return other.to_string(),
    };
    format!("character {n}: expected {expected}, found {found}")
}

/// The number of characters of `valid`, UTF-8 text.
fn char_count(valid: &[u8]) -> usize {
    std::str::from_utf8(valid).map_or(valid.len(), |t| t.chars().count())
}

/// Reads a game record or score sheet, at most [`MAX_FILE_BYTES`] of it.
fn read_game_file(path: &str) -> Result<(ploy_sheet::Format, SavedGame), String> {
    let text = read_bounded(Path::new(path)).map_err(|e| e.to_string())?;
    ploy_sheet::read(&text).map_err(|e| e.to_string())
}

/// The text of the file at `path`, refused when it is longer than [`MAX_FILE_BYTES`] or not
/// UTF-8 text.
fn read_bounded(path: &Path) -> io::Result<String> {
    ploy_sheet::load_text(path).map_err(|e| match e {
        ploy_sheet::LoadError::Io(e) => e,
        ploy_sheet::LoadError::TooLarge { .. } => io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the file is larger than the limit of {} MiB for a game",
                MAX_FILE_BYTES >> 20
            ),
        ),
        other => io::Error::new(io::ErrorKind::InvalidData, format!("the file: {other}")),
    })
}

/// Why writing `game` to `path` would lose another game, if it would: the file exists and
/// is not an earlier state of this game (the same start and rules, its moves a beginning
/// of this game's moves).
fn replaces_another_game(path: &Path, game: &Game) -> Option<&'static str> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
        Err(_) => return Some("cannot be checked"),
        Ok(m) if m.len() == 0 && m.is_file() => return None,
        Ok(m) if !m.is_file() && !m.file_type().is_symlink() => return Some("is not a file"),
        Ok(_) => {}
    }
    let Ok(text) = read_bounded(path) else {
        return Some("holds something else than a game");
    };
    let Ok((_, old)) = ploy_sheet::read(&text) else {
        return Some("holds something else than a game");
    };
    let same = old.game.start_position() == game.start_position()
        && old.game.moves().len() <= game.moves().len()
        && game.moves().starts_with(old.game.moves());
    (!same).then_some("holds another game")
}

/// Writes `bytes` to a new temporary file beside `path` and renames it over `path`, so
/// that `path` holds either the old text or the whole new one, never a part.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    // A symbolic link is followed: its target is replaced, the link stays.
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = if target == path {
        dir.to_path_buf()
    } else {
        target
            .parent()
            .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(target.file_name().unwrap_or(name));
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let _ = std::fs::remove_file(&tmp); // a leftover of this process id
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What `undo` says it took back.
fn ending_text(e: Ending) -> String {
    match e {
        Ending::Result(Outcome::Draw { .. }) => "the agreed draw".into(),
        Ending::Result(Outcome::Win { reason, .. }) => match reason {
            WinReason::TimeForfeit => "the time forfeit".into(),
            _ => "the resignation".into(),
        },
        Ending::Withdrawal(w) => match w.reason {
            WinReason::TimeForfeit => format!("{}'s time forfeit", title(w.seat)),
            _ => format!("{}'s resignation", title(w.seat)),
        },
    }
}

/// Records again an ending that `undo` took back.
fn redo_ending(game: &mut Game, e: Ending) -> Result<(), ploy_core::GameError> {
    let (seat, reason) = match e {
        Ending::Withdrawal(w) => (w.seat, w.reason),
        Ending::Result(Outcome::Win { winners, reason }) => {
            let loser = game
                .position()
                .in_play()
                .iter()
                .find(|&s| !winners.contains(s))
                .ok_or(ploy_core::GameError::NothingToUndo)?;
            (loser, reason)
        }
        Ending::Result(_) => return game.agree_draw(),
    };
    if reason == WinReason::TimeForfeit {
        game.forfeit_on_time(seat)
    } else {
        game.resign(seat)
    }
}

/// The game's moves, numbered by round (a round ends when the turn comes back round), the
/// seat's letter before each move in four-player games, players who left, and the result.
fn history_text(game: &Game) -> String {
    let variant = game.position().variant();
    let four = variant.is_four_player();
    let mut rounds: Vec<Vec<String>> = Vec::new();
    let mut last: Option<usize> = None;
    let left: Vec<_> = game.withdrawals().collect();
    let n = game.moves().len();
    for i in 0..=n {
        let mut cells: Vec<(Seat, String)> = left
            .iter()
            .filter(|w| w.ply == i)
            .map(|w| {
                let what = if w.reason == WinReason::TimeForfeit {
                    "out of time"
                } else {
                    "resigns"
                };
                (w.seat, format!("({} {what})", title(w.seat)))
            })
            .collect();
        if let (Some(pos), Some(&mv)) = (game.positions().get(i), game.moves().get(i)) {
            let text = AlgebraicMove::from_move(pos, mv).to_string();
            let text = if four {
                format!("{} {text}", seat_char(pos.turn()).to_ascii_uppercase())
            } else {
                text
            };
            cells.push((pos.turn(), text));
        }
        for (seat, text) in cells {
            if last.is_none_or(|l| seat.index() <= l) {
                rounds.push(Vec::new());
            }
            last = Some(seat.index());
            rounds.last_mut().expect("just pushed").push(text);
        }
    }
    let mut out = String::new();
    if rounds.is_empty() {
        out.push_str("No moves yet.");
    }
    for (i, r) in rounds.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = write!(out, "{:>3}. {}", i + 1, r.join("  "));
    }
    if let Some(o) = game.outcome() {
        let _ = write!(out, "\nResult: {}.", ResultText(Some(o)));
    }
    out
}

/// A search score with whose view it is: the player's (two players), his team's
/// (partnership), his against all the others (free-for-all, the paranoid search).
///
/// In a free-for-all game the mover's expected share of the win follows
/// ([`ploy_engine::win_share`]): `for Green against all, share 31%`. `pos` is the position
/// searched, `seat` its mover.
fn score_label(score: Score, pos: &Position) -> String {
    let seat = pos.mover();
    let variant = pos.variant();
    if variant == Variant::FreeForAll {
        return format!(
            "{} for {} against all, share {:.0}%",
            score_text(score),
            title(seat),
            ploy_engine::win_share(pos, score)
        );
    }
    let whose = match variant {
        Variant::TwoPlayer => format!("for {}", title(seat)),
        Variant::Partnership => format!("for {} and {}", title(seat), title(seat.partner())),
        _ => format!("for {} against all", title(seat)),
    };
    format!("{} {whose}", score_text(score))
}

/// What a command asks the loop to do next.
enum Flow {
    Continue,
    Quit,
}

struct Session<W: Write> {
    out: W,
    opts: Options,
    game: Game,
    header: ploy_sheet::Header,
    players: [Player; 4],
    strength: Strength,
    engine: Engine,
    /// Time left per seat (clock mode) when its turn began; the mover's clock runs down
    /// from there (see [`Session::time_left`]).
    clocks: [Duration; 4],
    /// The clocks before each move of the game, for `undo`.
    clock_log: Vec<[Duration; 4]>,
    /// Moves played or taken back since the game was last saved, loaded or started.
    dirty: bool,
    /// A command that was refused once because of unsaved moves; repeating it goes ahead.
    confirm: Option<String>,
    /// After `undo`, the engine waits for `go` or a person's move.
    paused: bool,
    /// When the current player's turn began (for the clocks).
    turn_started: Instant,
    /// The date the game began (UTC, `YYYY-MM-DD`), written in saved games.
    started: String,
    /// What `undo` took back, the last taken back last: `redo` plays it again.
    redo: Vec<Undone>,
    /// The seat whose side of the board is shown at the bottom.
    view: Seat,
    /// The board is shown turned round from `view` (`flip`).
    flipped: bool,
}

/// One thing `undo` took back.
#[derive(Clone, Copy, Debug)]
enum Undone {
    Move(Move),
    Ending(Ending),
}

impl<W: Write> Session<W> {
    fn new(out: W, opts: Options) -> Session<W> {
        let game = Game::start(opts.variant, opts.rules);
        let engine = Engine::with_hash_mb(opts.hash_mb);
        let players = opts.players;
        let strength = opts.strength;
        let mut s = Session {
            out,
            opts,
            game,
            header: ploy_sheet::Header::default(),
            players,
            strength,
            engine,
            clocks: [Duration::ZERO; 4],
            clock_log: Vec::new(),
            dirty: false,
            confirm: None,
            paused: false,
            turn_started: Instant::now(),
            started: today(),
            redo: Vec::new(),
            view: Seat::Green,
            flipped: false,
        };
        s.view = s.default_view();
        s.reset_clocks();
        s
    }

    fn reset_clocks(&mut self) {
        let base = match self.strength {
            Strength::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        self.clocks = [base; 4];
        self.clock_log.clear();
        self.turn_started = Instant::now();
    }

    fn say(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "{text}")
    }

    fn variant(&self) -> Variant {
        self.game.position().variant()
    }

    /// The seats of the variant the engine cannot play are made human, with a notice.
    fn check_players(&mut self) -> io::Result<()> {
        let variant = self.variant();
        if Engine::supports(variant) {
            return Ok(());
        }
        let mut changed = false;
        for seat in variant.seats().iter() {
            if self.players[seat.index()] == Player::Engine {
                self.players[seat.index()] = Player::Human;
                changed = true;
            }
        }
        if changed {
            let msg = format!(
                "note: the engine cannot play {} games yet; every seat is played by people",
                variant.name()
            );
            self.say(&msg)?;
        }
        Ok(())
    }

    fn last_move(&self) -> Option<(Move, bool, String)> {
        let n = self.game.moves().len();
        let mv = *self.game.moves().last()?;
        let before = &self.game.positions()[n - 1];
        let (text, captured) = describe(before, mv);
        let who = title(before.mover());
        let mut msg = format!("Last move: {who} {text}");
        if let Some(p) = captured {
            let _ = write!(
                msg,
                " (captured {}'s {})",
                p.colour().name(),
                kind_name(p.kind())
            );
        }
        Some((mv, captured.is_some(), msg))
    }

    fn show_board(&mut self) -> io::Result<()> {
        let pos = self.game.position().clone();
        let last = self.last_move();
        let picture = board_picture_turned(
            &pos,
            last.as_ref().map(|l| (l.0, l.1)),
            self.opts.colour,
            self.quarter_turns(),
        );
        write!(self.out, "\n{picture}")?;
        let seats: Vec<String> = pos
            .variant()
            .seats()
            .iter()
            .map(|s| {
                let mut t = format!(
                    "{}={}{} {}",
                    seat_char(s).to_ascii_uppercase(),
                    title(s),
                    match (pos.variant(), s) {
                        (Variant::TwoPlayer, Seat::Green) => "/b",
                        (Variant::TwoPlayer, _) => "/w",
                        _ => "",
                    },
                    match self.players[s.index()] {
                        Player::Human => "(human)",
                        Player::Engine => "(engine)",
                    }
                );
                if !pos.in_play().contains(s) {
                    t.push_str(" [out]");
                }
                let c = pos.controller(s);
                if c != s {
                    let _ = write!(t, " [pieces moved by {}]", c.name());
                }
                t
            })
            .collect();
        let mut items: Vec<String> = seats;
        items.push("capital = commander".into());
        items.push("| - / \\ = flags".into());
        if pos.variant() == Variant::TwoPlayer {
            items.push("b/w = the sides' letters in position strings".into());
        }
        let legend = wrap_items(&items, "   ", 80);
        self.say(&legend)?;
        if let Some((_, _, msg)) = last {
            self.say(&msg)?;
        }
        if matches!(self.strength, Strength::Clock { .. }) {
            let clocks: Vec<String> = pos
                .variant()
                .seats()
                .iter()
                .map(|s| format!("{} {}", title(s), clock_text(self.time_left(s))))
                .collect();
            self.say(&format!("Clocks: {}", clocks.join("  ")))?;
        }
        self.status()
    }

    fn status(&mut self) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            let msg = format!("Game over: {}.", ResultText(Some(o)));
            return self.say(&msg);
        }
        let pos = self.game.position();
        let turn = pos.turn();
        let mover = pos.mover();
        let ply = self.game.moves().len() + 1;
        let who = match self.players[mover.index()] {
            Player::Human => "human",
            Player::Engine => "engine",
        };
        let msg = if mover == turn {
            format!("Ply {ply}: {} to move ({who}).", title(turn))
        } else {
            format!(
                "Ply {ply}: {}'s turn, played by {} ({who}).",
                title(turn),
                title(mover)
            )
        };
        self.say(&msg)
    }

    fn prompt(&mut self) -> io::Result<()> {
        let p = self.prompt_text(false);
        write!(self.out, "{p}")?;
        self.out.flush()
    }

    /// `green> `, or with the running clock `green 4:59.3> `; `ploy> ` once the game is
    /// over.
    fn prompt_text(&self, clock: bool) -> String {
        if self.game.outcome().is_some() {
            return "ploy> ".to_owned();
        }
        let mover = self.game.position().mover();
        if clock {
            format!("{} {}> ", mover.name(), clock_text(self.time_left(mover)))
        } else {
            format!("{}> ", mover.name())
        }
    }

    /// The time left to the person to move while his clock runs; `None` without clocks,
    /// once the game is over, or while the engine waits.
    fn running_clock(&self) -> Option<Duration> {
        if !self.clocked() || self.game.outcome().is_some() {
            return None;
        }
        let mover = self.game.position().mover();
        if self.players[mover.index()] == Player::Engine {
            return None;
        }
        Some(self.time_left(mover))
    }

    /// Whether the game is played with clocks.
    fn clocked(&self) -> bool {
        matches!(self.strength, Strength::Clock { .. })
    }

    /// The time `seat` has left now: his clock at the start of his turn, less the time
    /// since, while it is his turn in a game that goes on.
    fn time_left(&self, seat: Seat) -> Duration {
        let left = self.clocks[seat.index()];
        let running = self.game.outcome().is_none()
            && self.game.position().mover() == seat
            && !(self.paused && self.players[seat.index()] == Player::Engine);
        if running {
            left.saturating_sub(self.turn_started.elapsed())
        } else if self
            .game
            .outcome()
            .is_some_and(|o| is_time_forfeit_of(o, seat))
        {
            Duration::ZERO
        } else {
            left
        }
    }

    /// In a game with clocks, ends it with a time forfeit if the mover's time is up (the
    /// message says so); whether it did.
    fn flag_fell(&mut self) -> io::Result<bool> {
        if !self.clocked() || self.game.outcome().is_some() {
            return Ok(false);
        }
        let seat = self.game.position().mover();
        if self.paused && self.players[seat.index()] == Player::Engine {
            return Ok(false);
        }
        if !self.time_left(seat).is_zero() {
            return Ok(false);
        }
        self.say(&format!("{}'s time is up.", title(seat)))?;
        match self.game.forfeit_on_time(seat) {
            Ok(()) => {
                self.dirty = true;
                self.redo.clear();
                self.status()?;
            }
            Err(e) => self.say(&format!("(The clock cannot end this game: {e}.)"))?,
        }
        Ok(true)
    }

    /// Charges the mover's clock for the time since the turn began, adds the increment,
    /// and starts the next turn.
    fn charge_clock(&mut self, seat: Seat) {
        if let Strength::Clock { increment, .. } = self.strength {
            let used = self.turn_started.elapsed();
            let left = &mut self.clocks[seat.index()];
            *left = left.saturating_sub(used) + increment;
        }
        self.turn_started = Instant::now();
    }

    fn limits_for(&self, seat: Seat) -> Limits {
        match self.strength {
            Strength::MoveTime(t) => Limits::move_time(t),
            Strength::Clock { increment, .. } => {
                let left = self.clocks[seat.index()].saturating_sub(self.turn_started.elapsed());
                Limits::clock(left.max(Duration::from_millis(20)), increment)
            }
            Strength::Nodes(n) => Limits::nodes(n),
            Strength::Depth(d) => Limits::depth(d),
        }
    }

    /// Runs the engine on the current position, with the thinking line; `None` (after a
    /// message) if it cannot.
    fn think(&mut self, limits: &Limits) -> io::Result<Option<(Move, SearchResult<Move>)>> {
        let pos = self.game.position().clone();
        let live = self.opts.live;
        let out = &mut self.out;
        let mut wrote_live = false;
        let result = self
            .engine
            .search(&self.game, limits, |info: &Info<'_, Move>| {
                let mut line = format!(
                    "thinking: depth {} score {}, nodes/s {} time {} s line {}",
                    info.depth,
                    score_label(info.score, &pos),
                    rate(info.nps),
                    secs(info.time),
                    line_text(&pos, info.pv)
                );
                if live {
                    line.truncate(79); // one line of an 80-column terminal: no wrap to undo
                    let _ = write!(out, "\r\x1b[K{line}");
                    wrote_live = true;
                } else {
                    let _ = writeln!(out, "{line}");
                }
                let _ = out.flush();
            });
        if wrote_live {
            write!(self.out, "\r\x1b[K")?;
        }
        Ok(result.best_move.map(|m| (m, result)))
    }

    fn engine_move(&mut self) -> io::Result<()> {
        let seat = self.game.position().mover();
        let limits = self.limits_for(seat);
        let Some((mv, r)) = self.think(&limits)? else {
            self.paused = true;
            return Ok(());
        };
        let (score, depth, nps, time) =
            (r.score, r.depth, ploy_search::nps(r.nodes, r.time), r.time);
        let before = self.game.position().clone();
        let (text, _) = describe(&before, mv);
        let msg = format!(
            "{} (engine) plays {text}   [depth {depth}, score {}, {} nodes/s, {} s]",
            title(seat),
            score_label(score, &before),
            rate(nps),
            secs(time)
        );
        self.say(&msg)?;
        self.play(mv)
    }

    fn play(&mut self, mv: Move) -> io::Result<()> {
        let seat = self.game.position().mover();
        if self.flag_fell()? {
            return Ok(()); // the time ran out before the move was made
        }
        let clocks = self.clocks;
        if let Err(e) = self.game.play(mv) {
            return self.say(&format!("Cannot play that: {e}."));
        }
        self.clock_log.push(clocks);
        self.dirty = true;
        self.charge_clock(seat);
        match self.redo.last() {
            Some(Undone::Move(m)) if *m == mv => {
                self.redo.pop();
            }
            _ => self.redo.clear(),
        }
        self.show_board()
    }

    fn hint(&mut self) -> io::Result<()> {
        if self.game.outcome().is_some() {
            return self.say("The game is over: no hint.");
        }
        let limits = self.hint_limits();
        let pos = self.game.position().clone();
        if let Some((mv, r)) = self.think(&limits)? {
            let (score, depth) = (r.score, r.depth);
            let text = AlgebraicMove::from_move(&pos, mv);
            self.say(&format!(
                "Hint: {text}   [depth {depth}, score {}]",
                score_label(score, &pos)
            ))?;
        }
        Ok(())
    }

    /// Takes back a resignation, time forfeit or agreed draw (only that), or else the last
    /// move and the engine's moves before it, back to a person's turn.
    fn undo(&mut self) -> io::Result<()> {
        if let Ok(ending) = self.game.take_back_ending() {
            self.redo.push(Undone::Ending(ending));
            self.dirty = true;
            self.paused = true;
            self.turn_started = Instant::now();
            let msg = format!("Took back {}; the game goes on.", ending_text(ending));
            self.say(&msg)?;
            return self.show_board();
        }
        if self.game.moves().is_empty() {
            return self.say("Nothing to take back.");
        }
        let mut taken = Vec::new();
        loop {
            let n = self.game.moves().len();
            let before = self.game.positions()[n - 1].clone();
            let Ok(mv) = self.game.undo() else { break };
            self.redo.push(Undone::Move(mv));
            if let Some(c) = self.clock_log.pop() {
                self.clocks = c;
            }
            taken.push(AlgebraicMove::from_move(&before, mv).to_string());
            // A free-for-all player who left after the move before comes back too.
            while let Ok(ending) = self.game.take_back_ending() {
                self.redo.push(Undone::Ending(ending));
                taken.push(ending_text(ending));
            }
            let mover = self.game.position().mover();
            if !self.any_human()
                || self.players[mover.index()] == Player::Human
                || self.game.moves().is_empty()
            {
                break;
            }
        }
        self.dirty = true;
        self.paused = true;
        self.turn_started = Instant::now();
        let msg = format!("Took back {}.", taken.join(", "));
        self.say(&msg)?;
        self.show_board()?;
        self.engine_waits()
    }

    fn engine_waits(&mut self) -> io::Result<()> {
        if self.players[self.game.position().mover().index()] == Player::Engine
            && self.game.outcome().is_none()
        {
            self.say("The engine waits: type `go` to let it move.")?;
        }
        Ok(())
    }

    fn any_human(&self) -> bool {
        self.variant()
            .seats()
            .iter()
            .any(|s| self.players[s.index()] == Player::Human)
    }

    /// Plays again what `undo` took back: one step, and on through the engine's moves up
    /// to a person's turn (as `undo` took them back).
    fn redo(&mut self) -> io::Result<()> {
        if self.redo.is_empty() {
            return self.say("Nothing to redo.");
        }
        let mut done = Vec::new();
        while let Some(step) = self.redo.pop() {
            let pos = self.game.position().clone();
            let ok = match step {
                Undone::Move(mv) => {
                    let r = self.game.play(mv);
                    if r.is_ok() {
                        self.clock_log.push(self.clocks);
                        done.push(AlgebraicMove::from_move(&pos, mv).to_string());
                    }
                    r
                }
                Undone::Ending(e) => {
                    let r = redo_ending(&mut self.game, e);
                    if r.is_ok() {
                        done.push(ending_text(e));
                    }
                    r
                }
            };
            if let Err(e) = ok {
                self.redo.clear();
                self.say(&format!("Cannot redo: {e}."))?;
                break;
            }
            // Leavings that came right after this step come back with it.
            while let Some(Undone::Ending(Ending::Withdrawal(w))) = self.redo.last() {
                if w.ply != self.game.moves().len() {
                    break;
                }
                let e = Ending::Withdrawal(*w);
                self.redo.pop();
                if redo_ending(&mut self.game, e).is_ok() {
                    done.push(ending_text(e));
                }
            }
            let mover = self.game.position().mover();
            let next_is_move = matches!(self.redo.last(), Some(Undone::Move(_)));
            if !next_is_move
                || self.game.outcome().is_some()
                || (self.any_human() && self.players[mover.index()] == Player::Human)
            {
                break;
            }
        }
        self.dirty = true;
        self.paused = true;
        self.turn_started = Instant::now();
        if !done.is_empty() {
            let msg = format!("Played again: {}.", done.join(", "));
            self.say(&msg)?;
        }
        self.show_board()?;
        self.engine_waits()
    }

    /// The numbered moves of the game: one line per round, each move after its seat's
    /// letter in four-player games; players who left and the result too.
    fn history(&mut self) -> io::Result<()> {
        let text = history_text(&self.game);
        self.say(&text)
    }

    /// The seat shown at the bottom at the start: the one person's, if one person plays.
    fn default_view(&self) -> Seat {
        let humans: Vec<Seat> = self
            .variant()
            .seats()
            .iter()
            .filter(|s| self.players[s.index()] == Player::Human)
            .collect();
        match humans[..] {
            [one] => one,
            _ => Seat::Green,
        }
    }

    /// Quarter turns (counterclockwise) of the picture that put `view`'s side at the
    /// bottom (his corner at the bottom left in a free-for-all game).
    fn quarter_turns(&self) -> u8 {
        let base = match (self.variant(), self.view) {
            (_, Seat::Green) => 0,
            (Variant::FreeForAll, Seat::Red) => 1,
            (Variant::FreeForAll, Seat::Yellow) => 2,
            (Variant::FreeForAll, Seat::Blue) => 3,
            (Variant::Partnership, Seat::Yellow) => 0,
            _ => 2,
        };
        (base + if self.flipped { 2 } else { 0 }) % 4
    }

    fn set_view(&mut self, who: &str) -> io::Result<()> {
        match seat_from_name(who) {
            Some(seat) if self.variant().seats().contains(seat) => {
                self.view = seat;
                self.flipped = false;
                self.show_board()
            }
            _ => self.say(&format!("No seat `{who}` in this game.")),
        }
    }

    /// `draw`: people agree at once; an engine playing an opponent of the player to move
    /// first judges the position and declines if it is winning (see [`DRAW_THRESHOLD`]).
    fn offer_draw(&mut self) -> io::Result<()> {
        if let Some(o) = self.game.outcome() {
            return self.say(&format!(
                "Cannot agree a draw: the game is over ({}).",
                ResultText(Some(o))
            ));
        }
        let pos = self.game.position().clone();
        let variant = pos.variant();
        let proposer = pos.mover();
        let judges: Vec<Seat> = pos
            .in_play()
            .iter()
            .filter(|&s| {
                self.players[s.index()] == Player::Engine && !variant.team(proposer).contains(s)
            })
            .collect();
        for seat in judges {
            let Some((score, seen)) = self.judge(seat)? else {
                continue;
            };
            let winning = if variant == Variant::FreeForAll {
                let equal = 100.0 / f64::from(seen.in_play().count());
                ploy_engine::win_share(&seen, score) >= equal + (100.0 - equal) * DRAW_SHARE_MARGIN
            } else {
                score.is_win() || score.raw() >= DRAW_THRESHOLD
            };
            if winning {
                let msg = format!(
                    "{} (engine) declines the draw: it judges the position winning \
                     (score {}).",
                    title(seat),
                    score_label(score, &seen)
                );
                return self.say(&msg);
            }
        }
        match self.game.agree_draw() {
            Ok(()) => {
                self.dirty = true;
                self.redo.clear();
                self.status()
            }
            Err(e) => self.say(&format!("Cannot agree a draw: {e}.")),
        }
    }

    /// The engine's score of the position for `seat` (a search at the hint's limits), with
    /// the position as `seat` sees it (`seat` to move in it).
    fn judge(&mut self, seat: Seat) -> io::Result<Option<(Score, Position)>> {
        let limits = self.hint_limits();
        let pos = self.game.position().clone();
        let mover = pos.mover();
        let variant = pos.variant();
        if variant == Variant::FreeForAll && seat != mover {
            // The paranoid search scores the player to move: judge as if `seat` were.
            let mut setup = pos.to_setup();
            setup.turn = seat;
            let Ok(p) = Position::from_setup(setup, pos.rules()) else {
                return Ok(None);
            };
            let game = Game::from_position(p.clone());
            let r = self.engine.search(&game, &limits, |_: &Info<'_, Move>| {});
            return Ok(Some((r.score, p)));
        }
        let r = self
            .engine
            .search(&self.game, &limits, |_: &Info<'_, Move>| {});
        let seen = if seat == mover {
            pos.clone()
        } else {
            // Only the side matters for a two-sided score: the position with `seat` to move
            // is for the label, if it is one.
            let mut setup = pos.to_setup();
            setup.turn = seat;
            Position::from_setup(setup, pos.rules()).unwrap_or(pos.clone())
        };
        Ok(Some({
            let score = if variant.team(mover).contains(seat) {
                r.score
            } else {
                -r.score
            };
            (score, seen)
        }))
    }

    fn hint_limits(&self) -> Limits {
        match self.strength {
            Strength::Clock { .. } => Limits::move_time(Duration::from_secs(1)),
            _ => self.limits_for(self.game.position().mover()),
        }
    }

    fn resign(&mut self) -> io::Result<()> {
        let seat = self.game.position().mover();
        let before = self.game.position().in_play();
        match self.game.resign(seat) {
            Ok(()) => {
                self.dirty = true;
                self.redo.clear();
                if self.game.outcome().is_none() && before != self.game.position().in_play() {
                    let msg = format!(
                        "{} resigns and leaves the game; his pieces leave the board.",
                        title(seat)
                    );
                    self.say(&msg)?;
                    self.turn_started = Instant::now();
                    return self.show_board();
                }
                self.status()
            }
            Err(e) => self.say(&format!("Cannot resign: {e}.")),
        }
    }

    fn saved(&self) -> SavedGame {
        let mut header = self.header.clone();
        for seat in self.variant().seats().iter() {
            if header.players.get(seat).is_none() {
                let name = match self.players[seat.index()] {
                    Player::Human => "human".to_owned(),
                    Player::Engine => format!("{} engine", crate::protocol::NAME),
                };
                header.players.set(seat, Some(name));
            }
        }
        if header.date.is_none() {
            header.date = Some(self.started.clone());
        }
        if header.time_control.is_none() {
            header.time_control = Some(match self.strength {
                Strength::Clock { .. } => self.strength.to_string(),
                _ => format!("untimed (engine: {})", self.strength),
            });
        }
        SavedGame {
            header,
            game: self.game.clone(),
        }
    }

    fn save(&mut self, path: &str, sheet: bool, force: bool) -> io::Result<()> {
        let saved = self.saved();
        let text = if sheet {
            saved.to_sheet().map_err(|e| e.to_string())
        } else {
            saved
                .to_record()
                .map(|r| r.to_string())
                .map_err(|e| e.to_string())
        };
        let text = match text {
            Ok(t) => t,
            Err(e) => return self.say(&format!("Cannot write this game: {e}.")),
        };
        let cmd = if sheet { "sheet" } else { "save" };
        if !force {
            if let Some(why) = replaces_another_game(Path::new(path), &self.game) {
                return self.say(&format!(
                    "{path} {why}; type `{cmd} {path} force` to replace it."
                ));
            }
        }
        match write_atomically(Path::new(path), text.as_bytes()) {
            Ok(()) => {
                let what = if sheet {
                    "Score sheet exported to"
                } else {
                    self.dirty = false;
                    self.header = saved.header;
                    "Game saved to"
                };
                self.say(&format!(
                    "{what} {path} ({}).",
                    count_moves(self.game.moves().len())
                ))
            }
            Err(e) => self.say(&format!("Cannot write {path}: {e}.")),
        }
    }

    fn load(&mut self, path: &str) -> io::Result<()> {
        match read_game_file(path) {
            Ok((format, saved)) => self.loaded(path, format, saved),
            Err(e) => self.say(&format!("Cannot load {path}: {e}.")),
        }
    }

    /// Takes over a game read from `path`.
    fn loaded(
        &mut self,
        path: &str,
        format: ploy_sheet::Format,
        saved: SavedGame,
    ) -> io::Result<()> {
        self.game = saved.game;
        self.header = saved.header;
        self.redo.clear();
        if !self.variant().seats().contains(self.view) {
            self.view = self.default_view();
        }
        self.dirty = false;
        self.paused = false;
        self.engine.clear();
        self.reset_clocks();
        let what = match format {
            ploy_sheet::Format::Sheet => "score sheet",
            _ => "game record",
        };
        let msg = format!(
            "Loaded the {what} {path}: {}, {}.",
            self.variant().name(),
            count_moves(self.game.moves().len())
        );
        self.say(&msg)?;
        self.check_players()?;
        self.show_board()
    }

    /// Whether a command that would drop the game may go ahead; if not, says why.
    fn may_discard(&mut self, command: &str) -> io::Result<bool> {
        if !self.dirty || self.game.moves().is_empty() || self.confirm.as_deref() == Some(command) {
            return Ok(true);
        }
        let n = count_moves(self.game.moves().len());
        self.say(&format!(
            "The game ({n}) is not saved. Type `save FILE` to keep it, or `{command}` again \
             to go ahead without saving."
        ))?;
        self.confirm = Some(command.to_owned());
        Ok(false)
    }

    fn new_game(&mut self, words: &[&str]) -> io::Result<()> {
        let mut variant = self.variant();
        let mut rules = self.game.rules();
        if let Err(e) = apply_new_words(words, &mut variant, &mut rules) {
            return self.say(&e);
        }
        if !self.may_discard("new")? {
            return Ok(());
        }
        self.game = Game::start(variant, rules);
        self.header = ploy_sheet::Header::default();
        self.started = today();
        self.redo.clear();
        self.view = self.default_view();
        self.flipped = false;
        self.dirty = false;
        self.paused = false;
        self.engine.clear();
        self.reset_clocks();
        let msg = format!("New game: {}.", rules_text(&rules, variant));
        self.say(&msg)?;
        self.check_players()?;
        self.show_board()
    }

    fn set_player(&mut self, who: &str, what: &str) -> io::Result<()> {
        let player = match parse_player(what) {
            Ok(p) => p,
            Err(e) => return self.say(&e),
        };
        let variant = self.variant();
        if player == Player::Engine && !Engine::supports(variant) {
            return self.say(&format!(
                "The engine cannot play {} games yet.",
                variant.name()
            ));
        }
        let seats: Vec<Seat> = if who == "all" {
            variant.seats().iter().collect()
        } else {
            match seat_from_name(who) {
                Some(s) if variant.seats().contains(s) => vec![s],
                _ => return self.say(&format!("No seat `{who}` in this game.")),
            }
        };
        for s in seats {
            self.players[s.index()] = player;
        }
        self.paused = false;
        self.players_text()
    }

    fn players_text(&mut self) -> io::Result<()> {
        let list: Vec<String> = self
            .variant()
            .seats()
            .iter()
            .map(|s| {
                format!(
                    "{} {}",
                    title(s),
                    match self.players[s.index()] {
                        Player::Human => "human",
                        Player::Engine => "engine",
                    }
                )
            })
            .collect();
        let msg = format!("Players: {}; engine: {}.", list.join(", "), self.strength);
        self.say(&msg)
    }

    fn command(&mut self, line: &str) -> io::Result<Flow> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Ok(Flow::Continue);
        };
        let cmd_lower = cmd.to_ascii_lowercase();
        let keep_confirm = matches!(cmd_lower.as_str(), "quit" | "exit" | "q" | "new" | "load");
        if !keep_confirm {
            self.confirm = None;
        }
        let one_arg = |what: &str| -> Result<&str, String> {
            match args {
                [a] => Ok(a),
                _ => Err(format!("`{cmd}` needs {what}")),
            }
        };
        match cmd_lower.as_str() {
            "help" | "?" | "h" => self.say(HELP)?,
            "quit" | "exit" | "q" => {
                if self.may_discard("quit")? {
                    return Ok(Flow::Quit);
                }
            }
            "board" | "b" => self.show_board()?,
            "undo" | "u" => self.undo()?,
            "redo" => self.redo()?,
            "history" | "record" => self.history()?,
            "flip" => {
                self.flipped = !self.flipped;
                self.show_board()?;
            }
            "view" => match one_arg("a seat: green, red, yellow or blue") {
                Ok(who) => self.set_view(&who.to_ascii_lowercase())?,
                Err(e) => self.say(&e)?,
            },
            "hint" => self.hint()?,
            "go" => {
                if self.game.outcome().is_some() {
                    self.say("The game is over.")?;
                } else {
                    self.unpause();
                    self.engine_move()?;
                }
            }
            "save" | "sheet" => match args {
                [path] => self.save(path, cmd_lower == "sheet", false)?,
                [path, force] if force.eq_ignore_ascii_case("force") => {
                    self.save(path, cmd_lower == "sheet", true)?;
                }
                _ => self.say(&format!(
                    "`{cmd}` needs a file name (and `force` to replace another game)"
                ))?,
            },
            "load" => match one_arg("a file name") {
                Ok(path) => {
                    if self.may_discard("load")? {
                        self.load(path)?;
                    }
                }
                Err(e) => self.say(&e)?,
            },
            "new" => self.new_game(args)?,
            "green" | "red" | "yellow" | "blue" | "all" => match one_arg("human or engine") {
                Ok(what) => self.set_player(&cmd_lower, what)?,
                Err(e) => self.say(&e)?,
            },
            "players" => self.players_text()?,
            "level" => match args {
                [] => {
                    let msg = format!("Engine: {}.", self.strength);
                    self.say(&msg)?;
                }
                [kind, value] => match parse_strength(kind, value) {
                    Ok(s) => {
                        self.strength = s;
                        if matches!(s, Strength::Clock { .. }) {
                            self.reset_clocks();
                        }
                        self.say(&format!("Engine: {s}."))?;
                    }
                    Err(e) => self.say(&e)?,
                },
                _ => self.say("`level` needs: time S | clock M+I | nodes N | depth D")?,
            },
            "moves" => {
                let pos = self.game.position().clone();
                let list: Vec<String> = self
                    .game
                    .legal_moves()
                    .iter()
                    .map(|&m| AlgebraicMove::from_move(&pos, m).to_string())
                    .collect();
                let msg = format!("{} legal moves: {}", list.len(), list.join(" "));
                self.say(&msg)?;
            }
            "position" | "fen" => {
                let msg = PositionString::from_position(self.game.position()).to_string();
                self.say(&msg)?;
            }
            "rules" => {
                let msg = rules_text(&self.game.rules(), self.variant());
                self.say(&msg)?;
            }
            "resign" => self.resign()?,
            "draw" => self.offer_draw()?,
            _ => {
                if words.len() > 1 {
                    self.say(&format!(
                        "Unknown command `{cmd}`; type `help` for the commands."
                    ))?;
                } else {
                    match read_typed_move(&self.game, cmd) {
                        Ok(mv) => {
                            self.unpause();
                            self.play(mv)?;
                        }
                        Err(e) => {
                            let looks_like_move =
                                cmd.bytes().next().is_some_and(|b| {
                                    (b'a'..=b'i').contains(&b.to_ascii_lowercase())
                                }) && cmd.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
                            if looks_like_move {
                                self.say(&format!("Not a legal move: {e}."))?;
                            } else {
                                self.say(&format!(
                                    "`{cmd}` is neither a move nor a command; type `help`."
                                ))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// Ends the pause after `undo`; an engine's clock, stopped while it waited, starts now.
    fn unpause(&mut self) {
        if self.paused && self.players[self.game.position().mover().index()] == Player::Engine {
            self.turn_started = Instant::now();
        }
        self.paused = false;
    }

    fn engine_to_move(&self) -> bool {
        self.game.outcome().is_none()
            && !self.paused
            && self.players[self.game.position().mover().index()] == Player::Engine
            && Engine::supports(self.variant())
    }
}

/// One thing an [`Input`] has for the session.
pub(crate) enum Event {
    /// A line (without its line end), as bytes: it may not be UTF-8.
    Line(Vec<u8>),
    /// Nothing came within the wait: time to look at the clock.
    Tick,
    /// The end of the input.
    End,
}

/// Where a session's lines come from.
pub(crate) trait Input {
    /// Whether the input shows the prompt and the typed text itself (a line editor in a
    /// terminal) and so can show a running clock in the prompt.
    fn edits(&self) -> bool {
        false
    }

    /// The next line, the end of input, or (only when `wait` is given and the input can
    /// wait) a tick after at most `wait`. An editing input shows `prompt`.
    ///
    /// # Errors
    /// Reading failed.
    fn next(&mut self, prompt: &str, wait: Option<Duration>) -> io::Result<Event>;

    /// Clears the prompt line being edited before the session writes (an editing input
    /// draws it again at the next [`Input::next`]).
    ///
    /// # Errors
    /// Writing failed.
    fn suspend(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Lines read straight from a reader: every call waits for a whole line.
struct Blocking<R>(R);

impl<R: BufRead> Input for Blocking<R> {
    fn next(&mut self, _prompt: &str, _wait: Option<Duration>) -> io::Result<Event> {
        let mut buf = Vec::new();
        if self.0.read_until(b'\n', &mut buf)? == 0 {
            return Ok(Event::End);
        }
        trim_line_end(&mut buf);
        Ok(Event::Line(buf))
    }
}

fn trim_line_end(buf: &mut Vec<u8>) {
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    }
}

/// Lines read by a thread and passed through a channel, so that the session can wait for
/// one with a time limit.
struct Threaded {
    lines: mpsc::Receiver<io::Result<Vec<u8>>>,
}

impl Threaded {
    fn new(mut input: impl BufRead + Send + 'static) -> Threaded {
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut buf = Vec::new();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) => break,
                    Ok(_) => {
                        trim_line_end(&mut buf);
                        if tx.send(Ok(buf)).is_err() {
                            break;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            }
        });
        Threaded { lines }
    }
}

impl Input for Threaded {
    fn next(&mut self, _prompt: &str, wait: Option<Duration>) -> io::Result<Event> {
        let got = match wait {
            None => self
                .lines
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            Some(w) => self.lines.recv_timeout(w),
        };
        match got {
            Ok(Ok(line)) => Ok(Event::Line(line)),
            Ok(Err(e)) => Err(e),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(Event::Tick),
            Err(mpsc::RecvTimeoutError::Disconnected) => Ok(Event::End),
        }
    }
}

/// How often an editing input redraws a running clock.
const CLOCK_REDRAW: Duration = Duration::from_millis(100);

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

#[cfg(feature = "cli")]
mod terminal;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_wrap_at_the_width() {
        let items: Vec<String> = (0..20).map(|i| format!("item number {i}")).collect();
        let text = wrap_items(&items, "   ", 40);
        assert!(text.lines().count() > 5, "{text}");
        for line in text.lines() {
            assert!(line.len() <= 40 && line.starts_with("   item"), "{text}");
        }
        assert_eq!(text.replace("\n   ", " ").trim_start(), items.join(", "));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }
}
