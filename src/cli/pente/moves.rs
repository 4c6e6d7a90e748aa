//! `ploy pente moves`: the legal moves of games read from standard input, one JSON answer
//! a line.
//!
//! ```text
//! ploy pente moves [--size N] [--no-tournament-rule]
//! ```
//!
//! Each input line holds the moves of a game from the empty board (`K10 L11 ...`; an empty
//! line is the start). Each answer is one JSON object:
//! `{"legal": [...], "to_move": "white"|"black"|null, "captures": {"white": N, "black": N},
//! "outcome": "ongoing"|"white"|"black"|"draw", "reason": ..., "plies": N, "position": "..."}`
//! or `{"error": "..."}` naming the first bad move. The format is documented in
//! `pente::json_lines` and `docs/pente.md`; other tools drive it.

use clap::Args;
use pente::Size;

use crate::cli::Failure;

/// Lists the legal moves of games read from standard input (one game a line: the moves
/// from the start, separated by spaces), one JSON object a line.
#[derive(Args, Clone, Debug)]
pub struct MovesArgs {
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    pub size: Size,
    /// Play without the tournament rule.
    #[arg(long)]
    pub no_tournament_rule: bool,
}

/// Answers every line of standard input.
///
/// # Errors
/// A failed read or write.
pub fn run(args: &MovesArgs) -> Result<(), Failure> {
    let rules = super::rules(args.size, args.no_tournament_rule);
    super::answer_lines(|line| pente::json_lines::moves_line(line, rules))
}
