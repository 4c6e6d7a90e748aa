//! Perft: the number of move sequences of a given length (a functional signature of the
//! rules).

use crate::position::Position;

/// The number of legal move sequences of exactly `depth` plies from `pos` (sequences that
/// end the game earlier are not counted).
///
/// ```
/// use pente::{perft, Position, Rules, Size};
/// let start = Position::new(Rules::new(Size::S9));
/// assert_eq!(perft(&start, 1), 1); // the centre
/// assert_eq!(perft(&start, 2), 80);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    walk(&mut pos, depth, &mut moves)
}

fn walk(pos: &mut Position, depth: u32, buf: &mut Vec<crate::Move>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let start = buf.len();
    pos.legal_moves_into(buf);
    let end = buf.len();
    if depth == 1 {
        buf.truncate(start);
        return (end - start) as u64;
    }
    let mut n = 0;
    for i in start..end {
        let mv = buf[i];
        let undo = pos.make(mv);
        n += walk(pos, depth - 1, buf);
        pos.unmake(mv, undo);
    }
    buf.truncate(start);
    n
}
