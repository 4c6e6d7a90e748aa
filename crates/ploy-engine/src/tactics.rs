//! Ploy's knowledge for the selective search: whether the commander is attacked, the null
//! move and its guard, static exchange evaluation, the value of a capture, and the
//! continuation history's slot of a move. The [`crate::SearchGame`] impls of
//! [`ploy_core::Position`], [`crate::EvalPosition`] and [`crate::PloyGame`] delegate here.
//!
//! Only the two-player game gets this knowledge; in the four-player games the search uses
//! the generic defaults (no check extension, no null move, no exchange pruning), since
//! there the next mover after a capture, and who gains by it, depend on the seats' order.

use ploy_core::{Board, Move, Piece, Position, Seat, Square, Variant};

/// Rough piece values for exchanges and delta pruning, indexed by [`PieceKind::index`]:
/// shield, probe, lance, commander. The commander's value stands for the lost game.
pub(crate) const PIECE_VALUES: [i32; 4] = [100, 180, 280, 10_000];

/// The null move is tried only while the side to move has at least this many pieces
/// besides its commander: with fewer, having to move may hurt (zugzwang-like endings), so
/// a pass misleads.
pub(crate) const NULL_MOVE_MIN_PIECES: u32 = 3;

/// `RAY[d][sq]`: the squares from `sq` outwards in direction `d`, nearest first, at most
/// three (the longest range), `OFF` past the edge.
static RAY: [[[u8; 3]; 81]; 8] = {
    const D: [(i8, i8); 8] = ploy_core::Direction::DELTAS;
    let mut t = [[[OFF; 3]; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < 81 {
            let (mut f, mut r) = ((i % 9) as i8, (i / 9) as i8);
            let mut k = 0;
            while k < 3 {
                f += D[d].0;
                r += D[d].1;
                if f < 0 || f > 8 || r < 0 || r > 8 {
                    break;
                }
                t[d][i][k] = (r * 9 + f) as u8;
                k += 1;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

const OFF: u8 = 0xFF;

/// `NEAR[sq]`: the squares on the eight rays from `sq` within three steps (the longest
/// range): only a piece standing there may attack `sq`.
static NEAR: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut i = 0;
    while i < 81 {
        let mut d = 0;
        while d < 8 {
            let mut k = 0;
            while k < 3 {
                let s = RAY[d][i][k];
                if s != OFF {
                    t[i] |= 1u128 << s;
                }
                k += 1;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

#[inline]
fn square(i: u8) -> Square {
    Square::from_index(i).expect("a square index below 81")
}

/// Whether two-player `pos`'s side to move has its commander attacked.
#[inline]
pub(crate) fn in_check(pos: &Position) -> bool {
    if pos.variant() != Variant::TwoPlayer || pos.is_game_over() {
        return false;
    }
    let me = pos.turn();
    let board = pos.board();
    let mine = board.by_colour(me).0 & board.by_kind(ploy_core::PieceKind::Commander).0;
    if mine == 0 {
        return false;
    }
    let cmd = mine.trailing_zeros() as usize;
    let enemy = board.by_colour(opponent(me)).0;
    if enemy & NEAR[cmd] == 0 {
        return false; // no enemy piece near enough
    }
    attacked(pos, cmd, enemy, board.occupied().0)
}

/// Whether a piece of `side` (a set of squares) reaches square `to` over `occ`.
#[inline]
fn attacked(pos: &Position, to: usize, side: u128, occ: u128) -> bool {
    let board = pos.board();
    (0..8).any(|d| attacker_along(board, to, d, side, occ).is_some())
}

/// The piece of `side` (a set of squares) that reaches square `to` over `occ` by moving in
/// direction `d`, with its square: the first piece on the ray from `to` opposite to `d`,
/// if it is of `side`, has a flag in `d` and its range reaches.
#[inline(always)]
fn attacker_along(
    board: &Board,
    to: usize,
    d: usize,
    side: u128,
    occ: u128,
) -> Option<(u8, Piece)> {
    // Walk away from `to` opposite to `d`: the first piece met may come back along `d`.
    for (dist, &s) in RAY[(d + 4) & 7][to].iter().enumerate() {
        if s == OFF {
            break;
        }
        let bit = 1u128 << s;
        if occ & bit == 0 {
            continue;
        }
        if side & bit != 0 {
            if let Some(p) = board.piece_at(square(s)) {
                if p.flags().bits() & (1 << d) != 0 && usize::from(p.kind().range()) > dist {
                    return Some((s, p));
                }
            }
        }
        break;
    }
    None
}

#[inline]
fn opponent(seat: Seat) -> Seat {
    Seat::ALL[seat.index() ^ 1]
}

/// Passes in a two-player game unless the side to move has few pieces left (see
/// [`NULL_MOVE_MIN_PIECES`]); `true` if it passed.
#[inline]
pub(crate) fn make_null(pos: &mut Position) -> bool {
    if pos.variant() != Variant::TwoPlayer {
        return false;
    }
    let me = pos.turn();
    let board = pos.board();
    if board.count_colour(me) < NULL_MOVE_MIN_PIECES + 1 {
        return false;
    }
    pos.make_null_move()
}

/// The continuation history's slot: the moving piece's kind and the target square.
#[inline]
pub(crate) fn continuation_index(pos: &Position, mv: Move) -> usize {
    let kind = pos
        .board()
        .piece_at(mv.from())
        .map_or(0, |p| p.kind().index());
    kind * 81 + mv.to().index()
}

/// Slots of [`continuation_index`].
pub(crate) const CONTINUATION_SIZE: usize = 4 * 81;

/// The value of the piece `mv` captures (two-player games).
#[inline]
pub(crate) fn capture_value(pos: &Position, mv: Move) -> Option<i32> {
    if pos.variant() != Variant::TwoPlayer {
        return None;
    }
    let victim = pos.board().piece_at(mv.to())?;
    Some(victim_value(pos, victim))
}

/// What taking `victim` is worth: its value, or the game's when it is the commander or the
/// last piece beside it (a side left with only its commander has lost).
#[inline]
fn victim_value(pos: &Position, victim: Piece) -> i32 {
    if pos.board().count_colour(victim.colour()) <= 2 {
        PIECE_VALUES[3]
    } else {
        PIECE_VALUES[victim.kind().index()]
    }
}

/// The piece of `side` (a set of squares) that reaches square `to` over `occ`, with the
/// least value: its square and value.
#[inline]
fn least_attacker(pos: &Position, to: usize, side: u128, occ: u128) -> Option<(usize, i32)> {
    let board = pos.board();
    let mut best: Option<(usize, i32)> = None;
    for d in 0..8 {
        if let Some((s, p)) = attacker_along(board, to, d, side, occ) {
            let v = PIECE_VALUES[p.kind().index()];
            if best.is_none_or(|(_, b)| v < b) {
                best = Some((usize::from(s), v));
            }
        }
    }
    best
}

/// Static exchange evaluation of the capture `mv` in a two-player game (see
/// [`crate::SearchGame::exchange_value`]): both sides capture on the target square in turn,
/// each with its least valuable piece that reaches it (pieces behind a piece that has
/// captured may reach it next), and either may stop when going on would lose.
pub(crate) fn exchange_value(pos: &Position, mv: Move) -> Option<i32> {
    if pos.variant() != Variant::TwoPlayer {
        return None;
    }
    let board = pos.board();
    let (from, to) = (mv.from().index(), mv.to().index());
    let victim = board.piece_at(mv.to())?;
    let attacker = board.piece_at(mv.from())?;
    let me = pos.turn();
    let sides = [board.by_colour(me).0, board.by_colour(opponent(me)).0];
    let mut occ = board.occupied().0 & !(1u128 << from);
    // gain[i]: what the side making capture i wins, if the exchange stopped after it.
    let mut gain = [0i32; 32];
    gain[0] = victim_value(pos, victim);
    if gain[0] == PIECE_VALUES[3] {
        return Some(gain[0]); // the capture wins the game
    }
    let mut on_square = PIECE_VALUES[attacker.kind().index()];
    let mut n = 1;
    let mut side = 1;
    while n < gain.len() {
        let Some((sq, value)) = least_attacker(pos, to, sides[side] & occ, occ) else {
            break;
        };
        gain[n] = on_square - gain[n - 1];
        n += 1;
        if on_square == PIECE_VALUES[3] {
            break; // a commander taken: the game is over
        }
        occ &= !(1u128 << sq);
        on_square = value;
        side ^= 1;
    }
    while n > 1 {
        n -= 1;
        gain[n - 1] = -((-gain[n - 1]).max(gain[n]));
    }
    Some(gain[0])
}

/// The [`crate::SearchGame`] methods of this module for a type whose position is `$pos`
/// (with `self` bound to `$s`).
macro_rules! ploy_tactics {
    ($s:ident => $pos:expr) => {
        const CONTINUATION_SIZE: usize = crate::tactics::CONTINUATION_SIZE;

        #[inline]
        fn continuation_index(&self, mv: Move) -> usize {
            let $s = self;
            crate::tactics::continuation_index(&$pos, mv)
        }

        #[inline]
        fn in_check(&self) -> bool {
            let $s = self;
            crate::tactics::in_check(&$pos)
        }

        #[inline]
        fn make_null(&mut self) -> bool {
            let $s = self;
            crate::tactics::make_null(&mut $pos)
        }

        #[inline]
        fn unmake_null(&mut self) {
            let $s = self;
            $pos.unmake_null_move();
        }

        #[inline]
        fn capture_value(&self, mv: Move) -> Option<i32> {
            let $s = self;
            crate::tactics::capture_value(&$pos, mv)
        }

        #[inline]
        fn exchange_value(&self, mv: Move) -> Option<i32> {
            let $s = self;
            crate::tactics::exchange_value(&$pos, mv)
        }
    };
}
pub(crate) use ploy_tactics;

#[cfg(test)]
mod tests {
    use super::*;
    use ploy_core::{Board, Flags, Piece, Rules, Setup};

    fn position(pieces: &[(Seat, u8, Square)], turn: Seat) -> Position {
        let mut board = Board::empty();
        for &(seat, mask, sq) in pieces {
            board.put(sq, Piece::new(seat, Flags::new(mask)).expect("valid mask"));
        }
        Position::from_setup(Setup::two_player(board, turn), Rules::standard())
            .expect("valid position")
    }

    #[test]
    fn exchanges() {
        // A green shield on e4 pointing north takes a red probe on e5.
        let base = [
            (Seat::Green, 170, Square::A1),
            (Seat::Red, 170, Square::I9),
            (Seat::Green, 1, Square::E4),
            (Seat::Red, 17, Square::E5),
            (Seat::Red, 1, Square::A9),
        ];
        let take = Move::new(Square::E4, Square::E5, 0);
        // Undefended: the probe's value.
        let pos = position(&base, Seat::Green);
        assert_eq!(exchange_value(&pos, take), Some(180));
        assert_eq!(capture_value(&pos, take), Some(180));
        // Red's last piece beside the commander: taking it wins the game.
        let pos = position(&base[..4], Seat::Green);
        assert_eq!(exchange_value(&pos, take), Some(PIECE_VALUES[3]));
        assert_eq!(capture_value(&pos, take), Some(PIECE_VALUES[3]));
        // Defended by a shield on e6 pointing south: probe for shield, +80.
        let mut defended = base.to_vec();
        defended.push((Seat::Red, 16, Square::E6));
        let pos = position(&defended, Seat::Green);
        assert_eq!(exchange_value(&pos, take), Some(80));
        // A green lance on e2 pointing north backs the shield up (it reaches e5 over e3 and
        // e4 once the shield has left): red gains nothing by taking back, 180 either way.
        let mut backed = defended.clone();
        backed.push((Seat::Green, 0b111, Square::E2));
        let pos = position(&backed, Seat::Green);
        assert_eq!(exchange_value(&pos, take), Some(180));
        // A lance taking a shield defended by a shield loses: 100 - 280.
        // The same commanders.
        let lance_takes = [
            base[0],
            base[1],
            (Seat::Green, 0b111, Square::E3),
            (Seat::Red, 1, Square::E5),
            (Seat::Red, 16, Square::E6),
        ];
        let pos = position(&lance_takes, Seat::Green);
        assert_eq!(
            exchange_value(&pos, Move::new(Square::E3, Square::E5, 0)),
            Some(100 - 280)
        );
    }

    #[test]
    fn in_check_agrees_with_the_rules_attack_test() {
        // Random games from the start: the fast test against ploy-core's `is_attacked`.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut checks = 0;
        for _ in 0..40 {
            let mut pos = Position::new();
            for _ in 0..120 {
                if pos.outcome().is_some() {
                    break;
                }
                let me = pos.turn();
                let expected = pos
                    .board()
                    .commander(me)
                    .is_some_and(|c| pos.is_attacked(c, opponent(me)));
                assert_eq!(in_check(&pos), expected, "{pos:?}");
                checks += usize::from(expected);
                let moves = pos.legal_moves();
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                pos.make_move(mv);
            }
        }
        assert!(checks > 0, "the games should reach some checks");
    }

    #[test]
    fn check_and_null_move() {
        // A red lance on e5 pointing south reaches the green commander on e3.
        let mut pos = position(
            &[
                (Seat::Green, 170, Square::E3),
                (Seat::Red, 170, Square::I9),
                (Seat::Red, 0b1_0000 | 1 | 4, Square::E5),
                (Seat::Green, 1, Square::A2),
                (Seat::Green, 1, Square::B2),
                (Seat::Green, 1, Square::C2),
            ],
            Seat::Green,
        );
        assert!(in_check(&pos));
        let before = pos.clone();
        assert!(make_null(&mut pos));
        assert!(!in_check(&pos));
        pos.unmake_null_move();
        assert_eq!(pos, before);
        // Two pieces besides the commander: no null move.
        let mut few = position(
            &[
                (Seat::Green, 170, Square::E3),
                (Seat::Red, 170, Square::I9),
                (Seat::Green, 1, Square::A2),
                (Seat::Green, 1, Square::B2),
            ],
            Seat::Green,
        );
        assert!(!make_null(&mut few));
        assert!(!in_check(&few));
    }
}
