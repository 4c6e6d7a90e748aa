//! The multi-player searches: paranoid alpha-beta and Best-Reply Search (plain and BRS+)
//! return the value of their plain recursions without pruning, and a best move of that
//! value, on random toy trees of two to four players; MCTS keeps its invariants.

use crate::common::mix;
use ploy_search::Limits;
use ploy_search::multi::{
    Brs, BrsPlayers, MAX_PLAYERS, Mcts, MctsConfig, MultiGame, Paranoid, ScoreVector,
    brs_reference, paranoid_reference,
};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A random game tree of `players` players: every node is named by a hash of its path
/// (a pass keeps the node and hands the turn on). Nodes have 0 to 4 children (0: decided,
/// one player winning or all drawn); the evaluation takes few values per player (ties);
/// the move ordering is random. With `irregular`, a move sometimes lets its player move
/// again or skips the next player.
#[derive(Clone, Debug)]
struct MTree {
    node: u64,
    depth: u32,
    turn: usize,
    players: usize,
    max_depth: u32,
    irregular: bool,
    passes: Vec<usize>,
}

impl MTree {
    fn new(seed: u64, players: usize, max_depth: u32, irregular: bool) -> MTree {
        MTree {
            node: mix(seed),
            depth: 0,
            turn: 0,
            players,
            max_depth,
            irregular,
            passes: Vec::new(),
        }
    }

    fn children(&self) -> u16 {
        if self.depth >= self.max_depth || (self.depth > 0 && self.node % 9 == 0) {
            0
        } else {
            1 + (self.node >> 7) as u16 % 4
        }
    }

    fn child(&self, mv: u16) -> u64 {
        mix(self.node ^ u64::from(mv).wrapping_mul(0x1234_5678_9ABC_DEF1))
    }

    fn eval(&self) -> ScoreVector {
        let mut s = [0; MAX_PLAYERS];
        for (p, v) in s.iter_mut().enumerate().take(self.players) {
            *v = ((self.node >> (20 + 4 * p)) % 5) as i32 - 2;
        }
        s
    }
}

impl MultiGame for MTree {
    type Move = u16;
    type Undo = (u64, usize);
    type Moves = Vec<u16>;

    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> usize {
        self.turn
    }
    fn outcome(&self) -> Option<ScoreVector> {
        if self.children() > 0 {
            return None;
        }
        let w = (self.node >> 40) % (self.players as u64 + 1);
        let mut s = [0; MAX_PLAYERS];
        if (w as usize) < self.players {
            for (p, v) in s.iter_mut().enumerate().take(self.players) {
                *v = if p == w as usize { 100 } else { -100 };
            }
        }
        Some(s)
    }
    fn generate(&self, moves: &mut Vec<u16>) {
        moves.extend(0..self.children());
    }
    fn make(&mut self, mv: u16) -> (u64, usize) {
        let undo = (self.node, self.turn);
        self.node = self.child(mv);
        self.depth += 1;
        let step = if self.irregular {
            [1, 1, 1, 0, 2][(self.node >> 50) as usize % 5]
        } else {
            1
        };
        self.turn = (self.turn + step) % self.players;
        undo
    }
    fn unmake(&mut self, _: u16, (node, turn): (u64, usize)) {
        self.node = node;
        self.turn = turn;
        self.depth -= 1;
    }
    fn make_pass(&mut self) {
        self.passes.push(self.turn);
        self.turn = (self.turn + 1) % self.players;
    }
    fn unmake_pass(&mut self) {
        self.turn = self.passes.pop().expect("a pass to take back");
    }
    fn order(&self, mv: u16) -> i32 {
        (self.child(mv) % 3) as i32
    }
    /// The path's hash names the node; the turn and the depth complete it (a pass keeps
    /// the node and moves the turn).
    fn hash(&self) -> Option<u64> {
        Some(mix(self.node
            ^ mix(self.turn as u64 + 1)
            ^ mix(u64::from(self.depth) << 8)))
    }
    fn move_index(&self, mv: u16) -> Option<usize> {
        Some(usize::from(mv))
    }
}

fn eval(t: &MTree) -> ScoreVector {
    t.eval()
}

