//! Four-player free-for-all matches: one free-for-all search against the paranoid bot.
//!
//! ```text
//! cargo run --release -p ploy-engine --example ffa_match -- --candidate brs \
//!     [--games N] [--nodes N] [--opening-plies N] [--ply-cap N] [--seed S] [-j THREADS]
//! ```
//!
//! - **Seats.** The candidate (an [`Engine`] searching free-for-all games by
//!   `--candidate`: `default`, the engine's default, Best-Reply Search on the two-sided
//!   searcher; or `paranoid`, `brs`, `brs+` or `mcts`) plays one seat; the paranoid bot (an
//!   engine with the two-sided paranoid search, the default before Best-Reply Search) plays
//!   the other three. Games come in blocks of four
//!   from the same opening, the candidate in Green's, Red's, Yellow's and Blue's seat in
//!   turn.
//! - **Openings.** `--opening-plies` random legal plies from the start position, seeded by
//!   `--seed` and the block's number (standard rules).
//! - **Budget.** Every move is searched with `--nodes` nodes by a fresh engine per game and
//!   seat (the default configuration, 16 MiB table): the same seed gives the same games on
//!   any machine, whatever `-j` is.
//! - **The end.** The game ends as the rules say: the last player in play wins, or a draw
//!   by repetition or by 200 plies without a capture, which the players still in play
//!   share. A game reaching `--ply-cap` plies is decided by the score: each player in play
//!   by the material of the colours he controls (the default evaluation's piece values),
//!   the highest first (a tie shares the place).
//! - **What it reports.** The candidate's share of first place (1 for first place alone,
//!   1/k when k players share it, 0 otherwise) and his rank (1 to 4; players out of play
//!   rank below those in play, a later elimination higher; tied players share the mean of
//!   their places), each as a mean over the games with a 95 % interval (normal
//!   approximation, 1.96 standard errors). A fair share is 1/4 and a fair rank 2.5. Also
//!   the same by seat, how games ended, and the nodes and time a move of each side.
//!
//! Each finished game prints a line to standard error; the summary goes to standard output.

use clap::Parser;
use ploy_core::{Game, Outcome, Position, Rules, Seat, SeatSet, Variant};
use ploy_engine::Engine;
use ploy_engine::{EvalParams, random_line};
use ploy_search::multi::SearchKind;
use ploy_search::{Config, Limits, splitmix64};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// One free-for-all search against three paranoid bots, seats rotated.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// The candidate's search: default (the engine's), paranoid, brs, brs+ or mcts.
    #[arg(long, value_parser = parse_candidate)]
    candidate: Candidate,
    /// Games (rounded up to whole blocks of four, one per seat).
    #[arg(long, default_value_t = 40)]
    games: u32,
    /// Nodes a move, for every player.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Random legal plies at the start of each block.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// A game reaching this many plies (opening included) is decided by material.
    #[arg(long, default_value_t = 400)]
    ply_cap: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once.
    #[arg(short = 'j', long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    threads: u32,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The last player in play won.
    Won,
    /// A draw by a rule of the game.
    Drawn,
    /// The ply cap: the score decided.
    Capped,
}

/// The candidate's search: `None` for the engine's default.
#[derive(Clone, Copy, Debug)]
struct Candidate(Option<SearchKind>);

fn parse_candidate(text: &str) -> Result<Candidate, String> {
    if text == "default" {
        return Ok(Candidate(None));
    }
    text.parse()
        .map(|k| Candidate(Some(k)))
        .map_err(|e| format!("{e}"))
}

/// One game's result for the candidate.
#[derive(Clone, Copy, Debug)]
struct Played {
    seat: Seat,
    first: f64,
    rank: f64,
    end: End,
    plies: u32,
    /// Nodes and time of the candidate's moves, and of the others'.
    cand: (u64, Duration, u32),
    rest: (u64, Duration, u32),
}

