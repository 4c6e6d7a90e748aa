//! A slow, deliberately plain move generator written from the rules (`docs/rules.md`
//! sections 2 to 8), used to check the fast one. It reads the board only through the
//! public API (`Board::piece_at`) and computes everything else (directions, kinds, ranges,
//! rotations, elimination, control, turns) itself, with no bit tricks and no lookup tables
//! shared with the crate. Four-player games keep their own state here ([`RefState`]): who
//! controls each colour and who is in play are read from a position once and then
//! maintained by the reference alone.

use ploy_core::{
    BareCommander, Board, Elimination, Flags, Move, Outcome, PartnerElimination, Piece, Position,
    Rotation, Rules, Seat, SeatSet, Square, Variant, WinReason,
};

/// `(dfile, drank)` for bit 0..7: N, NE, E, SE, S, SW, W, NW (`docs/rules.md` section 2).
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

/// The squares the piece on `from` may move to (`docs/rules.md` section 3, motion moves):
/// along a flag, 1..range squares away, on the board, every square between empty, the target empty
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

/// The squares the piece on `from` may move to when pieces whose colour is `friend` block
/// it and may not be captured: along a flag, 1..range squares away, on the board, every
/// square between empty, the target empty or not a friend's.
pub fn motion_targets_with(
    board: &Board,
    from: Square,
    friend: &dyn Fn(Seat) -> bool,
) -> Vec<Square> {
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
            let target_ok = board.piece_at(to).is_none_or(|p| !friend(p.colour()));
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

/// Every legal move of `turn` on `board` in a two-player game that is not decided.
pub fn moves_on_board(board: &Board, turn: Seat, rotation: Rotation) -> Vec<Move> {
    // Two-player game: every colour is controlled by itself, and a piece of the other
    // colour may be captured.
    moves_with(board, rotation, |c| c == turn, |c| c == turn)
}

/// Every move of the pieces whose colour is `movable`, which may not capture (and are
/// blocked by) pieces whose colour is `friend` (`docs/rules.md` sections 3 and 7: a player
/// moves the colours he controls, and in a partnership game his partner's pieces block him
/// and are never captured).
pub fn moves_with(
    board: &Board,
    rotation: Rotation,
    movable: impl Fn(Seat) -> bool,
    friend: impl Fn(Seat) -> bool,
) -> Vec<Move> {
    let mut out = Vec::new();
    for from in Square::ALL {
        let Some(piece) = board.piece_at(from) else {
            continue;
        };
        if !movable(piece.colour()) {
            continue;
        }
        let mask = piece.flags().bits();
        for to in motion_targets_with(board, from, &friend) {
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

/// Why `seat` is eliminated on `board` (`docs/rules.md` sections 5 and 7), or `None`.
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

/// A game state kept by the reference alone: board, seat to move, and for four-player
/// games who controls each colour and who is in play; whether the game is decided. Used for
/// the reference perft and to follow playouts, never calling the crate's make/unmake.
#[derive(Clone, Debug)]
pub struct RefState {
    /// The pieces.
    pub board: Board,
    /// The game.
    pub variant: Variant,
    /// The seat whose turn it is.
    pub turn: Seat,
    /// `controllers[c]`: who moves the pieces of colour `c` (four players).
    pub controllers: [Seat; 4],
    /// `in_play[s]`: whether seat `s` is still in play (four players).
    pub in_play: [bool; 4],
    /// The rules.
    pub rules: Rules,
    /// Whether the game is decided.
    pub decided: bool,
}

/// The seat after `s` in turn order (Green, Red, Yellow, Blue, Green, ...).
pub fn next_seat(s: Seat) -> Seat {
    match s {
        Seat::Green => Seat::Red,
        Seat::Red => Seat::Yellow,
        Seat::Yellow => Seat::Blue,
        Seat::Blue => Seat::Green,
    }
}

/// The partner of `s` in a partnership game: Green with Yellow, Red with Blue.
pub fn partner_of(s: Seat) -> Seat {
    match s {
        Seat::Green => Seat::Yellow,
        Seat::Yellow => Seat::Green,
        Seat::Red => Seat::Blue,
        Seat::Blue => Seat::Red,
    }
}

fn idx(s: Seat) -> usize {
    Seat::ALL.iter().position(|&x| x == s).unwrap()
}

impl RefState {
    /// The state of `pos`.
    pub fn of(pos: &Position) -> RefState {
        let variant = pos.variant();
        let mut state = RefState {
            board: pos.board().clone(),
            variant,
            turn: pos.turn(),
            controllers: Seat::ALL.map(|c| pos.controller(c)),
            in_play: Seat::ALL.map(|s| pos.in_play().contains(s)),
            rules: pos.rules(),
            decided: false,
        };
        state.decided = if variant == Variant::TwoPlayer {
            outcome_of_board(pos.board(), pos.turn(), pos.rules()).is_some()
        } else {
            state.winners().is_some()
        };
        state
    }

    fn four(&self) -> bool {
        self.variant != Variant::TwoPlayer
    }

    /// Whether `colour` has any piece on the board.
    fn has_pieces(&self, colour: Seat) -> bool {
        Square::ALL
            .into_iter()
            .any(|s| self.board.piece_at(s).is_some_and(|p| p.colour() == colour))
    }

    /// Who plays `seat`'s turn (`docs/rules.md` section 7), or `None` if
    /// the turn is skipped: a player in play plays his own; in a partnership game an
    /// eliminated player who plays on with pieces left plays his own, and otherwise his
    /// partner, if in play, plays it.
    pub fn player_of(&self, seat: Seat) -> Option<Seat> {
        if !self.four() {
            return Some(seat);
        }
        let plays_on = self.rules.partner_elimination == PartnerElimination::PlaysOn;
        let own = |s: Seat| self.in_play[idx(s)] || (plays_on && self.has_pieces(s));
        match self.variant {
            Variant::Partnership => {
                if own(seat) {
                    Some(seat)
                } else if self.in_play[idx(partner_of(seat))] {
                    Some(partner_of(seat))
                } else {
                    None
                }
            }
            _ => self.in_play[idx(seat)].then_some(seat),
        }
    }

    /// Whether pieces of `colour` block `player` and are safe from him: he controls the
    /// colour or, in a partnership game, his partner does.
    fn is_friend(&self, player: Seat, colour: Seat) -> bool {
        let c = self.controllers[idx(colour)];
        c == player || (self.variant == Variant::Partnership && c == partner_of(player))
    }

    /// The legal moves.
    pub fn moves(&self) -> Vec<Move> {
        if self.decided {
            return Vec::new();
        }
        if !self.four() {
            return moves_on_board(&self.board, self.turn, self.rules.rotation);
        }
        let player = self
            .player_of(self.turn)
            .expect("an undecided game has a player to move");
        moves_with(
            &self.board,
            self.rules.rotation,
            |c| self.controllers[idx(c)] == player,
            |c| self.is_friend(player, c),
        )
    }

    /// Why `seat` is eliminated in a four-player game, or `None`: no own commander on the
    /// board, or (strict) every piece he controls is a commander.
    pub fn eliminated4(&self, seat: Seat) -> Option<WinReason> {
        let pieces: Vec<Piece> = Square::ALL
            .into_iter()
            .filter_map(|s| self.board.piece_at(s))
            .collect();
        let own_commander = pieces
            .iter()
            .any(|p| p.colour() == seat && is_commander(p.flags().bits()));
        if !own_commander {
            return Some(WinReason::CommanderCaptured);
        }
        let controlled_non_commander = pieces
            .iter()
            .any(|p| self.controllers[idx(p.colour())] == seat && !is_commander(p.flags().bits()));
        if self.rules.elimination == Elimination::Strict && !controlled_non_commander {
            return Some(WinReason::OnlyCommanders);
        }
        None
    }

    /// The winners of a decided four-player game: the last player in play (free-for-all),
    /// the team with a player in play when the other has none (partnership).
    pub fn winners(&self) -> Option<SeatSet> {
        let in_play: Vec<Seat> = Seat::ALL
            .into_iter()
            .filter(|&s| self.in_play[idx(s)])
            .collect();
        match self.variant {
            Variant::Partnership => {
                let gy = in_play
                    .iter()
                    .any(|&s| s == Seat::Green || s == Seat::Yellow);
                let rb = in_play.iter().any(|&s| s == Seat::Red || s == Seat::Blue);
                match (gy, rb) {
                    (true, false) => Some(SeatSet::only(Seat::Green).with(Seat::Yellow)),
                    (false, true) => Some(SeatSet::only(Seat::Red).with(Seat::Blue)),
                    _ => None,
                }
            }
            _ => (in_play.len() == 1).then(|| SeatSet::only(in_play[0])),
        }
    }

    /// The state after the legal move `mv`. Two players: the opponent is checked for
    /// elimination. Four players: after a capture every other player in play is checked in
    /// turn order after the mover; an eliminated player's colours pass to the mover
    /// (free-for-all) or to his partner if in play (partnership, absorbed); under the bare
    /// commander option his commander leaves the board when only commanders were left;
    /// then the turn passes to the next seat someone plays (after the end of the game:
    /// simply the next seat).
    pub fn after(&self, mv: Move) -> RefState {
        let board = board_after(&self.board, mv);
        if !self.four() {
            let next = other(self.turn);
            let decided = eliminated(&board, next, self.rules.elimination).is_some();
            return RefState {
                board,
                turn: next,
                decided,
                ..self.clone()
            };
        }
        let capture = mv.from() != mv.to() && self.board.piece_at(mv.to()).is_some();
        let mover = self.player_of(self.turn).expect("a player to move");
        let mut next = RefState {
            board,
            ..self.clone()
        };
        if capture {
            let mut seat = mover;
            for _ in 0..3 {
                seat = next_seat(seat);
                if !next.in_play[idx(seat)] {
                    continue;
                }
                let Some(reason) = next.eliminated4(seat) else {
                    continue;
                };
                next.in_play[idx(seat)] = false;
                if reason == WinReason::OnlyCommanders
                    && self.rules.bare_commander == BareCommander::Removed
                {
                    for sq in Square::ALL {
                        if next
                            .board
                            .piece_at(sq)
                            .is_some_and(|p| p.colour() == seat && is_commander(p.flags().bits()))
                        {
                            next.board.remove(sq);
                        }
                    }
                }
                let heir = match self.variant {
                    Variant::Partnership => (self.rules.partner_elimination
                        == PartnerElimination::Absorbed
                        && next.in_play[idx(partner_of(seat))])
                    .then(|| partner_of(seat)),
                    _ => Some(mover),
                };
                if let Some(heir) = heir {
                    for c in Seat::ALL {
                        if next.controllers[idx(c)] == seat {
                            next.controllers[idx(c)] = heir;
                        }
                    }
                }
            }
        }
        next.decided = next.winners().is_some();
        let mut t = next_seat(self.turn);
        if !next.decided {
            while next.player_of(t).is_none() {
                t = next_seat(t);
            }
        }
        next.turn = t;
        next
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
