//! `ploy sheet` and the `sheet` example: validates or converts a score sheet or game record.
//!
//! Without an option it prints one line,
//!
//! ```text
//! ok ; game record, 7 moves ; <final position string> ; Red wins, time forfeit
//! ```
//!
//! (the position string of any variant: two-player, or four-player `ffa ...` /
//! `partnership ...`), or the first error, `error: line L, column C: why`, on standard error.
//! `--to-sheet` / `--to-record` write the game in that format to standard output.
//!
//! Exit statuses: 0 success; 1 the file is not a valid sheet or record (or cannot be
//! written in the asked format, or is larger than [`MAX_FILE_BYTES`]); 2 a usage or I/O
//! error.

use std::io::{Read, Write};

use clap::Parser;
use ploy_notation::PositionString;
use ploy_sheet::{Format, ResultText};

use super::Failure;

/// The largest file read: 16 MiB, far more than any game needs (a move takes about ten
/// bytes). A larger file is refused without reading the rest of it.
pub const MAX_FILE_BYTES: u64 = ploy_sheet::MAX_BYTES;

/// Check a score sheet or game record, or convert it to the other format.
#[derive(Parser, Clone, Debug, PartialEq, Eq)]
#[command(
    name = "sheet",
    version,
    after_help = "Every move is replayed through the rules. Exit status: 0 success, 1 the \
                  file is not a valid sheet or record, 2 a usage or I/O error."
)]
pub struct SheetArgs {
    /// Write the game as a score sheet (tab-separated text).
    #[arg(long, conflicts_with = "to_record")]
    pub to_sheet: bool,
    /// Write the game as a game record.
    #[arg(long)]
    pub to_record: bool,
    /// The file to read, a score sheet or a game record; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
}

/// Reads at most [`MAX_FILE_BYTES`] of `input`.
///
/// # Errors
/// An I/O error (status 2), or a file larger than the limit (status 1).
pub fn read_bounded(input: impl Read, name: &str) -> Result<String, Failure> {
    ploy_sheet::read_text(input, MAX_FILE_BYTES).map_err(|e| match e {
        ploy_sheet::LoadError::Io(e) => Failure::usage(format!("cannot read {name}: {e}")),
        ploy_sheet::LoadError::TooLarge { .. } => Failure::failed(format!(
            "{name} is larger than {} MiB: not a score sheet or game record",
            MAX_FILE_BYTES >> 20
        )),
        other => Failure::failed(format!("{name}: {other}")),
    })
}

/// What `sheet` writes for `text` (the file's contents): the check line, a sheet or a
/// record.
///
/// # Errors
/// A [`Failure`] with status 1 when the text is not a valid sheet or record, or cannot be
/// written in the asked format.
pub fn convert(args: &SheetArgs, text: &str) -> Result<String, Failure> {
    let (format, saved) = ploy_sheet::read(text).map_err(|e| Failure::failed(e.to_string()))?;
    if args.to_sheet {
        return saved.to_sheet().map_err(|e| Failure::failed(e.to_string()));
    }
    if args.to_record {
        return saved
            .to_record()
            .map(|r| r.to_string())
            .map_err(|e| Failure::failed(e.to_string()));
    }
    let name = match format {
        Format::Sheet => "score sheet",
        Format::Record => "game record",
    };
    Ok(format!(
        "ok ; {name}, {} moves ; {} ; {}\n",
        saved.game.moves().len(),
        PositionString::from_position(saved.game.position()),
        ResultText(saved.game.outcome())
    ))
}

/// Runs `sheet` with `args`.
///
/// # Errors
/// See the [module docs](self).
pub fn run(args: &SheetArgs) -> Result<(), Failure> {
    let path = &args.file;
    let text = if path == "-" {
        read_bounded(std::io::stdin().lock(), "standard input")?
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
        read_bounded(file, path)?
    };
    let written = convert(args, &text)?;
    let mut out = std::io::stdout().lock();
    out.write_all(written.as_bytes())?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_is_bounded() {
        let zeros = std::io::repeat(0);
        let e = read_bounded(zeros, "/dev/zero").unwrap_err();
        assert_eq!(e.status(), 1);
        assert!(e.message().unwrap().contains("larger than 16 MiB"));
        assert_eq!(read_bounded(&b"abc"[..], "x").unwrap(), "abc");
    }
}
