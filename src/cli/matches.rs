//! `ploy match` and the `match` example: games between two players, with the result from
//! the first player's (A's) view, an Elo difference with its 95 % interval, and optionally a
//! sequential probability ratio test (SPRT) that stops the match once it is decided; for
//! three and four players, A's placings. The user's guide is `docs/matches.md`
//! ([`crate::docs::matches`]).
//!
//! # Games
//!
//! `--game ploy` (the default) plays Ploy as described below. `--game pente` and `--game
//! pyloff` play the other games of the workspace, with their options as flags (`--size`,
//! `--no-tournament-rule`; `--size`, `--players`, `--all-freedoms`, `--cut-down`), sent to
//! engine programs as their protocol options after `setoption name Game value pente|pyloff`;
//! their players are engine programs, `full` (the game crate's engine in this process) or
//! `random` ([`board_players`]); the games, their caps and openings are in [`boards`].
//! `--ffa-seats` plays Ploy's four-player free-for-all seat by seat. Two-player Pente and
//! Pyloff are played and counted as Ploy's matches are (pairs, Elo, SPRT, the same JSON);
//! with three or four players A plays one seat, turning game by game, and B every other
//! seat, each its own player ([`board_match`]), and the match reports A's first-place share
//! and mean rank with their 95 % intervals ([`placings`], [`board_run::MultiReport`]).
//! `--log FILE` appends a JSON line per game and `--resume` goes on with a logged match
//! ([`log`]).
//!
//! # Players
//!
//! A player ([`PlayerSpec`]) is the search in this process with a named configuration
//! (`full`, `noorder`, `alphabeta`, `nolmr`), a random mover (`random`), a one-ply greedy
//! player (`greedy`: the move after which Ploy's static evaluation is best for it, a win
//! first, ties at random), or an engine program driven over the engine protocol
//! (`engine:PATH`, see [`EngineProcess`] for what is sent), so that another build, an older
//! one say, can be the opponent. Budget overrides follow `@`: `dN` (depth), `nN` (nodes),
//! `tT` (time per move), e.g. `full@d4`, `engine:./old-engine@t100ms`; without one the
//! match's `--nodes`, `--time` or `--depth` holds (20,000 nodes by default). A level
//! override `@lN` plays the search at level N, 1 to 8 (`full@l3`; an engine program is told
//! `setoption name Level value N`); a level's random choices are seeded by the match's seed
//! and the game's number, so a level match replays too. An engine program gets the match's rules as options
//! (`Repetition draw`, `No-capture limit`, ...), then the options of `--a-option NAME=VALUE`
//! / `--b-option`, and `go movetime T`, `go depth D` or `go nodes N`. It loses a game when
//! it crashes, gives an illegal move or none, or does not answer in time (its time per move
//! plus `--timeout`, 5 s by default; 60 s a move with a depth or node budget), and is
//! started again for the next game.
//!
//! # Ploy's games
//!
//! Games come in pairs: game `g` (counting from 0) plays the opening of pair `g / 2`, with
//! A as Green (moving first in the standard start) when `g` is even and as Red when it is
//! odd ([`pairing`]), so each opening is played once with each colour. In a four-player
//! opening A plays Green and Yellow (a team in a partnership game), B Red and Blue. The
//! openings are random legal plies from the seed (`--opening-plies`, 4 by default) or the
//! lines of an openings file (`--openings FILE`; the format is in [`read_openings`]). A game
//! ends by the rules, as a draw once it reaches the ply cap (`--ply-cap`, the opening
//! included), or as a loss for a player that gives no legal move.
//!
//! With `-j N`, N games are played at once on threads, each worker with its own players
//! (its own engine programs). Every game starts its players afresh (a new search, an engine
//! program's `ucinewgame`, a random player seeded by the game's number), results are
//! counted in the order of the games and the SPRT is checked after each pair in that
//! order, so with a depth or node budget a match gives the same games and the same result
//! whatever N is. (A time budget depends on the machine's load, with any N.)
//!
//! # Statistics
//!
//! The score is A's points per game (a draw counts one half); the Elo difference comes
//! with the 95 % Wilson interval of the score ([`Tally::elo`]). `--sprt ELO0,ELO1` tests
//! "A is ELO0 Elo stronger" (H0) against "A is ELO1 Elo stronger" (H1), with error rates
//! `--alpha` and `--beta` (0.05 each by default), on the pentanomial count of game pairs
//! (see [`Sprt`] and [the statistics](mod@stats)); the match stops when the log-likelihood
//! ratio reaches a bound (at the end of a pair), or after `--games` games (20,000 with
//! `--sprt` unless given). Games of other workers still under way when the test decides
//! are dropped, so that the result is the one a single worker would give.
//!
//! # Output
//!
//! A line per game, in the games' order (`game   1 A plays green : A wins after 57 plies
//! (Green wins, commander captured)`; a forfeit reads `B forfeits: timed out (no answer
//! within 5.1s)`), then the players, the tally, the Elo, the pairs, the SPRT, forfeits, and
//! each player's average nodes and time per move. With `--json` only one object on standard
//! output: `{"games", "wins", "draws", "losses", "score", "elo", "elo_low", "elo_high",
//! "llr", "lower_bound", "upper_bound", "sprt", "pentanomial", "forfeits", "a", "b"}`
//! (`score` is A's points per game, 0 to 1; `llr` and the bounds are `null` without
//! `--sprt`; `sprt` is `"H0"`, `"H1"` or `null` while undecided; `pentanomial` counts the
//! pairs A scored 0, ½, 1, 1½ and 2 points in; `forfeits` is `[A's, B's]`). Progress (games
//! played of the most, the tally, the ratio and its bounds, an estimate of the time left)
//! goes to standard error when it is a terminal.
//!
//! `--records DIR` writes every counted game as a game record (`DIR/game-001.plg`, ...;
//! `--sheets DIR` as score sheets, `game-001.txt`), each replaced atomically: the players
//! by seat, the time control and the date in the header, then the moves (the opening's
//! first); in a record, comment lines after the first say the game's number, who played
//! which colour, the opening and where it came from, and the result with its reason (a
//! draw at the ply cap, a forfeit and why). A forfeit is written as a loss on time for a
//! time-out and as a resignation otherwise (when that ends the game); a game stopped by the
//! ply cap is written unfinished.
//!
//! # An older build as the opponent
//!
//! The match that decides whether a new engine is better than an older build (the one the
//! engine's defaults cite): 50 openings of 4 random legal plies, each with colours swapped, 100 ms a move, the
//! repetition draw on and no no-capture limit, a draw at 400 plies, this build's engine
//! against an older build's, both over the engine protocol:
//!
//! ```text
//! cargo build --release --example engine
//! ploy match --a engine:target/release/examples/engine --b engine:/path/to/old/engine \
//!     --games 100 --opening-plies 4 --time 100ms --no-capture-limit 0 --ply-cap 400 -j 1
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Parser;
use ploy_core::{Rules, Seat, SeatSet, Variant};
use ploy_search::MAX_DEPTH;

