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