type Eval = fn(&MTree) -> ScoreVector;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn paranoid_equals_plain_minimax(seed in any::<u64>(), players in 2usize..=4, depth in 1u32..=6, irregular in any::<bool>()) {
        let t = MTree::new(seed, players, 7, irregular);
        let (value, best) = paranoid_reference(&t, &(eval as Eval), depth);
        let r = Paranoid::new(eval as Eval).with_table(false).search(&t, &Limits::depth(depth));
        prop_assert_eq!(r.value, value, "{:?}", t);
        let m = r.best_move.expect("the root is not decided");
        prop_assert!(best.contains(&m), "{:?} not among {:?}", m, best);
        prop_assert!(r.depth >= 1 && r.depth <= depth);
    }

    #[test]
    fn brs_equals_plain_brs(seed in any::<u64>(), players in 2usize..=4, depth in 1u32..=5, irregular in any::<bool>(), plus in any::<bool>()) {
        let t = MTree::new(seed, players, 8, irregular);
        let kind = if plus { BrsPlayers::Policy } else { BrsPlayers::Pass };
        let (value, best) = brs_reference(&t, &(eval as Eval), depth, kind);
        let mut s = if plus { Brs::plus(eval as Eval) } else { Brs::new(eval as Eval) }.with_table(false);
        prop_assert_eq!(s.players(), kind);
        let r = s.search(&t, &Limits::depth(depth));
        prop_assert_eq!(r.value, value, "{:?}", t);
        let m = r.best_move.expect("the root is not decided");
        prop_assert!(best.contains(&m), "{:?} not among {:?}", m, best);
    }

    /// With the table, on trees of a narrow branching factor that repeat positions by
    /// design (see `Lattice`), at a fixed depth: the same value as the plain recursion.
    #[test]
    fn paranoid_with_the_table_equals_plain_minimax(seed in any::<u64>(), players in 2usize..=4, depth in 1u32..=7, irregular in any::<bool>(), lattice in any::<bool>()) {
        let t = MTree::new(seed, players, 8, irregular);
        if lattice {
            let l = Lattice::new(seed, players);
            let (value, best) = paranoid_reference(&l, &(lattice_eval as LEval), depth);
            let r = Paranoid::new(lattice_eval as LEval).search(&l, &Limits::depth(depth));
            prop_assert_eq!(r.value, value);
            prop_assert!(best.contains(&r.best_move.expect("not decided")));
        } else {
            let (value, best) = paranoid_reference(&t, &(eval as Eval), depth);
            let r = Paranoid::new(eval as Eval).search(&t, &Limits::depth(depth));
            prop_assert_eq!(r.value, value, "{:?}", t);
            prop_assert!(best.contains(&r.best_move.expect("not decided")));
        }
    }

    #[test]
    fn brs_with_the_table_equals_plain_brs(seed in any::<u64>(), players in 2usize..=4, depth in 1u32..=5, irregular in any::<bool>(), plus in any::<bool>(), lattice in any::<bool>()) {
        let kind = if plus { BrsPlayers::Policy } else { BrsPlayers::Pass };
        if lattice {
            let l = Lattice::new(seed, players);
            let (value, best) = brs_reference(&l, &(lattice_eval as LEval), depth, kind);
            let s = if plus { Brs::plus(lattice_eval as LEval) } else { Brs::new(lattice_eval as LEval) };
            let r = s.with_table(true).search(&l, &Limits::depth(depth));
            prop_assert_eq!(r.value, value);
            prop_assert!(best.contains(&r.best_move.expect("not decided")));
        } else {
            let t = MTree::new(seed, players, 8, irregular);
            let (value, best) = brs_reference(&t, &(eval as Eval), depth, kind);
            let mut s = if plus { Brs::plus(eval as Eval) } else { Brs::new(eval as Eval) };
            let r = s.search(&t, &Limits::depth(depth));
            prop_assert_eq!(r.value, value, "{:?}", t);
            prop_assert!(best.contains(&r.best_move.expect("not decided")));
        }
    }

    #[test]
    fn mcts_visits_sum_to_iterations_and_repeat_for_a_seed(seed in any::<u64>(), players in 2usize..=4, iterations in 1u64..400, playout in 0u32..4, cap in prop::option::of(0usize..40)) {
        let t = MTree::new(seed, players, 8, true);
        let mut config = MctsConfig { playout_moves: playout, seed, ..MctsConfig::default() };
        if let Some(cap) = cap {
            config.max_tree_nodes = cap;
        }
        let a = Mcts::new(config, eval as Eval).search(&t, iterations, &Limits::default());
        prop_assert_eq!(a.iterations, iterations);
        prop_assert_eq!(a.visits.iter().map(|&(_, n)| n).sum::<u64>(), iterations);
        let total: f64 = a.value[..players].iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-9, "rewards sum to one: {:?}", a.value);
        let b = Mcts::new(config, eval as Eval).search(&t, iterations, &Limits::default());
        prop_assert_eq!(a, b);
    }
}

