//! Levels 1 to 8 (`Engine::set_level`): the same game and seed replay the same moves, each
//! level keeps within its own limits and the caller's, level 8 is the full-strength search,
//! and a weaker level plays one of the lines it searched.

use ploy_core::{Game, Move, Rules, Variant};
use ploy_engine::{Engine, Level, LevelLimits, bench_positions};
use ploy_search::{Config, Limits, SearchOptions};

fn small() -> Config {
    Config {
        table_bytes: 1 << 20,
        ..Config::default()
    }
}

/// The moves of a game of `variant` played by one engine at `level` with `seed`, `plies`
/// moves long (fewer if it ends), at `limits` a move.
fn self_play(
    variant: Variant,
    level: Level,
    seed: u64,
    plies: usize,
    limits: &Limits,
) -> Vec<Move> {
    let mut engine = Engine::new(small()).with_level(level).with_seed(seed);
    let mut game = Game::start(variant, Rules::standard());
    for _ in 0..plies {
        let Some(mv) = engine.best_move(&game, limits) else {
            break;
        };
        game.play(mv).expect("the engine plays legal moves");
    }
    game.moves().to_vec()
}

#[test]
fn the_same_seed_replays_the_same_game_at_every_level() {
    let limits = Limits::nodes(2_000);
    for level in Level::all() {
        let one = self_play(Variant::TwoPlayer, level, 5, 12, &limits);
        assert_eq!(one.len(), 12, "level {level}");
        assert_eq!(
            one,
            self_play(Variant::TwoPlayer, level, 5, 12, &limits),
            "level {level}"
        );
    }
    for variant in [Variant::FreeForAll, Variant::Partnership] {
        for level in [Level::MIN, Level::new(4).unwrap(), Level::MAX] {
            let one = self_play(variant, level, 9, 8, &limits);
            assert_eq!(
                one,
                self_play(variant, level, 9, 8, &limits),
                "{variant:?} level {level}"
            );
        }
    }
    // The seed matters: level 1 plays other games under other seeds.
    let games: std::collections::HashSet<Vec<Move>> = (0..6)
        .map(|seed| self_play(Variant::TwoPlayer, Level::MIN, seed, 8, &limits))
        .collect();
    assert!(games.len() > 1, "six seeds, one game");
}

#[test]
fn each_level_keeps_within_its_limits_and_the_callers() {
    let positions = bench_positions();
    let callers = [
        Limits::nodes(2_500),
        Limits::depth(2).with_nodes(60_000),
        Limits::depth(12).with_nodes(12_000),
    ];
    for level in Level::all() {
        for variant in [Variant::TwoPlayer, Variant::FreeForAll] {
            let table = LevelLimits::of(level, variant);
            for caller in &callers {
                let depth_cap = match (table.depth, caller.depth) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                let node_cap = match (table.nodes, caller.nodes) {
                    (Some(a), Some(b)) => a.min(b),
                    (a, b) => a.or(b).expect("every caller here has a node budget"),
                };
                let games: Vec<Game> = match variant {
                    Variant::TwoPlayer => positions[..5]
                        .iter()
                        .map(|p| Game::from_position(p.clone()))
                        .collect(),
                    _ => vec![Game::start(variant, Rules::standard())],
                };
                for game in games {
                    let mut engine = Engine::new(small()).with_level(level).with_seed(3);
                    let r = engine.search(&game, caller, |info| {
                        assert!(depth_cap.is_none_or(|d| info.depth <= d), "level {level}");
                        assert!(info.nodes <= node_cap, "level {level}");
                    });
                    assert!(r.best_move.is_some_and(|m| game.is_legal(m)));
                    assert!(
                        depth_cap.is_none_or(|d| r.depth <= d),
                        "level {level} {variant:?} {caller:?}: depth {}",
                        r.depth
                    );
                    assert!(
                        r.nodes <= node_cap,
                        "level {level} {variant:?} {caller:?}: {} nodes",
                        r.nodes
                    );
                }
            }
        }
    }
}

#[test]
fn level_8_plays_the_full_strength_moves_at_a_fixed_depth() {
    let limits = Limits::depth(3);
    let full_moves = {
        let mut engine = Engine::new(small());
        let mut game = Game::new(Rules::standard());
        for _ in 0..10 {
            let mv = engine.best_move(&game, &limits).expect("the game goes on");
            game.play(mv).unwrap();
        }
        game.moves().to_vec()
    };
    assert_eq!(
        self_play(Variant::TwoPlayer, Level::MAX, 0, 10, &limits),
        full_moves
    );
    assert_eq!(
        self_play(Variant::TwoPlayer, Level::MAX, 77, 10, &limits),
        full_moves
    );
    // And a level 8 search is the whole result of the full search, score and line too.
    for pos in &bench_positions()[..4] {
        let game = Game::from_position(pos.clone());
        let full = Engine::new(small()).search(&game, &limits, |_| {});
        let eight = Engine::new(small())
            .with_level(Level::MAX)
            .search(&game, &limits, |_| {});
        assert_eq!(
            (eight.best_move, eight.score, eight.pv, eight.nodes),
            (full.best_move, full.score, full.pv, full.nodes)
        );
    }
}

/// Level 6 searches four plies and errs never (the table in docs/search-tuning.md): it plays
/// the full-strength move at depth 4, whatever deeper budget the caller gives.
#[test]
fn level_6_is_the_full_search_at_depth_4() {
    let six = Level::new(6).unwrap();
    assert_eq!(
        LevelLimits::of(six, Variant::TwoPlayer).depth,
        Some(4),
        "the table changed: change this test with it"
    );
    for pos in &bench_positions()[..3] {
        let game = Game::from_position(pos.clone());
        let full = Engine::new(small()).search(&game, &Limits::depth(4), |_| {});
        let level = Engine::new(small()).with_level(six).with_seed(12).search(
            &game,
            &Limits::depth(9),
            |_| {},
        );
        assert_eq!((level.best_move, level.depth), (full.best_move, 4));
    }
}

#[test]
fn a_weak_level_plays_one_of_the_lines_it_searched() {
    let one = LevelLimits::of(Level::MIN, Variant::TwoPlayer);
    let depth = one.depth.expect("level 1 has a depth");
    for (i, pos) in bench_positions().iter().enumerate().take(8) {
        let game = Game::from_position(pos.clone());
        let mut lines = Vec::new();
        let options = SearchOptions::default().with_lines(one.lines);
        Engine::new(small()).search_with(&game, &Limits::depth(depth), &options, |info| {
            if info.depth == depth {
                lines.push(info.best_move.expect("a line has a move"));
            }
        });
        for seed in 0..6 {
            let mv = Engine::new(small())
                .with_level(Level::MIN)
                .with_seed(seed)
                .best_move(&game, &Limits::nodes(20_000))
                .expect("the game goes on");
            assert!(
                lines.contains(&mv),
                "position {i} seed {seed}: {mv:?} not in {lines:?}"
            );
        }
    }
}
