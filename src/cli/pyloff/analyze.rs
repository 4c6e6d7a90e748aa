//! `ploy pyloff analyze`: the bot's best move for games read from standard input.
//!
//! ```text
//! ploy pyloff analyze [--size N] [--players K] [--all-freedoms] [--cut-down]
//!     [--movetime TIME] [--depth D] [--nodes N] [--level N] [--seed S] [--search KIND]
//! ```
//!
//! Each input line holds one game as for `ploy pyloff moves`; each answer is one JSON
//! object a line: `{"bestmove": "c3", "score": 35, "depth": 4}` with the score for the
//! player to move (an integer, 100 to a piece, or `"win N"` / `"loss N"` with `N` plies to
//! the end). When the only move is a forced pass the answer is `"pass"` at once, with the
//! static evaluation and depth 0. A finished game gives
//! `{"bestmove": null, "outcome": "over", "winners": [...]}`, a bad move the error object
//! of `moves`. Without a budget flag each search takes 1 s (`--movetime 1s`; a bare
//! number is milliseconds); each line is searched by a fresh engine, so depth and node
//! budgets give the same answer every run. `--level N` (1 to 8, default 8: full strength)
//! searches at a level: levels 1 to 7 within their own limits too, choosing among their
//! lines as `--seed` (default 0), the position and the move number decide. With three or
//! four players `--search KIND` chooses the search (`paranoid`, `brs`, `brs+`, `mcts`;
//! default: the engine's default).

use std::time::Duration;

use clap::Args;
use ploy_search::Evaluator;
use pyloff::json_lines::{bestmove_json, finished_json, read_game};
use pyloff::{Engine, Evaluation, Level, Limits, Move, Score, SearchPosition, Status};

use super::GameArgs;
use crate::cli::{Failure, parse_duration};

/// The Pyloff bot's best move for games read one a line.
#[derive(Args, Clone, Debug)]
pub struct AnalyzeArgs {
    /// The game's options.
    #[command(flatten)]
    pub game: GameArgs,
    /// Time per search (1s when no budget is given); a bare number is milliseconds.
    #[arg(long, value_name = "TIME", value_parser = parse_duration)]
    pub movetime: Option<Duration>,
    /// Search depth in plies.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node budget.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The bot's level, 1 (weakest) to 8 (full strength, the default).
    #[arg(long, value_name = "N")]
    pub level: Option<Level>,
    /// Seed of a level's choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The search for three and four players: paranoid, brs, brs+ or mcts (default: the
    /// engine's default).
    #[arg(long, value_name = "KIND")]
    pub search: Option<ploy_search::multi::SearchKind>,
}

/// Answers every line of standard input.
///
/// # Errors
/// A failed read or write.
pub fn run(args: &AnalyzeArgs) -> Result<(), Failure> {
    let options = args.game.options()?;
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    let movetime = match (args.movetime, args.depth, args.nodes) {
        (Some(t), _, _) => Some(t),
        (None, None, None) => Some(Duration::from_secs(1)),
        _ => None,
    };
    if let Some(t) = movetime {
        let t = Limits::move_time(t);
        limits.soft_time = t.soft_time;
        limits.hard_time = t.hard_time;
    }
    let mut engine = Engine::new();
    engine.set_level(args.level.unwrap_or(Level::MAX));
    engine.set_seed(args.seed);
    if let Some(kind) = args.search {
        engine.set_search_kind(kind);
    }
    super::answer_lines(|line| match read_game(line, options) {
        Err(e) => e,
        Ok(game) => match game.position().status() {
            Status::Over => finished_json(&game),
            Status::MustPass => {
                let g = SearchPosition::new(game.position().clone());
                let eval = Evaluation::default().evaluate(&g);
                let score = Score::new(eval.clamp(-30_000, 30_000) as i16);
                bestmove_json(Move::Pass, score, 0)
            }
            Status::Place => {
                engine.clear();
                let r = engine.search(&game, &limits);
                match r.best_move {
                    Some(best) => bestmove_json(best, r.score, r.depth),
                    // A position with placements always has a best move.
                    None => finished_json(&game),
                }
            }
        },
    })
}
