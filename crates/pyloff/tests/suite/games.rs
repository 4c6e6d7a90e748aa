//! Games and records on random games of every rule set and player count: the record's text
//! round trip and replay, undo back to the start, the history of hashes; and the bot: every
//! exact search configuration returns plain negamax's value at a fixed depth.

use crate::common::{mix, random_move};
use ploy_search::{Config, Driver, Limits, Searcher, negamax};
use proptest::prelude::*;
use pyloff::{Evaluation, Game, Options, Position, Record, RecordResult, RuleSet, SearchPosition};

fn random_game(options: Options, mut seed: u64, plies: usize) -> Game {
    let mut game = Game::new(options);
    for _ in 0..plies {
        match random_move(game.position(), &mut seed) {
            Some(mv) => game.play(mv).unwrap(),
            None => break,
        }
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn records_round_trip_and_replay(
        size in 2u8..=6, players in 2u8..=4, rules in 0usize..3, seed: u64, plies in 0usize..120
    ) {
        let options = Options::new(size, players, RuleSet::ALL[rules]).unwrap();
        let game = random_game(options, seed, plies);
        let record = game.record();
        let text = record.to_string();
        let read: Record = text.parse().unwrap();
        prop_assert_eq!(&read, &record);
        let replayed = read.replay().unwrap();
        prop_assert_eq!(&replayed, &game);
        prop_assert_eq!(replayed.position().hash(), game.position().hash());
        prop_assert_eq!(replayed.history(), game.history());
        // The same moves as a move list.
        let list: Vec<String> = game.moves().iter().map(|(_, m)| m.to_string()).collect();
        let from_list = Game::from_moves(options, &list.join(" ")).unwrap();
        prop_assert_eq!(&from_list, &game);
        // A capped result must be the score's leaders while the game goes on.
        if !game.position().is_over() {
            let capped = Record {
                result: RecordResult::Capped(pyloff::Outcome::from_scores(game.position().scores())),
                ..record.clone()
            };
            prop_assert!(capped.to_string().parse::<Record>().unwrap().replay().is_ok());
        }
    }

    #[test]
    fn undo_returns_to_every_earlier_position(
        size in 2u8..=5, players in 2u8..=4, rules in 0usize..3, seed: u64
    ) {
        let options = Options::new(size, players, RuleSet::ALL[rules]).unwrap();
        let mut game = Game::new(options);
        let mut positions: Vec<Position> = vec![game.position().clone()];
        let mut s = seed;
        for _ in 0..60 {
            match random_move(game.position(), &mut s) {
                Some(mv) => game.play(mv).unwrap(),
                None => break,
            }
            positions.push(game.position().clone());
        }
        let hashes: Vec<u64> = positions.iter().map(Position::hash).collect();
        prop_assert_eq!(game.history(), &hashes[..hashes.len() - 1]);
        while game.undo().is_some() {
            positions.pop();
            let expected = positions.last().unwrap();
            prop_assert_eq!(game.position(), expected);
            prop_assert_eq!(game.position().hash(), expected.hash());
            prop_assert_eq!(game.position().status(), expected.status());
        }
        prop_assert_eq!(positions.len(), 1);
    }
}

/// Every exact configuration (MTD(f), alpha-beta with and without PVS, with and without
/// the table) returns plain negamax's value and one of its best moves, at depths 1 to 3, on
/// small boards of every rule set and player count (paranoid for three and four).
#[test]
fn exact_search_is_negamax() {
    let mut seed = 31;
    let eval = Evaluation::default();
    // Without quiescence search, as Pyloff's engines search (its urgent moves are the
    // search's captures for ordering only): plain negamax stops at the depth too.
    let exact = Config {
        quiescence: false,
        ..Config::exact()
    };
    let configs = [
        exact.clone(),
        Config {
            driver: Driver::AlphaBeta,
            ..exact.clone()
        },
        Config {
            table_bytes: 0,
            ..exact.clone()
        },
        Config::plain(),
    ];
    for rules in RuleSet::ALL {
        for players in 2..=4 {
            for size in [3, 4] {
                seed = mix(seed);
                let options = Options::new(size, players, rules).unwrap();
                let game = random_game(options, seed, (seed % 24) as usize);
                if game.position().is_over() {
                    continue;
                }
                // Without a cap, and with one two moves ahead (final positions in the tree).
                let cap = (seed % 2 == 0).then(|| game.position().plies() + 2);
                let g = SearchPosition::new(game.position().clone()).with_move_cap(cap);
                let history = g.history(&game);
                for depth in 1..=3 {
                    let (value, best) = negamax(&g, &eval, &history, depth, None);
                    for config in &configs {
                        let mut searcher = Searcher::new(config.clone(), eval.clone());
                        let r = searcher.search(&g, &history, &Limits::depth(depth), |_| {});
                        assert_eq!(
                            r.score,
                            value,
                            "{config:?} depth {depth} {}",
                            game.position()
                        );
                        assert!(
                            best.contains(&r.best_move.unwrap()),
                            "{config:?} depth {depth}: {:?} not among {best:?}",
                            r.best_move
                        );
                    }
                }
            }
        }
    }
}

/// A repeated position is one for the search without a move cap (it scores as a draw), and
/// none under a cap, where the number of moves made is part of the state.
#[test]
fn repetitions_count_only_without_a_cap() {
    let options = Options::new(2, 2, RuleSet::Default).unwrap();
    let mut seed = 3;
    let game = (0..1000)
        .find_map(|_| {
            let mut game = Game::new(options);
            for _ in 0..40 {
                let mv = random_move(game.position(), &mut seed)?;
                game.play(mv).unwrap();
                if game.history().contains(&game.position().hash()) {
                    return Some(game);
                }
            }
            None
        })
        .expect("size 2 games repeat");
    let g = SearchPosition::new(game.position().clone());
    assert!(
        g.history(&game)
            .contains(&ploy_search::SearchGame::hash(&g))
    );
    let capped = g.clone().with_move_cap(Some(364));
    let history = capped.history(&game);
    assert_eq!(history.len(), game.history().len());
    assert!(!history.contains(&ploy_search::SearchGame::hash(&capped)));
    // The same board at another move count hashes differently, under a cap only.
    assert_ne!(
        ploy_search::SearchGame::hash(&capped),
        ploy_search::SearchGame::hash(&g)
    );
}

/// Under a move cap, a position that closes a cycle of the game and the search's path is
/// final for the search, with the result of the cycle played on move by move to the cap.
#[test]
fn a_cycle_under_a_cap_is_decided_by_the_position_it_reaches_at_the_cap() {
    use ploy_search::{SearchGame, Side, Terminal};
    use pyloff::Outcome;
    let mut seed = 11;
    let mut checked = 0;
    for rules in RuleSet::ALL {
        for players in 2..=3 {
            let options = Options::new(2, players, rules).unwrap();
            for _ in 0..300 {
                // A random game up to its first repetition.
                let mut game = Game::new(options);
                let mut period = None;
                for _ in 0..60 {
                    let Some(mv) = random_move(game.position(), &mut seed) else {
                        break;
                    };
                    game.play(mv).unwrap();
                    let h = game.position().hash();
                    if let Some(back) = game.history().iter().rev().position(|&x| x == h) {
                        period = Some(back + 1);
                        break;
                    }
                }
                let Some(period) = period.filter(|&p| p <= 24) else {
                    continue;
                };
                let moves: Vec<_> = game.moves().iter().map(|&(_, m)| m).collect();
                let last = *moves.last().unwrap();
                let mut before = game.clone();
                before.undo();
                for extra in 1..=2 * period as u32 {
                    let cap = game.position().plies() + extra;
                    // The cycle's moves played on until the cap.
                    let mut played = game.clone();
                    let cycle = &moves[moves.len() - period..];
                    let mut i = 0;
                    while played.position().plies() < cap && !played.position().is_over() {
                        played.play(cycle[i % period]).unwrap();
                        i += 1;
                    }
                    let g = SearchPosition::new(before.position().clone())
                        .with_move_cap(Some(cap))
                        .with_game_trail(&before);
                    let mut child = g.clone();
                    child.make(last);
                    // Two players: the leader wins; three (paranoid for the player to
                    // move before the last move): his win alone, a loss if he does not lead.
                    let expected = match Outcome::from_scores(played.position().scores()) {
                        Outcome::Draw => Terminal::Draw,
                        Outcome::Win(w) => match g.root() {
                            None => Terminal::Win(Side(w.iter().next().unwrap().number() - 1)),
                            Some(r) if !w.contains(r) => Terminal::Win(Side::SECOND),
                            Some(_) if w.len() == 1 => Terminal::Win(Side::FIRST),
                            Some(_) => Terminal::Draw,
                        },
                    };
                    assert_eq!(child.terminal(), Some(expected), "cap {cap}");
                    // The search's root is not final although it repeats: play goes on.
                    let root = SearchPosition::new(game.position().clone())
                        .with_move_cap(Some(cap))
                        .with_game_trail(&game);
                    assert_eq!(root.terminal(), None);
                    // Without the game's trail, or without a cap, no cycle is seen.
                    let mut plain =
                        SearchPosition::new(before.position().clone()).with_move_cap(Some(cap));
                    plain.make(last);
                    assert_eq!(plain.terminal(), None);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} cycles");
}

/// Contempt: the player searched for gets `contempt` more in every evaluation of a
/// two-player search (whoever is to move), nothing in a paranoid one; an even end stays 0.
#[test]
fn contempt_favours_the_player_searched_for() {
    use ploy_search::{Evaluator, SearchGame};
    use pyloff::Player;
    let eval = Evaluation::default();
    let mut seed = 5;
    for rules in RuleSet::ALL {
        let contempt = eval.params(rules).contempt;
        assert!(contempt > 0);
        for players in 2..=3 {
            let options = Options::new(5, players, rules).unwrap();
            for plies in [0, 7, 20] {
                seed = mix(seed);
                let game = random_game(options, seed, plies);
                let g = SearchPosition::new(game.position().clone());
                let plain = eval.evaluate(&g);
                let mover = game.position().to_move();
                let other = Player::ALL[(mover.index() + 1) % usize::from(players)];
                let mine = g.clone().with_contempt_for(Some(mover));
                let theirs = g.clone().with_contempt_for(Some(other));
                if players == 2 {
                    assert_eq!(eval.evaluate(&mine), plain + contempt);
                    assert_eq!(eval.evaluate(&theirs), plain - contempt);
                    assert_ne!(mine.hash(), g.hash());
                } else {
                    assert_eq!(eval.evaluate(&mine), plain);
                    assert_eq!(mine.hash(), g.hash());
                }
            }
        }
    }
}

/// The engine's reported score is on the evaluation's scale: at depth 1, where no drawn end
/// is in sight, it equals a plain search's without contempt.
#[test]
fn engine_scores_leave_the_contempt_out() {
    use pyloff::Engine;
    let mut seed = 9;
    for rules in RuleSet::ALL {
        let options = Options::new(5, 2, rules).unwrap();
        for plies in [0, 5, 12] {
            seed = mix(seed);
            let game = random_game(options, seed, plies);
            let mut engine = Engine::new();
            let r = engine.search(&game, &Limits::depth(1));
            let g = SearchPosition::new(game.position().clone());
            let mut plain = Searcher::new(Engine::default_config(), Evaluation::default());
            let p = plain.search(&g, &g.history(&game), &Limits::depth(1), |_| {});
            assert_eq!(r.score, p.score, "{rules:?} after {plies} moves");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The search's "captures" are the urgent moves with three players and none with two
    /// or four: every move the position lists among them is legal, a legal move is listed
    /// exactly when it is urgent in a three-player game, and (under the
    /// default and `all_freedoms` rules, where a group lives or dies as a whole) urgent
    /// means filling the last freedom of groups worth a piece by the ordering's weights.
    #[test]
    fn the_urgent_moves_are_the_searchs_captures(
        size in 3u8..=6,
        players in 2u8..=4,
        rules in 0usize..3,
        plies in 0usize..60,
        seed: u64,
    ) {
        use ploy_search::SearchGame;
        let options = Options::new(size, players, RuleSet::ALL[rules]).unwrap();
        let game = random_game(options, seed, plies);
        let g = SearchPosition::new(game.position().clone());
        let mut all = Vec::new();
        g.generate(&mut all);
        let mut urgent = Vec::new();
        g.generate_captures(&mut urgent);
        for &m in &urgent {
            prop_assert!(all.contains(&m), "{m} listed urgent but not legal");
        }
        prop_assert_eq!(g.orders_urgent_moves(), players == 3);
        for &m in &all {
            prop_assert_eq!(urgent.contains(&m), g.is_capture(m), "{}", m);
            prop_assert_eq!(g.is_urgent(m) && players == 3, g.is_capture(m), "{}", m);
            if RuleSet::ALL[rules] != RuleSet::CutDown {
                prop_assert_eq!(g.is_urgent(m), urgent_by_hand(game.position(), m), "{}", m);
            }
        }
    }
}

/// Whether a move is urgent, from the rules' groups: the groups whose only freedom is the
/// point it fills, 100 a piece for another player's and 50 a piece for the mover's, add up
/// to at least a piece.
fn urgent_by_hand(pos: &Position, mv: pyloff::Move) -> bool {
    let pyloff::Move::Place(cell) = mv else {
        return false;
    };
    let Some(x) = pos.lowest_empty(cell) else {
        return false;
    };
    let grid = 2 * pos.size() - 1;
    let mut seen: Vec<Vec<pyloff::Point>> = Vec::new();
    let mut value = 0;
    for cx in 0..grid {
        for cy in 0..grid {
            let Some(c) = pyloff::Cell::new(cx, cy) else {
                continue;
            };
            for p in c.points(pos.size()) {
                let Some(group) = pos.group(p) else {
                    continue;
                };
                if group.freedoms != [x] || seen.contains(&group.pieces) {
                    continue;
                }
                let per_piece = if group.player == pos.to_move() {
                    50
                } else {
                    100
                };
                value += per_piece * group.pieces.len();
                seen.push(group.pieces);
            }
        }
    }
    value >= 100
}
