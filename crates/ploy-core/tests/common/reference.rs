//! A slow, deliberately plain move generator written from RULES.md sections 2-4, used to
//! check the fast one. It reads the board only through the public API (`Board::piece_at`)
//! and computes everything else (directions, kinds, ranges, rotations, elimination) itself,
//! with no bit tricks and no lookup tables shared with the crate.

use ploy_core::{
    Board, Elimination, Flags, Move, Outcome, Piece, Position, Rotation, Rules, Seat, Square,
    WinReason,
};

/// `(dfile, drank)` for bit 0..7: N, NE, E, SE, S, SW, W, NW (RULES.md section 2).
pub const DELTAS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Whether bit `k` of `mask` is set.
pub fn has_flag(mask: u8, k: usize) -> bool {
    (mask >> k) & 1 == 1
}

/// Number of flags of `mask`, counted one bit at a time.
pub fn flag_count(mask: u8) -> usize {
    (0..8).filter(|&k| has_flag(mask, k)).count()
}

/// The range of a piece with `mask`: shield 1, probe 2, lance 3, commander 1.
pub fn range(mask: u8) -> i32 {
    match flag_count(mask) {
        1 => 1,
        2 => 2,
        3 => 3,
        4 => 1,
        n => panic!("mask {mask} with {n} flags is not a piece"),
    }
}

/// Whether `mask` is a commander (4 flags).
pub fn is_commander(mask: u8) -> bool {
    flag_count(mask) == 4
}

/// Whether `mask` is a shield (1 flag).
pub fn is_shield(mask: u8) -> bool {
    flag_count(mask) == 1
}

/// `mask` turned `r` steps clockwise: bit `k` goes to bit `(k + r) mod 8`.
pub fn rotate(mask: u8, r: u8) -> u8 {
    let mut out = 0u8;
    for k in 0..8usize {
        if has_flag(mask, k) {
            out |= 1 << ((k + r as usize) % 8);
        }
    }
    out
}

/// The square at `(file, rank)` if it is on the board.
pub fn square_at(file: i32, rank: i32) -> Option<Square> {
    if (0..9).contains(&file) && (0..9).contains(&rank) {
        Some(Square::new(file as u8, rank as u8))
    } else {
        None
    }
}

/// The squares strictly between `from` and the square `dist` steps away in direction `k`.
fn between(from: Square, k: usize, dist: i32) -> Vec<Square> {
    let (df, dr) = DELTAS[k];
    (1..dist)
        .map(|i| {
            square_at(from.file() as i32 + df * i, from.rank() as i32 + dr * i)
                .expect("a square between two squares is on the board")
        })
        .collect()
}

/// Whether the piece `piece` on `from` can reach `to` along one of its flags within its
/// range with every square strictly between empty (what stands on `to` is not looked at).
pub fn reaches(board: &Board, from: Square, piece: Piece, to: Square) -> bool {
    let mask = piece.flags().bits();
    for (k, &(df, dr)) in DELTAS.iter().enumerate() {
        if !has_flag(mask, k) {
            continue;
        }
        for dist in 1..=range(mask) {
            let target = square_at(
                from.file() as i32 + df * dist,
                from.rank() as i32 + dr * dist,
            );
            if target == Some(to)
                && between(from, k, dist)
                    .iter()
                    .all(|&s| board.piece_at(s).is_none())
            {
                return true;
            }
        }
    }
    false
}

/// The squares the piece on `from` may move to (RULES.md section 3, motion move): along a
/// flag, 1..range squares away, on the board, every square between empty, the target empty
/// or holding a piece of another colour. Empty if `from` is empty. Ignores whose turn it is.
pub fn motion_targets(board: &Board, from: Square) -> Vec<Square> {
    let Some(piece) = board.piece_at(from) else {
        return Vec::new();
    };
    let mask = piece.flags().bits();
    let mut out = Vec::new();
    for (k, &(df, dr)) in DELTAS.iter().enumerate() {
        if !has_flag(mask, k) {
            continue;
        }
        for dist in 1..=range(mask) {
            let Some(to) = square_at(
                from.file() as i32 + df * dist,
                from.rank() as i32 + dr * dist,
            ) else {
                continue;
            };
            let path_clear = between(from, k, dist)
                .iter()
                .all(|&s| board.piece_at(s).is_none());
            let target_ok = match board.piece_at(to) {
                None => true,
                Some(other) => other.colour() != piece.colour(),
            };
            if path_clear && target_ok {
                out.push(to);
            }
        }
    }
    out
}

/// Rotations allowed for a direction move.
pub fn turn_allowed(rotation: Rotation, r: u8) -> bool {
    match rotation {
        Rotation::Any => (1..=7).contains(&r),
        Rotation::SingleStep => r == 1 || r == 7,
    }
}

