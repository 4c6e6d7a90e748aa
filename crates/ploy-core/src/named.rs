//! What the small enums of named values share: [`crate::Direction`] and [`crate::Seat`].

/// Declares `$ty`, an enum of named values numbered 0, 1, 2, ... in the order listed
/// (a compile-time check makes sure the numbers `$n` follow the list)
/// (`#[repr(u8)]`, ordered, hashable and, with the `serde` feature, serialized by variant
/// name), with its count `NUM`, the list `ALL` of its variants in that order, the
/// conversions `index` and `from_index` between a variant and its number, and `name` (each
/// variant's `$name`) as its `Display`. The documentation of the type, its variants, `ALL`,
/// `index` and `name` is the caller's; `$what` names one value in the documentation of
/// `NUM` and `from_index`.
macro_rules! named_values {
    (
        $(#[$doc:meta])*
        pub enum $ty:ident: $what:literal {
            $($(#[$variant_doc:meta])* $variant:ident = $n:literal => $name:literal),+ $(,)?
        }
        $(#[$all_doc:meta])*
        ALL;
        $(#[$index_doc:meta])*
        index;
        $(#[$name_doc:meta])*
        name;
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[repr(u8)]
        pub enum $ty {
            $($(#[$variant_doc])* $variant = $n),+
        }

        impl $ty {
            #[doc = concat!("Number of ", $what, "s.")]
            pub const NUM: usize = [$($ty::$variant),+].len();
            $(#[$all_doc])*
            pub const ALL: [$ty; $ty::NUM] = [$($ty::$variant),+];

            #[doc = concat!(
                "The ", $what, " with this index ([`", stringify!($ty), "::index`]), ",
                "or `None` for [`", stringify!($ty), "::NUM`] or more."
            )]
            #[inline]
            #[must_use]
            pub const fn from_index(i: u8) -> Option<$ty> {
                if (i as usize) < $ty::NUM {
                    Some($ty::ALL[i as usize])
                } else {
                    None
                }
            }

            $(#[$index_doc])*
            #[inline]
            #[must_use]
            pub const fn index(self) -> usize {
                self as usize
            }

            $(#[$name_doc])*
            #[must_use]
            pub const fn name(self) -> &'static str {
                [$($name),+][self as usize]
            }
        }

        const _: () = {
            let mut i = 0;
            while i < $ty::NUM {
                assert!($ty::ALL[i] as usize == i, "variants numbered out of order");
                i += 1;
            }
        };

        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use named_values;
