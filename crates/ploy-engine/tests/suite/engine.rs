//! The one-call engine: every variant, games that are over, the game's repetitions in the
//! right hash space, `Send`, and the same answers as a searcher driven by hand.

use ploy_core::{Game, Move, Position, Rules, Seat, Variant};
use ploy_engine::{
    Engine, EvalPosition, Evaluation, GameHistory, Paranoid, PlainPosition, PloyGame,
};
use ploy_search::{Config, Limits, Score, SearchGame, Searcher};

fn small() -> Config {
    Config {
        table_bytes: 1 << 20,
        ..Config::default()
    }
}

/// A game of `variant` after `plies` moves picked by a fixed rule (no randomness).
fn game_after(variant: Variant, plies: usize) -> Game {
    let mut game = Game::start(variant, Rules::standard());
    for i in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(moves[(i * 7919) % moves.len()]).unwrap();
    }
    game
}

#[test]
fn engine_and_searcher_are_send() {
    fn send<T: Send>() {}
    send::<Engine>();
    send::<Searcher<PloyGame, Evaluation>>();
    send::<Searcher<EvalPosition, Evaluation>>();
    send::<Searcher<PlainPosition, Evaluation>>();
    // And one really searches on another thread.
    let mut engine = Engine::new(small());
    let game = Game::new(Rules::standard());
    let handle = std::thread::spawn(move || engine.best_move(&game, &Limits::depth(2)));
    assert!(handle.join().unwrap().is_some());
}

#[test]
fn every_variant_gets_a_legal_move() {
    let mut engine = Engine::new(small());
    for variant in [
        Variant::TwoPlayer,
        Variant::FreeForAll,
        Variant::Partnership,
    ] {
        for plies in [0, 9, 40] {
            let game = game_after(variant, plies);
            if game.outcome().is_some() {
                continue;
            }
            let mv = engine.best_move(&game, &Limits::depth(2).with_nodes(50_000));
            assert!(game.is_legal(mv.unwrap()), "{variant:?} after {plies}");
        }
    }
}

#[test]
fn a_game_that_is_over_gets_no_move() {
    let mut engine = Engine::new(small());
    // Agreed drawn: the position has moves, the game has none.
    let mut game = Game::new(Rules::standard());
    game.agree_draw().unwrap();
    let r = engine.search(&game, &Limits::depth(3), |_| panic!("no search"));
    assert_eq!(
        (r.best_move, r.score, r.depth, r.nodes),
        (None, Score::DRAW, 0, 0)
    );
    // Resigned: a loss for the side to move if he resigned.
    let mut game = Game::new(Rules::standard());
    game.resign(Seat::Green).unwrap();
    let r = engine.search(&game, &Limits::depth(3), |_| {});
    assert_eq!((r.best_move, r.score), (None, Score::loss_in(0)));
    let mut game = Game::new(Rules::standard());
    game.resign(Seat::Red).unwrap();
    assert_eq!(
        engine.search(&game, &Limits::depth(3), |_| {}).score,
        Score::win_in(0)
    );
    assert_eq!(engine.best_move(&game, &Limits::depth(3)), None);
}

#[test]
fn the_same_answer_as_a_searcher_driven_by_hand() {
    for variant in [
        Variant::TwoPlayer,
        Variant::FreeForAll,
        Variant::Partnership,
    ] {
        let game = game_after(variant, 30);
        if game.outcome().is_some() {
            continue;
        }
        let limits = Limits::depth(3);
        let by_engine = Engine::new(small()).search(&game, &limits, |_| {});
        let mut searcher = Searcher::new(small(), Evaluation::default());
        // The free-for-all's default is Best-Reply Search on the two-sided searcher.
        let root = searcher
            .evaluator()
            .game(game.position().clone())
            .with_best_reply(true);
        let by_hand = searcher.search(&root, &root.history(&game), &limits, |_| {});
        assert_eq!(
            (by_engine.best_move, by_engine.score, by_engine.nodes),
            (by_hand.best_move, by_hand.score, by_hand.nodes),
            "{variant:?}"
        );
    }
}

#[test]
fn the_history_is_in_the_search_games_own_hashes() {
    // A free-for-all game in which everybody turns a piece back and forth: the positions
    // repeat. The paranoid search hashes with its root seat mixed in, so the history must
    // hold exactly the hashes it computes for those positions.
    let mut game = Game::start(Variant::FreeForAll, Rules::university());
    for _ in 0..2 {
        // Each commander turns an eighth one way and then back.
        for r in [1, 7] {
            for sq in ["a1", "a9", "i9", "i1"] {
                game.play(format!("{sq}-{sq}-{r}").parse().unwrap())
                    .unwrap();
            }
        }
    }
    let pos = game.position().clone();
    let root = PloyGame::new(pos.clone());
    let history = root.history(&game);
    assert_eq!(history.len(), game.moves().len());
    let seat = pos.mover();
    for (earlier, &h) in game.positions().iter().zip(&history) {
        let as_searched = Paranoid::for_seat(earlier.clone(), seat);
        assert_eq!(h, SearchGame::hash(&as_searched));
        assert_ne!(h, earlier.hash(), "not the plain position hash");
    }
    // The current position occurred before: the first entry repeats the root's hash.
    assert!(history.contains(&SearchGame::hash(&root)));
    // Two sides: the plain hashes.
    let game = game_after(Variant::TwoPlayer, 6);
    let root = EvalPosition::new(game.position().clone());
    let plain: Vec<u64> = game.positions()[..6].iter().map(Position::hash).collect();
    assert_eq!(root.history(&game), plain);
    assert_eq!(PloyGame::new(game.position().clone()).history(&game), plain);
}

#[test]
fn the_engine_counts_the_games_repetitions() {
    // After the same turns twice, the start of the cycle is in the history: a search that
    // knows it sees repetitions (as draws) and searches a different tree from one that
    // does not.
    let mut game = Game::new(Rules::university());
    for _ in 0..2 {
        for t in ["e1-e1-1", "e9-e9-1", "e1-e1-7", "e9-e9-7"] {
            game.play(t.parse().unwrap()).unwrap();
        }
    }
    let limits = Limits::depth(4);
    let with = Engine::new(small()).search(&game, &limits, |_| {});
    let mut searcher = Searcher::new(small(), Evaluation::default());
    let root = searcher.evaluator().game(game.position().clone());
    let without = searcher.search(&root, &[], &limits, |_| {});
    assert_ne!(with.nodes, without.nodes, "the history changes the search");
    let mv: Move = with.best_move.unwrap();
    assert!(game.is_legal(mv));
}

#[cfg(feature = "serde")]
#[test]
fn search_results_travel_with_moves_as_text() {
    let game = Game::new(Rules::standard());
    let r = Engine::new(small()).search(&game, &Limits::depth(3), |_| {});
    let json = serde_json::to_value(&r).unwrap();
    let best = r.best_move.unwrap().to_string();
    assert_eq!(json["best_move"], serde_json::json!(best));
    assert_eq!(json["pv"][0], serde_json::json!(best));
    assert_eq!(json["depth"], 3);
    let back: ploy_search::SearchResult<Move> = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, r);
    let mut tampered = json;
    tampered["best_move"] = serde_json::json!(1234);
    assert!(serde_json::from_value::<ploy_search::SearchResult<Move>>(tampered).is_err());
}
