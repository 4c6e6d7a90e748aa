//! Pyloff for three and four players on `ploy_search::multi`: make and unmake, the searches
//! against the plain references, the engine with every search kind, and a win at once.

use ploy_search::multi::{
    Brs, BrsPlayers, Mcts, MctsConfig, MultiEvaluator, MultiGame, Paranoid, SearchKind,
    brs_reference, paranoid_reference,
};
use ploy_search::{Level, Limits, SearchOptions};
use proptest::prelude::*;
use pyloff::multi::{WIN, final_scores};
use pyloff::{
    Engine, Evaluation, Game, Move, MultiPosition, Options, Position, RuleSet, SearchPosition,
};

use crate::common::{mix, pick, random_move};

const RULES: [RuleSet; 3] = [RuleSet::Default, RuleSet::AllFreedoms, RuleSet::CutDown];

/// A random game of `players` on a board of `size` with up to `plies` random moves.
fn random_game(size: u8, players: u8, rules: usize, plies: u32, seed: &mut u64) -> Game {
    let options = Options::new(size, players, RULES[rules % 3]).unwrap();
    let mut game = Game::new(options);
    for _ in 0..plies {
        let Some(mv) = random_move(game.position(), seed) else {
            break;
        };
        game.play(mv).unwrap();
    }
    game
}

/// The game's position for the multi-player searches, under the game's move cap (with the
/// trail of its last moves) when `capped`.
fn multi(game: &Game, capped: bool) -> MultiPosition {
    let g = SearchPosition::new(game.position().clone());
    let g = if capped {
        g.with_move_cap(Some(game.options().move_cap()))
            .with_game_trail(game)
    } else {
        g
    };
    MultiPosition::new(g)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Moves and passes made at random, then taken back in reverse: every step keeps the
    /// incremental hash equal to the hash computed from scratch, and the end restores the
    /// position (trail and hash included) exactly.
    #[test]
    fn make_and_pass_are_undone_exactly(
        size in 2u8..=6,
        players in 3u8..=4,
        rules in 0usize..3,
        plies in 0u32..80,
        capped: bool,
        seed: u64,
    ) {
        let mut seed = seed;
        let game = random_game(size, players, rules, plies, &mut seed);
        let mut g = multi(&game, capped);
        let before = g.clone();
        let mut done: Vec<Option<(Move, pyloff::Undo)>> = Vec::new();
        for _ in 0..12 {
            if g.outcome().is_some() {
                break;
            }
            seed = mix(seed);
            if seed % 4 == 0 {
                g.make_pass();
                done.push(None);
            } else {
                let mut moves = Vec::new();
                g.generate(&mut moves);
                let mv = pick(&moves, &mut seed);
                let undo = g.make(mv);
                done.push(Some((mv, undo)));
            }
            prop_assert_eq!(g.position().hash(), g.position().compute_hash());
            prop_assert!(g.to_move() < usize::from(players));
        }
        while let Some(step) = done.pop() {
            match step {
                Some((mv, undo)) => g.unmake(mv, undo),
                None => g.unmake_pass(),
            }
        }
        prop_assert_eq!(g.position().hash(), before.position().hash());
        prop_assert_eq!(g.position().status(), before.position().status());
        prop_assert_eq!(&g, &before);
    }

    /// A decided position has no moves and an undecided one has some; final scores rank a
    /// first place alone above a shared one above a draw above a loss, and every
    /// evaluation lies between a loss and a shared first place.
    #[test]
    fn outcome_and_evaluation_keep_their_order(
        size in 2u8..=5,
        players in 3u8..=4,
        rules in 0usize..3,
        plies in 0u32..200,
        seed: u64,
    ) {
        let mut seed = seed;
        let game = random_game(size, players, rules, plies, &mut seed);
        let g = multi(&game, true);
        let mut moves = Vec::new();
        g.generate(&mut moves);
        prop_assert_eq!(g.outcome().is_some(), moves.is_empty());
        let e = Evaluation::default().evaluate(&g);
        for &v in &e[..usize::from(players)] {
            prop_assert!(v > -WIN / 2 && v < WIN / usize::from(players) as i32);
        }
    }
}

#[test]
fn final_scores_follow_the_rules() {
    // Player 2 alone leads by 2 pieces.
    assert_eq!(
        final_scores(&[3, 5, 1]),
        [-WIN - 200, WIN + 200, -WIN - 400, 0]
    );
    // Players 1 and 3 share first place; player 2 is behind.
    assert_eq!(
        final_scores(&[4, 2, 4, 1]),
        [WIN / 2, -WIN - 200, WIN / 2, -WIN - 300]
    );
    // Everybody equal: a draw.
    assert_eq!(final_scores(&[2, 2, 2, 2]), [0; 4]);
}

