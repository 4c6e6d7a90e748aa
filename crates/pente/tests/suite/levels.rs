//! Levels 1 to 8 (`Strength::Level`): a level replays the same game for the same seed,
//! keeps to its own limits within the caller's, and level 8 is full strength.

use pente::{Engine, Level, LevelParams, Limits, Move, Position, Rules, Size, Strength};

/// 19x19 with the tournament rule, after the centre and two more moves.
fn opening() -> Position {
    let moves: Vec<Move> = ["K10", "L11", "N10"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    Position::from_moves(Rules::new(Size::S19), &moves)
        .map_err(|(_, e)| e)
        .unwrap()
}

/// A game of `plies` moves between two engines of `level` seeded `seed` and `seed + 1`,
/// each with `nodes` a move.
fn game(level: Level, seed: u64, plies: usize, nodes: u64) -> Vec<Move> {
    let mut engines = [
        Engine::new(Strength::Level(level)).with_seed(seed),
        Engine::new(Strength::Level(level)).with_seed(seed + 1),
    ];
    let mut pos = opening();
    let mut moves = Vec::new();
    for i in 0..plies {
        if pos.is_over() {
            break;
        }
        let a = engines[i % 2].search(&pos, &Limits::nodes(nodes), |_| {});
        let mv = a.best_move.expect("a move while the game goes on");
        pos.play(mv).expect("the engine plays legal moves");
        moves.push(mv);
    }
    moves
}

#[test]
fn the_same_seed_replays_the_same_game_at_every_level() {
    for level in Level::all() {
        let nodes = 6_000;
        let first = game(level, 11, 14, nodes);
        assert_eq!(first, game(level, 11, 14, nodes), "level {level}");
    }
    // The seed matters below level 8: some other seed plays another game at level 1.
    let level = Level::MIN;
    let first = game(level, 11, 14, 6_000);
    assert!(
        (20..30).any(|seed| game(level, seed, 14, 6_000) != first),
        "level 1 chooses by its seed"
    );
}

#[test]
fn each_level_keeps_to_its_limits() {
    let pos = opening();
    for level in Level::all().take(7) {
        let p = LevelParams::of(level);
        let big = Limits::nodes(2_000_000);
        let a = Engine::new(Strength::Level(level))
            .with_seed(3)
            .search(&pos, &big, |_| {});
        let most = p.nodes.expect("levels 1 to 7 have their own node limit");
        assert!(
            a.nodes <= most,
            "level {level}: {} nodes, limit {most}",
            a.nodes
        );
        if let Some(d) = p.depth {
            assert!(a.depth <= d, "level {level}: depth {} over {d}", a.depth);
        }
        assert!(pos.is_legal(a.best_move.unwrap()));
        // A smaller budget of the caller's holds too.
        let a = Engine::new(Strength::Level(level)).with_seed(3).search(
            &pos,
            &Limits::nodes(300),
            |_| {},
        );
        assert!(a.nodes <= 300, "level {level}: {} nodes of 300", a.nodes);
        let a = Engine::new(Strength::Level(level)).with_seed(3).search(
            &pos,
            &Limits::depth(1),
            |_| {},
        );
        assert!(a.depth <= 1, "level {level}: depth {} of 1", a.depth);
    }
    // Weaker levels search less.
    let p: Vec<u64> = Level::all()
        .take(7)
        .map(|l| LevelParams::of(l).nodes.unwrap())
        .collect();
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    assert_eq!(LevelParams::of(Level::MAX).nodes, None);
}

#[test]
fn level_8_is_full_strength() {
    // The same moves, scores and nodes as full strength at a fixed depth, move after move.
    let mut full = Engine::new(Strength::Full).with_seed(5);
    let mut eight = Engine::new(Strength::Level(Level::MAX)).with_seed(5);
    let mut pos = opening();
    for _ in 0..10 {
        let a = full.search(&pos, &Limits::depth(3), |_| {});
        let b = eight.search(&pos, &Limits::depth(3), |_| {});
        assert_eq!(
            (a.best_move, a.score, a.depth, &a.pv, a.nodes),
            (b.best_move, b.score, b.depth, &b.pv, b.nodes)
        );
        pos.play(a.best_move.unwrap()).unwrap();
    }
}

#[test]
fn set_level_changes_the_strength() {
    let mut e = Engine::new(Strength::Full);
    e.set_level(Level::new(3).unwrap());
    assert_eq!(e.strength(), &Strength::Level(Level::new(3).unwrap()));
    // An engine made for the narrowed search of the 2018 program plays the level.
    let mut e = Engine::new(Strength::Ladder(pente::Ladder::difficulty(1).unwrap()));
    e.set_level(Level::new(2).unwrap());
    let pos = opening();
    let a = e.search(&pos, &Limits::nodes(5_000), |_| {});
    assert!(a.nodes <= LevelParams::of(Level::new(2).unwrap()).nodes.unwrap());
    assert!(pos.is_legal(a.best_move.unwrap()));
}