use super::{Failure, RuleArgs, parse_duration, progress_bar};

pub mod board_match;
pub mod board_players;
pub mod board_run;
pub mod boards;
mod game;
pub mod log;
pub mod openings;
pub mod placings;
pub mod player;
pub mod players;
pub mod process;
mod report;
mod schedule;
pub mod stats;

use game::play_one;
pub use game::{End, GameReport};

pub use openings::{Opening, Openings, OpeningsError, read_openings};
pub use players::{
    Budget, EngineKind, Fault, FaultKind, Player, PlayerSetup, PlayerSpec, PlayerStats,
};
pub use process::{EngineProcess, ProcessSpec, parse_option};
use report::{Counter, progress_message};
pub use report::{MatchReport, PlayerReport, Standing};
pub use stats::{
    Elo, GameResult, Hypothesis, Pentanomial, Sprt, Tally, expected_score, pentanomial_llr,
};

/// The game of a match: `ploy` (the default), `pente` or `pyloff`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MatchGame {
    /// Ploy, two players or four (as two teams).
    #[default]
    Ploy,
    /// Pente.
    Pente,
    /// Pyloff, two to four players.
    Pyloff,
}

impl std::str::FromStr for MatchGame {
    type Err = String;

    fn from_str(text: &str) -> Result<MatchGame, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ploy" => Ok(MatchGame::Ploy),
            "pente" => Ok(MatchGame::Pente),
            "pyloff" => Ok(MatchGame::Pyloff),
            _ => Err(format!(
                "`{}`: the game is ploy, pente or pyloff",
                super::excerpt(text, 40)
            )),
        }
    }
}

