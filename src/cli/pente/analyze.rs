//! `ploy pente analyze`: searches games read from standard input, one JSON answer a line.
//!
//! ```text
//! ploy pente analyze [--size N] [--no-tournament-rule]
//!     [--movetime TIME | --depth D | --nodes N] [--seed N] [--level N]
//! ```
//!
//! Each input line holds the moves of a game from the empty board (an empty line is the
//! start). Each answer is one JSON object: `{"bestmove": "K10", "score": 35 | "win 3" |
//! "loss 4", "depth": 7, "nodes": N, "time_ms": T, "pv": [...], "threat_search": false}`,
//! `{"bestmove": null, "outcome": ..., "reason": ...}` for a finished game, or
//! `{"error": "..."}`. Without a budget the engine thinks 1 s a line, at full strength
//! (`--level N`, 1 to 8, plays a level instead: levels 1 to 7 search within their own
//! limits too, and choose among their lines seeded by `--seed`, the position and the ply).

use std::time::Duration;

use clap::{ArgGroup, Args};
use pente::{Engine, Level, Limits, Size, Strength};

use crate::cli::{Failure, parse_duration};

/// Searches games read from standard input (one game a line: the moves from the start),
/// one JSON object a line with the best move and its score.
#[derive(Args, Clone, Debug)]
#[command(group(ArgGroup::new("budget").args(["movetime", "depth", "nodes"])))]
pub struct AnalyzeArgs {
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    pub size: Size,
    /// Play without the tournament rule.
    #[arg(long)]
    pub no_tournament_rule: bool,
    /// Time per line (the default budget: 1s); a bare number is milliseconds.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub movetime: Option<Duration>,
    /// Search to this depth (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seed of the choice among equal moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The engine's level, 1 (weakest) to 8 (full strength, the default).
    #[arg(long, value_name = "N")]
    pub level: Option<Level>,
}

/// Answers every line of standard input.
///
/// # Errors
/// A failed read or write.
pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    let rules = super::rules(args.size, args.no_tournament_rule);
    let limits = match (args.depth, args.nodes) {
        (Some(d), _) => Limits::depth(d),
        (_, Some(n)) => Limits::nodes(n),
        _ => Limits::move_time(args.movetime.unwrap_or(Duration::from_secs(1))),
    };
    let strength = args.level.map_or(Strength::Full, Strength::Level);
    let mut engine = Engine::new(strength).with_seed(args.seed);
    super::answer_lines(|line| pente::json_lines::analyze_line(line, rules, &mut engine, &limits))
}
