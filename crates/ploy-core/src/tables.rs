//! Compile-time lookup tables and Zobrist keys.

use crate::{Direction, Flags, Piece, Seat, Square};

/// "No square" in [`NEIGHBOUR`].
pub(crate) const OFF: u8 = 81;

/// `NEIGHBOUR[dir][sq]`: index of the next square from `sq` in `dir`, or [`OFF`].
pub(crate) static NEIGHBOUR: [[u8; 81]; 8] = {
    let mut t = [[OFF; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = Direction::DELTAS[d];
        let mut i = 0;
        while i < 81 {
            let f = (i % 9) as i8 + df;
            let r = (i / 9) as i8 + dr;
            if f >= 0 && f < 9 && r >= 0 && r < 9 {
                t[d][i] = (r * 9 + f) as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// `RAYS[range - 1][dir][sq]`: the first `range` squares (1..=3) from `sq` in `dir`, as
/// the low and high 64 bits of a bitboard.
pub(crate) static RAYS: [[[u128; 81]; 8]; 3] = {
    let mut t = [[[0u128; 81]; 8]; 3];
    let mut range = 0;
    while range < 3 {
        let mut d = 0;
        while d < 8 {
            let mut sq = 0;
            while sq < 81 {
                let mut bb = 0u128;
                let mut s = sq;
                let mut k = 0;
                while k <= range {
                    let n = NEIGHBOUR[d][s];
                    if n == OFF {
                        break;
                    }
                    bb |= 1u128 << n;
                    s = n as usize;
                    k += 1;
                }
                t[range][d][sq] = bb;
                sq += 1;
            }
            d += 1;
        }
        range += 1;
    }
    t
};

/// Bit `d` set: direction `d` leads to higher square indices (N, NE, E, NW).
pub(crate) const UPWARD: u8 = 0b1000_0111;

/// `TURNS[mask]`: bit `r` set when turning `mask` by `r` changes it (`r` in 1..8).
pub(crate) static TURNS: [u8; 256] = TURNS_TABLE;

pub(crate) const TURNS_TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        let mut r = 1;
        while r < 8 {
            if (m as u8).rotate_left(r) != m as u8 {
                t[m] |= 1 << r;
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// `TURN_MOVES[mask]`: the direction moves of a piece with `mask` when any rotation is
/// allowed (the turns that change it: 7, or 6 or 4 for a mask symmetric under a half or
/// quarter turn).
pub(crate) static TURN_MOVES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (TURNS_TABLE[m] & crate::Rotation::Any.turn_mask()).count_ones() as u8;
        m += 1;
    }
    t
};

// Single-step rotation: every piece (1 to 4 flags) has exactly two direction moves, since no
// such mask is unchanged by one step. The move counter relies on it.
const _: () = {
    let mut m = 0;
    while m < 256 {
        let n = (m as u8).count_ones();
        if n >= 1 && n <= 4 {
            assert!((TURNS_TABLE[m] & crate::Rotation::SingleStep.turn_mask()).count_ones() == 2);
        }
        m += 1;
    }
};

/// SplitMix64, a small fixed-seed generator usable in `const` code.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// All Zobrist keys, drawn in a fixed order from SplitMix64 seeded with [`ZOBRIST_SEED`].
pub(crate) struct Keys {
    /// A piece of colour `c` on square `s`.
    pub colour: [[u64; 81]; 4],
    /// A flag in direction `d` of the piece on square `s`.
    pub flag: [[u64; 81]; 8],
    /// Seat `s` to move.
    pub turn: [u64; 4],
    /// Colour `c` controlled by seat `s` (only when `s != c`).
    pub control: [[u64; 4]; 4],
    /// Seat `s` no longer in play.
    pub out: [u64; 4],
}

/// The seed of the Zobrist keys. Part of the stable API: changing it changes every hash.
pub const ZOBRIST_SEED: u64 = 0x504C_4F59_2019_7000; // "PLOY" 1970

pub(crate) static KEYS: Keys = {
    // The order of the draws is the recipe of the crate docs ("Hashing").
    let (colour, st) = draw_keys::<4, 81>(ZOBRIST_SEED);
    let (flag, st) = draw_keys::<8, 81>(st);
    let ([turn], st) = draw_keys::<1, 4>(st);
    let (control, st) = draw_keys::<4, 4>(st);
    let ([out], _) = draw_keys::<1, 4>(st);
    Keys {
        colour,
        flag,
        turn,
        control,
        out,
    }
};

/// `R` rows of `C` keys drawn in row order from SplitMix64 in state `state`, and the state
/// after them.
const fn draw_keys<const R: usize, const C: usize>(state: u64) -> ([[u64; C]; R], u64) {
    let mut keys = [[0; C]; R];
    let mut st = state;
    let mut r = 0;
    while r < R {
        let mut c = 0;
        while c < C {
            let (next, key) = splitmix(st);
            st = next;
            keys[r][c] = key;
            c += 1;
        }
        r += 1;
    }
    (keys, st)
}

/// `NIBBLE_KEYS[half][sq][n]`: XOR of the flag keys of the bits of nibble `n` (low half:
/// directions 0..4, high half: 4..8) on `sq`. Two lookups give a mask's key, the same value
/// as XOR-ing one key per flag.
static NIBBLE_KEYS: [[[u64; 16]; 81]; 2] = {
    let mut t = [[[0u64; 16]; 81]; 2];
    let mut half = 0;
    while half < 2 {
        let mut sq = 0;
        while sq < 81 {
            let mut n = 0;
            while n < 16 {
                let mut h = 0;
                let mut b = 0;
                while b < 4 {
                    if n & (1 << b) != 0 {
                        h ^= KEYS.flag[half * 4 + b][sq];
                    }
                    b += 1;
                }
                t[half][sq][n] = h;
                n += 1;
            }
            sq += 1;
        }
        half += 1;
    }
    t
};

/// The key of `flags` on square `sq`: the XOR of one key per flag.
#[inline]
pub(crate) fn flags_key(sq: Square, flags: Flags) -> u64 {
    let m = flags.bits() as usize;
    NIBBLE_KEYS[0][sq.index()][m & 15] ^ NIBBLE_KEYS[1][sq.index()][m >> 4]
}

/// The Zobrist key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_key(sq: Square, piece: Piece) -> u64 {
    KEYS.colour[piece.colour().index()][sq.index()] ^ flags_key(sq, piece.flags())
}

/// The key for `seat` to move.
#[inline]
pub(crate) fn turn_key(seat: Seat) -> u64 {
    KEYS.turn[seat.index()]
}
