//! What the sets kept in the bits of an integer share: [`crate::Bitboard`] (squares),
//! [`crate::Flags`] (directions) and [`crate::SeatSet`] (seats). Bit `i` of a set is the
//! element with index `i`; each type keeps its own constructors and its own way to test,
//! add and remove an element (a bitboard's are tuned for 128-bit words).

/// Gives a set type `$set` (a tuple struct over an unsigned integer, with an `EMPTY`
/// constant and a `const fn with(self, $elem) -> $set`) its size, its emptiness test and
/// its collection from elements; with `iter $iter`, also `IntoIterator` through its
/// `iter(self) -> $iter`.
macro_rules! bit_set {
    ($set:ident of $elem:ident $(, iter $iter:ident)?) => {
        impl $set {
            /// Number of elements in the set.
            #[inline]
            #[must_use]
            pub const fn count(self) -> u32 {
                self.0.count_ones()
            }

            /// Whether the set is empty.
            #[inline]
            #[must_use]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }
        }

        impl FromIterator<$elem> for $set {
            fn from_iter<I: IntoIterator<Item = $elem>>(iter: I) -> $set {
                iter.into_iter().fold($set::EMPTY, $set::with)
            }
        }

        $(
            impl IntoIterator for $set {
                type Item = $elem;
                type IntoIter = $iter;
                #[inline]
                fn into_iter(self) -> $iter {
                    self.iter()
                }
            }
        )?
    };
}
pub(crate) use bit_set;

/// Declares `$iter`, an iterator over the elements of a set of bits held in a `$bits`,
/// lowest bit first: `|$i| $elem` makes the `Option<$item>` of bit number `$i` (a `u8`).
macro_rules! bit_set_iter {
    ($(#[$doc:meta])* $iter:ident($bits:ty) -> $item:ty, |$i:ident| $elem:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $iter($bits);

        impl Iterator for $iter {
            type Item = $item;
            #[inline]
            fn next(&mut self) -> Option<$item> {
                if self.0 == 0 {
                    return None;
                }
                let $i = self.0.trailing_zeros() as u8;
                self.0 &= self.0 - 1;
                $elem
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}
    };
}
pub(crate) use bit_set_iter;
