//! `ploy pente play`: Pente in the terminal, a person against the bot, or against another
//! person.
//!
//! ```text
//! ploy pente play [--size N] [--level N] [--difficulty D] [--depth D] [--padding P] [--width 4,3,2]
//!     [--flip] [--no-tournament-rule] [--seed N] [--white human|bot] [--black human|bot]
//!     [--movetime TIME] [--load FILE] [OPTION...]
//! ```
//!
//! The options also come in the 2018 program's spelling, as arguments (`'size(13)'`,
//! `'difficulty(4)'`, `'width([4,3,2])'`, `'flip(true)'`, `'rule(false)'` and their long
//! names, and `'level(3)'`) or typed before the first move. The bot plays at `--level N`
//! (1 to 8; 8, the default, is full strength), thinking at most `--movetime` a move (1s; a
//! bare number is milliseconds); `--difficulty D` (1 to 5) is level D + 1; depth, padding
//! or width make the 2018 program's narrowed search, which takes no time budget. Type `help` for the commands: a move (`K10`), `undo`, `hint`,
//! `save FILE`, `load FILE`, `board`, `new`, `options`, `quit`.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};
use pente::options::{SeedOption, Settings};
use pente::{Color, Engine, Game, Level, Limits, Move, Record, Strength, display};

use crate::cli::{Failure, parse_duration};

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The engine.
    Bot,
}

/// Play Pente in the terminal against the bot or another person.
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// Board size: odd, 7 to 19 (default 19).
    #[arg(long)]
    pub size: Option<pente::Size>,
    /// Bot level, 1 (weakest) to 8 (full strength, the default).
    #[arg(long, value_name = "N")]
    pub level: Option<Level>,
    /// Bot difficulty of the 2018 program, 1 to 5: level D + 1.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=5))]
    pub difficulty: Option<u32>,
    /// Bot look-ahead in plies (overrides the difficulty's).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Bot padding: candidate moves lie within the stones' box widened by this much.
    #[arg(long)]
    pub padding: Option<u8>,
    /// Bot widths per ply, such as 4,3,2 (the last repeats).
    #[arg(long, value_delimiter = ',')]
    pub width: Option<Vec<u16>>,
    /// Show the board turned for Black when Black is to move.
    #[arg(long)]
    pub flip: bool,
    /// Play without the tournament rule.
    #[arg(long)]
    pub no_tournament_rule: bool,
    /// Seed of the bot's choices among equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Who plays White (moves first).
    #[arg(long, value_enum, default_value_t = Player::Human)]
    pub white: Player,
    /// Who plays Black.
    #[arg(long, value_enum, default_value_t = Player::Bot)]
    pub black: Player,
    /// Thinking time of the bot at full strength; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = parse_duration)]
    pub movetime: Duration,
    /// Start from a saved game record.
    #[arg(long)]
    pub load: Option<PathBuf>,
    /// Options in the 2018 program's spelling: size(13) difficulty(4) depth(5) padding(2)
    /// width(\[4,3,2\]) flip(true) rule(false), and their long names.
    pub options: Vec<String>,
}

