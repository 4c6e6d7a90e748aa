//! Play Ploy in the terminal: against the engine (either side), engine against engine, or
//! people against each other, in every variant and under every rule option.
//!
//! ```text
//! cargo run --release --example play -- [options]      (--help lists them)
//! ```
//!
//! Type moves in Tensi's notation (`e3-e4`, `e4xf5`, `c3+3`, `e7-d6+2`) or as university
//! strings (`e3-e4-0`), and `help` for the commands (`undo`, `hint`, `save`, `load`,
//! `sheet`, `new`, `quit`, ...). Input is read line by line, so a script can be piped in;
//! colours are used only when standard output is a terminal (and `NO_COLOR` is not set).
//! The engine's time per move is `--move-time 2s` or, as before, `--time S` in seconds; a
//! clock is `--clock 5m+2s` or, as before, `--clock M+I` (minutes per game, seconds per
//! move). `--level N` (1 to 8, 8 the default and full strength) sets a weaker opponent.
//!
//! The same program is `ploy play`; the logic is [`ploy::play::run`], the options
//! `ploy::cli::play`.

use clap::Parser;
use ploy::cli::play::{PlayArgs, run};

fn main() -> std::process::ExitCode {
    ploy::cli::finish(run(&PlayArgs::parse()))
}