fn main() {
    let args = Args::parse();
    let blocks = args.games.div_ceil(4);
    let games = blocks * 4;
    let next = AtomicU32::new(0);
    let results = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let p = play(&args, i);
                    let mut all = results.lock().expect("no thread panicked");
                    all.push((i, p));
                    let firsts: Vec<f64> = all.iter().map(|(_, p)| p.first).collect();
                    eprintln!(
                        "game {:>3} seat {:<6} {:?} after {} plies: first {:.2} rank {:.1} \
                         | {} games, first-place share {:.3}, {:.0} s",
                        i + 1,
                        p.seat.name(),
                        p.end,
                        p.plies,
                        p.first,
                        p.rank,
                        all.len(),
                        mean(&firsts),
                        start.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    let mut all = results.into_inner().expect("no thread panicked");
    all.sort_by_key(|&(i, _)| i);
    let played: Vec<Played> = all.into_iter().map(|(_, p)| p).collect();
    report(&args, &played, start.elapsed());
}

/// Plays game `i`: block `i / 4`'s opening, the candidate in seat `i % 4`.
fn play(args: &Args, i: u32) -> Played {
    let block = u64::from(i / 4);
    let seat = Seat::ALL[(i % 4) as usize];
    let rules = Rules::standard();
    let start = Position::start(Variant::FreeForAll, rules);
    let mut mix = args.seed ^ block.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let opening = random_line(&start, splitmix64(&mut mix), args.opening_plies, false);
    let mut game = Game::from_position(start);
    for mv in opening {
        game.play(mv).expect("a legal opening move");
    }
    let mut engines: Vec<Engine> = Seat::ALL
        .iter()
        .map(|&s| {
            let kind = if s == seat {
                args.candidate.0
            } else {
                Some(SearchKind::Paranoid)
            };
            Engine::new(Config::default()).with_ffa_search(kind)
        })
        .collect();
    let limits = Limits::nodes(args.nodes);
    // Players out of play, in the order they went out.
    let mut out: Vec<Seat> = Vec::new();
    let mut cand = (0u64, Duration::ZERO, 0u32);
    let mut rest = (0u64, Duration::ZERO, 0u32);
    while game.outcome().is_none() && (game.moves().len() as u32) < args.ply_cap {
        let mover = game.position().mover();
        let t = Instant::now();
        let r = engines[mover.index()].search(&game, &limits, |_| {});
        let side = if mover == seat { &mut cand } else { &mut rest };
        side.0 += r.nodes;
        side.1 += t.elapsed();
        side.2 += 1;
        let mv = r.best_move.expect("the game goes on");
        game.play(mv).expect("the engine plays legal moves");
        let in_play = game.position().in_play();
        for s in Seat::ALL {
            if !in_play.contains(s) && !out.contains(&s) {
                out.push(s);
            }
        }
    }
    let pos = game.position();
    let (end, top): (End, SeatSet) = match game.outcome() {
        Some(Outcome::Win { winners, .. }) => (End::Won, winners),
        Some(Outcome::Draw { .. }) => (End::Drawn, pos.in_play()),
        None => (End::Capped, best_by_material(pos)),
    };
    let k = top.count() as f64;
    let first = if top.contains(seat) { 1.0 / k } else { 0.0 };
    Played {
        seat,
        first,
        rank: rank_of(seat, pos, end, top, &out),
        end,
        plies: game.moves().len() as u32,
        cand,
        rest,
    }
}

/// Material of the colours each seat controls, by the default piece values.
fn material(pos: &Position) -> [i32; 4] {
    let values = EvalParams::default().material;
    let mut by_colour = [0i32; 4];
    for (_, p) in pos.board().pieces() {
        by_colour[p.colour().index()] += values[p.kind().index()];
    }
    let mut by_seat = [0i32; 4];
    for c in Seat::ALL {
        by_seat[pos.controller(c).index()] += by_colour[c.index()];
    }
    by_seat
}

/// The players in play with the most material.
fn best_by_material(pos: &Position) -> SeatSet {
    let m = material(pos);
    let in_play = pos.in_play();
    let top = in_play.iter().map(|s| m[s.index()]).max().unwrap_or(0);
    let mut set = SeatSet::EMPTY;
    for s in in_play.iter() {
        if m[s.index()] == top {
            set = set.with(s);
        }
    }
    set
}

/// The rank of `seat` (1 best), tied players sharing the mean of their places: players
/// in play first (the winners or the drawing players alike; at the cap by material),
/// then those out, the last out first.
fn rank_of(seat: Seat, pos: &Position, end: End, top: SeatSet, out: &[Seat]) -> f64 {
    // A key per seat: higher is better.
    let m = material(pos);
    let key = |s: Seat| -> i64 {
        if let Some(i) = out.iter().position(|&o| o == s) {
            return -1_000_000 + i as i64; // the later out, the better
        }
        match end {
            End::Won => i64::from(top.contains(s)),
            End::Drawn => 0,
            End::Capped => i64::from(m[s.index()]),
        }
    };
    let mine = key(seat);
    let better = Seat::ALL.iter().filter(|&&s| key(s) > mine).count() as f64;
    let tied = Seat::ALL.iter().filter(|&&s| key(s) == mine).count() as f64;
    better + (1.0 + tied) / 2.0
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The mean of `xs` and its 95 % interval (normal approximation).
fn interval(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    let m = mean(xs);
    if xs.len() < 2 {
        return (m, m, m);
    }
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (m, m - half, m + half)
}

fn report(args: &Args, played: &[Played], elapsed: Duration) {
    let firsts: Vec<f64> = played.iter().map(|p| p.first).collect();
    let ranks: Vec<f64> = played.iter().map(|p| p.rank).collect();
    let (f, fl, fh) = interval(&firsts);
    let (r, rl, rh) = interval(&ranks);
    println!(
        "candidate {} against 3 x paranoid: {} games, {} nodes a move, {} opening plies, \
         ply cap {}, seed {}",
        args.candidate
            .0
            .map_or("default".to_owned(), |k| k.to_string()),
        played.len(),
        args.nodes,
        args.opening_plies,
        args.ply_cap,
        args.seed
    );
    println!("first-place share {f:.3} (95 %: {fl:.3} to {fh:.3}; fair 0.250)");
    println!("mean rank {r:.2} (95 %: {rl:.2} to {rh:.2}; fair 2.50)");
    for s in Seat::ALL {
        let of: Vec<&Played> = played.iter().filter(|p| p.seat == s).collect();
        let fs: Vec<f64> = of.iter().map(|p| p.first).collect();
        let rs: Vec<f64> = of.iter().map(|p| p.rank).collect();
        println!(
            "  as {:<6}: {} games, first-place share {:.3}, mean rank {:.2}",
            s.name(),
            of.len(),
            mean(&fs),
            mean(&rs)
        );
    }
    let count = |e: End| played.iter().filter(|p| p.end == e).count();
    let plies: Vec<f64> = played.iter().map(|p| f64::from(p.plies)).collect();
    println!(
        "ends: {} won, {} drawn by rule, {} at the ply cap; {:.0} plies a game",
        count(End::Won),
        count(End::Drawn),
        count(End::Capped),
        mean(&plies)
    );
    let per_move = |side: fn(&Played) -> (u64, Duration, u32)| {
        let (n, t, m) = played
            .iter()
            .map(side)
            .fold((0, Duration::ZERO, 0), |a, b| {
                (a.0 + b.0, a.1 + b.1, a.2 + b.2)
            });
        let m = f64::from(m.max(1));
        (n as f64 / m, t.as_secs_f64() * 1000.0 / m)
    };
    let (cn, ct) = per_move(|p| p.cand);
    let (on, ot) = per_move(|p| p.rest);
    println!(
        "a move: candidate {cn:.0} nodes in {ct:.1} ms, paranoid {on:.0} nodes in {ot:.1} ms; \
         {:.0} s in all",
        elapsed.as_secs_f64()
    );
}
