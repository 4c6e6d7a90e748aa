//! `serde` support shared by the types that travel as text or as validated data.

use core::fmt;
use core::marker::PhantomData;
use core::str::FromStr;

use serde::de::{self, Visitor};

/// Deserializes a string through `T`'s `FromStr`, reporting its error.
pub(crate) struct TextVisitor<T> {
    what: &'static str,
    _t: PhantomData<fn() -> T>,
}

impl<T> TextVisitor<T> {
    pub(crate) const fn new(what: &'static str) -> TextVisitor<T> {
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
