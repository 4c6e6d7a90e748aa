//! Property tests over random playouts: position -> string -> position, and every legal move
//! -> each notation -> the same move; legality reasons agree with the core.

use ploy_core::{
    BareCommander, Elimination, Move, PartnerElimination, Position, Rotation, Rules, Square,
    Variant,
};
use ploy_notation::{
    AlgebraicMove, BoardString, FourPlayerBoardString, FourPlayerPositionString, IllegalMoveError,
    PositionString, TwoPlayerPositionString, UniversityMove, check_legal, read_algebraic,
    read_position, read_university,
};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Rules with every option from the bits of `i`.
fn rules(i: usize) -> Rules {
    let mut rules = Rules::university();
    if i & 1 != 0 {
        rules = rules.with_rotation(Rotation::SingleStep);
    }
    if i & 2 != 0 {
        rules = rules.with_elimination(Elimination::Relaxed);
    }
    if i & 4 != 0 {
        rules = rules.with_partner_elimination(PartnerElimination::PlaysOn);
    }
    if i & 8 != 0 {
        rules = rules.with_bare_commander(BareCommander::Removed);
    }
    rules
}

const VARIANTS: [Variant; 3] = [
    Variant::TwoPlayer,
    Variant::FreeForAll,
    Variant::Partnership,
];

/// A position after up to `plies` random moves from the start of `VARIANTS[v]` (captures
/// preferred half of the time, so that games end and decided positions appear).
fn playout(seed: u64, plies: usize, rules: Rules, v: usize) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::start(VARIANTS[v], rules);
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
    fn position_string_round_trip(
        seed in any::<u64>(), plies in 0usize..300, r in 0usize..16, v in 0usize..3,
    ) {
        let pos = playout(seed, plies, rules(r), v);
        let text = PositionString::from_position(&pos).to_string();
        prop_assert_eq!(text.starts_with("ffa ") || text.starts_with("partnership "), v > 0);
        let back = read_position(&text, rules(r)).unwrap();
        prop_assert!(back.same_state(&pos));
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(back.variant(), pos.variant());
        prop_assert_eq!(back.mover(), pos.mover());
        prop_assert_eq!(back.legal_moves().to_vec(), pos.legal_moves().to_vec());
        // Why the last opponent went out is history: only the winners are state.
        prop_assert_eq!(back.outcome().map(|o| o.winners()), pos.outcome().map(|o| o.winners()));
        if v == 0 {
            prop_assert_eq!(&back, &pos);
        }
        // Syntax level: canonical text writes itself, whitespace around squares is ignored
        // (but the fields stay separated by single spaces).
        let parsed: PositionString = text.parse().unwrap();
        prop_assert_eq!(parsed.to_string(), text.clone());
        let spaced = text.replace(',', " , ").replace("  ", " ").replace('/', "\n/\t");
        prop_assert_eq!(spaced.parse::<PositionString>().unwrap(), parsed.clone());
        match &parsed {
            PositionString::TwoPlayer(two) => {
                let board_text = two.board().to_string();
                prop_assert_eq!(board_text.parse::<BoardString>().unwrap(), two.board().clone());
                prop_assert!(FourPlayerPositionString::from_ascii(text.as_bytes()).is_err());
            }
            PositionString::FourPlayer(four) => {
                let board_text = four.board().to_string();
                prop_assert_eq!(
                    board_text.parse::<FourPlayerBoardString>().unwrap(),
                    four.board().clone()
                );
                prop_assert!(TwoPlayerPositionString::from_ascii(text.as_bytes()).is_err());
            }
            _ => prop_assert!(false, "two forms"),
        }
    }

    #[test]
    fn every_legal_move_round_trips(
        seed in any::<u64>(), plies in 0usize..200, r in 0usize..16, v in 0usize..3,
    ) {
        let pos = playout(seed, plies, rules(r), v);
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
            // (In four-player games also on a move that eliminates a player.)
            let eliminates = next.in_play().count() < pos.in_play().count();
            prop_assert_eq!(alg_text.ends_with('#'), next.outcome().is_some() || eliminates);
            // Lenient spellings: the other separator, no `#`.
            if !mv.is_direction_move() {
                let swapped = alg_text.replacen(if captures { 'x' } else { '-' }, if captures { "-" } else { "x" }, 1);
                prop_assert_eq!(read_algebraic(&pos, &swapped), Ok(mv));
            }
            prop_assert_eq!(read_algebraic(&pos, alg_text.trim_end_matches('#')), Ok(mv));
            // Any case, and no separator (`E3-E4`, `e4e5`, `e3e4+2`).
            prop_assert_eq!(read_algebraic(&pos, &alg_text.to_ascii_uppercase()), Ok(mv));
            prop_assert_eq!(read_algebraic(&pos, &uni.to_ascii_uppercase()), Ok(mv));
            if !mv.is_direction_move() {
                let joined = format!("{}{}", &alg_text[..2], &alg_text[3..]);
                prop_assert_eq!(read_algebraic(&pos, &joined), Ok(mv));
                prop_assert_eq!(read_algebraic(&pos, &joined.to_ascii_uppercase()), Ok(mv));
            }
            // ploy-core's move text is the university string.
            prop_assert_eq!(mv.to_string(), uni.clone());
            prop_assert_eq!(uni.parse::<Move>(), Ok(mv));
        }
    }

    #[test]
    fn legality_reasons_agree_with_the_core(
        seed in any::<u64>(), plies in 0usize..120, r in 0usize..16, v in 0usize..3,
    ) {
        let pos = playout(seed, plies, rules(r), v);
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
                                !pos.controlled_by(pos.mover()).contains(square)
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
