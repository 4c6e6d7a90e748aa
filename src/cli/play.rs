//! `ploy play` and the `play` example: the terminal game ([`crate::play::run`]) with its
//! options read by clap into [`crate::play::Options`].
//!
//! Times: `--move-time 2s` (a bare number is milliseconds) and `--clock 5m+2s`. The `play`
//! example's old spellings still work everywhere: `--time S` is seconds per move, and a clock
//! written without units, `--clock M+I`, is minutes per game plus seconds per move.

use std::io::{self, IsTerminal};
use std::time::Duration;

use clap::Parser;
use ploy_core::{Rules, Variant};

use super::{ClockSpec, Failure, RuleArgs, excerpt, parse_duration};
use crate::engine::MAX_HASH_MB;
use crate::play::{Options, Player, Strength};
use ploy_engine::Level;

/// A level, 1 to 8, with [`ploy_engine::LevelError`]'s message (`ploy play`, `ploy
/// analyze`, `ploy match`).
pub(crate) fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<Level>().map_err(|e| e.to_string())
}

/// Play Ploy in the terminal: against the engine (either side), engine against engine, or
/// people against each other, in every variant and under every rule option.
#[derive(Parser, Clone, Debug, Default, PartialEq, Eq)]
#[command(
    name = "play",
    version,
    after_help = "Type moves in Tensi's notation (e3-e4, e4xf5, c3+3, e7-d6+2) or as university \
                  strings (e3-e4-0), and `help` for the commands (undo, hint, save, load, \
                  sheet, new, quit, ...). Default: you play Green (moving first) against the \
                  engine at 2 s per move; in four-player games you play Green against three \
                  engines. With a clock, a player whose time runs out loses on time."
)]
pub struct PlayArgs {
    /// Who plays Green: human or engine.
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    pub green: Option<Player>,
    /// Who plays Red: human or engine.
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    pub red: Option<Player>,
    /// Who plays Yellow (four players): human or engine.
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    pub yellow: Option<Player>,
    /// Who plays Blue (four players): human or engine.
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    pub blue: Option<Player>,
    /// Everybody plays by hand (seat options still choose single seats).
    #[arg(long, conflicts_with = "engines")]
    pub humans: bool,
    /// The engine plays every seat.
    #[arg(long)]
    pub engines: bool,
    /// The variant: two-player, ffa (free-for-all) or partnership.
    #[arg(long, value_name = "VARIANT", value_parser = parse_variant)]
    pub variant: Option<Variant>,
    /// The engine thinks this long per move: `2s`, `500ms` (a bare number is
    /// milliseconds).
    #[arg(long, group = "strength", value_name = "DURATION",
          value_parser = parse_nonzero_duration)]
    pub move_time: Option<Duration>,
    /// Seconds per move (the old spelling of --move-time).
    #[arg(long, group = "strength", value_name = "SECONDS", hide = true,
          value_parser = parse_seconds)]
    pub time: Option<Duration>,
    /// A clock per player: time for the game and an increment per move, `5m+2s` (old form
    /// without units: minutes + seconds, `5+2`).
    #[arg(long, group = "strength", value_name = "CLOCK", value_parser = parse_clock)]
    pub clock: Option<ClockSpec>,
    /// The engine searches this many nodes per move.
    #[arg(long, group = "strength", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// The engine searches this many plies deep per move.
    #[arg(long, group = "strength", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// The engine's level: 1 (weakest) to 8 (full strength at the budget, the default).
    #[arg(long, value_name = "N", value_parser = parse_level)]
    pub level: Option<Level>,
    /// The seed of a weaker level's choices: the same game and seed give the same engine
    /// moves at a node or depth budget [default: 0].
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// The engine's search in the free-for-all: paranoid, brs, brs+ or mcts; without it the
    /// engine's default, Best-Reply Search on the two-sided searcher
    /// ([`ploy_engine::Engine::set_ffa_search`]); the other variants ignore it.
    #[arg(long, value_name = "KIND")]
    pub search: Option<ploy_search::multi::SearchKind>,
    /// Transposition table size in MiB (1 to 4096).
    #[arg(long, value_name = "MIB",
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    pub hash: Option<u64>,
    /// Colours on (the default when standard output is a terminal and NO_COLOR is not
    /// set).
    #[arg(long, alias = "colour", overrides_with = "no_color")]
    pub color: bool,
    /// Colours off.
    #[arg(long, alias = "no-colour", overrides_with = "color")]
    pub no_color: bool,
    /// Start with a saved game record or score sheet.
    #[arg(long, value_name = "FILE")]
    pub load: Option<String>,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// `human`, `person`, `h` or `engine`, `computer`, `e`.
