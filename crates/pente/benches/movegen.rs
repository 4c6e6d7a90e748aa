//! Move generation and make/unmake: the rules' legal moves and make/unmake, and the
//! engine's incremental state (play/take back) and move generation, over 16 seeded
//! positions on 19x19.

use criterion::{Criterion, criterion_group, criterion_main};
use pente::{Position, Rules, SearchPosition, Size, perft};
use ploy_search::SearchGame;
use std::hint::black_box;

mod common;

fn bench(c: &mut Criterion) {
    let set = common::positions(16);
    let engine_set: Vec<SearchPosition> = set.iter().cloned().map(SearchPosition::new).collect();
    c.bench_function("pente/legal_moves/set16", |b| {
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
    c.bench_function("pente/make_unmake/set16", |b| {
        let lists: Vec<_> = set.iter().map(Position::legal_moves).collect();
        let mut work = set.clone();
        b.iter(|| {
            for (p, list) in work.iter_mut().zip(&lists) {
                for &m in list {
                    let u = p.make(m);
                    p.unmake(m, u);
                }
            }
        })
    });
    c.bench_function("pente/engine_play_take_back/set16", |b| {
        let mut work = engine_set.clone();
        let lists: Vec<Vec<_>> = work
            .iter()
            .map(|g| {
                let mut v = Vec::new();
                g.generate(&mut v);
                v
            })
            .collect();
        b.iter(|| {
            for (g, list) in work.iter_mut().zip(&lists) {
                for &m in list {
                    let u = g.play(m);
                    g.take_back(m, u);
                }
            }
        })
    });
    c.bench_function("pente/engine_generate/set16", |b| {
        let mut v = Vec::with_capacity(361);
        b.iter(|| {
            let mut n = 0;
            for g in &engine_set {
                v.clear();
                black_box(g).generate(&mut v);
                n += v.len();
            }
            n
        })
    });
    c.bench_function("pente/perft/9x9-depth3", |b| {
        let start = Position::new(Rules::new(Size::S9));
        b.iter(|| perft(black_box(&start), 3))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
