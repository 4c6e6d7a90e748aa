//! `ploy pyloff play`: Pyloff in the terminal: people and bots, 2 to 4 players.
//!
//! ```text
//! ploy pyloff play [--size N] [--players K] [--all-freedoms] [--cut-down] [--bots 2,3] [--movetime TIME]
//!     [--level N] [--seed S] [--search KIND]
//! ```
//!
//! The board is drawn level by level, side by side, each level with the column letters and
//! row numbers of its cells: a move names the cell (`c3`, `d4`, ...), and the piece goes on
//! that cell's lowest empty point. `.` is an empty point a piece may be placed on (if the
//! move is not suicide), `-` an empty point that does not yet rest on four pieces; pieces
//! are `x` (player 1), `o` (2), `+` (3), `*` (4), upper case when buried.
//!
//! Commands: a move (a cell, `swap` as player 2's second move), `undo` (back to the last
//! move of a person), `hint`, `moves`, `board`, `save FILE`, `load FILE`, `new`, `help`,
//! `quit`. Forced passes are played for everybody. Bots (`--bots 2,3` names their player
//! numbers) think `--movetime` a move (default 1s; a bare number is milliseconds); with
//! three or four players `--search` chooses their search (`paranoid`, `brs`, `brs+`,
//! `mcts`; default: the engine's default).

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use clap::Args;
use pyloff::{Engine, Game, Level, Limits, Move, Options, Player, Point, Position, Record, Status};

use super::GameArgs;
use crate::cli::{Failure, parse_duration};

/// Play Pyloff in the terminal: people and bots, 2 to 4 players.
#[derive(Args, Clone, Debug)]
pub struct PlayArgs {
    /// The game's options.
    #[command(flatten)]
    pub game: GameArgs,
    /// The players the bot plays, by number (e.g. 2,3).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u8).range(1..=4))]
    pub bots: Vec<u8>,
    /// The bots' time per move (also used by `hint`); a bare number is milliseconds.
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = parse_duration)]
    pub movetime: Duration,
    /// The bots' level, 1 (weakest) to 8 (full strength, the default); `hint` too.
    #[arg(long, value_name = "N", default_value = "8")]
    pub level: Level,
    /// Seed of the bots' choices at levels 1 to 7.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The bots' search for three and four players: paranoid, brs, brs+ or mcts (default:
    /// the engine's default).
    #[arg(long, value_name = "KIND")]
    pub search: Option<ploy_search::multi::SearchKind>,
}

const HELP: &str = "\
commands:
  <cell>        place on the cell's lowest empty point (e.g. c3; upper levels: b2, d4, c3...)
  swap          player 2's second move of a two-player game: take player 1's piece
  undo          take back moves up to the last move of a person
  hint          the bot's suggestion
  moves         the legal moves
  board         draw the board again
  save FILE     write the game record to FILE
  load FILE     read a game record from FILE
  new           a new game with the same options
  help          this text
  quit          leave";

