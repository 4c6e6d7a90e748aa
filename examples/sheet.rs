//! Validates or converts a Ploy score sheet or game record.
//!
//! ```text
//! cargo run --release --example sheet -- [--to-sheet | --to-record] <file>
//! ```
//!
//! The file may be a score sheet or a game record (`ploy_sheet::detect` tells which; `-`
//! reads standard input). Every move is replayed through ploy-core.
//!
//! - Without an option it prints one line and exits 0:
//!
//!   ```text
//!   ok ; game record, 7 moves ; <final position string> ; Red wins, time forfeit
//!   ```
//!
//!   (for four-player games, whose position string does not exist yet, the variant stands
//!   in place of the position string), or it prints the first error,
//!   `error: line L, column C: why`, to standard error and exits 1.
//! - `--to-sheet` / `--to-record` write the game in the other (or the same) format to
//!   standard output, or the error to standard error.
//!
//! Exit codes: 0 success, 1 the file is not a valid sheet or record (or cannot be written
//! in the asked format), 2 a usage or I/O error.

use std::io::Read;
use std::process::ExitCode;

use ploy_core::Variant;
use ploy_notation::PositionString;
use ploy_sheet::{Format, ResultText};

enum Mode {
    Check,
    ToSheet,
    ToRecord,
}

fn usage() -> ExitCode {
    eprintln!("usage: sheet [--to-sheet | --to-record] <file | ->");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut mode = Mode::Check;
    let mut path = None;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--to-sheet" => mode = Mode::ToSheet,
            "--to-record" => mode = Mode::ToRecord,
            "-h" | "--help" => return usage(),
            _ if path.is_none() => path = Some(arg),
            _ => return usage(),
        }
    }
    let Some(path) = path else {
        return usage();
    };
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(&path).map(|b| bytes = b)
    };
    if let Err(e) = read {
        eprintln!("error: cannot read {path}: {e}");
        return ExitCode::from(2);
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {path} is not UTF-8 text: {e}");
            return ExitCode::from(1);
        }
    };
    let (format, saved) = match ploy_sheet::read(&text) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let written = match mode {
        Mode::Check => {
            let pos = saved.game.position();
            let position = if pos.variant() == Variant::TwoPlayer {
                PositionString::from_position(pos).to_string()
            } else {
                format!(
                    "({} game: no four-player position string yet)",
                    match pos.variant() {
                        Variant::FreeForAll => "free-for-all",
                        _ => "partnership",
                    }
                )
            };
            let name = match format {
                Format::Sheet => "score sheet",
                Format::Record => "game record",
            };
            println!(
                "ok ; {name}, {} moves ; {position} ; {}",
                saved.game.moves().len(),
                ResultText(saved.game.outcome())
            );
            return ExitCode::SUCCESS;
        }
        Mode::ToSheet => saved.to_sheet(),
        Mode::ToRecord => saved.to_record().map(|r| r.to_string()),
    };
    match written {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
