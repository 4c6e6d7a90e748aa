//! `serde` support: the syntax types travel as their canonical strings.

use core::fmt;
use core::marker::PhantomData;
use core::str::FromStr;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::{
    AlgebraicMove, BoardString, FourPlayerBoardString, FourPlayerPositionString, PositionString,
    TwoPlayerPositionString, UniversityMove,
};

struct StrVisitor<T>(PhantomData<T>, &'static str);

impl<T> Visitor<'_> for StrVisitor<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.1)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        v.parse().map_err(E::custom)
    }
}

macro_rules! via_string {
    ($($ty:ty => $what:literal),* $(,)?) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                deserializer.deserialize_str(StrVisitor(PhantomData, $what))
            }
        }
    )*};
}

via_string! {
    BoardString => "a board string",
    PositionString => "a position string",
    TwoPlayerPositionString => "a two-player position string",
    FourPlayerBoardString => "a four-player board string",
    FourPlayerPositionString => "a four-player position string",
    UniversityMove => "a university move string such as e3-e4-0",
    AlgebraicMove => "a move in algebraic notation such as e4xf5",
}
