//! `ploy engine` and the `engine` example: the engine protocol (UCI-style, documented in
//! `docs/PROTOCOL.md`) on standard input and output; the logic is
//! [`crate::protocol::run_protocol`].

use std::io::{self, BufReader};

use clap::Parser;

use super::Failure;
use crate::protocol::ProtocolStart;
use ploy_search::MAX_THREADS;

/// Run the engine protocol (UCI-style) on standard input and output, for GUIs, tournament
/// managers and bots.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(
    name = "engine",
    version,
    after_help = "Type `uci` for the engine's identity and options, `position startpos moves \
                  e3-e4-0`, `go depth 6`, `quit`; `setoption name Game value pente` (or \
                  `pyloff`) to play Pente or Pyloff. The protocol is described in the \
                  repository's docs/PROTOCOL.md."
)]
pub struct EngineArgs {
    /// Search threads to start with (the `Threads` option's value until a `setoption`
    /// changes it, and the default `uci` announces). One thread is deterministic; more share
    /// one table (Lazy SMP) and reach a depth sooner.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: u32,
}

impl Default for EngineArgs {
    fn default() -> EngineArgs {
        EngineArgs { threads: 1 }
    }
}

/// Runs the protocol until `quit` or the end of standard input.
///
/// # Errors
/// A failure to read standard input (status 1).
pub fn run(args: &EngineArgs) -> Result<(), Failure> {
    let input = BufReader::new(io::stdin());
    let start = ProtocolStart::default().with_threads(args.threads as usize);
    crate::protocol::run_protocol_with(input, io::stdout(), &start)
        .map_err(|e| Failure::failed(format!("cannot read standard input: {e}")))
}
