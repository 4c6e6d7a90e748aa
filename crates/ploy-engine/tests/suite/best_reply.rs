//! The free-for-all's paranoid game in best-reply mode (Best-Reply Search as a two-sided
//! game, the engine's default free-for-all search): the coalition's moves are every
//! opponent's legal moves, found here without passes (each opponent set to move by a
//! setup); a coalition move is that opponent's move with the root to move after it;
//! make/unmake restores everything (position, hash, incremental evaluation); every exact
//! configuration of the search returns plain negamax's value on the best-reply game.

use crate::common::mix;
use crate::four_player::{pick_move, playout, rules};
use ploy_core::{Move, Position, Seat, Variant};
use ploy_engine::{Evaluation, Paranoid, SearchMoves};
use ploy_search::{Evaluator, Limits, SearchGame, Searcher, negamax};
use proptest::prelude::*;

/// `pos` with `seat` to move, everything else the same, built from a setup (no passes).
fn with_turn(pos: &Position, seat: Seat) -> Position {
    let mut setup = pos.to_setup();
    setup.turn = seat;
    Position::from_setup(setup, pos.rules()).expect("the same pieces with another seat to move")
}

/// The seats who move after `root`'s move in `pos` (whose mover is not `root`) and before
/// his next turn, in turn order.
fn opponents_before(pos: &Position, root: Seat) -> Vec<Seat> {
    let in_play = pos.in_play();
    let mut seats = Vec::new();
    let mut s = pos.mover();
    while s != root {
        if in_play.contains(s) {
            seats.push(s);
        }
        s = Seat::from_index((s.index() as u8 + 1) % 4).expect("a seat");
    }
    seats
}

/// The best-reply game of a random free-for-all position for the seat to move, after one
/// random move of his (so that the coalition moves), or `None` if the game ends first.
fn after_root_move(seed: u64, plies: u32, rule_bits: u8, pick: u64) -> Option<Paranoid> {
    let pos = playout(Variant::FreeForAll, rule_bits, seed, plies);
    if pos.outcome().is_some() {
        return None;
    }
    let mut g = Paranoid::new(pos).with_best_reply(true);
    let moves = g.position().legal_moves();
    let mv = moves[(pick as usize) % moves.len()];
    g.make(mv);
    g.terminal().is_none().then_some(g)
}

fn sorted(moves: &SearchMoves) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn coalition_moves_are_every_opponents(seed in any::<u64>(), plies in 0u32..160, rule_bits in 0u8..16, pick in any::<u64>()) {
        let Some(g) = after_root_move(seed, plies, rule_bits, pick) else { return Ok(()) };
        let root = g.root();
        prop_assert_eq!(g.side().0, 1);
        let pos = g.position().clone();
        let mut expected = Vec::new();
        let mut expected_captures = Vec::new();
        for seat in opponents_before(&pos, root) {
            let p = with_turn(&pos, seat);
            for mv in p.legal_moves().iter().copied() {
                expected.push(mv);
                if g.is_capture(mv) {
                    expected_captures.push(mv);
                }
            }
        }
        expected.sort();
        expected_captures.sort();
        let (mut all, mut captures) = (SearchMoves::default(), SearchMoves::default());
        g.generate(&mut all);
        g.generate_captures(&mut captures);
        prop_assert_eq!(sorted(&all), expected.clone());
        prop_assert_eq!(sorted(&captures), expected_captures);
        for &mv in &expected {
            prop_assert!(g.is_legal(mv), "{mv} is an opponent's move");
        }
        // The root's own moves are not the coalition's.
        for mv in with_turn(&pos, root).legal_moves().iter().copied() {
            prop_assert!(!g.is_legal(mv), "{mv} is the root's");
        }
        // A coalition move is that opponent's move, and the root moves next (unless the game
        // is decided or the root is out).
        let mut s = mix(pick);
        for _ in 0..8 {
            s = mix(s);
            let mv = expected[(s >> 8) as usize % expected.len()];
            let mut after = g.clone();
            after.make(mv);
            let owner = pos.controller(pos.board().piece_at(mv.from()).expect("a piece").colour());
            let mut reference = with_turn(&pos, owner);
            reference.make_move(mv);
            prop_assert_eq!(after.position().board(), reference.board());
            prop_assert_eq!(after.position().in_play(), reference.in_play());
            if after.terminal().is_none() {
                prop_assert_eq!(after.position().mover(), root);
                prop_assert_eq!(after.side().0, 0);
            }
        }
    }

    #[test]
    fn make_unmake_restores_everything(seed in any::<u64>(), plies in 0u32..200, rule_bits in 0u8..16, root in 0u8..4) {
        // Along a random best-reply line (the root's moves and single opponents' replies),
        // the incremental evaluation equals a fresh game's, and unwinding restores the
        // position, the hash and the evaluation at every step.
        let eval = Evaluation::default();
        let start = Position::start(Variant::FreeForAll, rules(rule_bits));
        let root = Seat::from_index(root).expect("seat");
        let mut g = Paranoid::for_seat(start.clone(), root).with_best_reply(true);
        let fresh = |g: &Paranoid| Paranoid::for_seat(g.position().clone(), g.root()).with_best_reply(true);
        let mut s = mix(seed);
        let mut made = Vec::new();
        let mut seen = vec![(g.position().clone(), SearchGame::hash(&g), g.side())];
        for _ in 0..plies {
            if g.terminal().is_some() { break; }
            let mut moves = SearchMoves::default();
            g.generate(&mut moves);
            if moves.is_empty() { break; }
            s = mix(s);
            let mv = pick_move(&moves, s, |m| g.is_capture(m));
            prop_assert!(g.is_legal(mv));
            made.push((mv, g.make(mv)));
            prop_assert_eq!(SearchGame::hash(&g), SearchGame::hash(&fresh(&g)));
            if g.terminal().is_none() {
                prop_assert_eq!(eval.evaluate(&g), eval.evaluate(&fresh(&g)));
            }
            seen.push((g.position().clone(), SearchGame::hash(&g), g.side()));
        }
        seen.pop();
        while let Some((mv, undo)) = made.pop() {
            g.unmake(mv, undo);
            let (pos, hash, side) = seen.pop().expect("a position per move");
            prop_assert_eq!(g.position(), &pos);
            prop_assert_eq!(SearchGame::hash(&g), hash);
            prop_assert_eq!(g.side(), side);
            if g.terminal().is_none() {
                prop_assert_eq!(eval.evaluate(&g), eval.evaluate(&fresh(&g)));
            }
        }
        prop_assert_eq!(g.position(), &start);
    }

    #[test]
    fn best_reply_search_matches_negamax(seed in any::<u64>(), plies in 0u32..160, rule_bits in 0u8..16, depth in 1u32..=3, quiescence in any::<bool>()) {
        let pos = playout(Variant::FreeForAll, rule_bits, seed, plies);
        let g = Paranoid::new(pos.clone()).with_best_reply(true);
        // Depth 3 (the root, one reply, the root) only where plain negamax stays small.
        let depth = if depth == 3 && pos.legal_moves().len() > 30 { 2 } else { depth };
        let q = quiescence.then_some(2);
        let eval = Evaluation::default();
        let (value, best) = negamax(&g, &eval, &[], depth, q);
        for (name, config) in crate::common::exact_configs(q) {
            let mut s = Searcher::new(config, eval.clone());
            let r = s.search(&g, &[], &Limits::depth(depth), |_| {});
            prop_assert_eq!(r.score, value, "{} depth {} q {:?}", name, depth, q);
            match r.best_move {
                Some(m) => prop_assert!(best.contains(&m), "{}: {:?} not among {:?}", name, m, best),
                None => prop_assert!(best.is_empty()),
            }
        }
    }
}

