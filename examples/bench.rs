//! Searches a fixed set of 24 positions to a fixed depth and prints the total node count
//! (a signature that changes only when the search changes) and the speed.
//!
//! ```text
//! cargo run --release --example bench [-- --depth N] [--alphabeta | --mtdf] [--no-pvs] [--no-lmr]
//!     [--previous-guess] [--verbose] [--json] [--overrun SEARCHES LIMIT]
//! ```
//!
//! Every position gets a fresh searcher (16 MiB table), so the count does not depend on the
//! order or on earlier searches. Default depth: 6. Output `nodes N`, `nps N`, `time MS ms`;
//! `--json` prints one object instead, `{"depth", "signature", "nodes", "seconds", "nps"}`.
//! `--overrun 200 50` measures how far past a 50 ms hard limit 200 searches return (the
//! limit is a duration: `50ms`, `1s`; a bare number is milliseconds).
//!
//! The same program is `ploy bench`; the code is `ploy::cli::bench`.

use clap::Parser;
use ploy::cli::bench::{BenchArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&BenchArgs::parse()))
}
