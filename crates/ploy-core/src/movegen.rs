//! Set-wise move counting and generation on the board's per-direction square sets.
//!
//! For each direction `d` and distance `k` (1 to 3) one bitboard, in *source* space, holds
//! the mover's pieces whose motion `k` squares along `d` is legal: the piece has a flag in
//! `d` and a range of at least `k`, the squares before the end are empty, and the end is
//! not a friend. Each such (piece, direction, distance) is exactly one motion move (times
//! the rotations a shield may add), so the number of motion moves is a sum of set sizes.
//! It takes a handful of shifts and ANDs per direction and no branch per piece or
//! direction:
//!
//! - `n1 = back_d(not_friend)` is where a step along `d` lands on a square that is not a
//!   friend, `n2 = back_d(empty & n1)` where two steps do with the first square empty, and
//!   `n3 = back_d(empty & n2)` the same for three steps (`back_d` shifts a set one square
//!   against `d`, so that bit `s` tells about the square `s + d`). For an eastward `d` the
//!   squares of file `a` are left out of `not_friend` and `empty` (no eastward move passes
//!   or ends there), and file `i` for a westward one, which also stops every shift that
//!   wraps around the end of a rank;
//! - the pieces with a flag in `d` (the board keeps these sets) among the movers of range
//!   1+, 2+ and 3+ are intersected with `n1`, `n2`, `n3`.
//!
//! The three sets of one direction are nested (a legal step of 3 implies one of 2, and that
//! one of 1), so per square their sum is the 2-bit number `(S2, S1 ^ S2 ^ S3)`. The sixteen
//! bit-planes of the eight directions are added per square with carry-save adders into a
//! 4-bit count per source square (at most 9: a lance's 3 flags times 3 distances), and the
//! total is one weighted population count of the four planes: a few dozen word operations,
//! fast also on processors without a population-count instruction (the default x86-64
//! target has none).
//!
//! Generation lists the same moves in the order the crate has always used (by start
//! square, then by end square, then by rotation; a piece's direction moves after its motion
//! moves): the per-square counts give each piece its slice of the list (a counting sort),
//! and the 24 (direction, distance) sets are written out in the order of their index
//! offsets `k * step(d)`, which is the order of the end squares for every start square.

use crate::{Board, MAX_MOVES, Move, MoveList, PieceKind, Rotation};

/// All 81 squares.
const FULL: u128 = (1u128 << 81) - 1;

/// The squares on files `lo..=hi` (0 = `a`).
const fn files(lo: u32, hi: u32) -> u128 {
    let mut b = 0u128;
    let mut i = 0;
    while i < 81 {
        let f = i % 9;
        if f >= lo && f <= hi {
            b |= 1u128 << i;
        }
        i += 1;
    }
    b
}

/// Square-index step of one square in each direction (N, NE, E, SE, S, SW, W, NW).
const STEP: [i32; 8] = [9, 10, 1, -8, -9, -10, -1, 8];

/// `x` shifted one square against direction `D`: bit `s` of the result is bit `s + step(D)`
/// of `x`.
#[inline(always)]
fn back<const D: usize>(x: u128) -> u128 {
    let s = STEP[D];
    if s > 0 {
        x >> s as u32
    } else {
        x << (-s) as u32
    }
}

/// Per direction, the legal motions by 1, 2 and 3 squares, as sets of start squares.
pub(crate) type MotionSets = [[u128; 3]; 8];

/// The movers by range, and per file class the squares a move may end on or pass.
struct Inputs {
    /// The pieces that may move.
    movers: u128,
    /// The probes and lances among them (range 2 or more).
    ranged: u128,
    /// The lances among them (range 3).
    lances: u128,
    /// Per file class, the squares a move may end on (not a friend).
    notf: [u128; 3],
    /// Per file class, the squares a move may pass (empty).
    empty: [u128; 3],
}

/// The file class of each direction: 0 none (N, S), 1 eastward, 2 westward.
const CLASS: [usize; 8] = [0, 1, 1, 1, 0, 2, 2, 2];

