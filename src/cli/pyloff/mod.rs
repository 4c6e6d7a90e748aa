//! `ploy pyloff`: the Pyloff programs, `moves`, `analyze`, `play`, `match` and `bench`.
//! Their input lines and JSON answers are documented in `pyloff::json_lines` and
//! `docs/pyloff.md`.

use clap::{Args, Subcommand};
use pyloff::{Options, RuleSet};

use super::Failure;

pub mod analyze;
pub mod bench;
pub mod matches;
pub mod moves;
pub mod play;

/// Pyloff: legal moves, analysis, play in the terminal, bot matches, the search benchmark.
#[derive(Args, Clone, Debug)]
#[command(subcommand_required = true, arg_required_else_help = true)]
pub struct PyloffArgs {
    /// The Pyloff program to run.
    #[command(subcommand)]
    pub command: PyloffCommand,
}

/// The subcommands of `ploy pyloff`.
#[derive(Subcommand, Clone, Debug)]
pub enum PyloffCommand {
    /// Legal moves of Pyloff games, one game a line in, one JSON object a line out.
    Moves(moves::MovesArgs),
    /// The Pyloff bot's best move for games read one a line.
    Analyze(analyze::AnalyzeArgs),
    /// Play Pyloff in the terminal: people and bots, 2 to 4 players.
    Play(play::PlayArgs),
    /// Matches of the Pyloff bot against random, greedy or depth-2 players.
    Match(Box<matches::MatchArgs>),
    /// Pyloff search speed on fixed positions (the node count is the search's signature).
    Bench(bench::BenchArgs),
}

/// Runs the Pyloff subcommand.
///
/// # Errors
/// The subcommand's [`Failure`].
pub fn run(args: &PyloffArgs) -> Result<(), Failure> {
    match &args.command {
        PyloffCommand::Moves(a) => moves::run(a),
        PyloffCommand::Analyze(a) => analyze::run(a),
        PyloffCommand::Play(a) => play::run(a),
        PyloffCommand::Match(a) => matches::run(a),
        PyloffCommand::Bench(a) => bench::run(a),
    }
}

/// The game's options, the same flags in every Pyloff subcommand.
#[derive(Args, Clone, Debug)]
pub struct GameArgs {
    /// Board size, 2 to 13.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(2..=13))]
    pub size: u8,
    /// Number of players, 2 to 4.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub players: u8,
    /// Freedoms on every level (an empty, valid same-level neighbour point).
    #[arg(long)]
    pub all_freedoms: bool,
    /// The "cut down" rules (implies --all-freedoms): connections do not propagate down,
    /// any empty same-level neighbour point is a freedom.
    #[arg(long)]
    pub cut_down: bool,
}

impl GameArgs {
    /// The options these flags ask for.
    ///
    /// # Errors
    /// A usage error (status 2) when the size or the number of players is out of range
    /// (clap checks the ranges first, so only a hand-built `GameArgs` meets it).
    pub fn options(&self) -> Result<Options, Failure> {
        Options::new(
            self.size,
            self.players,
            RuleSet::from_flags(self.all_freedoms, self.cut_down),
        )
        .map_err(|e| Failure::usage(e.to_string()))
    }
}

/// Reads standard input line by line (the bytes of each line, without `\n` and a `\r`
/// before it) and writes `answer(line)` for each on standard output, flushed at once.
///
/// # Errors
/// A failed read (status 1) or write (a closed pipe ends quietly).
pub(crate) fn answer_lines(mut answer: impl FnMut(&[u8]) -> String) -> Result<(), Failure> {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let mut line =
            line.map_err(|e| Failure::failed(format!("cannot read standard input: {e}")))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        writeln!(stdout, "{}", answer(&line))?;
        stdout.flush()?;
    }
    Ok(())
}
