//! The `ploy` command line: one subcommand per program.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use super::analyze::AnalyzeArgs;
use super::bench::BenchArgs;
use super::engine::EngineArgs;
use super::matches::MatchArgs;
use super::moves::MovesArgs;
use super::pente::PenteArgs;
use super::perft::PerftArgs;
use super::play::PlayArgs;
use super::pyloff::PyloffArgs;
use super::sheet::SheetArgs;
use super::{Failure, finish};

/// Ploy, the 1970 3M strategy game: play it, analyse it, count its moves, run the engine.
#[derive(Parser, Clone, Debug)]
#[command(
    name = "ploy",
    version,
    propagate_version = true,
    subcommand_required = true,
    arg_required_else_help = true,
    after_help = "Times are durations with a unit: 500ms, 2s, 5m (a bare number is \
                  milliseconds); a clock is time + increment, 5m+2s. `ploy <command> --help` \
                  tells more."
)]
pub struct Ploy {
    /// The program to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of `ploy`.
#[derive(Subcommand, Clone, Debug)]
pub enum Command {
    /// Play in the terminal: against the engine, engine against engine, or people against
    /// each other.
    Play(PlayArgs),
    /// Analyse a position: a line per completed depth, then the best move.
    Analyze(AnalyzeArgs),
    /// The engine protocol (UCI-style) on standard input and output, for GUIs and bots.
    Engine(EngineArgs),
    /// Count move paths (perft) from a position.
    Perft(PerftArgs),
    /// The legal moves of positions read from standard input, a line each.
    Moves(MovesArgs),
    /// Play games between two players (engine configurations, engine programs) of Ploy,
    /// Pente or Pyloff and estimate their Elo difference, or with three or four players A's
    /// placings.
    Match(Box<MatchArgs>),
    /// Search benchmark: node count (a signature of the search) and speed.
    Bench(BenchArgs),
    /// Check a score sheet or game record, or convert it.
    Sheet(SheetArgs),
    /// Pente: `ploy pente moves|analyze|play|match|piskvork|book`.
    Pente(PenteArgs),
    /// Pyloff: `ploy pyloff moves|analyze|play|match|bench`.
    Pyloff(PyloffArgs),
}

impl Command {
    /// Runs the subcommand.
    ///
    /// # Errors
    /// The subcommand's [`Failure`].
    pub fn run(&self) -> Result<(), Failure> {
        match self {
            Command::Play(a) => super::play::run(a),
            Command::Analyze(a) => super::analyze::run(a),
            Command::Engine(a) => super::engine::run(a),
            Command::Perft(a) => super::perft::run(a),
            Command::Moves(a) => super::moves::run(a),
            Command::Match(a) => super::matches::run(a),
            Command::Bench(a) => super::bench::run(a),
            Command::Sheet(a) => super::sheet::run(a),
            Command::Pente(a) => super::pente::run(a),
            Command::Pyloff(a) => super::pyloff::run(a),
        }
    }
}

impl Ploy {
    /// The whole program: reads the command line (a usage error exits with status 2), runs
    /// the subcommand, and gives the exit code.
    #[must_use]
    pub fn main() -> ExitCode {
        finish(Ploy::parse().command.run())
    }
}
