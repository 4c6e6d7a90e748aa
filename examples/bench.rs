//! Searches a fixed set of 24 positions to a fixed depth and prints the total node count
//! (a signature that changes only when the search changes) and the speed.
//!
//! ```text
//! cargo run --release --example bench [-- --depth N] [--alphabeta] [--verbose]
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
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--depth" => depth = args.next().and_then(|d| d.parse().ok()).expect("--depth N"),
            "--alphabeta" => config.driver = Driver::AlphaBeta,
            "--lmr" => config.late_move_reductions = true,
            "--verbose" => verbose = true,
            _ => panic!("unknown argument {a}"),
        }
    }
    let eval = Evaluation::default();
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
