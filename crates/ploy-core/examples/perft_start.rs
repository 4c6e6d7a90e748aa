//! `cargo run --release -p ploy-core --example perft_start -- [depth] [--full] [--repeat N]`:
//! perft from the two-player start position, with the time taken (with `--repeat`, the
//! fastest of N runs). A fixed workload for profilers (callgrind) that needs no text parsing.

use ploy_core::{Position, perft, perft_full};
use std::time::Instant;

const USAGE: &str = "usage: perft_start [DEPTH] [--full] [--repeat N]\n\
perft from the two-player start position (depth 4 unless given), with the time taken;\n\
--full counts every leaf by making it, --repeat N keeps the fastest of N runs";

/// Says what was wrong and how the program is called, and exits with status 2 (a usage
/// error, as every program of the workspace).
fn usage_error(what: &str) -> ! {
    eprintln!("error: {what}\n{USAGE}");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut depth, mut full, mut repeat) = (4, false, 1u32);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            "-V" | "--version" => {
                println!("perft_start {}", env!("CARGO_PKG_VERSION"));
                return;
            }
            "--full" => full = true,
            "--repeat" => match it.next().map(|n| n.parse::<u32>()) {
                Some(Ok(n)) if n >= 1 => repeat = n,
                _ => usage_error("--repeat needs a whole number of runs, 1 or more"),
            },
            d => match d.parse() {
                Ok(d) => depth = d,
                Err(_) => usage_error(&format!("unexpected argument `{d}`")),
            },
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
