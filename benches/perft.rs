//! Perft from the start position: bulk-counted (the target: perft 4 in under a second) and
//! with full make/unmake at every leaf.

use criterion::{Criterion, criterion_group, criterion_main};
use ploy::core::{Position, perft, perft_full};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let start = Position::new();
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("start/3", |b| b.iter(|| perft(black_box(&start), 3)));
    g.bench_function("start/4", |b| b.iter(|| perft(black_box(&start), 4)));
    g.bench_function("start/3-full", |b| {
        b.iter(|| perft_full(black_box(&start), 3))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
