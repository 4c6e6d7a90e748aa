//! What the evaluation keeps up to date move by move ([`Tracks`]): for two groups of
//! colours, their squares by kind, their placement and material sums, and for every piece
//! the squares it reaches.

use super::layout::{
    KIND_OF, RING1, RING2, VALID, bit, for_each, narrow, piece_reach, popcount, sparse_count, wide,
};
use core::cell::Cell;
use ploy_core::{Move, MoveList, Position, Square, Undo};

/// Material plus placement by `[group][kind][10-wide square]`.
pub(crate) type Psqt = [[[i32; 90]; 4]; 2];

/// The group (0 or 1) of each colour, by [`Seat::index`].
pub(crate) type Groups = [u8; 4];

/// Two-player and partnership games: seats 0 and 2 (Green, Yellow) against 1 and 3.
pub(crate) const BY_PARITY: Groups = [0, 1, 0, 1];

/// A log entry's 10-wide square sits above the 90 bits of a set of squares.
const SQUARE_SHIFT: u32 = 96;
/// The log entry that closes a move's entries: its count in the low 16 bits, the kinds it
/// touched above them ([`TOUCHED_SHIFT`]), the group of the piece it captured
/// ([`VICTIM_GROUP`]).
const MARKER: u128 = 1 << 127;
/// In a marker: the move rebuilt everything (its entries are not to be replayed).
const REBUILT: u128 = 1 << 126;
/// In a marker: where the kinds whose reach changed start (bit `4 * group + kind`).
const TOUCHED_SHIFT: u32 = 16;
/// In a marker: the captured piece was of group 1.
const VICTIM_GROUP: u128 = 1 << 24;

/// The evaluation's bitboards (10-wide layout) for two groups of colours (two-player:
/// Green 0, Red 1; partnership: the teams; paranoid search: the root's colours and the
/// others'), kept up to date by [`Tracks::make`] and [`Tracks::unmake`].
///
/// Each piece's reach (the squares it could move to as it faces, friend-occupied squares
/// included) is stored on its square. A move changes the reach of the moved piece, and of
/// the probes and lances whose lines pass within their range through a square that was
/// emptied or filled; only those are computed again, and the entries they replace go to an
/// undo log that [`Tracks::unmake`] replays backwards. Entries of empty squares are stale.
///
/// The reach of each group's pieces of each kind, together, is cached until a move touches
/// that kind ([`Tracks::unions`]).
#[derive(Clone, Debug)]
pub(crate) struct Tracks {
    /// The squares of each group.
    pub(crate) colour: [u128; 2],
    /// `by_kind[group][kind]`.
    pub(crate) by_kind: [[u128; 4]; 2],
    /// Material plus placement of each group, by the tables of the last (re)build.
    pub(crate) psqt: [i32; 2],
    /// The direction mask of the piece on each 10-wide square.
    pub(crate) masks: [u8; 90],
    /// The reach of the piece on each 10-wide square.
    reach: [u128; 90],
    /// Replaced reach entries (square above [`SQUARE_SHIFT`]), each move's closed by a
    /// marker.
    log: Vec<u128>,
    /// `unions[group][kind]`: the squares the group's pieces of the kind reach, where the
    /// bit `4 * group + kind` of `stale` is clear.
    unions: [[Cell<u128>; 4]; 2],
    stale: Cell<u8>,
    /// `mobility[group][kind]` (shield, probe, lance): the squares of `unions[group][kind]`
    /// not occupied by the group, when the group occupied `own_at[group]`.
    mobility: [[Cell<u32>; 3]; 2],
    own_at: [Cell<u128>; 2],
}

impl Tracks {
    /// The pieces of `pos`, colour `c` in group `groups[c]`, with placement `psqt`.
    pub(crate) fn new(pos: &Position, groups: &Groups, psqt: &Psqt) -> Tracks {
        let mut t = Tracks {
            colour: [0; 2],
            by_kind: [[0; 4]; 2],
            psqt: [0; 2],
            masks: [0; 90],
            reach: [0; 90],
            log: Vec::new(),
            unions: Default::default(),
            stale: Cell::new(0xFF),
            mobility: Default::default(),
            own_at: Default::default(),
        };
        t.rebuild(pos, groups, psqt);
        t
    }

