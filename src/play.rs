//! The terminal game of the `play` example: people against the engine, the engine against
//! itself, or people against each other, in every variant and under every rule option.
//!
//! The whole session is [`run`] over a line reader and a writer, so tests drive complete
//! games through it in-process; the example only wires it to standard input and output.
//! Plain lines are read (no raw terminal mode); colours are used only when asked
//! ([`Options::colour`], which the example sets when standard output is a terminal).
//!
//! Commands (also listed by `help`):
//!
//! | command | what it does |
//! |---|---|
//! | a move | `e3-e4`, `e4xf5`, `c3+3`, `e7-d6+2` (Tensi) or `e3-e4-0` (university) |
//! | `undo` | takes back the last move, and the engine's moves before it, back to a person's turn |
//! | `hint` | the engine's suggestion for the side to move |
//! | `go` | the engine makes the next move, whoever's turn it is |
//! | `save <file>` / `load <file>` | a game record; `load` reads score sheets too |
//! | `sheet <file>` | exports the score sheet (tab-separated text) |
//! | `new [options]` | a new game: `two-player`, `ffa`, `partnership`, and rule words |
//! | `<seat> human\|engine`, `all human\|engine` | who plays a seat |
//! | `level time S \| clock M+I \| nodes N \| depth D` | the engine's strength |
//! | `board`, `moves`, `position`, `rules` | show the board, legal moves, position string, rules |
//! | `resign`, `draw` | the side to move resigns; the players agree to a draw |
//! | `help`, `quit` | |
//!
//! A mistyped or illegal move is answered with what is wrong and the same prompt; quitting
//! (or starting or loading another game) with unsaved moves asks for the command again.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use ploy_core::{
    BareCommander, Elimination, Game, Move, PartnerElimination, Piece, PieceKind, Position,
    Rotation, Rules, Seat, Square, Variant,
};
use ploy_notation::{AlgebraicMove, PositionString};
use ploy_search::{Info, Limits, Score, SearchResult};
use ploy_sheet::{ResultText, SavedGame};

use crate::engine::{Engine, read_move, variant_name};

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
    /// people are told when they run out but play on (as in Tensi's program).
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
Moves: Tensi's notation (e3-e4, e4xf5, c3+3 = turn 3 steps counterclockwise, c3-2 = 2 steps
clockwise, e7-d6+2 = a shield moves and turns) or university strings (e3-e4-0, c3-c3-5).
Commands:
  undo              take back the last move (and the engine's reply)
  hint              the engine's suggestion
  go                let the engine make the next move
  save FILE         save the game record (e.g. game.plg)
  load FILE         load a game record or a score sheet
  sheet FILE        export the score sheet (tab-separated text for spreadsheets, e.g. game.txt)
  new [WORDS]       a new game; WORDS: two-player ffa partnership standard university
                    strict relaxed any single-step repetition no-repetition limit N
                    no-limit absorbed plays-on stays removed
  green engine      who plays a seat (green red yellow blue all; human or engine)
  level time S | clock M+I | nodes N | depth D     the engine's strength
  board  moves  position  rules  players           show things
  resign  draw      the side to move resigns; the players agree to a draw
  help  quit";

/// The board picture: one 5 x 3 character cell per square, the piece's colour letter in
/// the middle (capital for a commander) and its flags around it (`|`, `-`, `/`, `\`) in the
/// directions they point. The last move's squares are marked: `:` `:` on the start square,
/// `[` `]` on the end square, `*` `*` when it captured.
#[must_use]
pub fn board_picture(pos: &Position, last: Option<(Move, bool)>, colour: bool) -> String {
    let board = pos.board();
    let mut out = String::new();
    for rank in (0..9u8).rev() {
        for row in 0..3 {
            if row == 1 {
                let _ = write!(out, "{:>2} ", rank + 1);
            } else {
                out.push_str("   ");
            }
            for file in 0..9u8 {
                let sq = Square::new(file, rank);
                let piece = board.piece_at(sq);
                let (left, right) = match last {
                    Some((mv, captured)) if mv.to() == sq && row == 1 => {
                        if captured {
                            ('*', '*')
                        } else {
                            ('[', ']')
                        }
                    }
                    Some((mv, _)) if mv.from() == sq && row == 1 => (':', ':'),
                    _ => (' ', ' '),
                };
                let cells = cell(piece, row);
                if colour {
                    let fg = piece.map_or("", |p| seat_colour(p.colour()));
                    let bg = match last {
                        Some((mv, true)) if mv.to() == sq => "\x1b[41m",
                        Some((mv, _)) if mv.to() == sq || mv.from() == sq => "\x1b[100m",
                        _ => "",
                    };
                    let bold = piece.is_some_and(|p| p.kind() == PieceKind::Commander);
                    let bold = if bold { "\x1b[1m" } else { "" };
                    if bg.is_empty() && fg.is_empty() {
                        let _ = write!(out, "{left}{cells}{right}");
                    } else {
                        let _ = write!(out, "{bg}{left}{fg}{bold}{cells}{right}\x1b[0m");
                    }
                } else {
                    out.push(left);
                    out.push_str(&cells);
                    out.push(right);
                }
            }
            out.push('\n');
        }
    }
    out.push_str("   ");
    for file in 0..9u8 {
        let _ = write!(out, "  {}  ", (b'a' + file) as char);
    }
    out.push('\n');
    out
}

fn seat_colour(seat: Seat) -> &'static str {
    match seat {
        Seat::Green => "\x1b[32m",
        Seat::Red => "\x1b[31m",
        Seat::Yellow => "\x1b[33m",
        Seat::Blue => "\x1b[34m",
    }
}

