//! `ploy analyze` and the `analyze` example: analyses one position, printing a line per
//! completed iteration and then the best move alone (or `none` for a decided position).
//!
//! The iteration lines are ploy-search's `Info` text, the same the engine protocol writes after
//! `info `: `depth D score S view V share P nodes N nps R time MS pv M1 M2 ...` (`view` says whose
//! score it is, `share` is his expected share of the win in percent). A partnership game is
//! searched with the teams as sides, a free-for-all game paranoidly (the player to move against the
//! others), so its scores are that player's. Budgets combine: the first one reached ends the
//! search; without one the search runs for one second.
//!
//! `--level N` analyses as the engine plays at level `N` ([`ploy_engine::Engine::set_level`]):
//! the search keeps within the level's limits, the lines show its best line, and the last
//! line is the move the level chooses (seeded by `--seed`, 0 by default, and the position).

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::Parser;
use ploy_core::{Game, Rules};
use ploy_engine::{Engine, Level};
use ploy_notation::UniversityMove;
use ploy_notation::conformance::read_position_arg;
use ploy_search::{Config, Limits, MAX_THREADS};

use super::play::parse_level;
use super::{Failure, RuleArgs, parse_duration};

/// Analyse a position: a line per completed depth, then the best move.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(
    name = "analyze",
    version,
    after_help = "Each iteration prints `depth D score S view V share P nodes N nps R time MS pv \
                  M1 M2 ...` (the score for the side to move, in the engine's units, or `win N` \
                  / `loss N` for a forced result N plies away; `view` names that side, `share` \
                  is its expected share of the win in percent); the last line is the best move \
                  alone, or `none` for a decided position. Without a budget the search runs for \
                  one second. The rules are the standard rules unless a rule option says \
                  otherwise."
)]
pub struct AnalyzeArgs {
    /// A position string of any variant, or `start`, `ffa`, `partnership`.
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// Search this many plies deep.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Think this long: `500ms`, `2s` (a bare number is milliseconds). Iterations start
    /// until the time has passed; the one running then is cut short.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub time: Option<Duration>,
    /// Search threads. One (the default) gives the same lines every run; more share one
    /// table (Lazy SMP) and reach a depth sooner, with node counts summed over the threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: u32,
    /// Analyse as the engine plays at this level: 1 (weakest) to 8 (full strength, the
    /// default); the last line is the move the level chooses.
    #[arg(long, value_name = "N", value_parser = parse_level)]
    pub level: Option<Level>,
    /// The seed of a weaker level's choice [default: 0].
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// The search of a free-for-all position: paranoid, brs, brs+ or mcts; without it the
    /// engine's default, Best-Reply Search on the two-sided searcher
    /// ([`ploy_engine::Engine::set_ffa_search`]); other variants ignore it.
    #[arg(long, value_name = "KIND")]
    pub search: Option<ploy_search::multi::SearchKind>,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

impl AnalyzeArgs {
    /// The search budget these arguments ask for (one second without any).
    #[must_use]
    pub fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            soft_time: self.time,
            hard_time: self.time,
            ..Limits::default()
        };
        if self.depth.is_none() && self.nodes.is_none() && self.time.is_none() {
            limits.soft_time = Some(Duration::from_secs(1));
            limits.hard_time = Some(Duration::from_secs(1));
        }
        limits
    }
}

/// Runs `analyze` with `args`, writing to `out`.
///
/// # Errors
/// A usage [`Failure`] for a position that cannot be read; a failed write (which also stops
/// the search at once).
pub fn analyze(args: &AnalyzeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let rules = args.rules.rules(Rules::standard());
    let pos = read_position_arg(args.position.trim().as_bytes(), rules).map_err(Failure::usage)?;
    let stop = Arc::new(AtomicBool::new(false));
    let limits = args.limits().with_stop(Arc::clone(&stop));
    let config = Config {
        threads: args.threads as usize,
        ..Config::default()
    };
    // Two-player and partnership positions with the teams as sides, free-for-all ones
    // paranoidly (the engine picks the search game).
    let mut engine = Engine::new(config)
        .with_level(args.level.unwrap_or_default())
        .with_seed(args.seed.unwrap_or(0))
        .with_ffa_search(args.search);
    let game = Game::from_position(pos);
    let mut written = Ok(());
    let result = engine.search(&game, &limits, |info| {
        if written.is_ok() {
            written = writeln!(out, "{info}").and_then(|()| out.flush());
            if written.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    written?;
    match result.best_move {
        Some(m) => writeln!(out, "{}", UniversityMove::from(m))?,
        None => writeln!(out, "none")?,
    }
    out.flush()?;
    Ok(())
}

/// Runs `analyze` on standard output.
///
/// # Errors
/// As [`analyze`].
pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    analyze(args, &mut std::io::stdout().lock())
}
