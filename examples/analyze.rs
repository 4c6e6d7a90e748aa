//! Analyses a position: one line per completed iteration, then the best move.
//!
//! ```text
//! cargo run --release --example analyze -- "<position string>" [--depth N | --nodes N | --time MS]
//! ```
//!
//! `start` stands for the two-player start position. Each iteration prints
//! `depth D score S nodes N nps R time MS pv M1 M2 ...` (the score is an integer in the
//! engine's units, or `win N` / `loss N` for a forced result N plies away; moves in the
//! university format `e3-e4-0`); the last line is the best move alone, or `none` for a
//! decided position. Without a budget flag the search runs for one second. The rule options
//! `--university`, `--relaxed` and `--single-step` select the rules (default: standard).

use ploy_core::{Elimination, Move, Position, Rotation, Rules, Seat, Variant};
use ploy_search::{Config, EvalPosition, Evaluation, Limits, Searcher};
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
    let mut rules = Rules::standard();
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
            "--university" => rules = Rules::university(),
            "--relaxed" => rules = rules.with_elimination(Elimination::Relaxed),
            "--single-step" => rules = rules.with_rotation(Rotation::SingleStep),
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ if position.is_none() => position = Some(a),
            _ => return Err(format!("unexpected argument {a}")),
        }
    }
    let text = position.ok_or("missing position string")?;
    let pos = parse_position(&text, rules)?;
    let limits = limits.unwrap_or_else(|| for_time(Duration::from_secs(1)));
    let mut searcher = Searcher::new(Config::default(), Evaluation::default());
    // The info line's format lives in ploy-search (`Display` for `Info`), shared with the
    // engine protocol.
    let result = searcher.search(&EvalPosition::new(pos), &[], &limits, |info| {
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

/// `start`, or a university position string (board string, a space, `b` or `w`). A small
/// private parser until ploy-notation is wired in.
fn parse_position(text: &str, rules: Rules) -> Result<Position, String> {
    let text = text.trim();
    if text == "start" {
        return Ok(Position::start(Variant::TwoPlayer, rules));
    }
    let (board_text, turn) = text
        .rsplit_once(' ')
        .ok_or("expected a board string, a space and b or w")?;
    let turn = match turn.trim() {
        "b" => Seat::BLACK,
        "w" => Seat::WHITE,
        t => return Err(format!("side to move must be b or w, not {t:?}")),
    };
    let ranks: Vec<&str> = board_text.trim().split('/').collect();
    if ranks.len() != 9 {
        return Err(format!("expected 9 ranks, found {}", ranks.len()));
    }
    let mut board = ploy_core::Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 8 - i as u8;
        let fields: Vec<&str> = rank_text.split(',').collect();
        if fields.len() != 9 {
            return Err(format!(
                "rank {}: expected 9 squares, found {}",
                rank + 1,
                fields.len()
            ));
        }
        for (file, f) in fields.iter().enumerate() {
            let f = f.trim();
            if f.is_empty() {
                continue;
            }
            let colour = match &f[..1] {
                "b" => Seat::BLACK,
                "w" => Seat::WHITE,
                c => return Err(format!("rank {}: bad colour {c:?}", rank + 1)),
            };
            let mask: u8 = f[1..]
                .parse()
                .map_err(|_| format!("rank {}: bad mask {f:?}", rank + 1))?;
            let piece = ploy_core::Piece::new(colour, ploy_core::Flags::new(mask))
                .map_err(|e| e.to_string())?;
            board.put(ploy_core::Square::new(file as u8, rank), piece);
        }
    }
    Position::from_setup(ploy_core::Setup::two_player(board, turn), rules)
        .map_err(|e| e.to_string())
}
