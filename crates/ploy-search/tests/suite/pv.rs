//! The principal variation of every iteration is collected during the search: a legal line
//! from the root that starts with the iteration's best move and is no longer than the
//! iteration's depth plus the quiescence plies; in a plain full-window search it leads to a
//! leaf whose value is the root's score.

use crate::common::*;
use ploy_search::{Config, Driver, Evaluator, Limits, Score, SearchGame, Searcher, Terminal};
use proptest::prelude::*;

fn configs() -> Vec<(&'static str, Config)> {
    let small = Config {
        table_bytes: 1 << 16,
        ..Config::default()
    };
    vec![
        ("default", small.clone()),
        (
            "exact",
            Config {
                table_bytes: 1 << 16,
                ..Config::exact()
            },
        ),
        (
            "alphabeta",
            Config {
                driver: Driver::AlphaBeta,
                ..small.clone()
            },
        ),
        (
            "tiny-table",
            Config {
                table_bytes: 64,
                ..small
            },
        ),
        ("plain", Config::plain()),
    ]
}

/// Searches `pos` to `depth` with every configuration and checks every info line's line.
fn check_lines<G, E>(pos: &G, eval: &E, depth: u32)
where
    G: SearchGame + Clone + Send + std::fmt::Debug,
    G::Move: Send,
    G::Moves: Send,
    E: Evaluator<G> + Clone + Send,
{
    for (name, config) in configs() {
        let bound = |d: u32| d as usize + usize::from(config.max_quiescence);
        let mut s = Searcher::new(config.clone(), eval.clone());
        let mut lines = Vec::new();
        let r = s.search(pos, &[], &Limits::depth(depth), |info| {
            lines.push((info.depth, info.best_move, info.pv.to_vec()));
        });
        for (d, best, pv) in &lines {
            assert!(!pv.is_empty(), "{name} depth {d}: an empty line on {pos:?}");
            assert_eq!(Some(pv[0]), *best, "{name} depth {d}: {pv:?} on {pos:?}");
            assert!(
                pv.len() <= bound(*d),
                "{name} depth {d}: {} moves: {pv:?}",
                pv.len()
            );
            let mut g = pos.clone();
            for (i, &m) in pv.iter().enumerate() {
                assert!(
                    g.terminal().is_none() && g.is_legal(m),
                    "{name} depth {d}: move {i} of {pv:?} is not legal on {pos:?}"
                );
                g.make(m);
            }
        }
        if let Some((_, _, last)) = lines.last() {
            assert_eq!(&r.pv, last, "{name}");
        }
    }
}

/// The value, for the side to move at the root, of the position at the end of `pv`.
fn leaf_value(root: &Tree, pv: &[u16]) -> i32 {
    let mut g = root.clone();
    for &m in pv {
        g.make(m);
    }
    let ply = pv.len() as i32;
    let own = |v: i32| if g.side() == root.side() { v } else { -v };
    match g.terminal() {
        Some(Terminal::Draw) => 0,
        Some(Terminal::Win(s)) if s == root.side() => i32::from(Score::MATE) - ply,
        Some(Terminal::Win(_)) => -(i32::from(Score::MATE) - ply),
        None => own(g.eval()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn toy_trees(seed in any::<u64>(), depth in 1u32..=5, double in any::<bool>()) {
        let t = Tree::new(seed, 7, double);
        let eval = |t: &Tree| t.eval();
        check_lines(&t, &eval, depth);
    }

    #[test]
    fn plain_lines_lead_to_the_score(seed in any::<u64>(), depth in 1u32..=5, double in any::<bool>()) {
        // Full window, no table, no quiescence: every node on the line is exact.
        let t = Tree::new(seed, 7, double);
        if t.terminal().is_none() {
            let mut s = Searcher::new(Config::plain(), |t: &Tree| t.eval());
            let r = s.search(&t, &[], &Limits::depth(depth), |_| {});
            prop_assert_eq!(leaf_value(&t, &r.pv), i32::from(r.score.raw()), "{:?}", r.pv);
        }
    }
}
