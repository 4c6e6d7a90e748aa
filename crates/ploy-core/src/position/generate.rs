//! Move generation, counting, legality and attacks of a [`Position`].

use super::Position;
use crate::movegen;
use crate::tables::{NEIGHBOUR, OFF, RAYS, TURNS, UPWARD};
use crate::{
    Bitboard, Direction, Flags, Move, MoveList, Piece, PieceKind, Rotation, Seat, Square, Variant,
};

impl Position {
    /// Every legal move, in a fixed-capacity list. Empty when the game is decided.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Appends every legal move to `list` (which the caller usually clears first).
    ///
    /// The moves come ordered by start square (index order), then by end square, then by
    /// rotation; a piece's direction moves follow its motion moves. The search breaks ties
    /// in this order, so it is part of what makes a search repeat exactly.
    pub fn generate_moves(&self, list: &mut MoveList) {
        if self.state.is_decided() {
            return;
        }
        let (movers, friends) = self.side_sets();
        movegen::generate(&self.board, movers.0, friends.0, self.rules.rotation, list);
    }

    /// Appends to `list` the moves `seat` would have if it were its turn: the moves of the
    /// pieces it controls ([`Position::controlled_by`]), blocked by its friends, in the
    /// order of [`Position::generate_moves`]. For the player to move of a free-for-all or
    /// partnership game these are its legal moves; searches that let another player answer
    /// out of turn (Best-Reply Search) use it for the others. Nothing when the game is
    /// decided.
    ///
    /// ```
    /// use ploy_core::{Position, Rules, Seat, Variant};
    /// let pos = Position::start(Variant::FreeForAll, Rules::standard());
    /// let mut list = ploy_core::MoveList::new();
    /// pos.generate_moves_of(Seat::Green, &mut list);
    /// assert_eq!(list[..], pos.legal_moves()[..]);
    /// list.clear();
    /// pos.generate_moves_of(Seat::Red, &mut list);
    /// assert_eq!(list.len(), pos.legal_moves().len());
    /// assert!(list.iter().all(|&m| pos.is_legal_for(Seat::Red, m) && !pos.is_legal(m)));
    /// ```
    pub fn generate_moves_of(&self, seat: Seat, list: &mut MoveList) {
        if self.state.is_decided() {
            return;
        }
        let (movers, friends) = (self.controlled_by(seat), self.friends_of(seat));
        movegen::generate(&self.board, movers.0, friends.0, self.rules.rotation, list);
    }

    /// The pieces the player to move may move, and those that block him.
    #[inline(always)]
    fn side_sets(&self) -> (Bitboard, Bitboard) {
        if self.variant == Variant::TwoPlayer {
            let own = self.board.by_colour(self.state.turn());
            (own, own)
        } else {
            let mover = self.mover();
            (self.controlled_by(mover), self.friends_of(mover))
        }
    }

    /// The legal moves of the piece on `sq` (none if it is not the mover's to move).
    #[must_use]
    pub fn legal_moves_from(&self, sq: Square) -> MoveList {
        let mut list = MoveList::new();
        let mover = self.mover();
        if !self.state.is_decided() && self.controlled_by(mover).contains(sq) {
            if let Some(p) = self.board.piece_at(sq) {
                let own = self.friends_of(mover);
                self.piece_moves(sq, p, own, self.board.occupied(), &mut list);
            }
        }
        list
    }

    /// The number of legal moves, counted without listing them (set-wise, on the board's
    /// square sets per flag direction: much faster than generating them).
    #[must_use]
    pub fn count_legal_moves(&self) -> usize {
        self.count_moves()
    }

    /// [`Position::count_legal_moves`], inlined into its caller (perft's last ply).
    #[inline(always)]
    pub(crate) fn count_moves(&self) -> usize {
        if self.state.is_decided() {
            return 0;
        }
        let (movers, friends) = self.side_sets();
        let rotation = self.rules.rotation;
        let occupied = self.board.occupied().0;
        let motion = movegen::count_motion(&self.board, movers.0, friends.0, occupied, rotation);
        let turns = if self.variant == Variant::TwoPlayer {
            self.turn_moves(self.state.turn(), rotation)
        } else {
            let mover = self.mover();
            Seat::ALL
                .into_iter()
                .filter(|&c| self.state.controller(c) == mover)
                .map(|c| self.turn_moves(c, rotation))
                .sum()
        };
        (motion + turns) as usize
    }

    /// The number of legal moves after `mv` (legal here), as [`Position::count_moves`]
    /// would give after making it. In a two-player game a move that captures nothing
    /// changes nothing the opponent's moves depend on but which squares are occupied (his
    /// pieces, their flags and kinds stay, and only a capture can decide the game), so his
    /// moves are counted on the board as it is with the occupancy the move leaves; any
    /// other move is made, counted after and unmade. (perft's last two plies.)
    #[inline(always)]
    pub(crate) fn count_moves_after(&mut self, mv: Move) -> usize {
        if self.variant == Variant::TwoPlayer {
            let (from, to) = (mv.from(), mv.to());
            let occupied = self.board.occupied();
            if from == to || !occupied.contains(to) {
                let next = Seat::ALL[self.state.turn().index() ^ 1];
                let own = self.board.by_colour(next).0;
                let after = if from == to {
                    occupied.0
                } else {
                    occupied.0 ^ (Bitboard::from_square(from) | Bitboard::from_square(to)).0
                };
                let rotation = self.rules.rotation;
                let motion = movegen::count_motion(&self.board, own, own, after, rotation);
                return (motion + self.turn_moves(next, rotation)) as usize;
            }
        }
        let undo = self.make_move(mv);
        let n = self.count_moves();
        self.unmake_move(mv, undo);
        n
    }

