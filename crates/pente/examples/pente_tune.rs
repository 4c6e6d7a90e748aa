//! Tunes the evaluation's weights ([`pente::EvalParams`]) from self-play games.
//!
//! ```text
//! cargo run --release -p pente --example pente_tune -- DIR [DIR...]
//! ```
//!
//! Reads every `*.pente` record in the directories (those `ploy match --game pente
//! --records DIR` writes), replays each game and keeps its quiet positions: those after
//! the opening's three stones where neither player could win with one stone. Each is
//! labelled with the game's result for the player to move (1 a win, 0 a loss, ½ a draw);
//! unfinished games are skipped. The loss is the mean squared difference between the label
//! and `1 / (1 + 10^(-v / K))`, `v` the evaluation of the position with the weights and `K`
//! a scale fitted with them. Every tenth game is held out and its loss reported, so that a
//! fit of the noise shows.
//!
//! The weights move by coordinate descent: each in turn up and down by a step, kept when
//! the training loss falls, then the scale is fitted again; the steps halve when a round
//! changes nothing, down to 1. The worth of the first captured pair stays (`captured[2]`,
//! the unit of the evaluation), so that the tuned values keep today's scale against the
//! fixed values of a win at once (`win_now`, `must_defend`) and the search's margins. The
//! result is printed as a Rust expression for `EvalParams::default`.
//!
//! The games the engine's weights were tuned from (docs/pente.md, "Tuning the
//! evaluation"): `matches/pente-selfplay.sh 309a876 3000 DIR`, which has the `ploy` program
//! of that commit play
//!
//! ```text
//! ploy match --game pente --a full --b full@n18000 --nodes 20000 --games 3000 \
//!     --seed 100 -j 2 --records DIR
//! ```

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use pente::{Color, EvalParams, EvalTerms, Evaluation, GameResult, Record, SearchPosition};

/// A position's terms and its label for the player to move.
struct Sample {
    terms: EvalTerms,
    label: f64,
}

fn main() -> ExitCode {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() || dirs.iter().any(|d| d == "--help" || d == "-h") {
        eprintln!("usage: pente_tune DIR [DIR...]   (directories of .pente game records)");
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for d in &dirs {
        let entries = match fs::read_dir(d) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("pente_tune: {d}: {e}");
                return ExitCode::FAILURE;
            }
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "pente") {
                files.push(path);
            }
        }
    }
    files.sort();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    for (i, path) in files.iter().enumerate() {
        match samples(path) {
            Ok(s) if !s.is_empty() => {
                games += 1;
                if i % 10 == 9 {
                    test.extend(s);
                } else {
                    train.extend(s);
                }
            }
            Ok(_) => {}
            Err(e) => eprintln!("pente_tune: {}: {e}", path.display()),
        }
    }
    eprintln!(
        "{games} games, {} training positions, {} held out",
        train.len(),
        test.len()
    );
    if train.is_empty() {
        eprintln!("pente_tune: no positions");
        return ExitCode::FAILURE;
    }
    let start = EvalParams::default();
    let k = ploy_search::tuning::fit_scale(1.0, 100_000.0, |k| loss(&train, &start, k));
    eprintln!(
        "scale K = {k:.0}; loss with today's weights: training {:.6}, held out {:.6}",
        loss(&train, &start, k),
        loss(&test, &start, k)
    );
    let (tuned, k) = descend(&train, start.clone(), k);
    eprintln!(
        "tuned: scale K = {k:.0}; training {:.6}, held out {:.6}",
        loss(&train, &tuned, k),
        loss(&test, &tuned, k)
    );
    println!("{tuned:#?}");
    ExitCode::SUCCESS
}

/// The quiet positions of the game in `path`, labelled.
fn samples(path: &Path) -> Result<Vec<Sample>, String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let record: Record = text.parse().map_err(|e| format!("{e}"))?;
    let winner = match record.result {
        GameResult::WhiteWins => Some(Color::White),
        GameResult::BlackWins => Some(Color::Black),
        GameResult::Draw => None,
        GameResult::Unfinished => return Ok(Vec::new()),
    };
    let game = record.validate().map_err(|e| format!("{e}"))?;
    let mut g = SearchPosition::new(pente::Position::new(record.rules));
    let mut out = Vec::new();
    for (ply, &mv) in record.moves.iter().enumerate() {
        if ply >= 3 && g.position().outcome().is_none() {
            let terms = EvalTerms::of(&g);
            if !terms.win_now && !terms.must_defend {
                let label = match winner {
                    Some(w) if w == g.position().turn() => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                out.push(Sample { terms, label });
            }
        }
        g.play(mv);
    }
    debug_assert_eq!(g.position(), game.position());
    Ok(out)
}

fn sigmoid(v: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-v / k))
}

/// Mean squared error of the predictions with `params` at scale `k`.
fn loss(samples: &[Sample], params: &EvalParams, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let eval = Evaluation::new(params.clone());
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = s.label - sigmoid(f64::from(eval.value_of(&s.terms)), k);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The weights the descent moves, in order: the threat classes of both players, the even
/// capture counts above the first pair (the unit), and the three capture weights.
fn knobs(p: &mut EvalParams) -> Vec<&mut i32> {
    let mut out: Vec<&mut i32> = Vec::new();
    out.extend(p.attack.iter_mut().take(10).skip(1));
    out.extend(p.defend.iter_mut().take(10).skip(1));
    // Stones are captured in pairs: only the even counts below ten occur.
    out.extend(p.captured.iter_mut().take(9).skip(4).step_by(2));
    out.push(&mut p.capture_now);
    out.push(&mut p.capture_threatened);
    out.push(&mut p.capture_point);
    out
}

/// `base` with the knobs set to `w`; the odd capture counts (never reached) take the value
/// of the even count below them, and ten (a won game, never evaluated) is at least eight's.
fn with_knobs(base: &EvalParams, w: &[i32]) -> EvalParams {
    let mut p = base.clone();
    for (k, &v) in knobs(&mut p).into_iter().zip(w) {
        *k = v;
    }
    for i in (3..10).step_by(2) {
        p.captured[i] = p.captured[i - 1];
    }
    p.captured[10] = p.captured[10].max(p.captured[8]);
    p
}

/// Coordinate descent from `params` and scale `k` on the training loss (weights at least
/// 0): the tuned weights and their scale.
fn descend(samples: &[Sample], params: EvalParams, k: f64) -> (EvalParams, f64) {
    let start: Vec<i32> = knobs(&mut params.clone()).into_iter().map(|w| *w).collect();
    let (w, k) = ploy_search::tuning::descend(
        start,
        Some(0),
        k,
        |w, k| loss(samples, &with_knobs(&params, w), k),
        |round, l, k| eprintln!("round {round}: training loss {l:.6}, scale {k:.0}"),
    );
    (with_knobs(&params, &w), k)
}
