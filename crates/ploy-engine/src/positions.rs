//! Deterministic position sets for benchmarks and matches.

use ploy_core::{Move, Position};
use ploy_search::splitmix64;

/// The moves of `plies` random moves from `start`, chosen by a generator seeded with `seed`
/// (fewer if the game ends). With `capture_bias` a capture is preferred one time in three,
/// which thins the board out faster.
#[must_use]
pub fn random_line(start: &Position, seed: u64, plies: u32, capture_bias: bool) -> Vec<Move> {
    let mut pos = start.clone();
    let mut state = seed;
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let r = splitmix64(&mut state);
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| crate::position::is_capture_in(&pos, m))
            .collect();
        let mv = if capture_bias && !captures.is_empty() && r % 3 == 0 {
            captures[(r >> 8) as usize % captures.len()]
        } else {
            moves[(r >> 8) as usize % moves.len()]
        };
        pos.make_move(mv);
        line.push(mv);
    }
    line
}

/// The benchmark set: 24 positions, the start position first, then openings, middle games
/// and thinned-out endgames reached by seeded random play. None is decided. Fixed forever
/// (the `bench` example's node count is a signature of the search over this set).
#[must_use]
pub fn bench_positions() -> Vec<Position> {
    let start = Position::new();
    let mut out = vec![start.clone()];
    let mut seed = 0x5EED_0000_u64;
    while out.len() < 24 {
        seed += 1;
        let i = out.len() as u32;
        let (plies, bias) = match i % 3 {
            0 => (4 + i, false),
            1 => (30 + 2 * i, true),
            _ => (60 + 3 * i, true),
        };
        let mut pos = start.clone();
        for mv in random_line(&start, seed, plies, bias) {
            pos.make_move(mv);
        }
        if pos.outcome().is_none() && pos.legal_moves().len() > 1 {
            out.push(pos);
        }
    }
    out
}
