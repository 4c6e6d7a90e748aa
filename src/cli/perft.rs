//! `ploy perft` and the `perft` example: counts move paths, the standard check of a move
//! generator.
//!
//! Output: with `--divide` one line `<move> <count>` per legal move, sorted by university
//! move string; always the total alone on the last line. With `--json` instead one object:
//! `{"position", "depth", "nodes", "seconds", "nps"}` (`position` is the position string,
//! `nodes` the count, `nps` counted paths per second), plus `"divide"` (an object from each
//! move's university string to its count) with `--divide`. The rules are the university
//! rules unless a rule flag says otherwise. Progress (per root move, with the speed) goes to
//! standard error when it is a terminal.

use std::io::Write;
use std::time::Instant;

use clap::Parser;
use ploy_core::{Move, Position, Rules, perft};
use ploy_notation::conformance::read_position_arg;
use ploy_notation::{PositionString, UniversityMove};
use serde_json::json;

use super::output::{rate, thousands};
use super::{Failure, RuleArgs, progress_bar, write_json};

/// Count move paths (perft): the number of move sequences of a given length.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(
    name = "perft",
    version,
    after_help = "The rules are the university rules (no draw rules) unless a rule option \
                  says otherwise. Example: perft start 4 --divide"
)]
pub struct PerftArgs {
    /// A position string of any variant, or `start`, `ffa`, `partnership` (the start
    /// positions).
    #[arg(value_name = "POSITION")]
    pub position: String,
    /// The length of the move sequences, in plies.
    pub depth: u32,
    /// Also count per legal move: one line `<move> <count>` each, sorted by move string.
    #[arg(long)]
    pub divide: bool,
    /// Print one JSON object: {"position", "depth", "nodes", "seconds", "nps"} (and
    /// "divide").
    #[arg(long)]
    pub json: bool,
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// A finished count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftReport {
    /// The position counted from.
    pub position: Position,
    /// The depth.
    pub depth: u32,
    /// The number of move sequences of length `depth`.
    pub nodes: u64,
    /// Per legal move, sorted by university string (empty at depth 0).
    pub divide: Vec<(Move, u64)>,
    /// Time taken.
    pub time: std::time::Duration,
}

/// Counts, one root move at a time, showing progress on standard error.
#[must_use]
pub fn count(position: &Position, depth: u32) -> PerftReport {
    let start = Instant::now();
    if depth == 0 {
        return PerftReport {
            position: position.clone(),
            depth,
            nodes: 1,
            divide: Vec::new(),
            time: start.elapsed(),
        };
    }
    let moves = position.legal_moves();
    let bar = progress_bar(
        moves.len() as u64,
        "perft {prefix} [{bar:20}] {pos}/{len} moves, {msg}, ~{eta} left",
    );
    bar.set_prefix(format!("depth {depth}"));
    let mut divide = Vec::with_capacity(moves.len());
    let mut nodes = 0u64;
    for &mv in moves.iter() {
        let mut after = position.clone();
        after.make_move(mv);
        let n = perft(&after, depth - 1);
        nodes += n;
        divide.push((mv, n));
        bar.inc(1);
        bar.set_message(format!(
            "{} paths at {}",
            thousands(nodes),
            rate(nodes, start.elapsed())
        ));
    }
    bar.finish_and_clear();
    divide.sort_unstable_by_key(|&(mv, _)| ploy_notation::conformance::university_key(mv));
    PerftReport {
        position: position.clone(),
        depth,
        nodes,
        divide,
        time: start.elapsed(),
    }
}

impl PerftReport {
    /// The JSON object of `--json`; `divide` adds the per-move counts.
    #[must_use]
    pub fn to_json(&self, divide: bool) -> serde_json::Value {
        let mut value = json!({
            "position": PositionString::from_position(&self.position).to_string(),
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": self.time.as_secs_f64(),
            "nps": ploy_search::nps(self.nodes, self.time),
        });
        if divide {
            let split: serde_json::Map<String, serde_json::Value> = self
                .divide
                .iter()
                .map(|&(mv, n)| (UniversityMove::from(mv).to_string(), n.into()))
                .collect();
            value["divide"] = split.into();
        }
        value
    }
}

/// Runs `perft` with `args`, writing to standard output.
///
/// # Errors
/// A usage [`Failure`] for a position that cannot be read; a closed pipe or a failed write.
pub fn run(args: &PerftArgs) -> Result<(), Failure> {
    let rules = args.rules.rules(Rules::university());
    let position = read_position_arg(args.position.as_bytes(), rules).map_err(Failure::usage)?;
    let report = count(&position, args.depth);
    let mut out = std::io::stdout().lock();
    if args.json {
        return write_json(&mut out, &report.to_json(args.divide));
    }
    if args.divide && args.depth > 0 {
        for &(mv, n) in &report.divide {
            writeln!(out, "{} {n}", UniversityMove::from(mv))?;
        }
    }
    writeln!(out, "{}", report.nodes)?;
    out.flush()?;
    Ok(())
}