/// A game whose positions recur along many paths (so the table really cuts): every player
/// has a counter; a move adds 1, 2 or 3 to the mover's own counter or takes 1 from the
/// next player's (a pass adds nothing); the game ends once the counters sum to 12 or more,
/// the highest counter winning (a tie at the top: a draw). The position is the counters and
/// the turn, whatever the order of the moves that led there.
#[derive(Clone, Debug)]
struct Lattice {
    counts: [i32; MAX_PLAYERS],
    turn: usize,
    players: usize,
    salt: u64,
}

impl Lattice {
    fn new(seed: u64, players: usize) -> Lattice {
        let mut counts = [0; MAX_PLAYERS];
        for (p, c) in counts.iter_mut().enumerate().take(players) {
            *c = (mix(seed ^ p as u64) % 3) as i32;
        }
        Lattice {
            counts,
            turn: (seed % players as u64) as usize,
            players,
            salt: mix(seed),
        }
    }
}

impl MultiGame for Lattice {
    type Move = u8;
    type Undo = [i32; MAX_PLAYERS];
    type Moves = Vec<u8>;

    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> usize {
        self.turn
    }
    fn outcome(&self) -> Option<ScoreVector> {
        let c = &self.counts[..self.players];
        if c.iter().sum::<i32>() < 12 {
            return None;
        }
        let top = *c.iter().max().expect("players");
        let mut s = [0; MAX_PLAYERS];
        if c.iter().filter(|&&x| x == top).count() == 1 {
            for (p, v) in s.iter_mut().enumerate().take(self.players) {
                *v = if c[p] == top { 100 } else { -100 };
            }
        }
        Some(s)
    }
    fn generate(&self, moves: &mut Vec<u8>) {
        if self.outcome().is_none() {
            moves.extend(0..4);
        }
    }
    fn make(&mut self, mv: u8) -> [i32; MAX_PLAYERS] {
        let undo = self.counts;
        match mv {
            0 => self.counts[(self.turn + 1) % self.players] -= 1,
            n => self.counts[self.turn] += i32::from(n),
        }
        self.turn = (self.turn + 1) % self.players;
        undo
    }
    fn unmake(&mut self, _: u8, undo: [i32; MAX_PLAYERS]) {
        self.counts = undo;
        self.turn = (self.turn + self.players - 1) % self.players;
    }
    fn make_pass(&mut self) {
        self.turn = (self.turn + 1) % self.players;
    }
    fn unmake_pass(&mut self) {
        self.turn = (self.turn + self.players - 1) % self.players;
    }
    fn order(&self, mv: u8) -> i32 {
        (mix(self.salt ^ u64::from(mv)) % 2) as i32
    }
    fn hash(&self) -> Option<u64> {
        let mut h = mix(self.salt ^ self.turn as u64);
        for &c in &self.counts {
            h = mix(h ^ (c as u64 & 0xffff));
        }
        Some(h)
    }
    fn move_index(&self, mv: u8) -> Option<usize> {
        Some(usize::from(mv))
    }
}

/// Each player's counter minus the best other's.
fn lattice_eval(l: &Lattice) -> ScoreVector {
    let mut s = [0; MAX_PLAYERS];
    for (p, v) in s.iter_mut().enumerate().take(l.players) {
        let other = (0..l.players)
            .filter(|&q| q != p)
            .map(|q| l.counts[q])
            .max()
            .unwrap_or(0);
        *v = l.counts[p] - other;
    }
    s
}

type LEval = fn(&Lattice) -> ScoreVector;

