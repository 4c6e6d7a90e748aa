//! `ploy pente piskvork` and the `pbrain-ploy-pente` binary: a Gomocup (Piskvork) brain
//! for Pente, reading the manager's commands on standard input and answering on standard
//! output.
//!
//! The protocol, and its Pente extension (`BOARD` lists every move in the order played;
//! `INFO pente_tournament_rule 0|1`), are documented in `pente::piskvork` and
//! `docs/pente.md`.

use std::io::{BufRead, Write};

use clap::Args;
use pente::piskvork::Brain;

use crate::cli::Failure;

/// A Gomocup (Piskvork) brain playing Pente on standard input and output.
#[derive(Args, Clone, Debug, Default)]
pub struct PiskvorkArgs {}

/// Runs the brain until `END` or the end of standard input.
///
/// # Errors
/// A failed read or write.
pub fn run(_args: &PiskvorkArgs) -> Result<(), Failure> {
    let mut brain = Brain::new();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = line.map_err(|e| Failure::failed(format!("cannot read standard input: {e}")))?;
        for answer in brain.handle(&line) {
            writeln!(stdout, "{answer}")?;
            stdout.flush()?;
        }
        if brain.finished() {
            break;
        }
    }
    Ok(())
}
