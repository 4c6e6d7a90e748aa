//! Analyses a position: one line per completed iteration, then the best move.
//!
//! ```text
//! cargo run --release --example analyze -- "<position string>" [--depth N] [--nodes N]
//!     [--time DURATION] [--level N [--seed S]] [rule options]
//! ```
//!
//! `start` stands for the two-player start position, `ffa` and `partnership` for the four-player
//! ones; four-player position strings are read too. A partnership game is searched with the teams
//! as sides; a free-for-all game paranoidly, for the player to move against the coalition of the
//! others (`PloyGame`; see ploy-search's crate docs), so its scores are that player's. Each
//! iteration prints `depth D score S view V share P nodes N nps R time MS pv M1 M2 ...` (the score
//! is an integer in the engine's units, or `win N` / `loss N` for a forced result N plies away;
//! `view` names the side whose score it is, `share` is its expected share of the win in percent;
//! moves in the university format `e3-e4-0`); the last line is the best move alone, or `none` for a
//! decided position. `--time` takes a duration (`500ms`, `2s`; a bare number is milliseconds, as it
//! always was); budgets combine, the first reached ends the search; without one the search runs for
//! one second. The rules are the standard ones (draw rules on); the rule options (`--help`) are
//! those of every program: `--single-step`, `--relaxed`, `--plays-on`, `--bare-commander-removed`,
//! `--university` for the university rules (no draw rules), ... `--level N` (1 to 8) analyses
//! as the engine plays at that level: the last line is the move that level chooses.
//!
//! The same program is `ploy analyze`; the code is `ploy::cli::analyze`.

use clap::Parser;
use ploy::cli::analyze::{AnalyzeArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&AnalyzeArgs::parse()))
}
