//! Matches between engine strengths: full strength against a level of the ladder, or the
//! ladder itself (each level against the next).
//!
//! ```text
//! cargo run --release -p pente --example match -- [--a full] [--b 3] [--openings 50]
//!     [--size 19] [--no-tournament-rule] [--min-movetime 200] [--seed 1] [--ladder]
//! ```
//!
//! Each opening is the centre and two random legal moves (seeded), played twice with the
//! colours swapped. A level of the ladder (`1` to `5`) thinks as long as its depth, padding
//! and width take; `full` gets per move the mean time the levels in the match have used
//! so far, and at least `--min-movetime` ms (`--movetime` fixes it instead). The summary
//! gives wins, losses, draws, the score with a 95 % interval, the mean time and nodes per
//! move of each side, and the games' lengths.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use pente::{Color, Engine, Level, Limits, Move, Position, Rules, Size, Strength};

/// Plays engine against engine and reports the score.
#[derive(Parser)]
#[command(name = "match")]
struct Args {
    /// First player: `full`, or a difficulty 1 to 5.
    #[arg(long, default_value = "full")]
    a: String,
    /// Second player.
    #[arg(long, default_value = "3")]
    b: String,
    /// Openings (each played twice, colours swapped).
    #[arg(long, default_value_t = 50)]
    openings: u32,
    /// Board size: odd, 7 to 19.
    #[arg(long, default_value = "19")]
    size: Size,
    /// Play without the tournament rule.
    #[arg(long)]
    no_tournament_rule: bool,
    /// Least time per move of a full-strength player, in milliseconds.
    #[arg(long, default_value_t = 200)]
    min_movetime: u64,
    /// Fixed time per move of a full-strength player, in milliseconds (overrides the mean
    /// of the levels).
    #[arg(long)]
    movetime: Option<u64>,
    /// Fixed nodes per move of a full-strength player instead of a time (repeatable
    /// comparisons on a busy machine).
    #[arg(long, conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Seed of the openings (and of the engines' choices among equal moves).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play the ladder instead: 1 against 2, 2 against 3, 3 against 4, 4 against 5.
    #[arg(long)]
    ladder: bool,
    /// Print every game's moves.
    #[arg(long)]
    verbose: bool,
}