/// The table cuts on `Lattice` (over 60 roots it searches fewer nodes than without) and
/// changes no value.
#[test]
fn the_table_saves_nodes_where_positions_recur() {
    let (mut paranoid, mut brs) = ([0u64; 2], [0u64; 2]);
    for seed in 0..20u64 {
        for players in 2..=4 {
            let l = Lattice::new(seed, players);
            let on = Paranoid::new(lattice_eval as LEval).search(&l, &Limits::depth(6));
            let off = Paranoid::new(lattice_eval as LEval)
                .with_table(false)
                .search(&l, &Limits::depth(6));
            assert_eq!(on.value, off.value);
            paranoid[0] += on.nodes;
            paranoid[1] += off.nodes;
            let on = Brs::plus(lattice_eval as LEval).search(&l, &Limits::depth(4));
            let off = Brs::plus(lattice_eval as LEval)
                .with_table(false)
                .search(&l, &Limits::depth(4));
            assert_eq!(on.value, off.value);
            brs[0] += on.nodes;
            brs[1] += off.nodes;
        }
    }
    assert!(paranoid[0] < paranoid[1], "paranoid {paranoid:?}");
    assert!(brs[0] < brs[1], "brs {brs:?}");
}

/// Roots of random trees whose moves include one that ends the game: `wins` says whether
/// the ending should be a win for the root player.
fn roots_with_ending(players: usize, wins: bool) -> Vec<(MTree, Vec<u16>)> {
    let mut found = Vec::new();
    for seed in 0..2000u64 {
        let mut t = MTree::new(seed, players, 8, false);
        let mut moves = Vec::new();
        t.generate(&mut moves);
        if moves.len() < 2 {
            continue;
        }
        let mut ending = Vec::new();
        for &m in &moves {
            let undo = t.make(m);
            if let Some(s) = t.outcome() {
                let top = s[..players].iter().max().copied();
                let win = s[0] == 100 && top == Some(100);
                let loss = s[0] == -100;
                if (wins && win) || (!wins && loss) {
                    ending.push(m);
                }
            }
            t.unmake(m, undo);
        }
        if !ending.is_empty() && ending.len() < moves.len() {
            found.push((t, ending));
        }
    }
    found
}

#[test]
fn every_search_takes_an_immediate_win() {
    for players in 2..=4 {
        let roots = roots_with_ending(players, true);
        assert!(roots.len() >= 5, "{players} players: {} roots", roots.len());
        for (t, wins) in roots {
            for iterations in [4, 50, 300] {
                let r = Mcts::new(MctsConfig::default(), eval as Eval).search(
                    &t,
                    iterations,
                    &Limits::default(),
                );
                let m = r.best_move.unwrap();
                assert!(wins.contains(&m), "MCTS {iterations}: {m} not in {wins:?}");
            }
            // Deeper iterations keep the win found at depth 1, though later wins score
            // the same: the best move so far is tried first and only a better one
            // replaces it.
            for depth in 1..=4 {
                let p = Paranoid::new(eval as Eval).search(&t, &Limits::depth(depth));
                assert!(wins.contains(&p.best_move.unwrap()), "paranoid {depth}");
                assert_eq!(p.value, 100);
                for mut s in [Brs::new(eval as Eval), Brs::plus(eval as Eval)] {
                    let b = s.search(&t, &Limits::depth(depth));
                    assert!(wins.contains(&b.best_move.unwrap()), "BRS {depth}");
                    assert_eq!(b.value, 100);
                }
            }
        }
    }
}

#[test]
fn mcts_avoids_a_proven_loss() {
    for players in 2..=4 {
        let roots = roots_with_ending(players, false);
        assert!(roots.len() >= 5, "{players} players: {} roots", roots.len());
        for (t, losses) in roots {
            for (iterations, playout) in [(10, 0), (200, 0), (200, 5)] {
                let config = MctsConfig {
                    playout_moves: playout,
                    ..MctsConfig::default()
                };
                let r = Mcts::new(config, eval as Eval).search(&t, iterations, &Limits::default());
                let m = r.best_move.unwrap();
                assert!(
                    !losses.contains(&m),
                    "MCTS {iterations}: {m} loses ({losses:?})"
                );
            }
        }
    }
}

