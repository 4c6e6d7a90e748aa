//! Games (`docs/rules.md` section 6): draw rules, checked play, undo, resignation.

use crate::common::{sq, with_commanders};
use ploy_core::{
    DrawReason, Game, GameError, IllegalMove, Move, Outcome, Position, Rules, Seat, WinReason,
};

const G: Seat = Seat::Green;
const R: Seat = Seat::Red;

fn mv(from: &str, to: &str, r: u8) -> Move {
    Move::new(sq(from), sq(to), r)
}

fn turn(at: &str, r: u8) -> Move {
    Move::turn(sq(at), r)
}

/// Both commanders of the start position turn one step and back: four plies that return
/// to the position they started from.
fn turning_cycle() -> [Move; 4] {
    [turn("e1", 1), turn("e9", 1), turn("e1", 7), turn("e9", 7)]
}

fn play_all(game: &mut Game, moves: &[Move]) {
    for &m in moves {
        game.play(m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
    }
}

const REPETITION: Outcome = Outcome::Draw {
    reason: DrawReason::Repetition,
};
const NO_CAPTURE: Outcome = Outcome::Draw {
    reason: DrawReason::NoCaptureLimit,
};

#[test]
fn threefold_repetition_by_turning() {
    let mut game = Game::new(Rules::standard());
    play_all(&mut game, &turning_cycle());
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.outcome(), None);
    play_all(&mut game, &turning_cycle()[..3]);
    assert_eq!(
        game.outcome(),
        None,
        "seven plies: the start position occurred twice"
    );
    game.play(turning_cycle()[3]).unwrap();
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(REPETITION));
}

#[test]
fn threefold_repetition_by_moving_back_and_forth() {
    // Probes pointing N and S on a4 (green) and i6 (red) step out and back.
    let start = with_commanders(&[("a4", G, 17), ("i6", R, 17)], G, Rules::standard());
    let mut game = Game::from_position(start);
    let cycle = [
        mv("a4", "a5", 0),
        mv("i6", "i5", 0),
        mv("a5", "a4", 0),
        mv("i5", "i6", 0),
    ];
    play_all(&mut game, &cycle);
    play_all(&mut game, &cycle[..3]);
    assert_eq!(game.outcome(), None);
    game.play(cycle[3]).unwrap();
    assert_eq!(game.outcome(), Some(REPETITION));
}

#[test]
fn a_drawn_game_has_no_moves_but_its_position_has() {
    let mut game = Game::new(Rules::standard());
    play_all(&mut game, &turning_cycle());
    play_all(&mut game, &turning_cycle());
    assert_eq!(game.outcome(), Some(REPETITION));
    assert!(game.legal_moves().is_empty());
    let next = turning_cycle()[0];
    assert!(!game.is_legal(next));
    let before = game.clone();
    assert_eq!(game.play(next), Err(GameError::GameOver(REPETITION)));
    assert_eq!(game, before, "a refused move changes nothing");
    // The bare position knows no history: it is the start position with its 145 moves.
    assert_eq!(game.position().outcome(), None);
    assert_eq!(game.position().legal_moves().len(), 145);
    assert!(game.position().is_legal(next));
    let fresh = Position::from_setup(game.position().to_setup(), game.rules()).unwrap();
    assert_eq!(fresh.legal_moves().len(), 145);
}

#[test]
fn no_capture_limit() {
    let rules = Rules::standard()
        .with_repetition_draw(false)
        .with_no_capture_limit(Some(5));
    let mut game = Game::new(rules);
    play_all(&mut game, &turning_cycle());
    assert_eq!(game.plies_since_capture(), 4);
    assert_eq!(game.outcome(), None);
    game.play(turning_cycle()[0]).unwrap();
    assert_eq!(game.plies_since_capture(), 5);
    assert_eq!(game.outcome(), Some(NO_CAPTURE));
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.position().legal_moves().len(),
        game.position().count_legal_moves()
    );
    assert!(
        !game.position().legal_moves().is_empty(),
        "the bare position still has moves"
    );
}

#[test]
fn a_capture_restarts_the_no_capture_count() {
    let rules = Rules::standard()
        .with_repetition_draw(false)
        .with_no_capture_limit(Some(4));
    // Green lance N, E, S on e2; a red shield on e5.
    let start = with_commanders(&[("e2", G, 21), ("e5", R, 16)], G, rules);
    let mut game = Game::from_position(start);
    play_all(&mut game, &[turn("a1", 1), turn("i9", 1)]);
    game.play(mv("e2", "e5", 0)).unwrap();
    assert_eq!(game.plies_since_capture(), 0);
    play_all(&mut game, &[turn("i9", 7), turn("a1", 7), turn("i9", 1)]);
    assert_eq!(game.plies_since_capture(), 3);
    assert_eq!(
        game.outcome(),
        None,
        "six plies, but only three since the capture"
    );
    game.play(turn("a1", 1)).unwrap();
    assert_eq!(game.outcome(), Some(NO_CAPTURE));
}

