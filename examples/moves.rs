//! Lists the legal moves of positions read from standard input, one answer line per input
//! line.
//!
//! ```text
//! cargo run --release --example moves [-- --algebraic --draw-rules --single-step --relaxed
//!                                           --plays-on --bare-commander-removed]
//! ```
//!
//! Each input line is a position string of any variant (two-player, or four-player
//! `ffa ...`/`partnership ...`), or `start` (the two-player start position), `ffa` or
//! `partnership` (the four-player start positions), optionally followed by ` | ` and
//! university move strings separated by spaces, to be played first. Each answer is
//!
//! ```text
//! <legal moves, sorted by byte order, single spaces> ; <position string after the plays> ; <outcome>
//! ```
//!
//! with the outcome `ongoing`, `draw`, `b` or `w` (two players) or the winning seat letters
//! in turn order (four players: `g`, `r`, `y`, `b`, or a team such as `gy`), or
//! `error: <message>`. The university rules apply unless `--draw-rules` (also spelt
//! `--standard`) asks for the standard draw rules (the moves are then played as a game);
//! `--single-step`, `--relaxed`, `--plays-on`, `--bare-commander-removed` and the other rule
//! options of `--help` choose those rules; `--algebraic` writes the legal moves in Tensi's
//! notation (and reads the moves to play as algebraic text, which includes every university
//! move string). Any input line gives one answer line, never a panic; line endings `\n` and
//! `\r\n` are stripped, the bytes need not be UTF-8, and a line longer than 1 MiB is
//! answered with an error.
//!
//! The same program is `ploy moves`; the code is `ploy::cli::moves` over the line protocol
//! of `ploy_notation::conformance`, where it is tested and fuzzed.

use clap::Parser;
use ploy::cli::moves::{MovesArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&MovesArgs::parse()))
}
