//! Criterion benches of the search: nodes per second over the bench positions, the start
//! position to a fixed depth, and the evaluation.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use ploy_engine::{EvalPosition, Evaluation, bench_positions};
use ploy_search::{Config, Evaluator, Limits, Searcher};
use std::hint::black_box;

fn config() -> Config {
    // A 4 MiB table: allocating and clearing 16 MiB per iteration would dominate.
    Config {
        table_bytes: 4 << 20,
        ..Config::default()
    }
}

fn search_benches(c: &mut Criterion) {
    let eval = Evaluation::default();
    let positions: Vec<EvalPosition> = bench_positions()
        .into_iter()
        .map(EvalPosition::new)
        .collect();
    let limits = Limits::depth(4);
    // The node count of the whole set is fixed: criterion turns it into nodes per second.
    let nodes: u64 = positions
        .iter()
        .map(|p| {
            Searcher::new(config(), eval.clone())
                .search(p, &[], &limits, |_| {})
                .nodes
        })
        .sum();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("bench_positions_depth_4", |b| {
        b.iter_batched_ref(
            || Searcher::new(config(), eval.clone()),
            |s| {
                for p in &positions {
                    s.clear();
                    black_box(s.search(p, &[], &limits, |_| {}));
                }
            },
            BatchSize::PerIteration,
        );
    });
    let start = EvalPosition::new(ploy_core::Position::new());
    let start_nodes = Searcher::new(config(), eval.clone())
        .search(&start, &[], &Limits::depth(5), |_| {})
        .nodes;
    group.throughput(Throughput::Elements(start_nodes));
    group.bench_function("start_depth_5", |b| {
        b.iter_batched_ref(
            || Searcher::new(config(), eval.clone()),
            |s| black_box(s.search(&start, &[], &Limits::depth(5), |_| {})),
            BatchSize::PerIteration,
        );
    });
    group.finish();

    let mut group = c.benchmark_group("evaluation");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("incremental", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| eval.evaluate(black_box(p)))
                .sum::<i32>()
        });
    });
    let plain: Vec<ploy_core::Position> = bench_positions();
    group.bench_function("from_scratch", |b| {
        b.iter(|| {
            plain
                .iter()
                .map(|p| eval.evaluate(black_box(p)))
                .sum::<i32>()
        });
    });
    group.finish();
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