#[test]
fn university_rules_have_no_draws() {
    for rules in [
        Rules::university(),
        Rules::standard()
            .with_repetition_draw(false)
            .with_no_capture_limit(None),
    ] {
        let mut game = Game::new(rules);
        for _ in 0..80 {
            play_all(&mut game, &turning_cycle());
        }
        assert_eq!(game.plies_since_capture(), 320);
        assert!(game.repetitions() > 3);
        assert_eq!(game.outcome(), None);
        assert_eq!(game.legal_moves().len(), 145);
    }
    // The repetition rule alone still draws.
    let mut game = Game::new(Rules::university().with_repetition_draw(true));
    play_all(&mut game, &turning_cycle());
    play_all(&mut game, &turning_cycle());
    assert_eq!(game.outcome(), Some(REPETITION));
}

#[test]
fn illegal_moves_leave_the_game_unchanged() {
    let mut game = Game::new(Rules::standard());
    game.play(mv("e3", "e4", 0)).unwrap();
    let before = game.clone();
    for bad in [
        mv("e3", "e4", 0),
        mv("e4", "e5", 0),
        mv("e7", "e5", 0),
        turn("e9", 2),
        turn("e5", 1),
    ] {
        assert_eq!(
            game.play(bad),
            Err(GameError::Illegal(IllegalMove(bad))),
            "{bad:?}"
        );
        assert_eq!(game, before);
    }
}

#[test]
fn a_won_game_takes_no_more_moves() {
    let start = with_commanders(
        &[("e4", G, 21), ("e6", R, 170), ("c7", R, 16)],
        G,
        Rules::standard(),
    );
    let mut game = Game::from_position(start);
    game.play(mv("e4", "e6", 0)).unwrap();
    let won = Outcome::win(G, WinReason::CommanderCaptured);
    assert_eq!(game.outcome(), Some(won));
    assert!(game.legal_moves().is_empty());
    let before = game.clone();
    assert_eq!(game.play(mv("c7", "c6", 0)), Err(GameError::GameOver(won)));
    assert_eq!(game, before);
    // Resigning or losing on time after the end is refused as "the game is over", for
    // the loser and the winner alike (the loser is no longer in play).
    for seat in [R, G] {
        assert_eq!(game.resign(seat), Err(GameError::GameOver(won)));
        assert_eq!(game.forfeit_on_time(seat), Err(GameError::GameOver(won)));
    }
    assert_eq!(game.agree_draw(), Err(GameError::GameOver(won)));
    assert_eq!(game, before);
    assert_eq!(game.undo(), Ok(mv("e4", "e6", 0)));
    assert_eq!(game.outcome(), None);
}

#[test]
fn undo_takes_moves_back_in_order() {
    let mut game = Game::new(Rules::standard());
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));
    let moves = [mv("e3", "e4", 0), mv("e7", "e6", 0), mv("e4", "e5", 3)];
    let mut seen = vec![game.position().clone()];
    for &m in &moves {
        game.play(m).unwrap();
        seen.push(game.position().clone());
    }
    assert_eq!(game.moves(), moves);
    assert_eq!(game.positions(), seen);
    for (i, &m) in moves.iter().enumerate().rev() {
        assert_eq!(game.undo(), Ok(m));
        assert_eq!(game.position(), &seen[i]);
        assert_eq!(game.moves(), &moves[..i]);
    }
    assert_eq!(game, Game::new(Rules::standard()));
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));

    // Undoing the move that completed a repetition lifts the draw.
    play_all(&mut game, &turning_cycle());
    play_all(&mut game, &turning_cycle());
    assert_eq!(game.outcome(), Some(REPETITION));
    game.undo().unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(game.legal_moves().len(), 145);

    let replayed = Game::replay(Position::new(), moves).unwrap();
    assert_eq!(replayed.position(), &seen[3]);
    assert!(matches!(
        Game::replay(Position::new(), [moves[0], moves[0]]),
        Err((1, GameError::Illegal(_)))
    ));
}

#[test]
fn resignation_and_other_recorded_endings() {
    let mut game = Game::new(Rules::standard());
    let fresh = game.clone();
    assert_eq!(
        game.resign(Seat::Yellow),
        Err(GameError::NotInPlay(Seat::Yellow))
    );
    assert_eq!(game, fresh);

    game.play(mv("e3", "e4", 0)).unwrap();
    game.resign(G).unwrap();
    let resigned = Outcome::win(R, WinReason::Resignation);
    assert_eq!(game.outcome(), Some(resigned));
    assert!(game.legal_moves().is_empty());
    assert!(!game.is_legal(mv("e7", "e6", 0)));
    let before = game.clone();
    assert_eq!(
        game.play(mv("e7", "e6", 0)),
        Err(GameError::GameOver(resigned))
    );
    assert_eq!(game.resign(R), Err(GameError::GameOver(resigned)));
    assert_eq!(game.agree_draw(), Err(GameError::GameOver(resigned)));
    assert_eq!(game, before);
    // The position itself is not decided by a resignation.
    assert_eq!(game.position().outcome(), None);
    // Undo takes back the move and the resignation after it.
    assert_eq!(game.undo(), Ok(mv("e3", "e4", 0)));
    assert_eq!(game.outcome(), None);
    assert_eq!(game, fresh);

    let mut game = Game::new(Rules::standard());
    game.forfeit_on_time(R).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(G, WinReason::TimeForfeit))
    );
    let mut game = Game::new(Rules::standard());
    game.agree_draw().unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    assert!(game.legal_moves().is_empty());
}

