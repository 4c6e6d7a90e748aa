//! Searches a fixed set of 24 positions to a fixed depth and prints the total node count
//! (a signature that changes only when the search changes) and the speed.
//!
//! ```text
//! cargo run --release --example bench [-- --depth N] [--alphabeta] [--no-pvs] [--lmr]
//!     [--previous-guess] [--verbose] [--overrun SEARCHES MS]
//! ```
//!
//! Every position gets a fresh searcher (16 MiB table), so the count does not depend on the
//! order or on earlier searches. Default depth: 5.

use ploy_search::{
    Config, Driver, EvalPosition, Evaluation, Limits, Searcher, bench_positions, nps,
};
use std::time::Instant;

fn main() {
    let mut depth = 5;
    let mut config = Config::default();
    let mut verbose = false;
    let mut overrun: Option<(u32, u64)> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--depth" => depth = args.next().and_then(|d| d.parse().ok()).expect("--depth N"),
            "--alphabeta" => config.driver = Driver::AlphaBeta,
            "--lmr" => config.late_move_reductions = true,
            "--previous-guess" => config.guess_from_same_parity = false,
            "--no-pvs" => config.pvs = false,
            "--verbose" => verbose = true,
            "--overrun" => {
                let n = args
                    .next()
                    .and_then(|d| d.parse().ok())
                    .expect("--overrun SEARCHES MS");
                let ms = args
                    .next()
                    .and_then(|d| d.parse().ok())
                    .expect("--overrun SEARCHES MS");
                overrun = Some((n, ms));
            }
            _ => panic!("unknown argument {a}"),
        }
    }
    let eval = Evaluation::default();
    if let Some((n, ms)) = overrun {
        return measure_overrun(&config, &eval, n, ms);
    }
    let mut total = 0u64;
    let mut time = std::time::Duration::ZERO;
    for (i, pos) in bench_positions().into_iter().enumerate() {
        let mut s = Searcher::new(config.clone(), eval.clone());
        let pos = EvalPosition::new(pos);
        let t = Instant::now();
        let r = s.search(&pos, &[], &Limits::depth(depth), |_| {});
        let dt = t.elapsed();
        total += r.nodes;
        time += dt;
        if verbose {
            let best = r.best_move.map_or("none".to_string(), |m| format!("{m:?}"));
            println!(
                "position {i:2} moves {:3} depth {} score {:>8} best {best} nodes {:9} nps {:8} time {} ms",
                pos.legal_moves().len(),
                r.depth,
                r.score.to_string(),
                r.nodes,
                nps(r.nodes, dt),
                dt.as_millis()
            );
        }
    }
    println!("nodes {total}");
    println!("nps {}", nps(total, time));
    println!("time {} ms", time.as_millis());
}

/// Runs `n` searches with a hard limit of `ms` milliseconds over the bench positions and
/// prints how far past the limit they returned (wall clock, including the time to set the
/// search up and to answer).
fn measure_overrun(config: &Config, eval: &Evaluation, n: u32, ms: u64) {
    let positions: Vec<EvalPosition> = bench_positions()
        .into_iter()
        .map(EvalPosition::new)
        .collect();
    let limit = std::time::Duration::from_millis(ms);
    let limits = Limits {
        hard_time: Some(limit),
        soft_time: Some(limit),
        ..Limits::default()
    };
    let mut s = Searcher::new(config.clone(), eval.clone());
    let mut overruns = Vec::new();
    for i in 0..n as usize {
        let pos = &positions[i % positions.len()];
        let t = Instant::now();
        let r = s.search(pos, &[], &limits, |_| {});
        let dt = t.elapsed();
        assert!(r.best_move.is_some_and(|m| pos.is_legal(m)));
        overruns.push(dt.saturating_sub(limit));
    }
    overruns.sort();
    let mean = overruns.iter().sum::<std::time::Duration>() / n.max(1);
    let pct = |p: f64| overruns[((overruns.len() - 1) as f64 * p) as usize];
    println!("searches {n} limit {ms} ms");
    println!(
        "overrun mean {:.3} ms median {:.3} ms p99 {:.3} ms max {:.3} ms",
        mean.as_secs_f64() * 1e3,
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        pct(1.0).as_secs_f64() * 1e3
    );
}
