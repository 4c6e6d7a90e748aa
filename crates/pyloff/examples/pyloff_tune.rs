//! Tunes the evaluation's weights ([`pyloff::EvalParams`]) for three and four players from
//! game records.
//!
//! ```text
//! cargo run --release -p pyloff --example pyloff_tune -- DIR [DIR...]
//! ```
//!
//! Reads every `*.pyloff` record in the directories (those `ploy match --game pyloff
//! --records DIR` writes) of games that ended or were stopped at the move cap, and replays
//! them. Every position after the four opening plies counts, each player labelled with
//! his share of the first place (1/k for k players sharing it). The evaluation's value `v`
//! of each player ([`pyloff::Evaluation::player_value`] of [`pyloff::PlayerTerms`]) predicts
//! his chance of first place as `exp(v / K)` over the sum of every player's; the loss is the
//! mean squared difference between the labels and the predictions. Every tenth game is held
//! out and its loss reported.
//!
//! The weights move by coordinate descent: each in turn up and down by a step, kept when
//! the training loss falls, then the scale `K` is fitted again; the steps halve when a
//! round changes nothing, down to 1. A piece stays worth 100 (the unit). The two-player
//! race, the contempt and the opposition's blend are not part of the fit. The result is
//! printed as a Rust expression.

use std::fs;
use std::process::ExitCode;

use pyloff::{EvalParams, Evaluation, Game, Outcome, PlayerTerms, Record, RecordResult};

/// A position: each player's terms and first-place share.
struct Sample {
    players: usize,
    terms: [PlayerTerms; 4],
    share: [f64; 4],
}

fn main() -> ExitCode {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() || dirs.iter().any(|d| d == "--help" || d == "-h") {
        eprintln!("usage: pyloff_tune DIR [DIR...]   (directories of .pyloff game records)");
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for d in &dirs {
        match fs::read_dir(d) {
            Ok(entries) => files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "pyloff")),
            ),
            Err(e) => {
                eprintln!("pyloff_tune: {d}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    files.sort();
    let eval = Evaluation::default();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut games = 0;
    for (i, path) in files.iter().enumerate() {
        let text = match fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("pyloff_tune: {}: {e}", path.display());
                continue;
            }
        };
        let samples = match text.parse::<Record>() {
            Ok(record) => samples(&eval, &record),
            Err(e) => {
                eprintln!("pyloff_tune: {}: {e}", path.display());
                continue;
            }
        };
        if samples.is_empty() {
            continue;
        }
        games += 1;
        if i % 10 == 9 {
            test.extend(samples);
        } else {
            train.extend(samples);
        }
    }
    eprintln!(
        "{games} games, {} training positions, {} held out",
        train.len(),
        test.len()
    );
    if train.is_empty() {
        eprintln!("pyloff_tune: no positions");
        return ExitCode::FAILURE;
    }
    let start = EvalParams::default();
    let k = ploy_search::tuning::fit_scale(1.0, 100_000.0, |k| loss(&train, &start, k));
    eprintln!(
        "scale K = {k:.0}; loss with today's weights: training {:.6}, held out {:.6}",
        loss(&train, &start, k),
        loss(&test, &start, k)
    );
    let (tuned, k) = descend(&train, start, k);
    eprintln!(
        "tuned: scale K = {k:.0}; training {:.6}, held out {:.6}",
        loss(&train, &tuned, k),
        loss(&test, &tuned, k)
    );
    println!("{tuned:#?}");
    ExitCode::SUCCESS
}

/// The labelled positions of a finished or capped game.
fn samples(eval: &Evaluation, record: &Record) -> Vec<Sample> {
    let outcome = match record.result {
        RecordResult::Over(o) | RecordResult::Capped(o) => o,
        RecordResult::Ongoing => return Vec::new(),
    };
    let players = record.options.player_list().count();
    let mut share = [0.0; 4];
    match outcome {
        Outcome::Draw => share[..players].fill(1.0 / players as f64),
        Outcome::Win(w) => {
            let k = w.iter().count() as f64;
            for p in w.iter() {
                share[p.index()] = 1.0 / k;
            }
        }
    }
    let mut game = Game::new(record.options);
    let mut out = Vec::new();
    for (ply, &(_, mv)) in record.moves.iter().enumerate() {
        if ply >= 4 {
            out.push(Sample {
                players,
                terms: eval.terms(game.position()),
                share,
            });
        }
        if game.play(mv).is_err() {
            return Vec::new();
        }
    }
    out
}

/// Mean squared error of the first-place predictions with `params` at scale `k`.
fn loss(samples: &[Sample], params: &EvalParams, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut sum = 0.0;
    for s in samples {
        let n = s.players;
        let v: Vec<f64> = s.terms[..n]
            .iter()
            .map(|t| f64::from(Evaluation::player_value(params, t)) / k)
            .collect();
        let top = v.iter().copied().fold(f64::MIN, f64::max);
        let e: Vec<f64> = v.iter().map(|x| (x - top).exp()).collect();
        let total: f64 = e.iter().sum();
        for (share, e) in s.share[..n].iter().zip(&e) {
            let d = share - e / total;
            sum += d * d / n as f64;
        }
    }
    sum / samples.len() as f64
}

/// The weights the descent moves (a piece is the unit).
fn knobs(p: &mut EvalParams) -> [&mut i32; 8] {
    [
        &mut p.dead,
        &mut p.atari_threatened,
        &mut p.atari_own_turn,
        &mut p.two_freedoms,
        &mut p.held,
        &mut p.upper,
        &mut p.freedom,
        &mut p.tempo,
    ]
}

/// `base` with the knobs set to `w`.
fn with_knobs(mut base: EvalParams, w: &[i32]) -> EvalParams {
    for (k, &v) in knobs(&mut base).into_iter().zip(w) {
        *k = v;
    }
    base
}

/// Coordinate descent from `params` and scale `k`: the tuned weights and their scale.
fn descend(samples: &[Sample], mut params: EvalParams, k: f64) -> (EvalParams, f64) {
    let start: Vec<i32> = knobs(&mut params).into_iter().map(|w| *w).collect();
    let (w, k) = ploy_search::tuning::descend(
        start,
        None,
        k,
        |w, k| loss(samples, &with_knobs(params, w), k),
        |round, l, k| eprintln!("round {round}: training loss {l:.6}, scale {k:.0}"),
    );
    (with_knobs(params, &w), k)
}
