//! Property tests over random playouts: position -> string -> position, and every legal move
//! -> each notation -> the same move; legality reasons agree with the core.

use ploy_core::{Elimination, Move, Position, Rotation, Rules, Square, Variant};
use ploy_notation::{
    AlgebraicMove, BoardString, IllegalMoveError, PositionString, UniversityMove, check_legal,
    read_algebraic, read_position, read_university,
};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn rules(i: usize) -> Rules {
    [
        Rules::university(),
        Rules::university().with_rotation(Rotation::SingleStep),
        Rules::university().with_elimination(Elimination::Relaxed),
    ][i]
}

/// A position after up to `plies` random moves from the start (captures preferred half of
/// the time, so that games end and decided positions appear).
fn playout(seed: u64, plies: usize, rules: Rules) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::start(Variant::TwoPlayer, rules);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| !m.is_direction_move() && pos.board().piece_at(m.to()).is_some())
            .collect();
        let mv = if !captures.is_empty() && rng.random_bool(0.5) {
            captures[rng.random_range(0..captures.len())]
        } else {
            moves[rng.random_range(0..moves.len())]
        };
        pos.make_move(mv);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn position_string_round_trip(seed in any::<u64>(), plies in 0usize..300, r in 0usize..3) {
        let pos = playout(seed, plies, rules(r));
        let text = PositionString::from_position(&pos).to_string();
        let back = read_position(&text, rules(r)).unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.outcome(), pos.outcome());
        // Syntax level: canonical text writes itself, whitespace around squares is ignored.
        let parsed: PositionString = text.parse().unwrap();
        prop_assert_eq!(parsed.to_string(), text.clone());
        let spaced = text.replace(',', " , ").replace('/', "\n/\t");
        prop_assert_eq!(spaced.parse::<PositionString>().unwrap(), parsed.clone());
        let board_text = parsed.board().to_string();
        prop_assert_eq!(board_text.parse::<BoardString>().unwrap(), parsed.board().clone());
    }

    #[test]
    fn every_legal_move_round_trips(seed in any::<u64>(), plies in 0usize..200, r in 0usize..3) {
        let pos = playout(seed, plies, rules(r));
        for &mv in pos.legal_moves().iter() {
            let uni = UniversityMove::from(mv).to_string();
            prop_assert_eq!(uni.len(), 7);
            prop_assert_eq!(read_university(&pos, &uni), Ok(mv));
            prop_assert_eq!(read_algebraic(&pos, &uni), Ok(mv));
            let alg = AlgebraicMove::from_move(&pos, mv);
            let alg_text = alg.to_string();
            prop_assert_eq!(read_algebraic(&pos, &alg_text), Ok(mv));
            prop_assert_eq!(alg_text.parse::<AlgebraicMove>().unwrap(), alg);
            // `x` exactly on captures, `#` exactly on wins.
            let next = pos.after(mv).unwrap();
            let captures = next.board().occupied().count() < pos.board().occupied().count();
            prop_assert_eq!(alg_text.contains('x'), captures);
            prop_assert_eq!(alg_text.ends_with('#'), next.outcome().is_some());
            // Lenient spellings: the other separator, no `#`.
            if !mv.is_direction_move() {
                let swapped = alg_text.replacen(if captures { 'x' } else { '-' }, if captures { "-" } else { "x" }, 1);
                prop_assert_eq!(read_algebraic(&pos, &swapped), Ok(mv));
            }
            prop_assert_eq!(read_algebraic(&pos, alg_text.trim_end_matches('#')), Ok(mv));
        }
    }

    #[test]
    fn legality_reasons_agree_with_the_core(seed in any::<u64>(), plies in 0usize..120, r in 0usize..3) {
        let pos = playout(seed, plies, rules(r));
        for (from, _) in pos.board().pieces() {
            for to in Square::ALL {
                for rot in 0..8 {
                    let mv = Move::new(from, to, rot);
                    let checked = check_legal(&pos, mv);
                    prop_assert_eq!(checked.is_ok(), pos.is_legal(mv));
                    if let Err(e) = checked {
                        let consistent = match e {
                            IllegalMoveError::GameOver => pos.is_game_over(),
                            IllegalMoveError::NotYours { square, .. } => {
                                !pos.controlled_by(pos.turn()).contains(square)
                            }
                            IllegalMoveError::NoChange { .. } => from == to,
                            IllegalMoveError::TurnAfterMotion { .. } => from != to && rot != 0,
                            IllegalMoveError::Unreachable { .. } => {
                                !pos.is_legal(Move::new(from, to, 0))
                            }
                            IllegalMoveError::RotationRule { .. } => {
                                pos.rules().rotation == Rotation::SingleStep
                            }
                            _ => false,
                        };
                        prop_assert!(consistent, "{:?}: {}", mv, e);
                    }
                }
            }
        }
    }
}
