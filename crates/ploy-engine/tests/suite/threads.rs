//! Searches with several threads (Lazy SMP): exact values where the whole game is searched,
//! legal moves and lines and sound scores on Ploy positions, node budgets over all threads,
//! stopping, and the thread count changed on a searcher that keeps its table.

use crate::common::*;
use ploy_core::{Game, Rules, Variant};
use ploy_engine::{Engine, EvalPosition, Evaluation, bench_positions};
use ploy_search::{
    Config, Limits, POLL_INTERVAL, Score, SearchGame, SearchOptions, SearchResult, Searcher,
};
use proptest::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn threads(config: Config, n: usize) -> Config {
    Config {
        threads: n,
        ..config
    }
}

/// The checks a search of Ploy position `pos` with several threads must pass.
fn check_ploy(pos: &EvalPosition, r: &SearchResult<ploy_core::Move>, depth: u32, what: &str) {
    let best = r.best_move.expect("positions with moves");
    assert!(pos.is_legal(best), "{what}: illegal {best:?}");
    // The search deepens to `depth` unless it proved a result on the way.
    let proven = r.score.plies_to_result().is_some_and(|p| p <= r.depth);
    assert!(
        r.depth == depth || (r.depth < depth && proven),
        "{what}: depth {} of {depth}, score {}",
        r.depth,
        r.score
    );
    assert!(!r.interrupted, "{what}");
    assert_eq!(r.pv.first(), Some(&best), "{what}");
    let mut g = pos.clone();
    for &m in &r.pv {
        assert!(g.is_legal(m), "{what}: pv {:?}", r.pv);
        g.make(m);
    }
    // A score is an evaluation, or a win or loss no further than the line searched.
    let raw = r.score.raw();
    let max_plies = depth + u32::from(Config::default().max_quiescence);
    assert!(
        raw.abs() <= Score::EVAL_MAX || r.score.plies_to_result().is_some_and(|p| p <= max_plies),
        "{what}: score {}",
        r.score
    );
}

#[test]
fn ploy_bench_positions_two_and_three_threads() {
    for (i, pos) in bench_positions().into_iter().enumerate() {
        let pos = EvalPosition::new(pos);
        for (n, depth) in [(2, 4), (3, 3)] {
            let config = Config {
                table_bytes: 1 << 20,
                ..threads(Config::default(), n)
            };
            let mut s = Searcher::new(config, Evaluation::default());
            let mut seen = Vec::new();
            let r = s.search(&pos, &[], &Limits::depth(depth), |info| {
                seen.push((info.depth, info.nodes));
            });
            check_ploy(&pos, &r, depth, &format!("position {i}, {n} threads"));
            // The main thread reports every iteration, with counts that only grow and
            // stay within the total.
            assert_eq!(
                seen.iter().map(|s| s.0).collect::<Vec<_>>(),
                (1..=depth).collect::<Vec<_>>()
            );
            assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1), "{seen:?}");
            assert!(seen.last().unwrap().1 <= r.nodes);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn ploy_playouts_two_threads(seed in any::<u64>(), plies in 0u32..120, depth in 1u32..=4) {
        let pos = EvalPosition::new(random_playout(seed, plies));
        prop_assume!(pos.terminal().is_none());
        let config = Config { table_bytes: 1 << 18, ..threads(Config::default(), 2) };
        let mut s = Searcher::new(config, Evaluation::default());
        let r = s.search(&pos, &[], &Limits::depth(depth), |_| {});
        check_ploy(&pos, &r, depth, &format!("seed {seed} plies {plies}"));
    }

    #[test]
    fn ploy_sparse_exact_two_threads(seed in any::<u64>(), depth in 1u32..=3) {
        // Exact search: a forced result one thread proves, two prove as well.
        let pos = EvalPosition::new(random_sparse(seed, 3));
        prop_assume!(pos.terminal().is_none());
        let one = Searcher::new(Config::exact(), Evaluation::default())
            .search(&pos, &[], &Limits::depth(depth), |_| {});
        let r = Searcher::new(threads(Config::exact(), 2), Evaluation::default())
            .search(&pos, &[], &Limits::depth(depth), |_| {});
        check_ploy(&pos, &r, r.depth, "sparse");
        if one.score.is_win() || one.score.is_loss() {
            prop_assert!(r.score.is_win() == one.score.is_win(), "{} vs {}", r.score, one.score);
        }
    }
}

