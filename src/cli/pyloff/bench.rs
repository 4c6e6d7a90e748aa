//! `ploy pyloff bench`: search speed on a fixed set of positions: nodes and nodes per second.
//!
//! ```text
//! ploy pyloff bench [--depth D] [--size N] [--players K] [--game-nodes N]
//! ```
//!
//! The positions are reached by seeded random moves from the empty board (10, 20, ... 60
//! moves) under each rule set; each is searched to the depth with a fresh engine. The total
//! node count is a functional signature of the search.

use std::time::Instant;

use clap::Args;
use pyloff::{Engine, Game, Limits, Options, RuleSet};

use crate::cli::Failure;

/// Pyloff search speed on fixed positions.
#[derive(Args, Clone, Debug)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Board size.
    #[arg(long, default_value_t = 6)]
    pub size: u8,
    /// Number of players.
    #[arg(long, default_value_t = 2)]
    pub players: u8,
    /// Instead: play one game per rule set, engine against engine at this many nodes a
    /// move, up to the move cap (the whole game's speed, late phases included).
    #[arg(long)]
    pub game_nodes: Option<u64>,
}

/// SplitMix64 step: the seeded random moves that reach the positions.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One game per rule set, engine against engine at `nodes` a move.
fn play_games(args: &BenchArgs, nodes: u64) -> Result<(), Failure> {
    let (mut total_nodes, mut total_time) = (0u64, 0f64);
    for rules in RuleSet::ALL {
        let options = Options::new(args.size, args.players, rules)
            .map_err(|e| Failure::usage(e.to_string()))?;
        let mut game = Game::new(options);
        let mut engine = Engine::new();
        let (mut n, mut t) = (0u64, 0f64);
        while !game.position().is_over() && (game.moves().len() as u32) < options.move_cap() {
            let start = Instant::now();
            let r = engine.search(&game, &Limits::nodes(nodes));
            t += start.elapsed().as_secs_f64();
            n += r.nodes;
            let Some(best) = r.best_move else { break };
            game.play(best)
                .map_err(|e| Failure::failed(format!("the engine's move: {e}")))?;
        }
        println!(
            "{rules:<12} {} moves, scores {:?}: {n} nodes, {t:.2} s, {:.0} knps",
            game.moves().len(),
            game.position().scores(),
            n as f64 / t / 1000.0
        );
        total_nodes += n;
        total_time += t;
    }
    println!(
        "total {total_nodes} nodes, {total_time:.2} s, {:.0} knps",
        total_nodes as f64 / total_time / 1000.0
    );
    Ok(())
}

/// Runs the benchmark and prints a line per position (or game) and the totals.
///
/// # Errors
/// Options out of range (status 2).
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    if let Some(nodes) = args.game_nodes {
        return play_games(args, nodes);
    }
    let mut total_nodes = 0u64;
    let mut total_time = 0f64;
    for rules in RuleSet::ALL {
        let options = Options::new(args.size, args.players, rules)
            .map_err(|e| Failure::usage(e.to_string()))?;
        for plies in (10..=60).step_by(10) {
            let mut game = Game::new(options);
            let mut seed = plies as u64;
            for _ in 0..plies {
                let moves = game.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = mix(seed);
                game.play(moves[(seed % moves.len() as u64) as usize])
                    .map_err(|e| Failure::failed(format!("a legal move refused: {e}")))?;
            }
            let mut engine = Engine::new();
            let start = Instant::now();
            let r = engine.search(&game, &Limits::depth(args.depth));
            let t = start.elapsed().as_secs_f64();
            total_nodes += r.nodes;
            total_time += t;
            println!(
                "{rules:<12} {plies:>3} plies: depth {} nodes {:>9} {:>7.0} knps best {:?} score {}",
                r.depth,
                r.nodes,
                r.nodes as f64 / t / 1000.0,
                r.best_move.map(|m| m.to_string()),
                r.score
            );
        }
    }
    println!(
        "total {total_nodes} nodes, {:.2} s, {:.0} knps",
        total_time,
        total_nodes as f64 / total_time / 1000.0
    );
    Ok(())
}
