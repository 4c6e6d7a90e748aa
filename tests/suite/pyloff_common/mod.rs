//! Shared test helpers: the reference rules and random games.
#![allow(dead_code)]

pub mod reference;

use pyloff::{Move, Options, Position, RuleSet, Status};
use reference::{RefGame, RefRules, Report};

/// SplitMix64 step, for deterministic pseudo-random numbers.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn ref_rules(r: RuleSet) -> RefRules {
    match r {
        RuleSet::Default => RefRules::Default,
        RuleSet::AllFreedoms => RefRules::AllFreedoms,
        RuleSet::CutDown => RefRules::CutDown,
    }
}

pub fn reference(options: Options) -> RefGame {
    RefGame::new(
        i32::from(options.size()),
        options.players(),
        ref_rules(options.rules()),
    )
}

/// The crate's answer in the reference's terms.
pub fn report(pos: &Position) -> Report {
    let over = pos.status() == Status::Over;
    Report {
        legal: pos.legal_moves().iter().map(Move::to_string).collect(),
        to_move: (!over).then(|| pos.to_move().number()),
        over,
        winners: pos
            .outcome()
            .map(|o| o.winners().iter().map(|p| p.number()).collect())
            .unwrap_or_default(),
        score: pos.scores().to_vec(),
    }
}

/// A random choice among `moves` (which is not empty).
pub fn pick<T: Copy>(moves: &[T], seed: &mut u64) -> T {
    *seed = mix(*seed);
    moves[(*seed % moves.len() as u64) as usize]
}

/// A random legal move, preferring placements on higher levels now and then so that games
/// reach the upper levels and their captures.
pub fn random_move(pos: &Position, seed: &mut u64) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    *seed = mix(*seed);
    if *seed % 3 == 0 {
        let upper: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                m.cell()
                    .and_then(|c| pos.lowest_empty(c))
                    .is_some_and(|p| p.level > 0)
            })
            .collect();
        if !upper.is_empty() {
            return Some(pick(&upper, seed));
        }
    }
    Some(pick(&moves, seed))
}