const HELP: &str = "\
Commands:
  K10             play a stone (column letter A-T without I, row number; any case)
  undo            take back your last move (and the bot's answer)
  hint            ask the engine for a move
  board           show the board again
  save FILE       save the game record
  load FILE       load a game record
  new             start again with the same settings
  options         show the settings
  help            this text
  quit            leave
Before the first move, options in the 2018 program's spelling change the game:
  size(13) board_size(S)   level(N)   difficulty(D)   depth(D)   padding(P)
  width([4,3,2]) width(W)  flip(true) flip_board(B)  rule(false) tournament_rule(B)";

struct Session<W: Write> {
    out: W,
    settings: Settings,
    players: [Player; 2],
    game: Game,
    bot: Engine,
    movetime: Duration,
    seed: u64,
}

/// The bot of `strength`: at full strength it plays from the opening book (19 × 19 with
/// the tournament rule; the book holds nothing else).
fn bot_engine(strength: Strength, seed: u64) -> Engine {
    Engine::new(strength)
        .with_seed(seed)
        .with_book(Some(pente::book::Book::builtin()))
}

fn describe(strength: &Strength) -> String {
    match strength {
        Strength::Full => "full strength".to_owned(),
        Strength::Level(l) if l.is_full() => "level 8, full strength".to_owned(),
        Strength::Level(l) => format!("level {l}"),
        Strength::Ladder(l) => l.to_string(),
    }
}

impl<W: Write> Session<W> {
    fn new_engine(&mut self) {
        self.bot = bot_engine(self.settings.strength(), self.seed);
    }

    fn show(&mut self) -> std::io::Result<()> {
        let pos = self.game.position();
        let flip = self.settings.flip && pos.turn() == Color::Black && !pos.is_over();
        writeln!(self.out)?;
        write!(self.out, "{}", display::board(pos, flip))?;
        writeln!(
            self.out,
            "Captured: White (●) {}, Black (○) {}{}",
            pos.captures(Color::White),
            pos.captures(Color::Black),
            self.game
                .moves()
                .last()
                .map_or(String::new(), |m| format!("; last move {m}"))
        )?;
        match pos.outcome() {
            Some(o) => writeln!(self.out, "Game over: {o}."),
            None => Ok(()),
        }
    }

    fn name(&self, c: Color) -> String {
        match self.players[c.index()] {
            Player::Human => "human".to_owned(),
            Player::Bot => format!("bot ({})", describe(&self.settings.strength())),
        }
    }

    fn limits(&self) -> Limits {
        match self.settings.strength() {
            Strength::Full | Strength::Level(_) => Limits::move_time(self.movetime),
            Strength::Ladder(_) => Limits::default(),
        }
    }

    fn bot_move(&mut self) -> std::io::Result<()> {
        let pos = self.game.position().clone();
        let limits = self.limits();
        let a = self.bot.search(&pos, &limits, |_| {});
        let mv = a.best_move.expect("the game goes on");
        self.game.play(mv).expect("the engine plays legal moves");
        writeln!(
            self.out,
            "{} plays {mv} (score {}, depth {})",
            if pos.turn() == Color::White {
                "White"
            } else {
                "Black"
            },
            a.score,
            a.depth
        )?;
        self.show()
    }

    /// Handles one line; returns false to quit.
    fn command(&mut self, line: &str) -> std::io::Result<bool> {
        let line = line.trim();
        let (word, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(w, r)| (w, r.trim()));
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" | "halt." | "q" => return Ok(false),
            "help" | "?" => writeln!(self.out, "{HELP}")?,
            "board" => self.show()?,
            "options" => {
                let r = self.settings.rules;
                writeln!(
                    self.out,
                    "Board {}x{}, tournament rule {}, flip {}, bot: {}, seed {}",
                    r.size,
                    r.size,
                    if r.tournament_rule { "on" } else { "off" },
                    self.settings.flip,
                    describe(&self.settings.strength()),
                    self.seed
                )?;
            }
            "new" => {
                self.game = Game::new(self.settings.rules);
                self.new_engine();
                self.show()?;
            }
            "undo" => {
                let mut n = 0;
                while self.game.undo().is_some() {
                    n += 1;
                    let turn = self.game.position().turn();
                    if self.players[turn.index()] == Player::Human {
                        break;
                    }
                }
                if n == 0 {
                    writeln!(self.out, "Nothing to take back.")?;
                } else {
                    self.show()?;
                }
            }
            "hint" => {
                if self.game.position().is_over() {
                    writeln!(self.out, "The game is over.")?;
                } else {
                    let mut engine = bot_engine(Strength::Full, self.seed);
                    let a = engine.search(
                        self.game.position(),
                        &Limits::move_time(self.movetime),
                        |_| {},
                    );
                    if let Some(m) = a.best_move {
                        writeln!(self.out, "Hint: {m} (score {})", a.score)?;
                    }
                }
            }
            "save" => {
                if rest.is_empty() {
                    writeln!(self.out, "Usage: save FILE")?;
                } else {
                    let record = Record::from_game(
                        &self.game,
                        &self.name(Color::White),
                        &self.name(Color::Black),
                    );
                    match crate::play::write_atomically(
                        Path::new(rest),
                        record.to_string().as_bytes(),
                    ) {
                        Ok(()) => writeln!(self.out, "Saved to {rest}.")?,
                        Err(e) => writeln!(self.out, "Cannot save to {rest}: {e}")?,
                    }
                }
            }
            "load" => {
                if rest.is_empty() {
                    writeln!(self.out, "Usage: load FILE")?;
                } else {
                    match load(Path::new(rest)) {
                        Ok(record) => {
                            self.settings.rules = record.rules;
                            self.game = record.replay();
                            self.new_engine();
                            writeln!(self.out, "Loaded {rest}.")?;
                            self.show()?;
                        }
                        Err(e) => writeln!(self.out, "Cannot load {rest}: {e}")?,
                    }
                }
            }
            _ if line.contains('(') => match line.parse::<SeedOption>() {
                Ok(option) => {
                    if self.game.moves().is_empty() {
                        self.settings.apply(&option);
                        self.game = Game::new(self.settings.rules);
                        self.new_engine();
                        writeln!(self.out, "Set {option}.")?;
                        self.show()?;
                    } else {
                        writeln!(
                            self.out,
                            "Options change the game only before the first move (try new)."
                        )?;
                    }
                }
                Err(e) => writeln!(self.out, "{e}")?,
            },
            _ => match line.parse::<Move>() {
                Ok(mv) => match self.game.play(mv) {
                    Ok(()) => self.show()?,
                    Err(e) => writeln!(self.out, "{}: {}.", e.mv, e.reason)?,
                },
                Err(e) => writeln!(self.out, "Not a move or command ({e}); type help.")?,
            },
        }
        Ok(true)
    }

    fn prompt(&mut self) -> std::io::Result<()> {
        let pos = self.game.position();
        if pos.is_over() {
            write!(self.out, "> ")?;
        } else {
            let who = if pos.turn() == Color::White {
                "White (●)"
            } else {
                "Black (○)"
            };
            write!(self.out, "{who} to move> ")?;
        }
        self.out.flush()
    }

    fn run(&mut self, input: impl BufRead) -> std::io::Result<()> {
        writeln!(
            self.out,
            "Pente on {}x{}{}; White: {}, Black: {}. Type help for the commands.",
            self.settings.rules.size,
            self.settings.rules.size,
            if self.settings.rules.tournament_rule {
                " with the tournament rule"
            } else {
                ""
            },
            self.name(Color::White),
            self.name(Color::Black)
        )?;
        self.show()?;
        let mut lines = input.lines();
        loop {
            let pos = self.game.position();
            if !pos.is_over() && self.players[pos.turn().index()] == Player::Bot {
                self.bot_move()?;
                continue;
            }
            self.prompt()?;
            let Some(line) = lines.next() else {
                writeln!(self.out)?;
                return Ok(());
            };
            if !self.command(&line?)? {
                return Ok(());
            }
        }
    }
}