#[test]
fn a_decided_position_has_no_move() {
    let mut t = MTree::new(3, 3, 0, false);
    assert!(t.outcome().is_some());
    let p = Paranoid::new(eval as Eval).search(&t, &Limits::depth(3));
    assert_eq!((p.best_move, p.depth, p.nodes), (None, 0, 0));
    assert_eq!(p.value, t.outcome().unwrap()[0]);
    assert_eq!(
        Brs::new(eval as Eval)
            .search(&t, &Limits::depth(3))
            .best_move,
        None
    );
    let m = Mcts::new(MctsConfig::default(), eval as Eval).search(&t, 100, &Limits::default());
    assert_eq!((m.best_move, m.iterations, m.visits.len()), (None, 0, 0));
    t.max_depth = 5;
    assert!(t.outcome().is_none());
}

#[test]
fn node_budgets_are_kept_and_still_give_a_legal_move() {
    for seed in 0..50 {
        let t = MTree::new(seed, 4, 12, true);
        let mut moves = Vec::new();
        t.generate(&mut moves);
        for nodes in [0, 1, 5, 40, 300] {
            let p = Paranoid::new(eval as Eval).search(&t, &Limits::nodes(nodes));
            assert!(p.nodes <= nodes, "paranoid {} > {nodes}", p.nodes);
            assert!(moves.contains(&p.best_move.unwrap()));
            for mut b in [Brs::new(eval as Eval), Brs::plus(eval as Eval)] {
                let r = b.search(&t, &Limits::nodes(nodes));
                assert!(r.nodes <= nodes, "BRS {} > {nodes}", r.nodes);
                assert!(moves.contains(&r.best_move.unwrap()));
            }
        }
        // A budget that lets depth 1 finish: its answer is the depth-1 answer.
        let (v1, best1) = paranoid_reference(&t, &(eval as Eval), 1);
        let p = Paranoid::new(eval as Eval).search(&t, &Limits::nodes(moves.len() as u64));
        assert_eq!((p.depth, p.value), (1, v1));
        assert!(best1.contains(&p.best_move.unwrap()));
    }
}

#[test]
fn a_raised_stop_flag_ends_the_search_after_depth_one() {
    let t = MTree::new(7, 3, 30, false);
    let stop = Arc::new(AtomicBool::new(true));
    let limits = Limits::default().with_stop(stop);
    let p = Paranoid::new(eval as Eval).search(&t, &limits);
    assert!(p.depth <= 1, "{}", p.depth);
    let m = Mcts::new(MctsConfig::default(), eval as Eval).search(&t, 10_000, &limits);
    assert!(m.iterations < 10_000);
    assert_eq!(m.visits.iter().map(|&(_, n)| n).sum::<u64>(), m.iterations);
}

#[test]
fn iterative_deepening_stops_once_the_tree_is_solved() {
    // A tree of at most 3 plies: a search without a depth limit ends by itself, with the
    // exact value.
    for seed in 0..30 {
        let t = MTree::new(seed, 3, 3, false);
        let (v, _) = paranoid_reference(&t, &(eval as Eval), 3);
        let p = Paranoid::new(eval as Eval).search(&t, &Limits::default());
        assert_eq!(p.value, v);
        assert!(p.depth <= 4);
        let (v, _) = brs_reference(&t, &(eval as Eval), 3, BrsPlayers::Pass);
        let b = Brs::new(eval as Eval).search(&t, &Limits::default());
        assert_eq!(b.value, v, "seed {seed}");
    }
}

#[test]
fn two_player_paranoid_is_minimax() {
    // With two players paranoid search is plain minimax of the root player's score; BRS
    // with one opponent is the same search.
    for seed in 0..200 {
        let t = MTree::new(seed, 2, 7, false);
        for depth in 1..=4 {
            let p = Paranoid::new(eval as Eval).search(&t, &Limits::depth(depth));
            let b = Brs::new(eval as Eval).search(&t, &Limits::depth(depth));
            assert_eq!(p.value, b.value, "seed {seed} depth {depth}");
        }
    }
}

