//! The evaluation's board: ten squares wide, so that square `rank * 9 + file` is bit
//! `rank * 10 + file` of a `u128` and the tenth column is a guard no piece stands on. Sets of
//! squares in this layout are what the evaluation keeps; the tables here are built at
//! compile time.

use ploy_core::Square;

/// "No square" in [`STEP`].
pub(crate) const OFF: u8 = 127;

/// The 10-wide bit of each square.
pub(crate) static WIDE: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = (i + i / 9) as u8;
        i += 1;
    }
    t
};

/// The square of each 10-wide bit (guard bits map to 0; they never hold a piece).
pub(crate) static NARROW: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut g = 0;
    while g < 90 {
        if g % 10 != 9 {
            t[g] = (g - g / 10) as u8;
        }
        g += 1;
    }
    t
};

/// Every real square in the 10-wide layout.
pub(crate) const VALID: u128 = {
    let mut b = 0u128;
    let mut i = 0;
    while i < 81 {
        b |= 1u128 << (i + i / 9);
        i += 1;
    }
    b
};

/// `(file, rank)` steps of the eight directions, in the order of ploy-core's direction
/// flags (bit 0 north, then clockwise).
const DELTA: [(i8, i8); 8] = ploy_core::Direction::DELTAS;

/// `t[d][s]`: the square next to square `s` in direction `d`, or `off`, for a board whose
/// rows are `width` wide (9: squares by index; 10: the 10-wide layout, whose guard bits are
/// all `off`). `N` is `9 * width`. Builds both [`STEP`] and the search's table of neighbours.
pub(crate) const fn neighbours<const N: usize>(width: usize, off: u8) -> [[u8; N]; 8] {
    let mut t = [[off; N]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < 81 {
            let f = (i % 9) as i8 + DELTA[d].0;
            let r = (i / 9) as i8 + DELTA[d].1;
            if f >= 0 && f < 9 && r >= 0 && r < 9 {
                t[d][i / 9 * width + i % 9] = (r as usize * width + f as usize) as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
}

/// `STEP[d][w]`: the 10-wide index of the square next to 10-wide square `w` in direction
/// `d`, or [`OFF`] (also for guard bits).
pub(crate) static STEP: [[u8; 90]; 8] = neighbours(10, OFF);

/// The squares `n` steps away from each square along one of the eight lines.
const fn ring(n: usize) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut w = 0;
    while w < 90 {
        let mut d = 0;
        while d < 8 {
            let mut s = w as u8;
            let mut k = 0;
            while k < n && s != OFF {
                s = STEP[d][s as usize];
                k += 1;
            }
            if s != OFF {
                t[w] |= 1u128 << s;
            }
            d += 1;
        }
        w += 1;
    }
    t
}

/// `RING1[w]`: the squares next to 10-wide square `w`.
pub(crate) static RING1: [u128; 90] = ring(1);

/// `RING2[w]`: the squares two steps from 10-wide square `w` along a line.
pub(crate) static RING2: [u128; 90] = ring(2);

/// Kind index (0 shield .. 3 commander) by direction mask; masks that are no piece map to 0.
pub(crate) static KIND_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let n = (m as u8).count_ones();
        t[m] = if n >= 1 && n <= 4 { (n - 1) as u8 } else { 0 };
        m += 1;
    }
    t
};

/// `BIT[w]`: the set of 10-wide square `w` alone (a load is cheaper than a 128-bit shift
/// by a variable amount).
static BIT: [u128; 90] = {
    let mut t = [0u128; 90];
    let mut w = 0;
    while w < 90 {
        t[w] = 1u128 << w;
        w += 1;
    }
    t
};

/// Range by kind index.
const RANGE: [u8; 4] = [1, 2, 3, 1];

/// The bit of 10-wide square `w`.
#[inline(always)]
pub(crate) fn bit(w: usize) -> u128 {
    BIT[w]
}

/// The 10-wide index of `sq`.
#[inline(always)]
pub(crate) fn wide(sq: Square) -> usize {
    WIDE[sq.index()] as usize
}

/// The square of 10-wide index `w` (a real square).
#[inline(always)]
pub(crate) fn narrow(w: usize) -> Square {
    Square::from_index(NARROW[w]).expect("a 10-wide index of a square")
}

/// Calls `f` with the index of every bit of `set`, lowest first.
#[inline(always)]
pub(crate) fn for_each(set: u128, mut f: impl FnMut(usize)) {
    let (mut lo, mut hi) = (set as u64, (set >> 64) as u64);
    while lo != 0 {
        f(lo.trailing_zeros() as usize);
        lo &= lo - 1;
    }
    while hi != 0 {
        f(64 + hi.trailing_zeros() as usize);
        hi &= hi - 1;
    }
}

/// The squares a piece with direction mask `mask` on 10-wide square `w` reaches: along each
/// of its directions, up to its range, the empty squares and the first occupied square (of
/// any colour); `occ` is the occupied squares.
#[inline]
pub(crate) fn piece_reach(w: usize, mask: u8, occ: u128) -> u128 {
    let range = RANGE[KIND_OF[mask as usize] as usize];
    let mut reach = 0u128;
    let mut flags = mask;
    while flags != 0 {
        let row = &STEP[flags.trailing_zeros() as usize];
        flags &= flags - 1;
        let mut s = w as u8;
        for _ in 0..range {
            s = row[s as usize];
            if s == OFF {
                break;
            }
            let b = bit(s as usize);
            reach |= b;
            if occ & b != 0 {
                break;
            }
        }
    }
    reach
}

/// The number of squares in `set` (the same as `set.count_ones()`, in fewer instructions
/// where the processor has no population count instruction, as in a default x86-64 build:
/// the two halves share the last steps).
#[inline(always)]
pub(crate) fn popcount(set: u128) -> u32 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const H01: u64 = 0x0101_0101_0101_0101;
    let (a, b) = (set as u64, (set >> 64) as u64);
    let a = a - ((a >> 1) & M1);
    let b = b - ((b >> 1) & M1);
    let a = (a & M2) + ((a >> 2) & M2);
    let b = (b & M2) + ((b >> 2) & M2);
    // Each nibble now holds at most 4 + 4.
    let s = a + b;
    let s = (s & M4) + ((s >> 4) & M4);
    (s.wrapping_mul(H01) >> 56) as u32
}

/// The number of squares in `set`, for sets of a few squares at most.
#[inline(always)]
pub(crate) fn sparse_count(set: u128) -> u32 {
    let mut n = 0;
    for_each(set, |_| n += 1);
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_count_ones() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u128;
        for i in 0..2000 {
            x = x.wrapping_mul(0x2545_F491_4F6C_DD1D_9E37_79B9_7F4A_7C15) ^ (x >> 61);
            let set = if i % 2 == 0 { x } else { x & x >> 7 & x >> 13 };
            assert_eq!(popcount(set), set.count_ones());
            assert_eq!(sparse_count(set), set.count_ones());
        }
        assert_eq!(popcount(u128::MAX), 128);
        assert_eq!(popcount(0), 0);
    }
}
