//! `serde` support shared by the types that travel as text or as validated data.

use core::fmt;
use core::marker::PhantomData;
use core::str::FromStr;

use serde::de::{self, Visitor};

/// Deserializes a string through `T`'s `FromStr`, reporting its error: the visitor of the
/// types that travel as their text (feature `serde`), here and in the crates built on this
/// one.
///
/// ```
/// use serde::de::{Deserializer, IntoDeserializer, value::{Error, StrDeserializer}};
/// let text: StrDeserializer<'_, Error> = "e4".into_deserializer();
/// let square: ploy_core::Square = text.deserialize_str(ploy_core::TextVisitor::new("a square"))?;
/// assert_eq!(square, ploy_core::Square::E4);
/// # Ok::<(), Error>(())
/// ```
pub struct TextVisitor<T> {
    what: &'static str,
    _t: PhantomData<fn() -> T>,
}

impl<T> TextVisitor<T> {
    /// The visitor of text that should be `what` (the "expected ..." of its error message,
    /// such as `"a square such as e4"`).
    #[must_use]
    pub const fn new(what: &'static str) -> TextVisitor<T> {
        TextVisitor {
            what,
            _t: PhantomData,
        }
    }
}

impl<T> Visitor<'_> for TextVisitor<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.what)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

/// Gives each type `$ty` a `Serialize` as its `Display` text and a `Deserialize` through
/// its `FromStr` ([`TextVisitor`]); `$what` describes the text expected.
macro_rules! serde_as_text {
    ($($ty:ty => $what:literal),+ $(,)?) => {$(
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                deserializer.deserialize_str($crate::serde_text::TextVisitor::new($what))
            }
        }
    )+};
}
pub(crate) use serde_as_text;