impl std::fmt::Display for MatchGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MatchGame::Ploy => "ploy",
            MatchGame::Pente => "pente",
            MatchGame::Pyloff => "pyloff",
        })
    }
}

/// Reads `ELO0,ELO1` for `--sprt`.
fn parse_elo_pair(text: &str) -> Result<(f64, f64), String> {
    let bad = || {
        format!(
            "`{}`: expected ELO0,ELO1, e.g. 0,10",
            super::excerpt(text, 40)
        )
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let a: f64 = a.trim().parse().map_err(|_| bad())?;
    let b: f64 = b.trim().parse().map_err(|_| bad())?;
    Sprt::new(a, b, 0.05, 0.05)?;
    Ok((a, b))
}

/// Reads an error rate of the SPRT: a number strictly between 0 and 1.
fn parse_rate(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|r| *r > 0.0 && *r < 0.5)
        .ok_or_else(|| {
            format!(
                "`{}`: expected a number between 0 and 0.5, e.g. 0.05",
                super::excerpt(text, 40)
            )
        })
}

/// Play games between two players (A in one seat and B in the others with three or four)
/// and estimate how much stronger A is.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "match",
    version,
    after_help = "A SPEC is an engine name with optional budget overrides joined by `@`: \
                  full (the default configuration), noorder (table and move ordering off), \
                  alphabeta, nolmr (late move reductions off), random (a uniformly random \
                  mover), greedy (the move with the best static evaluation one ply on, ties \
                  at random); a search engine's name may be followed by `:` and search options \
                  (full:null_move=off,aspiration_window=40, as ploy_search::Config::set \
                  names them, and ffa_search=paranoid|brs|brs+|mcts for the free-for-all's search), or engine:PATH (an engine program driven over the engine protocol, \
                  told the match's rules and the --a-option/--b-option options); overrides \
                  dN (depth), nN (nodes), tT (time per move: t500 = 500 ms, t2s), and the \
                  level lN (1 to 8), e.g. full@d4, full@l3, engine:./old/engine@t100ms. \
                  Games are played in pairs: each opening (random plies from the seed, or a line of the openings file: \
                  `start | e3-e4-0 e7-e6-0`, moves alone, or a position string) once with \
                  each colour. Games reaching the ply cap are adjudicated as draws; an \
                  engine program that crashes, times out or plays an illegal move loses. The \
                  score is from A's view; the Elo difference comes with the 95 % Wilson \
                  interval of the score (a perfect score is counted a quarter game short of \
                  perfect, so that every figure stays finite). --sprt tests on game pairs \
                  (pentanomial) and stops at its bounds.\n\n\
                  This build's engine against an older build's, both over the engine \
                  protocol, 50 openings of 4 random plies with colours swapped, 100 ms a \
                  move, draws at 400 plies: ploy match --a \
                  engine:target/release/examples/engine --b engine:OLD/engine --games 100 \
                  --opening-plies 4 --time 100ms --no-capture-limit 0 --ply-cap 400\n\n\
                  --game pente (--size, --no-tournament-rule) and --game pyloff (--size, \
                  --players 2..4, --all-freedoms, --cut-down) take engine:PATH, full or random \
                  players, told the game and its options; Pente's openings are three stones by \
                  default (the centre, then points within three of it), Pyloff's four random \
                  moves. With three or four players (and Ploy's free-for-all with \
                  --ffa-seats) A plays one seat, turning game by game, B the others; the match \
                  reports A's first-place share (a shared first place counts 1/k; 95 % Wilson \
                  interval) and mean rank (95 % t interval). Pente at 1 s a move, logged: \
                  ploy match --game pente --a engine:NEW --b engine:OLD --time 1s --games 100 \
                  --log pente.jsonl --resume. Four-player Pyloff against depth-2 bots: ploy \
                  match --game pyloff --players 4 --a engine:NEW --b engine:NEW@d2 --time \
                  200ms --games 40. --log FILE appends a JSON line per game; --resume counts \
                  the logged games and plays on."
)]
pub struct MatchArgs {
    /// Number of games, played in pairs (each opening once with each colour) [default: 20;
    /// with --sprt 20000, the most it plays].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Seed of the random openings and of the random players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies of each opening [default: 4, Pente 3; with --openings, 0: random plies
    /// after each opening of the file].
    #[arg(long, value_name = "PLIES")]
    pub opening_plies: Option<u32>,
    /// Openings file: one opening a line (`start | e3-e4-0 e7-e6-0`, moves alone from the
    /// start, or a position string with or without `| moves`; `#` starts a comment).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Plies (opening included) at which a game is stopped: a draw in Ploy (default 200)
    /// and Pente (default none: the board fills); in Pyloff the score decides (default
    /// the crate's move cap, 364 on size 6).
    #[arg(long, value_name = "PLIES",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub ply_cap: Option<u32>,
    /// Default budget: nodes per move (the default is 20000 nodes).
    #[arg(long, group = "budget", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Default budget: time per move, e.g. `100ms` (a bare number is milliseconds).
    #[arg(long, group = "budget", value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Default budget: depth per move.
    #[arg(long, group = "budget",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: Option<u32>,
    /// Player A.
    #[arg(long = "a", value_name = "SPEC", default_value = "full")]
    pub a: PlayerSpec,
    /// Player B.
    #[arg(long = "b", value_name = "SPEC", default_value = "full")]
    pub b: PlayerSpec,
    /// An option for A's engine program, `NAME=VALUE` (e.g. `Hash=64`); repeatable.
    #[arg(long = "a-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub a_options: Vec<(String, String)>,
    /// An option for B's engine program, `NAME=VALUE`; repeatable.
    #[arg(long = "b-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub b_options: Vec<(String, String)>,
    /// How long an engine program may take past its time per move before it loses on time
    /// [default: 5s]; with a depth or node budget, how long a move may take [default: 60s].
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub timeout: Option<Duration>,
    /// Sequential probability ratio test of ELO0 against ELO1 (Elo of A over B, e.g.
    /// `0,10`) on game pairs: stop when it decides.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_elo_pair, allow_hyphen_values = true)]
    pub sprt: Option<(f64, f64)>,
    /// The SPRT's chance of accepting ELO1 when ELO0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt", value_parser = parse_rate)]
    pub alpha: f64,
    /// The SPRT's chance of accepting ELO0 when ELO1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt", value_parser = parse_rate)]
    pub beta: f64,
    /// Games played at once (threads; each with its own players).
    #[arg(short = 'j', long = "jobs", default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// Write a game record of every game into this directory (game-001.plg, ...; Pente's
    /// game-001.pente, Pyloff's game-001.pyloff).
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Write a score sheet of every game into this directory (game-001.txt, ...).
    #[arg(long, value_name = "DIR")]
    pub sheets: Option<PathBuf>,
    /// Print one JSON object: {"games", "wins", "draws", "losses", "score", "elo",
    /// "elo_low", "elo_high", "llr", "lower_bound", "upper_bound", "sprt", "pentanomial",
    /// "forfeits", "a", "b"} (and no game lines); with three or four players {"game",
    /// "players", "games", "share", "share_low", "share_high", "fair_share", "b_share",
    /// "rank", "rank_low", "rank_high", "fair_rank", "seats", "forfeits", "a", "b"}.
    #[arg(long)]
    pub json: bool,
    /// The game: ploy, pente or pyloff (players are then engine programs, `full` or
    /// `random`).
    #[arg(long, default_value_t = MatchGame::Ploy, value_name = "GAME")]
    pub game: MatchGame,
    /// Pente or Pyloff: the board size (Pente 7 to 19, odd [default: 19]; Pyloff 2 to 13
    /// [default: 6]).
    #[arg(long, value_name = "N")]
    pub size: Option<u8>,
    /// Pente: without the tournament rule.
    #[arg(long)]
    pub no_tournament_rule: bool,
    /// Pyloff: the number of players, 2 to 4 [default: 2]; with 3 or 4, A plays one seat
    /// (turning game by game) and B the others.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: Option<u8>,
    /// Pyloff: freedoms on every level.
    #[arg(long)]
    pub all_freedoms: bool,
    /// Pyloff: the cut-down game.
    #[arg(long)]
    pub cut_down: bool,
    /// Ploy: play the four-player free-for-all with A in one seat, turning game by game,
    /// and B in the other three (each seat its own player), counted by placings; without
    /// it four-player games are played by two sides (A = Green and Yellow).
    #[arg(long)]
    pub ffa_seats: bool,
    /// Append one JSON line per counted game to FILE (after a first line that describes
    /// the match).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Go on with the match of --log: count the games there and play on from the next.
    #[arg(long, requires = "log")]
    pub resume: bool,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl MatchArgs {
    /// The default budget of both players.
    #[must_use]
    pub fn budget(&self) -> Budget {
        if let Some(n) = self.nodes {
            Budget::Nodes(n)
        } else if let Some(t) = self.time {
            Budget::MoveTime(t)
        } else if let Some(d) = self.depth {
            Budget::Depth(d)
        } else {
            Budget::Nodes(20_000)
        }
    }

    /// The SPRT of `--sprt`, `--alpha` and `--beta`.
    #[must_use]
    pub fn sprt(&self) -> Option<Sprt> {
        let (e0, e1) = self.sprt?;
        Sprt::new(e0, e1, self.alpha, self.beta).ok()
    }

    /// The match these arguments describe (the openings file read).
    ///
    /// # Errors
    /// A usage [`Failure`] when the openings file cannot be read or has a bad line.
    pub fn plan(&self) -> Result<MatchPlan, Failure> {
        let rules = self.rules.rules(Rules::standard());
        let openings = match &self.openings {
            None => Openings::Random {
                seed: self.seed,
                plies: self.opening_plies.unwrap_or(4),
            },
            Some(path) => {
                let shown = path.display();
                let text = ploy_sheet::load_text(path)
                    .map_err(|e| Failure::usage(format!("openings file {shown}: {e}")))?;
                let openings = read_openings(&text, rules)
                    .map_err(|e| Failure::usage(format!("openings file {shown}: {e}")))?;
                Openings::List {
                    openings,
                    seed: self.seed,
                    plies: self.opening_plies.unwrap_or(0),
                }
            }
        };
        let sprt = self.sprt();
        Ok(MatchPlan {
            games: self
                .games
                .unwrap_or(if sprt.is_some() { 20_000 } else { 20 }),
            rules,
            ply_cap: self.ply_cap.unwrap_or(200) as usize,
            openings,
            sprt,
            jobs: self.jobs,
        })
    }

    /// The game other than Ploy these arguments ask for, with its options; `None` for
    /// Ploy.
    ///
    /// # Errors
    /// A usage [`Failure`] for an option of another game, or a size or rule set the game
    /// does not have.
    pub fn board_kind(&self) -> Result<Option<boards::BoardKind>, Failure> {
        let r = &self.rules;
        let ploy_rules = r.university
            || r.standard
            || r.relaxed
            || r.single_step
            || r.no_repetition
            || r.no_capture_limit.is_some()
            || r.plays_on
            || r.bare_commander_removed;
        let refuse = |flags: &[(bool, &str)], game: MatchGame| -> Result<(), Failure> {
            match flags.iter().find(|(given, _)| *given) {
                Some((_, flag)) => Err(Failure::usage(format!(
                    "{flag} is not an option of a {game} match"
                ))),
                None => Ok(()),
            }
        };
        let pente = [(self.no_tournament_rule, "--no-tournament-rule")];
        let pyloff = [
            (self.players.is_some(), "--players"),
            (self.all_freedoms, "--all-freedoms"),
            (self.cut_down, "--cut-down"),
        ];
        let ploy = [(ploy_rules, "a Ploy rule flag")];
        match self.game {
            MatchGame::Ploy => {
                refuse(&[(self.size.is_some(), "--size")], self.game)?;
                refuse(&pente, self.game)?;
                refuse(&pyloff, self.game)?;
                Ok(self
                    .ffa_seats
                    .then(|| boards::BoardKind::PloyFfa(self.rules.rules(Rules::standard()))))
            }
            MatchGame::Pente => {
                refuse(&[(self.ffa_seats, "--ffa-seats")], self.game)?;
                refuse(&pyloff, self.game)?;
                refuse(&ploy, self.game)?;
                let size = pente::Size::new(u32::from(self.size.unwrap_or(19)))
                    .map_err(|e| Failure::usage(format!("--size: {e}")))?;
                let rules = pente::Rules::new(size).with_tournament_rule(!self.no_tournament_rule);
                Ok(Some(boards::BoardKind::Pente(rules)))
            }
            MatchGame::Pyloff => {
                refuse(&[(self.ffa_seats, "--ffa-seats")], self.game)?;
                refuse(&pente, self.game)?;
                refuse(&ploy, self.game)?;
                let options = pyloff::Options::new(
                    self.size.unwrap_or(pyloff::DEFAULT_SIZE),
                    self.players.unwrap_or(2),
                    pyloff::RuleSet::from_flags(self.all_freedoms, self.cut_down),
                )
                .map_err(|e| Failure::usage(format!("pyloff options: {e}")))?;
                Ok(Some(boards::BoardKind::Pyloff(options)))
            }
        }
    }

    /// What decides which games a match plays and how they count, as a match log's first
    /// line holds it (see [`log`]).
    #[must_use]
    pub fn setup_json(&self) -> serde_json::Value {
        let game = match self.board_kind() {
            Ok(Some(kind @ boards::BoardKind::PloyFfa(rules))) => format!("{kind} {rules:?}"),
            Ok(Some(kind)) => kind.to_string(),
            _ => format!("ploy {:?}", self.rules.rules(Rules::standard())),
        };
        serde_json::json!({
            "game": game,
            "seed": self.seed,
            "opening_plies": self.opening_plies,
            "openings": self.openings.as_ref().map(|p| p.display().to_string()),
            "ply_cap": self.ply_cap,
            "budget": self.budget().describe(),
            "a": self.a.to_string(),
            "b": self.b.to_string(),
            "a_options": self.a_options,
            "b_options": self.b_options,
            "timeout": self.timeout.map(|t| t.as_millis() as u64),
            "sprt": self.sprt.map(|(e0, e1)| [e0, e1, self.alpha, self.beta]),
        })
    }

    /// The time control of the records: the budget both players have, or each one's.
    fn time_control(&self) -> String {
        let budgets = [
            self.a.budget().unwrap_or(self.budget()),
            self.b.budget().unwrap_or(self.budget()),
        ];
        if budgets[0] == budgets[1] {
            budgets[0].describe()
        } else {
            format!("A {}, B {}", budgets[0].describe(), budgets[1].describe())
        }
    }

    /// How each player is set up (`which` 0 for A, 1 for B).
    fn setup(&self, which: usize) -> PlayerSetup {
        PlayerSetup {
            budget: self.budget(),
            seed: self.seed ^ [0xA, 0xB][which],
            rules: self.rules.rules(Rules::standard()),
            timeout: self.timeout,
            options: [&self.a_options, &self.b_options][which].clone(),
        }
    }
}

/// Game `game` (counting from 0) of a match: its pair (opening) number, and whether A plays
/// Green (and in four-player games Yellow).
#[must_use]
pub fn pairing(game: u32) -> (u32, bool) {
    (game / 2, game % 2 == 0)
}

/// The seats a side plays: Green (and Yellow) for the side that plays green, else Red (and
/// Blue).
#[must_use]
pub fn side_seats(variant: Variant, green: bool) -> SeatSet {
    let first = if green { Seat::Green } else { Seat::Red };
    let set = SeatSet::only(first);
    if variant.is_four_player() {
        set.with(first.partner())
    } else {
        set
    }
}

/// The schedule and conditions of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchPlan {
    /// Number of games (the most, with an SPRT).
    pub games: u32,
    /// The rules of every game.
    pub rules: Rules,
    /// Plies (opening included) at which a game is adjudicated as a draw.
    pub ply_cap: usize,
    /// The openings.
    pub openings: Openings,
    /// The test that may stop the match early.
    pub sprt: Option<Sprt>,
    /// Games played at once.
    pub jobs: u32,
}

