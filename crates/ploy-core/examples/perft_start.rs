//! `cargo run --release -p ploy-core --example perft_start -- [depth] [--full]`: perft from
//! the two-player start position, with the time taken. A fixed workload for profilers
//! (callgrind) that needs no text parsing.

use ploy_core::{Position, perft, perft_full};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = args.iter().find_map(|a| a.parse().ok()).unwrap_or(4);
    let full = args.iter().any(|a| a == "--full");
    let pos = Position::new();
    let t = Instant::now();
    let n = if full {
        perft_full(&pos, depth)
    } else {
        perft(&pos, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft {depth}{} = {n} in {secs:.3} s ({:.1} M leaves/s)",
        if full { " (full)" } else { "" },
        n as f64 / secs / 1e6
    );
}