    /// Everything from `pos` again (the log is kept).
    pub(crate) fn rebuild(&mut self, pos: &Position, groups: &Groups, psqt: &Psqt) {
        self.colour = [0; 2];
        self.by_kind = [[0; 4]; 2];
        for (sq, p) in pos.board().pieces() {
            let w = wide(sq);
            let g = usize::from(groups[p.colour().index()]);
            let mask = p.flags().bits();
            self.colour[g] |= bit(w);
            self.by_kind[g][KIND_OF[mask as usize] as usize] |= bit(w);
            self.masks[w] = mask;
        }
        let occ = self.occupied();
        for_each(occ, |w| self.reach[w] = piece_reach(w, self.masks[w], occ));
        self.psqt = self.psqt_sums(psqt);
        self.stale.set(0xFF);
    }

    /// Material plus placement of each group by the tables `psqt`.
    pub(crate) fn psqt_sums(&self, psqt: &Psqt) -> [i32; 2] {
        let mut sums = [0; 2];
        for (g, sum) in sums.iter_mut().enumerate() {
            for (table, &set) in psqt[g].iter().zip(&self.by_kind[g]) {
                for_each(set, |w| *sum += table[w]);
            }
        }
        sums
    }

    /// The occupied squares.
    #[inline(always)]
    pub(crate) fn occupied(&self) -> u128 {
        self.colour[0] | self.colour[1]
    }

    /// The group of the piece on the occupied 10-wide square `w`.
    #[inline(always)]
    fn group_at(&self, w: usize) -> usize {
        usize::from(self.colour[1] & bit(w) != 0)
    }

    /// The squares the piece on the occupied 10-wide square `w` reaches.
    #[inline(always)]
    pub(crate) fn reach_at(&self, w: usize) -> u128 {
        self.reach[w]
    }

    /// The squares the pieces in `set` reach, together.
    #[inline(always)]
    pub(crate) fn reach_of(&self, set: u128) -> u128 {
        let mut r = 0;
        for_each(set, |w| r |= self.reach[w]);
        r
    }

    /// `[group][kind]`: the squares each group's pieces of each kind reach, together; and
    /// for shields, probes and lances how many of those squares the group does not occupy
    /// (its mobility by kind).
    ///
    /// Both are cached. A kind whose reach a move changed is gathered and counted again;
    /// for the others only the group's squares that were left or filled since the last call
    /// (usually one or two) are looked at.
    #[inline]
    pub(crate) fn reached(&self) -> ([[u128; 4]; 2], [[u32; 3]; 2]) {
        let stale = self.stale.get();
        for g in 0..2 {
            let own = self.colour[g];
            let was = self.own_at[g].get();
            let (left, filled) = (was & !own, own & !was);
            for k in 0..4 {
                let union = &self.unions[g][k];
                if stale >> (4 * g + k) & 1 != 0 {
                    let set = self.reach_of(self.by_kind[g][k]);
                    union.set(set);
                    if k < 3 {
                        self.mobility[g][k].set(popcount(set & !own));
                    }
                } else if k < 3 && was != own {
                    let set = union.get();
                    let m = &self.mobility[g][k];
                    m.set(m.get() + sparse_count(set & left) - sparse_count(set & filled));
                }
            }
            self.own_at[g].set(own);
        }
        self.stale.set(0);
        (
            self.unions.each_ref().map(|u| u.each_ref().map(Cell::get)),
            self.mobility
                .each_ref()
                .map(|m| m.each_ref().map(Cell::get)),
        )
    }

    /// Logs the reach entry of `w` before it changes.
    #[inline(always)]
    fn save(&mut self, w: usize) {
        self.log.push(self.reach[w] | (w as u128) << SQUARE_SHIFT);
    }

