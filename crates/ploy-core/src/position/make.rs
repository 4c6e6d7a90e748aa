//! Making and unmaking moves on a [`Position`]: the board, the hash, eliminations, control
//! and the next turn.

use super::Position;
use super::state::State;
use crate::tables::{KEYS, flags_key, piece_key, turn_key};
use crate::{
    BareCommander, Flags, Move, Outcome, PartnerElimination, Piece, PieceKind, Seat, SeatSet,
    Square, Variant, WinReason,
};

/// Everything [`Position::unmake_move`] needs besides the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The piece that moved, as it was before the move.
    piece: Piece,
    captured: Option<Piece>,
    /// A bare commander taken off the board ([`BareCommander::Removed`]). One move
    /// eliminates at most one player: only the controller of the captured piece loses a
    /// piece he controls, and its colour's owner, if in play, is that controller.
    removed: Option<(Square, Piece)>,
    state: State,
}

impl Undo {
    /// The piece the move captured, if any.
    #[inline]
    #[must_use]
    pub fn captured(&self) -> Option<Piece> {
        self.captured
    }
}

impl Position {
    /// Plays `mv`, which must be legal, and returns what [`Position::unmake_move`] needs to
    /// take it back.
    ///
    /// Precondition: `mv` is legal here (from [`Position::legal_moves`] or checked with
    /// [`Position::is_legal`]). An illegal move leaves the position in an unspecified but
    /// memory-safe state; use [`Position::play`] for untrusted moves.
    ///
    /// # Panics
    /// May panic if `from` is empty.
    #[inline(always)]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let prev = self.state;
        let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
        let piece = self
            .board
            .piece_at(from)
            .expect("make_move: no piece on the start square");
        let moved = piece.rotate(r);
        let mut captured = None;
        let mut h = self.state.hash;
        if from == to {
            // The colour keys cancel, and the flag keys of a square combine by XOR.
            h ^= flags_key(
                from,
                Flags::new(piece.flags().bits() ^ moved.flags().bits()),
            );
            self.board.turn_piece(from, piece, moved);
        } else {
            h ^= piece_key(from, piece) ^ piece_key(to, moved);
            captured = self.board.piece_at(to);
            match captured {
                None => self.board.relocate(from, to, piece, moved),
                Some(c) => {
                    h ^= piece_key(to, c);
                    self.board.capture(from, to, piece, moved, c);
                }
            }
        }
        if self.variant == Variant::TwoPlayer {
            self.state.hash = h ^ KEYS.turn[0] ^ KEYS.turn[1];
            self.state.flip_two_player_turn();
            if captured.is_some() {
                let next = self.state.turn();
                self.judge_two_player(Seat::ALL[next.index() ^ 1], next);
            }
            return Undo {
                piece,
                captured,
                removed: None,
                state: prev,
            };
        }
        self.state.hash = h;
        let removed = self.finish_four_player(prev.turn(), captured.is_some());
        Undo {
            piece,
            captured,
            removed,
            state: prev,
        }
    }

    /// After a capture by `mover` in a two-player game: ends the game if `next` is
    /// eliminated.
    #[inline]
    fn judge_two_player(&mut self, mover: Seat, next: Seat) {
        if let Some(reason) = self.elimination(next) {
            self.eliminate_two_player(mover, next, reason);
            self.state.hash ^= KEYS.out[next.index()];
        }
    }

    /// The four-player part of [`Position::make_move`]: eliminations and the next turn.
    #[inline(never)]
    fn finish_four_player(&mut self, slot: Seat, captured: bool) -> Option<(Square, Piece)> {
        let mover = self.actor(slot).unwrap_or(slot);
        let removed = if captured {
            self.judge_four_player(mover)
        } else {
            None
        };
        let next = self.next_turn(slot);
        self.state.hash ^= turn_key(slot) ^ turn_key(next);
        self.state.set_turn(next);
        removed
    }

    /// The free-for-all position after `seat` left the game (resigned or lost on time)
    /// while at least two other players are still in play: every piece `seat` controls
    /// (his own and those he took over) leaves the board, he is out of play, and if it was
    /// his turn, it passes to the next player in play. The colours he controlled, now
    /// without pieces, pass to the next player in play after him in turn order (so that
    /// the position is one [`Position::from_setup`] accepts; no piece moves with them).
    ///
    /// Nothing else changes: no other player is eliminated by it, and the game goes on.
    ///
    /// ```
    /// use ploy_core::{Position, Rules, Seat, Variant};
    /// let pos = Position::start(Variant::FreeForAll, Rules::standard());
    /// let after = pos.without_player(Seat::Green).unwrap();
    /// assert!(!after.in_play().contains(Seat::Green));
    /// assert_eq!(after.turn(), Seat::Red);
    /// assert_eq!(after.board().pieces().count(), 27);
    /// assert!(after.outcome().is_none());
    /// ```
    ///
    /// `None` unless this is a free-for-all game that goes on, `seat` is in play, and at
    /// least two other players are.
    #[must_use]
    pub fn without_player(&self, seat: Seat) -> Option<Position> {
        let in_play = self.state.in_play();
        if self.variant != Variant::FreeForAll
            || self.state.outcome().is_some()
            || !in_play.contains(seat)
            || in_play.without(seat).count() < 2
        {
            return None;
        }
        let mut setup = self.to_setup();
        setup.in_play = in_play.without(seat);
        let heir = (1..4)
            .map(|i| Seat::ALL[(seat.index() + i) & 3])
            .find(|&s| setup.in_play.contains(s))?;
        for colour in Seat::ALL {
            if setup.controllers[colour.index()] == seat {
                setup.controllers[colour.index()] = heir;
                let squares: Vec<Square> = setup.board.by_colour(colour).into_iter().collect();
                for sq in squares {
                    setup.board.remove(sq);
                }
            }
        }
        if setup.turn == seat {
            setup.turn = heir;
        }
        Position::from_setup(setup, self.rules).ok()
    }

    /// The seat after `slot` in turn order whose turn someone takes (after the game has
    /// ended: simply the next seat).
    fn next_turn(&self, slot: Seat) -> Seat {
        let mut s = slot;
        for _ in 0..4 {
            s = Seat::ALL[(s.index() + 1) & 3];
            if self.state.is_decided() || self.actor(s).is_some() {
                return s;
            }
        }
        slot
    }

    /// After `mover` captured: checks every other player in play, in turn order after the
    /// mover, eliminates those who meet the test, and ends the game if one player or team
    /// is left. Returns a bare commander taken off the board, if any.
    fn judge_four_player(&mut self, mover: Seat) -> Option<(Square, Piece)> {
        let mut removed = None;
        let mut last_reason = None;
        for i in 1..4 {
            let seat = Seat::ALL[(mover.index() + i) & 3];
            if !self.state.in_play().contains(seat) {
                continue;
            }
            let Some(reason) = self.elimination(seat) else {
                continue;
            };
            last_reason = Some(reason);
            self.state.set_in_play(self.state.in_play().without(seat));
            self.state.hash ^= KEYS.out[seat.index()];
            if reason == WinReason::OnlyCommanders
                && self.rules.bare_commander == BareCommander::Removed
            {
                // His own commander leaves the board (`docs/rules.md` section 7, the bare
                // commander). Another colour's commander he controls (possible only in a
                // position set up by hand: in play an out-of-play colour's commander is
                // gone under this option) passes on with its colour like any other piece.
                let own = self.board.by_colour(seat);
                for sq in own {
                    if let Some(p) = self.board.piece_at(sq) {
                        if p.kind() == PieceKind::Commander {
                            self.board.remove(sq);
                            self.state.hash ^= piece_key(sq, p);
                            debug_assert!(removed.is_none(), "one bare commander per move");
                            removed = Some((sq, p));
                        }
                    }
                }
            }
            let heir = match (self.variant, self.rules.partner_elimination) {
                (Variant::FreeForAll, _) => Some(mover),
                (Variant::Partnership, PartnerElimination::Absorbed)
                    if self.state.in_play().contains(seat.partner()) =>
                {
                    Some(seat.partner())
                }
                _ => None,
            };
            if let Some(heir) = heir {
                self.transfer_control(seat, heir);
            }
        }
        if last_reason.is_some() {
            self.state.set_outcome(self.four_player_result(last_reason));
        }
        removed
    }

    /// Every colour `from` controls passes to `to`.
    fn transfer_control(&mut self, from: Seat, to: Seat) {
        for c in Seat::ALL {
            if self.state.controller(c) == from {
                let key = |s: Seat| {
                    if s == c {
                        0
                    } else {
                        KEYS.control[c.index()][s.index()]
                    }
                };
                self.state.hash ^= key(from) ^ key(to);
                self.state.set_controller(c, to);
            }
        }
    }

    /// The outcome if one player (free-for-all) or one team (partnership) is left in play.
    /// `reason` is why the last opponent went out; for a position read from a setup it is
    /// guessed from the board (commander captured if a loser has no commander).
    pub(super) fn four_player_result(&self, reason: Option<WinReason>) -> Option<Outcome> {
        let in_play = self.state.in_play();
        let winners = match self.variant {
            Variant::TwoPlayer => return self.state.outcome(),
            Variant::FreeForAll if in_play.count() == 1 => in_play,
            Variant::Partnership => {
                let team = |s: Seat| SeatSet::only(s).with(s.partner());
                let green = team(Seat::Green);
                let red = team(Seat::Red);
                match (
                    (in_play.bits() & green.bits()) != 0,
                    (in_play.bits() & red.bits()) != 0,
                ) {
                    (true, false) => green,
                    (false, true) => red,
                    _ => return None,
                }
            }
            _ => return None,
        };
        let reason = reason.unwrap_or_else(|| {
            let losers = SeatSet::ALL.bits() & !winners.bits();
            let no_commander = SeatSet::from_bits(losers)
                .iter()
                .any(|s| self.board.count(s, PieceKind::Commander) == 0);
            if no_commander {
                WinReason::CommanderCaptured
            } else {
                WinReason::OnlyCommanders
            }
        });
        Some(Outcome::Win { winners, reason })
    }

    /// Takes back `mv`, which must be the last move made, with its [`Undo`].
    #[inline(always)]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let (from, to, r) = (mv.from(), mv.to(), mv.rotation());
        if let Some((sq, p)) = undo.removed {
            self.board.put_on_empty(sq, p);
        }
        let piece = undo.piece;
        let moved = piece.rotate(r);
        if from == to {
            self.board.turn_piece(from, moved, piece);
        } else {
            match undo.captured {
                None => self.board.relocate(to, from, moved, piece),
                Some(c) => self.board.uncapture(from, to, piece, moved, c),
            }
        }
        self.state = undo.state;
    }

    /// Passes the turn to the opponent without moving: a *null move*, which the rules do
    /// not allow, for searches that ask "what if this side could do nothing" (null-move
    /// pruning). Only the seat to move and the hash change; [`Position::unmake_null_move`]
    /// takes it back.
    ///
    /// Returns `false` and changes nothing in a decided game or a four-player game (where
    /// a pass would have to decide whose turn comes next).
    ///
    /// ```
    /// use ploy_core::{Position, Seat};
    /// let mut pos = Position::new();
    /// let before = pos.clone();
    /// assert!(pos.make_null_move());
    /// assert_eq!(pos.turn(), Seat::Red);
    /// assert_eq!(pos.hash(), pos.compute_hash());
    /// pos.unmake_null_move();
    /// assert_eq!(pos, before);
    /// ```
    #[inline]
    pub fn make_null_move(&mut self) -> bool {
        if self.variant != Variant::TwoPlayer || self.state.outcome().is_some() {
            return false;
        }
        self.swap_two_player_turn();
        true
    }

    /// Takes back a null move made by [`Position::make_null_move`] (which returned `true`),
    /// the last move made.
    #[inline]
    pub fn unmake_null_move(&mut self) {
        self.swap_two_player_turn();
    }

    #[inline]
    fn swap_two_player_turn(&mut self) {
        let mover = self.state.turn();
        let next = self.two_player_opponent(mover);
        self.state.hash ^= turn_key(mover) ^ turn_key(next);
        self.state.set_turn(next);
    }
}
