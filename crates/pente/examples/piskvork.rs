//! A Gomocup (Piskvork) brain for Pente: reads the manager's commands on standard input
//! and answers on standard output.
//!
//! ```text
//! cargo run --release -p pente --example piskvork
//! ```
//!
//! The protocol, and its Pente extension (`BOARD` lists every move in the order played;
//! `INFO pente_tournament_rule 0|1`), are documented in `pente::piskvork` and
//! `docs/pente.md`.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::Parser;
use pente::piskvork::Brain;

/// A Gomocup (Piskvork) brain playing Pente on standard input and output.
#[derive(Parser)]
#[command(name = "piskvork")]
struct Args {}

fn main() -> ExitCode {
    let Args {} = Args::parse();
    let mut brain = Brain::new();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let Ok(line) = line else {
            eprintln!("error: cannot read standard input");
            return ExitCode::FAILURE;
        };
        for answer in brain.handle(&line) {
            if writeln!(stdout, "{answer}")
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::FAILURE;
            }
        }
        if brain.finished() {
            break;
        }
    }
    ExitCode::SUCCESS
}