    /// Plays `mv` on `pos` and follows it. A move that changes the groups or takes a piece
    /// off the board besides the one captured (four-player games) must be followed by
    /// [`Tracks::rebuild_after_make`].
    #[inline]
    pub(crate) fn make(&mut self, pos: &mut Position, mv: Move, psqt: &Psqt) -> Undo {
        let (wf, wt) = (wide(mv.from()), wide(mv.to()));
        let undo = pos.make_move(mv);
        let start = self.log.len();
        let g = self.group_at(wf);
        let mask = self.masks[wf];
        let k = KIND_OF[mask as usize] as usize;
        let new_mask = mask.rotate_left(u32::from(mv.rotation()));
        let mut touched = 1u8 << (4 * g + k);
        let mut marker = MARKER;
        if wf != wt {
            let (bf, bt) = (bit(wf), bit(wt));
            // The squares whose occupancy changed: the start square, and the end square
            // unless a piece was captured there.
            let (changed, near1, near2) = if self.occupied() & bt != 0 {
                let vg = self.group_at(wt);
                let vk = KIND_OF[self.masks[wt] as usize] as usize;
                self.colour[vg] ^= bt;
                self.by_kind[vg][vk] ^= bt;
                self.psqt[vg] -= psqt[vg][vk][wt];
                touched |= 1 << (4 * vg + vk);
                marker |= VICTIM_GROUP * vg as u128;
                (bf, RING1[wf], RING2[wf])
            } else {
                (bf | bt, RING1[wf] | RING1[wt], RING2[wf] | RING2[wt])
            };
            self.colour[g] ^= bf | bt;
            self.by_kind[g][k] ^= bf | bt;
            self.psqt[g] += psqt[g][k][wt] - psqt[g][k][wf];
            let occ = self.occupied();
            // The start square's entry goes back as it was, whatever happens below.
            self.save(wf);
            // Probes and lances whose lines pass through a changed square within range.
            let probes = self.by_kind[0][1] | self.by_kind[1][1];
            let lances = self.by_kind[0][2] | self.by_kind[1][2];
            let near = ((probes | lances) & near1 | lances & near2) & !bt;
            for_each(near, |w| {
                if self.reach[w] & changed != 0 {
                    self.save(w);
                    let m = self.masks[w];
                    self.reach[w] = piece_reach(w, m, occ);
                    touched |= 1 << (4 * self.group_at(w) + KIND_OF[m as usize] as usize);
                }
            });
            self.save(wt);
            self.reach[wt] = piece_reach(wt, new_mask, occ);
        } else {
            self.save(wt);
            self.reach[wt] = piece_reach(wt, new_mask, self.occupied());
        }
        self.masks[wt] = new_mask;
        self.stale.set(self.stale.get() | touched);
        let n = (self.log.len() - start) as u128;
        self.log
            .push(marker | u128::from(touched) << TOUCHED_SHIFT | n);
        undo
    }

    /// After [`Tracks::make`]: builds everything again from `pos` (the groups changed, or a
    /// piece left the board), and takes note for [`Tracks::unmake`].
    #[cold]
    pub(crate) fn rebuild_after_make(&mut self, pos: &Position, groups: &Groups, psqt: &Psqt) {
        *self.log.last_mut().expect("a move was made") |= REBUILT;
        self.rebuild(pos, groups, psqt);
    }

    /// Forgets the log of the last move made (which rebuilt everything): the caller takes
    /// it back and rebuilds.
    pub(crate) fn discard_last(&mut self) {
        let marker = self.log.pop().expect("a move was made");
        let n = (marker & 0xFFFF) as usize;
        self.log.truncate(self.log.len() - n);
    }

