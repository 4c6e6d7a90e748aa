//! Move path enumeration (perft), the standard check of a move generator.

use crate::{Move, Position};

/// The number of move sequences of length `depth` from `pos` (leaf nodes of the game tree;
/// a decided position has no moves, so its subtree ends there).
///
/// The last ply is counted in bulk with [`Position::count_legal_moves`]; in a two-player
/// game, after a move that captures nothing, without even making that move (it changes
/// nothing the opponent's moves depend on but the occupied squares, so his moves are
/// counted on the board as it is with the occupancy the move leaves). No position is
/// stored or looked up: every count is computed.
///
/// ```
/// use ploy_core::{perft, Position};
/// assert_eq!(perft(&Position::new(), 1), 145);
/// assert_eq!(perft(&Position::new(), 2), 21_025);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        _ => inner(&mut pos.clone(), depth),
    }
}

fn inner(pos: &mut Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let moves = pos.legal_moves();
    let mut n = 0;
    if depth == 2 {
        for &mv in moves.iter() {
            n += pos.count_moves_after(mv) as u64;
        }
        return n;
    }
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        n += inner(pos, depth - 1);
        pos.unmake_move(mv, undo);
    }
    n
}

/// Like [`perft`], but makes and unmakes every move down to the leaves (no bulk counting):
/// a measure of full make/unmake throughput.
#[must_use]
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    fn go(pos: &mut Position, depth: u32) -> u64 {
        let moves = pos.legal_moves();
        let mut n = 0;
        if depth == 1 {
            // The last ply: make and unmake each move, counting it.
            for &mv in moves.iter() {
                let undo = pos.make_move(mv);
                pos.unmake_move(mv, undo);
                n += 1;
            }
            return n;
        }
        for &mv in moves.iter() {
            let undo = pos.make_move(mv);
            n += go(pos, depth - 1);
            pos.unmake_move(mv, undo);
        }
        n
    }
    match depth {
        0 => 1,
        _ => go(&mut pos.clone(), depth),
    }
}

/// [`perft`] split by first move: each legal move with the number of sequences of length
/// `depth` that start with it (`depth` counts the move itself, so the counts add up to
/// `perft(pos, depth)`). Moves come in generation order.
///
/// ```
/// use ploy_core::{divide, perft, Position};
/// let pos = Position::new();
/// let split = divide(&pos, 2);
/// assert_eq!(split.len(), 145);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), perft(&pos, 2));
/// ```
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut p = pos.clone();
    let moves = p.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            let undo = p.make_move(mv);
            let n = if depth <= 1 {
                1
            } else {
                inner(&mut p, depth - 1)
            };
            p.unmake_move(mv, undo);
            (mv, n)
        })
        .collect()
}