/// A worker's two players, A and B.
impl schedule::Seats for [Box<dyn Player>; 2] {
    fn about(&self) -> Vec<Option<String>> {
        vec![self[0].about(), self[1].about()]
    }
}

/// Plays the match `plan`: `make` gives each worker its players (A, B), `names` are their
/// names; `on_game` is called after each counted game, in the games' order, with the
/// standing so far.
///
/// # Errors
/// Players that cannot be made (an engine program that does not start: status 1), or what
/// `on_game` returns.
pub fn play_match(
    plan: &MatchPlan,
    names: [&str; 2],
    make: &(dyn Fn() -> Result<[Box<dyn Player>; 2], String> + Sync),
    on_game: impl FnMut(&GameReport, &Standing) -> Result<(), Failure>,
) -> Result<MatchReport, Failure> {
    play_match_from(plan, names, make, Counter::new(plan.sprt), on_game)
}

/// [`play_match`] after the games `counter` has counted already (from a log): the games
/// from the next one on.
fn play_match_from(
    plan: &MatchPlan,
    names: [&str; 2],
    make: &(dyn Fn() -> Result<[Box<dyn Player>; 2], String> + Sync),
    mut counter: Counter,
    mut on_game: impl FnMut(&GameReport, &Standing) -> Result<(), Failure>,
) -> Result<MatchReport, Failure> {
    let first = if counter.standing.verdict.is_some() {
        plan.games
    } else {
        counter.standing.tally.games()
    };
    let play = |index: u32, players: &mut [Box<dyn Player>; 2], stop: &AtomicBool| {
        play_one(plan, index, players, stop)
    };
    let about = schedule::schedule(first, plan.games, plan.jobs, make, &play, |report| {
        let forfeit = match report.end {
            End::Forfeit { loser, .. } => Some(loser),
            _ => None,
        };
        let decided = counter.count(report.result(), forfeit, report.stats);
        on_game(&report, &counter.standing)?;
        Ok(decided)
    })?;
    let standing = counter.standing;
    let mut about = about.into_iter();
    let (a_about, b_about) = (about.next().flatten(), about.next().flatten());
    Ok(MatchReport {
        standing,
        sprt: plan.sprt,
        a: PlayerReport {
            name: names[0].to_owned(),
            about: a_about,
            stats: standing.stats[0],
        },
        b: PlayerReport {
            name: names[1].to_owned(),
            about: b_about,
            stats: standing.stats[1],
        },
    })
}