#[test]
fn mcts_without_iterations_answers_the_first_ordered_move() {
    for seed in 0..50 {
        let t = MTree::new(seed, 3, 8, false);
        let r = Mcts::new(MctsConfig::default(), eval as Eval).search(&t, 0, &Limits::default());
        let mut moves = Vec::new();
        t.generate(&mut moves);
        let first = *moves
            .iter()
            .rev()
            .max_by_key(|&&m| t.order(m))
            .expect("the root is not decided");
        assert_eq!(r.best_move, Some(first), "seed {seed}");
        assert_eq!(r.iterations, 0);
        assert_eq!(r.visits.len(), moves.len());
        assert!(r.visits.iter().all(|&(_, n)| n == 0));
    }
}

#[test]
fn a_full_mcts_tree_stops_growing_and_keeps_searching() {
    // With room for the root and its children only, every iteration ends at a root move,
    // scored again each time.
    for seed in 0..100 {
        let t = MTree::new(seed, 3, 8, false);
        let mut moves = Vec::new();
        t.generate(&mut moves);
        let config = MctsConfig {
            max_tree_nodes: 1 + moves.len(),
            ..MctsConfig::default()
        };
        let r = Mcts::new(config, eval as Eval).search(&t, 300, &Limits::default());
        assert_eq!(r.iterations, 300);
        assert_eq!(r.visits.iter().map(|&(_, n)| n).sum::<u64>(), 300);
        assert!(moves.contains(&r.best_move.unwrap()));
    }
}

/// The two-player toy tree of the two-sided tests, seen as a game of two players with a
/// score each: a win scores 100 for the winner and -100 for the loser, a draw 0, and the
/// evaluation gives the side to move the tree's value and the other its negation.
#[derive(Clone, Debug)]
struct TwoSided(crate::common::Tree);

impl MultiGame for TwoSided {
    type Move = u16;
    type Undo = ();
    type Moves = Vec<u16>;
    fn players(&self) -> usize {
        2
    }
    fn to_move(&self) -> usize {
        self.0.side.index()
    }
    fn outcome(&self) -> Option<ScoreVector> {
        use ploy_search::{SearchGame, Terminal};
        self.0.terminal().map(|t| match t {
            Terminal::Win(s) => {
                let mut v = [-100; MAX_PLAYERS];
                v[s.index()] = 100;
                v
            }
            Terminal::Draw => [0; MAX_PLAYERS],
        })
    }
    fn generate(&self, moves: &mut Vec<u16>) {
        ploy_search::SearchGame::generate(&self.0, moves);
    }
    fn make(&mut self, mv: u16) {
        ploy_search::SearchGame::make(&mut self.0, mv);
    }
    fn unmake(&mut self, mv: u16, (): ()) {
        ploy_search::SearchGame::unmake(&mut self.0, mv, ());
    }
    fn make_pass(&mut self) {
        self.0.side = self.0.side.other();
    }
    fn unmake_pass(&mut self) {
        self.0.side = self.0.side.other();
    }
}

fn two_sided_eval(t: &TwoSided) -> ScoreVector {
    let mut v = [0; MAX_PLAYERS];
    let me = t.0.side.index();
    v[me] = t.0.eval();
    v[1 - me] = -t.0.eval();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// With two players, paranoid search and BRS are the two-sided search: their value is
    /// plain negamax's with every win counted as 100 and every loss as -100 (a monotone
    /// map of the values, which minimax commutes with), also where a side moves twice.
    #[test]
    fn two_players_agree_with_negamax(seed in any::<u64>(), depth in 1u32..=5, double in any::<bool>()) {
        let tree = crate::common::Tree::new(seed, 7, double);
        let (score, _) = ploy_search::negamax(&tree, &(|t: &crate::common::Tree| t.eval()), &[], depth, None);
        let expected = if score.is_win() {
            100
        } else if score.is_loss() {
            -100
        } else {
            i32::from(score.raw())
        };
        let t = TwoSided(tree);
        let e = two_sided_eval as fn(&TwoSided) -> ScoreVector;
        prop_assert_eq!(Paranoid::new(e).search(&t, &Limits::depth(depth)).value, expected);
        prop_assert_eq!(Brs::new(e).search(&t, &Limits::depth(depth)).value, expected);
        prop_assert_eq!(Brs::plus(e).search(&t, &Limits::depth(depth)).value, expected);
    }
}