fn parse_player(text: &str) -> Result<Player, String> {
    match text {
        "human" | "person" | "h" => Ok(Player::Human),
        "engine" | "computer" | "e" => Ok(Player::Engine),
        _ => Err(format!("`{}`: expected human or engine", excerpt(text, 40))),
    }
}

/// `two-player` (`two`, `2`), `ffa` (`free-for-all`) or `partnership` (`teams`).
fn parse_variant(text: &str) -> Result<Variant, String> {
    match text {
        "two-player" | "2" | "two" => Ok(Variant::TwoPlayer),
        "ffa" | "free-for-all" => Ok(Variant::FreeForAll),
        "partnership" | "teams" => Ok(Variant::Partnership),
        _ => Err(format!(
            "`{}`: expected two-player, ffa or partnership",
            excerpt(text, 40)
        )),
    }
}

fn parse_nonzero_duration(text: &str) -> Result<Duration, String> {
    let d = parse_duration(text)?;
    if d.is_zero() {
        return Err("the engine needs some time to think".to_owned());
    }
    Ok(d)
}

/// A number of seconds (`2`, `0.5`), the old unit of `--time`; a duration with a unit is
/// read as such.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    if text.trim().ends_with(|c: char| c.is_ascii_alphabetic()) {
        return parse_nonzero_duration(text);
    }
    let s: f64 = text
        .trim()
        .parse()
        .ok()
        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s < 1e9)
        .ok_or_else(|| format!("`{}` is not a number of seconds", excerpt(text, 40)))?;
    Ok(Duration::from_secs_f64(s))
}

/// `5m+2s` ([`ClockSpec`]); without any unit the old form, minutes + seconds (`5+2`, `10`).
fn parse_clock(text: &str) -> Result<ClockSpec, String> {
    if text.contains(|c: char| c.is_ascii_alphabetic()) {
        return text.parse();
    }
    let (m, i) = text.split_once('+').unwrap_or((text, "0"));
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && (0.0..1e9).contains(x))
    };
    let bad = || {
        format!(
            "`{}` is not a clock: write time + increment, e.g. 5m+2s",
            excerpt(text, 40)
        )
    };
    let base = Duration::from_secs_f64(number(m).ok_or_else(bad)? * 60.0);
    let increment = Duration::from_secs_f64(number(i).ok_or_else(bad)?);
    if base.is_zero() {
        return Err(bad());
    }
    Ok(ClockSpec { base, increment })
}

impl PlayArgs {
    /// The session options these arguments ask for, before anything about the terminal is
    /// known (colours only with `--color`; no live display, no echo).
    #[must_use]
    pub fn options(&self) -> Options {
        let mut o = Options {
            rules: self.rules.rules(Rules::standard()),
            colour: self.color && !self.no_color,
            load: self.load.clone(),
            ..Options::default()
        };
        if let Some(v) = self.variant {
            o.variant = v;
        }
        if let Some(mb) = self.hash {
            o.hash_mb = mb as usize;
        }
        if let Some(level) = self.level {
            o.level = level;
        }
        if let Some(kind) = self.search {
            o.search = Some(kind);
        }
        if let Some(seed) = self.seed {
            o.seed = seed;
        }
        if let Some(t) = self.move_time.or(self.time) {
            o.strength = Strength::MoveTime(t);
        } else if let Some(c) = self.clock {
            o.strength = Strength::Clock {
                base: c.base,
                increment: c.increment,
            };
        } else if let Some(n) = self.nodes {
            o.strength = Strength::Nodes(n);
        } else if let Some(d) = self.depth {
            o.strength = Strength::Depth(d);
        }
        let seats = [self.green, self.red, self.yellow, self.blue];
        if self.humans {
            o.players = [Player::Human; 4];
        } else if self.engines {
            o.players = [Player::Engine; 4];
        } else if o.variant.is_four_player() && seats.iter().all(Option::is_none) {
            o.players = [
                Player::Human,
                Player::Engine,
                Player::Engine,
                Player::Engine,
            ];
        }
        for (slot, seat) in o.players.iter_mut().zip(seats) {
            if let Some(p) = seat {
                *slot = p;
            }
        }
        o
    }
}