/// The board, levels side by side (wrapped to the terminal width of 100 columns).
fn draw(pos: &Position) -> String {
    let n = pos.size();
    let mut blocks: Vec<Vec<String>> = Vec::new();
    for k in 0..n {
        let m = n - k;
        let shown = (0..m).any(|i| {
            (0..m).any(|j| {
                let p = Point::new(k, i, j);
                pos.get(p).is_some() || pos.is_valid(p)
            })
        });
        if !shown {
            break;
        }
        let mut lines = vec![format!("   level {k}")];
        for j in (0..m).rev() {
            let row = 2 * j + k + 1;
            let mut line = format!("{row:>3} ");
            for i in 0..m {
                let p = Point::new(k, i, j);
                let ch = match pos.get(p) {
                    Some(pl) if pos.is_buried(p) => pl.symbol().to_ascii_uppercase(),
                    Some(pl) => pl.symbol(),
                    None if pos.is_valid(p) => '.',
                    None => '-',
                };
                line.push(ch);
                line.push(' ');
            }
            lines.push(line);
        }
        let mut letters = String::from("    ");
        for i in 0..m {
            letters.push(char::from(b'a' + 2 * i + k));
            letters.push(' ');
        }
        lines.push(letters);
        blocks.push(lines);
    }
    let width = |b: &Vec<String>| b.iter().map(String::len).max().unwrap_or(0) + 3;
    let mut out = String::new();
    let mut start = 0;
    while start < blocks.len() {
        let mut end = start;
        let mut total = 0;
        while end < blocks.len() && (end == start || total + width(&blocks[end]) <= 100) {
            total += width(&blocks[end]);
            end += 1;
        }
        let height = blocks[start..end].iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for b in &blocks[start..end] {
                // Align each block's last line (the letters) at the bottom.
                let offset = height - b.len();
                let text = if row >= offset { &b[row - offset] } else { "" };
                line.push_str(&format!("{text:<w$}", w = width(b)));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        start = end;
    }
    out
}

fn status_line(game: &Game) -> String {
    let pos = game.position();
    let scores: Vec<String> = pos
        .options()
        .player_list()
        .map(|p| format!("{} ({}) {}", p, p.symbol(), pos.score(p)))
        .collect();
    let state = match pos.outcome() {
        Some(o) => match o {
            pyloff::Outcome::Draw => "game over: a draw".to_owned(),
            pyloff::Outcome::Win(w) if w.len() == 1 => format!("game over: player {w} wins"),
            pyloff::Outcome::Win(w) => format!("game over: players {w} share the win"),
        },
        None => format!(
            "move {}: player {} ({}) to move",
            game.moves().len() + 1,
            pos.to_move(),
            pos.to_move().symbol()
        ),
    };
    format!("{state}; pieces: {}", scores.join(", "))
}

struct Session {
    game: Game,
    bots: Vec<Player>,
    engine: Engine,
    limits: Limits,
    echo: bool,
}

impl Session {
    fn is_bot(&self, p: Player) -> bool {
        self.bots.contains(&p)
    }

    fn show(&self) {
        print!("{}", draw(self.game.position()));
        println!("{}", status_line(&self.game));
    }

    /// Plays forced passes and the bots' moves until a person is to move or the game ends.
    fn advance(&mut self) {
        loop {
            let pos = self.game.position();
            match pos.status() {
                Status::Over => return,
                Status::MustPass => {
                    let p = pos.to_move();
                    self.game.play(Move::Pass).expect("a forced pass is legal");
                    println!("player {p} has no legal placement and passes");
                }
                Status::Place => {
                    let p = pos.to_move();
                    if !self.is_bot(p) {
                        return;
                    }
                    let r = self.engine.search(&self.game, &self.limits);
                    let mv = r.best_move.expect("a position with moves");
                    self.game.play(mv).expect("the bot plays legal moves");
                    println!(
                        "player {p} (bot) plays {mv} (score {}, depth {})",
                        r.score, r.depth
                    );
                    self.show();
                }
            }
        }
    }

    /// Handles one line; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let Some(&first) = words.first() else {
            return true;
        };
        match first.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return false,
            "help" | "?" => println!("{HELP}"),
            "board" => self.show(),
            "moves" => {
                let moves: Vec<String> = self
                    .game
                    .position()
                    .legal_moves()
                    .iter()
                    .map(Move::to_string)
                    .collect();
                println!("legal: {}", moves.join(" "));
            }
            "hint" => {
                if self.game.position().is_over() {
                    println!("the game is over");
                } else {
                    let r = self.engine.search(&self.game, &self.limits);
                    if let Some(mv) = r.best_move {
                        println!("hint: {mv} (score {}, depth {})", r.score, r.depth);
                    }
                }
            }
            "undo" => {
                let mut undone = 0;
                while let Some((p, _)) = self.game.undo() {
                    undone += 1;
                    let pos = self.game.position();
                    if !self.is_bot(p) && pos.status() == Status::Place {
                        break;
                    }
                }
                if undone == 0 {
                    println!("nothing to undo");
                } else {
                    println!("took back {undone} move(s)");
                    self.show();
                }
            }
            "new" => {
                self.game = Game::new(self.game.options());
                self.engine.clear();
                self.show();
                self.advance();
            }
            "save" => match words.get(1) {
                None => println!("usage: save FILE"),
                Some(path) => match crate::play::write_atomically(
                    Path::new(path),
                    self.record_text().as_bytes(),
                ) {
                    Ok(()) => println!("saved to {path}"),
                    Err(e) => println!("cannot write {path}: {e}"),
                },
            },
            "load" => match words.get(1) {
                None => println!("usage: load FILE"),
                Some(path) => match load(Path::new(path)) {
                    Ok(game) => {
                        self.game = game;
                        self.engine.clear();
                        println!("loaded {path}");
                        self.show();
                        self.advance();
                    }
                    Err(e) => println!("cannot load {path}: {e}"),
                },
            },
            _ => self.play_text(line.trim()),
        }
        true
    }

    fn record_text(&self) -> String {
        self.game.record().to_string()
    }

    fn play_text(&mut self, text: &str) {
        let mv: Move = match text.parse() {
            Ok(mv) => mv,
            Err(e) => {
                println!("{e} (type help for the commands)");
                return;
            }
        };
        match self.game.play(mv) {
            Ok(()) => {
                self.show();
                self.advance();
            }
            Err(e) => println!("{e}"),
        }
    }
}

fn load(path: &Path) -> Result<Game, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let record: Record = text
        .parse()
        .map_err(|e: pyloff::RecordError| e.to_string())?;
    record.replay().map_err(|e| e.to_string())
}

/// Plays until `quit` or the end of standard input.
///
/// # Errors
/// A `--bots` player the game does not have (status 2).
pub fn run(cli: &PlayArgs) -> Result<(), Failure> {
    let options: Options = cli.game.options()?;
    let mut bots = Vec::new();
    for &b in &cli.bots {
        match Player::new(b).filter(|p| p.number() <= options.players()) {
            Some(p) => bots.push(p),
            None => {
                return Err(Failure::usage(format!(
                    "--bots: no player {b} in a game of {} players",
                    options.players()
                )));
            }
        }
    }
    let mut session = Session {
        game: Game::new(options),
        bots,
        engine: {
            let mut e = Engine::new();
            e.set_level(cli.level);
            e.set_seed(cli.seed);
            if let Some(kind) = cli.search {
                e.set_search_kind(kind);
            }
            e
        },
        limits: Limits::move_time(cli.movetime),
        echo: !std::io::stdin().is_terminal(),
    };
    println!(
        "Pyloff ({options}). Type a cell to play on its lowest empty point, help for the commands."
    );
    session.show();
    session.advance();
    let stdin = std::io::stdin().lock();
    let mut lines = stdin.lines();
    loop {
        if session.game.position().is_over() {
            print!("(game over: undo, save FILE, new or quit) > ");
        } else {
            print!("player {} > ", session.game.position().to_move());
        }
        let _ = std::io::stdout().flush();
        let Some(Ok(line)) = lines.next() else {
            println!();
            break;
        };
        if session.echo {
            println!("{line}");
        }
        if !session.command(&line) {
            break;
        }
    }
    Ok(())
}
