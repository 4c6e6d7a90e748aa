//! Search options: only some root moves (`searchmoves`), several best lines (MultiPV), a
//! search for a forced win (`go mate`), pondering. Checked against plain negamax on a game
//! whose root offers only the allowed moves.

use crate::common::*;
use ploy_search::{
    Config, Evaluator, Limits, MoveBuffer, SearchGame, SearchOptions, Searcher, Side, Terminal,
    negamax,
};
use proptest::prelude::*;

/// `G` whose root offers only the moves in `allowed` (codes); deeper nodes are unchanged.
#[derive(Clone, Debug)]
struct Restricted<G> {
    g: G,
    allowed: Vec<u16>,
    ply: usize,
}

impl<G: SearchGame> SearchGame for Restricted<G> {
    type Move = G::Move;
    type Undo = G::Undo;
    type Moves = G::Moves;

    fn side(&self) -> Side {
        self.g.side()
    }
    fn hash(&self) -> u64 {
        self.g.hash()
    }
    fn terminal(&self) -> Option<Terminal> {
        self.g.terminal()
    }
    fn generate(&self, moves: &mut G::Moves) {
        self.g.generate(moves);
        if self.ply == 0 {
            let kept: Vec<G::Move> = moves
                .iter()
                .copied()
                .filter(|&m| self.allowed.contains(&G::move_to_u16(m)))
                .collect();
            moves.clear();
            for m in kept {
                moves.push(m);
            }
        }
    }
    fn generate_captures(&self, moves: &mut G::Moves) {
        self.g.generate_captures(moves);
        if self.ply == 0 {
            let kept: Vec<G::Move> = moves
                .iter()
                .copied()
                .filter(|&m| self.allowed.contains(&G::move_to_u16(m)))
                .collect();
            moves.clear();
            for m in kept {
                moves.push(m);
            }
        }
    }
    fn is_legal(&self, mv: G::Move) -> bool {
        self.g.is_legal(mv) && (self.ply > 0 || self.allowed.contains(&G::move_to_u16(mv)))
    }
    fn is_capture(&self, mv: G::Move) -> bool {
        self.g.is_capture(mv)
    }
    fn capture_order(&self, mv: G::Move) -> i32 {
        self.g.capture_order(mv)
    }
    fn make(&mut self, mv: G::Move) -> G::Undo {
        self.ply += 1;
        self.g.make(mv)
    }
    fn unmake(&mut self, mv: G::Move, undo: G::Undo) {
        self.ply -= 1;
        self.g.unmake(mv, undo);
    }
    fn move_to_u16(mv: G::Move) -> u16 {
        G::move_to_u16(mv)
    }
    fn move_from_u16(code: u16) -> Option<G::Move> {
        G::move_from_u16(code)
    }
}

#[derive(Clone)]
struct Lift<E>(E);

impl<G, E: Evaluator<G>> Evaluator<Restricted<G>> for Lift<E> {
    fn evaluate(&self, g: &Restricted<G>) -> i32 {
        self.0.evaluate(&g.g)
    }
}

fn legal<G: SearchGame>(g: &G) -> Vec<G::Move> {
    let mut moves = G::Moves::default();
    g.generate(&mut moves);
    moves.to_vec()
}

fn exact(q: Option<u8>) -> Config {
    Config {
        table_bytes: 1 << 16,
        quiescence: q.is_some(),
        max_quiescence: q.unwrap_or(0),
        // Every depth asked for, even after a proven result.
        stop_at_proven_result: false,
        ..Config::exact()
    }
}

/// Searches `pos` with only the moves picked by `pick` and with `lines` lines, and checks
/// each line against negamax over the allowed moves the better lines did not take.
fn check<G, E>(pos: &G, eval: &E, depth: u32, q: Option<u8>, pick: u64, lines: usize)
where
    G: SearchGame + Clone + Send + std::fmt::Debug,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    let moves = legal(pos);
    if moves.is_empty() {
        return;
    }
    let chosen: Vec<G::Move> = moves
        .iter()
        .enumerate()
        .filter(|(i, _)| pick >> (i % 64) & 1 == 1)
        .map(|(_, &m)| m)
        .collect();
    let allowed = if chosen.is_empty() {
        moves.clone()
    } else {
        chosen.clone()
    };
    let options = SearchOptions::default()
        .with_root_moves(chosen)
        .with_lines(lines);
    let mut s = Searcher::new(exact(q), eval.clone());
    let mut last = Vec::new();
    let r = s.search_with(pos, &[], &Limits::depth(depth), &options, |info| {
        if info.depth == depth {
            last.push((info.multipv, info.score, info.best_move, info.pv.to_vec()));
        }
    });
    let expected = lines.min(allowed.len());
    assert_eq!(last.len(), expected, "{pos:?}");
    let mut taken: Vec<u16> = Vec::new();
    for (k, (multipv, score, best, pv)) in last.iter().enumerate() {
        assert_eq!(*multipv, (expected > 1).then_some(k as u32 + 1));
        let best = best.expect("a move");
        assert_eq!(pv.first(), Some(&best));
        let rest: Vec<u16> = allowed
            .iter()
            .map(|&m| G::move_to_u16(m))
            .filter(|c| !taken.contains(c))
            .collect();
        let root = Restricted {
            g: pos.clone(),
            allowed: rest,
            ply: 0,
        };
        let (value, best_moves) = negamax(&root, &Lift(eval.clone()), &[], depth, q);
        assert_eq!(*score, value, "line {} depth {depth} on {pos:?}", k + 1);
        assert!(
            best_moves.contains(&best),
            "line {}: {best:?} not among {best_moves:?}",
            k + 1
        );
        taken.push(G::move_to_u16(best));
    }
    assert_eq!(r.best_move, last[0].2);
    assert_eq!(r.score, last[0].1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn toy_trees(seed in any::<u64>(), depth in 1u32..=4, double in any::<bool>(), q in prop::option::of(0u8..3), pick in any::<u64>(), lines in 1usize..=4) {
        let t = Tree::new(seed, 6, double);
        check(&t, &(|t: &Tree| t.eval()), depth, q, pick, lines);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A mate search finds a forced win within its plies exactly when negamax does.
    #[test]
    fn mate_search(seed in any::<u64>(), plies in 1u32..=5, double in any::<bool>()) {
        let t = Tree::new(seed, 7, double);
        let eval = |t: &Tree| t.eval();
        let (value, wins) = negamax(&t, &eval, &[], plies, None);
        let win = value.is_win() && value.plies_to_result().is_some_and(|p| p <= plies);
        // A config that would stop on nothing but the mate rule, with reductions asked for
        // (the mate search turns them off).
        let config = Config {
            table_bytes: 1 << 16,
            quiescence: false,
            max_quiescence: 0,
            stop_at_proven_result: false,
            ..Config::default()
        };
        let mut s = Searcher::new(config, eval);
        let mut depths = Vec::new();
        let r = s.search_with(&t, &[], &Limits::default(), &SearchOptions::default().with_mate_plies(plies), |i| depths.push(i.depth));
        prop_assert!(r.depth <= plies);
        if win {
            prop_assert!(r.score.is_win(), "{:?} vs {:?}", r.score, value);
            prop_assert!(r.score.plies_to_result().unwrap() <= plies);
            prop_assert!(wins.contains(&r.best_move.unwrap()) || r.score == value);
        } else {
            prop_assert!(!r.score.is_win(), "{:?}: negamax {:?}", r.score, value);
            prop_assert_eq!(r.depth, plies.min(depths.len() as u32));
        }
    }
}