/// Runs the game on standard input and output ([`crate::play::run_stdio`]): colours when
/// standard output is a terminal and `NO_COLOR` is not set (unless `--color`/`--no-color`
/// say), a line editor showing the running clock in a terminal, and the input echoed when
/// it is not a terminal (so that a piped session reads like a transcript).
///
/// # Errors
/// A failed read or write (status 1).
pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    let tty_out = io::stdout().is_terminal();
    let mut options = args.options();
    if !args.color && !args.no_color {
        options.colour = tty_out && std::env::var_os("NO_COLOR").is_none();
    }
    options.live = tty_out;
    options.echo = !io::stdin().is_terminal();
    crate::play::run_stdio(options).map_err(|e| {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::closed_pipe()
        } else {
            Failure::failed(format!("play: {e}"))
        }
    })
}

impl Options {
    /// Reads the command-line options (without the program name) as the `play` example and
    /// `ploy play` do (`--help` lists them; the parser is [`PlayArgs`]).
    ///
    /// # Errors
    /// clap's message naming the option that is wrong (or the help text for `--help`).
    pub fn from_args<I, S>(args: I) -> Result<Options, String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        use clap::Parser as _;
        let args = std::iter::once("play".to_owned())
            .chain(args.into_iter().map(|a| a.as_ref().to_owned()));
        PlayArgs::try_parse_from(args)
            .map(|a| a.options())
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(args: &[&str]) -> Result<Options, clap::Error> {
        PlayArgs::try_parse_from(std::iter::once("play").chain(args.iter().copied()))
            .map(|a| a.options())
    }

    #[test]
    fn old_and_new_time_spellings() {
        let two_s = Strength::MoveTime(Duration::from_secs(2));
        assert_eq!(options(&["--time", "2"]).unwrap().strength, two_s);
        assert_eq!(options(&["--move-time", "2s"]).unwrap().strength, two_s);
        assert_eq!(options(&["--move-time", "2000"]).unwrap().strength, two_s);
        assert_eq!(
            options(&["--time", "0.5"]).unwrap().strength,
            Strength::MoveTime(Duration::from_millis(500))
        );
        let clock = Strength::Clock {
            base: Duration::from_secs(300),
            increment: Duration::from_secs(2),
        };
        assert_eq!(options(&["--clock", "5+2"]).unwrap().strength, clock);
        assert_eq!(options(&["--clock", "5m+2s"]).unwrap().strength, clock);
        for bad in [
            &["--time", "x"][..],
            &["--time", "0"],
            &["--move-time", "0s"],
            &["--clock", "0+2"],
            &["--time", "2", "--depth", "3"],
            &["--hash", "0"],
            &["--variant", "three"],
            &["--green", "robot"],
            &["--level", "0"],
            &["--level", "9"],
            &["--level", "x"],
        ] {
            let e = options(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}");
        }
    }

    #[test]
    fn players_and_rules() {
        let o = options(&["--variant", "ffa"]).unwrap();
        assert_eq!(
            o.players,
            [
                Player::Human,
                Player::Engine,
                Player::Engine,
                Player::Engine
            ]
        );
        let o = options(&["--humans", "--red", "engine"]).unwrap();
        assert_eq!(
            o.players,
            [Player::Human, Player::Engine, Player::Human, Player::Human]
        );
        let o = options(&["--university", "--relaxed", "--no-capture-limit", "50"]).unwrap();
        assert_eq!(o.rules.no_capture_limit, Some(50));
        assert!(!o.rules.repetition_draw);
        assert!(options(&["--colour"]).unwrap().colour);
        assert!(!options(&["--color", "--no-colour"]).unwrap().colour);
        assert_eq!(options(&["--hash", "64"]).unwrap().hash_mb, 64);
        let o = options(&["--level", "3", "--seed", "11"]).unwrap();
        assert_eq!((o.level.get(), o.seed), (3, 11));
        assert_eq!(options(&[]).unwrap().level, Level::MAX);
        assert_eq!(options(&[]).unwrap().search, None);
        assert_eq!(
            options(&["--variant", "ffa", "--search", "brs+"])
                .unwrap()
                .search,
            Some(ploy_search::multi::SearchKind::BrsPlus)
        );
        assert!(options(&["--search", "minimax"]).is_err());
        assert_eq!(options(&[]).unwrap(), Options::default());
    }
}
