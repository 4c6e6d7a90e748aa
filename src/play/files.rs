//! Game files: reading a record or score sheet within [`super::MAX_FILE_BYTES`], telling
//! whether a file holds another game, writing atomically, and the date a game began.

use std::io::{self, Write};
use std::path::Path;

use super::MAX_FILE_BYTES;
use ploy_core::Game;
use ploy_sheet::SavedGame;

/// Today's date in UTC as `YYYY-MM-DD` (the proleptic Gregorian calendar).
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days(secs / 86_400);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The calendar date `days` days after 1970-01-01.
pub(super) fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // Eras of 400 years (146,097 days) from 0000-03-01, as in Howard Hinnant's algorithm.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// Reads a game record or score sheet, at most [`MAX_FILE_BYTES`] of it.
pub(super) fn read_game_file(path: &str) -> Result<(ploy_sheet::Format, SavedGame), String> {
    let text = read_bounded(Path::new(path)).map_err(|e| e.to_string())?;
    ploy_sheet::read(&text).map_err(|e| e.to_string())
}

/// The text of the file at `path`, refused when it is longer than [`MAX_FILE_BYTES`] or not
/// UTF-8 text.
pub(super) fn read_bounded(path: &Path) -> io::Result<String> {
    ploy_sheet::load_text(path).map_err(|e| match e {
        ploy_sheet::LoadError::Io(e) => e,
        ploy_sheet::LoadError::TooLarge { .. } => io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the file is larger than the limit of {} MiB for a game",
                MAX_FILE_BYTES >> 20
            ),
        ),
        other => io::Error::new(io::ErrorKind::InvalidData, format!("the file: {other}")),
    })
}

/// Why writing `game` to `path` would lose another game, if it would: the file exists and
/// is not an earlier state of this game (the same start and rules, its moves a beginning
/// of this game's moves).
pub(super) fn replaces_another_game(path: &Path, game: &Game) -> Option<&'static str> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
        Err(_) => return Some("cannot be checked"),
        Ok(m) if m.len() == 0 && m.is_file() => return None,
        Ok(m) if !m.is_file() && !m.file_type().is_symlink() => return Some("is not a file"),
        Ok(_) => {}
    }
    let Ok(text) = read_bounded(path) else {
        return Some("holds something else than a game");
    };
    let Ok((_, old)) = ploy_sheet::read(&text) else {
        return Some("holds something else than a game");
    };
    let same = old.game.start_position() == game.start_position()
        && old.game.moves().len() <= game.moves().len()
        && game.moves().starts_with(old.game.moves());
    (!same).then_some("holds another game")
}

/// Writes `bytes` to a new temporary file beside `path` and renames it over `path`, so
/// that `path` holds either the old text or the whole new one, never a part.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    // A symbolic link is followed: its target is replaced, the link stays.
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = if target == path {
        dir.to_path_buf()
    } else {
        target
            .parent()
            .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(target.file_name().unwrap_or(name));
    tmp_name.push(format!(".{}.tmp", std::process::id()));
    let tmp = dir.join(tmp_name);
    let _ = std::fs::remove_file(&tmp); // a leftover of this process id
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(11_017), (2000, 3, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
    }
}
