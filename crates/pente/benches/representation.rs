//! Why a padded array: the rules' two hot operations (listing the empty points, and a move
//! with its capture and five tests, taken back) on the crate's padded array against a
//! minimal bitboard board written here for the comparison (19x19 in three `u128`s with a
//! guard column, stride 20), over the same 16 seeded positions and moves.

use criterion::{Criterion, criterion_group, criterion_main};
use pente::{Color, Move, Position};
use std::hint::black_box;

mod common;

const STRIDE: i32 = 20;

/// Stones of each colour as 380-bit sets (bit `row * 20 + col`; column 19 stays empty).
#[derive(Clone)]
struct Bitboard {
    stones: [[u128; 3]; 2],
    captures: [u8; 2],
}

impl Bitboard {
    fn new(pos: &Position) -> Bitboard {
        let mut b = Bitboard {
            stones: [[0; 3]; 2],
            captures: [pos.captures(Color::White), pos.captures(Color::Black)],
        };
        for (p, c) in pos.stones_iter() {
            let i = i32::from(p.row()) * STRIDE + i32::from(p.col());
            b.set(c.index(), i, true);
        }
        b
    }

    #[inline]
    fn get(&self, c: usize, i: i32) -> bool {
        if !(0..380).contains(&i) || i % STRIDE == 19 {
            return false;
        }
        let (w, bit) = ((i / 128) as usize, i % 128);
        self.stones[c][w] >> bit & 1 != 0
    }

    #[inline]
    fn set(&mut self, c: usize, i: i32, on: bool) {
        let (w, bit) = ((i / 128) as usize, i % 128);
        if on {
            self.stones[c][w] |= 1 << bit;
        } else {
            self.stones[c][w] &= !(1 << bit);
        }
    }

    /// Places a stone of `c` on `i`, captures, and reports the capture mask and a five.
    #[inline]
    fn make(&mut self, c: usize, i: i32) -> (u8, bool) {
        self.set(c, i, true);
        let o = 1 - c;
        let dirs = [
            1,
            -1,
            STRIDE,
            -STRIDE,
            STRIDE + 1,
            -STRIDE - 1,
            STRIDE - 1,
            1 - STRIDE,
        ];
        let mut mask = 0u8;
        for (k, &d) in dirs.iter().enumerate() {
            if self.get(o, i + d) && self.get(o, i + 2 * d) && self.get(c, i + 3 * d) {
                self.set(o, i + d, false);
                self.set(o, i + 2 * d, false);
                mask |= 1 << k;
            }
        }
        self.captures[c] += 2 * mask.count_ones() as u8;
        let mut five = false;
        for d in [1, STRIDE, STRIDE + 1, STRIDE - 1] {
            let mut n = 1;
            let mut j = i + d;
            while self.get(c, j) {
                n += 1;
                j += d;
            }
            let mut j = i - d;
            while self.get(c, j) {
                n += 1;
                j -= d;
            }
            five |= n >= 5;
        }
        (mask, five)
    }

    fn unmake(&mut self, c: usize, i: i32, mask: u8) {
        let dirs = [
            1,
            -1,
            STRIDE,
            -STRIDE,
            STRIDE + 1,
            -STRIDE - 1,
            STRIDE - 1,
            1 - STRIDE,
        ];
        self.set(c, i, false);
        for (k, &d) in dirs.iter().enumerate() {
            if mask >> k & 1 != 0 {
                self.set(1 - c, i + d, true);
                self.set(1 - c, i + 2 * d, true);
            }
        }
        self.captures[c] -= 2 * mask.count_ones() as u8;
    }

    /// The empty points, by iterating the zero bits of the union.
    fn empty(&self, out: &mut Vec<i32>) {
        for w in 0..3 {
            let full = self.stones[0][w] | self.stones[1][w];
            let mut free = !full;
            while free != 0 {
                let b = free.trailing_zeros() as i32;
                free &= free - 1;
                let i = w as i32 * 128 + b;
                if i < 380 && i % STRIDE != 19 {
                    out.push(i);
                }
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let set = common::positions(16);
    let moves: Vec<Vec<Move>> = set.iter().map(Position::legal_moves).collect();
    let boards: Vec<Bitboard> = set.iter().map(Bitboard::new).collect();
    let mut group = c.benchmark_group("pente/representation");
    group.sample_size(20);
    group.bench_function("padded_array/empty_points", |b| {
        let mut list = Vec::with_capacity(361);
        b.iter(|| {
            let mut n = 0;
            for p in &set {
                list.clear();
                black_box(p).legal_moves_into(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("bitboard/empty_points", |b| {
        let mut list = Vec::with_capacity(361);
        b.iter(|| {
            let mut n = 0;
            for bb in &boards {
                list.clear();
                black_box(bb).empty(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("padded_array/make_unmake", |b| {
        let mut work = set.clone();
        b.iter(|| {
            for (p, list) in work.iter_mut().zip(&moves) {
                for &m in list {
                    let u = p.make(m);
                    p.unmake(m, u);
                }
            }
        })
    });
    group.bench_function("bitboard/make_unmake", |b| {
        let mut work = boards.clone();
        b.iter(|| {
            let mut fives = 0;
            for ((bb, list), pos) in work.iter_mut().zip(&moves).zip(&set) {
                let c = pos.turn().index();
                for &m in list {
                    let i = i32::from(m.point().row()) * STRIDE + i32::from(m.point().col());
                    let (mask, five) = bb.make(c, i);
                    fives += usize::from(five);
                    bb.unmake(c, i, mask);
                }
            }
            fives
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
