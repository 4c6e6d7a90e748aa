//! `cargo run --release -p ploy-core --example perft_start -- [depth] [--full] [--repeat N]`:
//! perft from the two-player start position, with the time taken (with `--repeat`, the
//! fastest of N runs). A fixed workload for profilers (callgrind) that needs no text parsing.

use ploy_core::{Position, perft, perft_full};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut depth, mut full, mut repeat) = (4, false, 1u32);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--full" => full = true,
            "--repeat" => repeat = it.next().and_then(|n| n.parse().ok()).unwrap_or(1).max(1),
            d => depth = d.parse().unwrap_or(depth),
        }
    }
    let pos = Position::new();
    let mut secs = f64::INFINITY;
    let mut n = 0;
    for _ in 0..repeat {
        let t = Instant::now();
        n = if full {
            perft_full(&pos, depth)
        } else {
            perft(&pos, depth)
        };
        secs = secs.min(t.elapsed().as_secs_f64());
    }
    println!(
        "perft {depth}{} = {n} in {secs:.3} s ({:.1} M leaves/s)",
        if full { " (full)" } else { "" },
        n as f64 / secs / 1e6
    );
}
