//! Measures the multi-player searches on random uniform toy trees: how many moves the
//! alpha-beta versions of paranoid search and Best-Reply Search make against their plain
//! recursions at the same depth (whose values they equal), and how fast each runs.
//!
//! `cargo run --release -p ploy-search --example multi_toy -- [PLAYERS] [BRANCHING] [DEPTH] [TREES]`
//! (defaults 4, 8, 6, 20).

use std::cell::Cell;
use std::rc::Rc;
use std::time::Instant;

use ploy_search::multi::{
    Brs, BrsPlayers, MAX_PLAYERS, Mcts, MctsConfig, MultiGame, Paranoid, ScoreVector,
    brs_reference, paranoid_reference,
};
use ploy_search::{Limits, splitmix64};

/// A uniform random tree: every node has `branching` children down to `depth` plies (far
/// deeper than any search here), the turn rotates, every player's evaluation is a hash of
/// the node in -100..=100. `made` counts moves and passes.
#[derive(Clone)]
struct Uniform {
    node: u64,
    ply: u32,
    turn: usize,
    players: usize,
    branching: u16,
    made: Rc<Cell<u64>>,
    passes: Vec<usize>,
}

impl MultiGame for Uniform {
    type Move = u16;
    type Undo = u64;
    type Moves = Vec<u16>;
    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> usize {
        self.turn
    }
    fn outcome(&self) -> Option<ScoreVector> {
        None
    }
    fn generate(&self, moves: &mut Vec<u16>) {
        moves.extend(0..self.branching);
    }
    fn make(&mut self, mv: u16) -> u64 {
        self.made.set(self.made.get() + 1);
        let before = self.node;
        let mut z = self.node ^ (u64::from(mv) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.node = splitmix64(&mut z);
        self.ply += 1;
        self.turn = (self.turn + 1) % self.players;
        before
    }
    fn unmake(&mut self, _: u16, before: u64) {
        self.node = before;
        self.ply -= 1;
        self.turn = (self.turn + self.players - 1) % self.players;
    }
    fn make_pass(&mut self) {
        self.made.set(self.made.get() + 1);
        self.passes.push(self.turn);
        self.turn = (self.turn + 1) % self.players;
    }
    fn unmake_pass(&mut self) {
        self.turn = self.passes.pop().expect("a pass");
    }
    fn order(&self, mv: u16) -> i32 {
        // A weak ordering hint: a hash, correlated with nothing.
        i32::from((self.node >> (mv % 48)) as u16 & 7)
    }
}

fn eval(u: &Uniform) -> ScoreVector {
    let mut s = [0; MAX_PLAYERS];
    for (p, v) in s.iter_mut().enumerate().take(u.players) {
        *v = ((u.node >> (8 * p)) & 0xFF) as i32 * 200 / 255 - 100;
    }
    s
}

type Eval = fn(&Uniform) -> ScoreVector;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: PLAYERS BRANCHING DEPTH TREES"))
        .collect();
    let arg = |i: usize, d: u64| args.get(i).copied().unwrap_or(d);
    let players = arg(0, 4) as usize;
    let branching = arg(1, 8) as u16;
    let depth = arg(2, 6) as u32;
    let trees = arg(3, 20);
    assert!((2..=MAX_PLAYERS).contains(&players), "2 to 4 players");
    println!("{players} players, {branching} moves a node, depth {depth}, {trees} trees");
    let made = Rc::new(Cell::new(0));
    let mut totals = [(0u64, 0f64); 6];
    let names = [
        "paranoid, plain minimax",
        "paranoid, alpha-beta",
        "BRS, plain recursion",
        "BRS, alpha-beta",
        "BRS+, plain recursion",
        "BRS+, alpha-beta",
    ];
    for seed in 0..trees {
        let u = Uniform {
            node: seed,
            ply: 0,
            turn: 0,
            players,
            branching,
            made: made.clone(),
            passes: Vec::new(),
        };
        let mut measure = |i: usize, f: &mut dyn FnMut() -> i32| {
            made.set(0);
            let t = Instant::now();
            let v = f();
            totals[i].0 += made.get();
            totals[i].1 += t.elapsed().as_secs_f64();
            v
        };
        let e = eval as Eval;
        let a = measure(0, &mut || paranoid_reference(&u, &e, depth).0);
        let b = measure(1, &mut || {
            Paranoid::new(e).search(&u, &Limits::depth(depth)).value
        });
        assert_eq!(a, b);
        for (i, kind) in [(2, BrsPlayers::Pass), (4, BrsPlayers::Policy)] {
            let a = measure(i, &mut || brs_reference(&u, &e, depth, kind).0);
            let b = measure(i + 1, &mut || {
                let mut s = match kind {
                    BrsPlayers::Pass => Brs::new(e),
                    BrsPlayers::Policy => Brs::plus(e),
                };
                s.search(&u, &Limits::depth(depth)).value
            });
            assert_eq!(a, b);
        }
    }
    for (name, (nodes, secs)) in names.iter().zip(totals) {
        println!(
            "{name:<24} {:>12} moves  {:>8.3} s  {:>6.2} M moves/s",
            nodes,
            secs,
            nodes as f64 / secs / 1e6
        );
    }
    // MCTS: iterations a second with the evaluation at the leaf and with playouts.
    for playout in [0, 20] {
        let u = Uniform {
            node: 1,
            ply: 0,
            turn: 0,
            players,
            branching,
            made: made.clone(),
            passes: Vec::new(),
        };
        let config = MctsConfig {
            playout_moves: playout,
            ..MctsConfig::default()
        };
        let t = Instant::now();
        let r = Mcts::new(config, eval as Eval).search(&u, 200_000, &Limits::default());
        let secs = t.elapsed().as_secs_f64();
        println!(
            "MCTS, {playout:>2}-move playouts  {} iterations  {:>8.3} s  {:>6.0} k iterations/s",
            r.iterations,
            secs,
            r.iterations as f64 / secs / 1e3
        );
    }
}
