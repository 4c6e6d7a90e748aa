//! Searches with several threads (Lazy SMP): exact values where the whole game is searched,
//! on the toy games (ploy-engine's tests hold the rest on Ploy positions).

use crate::common::*;
use ploy_search::{Config, Evaluator, Limits, SearchGame, Searcher, negamax};
use proptest::prelude::*;

fn threads(config: Config, n: usize) -> Config {
    Config {
        threads: n,
        ..config
    }
}

/// With every exact configuration and several threads, a search as deep as the whole game
/// returns the game's value and one of its best moves: every table entry any thread wrote
/// then holds exact values, whatever depth it was searched to.
fn check_solved<G, E>(pos: &G, eval: &E, depth: u32, n: usize)
where
    G: SearchGame + Clone + Send + std::fmt::Debug,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    let (value, best) = negamax(pos, eval, &[], depth, None);
    for (name, config) in exact_configs(None) {
        let mut s = Searcher::new(threads(config, n), eval.clone());
        for round in 0..2 {
            let r = s.search(pos, &[], &Limits::depth(depth), |_| {});
            assert_eq!(
                r.score, value,
                "{name} {n} threads round {round} on {pos:?}"
            );
            match r.best_move {
                Some(m) => assert!(best.contains(&m), "{name}: {m:?} not among {best:?}"),
                None => assert!(best.is_empty(), "{name}: no move on {pos:?}"),
            }
        }
    }
}

fn tree_eval(t: &Tree) -> i32 {
    t.eval()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn solved_trees(seed in any::<u64>(), double in any::<bool>(), n in 2usize..=4) {
        // Height 6: a search of depth 6 or more sees every leaf.
        let t = Tree::new(seed, 6, double);
        check_solved(&t, &(tree_eval as fn(&Tree) -> i32), 6 + (seed % 3) as u32, n);
    }
}

#[test]
fn solved_nim_and_tic_tac_toe() {
    let zero = |_: &Nim| 0;
    for heaps in [vec![1, 2, 3], vec![3, 4, 5], vec![2, 2, 5]] {
        let nim = Nim {
            heaps,
            side: ploy_search::Side::FIRST,
        };
        let plies = nim.heaps.iter().map(|&h| u32::from(h)).sum();
        check_solved(&nim, &zero, plies, 2);
    }
    check_solved(&TicTacToe::default(), &|_: &TicTacToe| 0, 9, 3);
}