/// Makes a directory for records or sheets.
fn make_dir(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::usage(format!("cannot make the directory {}: {e}", dir.display())))
}

/// Runs `match` with `args`, writing to standard output.
///
/// # Errors
/// A usage failure (status 2): an openings file that cannot be read, an option for a player
/// that is not an engine program, a directory that cannot be made. A failure (status 1): an
/// engine program that does not start, a failed write.
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    if let Some(kind) = args.board_kind()? {
        return board_run::run_board(args, kind);
    }
    let plan = args.plan()?;
    check_program_options(args)?;
    for dir in [&args.records, &args.sheets].into_iter().flatten() {
        make_dir(dir)?;
    }
    let (mut log, entries) = match &args.log {
        Some(path) => {
            let (log, entries) = log::MatchLog::open(path, &args.setup_json(), args.resume)?;
            (Some(log), entries)
        }
        None => (None, Vec::new()),
    };
    let mut counter = Counter::new(plan.sprt);
    for entry in &entries {
        let (result, forfeit, stats) = log::two_player_entry(entry).map_err(Failure::usage)?;
        counter.count(result, forfeit, stats);
    }
    let names = [args.a.to_string(), args.b.to_string()];
    let time_control = args.time_control();
    let setups = [args.setup(0), args.setup(1)];
    let make = |/* a worker's players */| -> Result<[Box<dyn Player>; 2], String> {
        Ok([args.a.player(&setups[0])?, args.b.player(&setups[1])?])
    };
    let bar = progress_bar(
        u64::from(plan.games),
        "match {pos}/{len} [{bar:12}] {msg} ~{eta} left",
    );
    bar.set_message(progress_message(&counter.standing, plan.sprt));
    bar.set_position(entries.len() as u64);
    let width = plan.games.to_string().len().max(3);
    let mut out = std::io::stdout().lock();
    if !args.json && !entries.is_empty() {
        writeln!(out, "({} games counted from the log)", entries.len())?;
    }
    let names_ref = [names[0].as_str(), names[1].as_str()];
    let report = play_match_from(&plan, names_ref, &make, counter, |game, standing| {
        bar.inc(1);
        bar.set_message(progress_message(standing, plan.sprt));
        if let Some(log) = &mut log {
            log.append(&game.log_entry())?;
        }
        let file = format!("game-{:0width$}", game.number);
        if let Some(dir) = &args.records {
            let text = game
                .record_text([&names[0], &names[1]], &time_control)
                .map_err(Failure::failed)?;
            write_file(&dir.join(format!("{file}.plg")), &text)?;
        }
        if let Some(dir) = &args.sheets {
            let text = game
                .saved_game([&names[0], &names[1]], &time_control, true)
                .to_sheet()
                .map_err(|e| Failure::failed(e.to_string()))?;
            write_file(&dir.join(format!("{file}.txt")), &text)?;
        }
        if !args.json {
            bar.suspend(|| writeln!(out, "{}", game.line()).and_then(|()| out.flush()))?;
        }
        Ok(())
    });
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        return super::write_json(&mut out, &report.to_json());
    }
    out.write_all(report.summary().as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Replaces `path` atomically with `text`.
fn write_file(path: &Path, text: &str) -> Result<(), Failure> {
    crate::play::write_atomically(path, text.as_bytes())
        .map_err(|e| Failure::failed(format!("cannot write {}: {e}", path.display())))
}

/// Refuses `--a-option`/`--b-option` for a player that is not an engine program.
fn check_program_options(args: &MatchArgs) -> Result<(), Failure> {
    for (spec, options, flag) in [
        (&args.a, &args.a_options, "--a-option"),
        (&args.b, &args.b_options, "--b-option"),
    ] {
        if !options.is_empty() && !spec.is_process() {
            return Err(Failure::usage(format!(
                "{flag} is for an engine program (engine:PATH), not `{spec}`"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
