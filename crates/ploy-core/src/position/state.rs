//! [`State`], everything of a position besides the board packed into two words.

use crate::{DrawReason, Outcome, Seat, SeatSet, WinReason};
use core::fmt;

/// Everything of a position besides the board, in two words: the hash, and the seat to move,
/// the seats in play, the controllers and the outcome packed into `meta` (bits 0-7 the
/// seat to move, 8-15 the seats in play, 16-23 two bits per colour for its controller,
/// 24-31 the outcome: bit 0 set if decided, bit 1 a draw, bits 2-5 the winners, bits 6-7
/// the reason; bits 56-63 a copy of the seat to move, see [`State::set_turn`]). Saving it in an [`Undo`] and restoring it are two full-width copies, and
/// every change writes a whole word: partial or overlapping copies would stall
/// store-to-load forwarding between make and unmake.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct State {
    pub(super) hash: u64,
    meta: u64,
}

const WIN_REASONS: [WinReason; 4] = [
    WinReason::CommanderCaptured,
    WinReason::OnlyCommanders,
    WinReason::Resignation,
    WinReason::TimeForfeit,
];

const DRAW_REASONS: [DrawReason; 3] = [
    DrawReason::Repetition,
    DrawReason::NoCaptureLimit,
    DrawReason::Agreement,
];

impl State {
    pub(super) fn new(turn: Seat, controllers: [Seat; 4], in_play: SeatSet) -> State {
        let mut st = State { hash: 0, meta: 0 };
        st.set_turn(turn);
        st.set_in_play(in_play);
        for c in Seat::ALL {
            st.set_controller(c, controllers[c.index()]);
        }
        st
    }

    #[inline(always)]
    pub(super) fn turn(self) -> Seat {
        Seat::ALL[(self.meta & 3) as usize]
    }

    /// Also writes a copy of the seat to bits 56-63 (never read): a change then spans the
    /// word, so the compiler cannot narrow its store to one byte (a later full-width read of
    /// the word, such as the next make's saved copy, could not forward from a byte store).
    #[inline(always)]
    pub(super) fn set_turn(&mut self, seat: Seat) {
        let i = seat.index() as u64;
        self.meta = (self.meta & !(0xFF | 0xFF << 56)) | i | i << 56;
    }

    /// Green to move becomes Red to move and back (both copies of the seat).
    #[inline(always)]
    pub(super) fn flip_two_player_turn(&mut self) {
        self.meta ^= 1 | 1 << 56;
    }

    #[inline(always)]
    pub(super) fn in_play(self) -> SeatSet {
        SeatSet::from_bits((self.meta >> 8) as u8)
    }

    #[inline(always)]
    pub(super) fn set_in_play(&mut self, seats: SeatSet) {
        self.meta = (self.meta & !0xFF00) | u64::from(seats.bits()) << 8;
    }

    #[inline(always)]
    pub(super) fn controller(self, colour: Seat) -> Seat {
        Seat::ALL[(self.meta >> (16 + 2 * colour.index()) & 3) as usize]
    }

    #[inline(always)]
    pub(super) fn set_controller(&mut self, colour: Seat, seat: Seat) {
        let shift = 16 + 2 * colour.index();
        self.meta = (self.meta & !(3 << shift)) | (seat.index() as u64) << shift;
    }

    pub(super) fn controllers(self) -> [Seat; 4] {
        Seat::ALL.map(|c| self.controller(c))
    }

    #[inline(always)]
    pub(super) fn is_decided(self) -> bool {
        self.meta & 1 << 24 != 0
    }

    pub(super) fn outcome(self) -> Option<Outcome> {
        let o = (self.meta >> 24) as u8;
        if o & 1 == 0 {
            return None;
        }
        let reason = usize::from(o >> 6);
        Some(if o & 2 == 0 {
            Outcome::Win {
                winners: SeatSet::from_bits(o >> 2),
                reason: WIN_REASONS[reason],
            }
        } else {
            Outcome::Draw {
                reason: DRAW_REASONS[reason.min(2)],
            }
        })
    }

    pub(super) fn set_outcome(&mut self, outcome: Option<Outcome>) {
        let o: u8 = match outcome {
            None => 0,
            Some(Outcome::Win { winners, reason }) => {
                let r = WIN_REASONS.iter().position(|&w| w == reason).unwrap_or(0);
                1 | (winners.bits() & 15) << 2 | (r as u8) << 6
            }
            Some(Outcome::Draw { reason }) => {
                let r = DRAW_REASONS.iter().position(|&d| d == reason).unwrap_or(0);
                3 | (r as u8) << 6
            }
        };
        self.meta = (self.meta & !(0xFF << 24)) | u64::from(o) << 24;
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("hash", &format_args!("{:#018x}", self.hash))
            .field("turn", &self.turn())
            .field("controllers", &self.controllers())
            .field("in_play", &self.in_play())
            .field("outcome", &self.outcome())
            .finish()
    }
}
