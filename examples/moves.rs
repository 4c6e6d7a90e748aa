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
//! `error: <message>`. The university rules apply unless `--draw-rules` asks for the
//! standard draw rules (the moves are then played as a game); `--single-step`, `--relaxed`,
//! `--plays-on` and `--bare-commander-removed` choose those rule options;
//! `--algebraic` writes the legal moves in Tensi's notation (and reads the moves to play as
//! algebraic text, which includes every university move string). Any input line gives one
//! answer line, never a panic; line endings `\n` and `\r\n` are stripped, and the bytes need
//! not be UTF-8.
//!
//! The logic lives in `ploy_notation::protocol`, where it is tested and fuzzed.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use ploy_notation::protocol::{MovesOptions, moves_line};

fn main() -> ExitCode {
    let opts = match MovesOptions::from_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let Ok(mut line) = line else {
            eprintln!("error: cannot read standard input");
            return ExitCode::FAILURE;
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let answer = moves_line(&line, &opts);
        // Standard output is line-buffered: each answer goes out as soon as it is written.
        if writeln!(stdout, "{answer}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
