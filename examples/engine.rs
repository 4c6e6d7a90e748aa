//! The engine protocol: a UCI-style line protocol on standard input and output, so that
//! other programs (GUIs, tournament managers, bots, test harnesses) can use the engine.
//!
//! ```text
//! cargo run --release --example engine
//! ```
//!
//! The protocol is documented in `docs/PROTOCOL.md`; the logic is
//! [`ploy::protocol::run_protocol`]. A short session:
//!
//! ```text
//! position startpos moves e3-e4-0
//! go depth 3
//! info depth 1 score ... nodes ... nps ... time ... pv ...
//! ...
//! bestmove e7-e6-0
//! quit
//! ```
//!
//! The same program is `ploy engine`.

use clap::Parser;
use ploy::cli::engine::{EngineArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&EngineArgs::parse()))
}
