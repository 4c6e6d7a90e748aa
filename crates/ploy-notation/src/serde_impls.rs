//! `serde` support: the syntax types travel as their canonical strings.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use crate::{
    AlgebraicMove, BoardString, FourPlayerBoardString, FourPlayerPositionString, PositionString,
    TwoPlayerPositionString, UniversityMove,
};

macro_rules! via_string {
    ($($ty:ty => $what:literal),* $(,)?) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                deserializer.deserialize_str(ploy_core::TextVisitor::new($what))
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