#[test]
fn the_start_layers_alternate_and_hash_apart_from_paranoid() {
    let start = Position::start(Variant::FreeForAll, ploy_core::Rules::standard());
    let paranoid = Paranoid::new(start.clone());
    let mut g = Paranoid::new(start).with_best_reply(true);
    assert!(g.is_best_reply() && !paranoid.is_best_reply());
    // One table may hold both searches: their hashes differ.
    assert_ne!(SearchGame::hash(&g), SearchGame::hash(&paranoid));
    let mut moves = SearchMoves::default();
    g.generate(&mut moves);
    let mine = moves.len();
    let root_move = moves[0];
    g.make(root_move);
    // Green moved; Red, Yellow and Blue may each reply: three armies' moves.
    let mut replies = SearchMoves::default();
    g.generate(&mut replies);
    assert!(
        replies.len() > 2 * mine,
        "{} replies to {mine} moves",
        replies.len()
    );
    let reply = *replies.last().expect("Blue's moves come last");
    g.make(reply);
    assert_eq!(g.position().mover(), Seat::Green, "Red and Yellow passed");
    assert_eq!(g.side().0, 0);
}

/// The engine's default free-for-all search is this game's: the same move, score and nodes
/// as a searcher of the same configuration on `Paranoid::with_best_reply`, given the game's
/// history; its principal variation is the line's legal start.
#[test]
fn the_engine_default_is_best_reply_search() {
    use ploy_core::Game;
    use ploy_engine::{Engine, GameHistory};
    use ploy_search::Config;
    let mut game = Game::start(Variant::FreeForAll, ploy_core::Rules::standard());
    for text in ["c2-d3-5", "b7-c6-5"] {
        let mv = ploy_notation_free_move(&game, text);
        game.play(mv).expect("legal");
    }
    let limits = Limits::nodes(20_000);
    let mut engine = Engine::new(Config::default());
    assert_eq!(engine.ffa_search(), None);
    let mine = engine.search(&game, &limits, |_| {});
    let g = Paranoid::new(game.position().clone()).with_best_reply(true);
    let mut searcher = Searcher::new(Config::default(), Evaluation::default());
    let theirs = searcher.search(&g, &g.history(&game), &limits, |_| {});
    assert_eq!(
        (mine.best_move, mine.score, mine.nodes, mine.depth),
        (theirs.best_move, theirs.score, theirs.nodes, theirs.depth)
    );
    assert!(!mine.pv.is_empty() && mine.pv.len() <= theirs.pv.len());
    assert_eq!(mine.pv[..], theirs.pv[..mine.pv.len()]);
    let mut pos = game.position().clone();
    for &mv in &mine.pv {
        assert!(pos.is_legal(mv));
        pos.make_move(mv);
    }
    if mine.pv.len() < theirs.pv.len() {
        assert!(
            !pos.is_legal(theirs.pv[mine.pv.len()]),
            "the line is cut where it leaves the game"
        );
    }
}

/// A move of `game` by its text (`from-to-turns`), found among the legal moves.
fn ploy_notation_free_move(game: &ploy_core::Game, text: &str) -> Move {
    game.position()
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is legal"))
}
