//! Play Ploy in the terminal: against the engine (either side), engine against engine, or
//! people against each other, in every variant and under every rule option.
//!
//! ```text
//! cargo run --release --example play -- [options]      (--help lists them)
//! ```
//!
//! Type moves in Tensi's notation (`e3-e4`, `e4xf5`, `c3+3`, `e7-d6+2`) or as university
//! strings (`e3-e4-0`), and `help` for the commands (`undo`, `hint`, `save`, `load`,
//! `sheet`, `new`, `quit`, ...). In a terminal, a line editor shows the player's running
//! clock in the prompt; otherwise input is read line by line, so a script can be piped in.
//! Colours are used only when standard output is a terminal (and `NO_COLOR` is not set).
//! The logic is [`ploy::play::run_stdio`].

use std::io::{self, IsTerminal};
use std::process::ExitCode;

fn main() -> ExitCode {
    if std::env::args().any(|a| a == "-h" || a == "--help") {
        println!("{}", ploy::play::USAGE);
        return ExitCode::SUCCESS;
    }
    let tty_out = io::stdout().is_terminal();
    let mut options = match ploy::play::Options::from_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let args: Vec<String> = std::env::args().collect();
    let asked = |flag: &str| args.iter().any(|a| a == flag);
    if !asked("--color") && !asked("--colour") && !asked("--no-color") && !asked("--no-colour") {
        options.colour = tty_out && std::env::var_os("NO_COLOR").is_none();
    }
    options.live = tty_out;
    options.echo = !io::stdin().is_terminal();
    match ploy::play::run_stdio(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("play: {e}");
            ExitCode::FAILURE
        }
    }
}
