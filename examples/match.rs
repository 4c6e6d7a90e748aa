//! Plays games between two engine configurations and reports the result with an Elo
//! difference and its 95 % interval.
//!
//! ```text
//! cargo run --release --example match -- [--games N] [--seed S] [--opening-plies P]
//!     [--ply-cap C] [--nodes N | --time DURATION | --depth D] --a SPEC --b SPEC [--json]
//! ```
//!
//! A SPEC is an engine name with optional budget overrides, joined by `@`:
//! `full` (the default configuration), `noorder` (table and move ordering off),
//! `alphabeta`, `nolmr` (late move reductions off), `random` (a uniformly random mover);
//! overrides `dN` (depth), `nN` (nodes), `tT` (time per move: `t500` is 500 ms, `t2s`),
//! e.g. `full@d4`. Games are played in pairs: each opening (P random plies from the seed)
//! once with each colour. Standard rules (repetition and 200-ply no-capture draws) unless a
//! rule option says otherwise; games longer than the ply cap are adjudicated as draws. The
//! score is from A's point of view; the Elo difference comes with the 95 % Wilson interval
//! of the score. `--json` prints one object, `{"games", "wins", "draws", "losses",
//! "score", "elo", "elo_low", "elo_high", "a", "b"}`, instead of the text.
//!
//! The same program is `ploy match`; the code is `ploy::cli::matches`.

use clap::Parser;
use ploy::cli::matches::{MatchArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&MatchArgs::parse()))
}
