//! Levels 1 to 8 (`Engine::set_level`): a level replays the same game for the same seed,
//! keeps to its own limits within the caller's, and level 8 is full strength; for two,
//! three and four players.

use pyloff::{Engine, Game, Level, LevelParams, Limits, Move, Options, RuleSet};

fn engine(level: Level, seed: u64) -> Engine {
    let mut e = Engine::new();
    e.set_level(level);
    e.set_seed(seed);
    e
}

/// `plies` moves of `players` engines of `level` (seeds `seed`, `seed + 1`, ...) on size 4
/// after `c3`... (the first move), each with `nodes` a move.
fn game(options: Options, level: Level, seed: u64, plies: usize, nodes: u64) -> Vec<Move> {
    let players = usize::from(options.players());
    let mut engines: Vec<Engine> = (0..players)
        .map(|i| engine(level, seed + i as u64))
        .collect();
    let mut game = Game::new(options);
    for _ in 0..plies {
        if game.position().is_over() {
            break;
        }
        let who = game.position().to_move().index();
        let mv = engines[who]
            .search(&game, &Limits::nodes(nodes))
            .best_move
            .expect("a move while the game goes on");
        game.play(mv).expect("the engine plays legal moves");
    }
    game.moves().iter().map(|&(_, m)| m).collect()
}

fn options(players: u8) -> Options {
    Options::new(4, players, RuleSet::Default).unwrap()
}

#[test]
fn the_same_seed_replays_the_same_game_at_every_level() {
    for players in 2..=4 {
        for level in Level::all() {
            let first = game(options(players), level, 21, 16, 1_500);
            assert_eq!(
                first,
                game(options(players), level, 21, 16, 1_500),
                "{players} players, level {level}"
            );
        }
    }
    let first = game(options(2), Level::MIN, 21, 16, 1_500);
    assert!(
        (30..40).any(|s| game(options(2), Level::MIN, s, 16, 1_500) != first),
        "level 1 chooses by its seed"
    );
}

#[test]
fn each_level_keeps_to_its_limits() {
    for players in 2..=4 {
        let game =
            Game::from_moves(Options::new(6, players, RuleSet::Default).unwrap(), "c3").unwrap();
        for level in Level::all().take(7) {
            let p = LevelParams::of(level);
            let most = p.nodes.expect("levels 1 to 7 have their own node limit");
            let r = engine(level, 1).search(&game, &Limits::nodes(1_000_000));
            assert!(
                r.nodes <= most,
                "level {level}: {} nodes of {most}",
                r.nodes
            );
            if let Some(d) = p.depth {
                assert!(r.depth <= d, "level {level}: depth {} of {d}", r.depth);
            }
            assert!(game.position().is_legal(r.best_move.unwrap()));
            let r = engine(level, 1).search(&game, &Limits::nodes(200));
            assert!(r.nodes <= 200, "level {level}: {} nodes of 200", r.nodes);
            let r = engine(level, 1).search(&game, &Limits::depth(1));
            assert!(r.depth <= 1, "level {level}: depth {} of 1", r.depth);
        }
    }
    let nodes: Vec<u64> = Level::all()
        .skip(1)
        .take(6)
        .map(|l| LevelParams::of(l).nodes.unwrap())
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    assert_eq!(LevelParams::of(Level::MAX).nodes, None);
}

#[test]
fn level_8_is_full_strength() {
    for players in 2..=4 {
        let mut full = Engine::new();
        let mut eight = engine(Level::MAX, 77);
        let mut game = Game::new(options(players));
        for _ in 0..12 {
            if game.position().is_over() {
                break;
            }
            let a = full.search(&game, &Limits::depth(3));
            let b = eight.search(&game, &Limits::depth(3));
            assert_eq!(
                (a.best_move, a.score, a.depth, &a.pv, a.nodes),
                (b.best_move, b.score, b.depth, &b.pv, b.nodes),
                "{players} players"
            );
            game.play(a.best_move.unwrap()).unwrap();
        }
    }
}