    /// The direction moves of the pieces of `colour`.
    #[inline(always)]
    fn turn_moves(&self, colour: Seat, rotation: Rotation) -> u32 {
        match rotation {
            Rotation::Any => self.board.turn_moves(colour),
            // Every piece has exactly two (asserted with the tables).
            Rotation::SingleStep => 2 * self.board.pieces_of(colour),
        }
    }

    /// The squares a piece with `flags` and `range` on `sq` may move to: along each flag,
    /// up to `range` squares, stopping before a friend and on an enemy.
    #[inline]
    fn targets(sq: Square, flags: Flags, range: u8, own: Bitboard, occ: Bitboard) -> Bitboard {
        let rays = &RAYS[range as usize - 1];
        let mut t = 0u128;
        let mut bits = flags.bits();
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let ray = rays[d][sq.index()];
            let blockers = ray & occ.0;
            t |= if blockers == 0 {
                ray
            } else if UPWARD & (1 << d) != 0 {
                // Nearest blocker is the lowest bit: keep the squares up to and including it.
                let b = blockers & blockers.wrapping_neg();
                ray & (b | (b - 1))
            } else {
                // Nearest blocker is the highest bit: keep it and everything above it.
                let b = 1u128 << (127 - blockers.leading_zeros());
                ray & !(b - 1)
            };
        }
        Bitboard(t & !own.0)
    }

    #[inline]
    fn piece_moves(&self, sq: Square, p: Piece, own: Bitboard, occ: Bitboard, list: &mut MoveList) {
        let kind = p.kind();
        let targets = Self::targets(sq, p.flags(), kind.range(), own, occ);
        if kind == PieceKind::Shield {
            let rots = self.rules.rotation.shield_mask();
            for to in targets {
                let mut r = rots;
                while r != 0 {
                    list.push(Move::new(sq, to, r.trailing_zeros() as u8));
                    r &= r - 1;
                }
            }
        } else {
            for to in targets {
                list.push(Move::new(sq, to, 0));
            }
        }
        let mut r = TURNS[p.flags().bits() as usize] & self.rules.rotation.turn_mask();
        while r != 0 {
            list.push(Move::turn(sq, r.trailing_zeros() as u8));
            r &= r - 1;
        }
    }

    /// Whether `mv` is legal here (the same answer as looking it up in
    /// [`Position::legal_moves`], but without generating them).
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.is_legal_for(self.mover(), mv)
    }

    /// Whether `mv` would be legal for `seat` if it were its turn: whether it is among
    /// [`Position::generate_moves_of`]`(seat)`. For the player to move, [`Position::is_legal`].
    #[must_use]
    pub fn is_legal_for(&self, seat: Seat, mv: Move) -> bool {
        if self.state.is_decided() {
            return false;
        }
        let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
        let turn = seat;
        if !self.controlled_by(turn).contains(from) {
            return false;
        }
        let Some(p) = self.board.piece_at(from) else {
            return false;
        };
        if from == to {
            return TURNS[p.flags().bits() as usize] & self.rules.rotation.turn_mask() & (1 << r)
                != 0;
        }
        let kind = p.kind();
        let rot_ok = if kind == PieceKind::Shield {
            self.rules.rotation.shield_mask() & (1 << r) != 0
        } else {
            r == 0
        };
        rot_ok
            && Self::targets(
                from,
                p.flags(),
                kind.range(),
                self.friends_of(turn),
                self.board.occupied(),
            )
            .contains(to)
    }

    /// The squares the piece on `sq` could move to (empty squares and enemy pieces on its
    /// lines, within range), whoever is to move. Empty if `sq` is empty.
    #[must_use]
    pub fn attacks(&self, sq: Square) -> Bitboard {
        match self.board.piece_at(sq) {
            Some(p) => {
                let friends = self.friends_of(self.controller(p.colour()));
                Self::targets(
                    sq,
                    p.flags(),
                    p.kind().range(),
                    friends,
                    self.board.occupied(),
                )
            }
            None => Bitboard::EMPTY,
        }
    }

    /// The pieces `seat` controls that could capture a piece of another side standing on
    /// `sq` (whatever stands there now).
    #[must_use]
    pub fn attackers(&self, sq: Square, seat: Seat) -> Bitboard {
        let mine = self.controlled_by(seat);
        let occ = self.board.occupied();
        let mut out = Bitboard::EMPTY;
        for d in Direction::ALL {
            // Walk away from `sq` opposite to `d`; the first piece met may come back along `d`.
            let back = d.opposite().index();
            let mut s = sq.index() as u8;
            for dist in 1..=3u8 {
                s = NEIGHBOUR[back][s as usize];
                if s == OFF {
                    break;
                }
                let from = Square::from_index_unchecked(s);
                if occ.contains(from) {
                    if mine.contains(from) {
                        if let Some(p) = self.board.piece_at(from) {
                            if p.flags().contains(d) && p.kind().range() >= dist {
                                out.insert(from);
                            }
                        }
                    }
                    break;
                }
            }
        }
        out
    }

    /// Whether any piece `seat` controls could capture an enemy piece standing on `sq`.
    #[must_use]
    pub fn is_attacked(&self, sq: Square, seat: Seat) -> bool {
        self.attackers(sq, seat).any()
    }
}