/// Rotations allowed for a shield after a motion move.
pub fn shield_turn_allowed(rotation: Rotation, r: u8) -> bool {
    match rotation {
        Rotation::Any => r <= 7,
        Rotation::SingleStep => r == 0 || r == 1 || r == 7,
    }
}

/// Every legal move of `turn` on `board` in a game that is not decided.
pub fn moves_on_board(board: &Board, turn: Seat, rotation: Rotation) -> Vec<Move> {
    let mut out = Vec::new();
    for from in Square::ALL {
        let Some(piece) = board.piece_at(from) else {
            continue;
        };
        // Two-player game: every colour is controlled by itself.
        if piece.colour() != turn {
            continue;
        }
        let mask = piece.flags().bits();
        for to in motion_targets(board, from) {
            for r in 0..8 {
                let allowed = if is_shield(mask) {
                    shield_turn_allowed(rotation, r)
                } else {
                    r == 0
                };
                if allowed {
                    out.push(Move::new(from, to, r));
                }
            }
        }
        for r in 1..8 {
            if turn_allowed(rotation, r) && rotate(mask, r) != mask {
                out.push(Move::new(from, from, r));
            }
        }
    }
    out
}

/// The reference legal moves of `pos`: none when the game is decided.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    if pos.outcome().is_some() {
        return Vec::new();
    }
    moves_on_board(pos.board(), pos.turn(), pos.rules().rotation)
}

/// The board after `mv` (assumed legal): the piece leaves `from`, whatever stood on `to` is
/// captured, and the piece, turned by `r`, stands on `to`. Built with `Board::put`/`remove`.
pub fn board_after(board: &Board, mv: Move) -> Board {
    let mut b = board.clone();
    let piece = b.remove(mv.from()).expect("a move starts on a piece");
    b.remove(mv.to());
    let turned = Piece::new(
        piece.colour(),
        Flags::new(rotate(piece.flags().bits(), mv.rotation())),
    )
    .expect("a turn keeps the flag count");
    b.put(mv.to(), turned);
    b
}

/// The other seat of the two-player game.
pub fn other(seat: Seat) -> Seat {
    match seat {
        Seat::Green => Seat::Red,
        Seat::Red => Seat::Green,
        s => panic!("{s} does not play the two-player game"),
    }
}

/// Why `seat` is eliminated on `board` (RULES.md section 4), or `None`.
pub fn eliminated(board: &Board, seat: Seat, elimination: Elimination) -> Option<WinReason> {
    let own: Vec<Piece> = Square::ALL
        .into_iter()
        .filter_map(|s| board.piece_at(s))
        .filter(|p| p.colour() == seat)
        .collect();
    if !own.iter().any(|p| is_commander(p.flags().bits())) {
        return Some(WinReason::CommanderCaptured);
    }
    if elimination == Elimination::Strict && own.iter().all(|p| is_commander(p.flags().bits())) {
        return Some(WinReason::OnlyCommanders);
    }
    None
}

/// The outcome of a two-player position given by its board and side to move, with no
/// history: the side not to move (who moved last) wins when the side to move is eliminated,
/// also if both are; the side to move wins when only the other side is eliminated.
pub fn outcome_of_board(board: &Board, turn: Seat, rules: Rules) -> Option<Outcome> {
    let e = rules.elimination;
    match (
        eliminated(board, turn, e),
        eliminated(board, other(turn), e),
    ) {
        (Some(reason), _) => Some(Outcome::win(other(turn), reason)),
        (None, Some(reason)) => Some(Outcome::win(turn, reason)),
        (None, None) => None,
    }
}

/// A two-player game state kept by the reference alone: board, side to move, whether the
/// game is decided. Used for the reference perft, which never calls the crate's make/unmake.
#[derive(Clone)]
pub struct RefState {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Seat,
    /// The rules.
    pub rules: Rules,
    /// Whether the game is decided.
    pub decided: bool,
}

impl RefState {
    /// The state of `pos`.
    pub fn of(pos: &Position) -> RefState {
        RefState {
            board: pos.board().clone(),
            turn: pos.turn(),
            rules: pos.rules(),
            decided: outcome_of_board(pos.board(), pos.turn(), pos.rules()).is_some(),
        }
    }

    /// The legal moves.
    pub fn moves(&self) -> Vec<Move> {
        if self.decided {
            return Vec::new();
        }
        moves_on_board(&self.board, self.turn, self.rules.rotation)
    }

    /// The state after the legal move `mv`: the opponent is checked for elimination.
    pub fn after(&self, mv: Move) -> RefState {
        let board = board_after(&self.board, mv);
        let next = other(self.turn);
        let decided = eliminated(&board, next, self.rules.elimination).is_some();
        RefState {
            board,
            turn: next,
            rules: self.rules,
            decided,
        }
    }
}

/// Reference perft: move sequences of length `depth`, counting the last ply in bulk.
pub fn perft(state: &RefState, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = state.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&state.after(mv), depth - 1))
        .sum()
}
