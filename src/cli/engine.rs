//! `ploy engine` and the `engine` example: the engine protocol (UCI-style, documented in
//! `docs/PROTOCOL.md`) on standard input and output; the logic is
//! [`crate::engine::run_protocol`].

use std::io::{self, BufReader};

use clap::Parser;

use super::Failure;

/// Run the engine protocol (UCI-style) on standard input and output, for GUIs, tournament
/// managers and bots.
#[derive(Parser, Clone, Debug, Default, PartialEq, Eq)]
#[command(
    name = "engine",
    version,
    after_help = "Type `uci` for the engine's identity and options, `position startpos moves \
                  e3-e4-0`, `go depth 6`, `quit`; `setoption name Game value pente` (or \
                  `pyloff`) to play Pente or Pyloff. The protocol is described in the \
                  repository's docs/PROTOCOL.md."
)]
pub struct EngineArgs {}

/// Runs the protocol until `quit` or the end of standard input.
///
/// # Errors
/// A failure to read standard input (status 1).
pub fn run(_args: &EngineArgs) -> Result<(), Failure> {
    let input = BufReader::new(io::stdin());
    crate::engine::run_protocol(input, io::stdout())
        .map_err(|e| Failure::failed(format!("cannot read standard input: {e}")))
}
