//! Reading sheets and records from files and readers, with a bound on what is read.

use std::io::Read;
use std::path::Path;

use crate::{Format, ReadError, SavedGame};

/// The most bytes [`load`], [`load_from`], [`load_text`] and [`read_text`] read: 16 MiB.
///
/// A game's text is small: under the standard rules a two-player game has at most a few
/// thousand plies (the no-capture limit between captures), about 8 bytes each in a record,
/// so even a game without draw rules a thousand times longer fits. A larger input is not a
/// game someone saved (a device like `/dev/zero`, a wrong file), and is refused with
/// [`LoadError::TooLarge`] after reading one byte more than the bound, instead of being read
/// until memory runs out.
pub const MAX_BYTES: u64 = 16 << 20;

/// A sheet or record could not be loaded from a file or reader.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be opened or read.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// The input holds more than the bound ([`MAX_BYTES`], or the limit given to
    /// [`read_text`]).
    #[error("more than {limit} bytes: not a score sheet or game record")]
    TooLarge {
        /// The bound in bytes.
        limit: u64,
    },
    /// The input is not UTF-8 text.
    #[error("line {line}: not UTF-8 text")]
    NotText {
        /// The line (counting from 1) of the first byte that is not UTF-8.
        line: usize,
    },
    /// The text is not a readable sheet or record.
    #[error(transparent)]
    Read(#[from] ReadError),
}

/// Reads all of `reader` as UTF-8 text, but at most `limit` bytes: an input that goes on
/// longer is refused without reading more than `limit + 1` bytes.
///
/// ```
/// use ploy_sheet::{LoadError, read_text};
/// assert_eq!(read_text(&b"Ploy score sheet\n"[..], 100)?, "Ploy score sheet\n");
/// // An endless input stops at the bound.
/// let endless = std::io::repeat(b'x');
/// assert!(matches!(read_text(endless, 1000), Err(LoadError::TooLarge { limit: 1000 })));
/// # Ok::<(), LoadError>(())
/// ```
///
/// # Errors
/// [`LoadError::Io`] if reading fails, [`LoadError::TooLarge`] past the limit,
/// [`LoadError::NotText`] if the bytes are not UTF-8.
pub fn read_text(reader: impl Read, limit: u64) -> Result<String, LoadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(LoadError::TooLarge { limit });
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        LoadError::NotText { line }
    })
}

/// Reads the text of the file at `path` (at most [`MAX_BYTES`]; see [`read_text`]).
///
/// # Errors
/// As [`read_text`]; [`LoadError::Io`] also if the file cannot be opened.
pub fn load_text(path: impl AsRef<Path>) -> Result<String, LoadError> {
    let file = std::fs::File::open(path)?;
    read_text(file, MAX_BYTES)
}

/// Reads a sheet or a record, whichever it is ([`crate::read`]), from `reader` (at most
/// [`MAX_BYTES`]).
///
/// # Errors
/// As [`read_text`], and [`LoadError::Read`] if the text is not a readable sheet or record.
pub fn load_from(reader: impl Read) -> Result<(Format, SavedGame), LoadError> {
    let text = read_text(reader, MAX_BYTES)?;
    Ok(crate::read(&text)?)
}

/// Reads a sheet or a record, whichever it is ([`crate::read`]), from the file at `path`
/// (at most [`MAX_BYTES`]).
///
/// ```no_run
/// let (format, saved) = ploy_sheet::load("game.txt")?;
/// println!("a {format:?} of {} moves", saved.game.moves().len());
/// # Ok::<(), ploy_sheet::LoadError>(())
/// ```
///
/// # Errors
/// As [`load_from`]; [`LoadError::Io`] also if the file cannot be opened.
pub fn load(path: impl AsRef<Path>) -> Result<(Format, SavedGame), LoadError> {
    let text = load_text(path)?;
    Ok(crate::read(&text)?)
}
