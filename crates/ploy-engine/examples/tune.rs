//! Tunes the weights of Ploy's evaluation ([`EvalParams`]) by logistic ("texel")
//! regression on positions from self-play games.
//!
//! ```text
//! cargo run --release -p ploy-engine --example tune -- [--seed S] [--games N] [--nodes N]
//!     [--opening-plies N] [--ply-cap N] [-j THREADS] [--iterations N] [--data FILE]
//! ```
//!
//! 1. **Games.** `--games` two-player games (standard rules), each from its own opening of
//!    `--opening-plies` random legal plies (seeded by `--seed` and the game's number), then
//!    played by the engine on both sides with the weights being tuned at `--nodes` nodes a
//!    move; a game reaching `--ply-cap` plies counts as a draw. The same seed gives the same
//!    games (a node budget does not depend on the machine), whatever `-j` is.
//! 2. **Positions.** Every position after the opening where the game is not over and the
//!    side to move has no capture (quiet positions: a static evaluation means little in the
//!    middle of an exchange), labelled with the game's result from the side to move's view
//!    (1 a win, ½ a draw, 0 a loss).
//! 3. **Fit.** The evaluation is linear in its weights ([`Evaluation::terms`]), so each
//!    position becomes its 21 coefficients. The predicted score of a position with
//!    evaluation `e` is `1 / (1 + 10^(-k e / 400))`; first `k` is fitted to the starting
//!    weights, then the weights minimise the mean squared error between predicted scores and
//!    results on nine games in ten (Adam, full batch), the tenth held out to check that the
//!    fit generalises. Weights with no signal in the data (the commander's material and
//!    mobility) keep their values; the rest are rounded to integers.
//!
//! The summary (to standard output) gives the games' results, the number of positions, `k`,
//! the error before and after on both parts, every weight before and after, and the tuned
//! weights as Rust source ready to paste into `EvalParams::default`. Progress goes to
//! standard error when it is a terminal. `--data FILE` also writes the positions (one line
//! each: result, then the coefficients) for other tools.

use clap::Parser;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ploy_core::{Game, Position, Rules};
use ploy_engine::{Engine, EvalParams, Evaluation, random_line};
use ploy_search::{Config, Limits, SearchGame as _, splitmix64};
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Logistic (texel) tuning of Ploy's evaluation weights on self-play positions.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games to play.
    #[arg(long, default_value_t = 2000)]
    games: u32,
    /// Nodes a move in the self-play games.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random legal plies at the start of each game.
    #[arg(long, default_value_t = 6)]
    opening_plies: u32,
    /// A game reaching this many plies (opening included) is scored a draw.
    #[arg(long, default_value_t = 300)]
    ply_cap: u32,
    /// Games played at once.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
    /// Iterations of the fit.
    #[arg(long, default_value_t = 4000)]
    iterations: u32,
    /// Also write the positions' results and coefficients to this file.
    #[arg(long)]
    data: Option<std::path::PathBuf>,
}

/// One labelled position: its game, the result for the side to move, its coefficients.
struct Sample {
    game: u32,
    result: f64,
    terms: [f64; EvalParams::LEN],
}

/// A game's outcome from Green's view (1, ½, 0) and its quiet positions.
struct Played {
    green: f64,
    plies: usize,
    samples: Vec<Sample>,
}

