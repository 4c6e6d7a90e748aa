//! `ploy pente`: the Pente programs, `moves`, `analyze`, `play`, `match`, `piskvork`
//! (the Gomocup brain, also installed as the `pbrain-ploy-pente` binary) and `book` (builds
//! the opening book). Their input
//! lines and JSON answers are documented in `pente::json_lines` and `docs/pente.md`.

use clap::{Args, Subcommand};

use super::Failure;

pub mod analyze;
pub mod book;
pub mod r#match;
pub mod moves;
pub mod piskvork;
pub mod play;

/// Pente: legal moves, analysis, play in the terminal, engine matches, the Gomocup brain.
#[derive(Args, Clone, Debug)]
#[command(subcommand_required = true, arg_required_else_help = true)]
pub struct PenteArgs {
    /// The Pente program to run.
    #[command(subcommand)]
    pub command: PenteCommand,
}

/// The subcommands of `ploy pente`.
#[derive(Subcommand, Clone, Debug)]
pub enum PenteCommand {
    /// The legal moves of games read from standard input, one JSON answer a line.
    Moves(moves::MovesArgs),
    /// Search games read from standard input, one JSON answer a line.
    Analyze(analyze::AnalyzeArgs),
    /// Play Pente in the terminal against the bot or another person.
    Play(play::PlayArgs),
    /// Play engine against engine (strengths, or the ladder of levels) and report the score.
    Match(Box<r#match::MatchArgs>),
    /// A Gomocup (Piskvork) brain on standard input and output.
    Piskvork(piskvork::PiskvorkArgs),
    /// Build the opening book from the engine's own searches of the first positions.
    Book(book::BookArgs),
}

/// Runs the Pente subcommand.
///
/// # Errors
/// The subcommand's [`Failure`].
pub fn run(args: &PenteArgs) -> Result<(), Failure> {
    match &args.command {
        PenteCommand::Moves(a) => moves::run(a),
        PenteCommand::Analyze(a) => analyze::run(a),
        PenteCommand::Play(a) => play::run(a),
        PenteCommand::Match(a) => r#match::run(a),
        PenteCommand::Piskvork(a) => piskvork::run(a),
        PenteCommand::Book(a) => book::run(a),
    }
}

/// The rules of a board size and the `--no-tournament-rule` flag.
pub(crate) fn rules(size: pente::Size, no_tournament_rule: bool) -> pente::Rules {
    pente::Rules::new(size).with_tournament_rule(!no_tournament_rule)
}

/// Reads standard input line by line (the bytes of each line, without `\n`) and writes
/// `answer(line)` for each on standard output, flushed at once (other programs drive
/// these tools a line at a time).
///
/// # Errors
/// A failed read (status 1) or write (a closed pipe ends quietly).
pub(crate) fn answer_lines(mut answer: impl FnMut(&[u8]) -> String) -> Result<(), Failure> {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let line = line.map_err(|e| Failure::failed(format!("cannot read standard input: {e}")))?;
        writeln!(stdout, "{}", answer(&line))?;
        stdout.flush()?;
    }
    Ok(())
}
