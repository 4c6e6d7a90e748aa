//! Every exact configuration of the search returns plain negamax's value, and one of its
//! best moves, on toy games and on Ploy positions.

use crate::common::*;
use ploy_core::Position;
use ploy_engine::{EvalPosition, Evaluation, PlainPosition, SearchMoves};
use ploy_search::{Evaluator, Limits, SearchGame, Searcher, negamax};
use proptest::prelude::*;

/// Checks every exact configuration against negamax on `pos` at `depth`.
fn check<G, E>(pos: &G, eval: &E, depth: u32, quiescence: Option<u8>)
where
    G: SearchGame + Clone + Send + std::fmt::Debug,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    let (value, best) = negamax(pos, eval, &[], depth, quiescence);
    for (name, config) in exact_configs(quiescence) {
        let mut s = Searcher::new(config, eval.clone());
        let r = s.search(pos, &[], &Limits::depth(depth), |_| {});
        assert_eq!(
            r.score, value,
            "{name} depth {depth} q {quiescence:?} on {pos:?}"
        );
        match r.best_move {
            Some(m) => assert!(
                best.contains(&m),
                "{name}: {m:?} not among {best:?} on {pos:?}"
            ),
            None => assert!(best.is_empty(), "{name}: no move on {pos:?}"),
        }
    }
}

/// Material only, in whole pieces: many ties.
fn coarse(pos: &EvalPosition) -> i32 {
    coarse_position(&PlainPosition(pos.position().clone()))
}

fn coarse_position(pos: &PlainPosition) -> i32 {
    let b = pos.board();
    let me = pos.turn();
    let mut v = 0;
    for seat in [ploy_core::Seat::Green, ploy_core::Seat::Red] {
        let n = b.count_colour(seat) as i32;
        v += if seat == me { n } else { -n };
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn ploy_playouts_depth_1_2(seed in any::<u64>(), plies in 0u32..80, depth in 1u32..=2, quiescence in any::<bool>()) {
        let pos = EvalPosition::new(random_playout(seed, plies));
        let q = quiescence.then_some(2);
        check(&pos, &(coarse as fn(&EvalPosition) -> i32), depth, q);
        check(&pos, &Evaluation::default(), depth, q);
    }

    #[test]
    fn ploy_sparse_depth_1_3(seed in any::<u64>(), depth in 1u32..=3, quiescence in any::<bool>()) {
        let pos = random_sparse(seed, 3);
        let q = quiescence.then_some(3);
        check(&EvalPosition::new(pos.clone()), &(coarse as fn(&EvalPosition) -> i32), depth, q);
        check(&EvalPosition::new(pos.clone()), &Evaluation::default(), depth, q);
        check(&PlainPosition(pos), &(coarse_position as fn(&PlainPosition) -> i32), depth, q);
    }

    #[test]
    fn eval_position_tracks_match_scratch(seed in any::<u64>(), plies in 0u32..120) {
        // Play a random game on an EvalPosition and compare its incremental evaluation and
        // captures with the plain position's at every step, then unwind it.
        let eval = Evaluation::default();
        let mut pos = EvalPosition::new(Position::new());
        let mut s = seed;
        let mut made = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            s = mix(s);
            let mv = moves[(s >> 8) as usize % moves.len()];
            made.push((mv, pos.make(mv)));
            prop_assert_eq!(eval.evaluate(&pos), eval.evaluate(pos.position()));
            let (mut a, mut b) = (SearchMoves::default(), SearchMoves::default());
            pos.generate_captures(&mut a);
            SearchGame::generate_captures(&PlainPosition(pos.position().clone()), &mut b);
            let (mut a, mut b) = (a.to_vec(), b.to_vec());
            a.sort();
            b.sort();
            prop_assert_eq!(a, b);
        }
        while let Some((mv, undo)) = made.pop() {
            pos.unmake(mv, undo);
            prop_assert_eq!(eval.evaluate(&pos), eval.evaluate(pos.position()));
        }
        prop_assert_eq!(pos.position(), &Position::new());
    }
}
