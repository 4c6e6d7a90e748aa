//! The bot's best move for games read from standard input.
//!
//! ```text
//! cargo run --release -p pyloff --example analyze -- [--size N] [--players K] [--all-freedoms] [--cut-down] [--movetime MS] [--depth D] [--nodes N]
//! ```
//!
//! Each input line holds one game as for the `moves` example; each answer is one JSON
//! object a line: `{"bestmove": "c3", "score": 35, "depth": 4}` with the score for the
//! player to move (an integer, 100 to a piece, or `"win N"` / `"loss N"` with `N` plies to
//! the end). When the only move is a forced pass the answer is `"pass"` at once, with the
//! static evaluation and depth 0. A finished game gives
//! `{"bestmove": null, "outcome": "over", "winners": [...]}`, a bad move the error object
//! of `moves`. Without a budget flag each search takes 1 s (`--movetime 1000`); each line
//! is searched by a fresh engine, so depth and node budgets give the same answer every run.

mod common;

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use ploy_search::Evaluator;
use pyloff::protocol::{bestmove_json, finished_json, read_game};
use pyloff::{Engine, Evaluation, Limits, Move, Score, SearchPosition, Status};

#[derive(Parser)]
#[command(about = "The Pyloff bot's best move for games read one a line")]
struct Cli {
    #[command(flatten)]
    game: common::GameArgs,
    /// Time per search in milliseconds (1000 when no budget is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search depth in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Node budget.
    #[arg(long)]
    nodes: Option<u64>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let options = cli.game.options();
    let mut limits = Limits {
        depth: cli.depth,
        nodes: cli.nodes,
        ..Limits::default()
    };
    let movetime = match (cli.movetime, cli.depth, cli.nodes) {
        (Some(ms), _, _) => Some(ms),
        (None, None, None) => Some(1000),
        _ => None,
    };
    if let Some(ms) = movetime {
        let t = Limits::move_time(Duration::from_millis(ms));
        limits.soft_time = t.soft_time;
        limits.hard_time = t.hard_time;
    }
    let mut engine = Engine::new();
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
        let answer = match read_game(&line, options) {
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
                    let best = r.best_move.expect("a position with moves");
                    bestmove_json(best, r.score, r.depth)
                }
            },
        };
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
