//! The legal moves of games read from standard input, one JSON answer a line.
//!
//! ```text
//! cargo run --release -p pente --example moves -- [--size N] [--no-tournament-rule]
//! ```
//!
//! Each input line holds the moves of a game from the empty board (`K10 L11 ...`; an empty
//! line is the start). Each answer is one JSON object:
//! `{"legal": [...], "to_move": "white"|"black"|null, "captures": {"white": N, "black": N},
//! "outcome": "ongoing"|"white"|"black"|"draw", "reason": ..., "plies": N, "position": "..."}`
//! or `{"error": "..."}` naming the first bad move. The format is documented in
//! `pente::protocol` and `docs/pente.md`; other tools drive it.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::Parser;
use pente::{Rules, Size};

/// Lists the legal moves of games read from standard input (one game a line: the moves
/// from the start, separated by spaces), one JSON object a line.
#[derive(Parser)]
#[command(name = "moves")]
struct Args {
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    size: Size,
    /// Play without the tournament rule.
    #[arg(long)]
    no_tournament_rule: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rules = Rules::new(args.size).with_tournament_rule(!args.no_tournament_rule);
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let Ok(line) = line else {
            eprintln!("error: cannot read standard input");
            return ExitCode::FAILURE;
        };
        let answer = pente::protocol::moves_line(&line, rules);
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
