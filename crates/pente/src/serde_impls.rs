//! `Serialize`/`Deserialize` (feature `serde`): points and moves as their text (`"K10"`),
//! sizes as numbers, colours as `"white"`/`"black"`, positions as position strings; rules,
//! outcomes and records as structures.

use core::fmt;
use core::marker::PhantomData;
use core::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

use crate::position::Position;
use crate::types::{Color, Move, Point, Size};

struct FromStrVisitor<T>(PhantomData<T>, &'static str);

impl<T: FromStr> Visitor<'_> for FromStrVisitor<T>
where
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

macro_rules! text_serde {
    ($t:ty, $what:expr) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                d.deserialize_str(FromStrVisitor(PhantomData, $what))
            }
        }
    };
}

text_serde!(Point, "a point such as K10");
text_serde!(Move, "a move such as K10");
text_serde!(Color, "white or black");
text_serde!(Position, "a position string");

impl Serialize for Size {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.get())
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Size, D::Error> {
        let n = u32::deserialize(d)?;
        Size::new(n).map_err(de::Error::custom)
    }
}
