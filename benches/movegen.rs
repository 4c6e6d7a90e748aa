//! Move generation and make/unmake speed, from the start position and from positions reached
//! by seeded random playouts.

use criterion::{Criterion, criterion_group, criterion_main};
use ploy::core::{Move, MoveList, Position};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

/// 32 positions: the start and positions after 10..60 random plies (seed 7).
fn positions() -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut out = vec![Position::new()];
    while out.len() < 32 {
        let mut pos = Position::new();
        let plies = rng.random_range(10..60);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            pos.make_move(mv);
        }
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let start = Position::new();
    let set = positions();
    let total: usize = set.iter().map(|p| p.count_legal_moves()).sum();
    println!("{} positions, {total} legal moves in all", set.len());

    c.bench_function("movegen/start", |b| {
        b.iter(|| black_box(&start).legal_moves().len())
    });
    c.bench_function("movegen/set32", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            let mut n = 0;
            for p in &set {
                list.clear();
                p.generate_moves(&mut list);
                n += list.len();
            }
            n
        })
    });
    c.bench_function("count/set32", |b| {
        b.iter(|| {
            set.iter()
                .map(|p| black_box(p).count_legal_moves())
                .sum::<usize>()
        })
    });
    c.bench_function("make_unmake/set32", |b| {
        let lists: Vec<(Position, Vec<Move>)> = set
            .iter()
            .map(|p| (p.clone(), p.legal_moves().to_vec()))
            .collect();
        let mut lists = lists;
        b.iter(|| {
            let mut h = 0u64;
            for (p, moves) in lists.iter_mut() {
                for &mv in moves.iter() {
                    let u = p.make_move(mv);
                    h ^= p.hash();
                    p.unmake_move(mv, u);
                }
            }
            h
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