fn seat_char(seat: Seat) -> char {
    match seat {
        Seat::Green => 'g',
        Seat::Red => 'r',
        Seat::Yellow => 'y',
        Seat::Blue => 'b',
    }
}

/// Row `row` (0 top, 2 bottom) of a square's 3-character picture.
fn cell(piece: Option<Piece>, row: usize) -> String {
    let Some(p) = piece else {
        return if row == 1 { " . ".into() } else { "   ".into() };
    };
    let f = p.flags().bits();
    let has = |bit: u8, c: char| if f & (1 << bit) != 0 { c } else { ' ' };
    let letter = if p.kind() == PieceKind::Commander {
        seat_char(p.colour()).to_ascii_uppercase()
    } else {
        seat_char(p.colour())
    };
    // Directions: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW.
    let chars = match row {
        0 => [has(7, '\\'), has(0, '|'), has(1, '/')],
        1 => [has(6, '-'), letter, has(2, '-')],
        _ => [has(5, '/'), has(4, '|'), has(3, '\\')],
    };
    chars.iter().collect()
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

fn clock_text(d: Duration, negative: bool) -> String {
    let s = d.as_secs();
    format!(
        "{}{}:{:02}.{}",
        if negative { "-" } else { "" },
        s / 60,
        s % 60,
        d.subsec_millis() / 100
    )
}

fn rules_text(rules: &Rules, variant: Variant) -> String {
    let mut t = format!(
        "{}; elimination {}; rotation {}; repetition draw {}; no-capture limit {}",
        variant_name(variant),
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
    /// Time left per seat (clock mode), negative as a flag when a person overstepped it.
    clocks: [(Duration, bool); 4],
    /// Moves played or taken back since the game was last saved, loaded or started.
    dirty: bool,
    /// A command that was refused once because of unsaved moves; repeating it goes ahead.
    confirm: Option<String>,
    /// After `undo`, the engine waits for `go` or a person's move.
    paused: bool,
    /// When the current player's turn began (for the clocks).
    turn_started: Instant,
}

impl<W: Write> Session<W> {
    fn new(out: W, opts: Options) -> Session<W> {
        let game = Game::start(opts.variant, opts.rules);
        let engine = Engine::new(opts.hash_mb);
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
            clocks: [(Duration::ZERO, false); 4],
            dirty: false,
            confirm: None,
            paused: false,
            turn_started: Instant::now(),
        };
        s.reset_clocks();
        s
    }

    fn reset_clocks(&mut self) {
        let base = match self.strength {
            Strength::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        self.clocks = [(base, false); 4];
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
                variant_name(variant)
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
        let picture = board_picture(&pos, last.as_ref().map(|l| (l.0, l.1)), self.opts.colour);
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
        let names = if pos.variant() == Variant::TwoPlayer {
            "; b/w: the sides' letters in position strings"
        } else {
            ""
        };
        self.say(&format!(
            "   {}; capital = commander; | - / \\ = flags{names}",
            seats.join(", ")
        ))?;
        if let Some((_, _, msg)) = last {
            self.say(&msg)?;
        }
        if matches!(self.strength, Strength::Clock { .. }) {
            let clocks: Vec<String> = pos
                .variant()
                .seats()
                .iter()
                .map(|s| {
                    let (d, neg) = self.clocks[s.index()];
                    format!("{} {}", title(s), clock_text(d, neg))
                })
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
        let p = if self.game.outcome().is_some() {
            "ploy".to_owned()
        } else {
            self.game.position().mover().name().to_owned()
        };
        write!(self.out, "{p}> ")?;
        self.out.flush()
    }

    /// Charges the mover's clock for the time since the turn began, adds the increment,
    /// and starts the next turn.
    fn charge_clock(&mut self, seat: Seat) -> io::Result<()> {
        let Strength::Clock { increment, .. } = self.strength else {
            self.turn_started = Instant::now();
            return Ok(());
        };
        let used = self.turn_started.elapsed();
        let (left, neg) = self.clocks[seat.index()];
        let (mut left, mut neg) = if neg {
            (left + used, true)
        } else if used > left {
            (used - left, true)
        } else {
            (left - used, false)
        };
        let was_out = neg;
        if neg {
            if increment >= left {
                left = increment - left;
                neg = false;
            } else {
                left -= increment;
            }
        } else {
            left += increment;
        }
        self.clocks[seat.index()] = (left, neg);
        if was_out && self.players[seat.index()] == Player::Human {
            let msg = format!(
                "{} has run out of time (people play on; the clock shows how far over).",
                title(seat)
            );
            self.say(&msg)?;
        }
        self.turn_started = Instant::now();
        Ok(())
    }

    fn limits_for(&self, seat: Seat) -> Limits {
        match self.strength {
            Strength::MoveTime(t) => Limits::move_time(t),
            Strength::Clock { increment, .. } => {
                let (left, neg) = self.clocks[seat.index()];
                let left = if neg { Duration::ZERO } else { left };
                let left = left.saturating_sub(self.turn_started.elapsed());
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
                    "thinking: depth {} score {} nodes/s {} time {} s line {}",
                    info.depth,
                    score_text(info.score),
                    rate(info.nps),
                    secs(info.time),
                    line_text(&pos, info.pv)
                );
                if live {
                    line.truncate(110);
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
        match result {
            Err(e) => {
                self.say(&format!("The engine cannot move here: {e}."))?;
                Ok(None)
            }
            Ok(r) => Ok(r.best_move.map(|m| (m, r))),
        }
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
            score_text(score),
            rate(nps),
            secs(time)
        );
        self.say(&msg)?;
        self.play(mv)
    }

    fn play(&mut self, mv: Move) -> io::Result<()> {
        let seat = self.game.position().mover();
        if let Err(e) = self.game.play(mv) {
            return self.say(&format!("Cannot play that: {e}."));
        }
        self.dirty = true;
        self.charge_clock(seat)?;
        self.show_board()
    }

    fn hint(&mut self) -> io::Result<()> {
        if self.game.outcome().is_some() {
            return self.say("The game is over: no hint.");
        }
        let limits = match self.strength {
            Strength::Clock { .. } => Limits::move_time(Duration::from_secs(1)),
            _ => self.limits_for(self.game.position().mover()),
        };
        let pos = self.game.position().clone();
        if let Some((mv, r)) = self.think(&limits)? {
            let (score, depth) = (r.score, r.depth);
            let text = AlgebraicMove::from_move(&pos, mv);
            self.say(&format!(
                "Hint: {text}   [depth {depth}, score {}]",
                score_text(score)
            ))?;
        }
        Ok(())
    }

    fn undo(&mut self) -> io::Result<()> {
        if self.game.moves().is_empty() {
            return self.say("Nothing to take back.");
        }
        let mut taken = Vec::new();
        loop {
            let n = self.game.moves().len();
            let before = self.game.positions()[n - 1].clone();
            let Ok(mv) = self.game.undo() else { break };
            taken.push(AlgebraicMove::from_move(&before, mv).to_string());
            let mover = self.game.position().mover();
            let any_human = self
                .variant()
                .seats()
                .iter()
                .any(|s| self.players[s.index()] == Player::Human);
            if !any_human
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
        if self.players[self.game.position().mover().index()] == Player::Engine
            && self.game.outcome().is_none()
        {
            self.say("The engine waits: type `go` to let it move.")?;
        }
        Ok(())
    }

    fn saved(&self) -> SavedGame {
        let mut header = self.header.clone();
        for seat in self.variant().seats().iter() {
            if header.players.get(seat).is_none() {
                let name = match self.players[seat.index()] {
                    Player::Human => "human".to_owned(),
                    Player::Engine => format!("{} engine", crate::engine::NAME),
                };
                header.players.set(seat, Some(name));
            }
        }
        if header.time_control.is_none() {
            if let Strength::Clock { .. } = self.strength {
                header.time_control = Some(self.strength.to_string());
            }
        }
        SavedGame {
            header,
            game: self.game.clone(),
        }
    }

    fn save(&mut self, path: &str, sheet: bool) -> io::Result<()> {
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
        match std::fs::write(Path::new(path), text) {
            Ok(()) => {
                let what = if sheet {
                    "Score sheet exported to"
                } else {
                    self.dirty = false;
                    self.header = saved.header;
                    "Game saved to"
                };
                self.say(&format!(
                    "{what} {path} ({} moves).",
                    self.game.moves().len()
                ))
            }
            Err(e) => self.say(&format!("Cannot write {path}: {e}.")),
        }
    }

    fn load(&mut self, path: &str) -> io::Result<()> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return self.say(&format!("Cannot read {path}: {e}.")),
        };
        match ploy_sheet::read(&text) {
            Ok((format, saved)) => {
                self.game = saved.game;
                self.header = saved.header;
                self.dirty = false;
                self.paused = false;
                self.engine.clear();
                self.reset_clocks();
                let what = match format {
                    ploy_sheet::Format::Sheet => "score sheet",
                    _ => "game record",
                };
                let msg = format!(
                    "Loaded the {what} {path}: {}, {} moves.",
                    variant_name(self.variant()),
                    self.game.moves().len()
                );
                self.say(&msg)?;
                self.check_players()?;
                self.show_board()
            }
            Err(e) => self.say(&format!("Cannot load {path}: {e}.")),
        }
    }

    /// Whether a command that would drop the game may go ahead; if not, says why.
    fn may_discard(&mut self, command: &str) -> io::Result<bool> {
        if !self.dirty || self.game.moves().is_empty() || self.confirm.as_deref() == Some(command) {
            return Ok(true);
        }
        let n = self.game.moves().len();
        self.say(&format!(
            "The game ({n} moves) is not saved. Type `save FILE` to keep it, or `{command}` again \
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
                variant_name(variant)
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
            "hint" => self.hint()?,
            "go" => {
                if self.game.outcome().is_some() {
                    self.say("The game is over.")?;
                } else {
                    self.engine_move()?;
                    self.paused = false;
                }
            }
            "save" | "sheet" => match one_arg("a file name") {
                Ok(path) => self.save(path, cmd_lower == "sheet")?,
                Err(e) => self.say(&e)?,
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
            "resign" => {
                let seat = self.game.position().mover();
                match self.game.resign(seat) {
                    Ok(()) => {
                        self.dirty = true;
                        self.status()?;
                    }
                    Err(e) => self.say(&format!("Cannot resign: {e}."))?,
                }
            }
            "draw" => match self.game.agree_draw() {
                Ok(()) => {
                    self.dirty = true;
                    self.status()?;
                }
                Err(e) => self.say(&format!("Cannot agree a draw: {e}."))?,
            },
            _ => {
                if words.len() > 1 {
                    self.say(&format!(
                        "Unknown command `{cmd}`; type `help` for the commands."
                    ))?;
                } else {
                    match read_move(&self.game, cmd) {
                        Ok(mv) => {
                            self.paused = false;
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

    fn engine_to_move(&self) -> bool {
        self.game.outcome().is_none()
            && !self.paused
            && self.players[self.game.position().mover().index()] == Player::Engine
            && Engine::supports(self.variant())
    }
}

/// Runs a session: reads lines from `input` until `quit` or its end, writes everything to
/// `output`. Whenever the engine is to move it moves without waiting for input, so a game
/// the engine plays against itself runs to its end.
///
/// # Errors
/// Reading `input` or writing `output` failed.
pub fn run(input: impl BufRead, output: impl Write, options: Options) -> io::Result<()> {
    let load = options.load.clone();
    let echo = options.echo;
    let mut s = Session::new(output, options);
    s.say(&format!(
        "Ploy ({}) - type `help` for the commands.",
        crate::engine::NAME
    ))?;
    let msg = format!("Rules: {}.", rules_text(&s.game.rules(), s.variant()));
    s.say(&msg)?;
    s.players_text()?;
    s.check_players()?;
    match load {
        Some(path) => s.load(&path)?,
        None => s.show_board()?,
    }
    let mut lines = input.lines();
    loop {
        if s.engine_to_move() {
            s.engine_move()?;
            continue;
        }
        s.prompt()?;
        let Some(line) = lines.next() else {
            writeln!(s.out)?;
            if s.dirty && !s.game.moves().is_empty() {
                let n = s.game.moves().len();
                s.say(&format!(
                    "End of input: the game ({n} moves) was not saved."
                ))?;
            }
            break;
        };
        let line = line?;
        if echo {
            writeln!(s.out, "{}", line.trim_end())?;
        }
        if let Flow::Quit = s.command(line.trim())? {
            break;
        }
    }
    s.out.flush()
}
