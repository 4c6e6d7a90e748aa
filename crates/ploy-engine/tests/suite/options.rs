//! Search options: only some root moves (`searchmoves`), several best lines (MultiPV), a
//! search for a forced win (`go mate`), pondering. Checked against plain negamax on a game
//! whose root offers only the allowed moves.

use crate::common::*;
use ploy_engine::{EvalPosition, Evaluation};
use ploy_search::{
    Clock, Config, Evaluator, Limits, MoveBuffer, SearchGame, SearchOptions, Searcher, Side,
    Terminal, negamax,
};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

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
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn ploy_positions(seed in any::<u64>(), plies in 0u32..60, depth in 1u32..=2, pick in any::<u64>(), lines in 1usize..=3) {
        let pos = EvalPosition::new(random_playout(seed, plies));
        check(&pos, &Evaluation::default(), depth, Some(2), pick, lines);
    }
}

struct FakeClock {
    nanos: Arc<AtomicU64>,
    step: u64,
}

impl Clock for FakeClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.fetch_add(self.step, Ordering::Relaxed))
    }
}

#[test]
fn pondering_holds_the_clock_until_the_flag() {
    let pos = EvalPosition::new(random_playout(7, 10));
    // Every reading of the clock advances it by 1 ms; the budget is 5 ms.
    let searcher = || {
        let mut s = Searcher::new(exact(Some(4)), Evaluation::default());
        s.set_clock(FakeClock {
            nanos: Arc::default(),
            step: 1_000_000,
        });
        s
    };
    let limits = Limits {
        depth: Some(4),
        ..Limits::move_time(Duration::from_millis(5))
    };
    // Without pondering the budget cuts the search short.
    let r = searcher().search(&pos, &[], &limits, |_| {});
    assert!(r.depth < 4, "{r:?}");
    // Pondering (the flag down): the clock does not count, the depth is reached.
    let flag = Arc::new(AtomicBool::new(false));
    let options = SearchOptions::default().with_ponder(flag.clone());
    let r = searcher().search_with(&pos, &[], &limits, &options, |_| {});
    assert_eq!(r.depth, 4);
    assert!(!r.interrupted);
    // The flag raised: the budget counts again.
    flag.store(true, Ordering::Relaxed);
    let r = searcher().search_with(&pos, &[], &limits, &options, |_| {});
    assert!(r.depth < 4, "{r:?}");
}

#[test]
fn only_the_given_root_moves_even_when_cut_short() {
    let pos = EvalPosition::new(random_playout(11, 6));
    let moves = legal(&pos);
    let only = vec![moves[moves.len() - 1]];
    let options = SearchOptions::default().with_root_moves(only.clone());
    let mut s = Searcher::new(Config::default(), Evaluation::default());
    // No node at all: the fallback move is the allowed one.
    let r = s.search_with(&pos, &[], &Limits::nodes(0), &options, |_| {});
    assert_eq!(r.best_move, Some(only[0]));
    let r = s.search_with(&pos, &[], &Limits::depth(3), &options, |_| {});
    assert_eq!(r.best_move, Some(only[0]));
    // An illegal move only: every move is searched.
    let bogus = SearchOptions::default().with_root_moves(vec![ploy_core::Move::new(
        ploy_core::Square::from_index(40).unwrap(),
        ploy_core::Square::from_index(0).unwrap(),
        0,
    )]);
    let r = s.search_with(&pos, &[], &Limits::depth(2), &bogus, |_| {});
    assert!(r.best_move.is_some_and(|m| moves.contains(&m)));
}