/// `CLASS_OK[class]`: the squares a move of that class may pass or end on. An eastward move
/// never reaches file `a` and a westward one never file `i`, so clearing that file from
/// the end and passing squares also stops every shift that wraps around a rank end (ranks
/// need nothing: a shift past either end of the board drops the bits).
const CLASS_OK: [u128; 3] = [FULL, files(1, 8), files(0, 7)];

#[inline(always)]
fn direction<const D: usize>(board: &Board, i: &Inputs) -> [u128; 3] {
    // `n_k`: the end of a motion of k steps along D is not a friend, and the squares before
    // it are empty.
    let c = CLASS[D];
    let n1 = back::<D>(i.notf[c]);
    let n2 = back::<D>(i.empty[c] & n1);
    let n3 = back::<D>(i.empty[c] & n2);
    let f = board.flag_set(D).0;
    [f & i.movers & n1, f & i.ranged & n2, f & i.lances & n3]
}

/// The inputs for `movers`, who may not end on `friends`, with the squares `occupied`.
#[inline(always)]
fn inputs(board: &Board, movers: u128, friends: u128, occupied: u128) -> Inputs {
    let lances = movers & board.by_kind(PieceKind::Lance).0;
    let ranged = lances | (movers & board.by_kind(PieceKind::Probe).0);
    let notf = FULL & !friends;
    let empty = FULL & !occupied;
    Inputs {
        movers,
        ranged,
        lances,
        notf: CLASS_OK.map(|ok| notf & ok),
        empty: CLASS_OK.map(|ok| empty & ok),
    }
}

/// The legal motion sets of the pieces in `movers` (who may not end on `friends`).
#[inline(always)]
fn motion_sets(board: &Board, movers: u128, friends: u128) -> MotionSets {
    let i = inputs(board, movers, friends, board.occupied().0);
    [
        direction::<0>(board, &i),
        direction::<1>(board, &i),
        direction::<2>(board, &i),
        direction::<3>(board, &i),
        direction::<4>(board, &i),
        direction::<5>(board, &i),
        direction::<6>(board, &i),
        direction::<7>(board, &i),
    ]
}

/// Full adder on bit-planes: `(sum, carry)` of `a + b + c` per square.
#[inline(always)]
fn full_add(a: u128, b: u128, c: u128) -> (u128, u128) {
    let u = a ^ b;
    (u ^ c, (a & b) | (u & c))
}

/// Direction `D`'s number of motion moves per square, the 2-bit number `(hi, lo)`: its sets
/// are nested (`S3 <= S2 <= S1`), so the sum is `S1 + S2 + S3 = 2 * S2 + (S1 ^ S2 ^ S3)`.
#[inline(always)]
fn direction_sum<const D: usize>(board: &Board, i: &Inputs) -> (u128, u128) {
    let [s1, s2, s3] = direction::<D>(board, i);
    (s2, s1 ^ s2 ^ s3)
}

/// Per square, the number of motion moves of the movers (not yet counting a shield's
/// rotations), as four bit-planes (weights 1, 2, 4, 8).
#[inline(always)]
fn count_planes(board: &Board, i: &Inputs) -> [u128; 4] {
    add_direction_sums([
        direction_sum::<0>(board, i),
        direction_sum::<1>(board, i),
        direction_sum::<2>(board, i),
        direction_sum::<3>(board, i),
        direction_sum::<4>(board, i),
        direction_sum::<5>(board, i),
        direction_sum::<6>(board, i),
        direction_sum::<7>(board, i),
    ])
}

/// The same planes from sets already computed.
#[inline(always)]
fn planes(s: &MotionSets) -> [u128; 4] {
    add_direction_sums(core::array::from_fn(|d| {
        let [s1, s2, s3] = s[d];
        (s2, s1 ^ s2 ^ s3)
    }))
}

