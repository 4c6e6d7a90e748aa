//! Validates or converts a Ploy score sheet or game record.
//!
//! ```text
//! cargo run --release --example sheet -- [--to-sheet | --to-record] <file>
//! ```
//!
//! The file may be a score sheet or a game record (`ploy_sheet::detect` tells which; `-`
//! reads standard input; at most 16 MiB are read). Every move is replayed through ploy-core.
//!
//! - Without an option it prints one line and exits 0:
//!
//!   ```text
//!   ok ; game record, 7 moves ; <final position string> ; Red wins, time forfeit
//!   ```
//!
//!   (the position string of any variant, four-player `ffa ...` / `partnership ...`
//!   included), or it prints the first error, `error: line L, column C: why`, to standard
//!   error and exits 1.
//! - `--to-sheet` / `--to-record` write the game in the other (or the same) format to
//!   standard output, or the error to standard error.
//!
//! Exit codes: 0 success, 1 the file is not a valid sheet or record (or cannot be written
//! in the asked format, or is larger than 16 MiB), 2 a usage or I/O error.
//!
//! The same program is `ploy sheet`; the code is `ploy::cli::sheet`.

use clap::Parser;
use ploy::cli::sheet::{SheetArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&SheetArgs::parse()))
}
