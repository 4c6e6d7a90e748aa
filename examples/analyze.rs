//! Analyses a position: one line per completed iteration, then the best move.
//!
//! ```text
//! cargo run --release --example analyze -- "<position string>" [--depth N | --nodes N | --time MS]
//! ```
//!
//! `start` stands for the two-player start position, `ffa` and `partnership` for the
//! four-player ones; four-player position strings are read too. A partnership game is
//! searched with the teams as sides; a free-for-all game paranoidly, for the player to move
//! against the coalition of the others (`PloyGame`; see ploy-search's crate docs), so its
//! scores are that player's. Each iteration prints
//! `depth D score S nodes N nps R time MS pv M1 M2 ...` (the score is an integer in the
//! engine's units, or `win N` / `loss N` for a forced result N plies away; moves in the
//! university format `e3-e4-0`); the last line is the best move alone, or `none` for a
//! decided position. Without a budget flag the search runs for one second. The rules are the
//! standard ones (draw rules on); the rule-option flags are those of the `moves` example:
//! `--single-step`, `--relaxed`, `--plays-on`, `--bare-commander-removed`, and
//! `--university` for the university rules (no draw rules).

use ploy_core::{Move, Rules};
use ploy_notation::protocol::{RuleFlags, read_position_arg};
use ploy_search::{Config, Evaluation, Limits, PloyGame, Searcher};
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("analyze: {e}");
            eprintln!("usage: analyze \"<position string>\" [--depth N | --nodes N | --time MS]");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut position: Option<String> = None;
    let mut limits = None;
    let mut base = Rules::standard();
    let mut flags = RuleFlags::default();
    while let Some(a) = args.next() {
        let mut num = |name: &str| -> Result<u64, String> {
            args.next()
                .ok_or_else(|| format!("{name} needs a number"))?
                .parse::<u64>()
                .map_err(|e| format!("{name}: {e}"))
        };
        match a.as_str() {
            "--depth" => limits = Some(Limits::depth(num("--depth")? as u32)),
            "--nodes" => limits = Some(Limits::nodes(num("--nodes")?)),
            "--time" => {
                let t = Duration::from_millis(num("--time")?);
                limits = Some(for_time(t));
            }
            "--university" => base = Rules::university(),
            _ if flags.set(&a) => {}
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ if position.is_none() => position = Some(a),
            _ => return Err(format!("unexpected argument {a}")),
        }
    }
    let text = position.ok_or("missing position string")?;
    let pos = read_position_arg(text.trim().as_bytes(), flags.apply(base))?;
    let limits = limits.unwrap_or_else(|| for_time(Duration::from_secs(1)));
    let mut searcher = Searcher::new(Config::default(), Evaluation::default());
    // Two-player and partnership positions as `EvalPosition`, free-for-all as `Paranoid`.
    let game: PloyGame = searcher.evaluator().game(pos);
    // The info line's format lives in ploy-search (`Display` for `Info`), shared with the
    // engine protocol.
    let result = searcher.search(&game, &[], &limits, |info| {
        println!("{info}");
    });
    match result.best_move {
        Some(m) => println!("{}", move_string(m)),
        None => println!("none"),
    }
    Ok(())
}

/// Search for `t`: iterations start until `t` has passed, and the one running then is cut
/// short (its result is dropped; the last completed iteration answers).
fn for_time(t: Duration) -> Limits {
    Limits {
        soft_time: Some(t),
        hard_time: Some(t),
        ..Limits::default()
    }
}

fn move_string(m: Move) -> String {
    format!("{m:?}")
}
