//! `ploy pyloff moves`: legal moves, player to move, outcome and score of games read from
//! standard input.
//!
//! ```text
//! ploy pyloff moves [--size N] [--players K] [--all-freedoms] [--cut-down]
//! ```
//!
//! Each input line holds one game: its moves from the empty board separated by spaces
//! (cells such as `c3`, `swap` and `pass`; forced passes are written). Each answer is one
//! JSON object a line:
//!
//! ```text
//! {"legal": ["a1", "a3", ...], "to_move": 1, "outcome": "ongoing", "winners": [], "score": {"1": 0, "2": 0}}
//! ```
//!
//! `legal` lists the legal cells sorted by column letter then row number, `["pass"]` when
//! the player must pass, with `"swap"` last when allowed, and nothing once the game is
//! over (`to_move` is then `null`). `winners` lists the leaders of a finished game (empty
//! while it goes on and for a draw); `score` counts each player's pieces. A bad move gives
//! `{"error": "..."}` naming it. The exact format is in `pyloff::json_lines`.

use clap::Args;

use super::GameArgs;
use crate::cli::Failure;

/// Legal moves of Pyloff games, one game a line in, one JSON object a line out.
#[derive(Args, Clone, Debug)]
pub struct MovesArgs {
    /// The game's options.
    #[command(flatten)]
    pub game: GameArgs,
}

/// Answers every line of standard input.
///
/// # Errors
/// A failed read or write.
pub fn run(args: &MovesArgs) -> Result<(), Failure> {
    let options = args.game.options()?;
    super::answer_lines(|line| pyloff::json_lines::moves_line(line, options))
}