/// Adds the eight directions' 2-bit numbers per square, `(hi, lo)` as [`direction_sum`]
/// gives them, into four bit-planes (weights 1, 2, 4, 8) with carry-save adders.
#[inline(always)]
fn add_direction_sums(sums: [(u128, u128); 8]) -> [u128; 4] {
    let hi = |d: usize| sums[d].0;
    let lo = |d: usize| sums[d].1;
    // Weight 1 (the `lo` bits) and weight 2 (the `hi` bits), three directions at a time.
    let (sa, ca) = full_add(lo(0), lo(1), lo(2));
    let (sb, cb) = full_add(lo(3), lo(4), lo(5));
    let (sc, cc) = full_add(lo(6), lo(7), sa);
    let (b0, cd) = (sb ^ sc, sb & sc);
    let (ta, ka) = full_add(hi(0), hi(1), hi(2));
    let (tb, kb) = full_add(hi(3), hi(4), hi(5));
    let (tc, kc) = full_add(hi(6), hi(7), ca);
    // Weight 2: the rest.
    let (td, kd) = full_add(cb, cc, cd);
    let (te, ke) = full_add(ta, tb, tc);
    let (b1, kf) = (td ^ te, td & te);
    // Weight 4: six carries.
    let (ua, ja) = full_add(ka, kb, kc);
    let (ub, jb) = full_add(kd, ke, kf);
    let (b2, jc) = (ua ^ ub, ua & ub);
    // Weight 8: a piece has at most 9 motion moves (a lance: 3 flags, 3 distances), so at
    // most one of these carries is set on any square.
    [b0, b1, b2, ja | jb | jc]
}

/// Gives each movable shield (`shields`, where the planes hold 1) the weight `w`, its
/// number of motion moves with the rotations it may add.
#[inline(always)]
fn weigh_shields(p: &mut [u128; 4], shields: u128, rotation: Rotation) {
    match rotation {
        // 8 = 0b1000: clear the 1, set the 8.
        Rotation::Any => {
            p[0] ^= shields;
            p[3] |= shields;
        }
        // 3 = 0b0011: keep the 1, add the 2.
        Rotation::SingleStep => p[1] |= shields,
    }
}

// The two weights above.
const _: () = assert!(Rotation::Any.shield_mask().count_ones() == 8);
const _: () = assert!(Rotation::SingleStep.shield_mask().count_ones() == 3);

/// `sum over squares of p[0] + 2 p[1] + 4 p[2] + 8 p[3]`, by SWAR population counts (no
/// population-count instruction needed).
#[inline(always)]
fn weighted_count(p: &[u128; 4]) -> u32 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    // Per nibble: the number of bits set, at most 4.
    let nibbles = |x: u64| {
        let x = x - ((x >> 1) & M1);
        (x & M2) + ((x >> 2) & M2)
    };
    // Per byte: the sum of its two nibbles (masked first: each may be up to 12).
    let bytes = |x: u64| (x & M4) + ((x >> 4) & M4);
    let mut acc = 0u64;
    for half in [0u32, 64] {
        let w = |k: usize| (p[k] >> half) as u64;
        // Each nibble at most 4 + 2 * 4 = 12; each byte then at most 24 + 4 * 24 = 120, and
        // the two halves together at most 240: no field overflows.
        let low = nibbles(w(0)) + 2 * nibbles(w(1));
        let high = nibbles(w(2)) + 2 * nibbles(w(3));
        acc += bytes(low) + 4 * bytes(high);
    }
    // Bytes into 16-bit lanes (at most 480 each), then the four lanes added (at most 1920).
    const M8: u64 = 0x00FF_00FF_00FF_00FF;
    let lanes = (acc & M8) + ((acc >> 8) & M8);
    (lanes.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
}

/// The number of motion moves of `movers`, who may not end on `friends`, under `rotation`,
/// with the squares `occupied` (the board's own, or those after a move that changed
/// nothing else the movers' moves depend on: see `Position::count_moves_after`).
#[inline]
pub(crate) fn count_motion(
    board: &Board,
    movers: u128,
    friends: u128,
    occupied: u128,
    rotation: Rotation,
) -> u32 {
    let mut p = count_planes(board, &inputs(board, movers, friends, occupied));
    let shields = p[0] & board.by_kind(PieceKind::Shield).0;
    weigh_shields(&mut p, shields, rotation);
    weighted_count(&p)
}