    /// Takes back `mv`, the last move made, on `pos` and here. If `mv` rebuilt everything,
    /// builds again with `groups`.
    #[inline]
    pub(crate) fn unmake(
        &mut self,
        pos: &mut Position,
        mv: Move,
        undo: Undo,
        groups: &Groups,
        psqt: &Psqt,
    ) {
        let marker = self.log.pop().expect("unmake: no move was made");
        let n = (marker & 0xFFFF) as usize;
        if marker & REBUILT != 0 {
            pos.unmake_move(mv, undo);
            self.log.truncate(self.log.len() - n);
            self.rebuild(pos, groups, psqt);
            return;
        }
        for _ in 0..n {
            let e = self.log.pop().expect("a logged entry");
            self.reach[(e >> SQUARE_SHIFT) as usize & 0x7F] = e & VALID;
        }
        self.stale
            .set(self.stale.get() | (marker >> TOUCHED_SHIFT) as u8);
        let (wf, wt) = (wide(mv.from()), wide(mv.to()));
        let mask = self.masks[wt].rotate_right(u32::from(mv.rotation()));
        self.masks[wf] = mask;
        if wf != wt {
            let g = self.group_at(wt);
            let k = KIND_OF[mask as usize] as usize;
            let (bf, bt) = (bit(wf), bit(wt));
            self.colour[g] ^= bf | bt;
            self.by_kind[g][k] ^= bf | bt;
            self.psqt[g] -= psqt[g][k][wt] - psqt[g][k][wf];
            if let Some(v) = undo.captured() {
                let vg = usize::from(marker & VICTIM_GROUP != 0);
                let vmask = v.flags().bits();
                let vk = KIND_OF[vmask as usize] as usize;
                self.colour[vg] ^= bt;
                self.by_kind[vg][vk] ^= bt;
                self.psqt[vg] += psqt[vg][vk][wt];
                self.masks[wt] = vmask;
            }
        }
        pos.unmake_move(mv, undo);
    }

    /// Whether the tracked pieces are the board's (four-player games may take a bare
    /// commander off the board with its player).
    #[inline]
    pub(crate) fn count_matches(&self, pos: &Position) -> bool {
        self.occupied().count_ones() == pos.board().occupied().count()
    }

    /// The moves capturing from the squares in `mine` (10-wide), in the order of ploy-core's
    /// own capture lists: by target square, then by start square. `enemy` holds the squares
    /// that may be captured; `shield_rotations` the rotations a shield may make (bit r for
    /// `r` steps).
    #[inline]
    pub(crate) fn captures(
        &self,
        mine: u128,
        enemy: u128,
        targets: u128,
        shield_rotations: u8,
        moves: &mut ploy_core::MoveList,
    ) {
        for_each(targets & enemy, |t| {
            let to = narrow(t);
            let tb = bit(t);
            for_each(mine, |f| {
                if self.reach[f] & tb == 0 {
                    return;
                }
                let shield = KIND_OF[self.masks[f] as usize] == 0;
                push_capture(moves, narrow(f), to, shield, shield_rotations);
            });
        });
    }
}

/// Appends the captures from `from` on `to`: a shield's one per rotation in
/// `shield_rotations` (bit `r` for `r` steps), any other piece's one without turning.
#[inline(always)]
pub(crate) fn push_capture(
    moves: &mut MoveList,
    from: Square,
    to: Square,
    shield: bool,
    shield_rotations: u8,
) {
    if shield {
        let mut r = shield_rotations;
        while r != 0 {
            moves.push(Move::new(from, to, r.trailing_zeros() as u8));
            r &= r - 1;
        }
    } else {
        moves.push(Move::new(from, to, 0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ploy_core::Seat;

    #[test]
    fn log_entries_keep_square_and_set_apart() {
        let set = VALID;
        let e = set | (89u128 << SQUARE_SHIFT);
        assert_eq!(e & VALID, set);
        assert_eq!((e >> SQUARE_SHIFT) as usize & 0x7F, 89);
        assert_eq!(VALID >> 90, 0);
        assert_eq!(MARKER & (0x7Fu128 << SQUARE_SHIFT), 0);
    }

    #[test]
    fn unused_seat_groups_are_parity() {
        for s in Seat::ALL {
            assert_eq!(usize::from(BY_PARITY[s.index()]), s.index() & 1);
        }
    }
}
