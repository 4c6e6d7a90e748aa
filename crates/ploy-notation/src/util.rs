//! Small helpers shared by the parsers.

use core::fmt;

/// The whitespace the board parser skips around a field.
#[inline]
pub(crate) const fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Shows a byte found in the input for an error message: a printable ASCII character in
/// backticks, anything else as a hexadecimal byte, `None` as "the end of the input".
pub(crate) struct ByteDisplay(pub Option<u8>);

impl fmt::Display for ByteDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("the end of the input"),
            Some(b' ') => f.write_str("a space"),
            Some(b) if b.is_ascii_graphic() => write!(f, "`{}`", b as char),
            Some(b) => write!(f, "byte 0x{b:02x}"),
        }
    }
}

/// How many characters of the input an error message quotes at most ([`excerpt`]).
pub const EXCERPT_CHARS: usize = 40;

/// What an error message quotes of some input: at most [`EXCERPT_CHARS`] characters, with
/// `...` and the whole length in bytes when cut, so that a message stays short however long
/// the input is (a 50 MB token gives a line, not 50 MB). Bytes that are not UTF-8 show as
/// U+FFFD. (The workspace's one [`ploy_search::Excerpt`], set so.)
///
/// ```
/// use ploy_notation::excerpt;
/// assert_eq!(excerpt(b"e3-e4-0"), "e3-e4-0");
/// let long = "x".repeat(1000);
/// assert_eq!(excerpt(long.as_bytes()), format!("{}... (1000 bytes)", "x".repeat(40)));
/// ```
#[must_use]
pub fn excerpt(text: &[u8]) -> String {
    ploy_search::Excerpt::new(EXCERPT_CHARS)
        .with_length()
        .of_bytes(text)
}

/// Gives each type `$ty` its `FromStr`: its `from_ascii` on the bytes of the string, failing
/// with `$err`.
macro_rules! from_str_via_ascii {
    ($($ty:ident => $err:ident),+ $(,)?) => {$(
        impl core::str::FromStr for $ty {
            type Err = $err;
            fn from_str(s: &str) -> Result<$ty, $err> {
                $ty::from_ascii(s.as_bytes())
            }
        }
    )+};
}
pub(crate) use from_str_via_ascii;