/// Calls `f` with the index of every square in `b`, lowest first.
#[inline(always)]
fn for_each_square(b: u128, mut f: impl FnMut(usize)) {
    let mut lo = b as u64;
    while lo != 0 {
        f(lo.trailing_zeros() as usize);
        lo &= lo - 1;
    }
    let mut hi = (b >> 64) as u64;
    while hi != 0 {
        f(hi.trailing_zeros() as usize + 64);
        hi &= hi - 1;
    }
}

/// The rotations `r` in `mask` (bit `r` set), lowest first, padded with zeros, and how many.
const fn rotation_lanes(mask: u8) -> Lanes {
    let mut lanes = [0u16; 8];
    let mut n = 0;
    let mut r = 0;
    while r < 8 {
        if mask >> r & 1 != 0 {
            lanes[n] = r as u16;
            n += 1;
        }
        r += 1;
    }
    Lanes(lanes, n as u8)
}

/// Up to eight rotations (as low bits of packed moves) and how many there are.
#[derive(Clone, Copy)]
#[repr(align(16))]
struct Lanes([u16; 8], u8);

/// `TURN_LANES[rule][mask]`: the direction moves' rotations of a piece with `mask`, under
/// [`Rotation::Any`] (rule 0) and [`Rotation::SingleStep`] (rule 1).
static TURN_LANES: [[Lanes; 256]; 2] = {
    let mut t = [[Lanes([0; 8], 0); 256]; 2];
    let rules = [Rotation::Any, Rotation::SingleStep];
    let mut k = 0;
    while k < 2 {
        let mut m = 0;
        while m < 256 {
            t[k][m] = rotation_lanes(crate::tables::TURNS_TABLE[m] & rules[k].turn_mask());
            m += 1;
        }
        k += 1;
    }
    t
};

/// Writes the moves `code + r` for the rotations `r` of `lanes` at `slots[at..]`, and
/// returns the end. All eight lanes are stored at once when they fit: the extra ones land
/// on slots that are written again later or lie past the end of the list.
#[inline(always)]
fn write_lanes(slots: &mut [Move; MAX_MOVES], at: usize, code: u16, lanes: &Lanes) -> usize {
    let n = usize::from(lanes.1);
    if let Some(dst) = slots.get_mut(at..at + 8) {
        for (slot, &r) in dst.iter_mut().zip(&lanes.0) {
            *slot = Move::from_code(code + r);
        }
    } else {
        for (slot, &r) in slots[at..at + n].iter_mut().zip(&lanes.0) {
            *slot = Move::from_code(code + r);
        }
    }
    at + n
}

/// Writes the motion moves by `K` squares along `D` of the pieces other than shields into
/// each start square's slice.
#[inline(always)]
fn emit<const D: usize, const K: usize>(
    sets: &MotionSets,
    shields: u128,
    next: &mut [u16; 81],
    slots: &mut [Move; MAX_MOVES],
) {
    // The packed move `(from * 81 + to) * 8 + r` with `to = from + offset`.
    let offset = STEP[D] * K as i32;
    for_each_square(sets[D][K - 1] & !shields, |from| {
        let i = next[from] as usize;
        slots[i] = Move::from_code(((from as i32 * 82 + offset) * 8) as u16);
        next[from] += 1;
    });
}

