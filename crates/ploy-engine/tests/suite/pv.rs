//! The principal variation of every iteration is collected during the search: a legal line
//! from the root that starts with the iteration's best move and is no longer than the
//! iteration's depth plus the quiescence plies; in a plain full-window search it leads to a
//! leaf whose value is the root's score.

use crate::common::*;
use ploy_core::{Position, Rules, Variant};
use ploy_engine::{EvalPosition, Evaluation, PloyGame};
use ploy_search::{Config, Driver, Evaluator, Limits, SearchGame, Searcher};
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn ploy_positions(seed in any::<u64>(), plies in 0u32..60, depth in 1u32..=3) {
        let pos = EvalPosition::new(random_playout(seed, plies));
        check_lines(&pos, &Evaluation::default(), depth);
    }

    #[test]
    fn four_player_positions(seed in any::<u64>(), plies in 0u32..40, ffa in any::<bool>(), depth in 1u32..=3) {
        let variant = if ffa { Variant::FreeForAll } else { Variant::Partnership };
        let mut pos = Position::start(variant, Rules::standard());
        let mut s = seed;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            s = mix(s);
            pos.make_move(moves[(s >> 8) as usize % moves.len()]);
        }
        let game = PloyGame::new(pos);
        check_lines(&game, &Evaluation::default(), depth);
    }
}

#[test]
fn info_lines_say_whose_view_and_share() {
    let mut s = Searcher::new(Config::default(), Evaluation::default());
    for (variant, view) in [
        (Variant::TwoPlayer, "green"),
        (Variant::FreeForAll, "green"),
        (Variant::Partnership, "green+yellow"),
    ] {
        let g = PloyGame::new(Position::start(variant, Rules::standard()));
        let mut lines = Vec::new();
        s.search(&g, &[], &Limits::depth(2), |info| {
            lines.push(info.to_string())
        });
        let prefix = "depth 2 score ";
        let line = &lines[1];
        assert!(line.starts_with(prefix), "{line}");
        assert!(line.contains(&format!(" view {view} share ")), "{line}");
        let share: u32 = line
            .split(" share ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|p| p.parse().ok())
            .expect("a share");
        match variant {
            // A quarter each, give or take what the evaluation sees.
            Variant::FreeForAll => assert!((15..=30).contains(&share), "{line}"),
            _ => assert!((40..=60).contains(&share), "{line}"),
        }
    }
    // A game without names: no `view`.
    let t = Tree::new(3, 5, false);
    let mut s = Searcher::new(Config::default(), |t: &Tree| t.eval());
    let mut lines = Vec::new();
    s.search(&t, &[], &Limits::depth(1), |info| {
        lines.push(info.to_string())
    });
    assert!(
        lines
            .iter()
            .all(|l| !l.contains(" view ") && l.contains(" share "))
    );
}
