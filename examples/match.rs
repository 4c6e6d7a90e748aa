//! Plays games between two engine configurations and reports the result with an Elo
//! difference and its 95 % margin.
//!
//! ```text
//! cargo run --release --example match -- [--games N] [--seed S] [--opening-plies P]
//!     [--ply-cap C] [--nodes N | --time MS | --depth D] --a SPEC --b SPEC
//! ```
//!
//! A SPEC is an engine name with optional budget overrides, joined by `@`:
//! `full` (the default configuration), `noorder` (table and move ordering off),
//! `alphabeta`, `nolmr` (late move reductions off), `random` (a uniformly random mover);
//! overrides `dN` (depth), `nN` (nodes), `tN` (milliseconds per move), e.g. `full@d4`.
//! Games are played in pairs: each opening (P random plies from the seed) once with each
//! colour. Standard rules (repetition and 200-ply no-capture draws); games longer than the
//! ply cap are adjudicated as draws. The score is from A's point of view; the Elo difference
//! comes with the 95 % Wilson interval of the score.

use ploy_core::{Game, Move, Outcome, Rules, Seat};
use ploy_search::{
    Config, EvalPosition, Evaluation, GameHistory, Limits, Searcher, random_line, splitmix64,
};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
struct Spec {
    name: String,
    config: Option<Config>,
    limits: Limits,
}

fn parse_spec(text: &str, default: &Limits) -> Spec {
    let mut parts = text.split('@');
    let name = parts.next().unwrap_or("full").to_string();
    let config = match name.as_str() {
        "full" => Some(Config::default()),
        "noorder" => Some(Config {
            table_bytes: 0,
            table_move: false,
            order_captures: false,
            killers: 0,
            history: false,
            ..Config::default()
        }),
        "alphabeta" => Some(Config {
            driver: ploy_search::Driver::AlphaBeta,
            ..Config::default()
        }),
        "nolmr" => Some(Config::exact()),
        "random" => None,
        other => panic!("unknown engine {other}"),
    };
    let mut limits = default.clone();
    for o in parts {
        let (k, v) = o.split_at(1);
        let v: u64 = v.parse().expect("a number after d, n or t");
        limits = match k {
            "d" => Limits::depth(v as u32),
            "n" => Limits::nodes(v),
            "t" => Limits::move_time(Duration::from_millis(v)),
            _ => panic!("unknown budget {o}"),
        };
    }
    Spec {
        name: text.to_string(),
        config,
        limits,
    }
}

struct Engine {
    spec: Spec,
    searcher: Option<Searcher<EvalPosition, Evaluation>>,
    rng: u64,
    nodes: u64,
    moves: u64,
    time: Duration,
}

impl Engine {
    fn new(spec: &Spec, seed: u64) -> Engine {
        let searcher = spec
            .config
            .clone()
            .map(|c| Searcher::new(c, Evaluation::default()));
        Engine {
            spec: spec.clone(),
            searcher,
            rng: seed,
            nodes: 0,
            moves: 0,
            time: Duration::ZERO,
        }
    }

    fn choose(&mut self, game: &Game) -> Move {
        let pos = game.position();
        let t = Instant::now();
        let mv = match &mut self.searcher {
            None => {
                let moves = pos.legal_moves();
                moves[splitmix64(&mut self.rng) as usize % moves.len()]
            }
            Some(s) => {
                let root = EvalPosition::new(pos.clone());
                let r = s.search(&root, &root.history(game), &self.spec.limits, |_| {});
                self.nodes += r.nodes;
                r.best_move.expect("a legal move in an undecided game")
            }
        };
        self.time += t.elapsed();
        self.moves += 1;
        mv
    }
}

