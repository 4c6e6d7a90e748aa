//! Zobrist keys, drawn at compile time from SplitMix64 seeded with [`ZOBRIST_SEED`].
//!
//! Order of the draws: one key per colour (White, then Black) and point code
//! ([`crate::Point::code`], 0..361), then one key per colour and capture count (0..32),
//! then the Black-to-move key. A position's hash is the XOR of the key of every stone, the
//! keys of both players' capture counts, and the Black-to-move key when Black is to move.
//! These values are part of the crate's stable API.

/// The seed of the key generator.
pub const ZOBRIST_SEED: u64 = 0x5045_4E54_455F_5A42; // "PENTE_ZB"

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(GAMMA);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// SplitMix64's increment: its state after `n` draws is the seed plus `n` times this.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The key drawn after `n` earlier draws. SplitMix64's state only grows by [`GAMMA`], so
/// any draw is computed directly from the seed.
const fn draw(n: usize) -> u64 {
    splitmix(ZOBRIST_SEED.wrapping_add(GAMMA.wrapping_mul(n as u64))).1
}

/// `N` keys per colour (White, then Black), the draws that follow the first `first`.
const fn keys_per_colour<const N: usize>(first: usize) -> [[u64; N]; 2] {
    let mut keys = [[0u64; N]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < N {
            keys[c][i] = draw(first + c * N + i);
            i += 1;
        }
        c += 1;
    }
    keys
}

/// The draws before the capture keys: one per colour and point code.
const STONE_KEYS: usize = 2 * 361;

/// Keys per colour and point code.
pub(crate) static STONE: [[u64; 361]; 2] = keys_per_colour(0);

/// Keys per colour and capture count.
pub(crate) static CAPTURES: [[u64; 32]; 2] = keys_per_colour(STONE_KEYS);

/// The Black-to-move key.
pub(crate) const BLACK_TO_MOVE: u64 = draw(STONE_KEYS + 2 * 32);
