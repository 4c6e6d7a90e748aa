//! Legal moves, player to move, outcome and score of games read from standard input.
//!
//! ```text
//! cargo run --release -p pyloff --example moves -- [--size N] [--players K] [--all-freedoms] [--cut-down]
//! ```
//!
//! Each input line holds one game: its moves from the empty board separated by spaces
//! (cells such as `c3`, `swap` and `pass`; forced passes are written). Each answer is one
//! JSON object a line:
//!
//! ```text
//! {"legal": ["a1", "a3", ...], "to_move": 1, "outcome": "ongoing", "winners": [], "score": {"1": 0, "2": 0}}
//! ```
//!
//! `legal` lists the legal cells sorted by column letter then row number, `["pass"]` when
//! the player must pass, with `"swap"` last when allowed, and nothing once the game is
//! over (`to_move` is then `null`). `winners` lists the leaders of a finished game (empty
//! while it goes on and for a draw); `score` counts each player's pieces. A bad move gives
//! `{"error": "..."}` naming it. The exact format is in `pyloff::protocol`.

mod common;

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(about = "Legal moves of Pyloff games, one game a line in, one JSON object a line out")]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = cli.game.options();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let Ok(mut line) = line else {
            eprintln!("error: cannot read standard input");
            return ExitCode::FAILURE;
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let answer = pyloff::protocol::moves_line(&line, options);
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