/// 1 for a win of A, 0.5 for a draw, 0 for a loss.
fn play(
    a: &mut Engine,
    b: &mut Engine,
    opening: &[Move],
    a_first: bool,
    ply_cap: usize,
) -> (f64, usize, String) {
    let mut game = Game::new(Rules::standard());
    for &m in opening {
        game.play(m).expect("opening moves are legal");
    }
    let a_seat = if a_first { Seat::Green } else { Seat::Red };
    while game.outcome().is_none() && game.moves().len() < ply_cap {
        let mover = game.position().turn();
        let mv = if mover == a_seat {
            a.choose(&game)
        } else {
            b.choose(&game)
        };
        game.play(mv).expect("engines play legal moves");
    }
    let plies = game.moves().len();
    match game.outcome() {
        None => (0.5, plies, "ply cap".into()),
        Some(o @ Outcome::Draw { .. }) => (0.5, plies, format!("{o:?}")),
        Some(o) => (
            if o.winner() == Some(a_seat) { 1.0 } else { 0.0 },
            plies,
            format!("{o:?}"),
        ),
    }
}

/// The 95 % Wilson score interval of a score fraction over `n` games (a draw counts as half
/// a win); it stays inside 0..1 and is sensible for perfect scores.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

fn main() {
    let mut games = 20usize;
    let mut seed = 1u64;
    let mut opening_plies = 4u32;
    let mut ply_cap = 200usize;
    let mut default = Limits::nodes(20_000);
    let (mut a_text, mut b_text) = ("full".to_string(), "full".to_string());
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--games" => games = val().parse().expect("--games N"),
            "--seed" => seed = val().parse().expect("--seed S"),
            "--opening-plies" => opening_plies = val().parse().expect("--opening-plies P"),
            "--ply-cap" => ply_cap = val().parse().expect("--ply-cap C"),
            "--nodes" => default = Limits::nodes(val().parse().expect("--nodes N")),
            "--depth" => default = Limits::depth(val().parse().expect("--depth D")),
            "--time" => {
                default =
                    Limits::move_time(Duration::from_millis(val().parse().expect("--time MS")))
            }
            "--a" => a_text = val(),
            "--b" => b_text = val(),
            _ => panic!("unknown argument {arg}"),
        }
    }
    let (sa, sb) = (parse_spec(&a_text, &default), parse_spec(&b_text, &default));
    let mut a = Engine::new(&sa, seed ^ 0xA);
    let mut b = Engine::new(&sb, seed ^ 0xB);
    let start = ploy_core::Position::new();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut results = Vec::new();
    for g in 0..games {
        let opening = random_line(
            &start,
            seed.wrapping_mul(1000).wrapping_add((g / 2) as u64),
            opening_plies,
            false,
        );
        let a_first = g % 2 == 0;
        if let Some(s) = &mut a.searcher {
            s.clear();
        }
        if let Some(s) = &mut b.searcher {
            s.clear();
        }
        let (r, plies, how) = play(&mut a, &mut b, &opening, a_first, ply_cap);
        match r {
            1.0 => wins += 1,
            0.0 => losses += 1,
            _ => draws += 1,
        }
        results.push(r);
        println!(
            "game {:3} A plays {} : {} after {plies} plies ({how})",
            g + 1,
            if a_first { "green" } else { "red  " },
            match r {
                1.0 => "A wins",
                0.0 => "B wins",
                _ => "draw",
            }
        );
    }
    let n = results.len() as f64;
    let score = results.iter().sum::<f64>() / n;
    let (lo, hi) = wilson(score, n);
    println!("A = {}  B = {}", sa.name, sb.name);
    println!(
        "games {games} wins {wins} draws {draws} losses {losses} score {:.1}%",
        100.0 * score
    );
    let (e, elo_lo, elo_hi) = (elo(score), elo(lo), elo(hi));
    if e.is_finite() {
        println!(
            "elo {e:+.0} +/- {:.0} (95 %: {elo_lo:+.0} to {elo_hi:+.0})",
            (elo_hi - elo_lo) / 2.0
        );
    } else {
        println!("elo {e:+} (95 %: {elo_lo:+.0} to {elo_hi:+.0})");
    }
    for (name, e) in [("A", &a), ("B", &b)] {
        if e.moves > 0 && e.nodes > 0 {
            println!(
                "{name}: {} moves, {:.0} nodes/move, {:.1} ms/move",
                e.moves,
                e.nodes as f64 / e.moves as f64,
                e.time.as_secs_f64() * 1000.0 / e.moves as f64
            );
        }
    }
}
