//! Counts move paths (perft), the standard check of a move generator.
//!
//! ```text
//! cargo run --release --example perft -- "<position string>" <depth> [--divide] [--json]
//!     [--single-step] [--relaxed] [--plays-on] [--bare-commander-removed] [...]
//! ```
//!
//! `start` stands for the two-player start position, `ffa` and `partnership` for the
//! four-player ones; any position string (two- or four-player) is accepted. The rules are
//! the university rules unless an option says otherwise (`--help` lists the rule options).
//! With `--divide` one line `<move> <count>` per legal move, sorted by university move
//! string; always the total alone on the last line. `--json` prints one object instead:
//! `{"position", "depth", "nodes", "seconds", "nps"}` (and `"divide"`). Errors are printed
//! as `error: <message>` on standard error, with exit status 2. Progress (per root move,
//! with the speed) goes to standard error when it is a terminal.
//!
//! The same program is `ploy perft`; the code is `ploy::cli::perft`.

use clap::Parser;
use ploy::cli::perft::{PerftArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&PerftArgs::parse()))
}