#[test]
fn a_node_budget_bounds_the_sum_over_threads() {
    let pos = EvalPosition::new(ploy_core::Position::new());
    for n in [2, 3] {
        for budget in [1, 500, 5_000, 60_000] {
            let mut s = Searcher::new(threads(Config::default(), n), Evaluation::default());
            let mut last = 0;
            let r = s.search(&pos, &[], &Limits::nodes(budget), |info| last = info.nodes);
            assert!(r.nodes <= budget, "{n} threads: {} > {budget}", r.nodes);
            assert!(last <= r.nodes);
            assert!(pos.is_legal(r.best_move.unwrap()));
            assert!(r.interrupted);
            // The threads stop only when the budget is spent, but for what each had taken
            // and not used.
            assert!(
                r.nodes + n as u64 * POLL_INTERVAL >= budget,
                "{n} threads: {} of {budget}",
                r.nodes
            );
        }
    }
}

#[test]
fn the_stop_flag_and_time_end_a_search_with_helpers() {
    let pos = EvalPosition::new(ploy_core::Position::new());
    let mut s = Searcher::new(threads(Config::default(), 2), Evaluation::default());
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
    });
    let r = s.search(&pos, &[], &Limits::default().with_stop(stop), |_| {});
    raiser.join().unwrap();
    assert!(r.interrupted && pos.is_legal(r.best_move.unwrap()));

    let t = Instant::now();
    let r = s.search(
        &pos,
        &[],
        &Limits::move_time(Duration::from_millis(100)),
        |_| {},
    );
    assert!(pos.is_legal(r.best_move.unwrap()));
    // Generous: only checks that the helpers do not keep the search alive.
    assert!(t.elapsed() < Duration::from_secs(20));
}

#[test]
fn options_hold_with_helpers() {
    let pos = EvalPosition::new(ploy_core::Position::new());
    let mut s = Searcher::new(threads(Config::default(), 2), Evaluation::default());
    let all = pos.position().legal_moves();
    let only = vec![all[3], all[7]];
    let options = SearchOptions::default()
        .with_root_moves(only.clone())
        .with_lines(2);
    let mut lines = Vec::new();
    let r = s.search_with(&pos, &[], &Limits::depth(3), &options, |info| {
        lines.push((info.depth, info.multipv, info.best_move));
    });
    assert!(only.contains(&r.best_move.unwrap()));
    assert_eq!(lines.len(), 6);
    let last: Vec<_> = lines[4..].iter().map(|l| l.2.unwrap()).collect();
    assert!(
        last.contains(&only[0]) && last.contains(&only[1]),
        "{lines:?}"
    );
}

#[test]
fn the_thread_count_changes_and_the_table_stays() {
    let pos = EvalPosition::new(ploy_core::Position::new());
    let mut s = Searcher::new(Config::default(), Evaluation::default());
    let entries = s.table().entries();
    for n in [3, 1, 2, 0, 1] {
        s.set_threads(n);
        assert_eq!(s.config().threads, n.max(1));
        let r = s.search(&pos, &[], &Limits::depth(3), |_| {});
        assert!(pos.is_legal(r.best_move.unwrap()));
        assert_eq!(s.table().entries(), entries);
    }
    s.clear();
    s.set_threads(2);
    assert!(
        s.search(&pos, &[], &Limits::depth(2), |_| {})
            .best_move
            .is_some()
    );
}

#[test]
fn one_thread_gives_the_same_result_every_time() {
    let pos = EvalPosition::new(bench_positions().swap_remove(5));
    let run = || {
        Searcher::new(Config::default(), Evaluation::default()).search(
            &pos,
            &[],
            &Limits::nodes(30_000),
            |_| {},
        )
    };
    let (a, b) = (run(), run());
    assert_eq!(
        (a.best_move, a.score, a.depth, a.nodes),
        (b.best_move, b.score, b.depth, b.nodes)
    );
    assert_eq!(a.pv, b.pv);
}

#[test]
fn the_engine_plays_every_variant_with_threads() {
    let mut engine = Engine::new(threads(
        Config {
            table_bytes: 1 << 20,
            ..Config::default()
        },
        2,
    ));
    for variant in [
        Variant::TwoPlayer,
        Variant::FreeForAll,
        Variant::Partnership,
    ] {
        let mut game = Game::start(variant, Rules::standard());
        for _ in 0..4 {
            let mv = engine
                .best_move(&game, &Limits::depth(3))
                .expect("the game goes on");
            game.play(mv).expect("a legal move");
        }
    }
}