// ---- Random games checked against a naive model of the draw rules ------------------------

mod random {
    use crate::common::{SplitMix, any_rules};
    use ploy_core::{DrawReason, Game, GameError, Move, Outcome, Position, Rules};
    use proptest::prelude::*;
    use proptest::test_runner::FileFailurePersistence;

    /// The outcomes the rules allow for the game `positions` (start first): the
    /// board's verdict first, then the draw rules, counted naively over the whole history.
    /// The rules give no precedence between the two draw rules: both are accepted.
    fn expected_outcomes(positions: &[Position], rules: Rules) -> Vec<Option<Outcome>> {
        let current = positions.last().unwrap();
        if let Some(o) = current.outcome() {
            return vec![Some(o)];
        }
        let occurrences = positions
            .iter()
            .filter(|p| p.board() == current.board() && p.turn() == current.turn())
            .count();
        let quiet = positions
            .windows(2)
            .rev()
            .take_while(|w| w[0].board().occupied().count() == w[1].board().occupied().count())
            .count();
        let mut draws = Vec::new();
        if rules.repetition_draw && occurrences >= 3 {
            draws.push(Some(Outcome::Draw {
                reason: DrawReason::Repetition,
            }));
        }
        if rules
            .no_capture_limit
            .is_some_and(|n| quiet >= usize::from(n))
        {
            draws.push(Some(Outcome::Draw {
                reason: DrawReason::NoCaptureLimit,
            }));
        }
        if draws.is_empty() { vec![None] } else { draws }
    }

    fn check(game: &Game) {
        let positions = game.positions();
        assert_eq!(positions.len(), game.moves().len() + 1);
        assert_eq!(positions.last(), Some(game.position()));
        let expected = expected_outcomes(positions, game.rules());
        assert!(
            expected.contains(&game.outcome()),
            "{:?} instead of {expected:?} after {:?}",
            game.outcome(),
            game.moves()
        );
        let current = game.position();
        let naive_reps = positions
            .iter()
            .filter(|p| p.board() == current.board() && p.turn() == current.turn())
            .count();
        assert_eq!(game.repetitions(), naive_reps);
        if game.outcome().is_some() {
            assert!(game.legal_moves().is_empty());
        } else {
            assert_eq!(game.legal_moves().len(), current.legal_moves().len());
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 48,
            failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("regressions"))),
            ..ProptestConfig::default()
        })]

        /// Random games with draw rules on, undoing now and then and often turning a piece
        /// back so that positions repeat.
        #[test]
        fn random_games(
            base in any_rules(),
            repetition in any::<bool>(),
            limit in prop::option::of(2u16..40),
            seed in any::<u64>(),
        ) {
            let rules = base.with_repetition_draw(repetition).with_no_capture_limit(limit);
            let mut rng = SplitMix(seed);
            let mut game = Game::new(rules);
            check(&game);
            for _ in 0..200 {
                if game.outcome().is_some() {
                    let before = game.clone();
                    let any = Move::new(ploy_core::Square::E3, ploy_core::Square::E4, 0);
                    assert!(matches!(game.play(any), Err(GameError::GameOver(_))));
                    assert_eq!(game, before);
                    if rng.below(2) == 0 {
                        break;
                    }
                }
                if !game.moves().is_empty() && (game.outcome().is_some() || rng.below(10) == 0) {
                    let before_last = game.positions()[game.positions().len() - 2].clone();
                    game.undo().unwrap();
                    assert_eq!(game.position(), &before_last);
                    check(&game);
                    continue;
                }
                let legal = game.legal_moves();
                let n = game.moves().len();
                // Turn back the piece this side turned on its last move, if it can.
                let back = (n >= 2)
                    .then(|| game.moves()[n - 2])
                    .filter(|m| m.is_direction_move())
                    .map(|m| Move::turn(m.to(), 8 - m.rotation()))
                    .filter(|m| legal.contains(m));
                let turns: Vec<Move> =
                    legal.iter().copied().filter(|m| m.is_direction_move()).collect();
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| !m.is_direction_move())
                    .filter(|m| game.position().board().piece_at(m.to()).is_some())
                    .collect();
                let mv = match (back, rng.below(10)) {
                    (Some(b), 0..=4) => b,
                    (_, 5..=6) if !turns.is_empty() => turns[rng.below(turns.len())],
                    (_, 7) if !captures.is_empty() => captures[rng.below(captures.len())],
                    _ => legal[rng.below(legal.len())],
                };
                let expected = game.position().after(mv).unwrap();
                game.play(mv).unwrap();
                assert_eq!(game.position(), &expected);
                check(&game);
            }
        }
    }
}
