//! Every exact configuration of the search returns plain negamax's value, and one of its
//! best moves, on toy games (ploy-engine holds it on Ploy positions).

use crate::common::*;
use ploy_search::{Config, Evaluator, Limits, SearchGame, Searcher, negamax};
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

fn tree_eval(t: &Tree) -> i32 {
    t.eval()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_trees(seed in any::<u64>(), depth in 1u32..=5, double in any::<bool>(), q in prop::option::of(0u8..3)) {
        let t = Tree::new(seed, 7, double);
        check(&t, &(tree_eval as fn(&Tree) -> i32), depth, q);
    }
}

#[test]
fn nim_is_solved() {
    for heaps in [
        vec![1, 2, 3],
        vec![3, 4, 5],
        vec![2, 2],
        vec![1, 4, 2],
        vec![5, 3],
    ] {
        let nim = Nim {
            heaps: heaps.clone(),
            side: ploy_search::Side::FIRST,
        };
        let stones: u32 = heaps.iter().map(|&h| u32::from(h)).sum();
        let zero = |_: &Nim| 0;
        let (value, _) = negamax(&nim, &zero, &[], stones, None);
        let xor = heaps.iter().fold(0, |a, &h| a ^ h);
        assert_eq!(value.is_win(), xor != 0, "{heaps:?} {value:?}");
        assert_eq!(value.is_loss(), xor == 0, "{heaps:?} {value:?}");
        for (name, config) in exact_configs(None) {
            let mut s = Searcher::new(config, zero);
            let r = s.search(&nim, &[], &Limits::depth(stones), |_| {});
            assert_eq!(r.score, value, "{name} {heaps:?}");
        }
    }
}

#[test]
fn tic_tac_toe_is_a_draw() {
    let zero = |_: &TicTacToe| 0;
    let t = TicTacToe::default();
    for (name, config) in exact_configs(None) {
        if name == "plain" || name.contains("no-table") {
            continue; // fine but slow without a table
        }
        let mut s = Searcher::new(config, zero);
        let r = s.search(&t, &[], &Limits::depth(9), |_| {});
        assert_eq!(r.score, ploy_search::Score::DRAW, "{name}");
    }
    // X on 0 and 4, O on 1 and 8, X to move: a forced win.
    let mut t = TicTacToe::default();
    for mv in [0, 1, 4, 8] {
        t.make(mv);
    }
    check(&t, &zero, 5, None);
    let (v, _) = negamax(&t, &zero, &[], 5, None);
    assert!(v.is_win(), "{v:?}");
    let _ = Config::default();
}