fn strength(s: &str) -> Result<Strength, String> {
    if s == "full" {
        return Ok(Strength::Full);
    }
    let d: u32 = s.parse().map_err(|_| format!("bad player {s:?}"))?;
    Level::difficulty(d)
        .map(Strength::Level)
        .map_err(|e| e.to_string())
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The centre and two random legal moves.
fn opening(rules: Rules, seed: u64) -> Vec<Move> {
    let mut pos = Position::new(rules);
    let mut moves = Vec::new();
    let mut state = seed;
    for _ in 0..3 {
        let legal = pos.legal_moves();
        state = mix(state);
        let mv = legal[(state % legal.len() as u64) as usize];
        pos.play(mv).expect("legal");
        moves.push(mv);
    }
    moves
}

#[derive(Default)]
struct Tally {
    wins: u32,
    losses: u32,
    draws: u32,
    time: [Duration; 2],
    moves: [u32; 2],
    nodes: [u64; 2],
    plies: u64,
}

impl Tally {
    fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score of A and its 95 % interval (normal approximation).
    fn score(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        (s, 1.96 * (var / n).sqrt())
    }

    fn mean_ms(&self, i: usize) -> f64 {
        self.time[i].as_secs_f64() * 1000.0 / f64::from(self.moves[i].max(1))
    }

    fn mean_nodes(&self, i: usize) -> u64 {
        self.nodes[i] / u64::from(self.moves[i].max(1))
    }
}

fn elo(s: f64) -> f64 {
    let s = s.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

#[allow(clippy::too_many_arguments)]
fn play_match(
    args: &Args,
    rules: Rules,
    a: &Strength,
    b: &Strength,
    name_a: &str,
    name_b: &str,
) -> Tally {
    let mut tally = Tally::default();
    // Time used by the levels (for the full-strength budget).
    let mut level_time = Duration::ZERO;
    let mut level_moves = 0u32;
    let games = 2 * args.openings;
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(u64::from(games))
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg}")
            .expect("template")
            .progress_chars("=> "),
    );
    bar.set_prefix(format!("{name_a} vs {name_b}"));
    for game in 0..games {
        let open = opening(rules, mix(args.seed ^ u64::from(game / 2)));
        // Even games: A plays White.
        let a_white = game % 2 == 0;
        let seed = mix(args.seed.wrapping_add(u64::from(game)));
        let mut engines = [
            Engine::new(a.clone()).with_seed(seed),
            Engine::new(b.clone()).with_seed(seed ^ 1),
        ];
        let mut pos = Position::from_moves(rules, &open).expect("legal opening");
        let mut line: Vec<String> = open.iter().map(ToString::to_string).collect();
        while !pos.is_over() {
            let who = usize::from((pos.turn() == Color::White) != a_white);
            let strength = if who == 0 { a } else { b };
            let limits = match strength {
                Strength::Full if args.nodes.is_some() => Limits::nodes(args.nodes.unwrap_or(1)),
                Strength::Full => {
                    let ms = args.movetime.unwrap_or_else(|| {
                        let mean = if level_moves == 0 {
                            0
                        } else {
                            (level_time / level_moves).as_millis() as u64
                        };
                        mean.max(args.min_movetime)
                    });
                    Limits::move_time(Duration::from_millis(ms))
                }
                Strength::Level(_) => Limits::default(),
            };
            let t = Instant::now();
            let analysis = engines[who].search(&pos, &limits, |_| {});
            let used = t.elapsed();
            tally.time[who] += used;
            tally.moves[who] += 1;
            tally.nodes[who] += analysis.nodes;
            if matches!(strength, Strength::Level(_)) {
                level_time += used;
                level_moves += 1;
            }
            let mv = analysis.best_move.expect("a move while the game goes on");
            pos.play(mv).expect("the engine plays legal moves");
            line.push(mv.to_string());
        }
        tally.plies += u64::from(pos.plies());
        let outcome = pos.outcome().expect("over");
        match outcome.winner() {
            None => tally.draws += 1,
            Some(w) if (w == Color::White) == a_white => tally.wins += 1,
            Some(_) => tally.losses += 1,
        }
        if args.verbose {
            bar.suspend(|| {
                println!(
                    "game {:3} {name_a} {}: {outcome} in {} plies: {}",
                    game + 1,
                    if a_white { "white" } else { "black" },
                    pos.plies(),
                    line.join(" ")
                );
            });
        }
        bar.set_message(format!(
            "+{} -{} ={}",
            tally.wins, tally.losses, tally.draws
        ));
        bar.inc(1);
    }
    bar.finish_and_clear();
    tally
}

fn report(name_a: &str, name_b: &str, t: &Tally) {
    let (s, ci) = t.score();
    println!(
        "{name_a} vs {name_b}: {} games, +{} -{} ={}, score {:.1} % ± {:.1} (Elo {:+.0}, {:+.0} to {:+.0}); mean time per move {:.1} ms vs {:.1} ms, mean nodes per move {} vs {}; mean length {:.1} plies",
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        100.0 * s,
        100.0 * ci,
        elo(s),
        elo(s - ci),
        elo(s + ci),
        t.mean_ms(0),
        t.mean_ms(1),
        t.mean_nodes(0),
        t.mean_nodes(1),
        t.plies as f64 / f64::from(t.games().max(1)),
    );
}

fn main() {
    let args = Args::parse();
    let rules = Rules::new(args.size).with_tournament_rule(!args.no_tournament_rule);
    if args.ladder {
        for d in 1..=4u32 {
            let a = Strength::Level(Level::difficulty(d).expect("1..=4"));
            let b = Strength::Level(Level::difficulty(d + 1).expect("2..=5"));
            let (na, nb) = (format!("level {d}"), format!("level {}", d + 1));
            let t = play_match(&args, rules, &a, &b, &na, &nb);
            report(&na, &nb, &t);
        }
        return;
    }
    let (a, b) = match (strength(&args.a), strength(&args.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let t = play_match(&args, rules, &a, &b, &args.a, &args.b);
    report(&args.a, &args.b, &t);
}
