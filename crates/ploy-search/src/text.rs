//! The two small text helpers every game's parsers, programs and the server share: a
//! bounded quote of the input for error messages ([`Excerpt`], [`excerpt`]) and one
//! duration parser with two modes ([`parse_duration`], [`DurationMode`]).
//!
//! They live here because this crate is the one every game crate (and the programs and the
//! server above them) depends on; they know nothing of the search.

use core::fmt;
use std::time::Duration;

/// How an error message quotes its input: at most [`Excerpt::max_chars`] characters, then a
/// mark that it was cut, so that a message stays short however long the input is (a 50 MB
/// token gives a line, not 50 MB).
///
/// ```
/// use ploy_search::Excerpt;
///
/// let long = "x".repeat(1000);
/// assert_eq!(Excerpt::new(3).of("abcdef"), "abc...");
/// assert_eq!(Excerpt::new(3).with_ellipsis("…").of("abcdef"), "abc…");
/// assert_eq!(Excerpt::new(40).replacing_controls('?').of("a\nb"), "a?b");
/// assert_eq!(
///     Excerpt::new(40).with_length().of_bytes(long.as_bytes()),
///     format!("{}... (1000 bytes)", "x".repeat(40))
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Excerpt {
    /// The most characters quoted.
    pub max_chars: usize,
    /// What follows a quote that was cut (`...` unless changed).
    pub ellipsis: &'static str,
    /// The character control characters are shown as, if they are replaced.
    pub control: Option<char>,
    /// Whether a cut quote also gives the whole input's length in bytes (` (N bytes)`).
    pub length: bool,
}

impl Excerpt {
    /// At most `max_chars` characters, `...` when cut, control characters kept.
    #[must_use]
    pub const fn new(max_chars: usize) -> Excerpt {
        Excerpt {
            max_chars,
            ellipsis: "...",
            control: None,
            length: false,
        }
    }

    /// Another mark for a cut quote.
    #[must_use]
    pub const fn with_ellipsis(self, ellipsis: &'static str) -> Excerpt {
        Excerpt { ellipsis, ..self }
    }

    /// Control characters (a line break, a tab, ...) shown as `c`.
    #[must_use]
    pub const fn replacing_controls(self, c: char) -> Excerpt {
        Excerpt {
            control: Some(c),
            ..self
        }
    }

    /// A cut quote also says how long the whole input was, in bytes.
    #[must_use]
    pub const fn with_length(self) -> Excerpt {
        Excerpt {
            length: true,
            ..self
        }
    }

    /// The quote of `text`.
    #[must_use]
    pub fn of(&self, text: &str) -> String {
        self.quote(text.chars(), text.len())
    }

    /// The quote of `bytes`, bytes that are not UTF-8 shown as U+FFFD (one per bad
    /// sequence).
    #[must_use]
    pub fn of_bytes(&self, bytes: &[u8]) -> String {
        let chars = bytes.utf8_chunks().flat_map(|chunk| {
            let bad = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
            chunk.valid().chars().chain(bad)
        });
        self.quote(chars, bytes.len())
    }

    fn quote(&self, mut chars: impl Iterator<Item = char>, bytes: usize) -> String {
        let mut out = String::new();
        for c in chars.by_ref().take(self.max_chars) {
            out.push(match self.control {
                Some(r) if c.is_control() => r,
                _ => c,
            });
        }
        if chars.next().is_some() {
            out.push_str(self.ellipsis);
            if self.length {
                use fmt::Write;
                let _ = write!(out, " ({bytes} bytes)");
            }
        }
        out
    }
}

/// At most `max` characters of `text`, with `...` when cut ([`Excerpt::new`]).
///
/// ```
/// assert_eq!(ploy_search::excerpt("e3-e4-0", 40), "e3-e4-0");
/// assert_eq!(ploy_search::excerpt("abcdef", 2), "ab...");
/// ```
#[must_use]
pub fn excerpt(text: &str, max: usize) -> String {
    Excerpt::new(max).of(text)
}

/// How [`parse_duration`] reads a duration: the two forms the workspace's interfaces take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DurationMode {
    /// A program's flag (`--movetime 500ms`, `--time 2s`): one non-negative decimal number
    /// with one unit, `ms`, `s`, `m` (or `min`) or `h`; a bare number is milliseconds (a
    /// flag whose bare number means something else reads it itself and passes the text on
    /// when it has a unit). Too large a value saturates at [`Duration::MAX`].
    Flag,
    /// A game option of the server (`-deadline=7d`, `-reminder=1d12h`): whole numbers each
    /// with a unit `s`, `m`, `h` or `d`, one or several in a row; at least one second, at
    /// most 1000 days.
    GameOption,
}