/// Random positions of 3 and 4 players on boards of size 2 to 4, each rule set, with and
/// without the cap.
fn small_positions(count: usize) -> Vec<(Game, bool)> {
    let mut seed = 0x51AB;
    (0..count)
        .map(|i| {
            seed = mix(seed);
            let size = 2 + (seed % 3) as u8;
            let players = 3 + (i % 2) as u8;
            let plies = (mix(seed) % 30) as u32;
            let game = random_game(size, players, i, plies, &mut seed);
            (game, i % 3 == 0)
        })
        .collect()
}

#[test]
fn paranoid_equals_its_reference() {
    let eval = Evaluation::default();
    for (n, (game, capped)) in small_positions(24).iter().enumerate() {
        let g = multi(game, *capped);
        for depth in 1..=3 {
            let (value, best) = paranoid_reference(&g, &eval, depth);
            let r = Paranoid::new(eval.clone()).search(&g, &Limits::depth(depth));
            assert_eq!(r.value, value, "position {n} depth {depth}: {game:?}");
            if let Some(m) = r.best_move {
                assert!(
                    best.contains(&m),
                    "position {n} depth {depth}: {m} not best"
                );
            }
        }
    }
}

#[test]
fn brs_and_brs_plus_equal_their_reference() {
    let eval = Evaluation::default();
    for (n, (game, capped)) in small_positions(24).iter().enumerate() {
        let g = multi(game, *capped);
        for players in [BrsPlayers::Pass, BrsPlayers::Policy] {
            for depth in 1..=3 {
                let (value, best) = brs_reference(&g, &eval, depth, players);
                let mut search = match players {
                    BrsPlayers::Pass => Brs::new(eval.clone()),
                    BrsPlayers::Policy => Brs::plus(eval.clone()),
                };
                let r = search.search(&g, &Limits::depth(depth));
                assert_eq!(r.value, value, "position {n} {players:?} depth {depth}");
                if let Some(m) = r.best_move {
                    assert!(best.contains(&m), "position {n} {players:?} depth {depth}");
                }
            }
        }
    }
}

#[test]
fn the_engine_plays_a_legal_move_with_every_kind_and_level() {
    let mut seed = 0xE61;
    for i in 0..16u32 {
        let players = 3 + (i % 2) as u8;
        let plies = (mix(seed) % 60) as u32;
        let game = random_game(4 + (i % 3) as u8, players, i as usize, plies, &mut seed);
        if game.position().is_over() {
            continue;
        }
        for kind in SearchKind::ALL {
            for level in [8, 5, 2] {
                let mut engine = Engine::new().with_search_kind(kind);
                engine.set_move_cap(Some(game.options().move_cap()));
                engine.set_level(Level::new(level).unwrap());
                engine.set_seed(u64::from(i));
                let r = engine.search(&game, &Limits::nodes(1_500));
                let mv = r.best_move.expect("a move");
                assert!(
                    game.position().is_legal(mv),
                    "{kind} level {level}: {mv} in {}",
                    game.position()
                );
                assert!(r.nodes > 0);
            }
        }
    }
}

/// The default search: BRS+ with four players at full strength, the paranoid reduction
/// with three players and below level 8 (an engine with that kind set answers the same,
/// node for node).
#[test]
fn the_default_search_is_brs_plus_for_four_players_at_full_strength() {
    let mut seed = 0xDEF;
    for i in 0..8u32 {
        let players = 3 + (i % 2) as u8;
        let plies = 4 + (mix(seed) % 40) as u32;
        let game = random_game(5 + (i % 2) as u8, players, i as usize, plies, &mut seed);
        if game.position().is_over() {
            continue;
        }
        for level in [8, 5] {
            let expected = if players == 4 && level == 8 {
                SearchKind::BrsPlus
            } else {
                SearchKind::Paranoid
            };
            let run = |engine: &mut Engine| {
                engine.set_move_cap(Some(game.options().move_cap()));
                engine.set_level(Level::new(level).unwrap());
                engine.set_seed(u64::from(i));
                let r = engine.search(&game, &Limits::nodes(1_500));
                (r.best_move, r.nodes, r.depth)
            };
            let mut default = Engine::new();
            assert_eq!(default.search_kind(), None);
            assert_eq!(
                run(&mut default),
                run(&mut Engine::new().with_search_kind(expected)),
                "{players} players, level {level}"
            );
            assert_eq!(default.search_kind_for(players), expected);
        }
    }
    assert_eq!(pyloff::multi::default_search(4), SearchKind::BrsPlus);
    assert_eq!(pyloff::multi::default_search(3), SearchKind::Paranoid);
}

#[test]
fn the_engine_honours_root_moves_with_every_kind() {
    let game = Game::from_moves(Options::new(5, 4, RuleSet::Default).unwrap(), "c3 e5").unwrap();
    let only: Move = "a1".parse().unwrap();
    for kind in SearchKind::ALL {
        let mut engine = Engine::new().with_search_kind(kind);
        let root = SearchPosition::new(game.position().clone());
        let options = SearchOptions {
            root_moves: vec![only],
            ..SearchOptions::default()
        };
        let r = engine.search_root(&root, &[], &Limits::nodes(2_000), &options, |_| {});
        assert_eq!(r.best_move, Some(only), "{kind}");
    }
}