/// Appends the legal moves of `movers` (who may not end on `friends`) under `rotation`.
pub(crate) fn generate(
    board: &Board,
    movers: u128,
    friends: u128,
    rotation: Rotation,
    list: &mut MoveList,
) {
    let sets = motion_sets(board, movers, friends);
    let mut p = planes(&sets);
    let shields = board.by_kind(PieceKind::Shield).0 & movers;
    let shield_lanes = rotation_lanes(rotation.shield_mask());
    let movable = p[0] & shields;
    weigh_shields(&mut p, movable, rotation);
    let turn_lanes = &TURN_LANES[match rotation {
        Rotation::Any => 0,
        Rotation::SingleStep => 1,
    }];

    // Each piece's slice: its motion moves (counted in the planes), then its turns. A
    // shield's motion moves (one end square, with each rotation) and every piece's turns are
    // written now, eight lanes at a time: the spare lanes land on slots written later.
    let mut next = [0u16; 81];
    let (len, slots) = list.spare();
    let mut at = len;
    for half in [0usize, 64] {
        let w = |k: usize| (p[k] >> half) as u64;
        let (w0, w1, w2, w3) = (w(0), w(1), w(2), w(3));
        let movable_shields = (movable >> half) as u64;
        let mut m = (movers >> half) as u64;
        while m != 0 {
            let b = m.trailing_zeros();
            m &= m - 1;
            let from = half + b as usize;
            let mask = board.squares_mask(from);
            next[from] = at as u16;
            if movable_shields >> b & 1 != 0 {
                let to = from as i32 + STEP[mask.trailing_zeros() as usize & 7];
                at = write_lanes(
                    slots,
                    at,
                    ((from as i32 * 81 + to) * 8) as u16,
                    &shield_lanes,
                );
            } else {
                let motion =
                    (w0 >> b & 1) | (w1 >> b & 1) << 1 | (w2 >> b & 1) << 2 | (w3 >> b & 1) << 3;
                at += motion as usize;
            }
            let lanes = &turn_lanes[usize::from(mask)];
            at = write_lanes(slots, at, (from * 82 * 8) as u16, lanes);
        }
    }

    // The motion moves, in order of their end square's offset from the start square.
    emit::<5, 3>(&sets, shields, &mut next, slots); // -30
    emit::<4, 3>(&sets, shields, &mut next, slots); // -27
    emit::<3, 3>(&sets, shields, &mut next, slots); // -24
    emit::<5, 2>(&sets, shields, &mut next, slots); // -20
    emit::<4, 2>(&sets, shields, &mut next, slots); // -18
    emit::<3, 2>(&sets, shields, &mut next, slots); // -16
    emit::<5, 1>(&sets, shields, &mut next, slots); // -10
    emit::<4, 1>(&sets, shields, &mut next, slots); // -9
    emit::<3, 1>(&sets, shields, &mut next, slots); // -8
    emit::<6, 3>(&sets, shields, &mut next, slots); // -3
    emit::<6, 2>(&sets, shields, &mut next, slots); // -2
    emit::<6, 1>(&sets, shields, &mut next, slots); // -1
    emit::<2, 1>(&sets, shields, &mut next, slots); // +1
    emit::<2, 2>(&sets, shields, &mut next, slots); // +2
    emit::<2, 3>(&sets, shields, &mut next, slots); // +3
    emit::<7, 1>(&sets, shields, &mut next, slots); // +8
    emit::<0, 1>(&sets, shields, &mut next, slots); // +9
    emit::<1, 1>(&sets, shields, &mut next, slots); // +10
    emit::<7, 2>(&sets, shields, &mut next, slots); // +16
    emit::<0, 2>(&sets, shields, &mut next, slots); // +18
    emit::<1, 2>(&sets, shields, &mut next, slots); // +20
    emit::<7, 3>(&sets, shields, &mut next, slots); // +24
    emit::<0, 3>(&sets, shields, &mut next, slots); // +27
    emit::<1, 3>(&sets, shields, &mut next, slots); // +30
    list.set_len(at);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `weighted_count` is the plain weighted sum of population counts, also for planes far
    /// denser than any position makes them.
    #[test]
    fn weighted_count_adds_the_planes() {
        let mut x = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            x
        };
        let mut cases = vec![[FULL; 4], [0; 4], [FULL, 0, FULL, 0]];
        for _ in 0..2000 {
            let mut p = [0u128; 4];
            for plane in &mut p {
                // Sparse, dense and in between.
                let (a, b, c) = (next(), next(), next());
                let bits = (u128::from(a) << 64 | u128::from(b)) & FULL;
                *plane = match c % 3 {
                    0 => bits,
                    1 => bits & (u128::from(c) << 64 | u128::from(next())),
                    _ => bits | (u128::from(c) << 64 | u128::from(next())) & FULL,
                };
            }
            cases.push(p);
        }
        for p in cases {
            let plain: u32 = (0..4).map(|k| p[k].count_ones() << k).sum();
            assert_eq!(weighted_count(&p), plain, "{p:x?}");
        }
    }
}