/// Plays game `index` and collects its positions.
fn play(args: &Args, eval: &Evaluation, index: u32) -> Played {
    let mut state = args.seed ^ (u64::from(index) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let seed = splitmix64(&mut state);
    let mut game = Game::new(Rules::standard());
    for mv in random_line(game.position(), seed, args.opening_plies, false) {
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut engine = Engine::with_evaluation(Config::default(), eval.clone());
    // (position, whether the side to move is Green) of the quiet positions.
    let mut kept: Vec<(Position, bool)> = Vec::new();
    let mut moves = ploy_engine::SearchMoves::default();
    while game.outcome().is_none() && (game.moves().len() as u32) < args.ply_cap {
        let pos = game.position().clone();
        moves.0.clear();
        eval.position(pos.clone()).generate_captures(&mut moves);
        if moves.is_empty() {
            let green = pos.turn() == ploy_core::Seat::Green;
            kept.push((pos, green));
        }
        let Some(mv) = engine.best_move(&game, &Limits::nodes(args.nodes)) else {
            break;
        };
        if game.play(mv).is_err() {
            break;
        }
    }
    let green = match game.outcome() {
        Some(ploy_core::Outcome::Win { winners, .. }) => {
            if winners.contains(ploy_core::Seat::Green) {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    };
    let samples = kept
        .into_iter()
        .map(|(pos, is_green)| Sample {
            game: index,
            result: if is_green { green } else { 1.0 - green },
            terms: eval.terms(&pos),
        })
        .collect();
    Played {
        green,
        plies: game.moves().len(),
        samples,
    }
}

/// The predicted score of evaluation `e` with scale `k`.
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

fn dot(terms: &[f64; EvalParams::LEN], w: &[f64; EvalParams::LEN]) -> f64 {
    terms.iter().zip(w).map(|(t, w)| t * w).sum()
}

/// Mean squared error of the predictions of weights `w` with scale `k`.
fn error(samples: &[&Sample], k: f64, w: &[f64; EvalParams::LEN]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result - sigmoid(k, dot(&s.terms, w))).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scale `k` that fits weights `w` best (golden-section search on 0.05 ..= 5).
fn fit_scale(samples: &[&Sample], w: &[f64; EvalParams::LEN]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, a, w) < error(samples, b, w) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Weights `free` (the others stay) fitted by Adam on the mean squared error.
fn fit_weights(
    samples: &[&Sample],
    k: f64,
    start: &[f64; EvalParams::LEN],
    free: &[bool; EvalParams::LEN],
    iterations: u32,
    bar: &ProgressBar,
) -> [f64; EvalParams::LEN] {
    let mut w = *start;
    let (mut m, mut v) = ([0.0; EvalParams::LEN], [0.0; EvalParams::LEN]);
    let (b1, b2, rate) = (0.9f64, 0.999f64, 0.5f64);
    let c = k * std::f64::consts::LN_10 / 400.0;
    let n = samples.len().max(1) as f64;
    for step in 1..=iterations {
        let mut grad = [0.0; EvalParams::LEN];
        for s in samples {
            let p = sigmoid(k, dot(&s.terms, &w));
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) c t
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * c;
            for (gi, t) in grad.iter_mut().zip(&s.terms) {
                *gi += g * t;
            }
        }
        for i in 0..EvalParams::LEN {
            if !free[i] {
                continue;
            }
            let g = grad[i] / n;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step as i32));
            let vh = v[i] / (1.0 - b2.powi(step as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        bar.inc(1);
    }
    w
}

fn bar(len: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{what} [{{bar:40}}] {{pos}}/{{len}} {{msg}} ({{eta}} left)");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn main() -> std::io::Result<()> {
    let args = Args::parse();
    let eval = Evaluation::default();
    let start = eval.params().to_array().map(f64::from);

    // Self-play, `-j` games at once; results kept by game number.
    let games = bar(u64::from(args.games), "games");
    let next = AtomicUsize::new(0);
    let played: Mutex<Vec<Option<Played>>> = Mutex::new((0..args.games).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games as usize {
                        break;
                    }
                    let p = play(&args, &eval, i as u32);
                    let mut all = played.lock().unwrap_or_else(|e| e.into_inner());
                    all[i] = Some(p);
                    drop(all);
                    games.inc(1);
                }
            });
        }
    });
    games.finish_and_clear();
    let played: Vec<Played> = played
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    let (mut wins, mut draws, mut losses, mut plies) = (0, 0, 0, 0);
    for p in &played {
        plies += p.plies;
        match p.green {
            1.0 => wins += 1,
            0.0 => losses += 1,
            _ => draws += 1,
        }
    }
    let samples: Vec<Sample> = played.into_iter().flat_map(|p| p.samples).collect();
    if let Some(path) = &args.data {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        for s in &samples {
            write!(out, "{}", s.result)?;
            for t in &s.terms {
                write!(out, " {t}")?;
            }
            writeln!(out)?;
        }
        out.flush()?;
    }
    // Every tenth game is held out.
    let (train, test): (Vec<&Sample>, Vec<&Sample>) =
        samples.iter().partition(|s| s.game % 10 != 9);

    // Weights that move nothing in the data keep their values.
    let mut free = [false; EvalParams::LEN];
    for (i, f) in free.iter_mut().enumerate() {
        *f = i != 20 && train.iter().any(|s| s.terms[i] != 0.0);
    }
    // The tempo bonus is a weight like the others (its coefficient is always 1).
    free[20] = true;

    let k = fit_scale(&train, &start);
    let fit = bar(u64::from(args.iterations), "fit");
    let tuned = fit_weights(&train, k, &start, &free, args.iterations, &fit);
    fit.finish_and_clear();
    let rounded = tuned.map(f64::round);

    let n_games = wins + draws + losses;
    println!(
        "games      {n_games} (seed {}, {} nodes a move, {} opening plies, cap {} plies): \
         Green {wins} wins, {draws} draws, {losses} losses; {:.1} plies a game",
        args.seed,
        args.nodes,
        args.opening_plies,
        args.ply_cap,
        plies as f64 / n_games.max(1) as f64
    );
    println!(
        "positions  {} quiet ({} fitted, {} held out: every tenth game)",
        samples.len(),
        train.len(),
        test.len()
    );
    println!("scale k    {k:.4}");
    println!(
        "error      fitted {:.6} -> {:.6}, held out {:.6} -> {:.6}",
        error(&train, k, &start),
        error(&train, k, &rounded),
        error(&test, k, &start),
        error(&test, k, &rounded)
    );
    println!("weights");
    for i in 0..EvalParams::LEN {
        println!(
            "  {:<20} {:>5} -> {:>5}{}",
            EvalParams::NAMES[i],
            start[i],
            rounded[i],
            if free[i] { "" } else { "  (kept: no signal)" }
        );
    }
    let p = EvalParams::from_array(rounded.map(|x| x as i32));
    println!("as Rust:");
    println!("EvalParams {{");
    println!("    material: {:?},", p.material);
    println!("    mobility: {:?},", p.mobility);
    println!("    advance: {:?},", p.advance);
    println!("    centre: {:?},", p.centre);
    println!("    threat: {},", p.threat);
    println!("    threat_to_move: {},", p.threat_to_move);
    println!("    commander_attacked: {},", p.commander_attacked);
    println!("    commander_guard: {},", p.commander_guard);
    println!("    tempo: {},", p.tempo);
    println!("}}");
    Ok(())
}
