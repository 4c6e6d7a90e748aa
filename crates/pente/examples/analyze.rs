//! Searches games read from standard input, one JSON answer a line.
//!
//! ```text
//! cargo run --release -p pente --example analyze -- [--size N] [--no-tournament-rule]
//!     [--movetime MS | --depth D | --nodes N] [--seed N]
//! ```
//!
//! Each input line holds the moves of a game from the empty board (an empty line is the
//! start). Each answer is one JSON object: `{"bestmove": "K10", "score": 35 | "win 3" |
//! "loss 4", "depth": 7, "nodes": N, "time_ms": T, "pv": [...], "threat_search": false}`,
//! `{"bestmove": null, "outcome": ..., "reason": ...}` for a finished game, or
//! `{"error": "..."}`. Without a budget the engine thinks 1 s a line, at full strength.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgGroup, Parser};
use pente::{Engine, Limits, Rules, Size, Strength};

/// Searches games read from standard input (one game a line: the moves from the start),
/// one JSON object a line with the best move and its score.
#[derive(Parser)]
#[command(name = "analyze")]
#[command(group(ArgGroup::new("budget").args(["movetime", "depth", "nodes"])))]
struct Args {
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    size: Size,
    /// Play without the tournament rule.
    #[arg(long)]
    no_tournament_rule: bool,
    /// Time per line in milliseconds (the default budget: 1000).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search to this depth (plies).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search at most this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Seed of the choice among equal moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rules = Rules::new(args.size).with_tournament_rule(!args.no_tournament_rule);
    let limits = match (args.depth, args.nodes) {
        (Some(d), _) => Limits::depth(d),
        (_, Some(n)) => Limits::nodes(n),
        _ => Limits::move_time(Duration::from_millis(args.movetime.unwrap_or(1000))),
    };
    let mut engine = Engine::new(Strength::Full).with_seed(args.seed);
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let Ok(line) = line else {
            eprintln!("error: cannot read standard input");
            return ExitCode::FAILURE;
        };
        let answer = pente::protocol::analyze_line(&line, rules, &mut engine, &limits);
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
