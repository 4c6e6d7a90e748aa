//! The command-line programs: the `ploy` binary's subcommands and the examples, which are
//! thin wrappers over the same code. Behind the default `cli` feature (`clap`, `indicatif`,
//! `serde_json`); embedders who only want the libraries use `default-features = false`.
//!
//! Each program is a `clap` argument struct and a `run` function in its module:
//! [`play`], [`analyze`], [`engine`], [`perft`], [`moves`], [`matches`](mod@matches) (`match`),
//! [`bench`](mod@bench) and [`sheet`], and the other games' programs under [`pente`] and
//! [`pyloff`] (`ploy pente moves`, `ploy pyloff bench`, ...); [`Ploy`] is the whole `ploy`
//! command line. What they share lives
//! here: durations with units ([`parse_duration`], `500ms`, `2s`, a bare number is
//! milliseconds), game clocks ([`ClockSpec`], `5m+2s`), the rule flags ([`RuleArgs`], the
//! same in every subcommand that reads or plays positions), bounded quotes of the user's
//! input ([`excerpt`]), and the way a program ends ([`Failure`], [`finish`]).
//!
//! Conventions of every program:
//! - `--help` and `--version` work everywhere; a usage error exits with status 2 and a
//!   message from clap, never a panic.
//! - `--json` (where offered) prints exactly one JSON object on standard output.
//! - Progress bars go to standard error, and only when it is a terminal.
//! - When standard output is closed early (`ploy perft start 5 --divide | head -1`), the
//!   program stops quietly with status 0.
//!
//! ```
//! use clap::Parser;
//! use ploy::cli::{Command, Ploy};
//! let cli = Ploy::try_parse_from(["ploy", "perft", "start", "2", "--json"]).unwrap();
//! assert!(matches!(cli.command, Command::Perft(ref p) if p.depth == 2 && p.json));
//! assert_eq!(
//!     Ploy::try_parse_from(["ploy", "perft", "start", "two"]).unwrap_err().exit_code(),
//!     2
//! );
//! ```

use clap::Args;
use ploy_core::{BareCommander, Elimination, PartnerElimination, Rotation, Rules};
use std::time::Duration;

pub mod analyze;
mod app;
pub mod bench;
pub mod engine;
pub mod matches;
pub mod moves;
mod output;
pub mod pente;
pub mod perft;
pub mod play;
pub mod pyloff;
pub mod sheet;

pub use app::{Command, Ploy};
pub use output::{Failure, finish};
pub(crate) use output::{progress_bar, write_json};

/// Reads a duration with a unit: `500ms`, `2s`, `1.5s`, `5m`, `1h`; a bare number is
/// milliseconds. The value saturates instead of overflowing. (The workspace's one duration
/// parser, [`ploy_search::parse_duration`] in its [`Flag`](ploy_search::DurationMode::Flag)
/// mode, with the message as a `String` for clap.)
///
/// # Errors
/// A message naming the text when it is not a non-negative number with one of the units
/// `ms`, `s`, `m`, `h`.
///
/// ```
/// use std::time::Duration;
/// use ploy::cli::parse_duration;
/// assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
/// assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
/// assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
/// assert_eq!(parse_duration("250"), Ok(Duration::from_millis(250)));
/// assert!(parse_duration("2 parsecs").is_err());
/// ```
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    ploy_search::parse_duration(text, ploy_search::DurationMode::Flag).map_err(|e| e.to_string())
}

/// A game clock: time for the game and an increment per move, written `5m+2s` (the
/// increment may be left out: `5m`). Each part is a [`parse_duration`] duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    /// Time on the clock at the start.
    pub base: Duration,
    /// Time added after each of the player's moves.
    pub increment: Duration,
}

impl std::str::FromStr for ClockSpec {
    type Err = String;

    /// ```
    /// use std::time::Duration;
    /// use ploy::cli::ClockSpec;
    /// let c: ClockSpec = "5m+2s".parse().unwrap();
    /// assert_eq!((c.base, c.increment), (Duration::from_secs(300), Duration::from_secs(2)));
    /// assert!("0s".parse::<ClockSpec>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<ClockSpec, String> {
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (parse_duration(b)?, parse_duration(i)?),
            None => (parse_duration(text)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(format!(
                "`{}`: a clock needs time on it, e.g. 5m+2s",
                excerpt(text, 40)
            ));
        }
        Ok(ClockSpec { base, increment })
    }
}