/// Why a text is not a duration: the message quotes a bounded excerpt of it and says what
/// the mode expects.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{quoted}` is not a duration{}", match .mode {
    DurationMode::Flag => ": write a number with a unit, e.g. 500ms, 2s, 5m (a bare number is milliseconds)",
    DurationMode::GameOption => " such as 7d, 36h, 90m or 1d12h",
})]
pub struct DurationError {
    quoted: String,
    mode: DurationMode,
}

/// Reads a duration in one of the two [`DurationMode`]s.
///
/// # Errors
/// [`DurationError`] when the text is not a duration of that mode.
///
/// ```
/// use std::time::Duration;
/// use ploy_search::{DurationMode, parse_duration};
///
/// let flag = |t| parse_duration(t, DurationMode::Flag);
/// assert_eq!(flag("500ms"), Ok(Duration::from_millis(500)));
/// assert_eq!(flag("1.5s"), Ok(Duration::from_millis(1500)));
/// assert_eq!(flag("250"), Ok(Duration::from_millis(250)));
/// assert!(flag("2 parsecs").is_err());
///
/// let option = |t| parse_duration(t, DurationMode::GameOption);
/// assert_eq!(option("1d12h"), Ok(Duration::from_secs(36 * 3600)));
/// assert!(option("7").is_err());
/// assert!(option("1001d").is_err());
/// ```
pub fn parse_duration(text: &str, mode: DurationMode) -> Result<Duration, DurationError> {
    let parsed = match mode {
        DurationMode::Flag => flag_duration(text),
        DurationMode::GameOption => option_seconds(text).map(Duration::from_secs),
    };
    parsed.ok_or_else(|| DurationError {
        quoted: match mode {
            DurationMode::Flag => excerpt(text, 40),
            DurationMode::GameOption => Excerpt::new(40).replacing_controls('?').of(text),
        },
        mode,
    })
}

/// [`DurationMode::Flag`].
fn flag_duration(text: &str) -> Option<Duration> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    if number.is_empty() || number.starts_with('.') || number.ends_with('.') {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    let millis_per_unit = match unit.trim() {
        "" | "ms" => 1.0,
        "s" => 1_000.0,
        "m" | "min" => 60_000.0,
        "h" => 3_600_000.0,
        _ => return None,
    };
    let millis = value * millis_per_unit;
    if !millis.is_finite() || millis >= u64::MAX as f64 {
        return Some(Duration::MAX);
    }
    Some(Duration::from_micros((millis * 1000.0).round() as u64))
}

/// [`DurationMode::GameOption`], in seconds.
fn option_seconds(text: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut number: Option<u64> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = number.unwrap_or(0);
            number = Some(
                n.checked_mul(10)
                    .and_then(|n| n.checked_add(u64::from(d)))
                    .filter(|&n| n <= 100_000_000)?,
            );
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return None,
        };
        total += number.take()? * unit;
    }
    (number.is_none() && (1..=1000 * 86_400).contains(&total)).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_saturate_and_refuse() {
        let flag = |t| parse_duration(t, DurationMode::Flag);
        assert_eq!(flag("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(flag("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(flag("0"), Ok(Duration::ZERO));
        assert_eq!(flag("99999999999999999999999h"), Ok(Duration::MAX));
        for bad in ["", "s", ".5s", "5.s", "-1s", "1x", "1 s s", "1e3"] {
            assert!(flag(bad).is_err(), "{bad:?}");
        }
        let long = "9".repeat(10_000) + "q";
        assert!(flag(&long).unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn game_options_are_whole_units_within_bounds() {
        let option = |t| parse_duration(t, DurationMode::GameOption).map(|d| d.as_secs());
        assert_eq!(option("7d"), Ok(7 * 86_400));
        assert_eq!(option("90m"), Ok(5400));
        for bad in ["7", "d", "0s", "99999999999999d", "1001d", "1.5h", "1 d"] {
            assert!(option(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            option("a\nb").unwrap_err().to_string(),
            "`a?b` is not a duration such as 7d, 36h, 90m or 1d12h"
        );
    }

    #[test]
    fn excerpts_cut_on_characters() {
        assert_eq!(Excerpt::new(2).of("ééé"), "éé...");
        assert_eq!(Excerpt::new(5).of_bytes(b"ab\xffcd"), "ab\u{fffd}cd");
        assert_eq!(Excerpt::new(2).with_length().of("abc"), "ab... (3 bytes)");
        assert_eq!(Excerpt::new(3).of("abc"), "abc");
    }
}