/// Three players on size 4, the last move before the cap (120 moves): player 1 (`x`, 2
/// pieces) to move, player 2 (`o`, 3 pieces) leads. `c5` takes the last freedom of o's two
/// pieces at the top left and leaves x alone in first place, 3 to 1 and 1; any other move
/// only ties o (3 and 3): a shared first place.
const LAST_MOVE: &str = "oox./x.../..../.o.+:.../.../...:../..:. 3 default 1 119";

#[test]
fn a_win_at_once_is_found_by_every_kind() {
    let pos: Position = LAST_MOVE.parse().unwrap();
    let win: Move = "c5".parse().unwrap();
    let mut after = pos.clone();
    after.play(win).unwrap();
    assert_eq!(after.scores(), &[3, 1, 1]);
    let cap = Some(pos.options().move_cap());
    assert_eq!(cap, Some(120));
    let root = SearchPosition::new(pos.clone()).with_move_cap(cap);
    let g = MultiPosition::new(root.clone());
    let eval = Evaluation::default();
    for depth in 1..=3 {
        let r = Paranoid::new(eval.clone()).search(&g, &Limits::depth(depth));
        assert_eq!((r.best_move, r.value), (Some(win), WIN + 200));
        let r = Brs::new(eval.clone()).search(&g, &Limits::depth(depth));
        assert_eq!(r.best_move, Some(win));
        let r = Brs::plus(eval.clone()).search(&g, &Limits::depth(depth));
        assert_eq!(r.best_move, Some(win));
    }
    let r = Mcts::new(MctsConfig::default(), eval).search(&g, 200, &Limits::default());
    assert_eq!(r.best_move, Some(win));
    for kind in SearchKind::ALL {
        let mut engine = Engine::new().with_search_kind(kind);
        engine.set_move_cap(cap);
        let r = engine.search_root(
            &root,
            &[],
            &Limits::nodes(5_000),
            &SearchOptions::default(),
            |_| {},
        );
        assert_eq!(r.best_move, Some(win), "{kind}");
        if kind != SearchKind::Mcts {
            assert!(r.score.is_win(), "{kind}: {:?}", r.score);
        }
    }
}

/// The opposition a player's value is set against, as `EvalParams::best_other` defines it,
/// computed here by hand: `w` percent of the best other player's value, the rest their mean.
fn opposition_by_hand(values: &[i32; 4], players: usize, me: usize, w: i32) -> i32 {
    let others: Vec<i32> = (0..players)
        .filter(|&i| i != me)
        .map(|i| values[i])
        .collect();
    let best = *others.iter().max().unwrap();
    let mean = others.iter().sum::<i32>() / others.len() as i32;
    (best * w + mean * (100 - w)) / 100
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// What a tuner reads is what the evaluation weighs: with three and four players each
    /// player's value is `player_value` of his terms, his pieces are his score, and only
    /// the player to move has the move.
    #[test]
    fn the_values_are_the_weighed_terms(
        players in 3u8..=4,
        rules in 0usize..3,
        plies in 0u32..60,
        seed: u64,
    ) {
        let mut seed = seed;
        let game = random_game(6, players, rules, plies, &mut seed);
        let eval = Evaluation::default();
        let pos = game.position();
        let terms = eval.terms(pos);
        let values = eval.values(pos, None);
        for p in pos.options().player_list() {
            let t = &terms[p.index()];
            prop_assert_eq!(t.pieces, pos.score(p));
            prop_assert_eq!(t.to_move, p == pos.to_move());
            prop_assert_eq!(values[p.index()], Evaluation::player_value(eval.params_for(pos), t));
        }
    }

    /// Every player's own view (the multi-player searches) and the root's view of the
    /// paranoid reduction are his value minus the others' as the weights say: the best
    /// other player alone at 100, their mean at 0, in between otherwise.
    #[test]
    fn the_views_set_a_value_against_the_weighed_others(
        players in 3u8..=4,
        rules in 0usize..3,
        plies in 0u32..60,
        w3 in prop::sample::select(vec![0, 50, 100]),
        w4 in prop::sample::select(vec![0, 50, 100]),
        seed: u64,
    ) {
        let mut seed = seed;
        let game = random_game(6, players, rules, plies, &mut seed);
        let mut eval = Evaluation::default();
        for p in &mut eval.multi {
            p.best_other = [w3, w4];
        }
        let w = if players == 3 { w3 } else { w4 };
        let pos = game.position();
        let values = eval.values(pos, None);
        let n = usize::from(players);
        let view = MultiEvaluator::evaluate(&eval, &multi(&game, false));
        for me in 0..n {
            let want = (values[me] - opposition_by_hand(&values, n, me, w)).clamp(-WIN / 8, WIN / 8);
            prop_assert_eq!(view[me], want);
        }
        let root = pos.to_move().index();
        let paranoid = ploy_search::Evaluator::evaluate(&eval, &SearchPosition::new(pos.clone()));
        prop_assert_eq!(paranoid, values[root] - opposition_by_hand(&values, n, root, w));
    }
}
