//! Counts move paths (perft), the standard check of a move generator.
//!
//! ```text
//! cargo run --release --example perft -- "<position string>" <depth> [--divide]
//!     [--single-step] [--relaxed] [--plays-on] [--bare-commander-removed]
//! ```
//!
//! `start` stands for the two-player start position, `ffa` and `partnership` for the
//! four-player ones; any position string (two- or four-player) is accepted. The rules are the university rules
//! unless an option says otherwise. With `--divide` one line `<move> <count>` per legal move,
//! sorted by university move string; always the total alone on the last line. Errors are
//! printed as `error: <message>` on standard error, with exit status 2.
//!
//! The logic lives in `ploy_notation::protocol`, where it is tested.

use std::io::Write;
use std::process::ExitCode;

use ploy_notation::protocol::PerftCommand;

fn main() -> ExitCode {
    let command = match PerftCommand::from_args(std::env::args().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = command.run(&mut out);
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