impl std::fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            format_duration(self.base),
            format_duration(self.increment)
        )
    }
}

/// Writes a duration the way [`parse_duration`] reads it, in the largest unit that
/// keeps it exact (`5m`, `2s`, `1500ms`).
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms == 0 {
        "0s".to_owned()
    } else if ms % 3_600_000 == 0 {
        format!("{}h", ms / 3_600_000)
    } else if ms % 60_000 == 0 {
        format!("{}m", ms / 60_000)
    } else if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// At most `max` characters of `text`, with `...` when cut: what an error message quotes of
/// the user's input, however long the input is (the workspace's one excerpt,
/// [`ploy_search::Excerpt`]).
pub use ploy_search::excerpt;

/// The rule flags, the same in every subcommand that plays or reads Ploy positions.
///
/// Which preset they start from is the subcommand's: `moves` and `perft` start from the
/// *university* rules (no draw rules), the others from the *standard* rules;
/// `--university` and `--standard` choose explicitly.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
#[command(next_help_heading = "Rule options")]
pub struct RuleArgs {
    /// Start from the university rules (no draw rules).
    #[arg(long, conflicts_with = "standard")]
    pub university: bool,
    /// Start from the standard rules (threefold repetition and 200-ply no-capture draws).
    #[arg(long, alias = "draw-rules")]
    pub standard: bool,
    /// Relaxed elimination: a player is out only when his commander is gone.
    #[arg(long)]
    pub relaxed: bool,
    /// Single-step rotation: a turn is one step (45 degrees) either way.
    #[arg(long)]
    pub single_step: bool,
    /// No threefold-repetition draw.
    #[arg(long)]
    pub no_repetition: bool,
    /// Plies without a capture that draw the game (0: no such draw).
    #[arg(long, value_name = "PLIES")]
    pub no_capture_limit: Option<u16>,
    /// Partnership: an eliminated player plays on instead of being absorbed by his partner.
    #[arg(long)]
    pub plays_on: bool,
    /// Four players: a bare commander leaves the board when its player is eliminated.
    #[arg(long)]
    pub bare_commander_removed: bool,
}

impl RuleArgs {
    /// The rules these flags ask for, starting from `default` unless `--university` or
    /// `--standard` says otherwise.
    #[must_use]
    pub fn rules(&self, default: Rules) -> Rules {
        let mut rules = if self.university {
            Rules::university()
        } else if self.standard {
            Rules::standard()
        } else {
            default
        };
        if self.relaxed {
            rules.elimination = Elimination::Relaxed;
        }
        if self.single_step {
            rules.rotation = Rotation::SingleStep;
        }
        if self.no_repetition {
            rules.repetition_draw = false;
        }
        if let Some(n) = self.no_capture_limit {
            rules.no_capture_limit = (n > 0).then_some(n);
        }
        if self.plays_on {
            rules.partner_elimination = PartnerElimination::PlaysOn;
        }
        if self.bare_commander_removed {
            rules.bare_commander = BareCommander::Removed;
        }
        rules
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert_eq!(
            parse_duration("99999999999999999999999h"),
            Ok(Duration::MAX)
        );
        for bad in [
            "",
            "ms",
            "-1s",
            "1.s",
            ".5s",
            "1e3",
            "1 fortnight",
            "1.2.3s",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
        let long = "x".repeat(1 << 20);
        assert!(parse_duration(&long).unwrap_err().len() < 200);
    }

    #[test]
    fn clocks_round_trip() {
        for text in ["5m+2s", "90s+0s", "1h+500ms"] {
            let c: ClockSpec = text.parse().unwrap();
            assert_eq!(c.to_string().parse::<ClockSpec>(), Ok(c));
        }
        assert_eq!("5m".parse::<ClockSpec>().unwrap().increment, Duration::ZERO);
    }

    #[test]
    fn rule_flags() {
        let args = RuleArgs {
            no_capture_limit: Some(0),
            relaxed: true,
            ..RuleArgs::default()
        };
        let r = args.rules(Rules::standard());
        assert_eq!(r.no_capture_limit, None);
        assert_eq!(r.elimination, Elimination::Relaxed);
        assert!(r.repetition_draw);
        assert_eq!(
            RuleArgs::default().rules(Rules::university()),
            Rules::university()
        );
    }
}
