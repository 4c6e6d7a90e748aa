//! Search speed: the engine at full strength to a fixed depth (threat search off) over
//! four seeded positions, a fresh engine each time; and the threat search alone.

use criterion::{Criterion, criterion_group, criterion_main};
use pente::{Engine, Limits, Strength};
use std::hint::black_box;

mod common;

fn bench(c: &mut Criterion) {
    let set = common::positions(4);
    let mut group = c.benchmark_group("pente/search");
    group.sample_size(10);
    for depth in [3, 5] {
        group.bench_function(format!("depth{depth}/set4"), |b| {
            b.iter(|| {
                let mut nodes = 0;
                for p in &set {
                    let mut e = Engine::new(Strength::Full).with_threat_nodes(0);
                    nodes += e.search(black_box(p), &Limits::depth(depth), |_| {}).nodes;
                }
                nodes
            })
        });
    }
    group.bench_function("threat_search/set4", |b| {
        b.iter(|| {
            let mut nodes = 0;
            for p in &set {
                let mut e = Engine::new(Strength::Full).with_threat_nodes(50_000);
                nodes += e.search(black_box(p), &Limits::depth(1), |_| {}).nodes;
            }
            nodes
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