fn load(path: &Path) -> Result<Record, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    text.parse::<Record>().map_err(|e| e.to_string())
}

/// Plays until `quit` or the end of standard input.
///
/// # Errors
/// A bad option (status 2), a record that cannot be loaded, a failed read or write.
pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    let mut settings = Settings::default();
    let mut options = Vec::new();
    if let Some(s) = args.size {
        options.push(SeedOption::Size(s));
    }
    if let Some(d) = args.difficulty {
        options.push(SeedOption::Difficulty(d));
    }
    if let Some(l) = args.level {
        options.push(SeedOption::Level(l));
    }
    if let Some(d) = args.depth {
        options.push(SeedOption::Depth(d));
    }
    if let Some(p) = args.padding {
        options.push(SeedOption::Padding(p));
    }
    if let Some(w) = &args.width {
        if w.is_empty() || w.contains(&0) {
            return Err(Failure::usage("widths are at least 1"));
        }
        options.push(SeedOption::Width(w.clone()));
    }
    if args.flip {
        options.push(SeedOption::Flip(true));
    }
    if args.no_tournament_rule {
        options.push(SeedOption::TournamentRule(false));
    }
    for text in &args.options {
        match text.parse::<SeedOption>() {
            Ok(o) => options.push(o),
            Err(e) => return Err(Failure::usage(format!("{text}: {e}"))),
        }
    }
    for o in &options {
        settings.apply(o);
    }
    let mut game = Game::new(settings.rules);
    if let Some(path) = &args.load {
        match load(path) {
            Ok(record) => {
                settings.rules = record.rules;
                game = record.replay();
            }
            Err(e) => {
                return Err(Failure::failed(format!(
                    "cannot load {}: {e}",
                    path.display()
                )));
            }
        }
    }
    let stdout = std::io::stdout();
    let mut session = Session {
        out: stdout.lock(),
        bot: bot_engine(settings.strength(), args.seed),
        settings,
        players: [args.white, args.black],
        game,
        movetime: args.movetime.max(Duration::from_millis(1)),
        seed: args.seed,
    };
    session.run(std::io::stdin().lock())?;
    Ok(())
}
