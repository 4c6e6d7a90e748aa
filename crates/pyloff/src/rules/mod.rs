//! The rules on a raw board: burial, links and cuts, freedoms, groups, captures with
//! top-down removal, and the suicide check.
//!
//! A board is a slice of owners (0 = empty, 1..=4 = a player's piece) indexed like the
//! board's [`Geometry`]. Every function here works on such a slice, so that a trial
//! placement can run on a scratch copy while the position stays untouched.
//!
//! # Bookkeeping (what is computed when)
//!
//! Nothing about groups is stored between moves: burial is one table lookup (the point two
//! levels up in the cell), a cut two, validity four. Groups are walked on demand with a
//! visit stamp per point, so a walk costs the size of the group, not of the board:
//!
//! - **placement legality** first asks whether the new piece has a freedom of its own that
//!   no removal can take away (a board-level freedom, or under `cut_down` any empty
//!   same-level neighbour; under `all_freedoms` an empty valid neighbour whose supporters are
//!   all the mover's). Removals only free points, unbury pieces and restore cut links, so in
//!   those cases the move is legal whatever it captures. Only when this fails is the move
//!   tried on a copy of the board (captures, removal, then the walk from the new piece).
//! - **making a move** decides captures once on the board after the placement: one pass over
//!   the pieces of the other colours, each group walked once (under `cut_down`, one pass per
//!   level from the top, spreading life down to supporters and along each level).
//!
//! # Files
//!
//! The walks' buffers and the per-thread cache are in `scratch`; [`Rules`] and its
//! primitives (burial, validity, cuts, links, freedoms, groups) here; the analysis of a
//! board's groups in `analysis`; captures in `capture`; placement legality and making a
//! placement in `legality`; the evaluation's counts in `survey`.

mod analysis;
mod capture;
mod legality;
mod scratch;
mod survey;

pub(crate) use scratch::{Scratch, Work, with_scratch};
pub(crate) use survey::PlayerSurvey;

use crate::geometry::{Geometry, NONE};
use crate::types::RuleSet;

/// A board under a rule set.
#[derive(Clone, Copy)]
pub(crate) struct Rules<'a> {
    pub geo: &'a Geometry,
    pub rules: RuleSet,
}

impl<'a> Rules<'a> {
    /// Whether the piece at `x` is buried (the point two levels up in its cell is occupied).
    #[inline]
    pub fn buried(&self, o: &[u8], x: u16) -> bool {
        let b = self.geo.info[x as usize].burier;
        b != NONE && o[b as usize] != 0
    }

    /// Whether the point `q` is valid: on the board, or resting on four occupied points.
    #[inline]
    pub fn valid(&self, o: &[u8], q: u16) -> bool {
        let info = &self.geo.info[q as usize];
        info.level == 0 || info.sup.iter().all(|&s| o[s as usize] != 0)
    }

    /// Whether the empty point `q` is a freedom for a same-level neighbour.
    #[inline]
    fn freedom_point(&self, o: &[u8], q: u16) -> bool {
        if o[q as usize] != 0 {
            return false;
        }
        match self.rules {
            RuleSet::Default => self.geo.info[q as usize].level == 0,
            RuleSet::AllFreedoms => self.valid(o, q),
            RuleSet::CutDown => true,
        }
    }

    /// Whether the piece at `x` has a freedom of its own.
    #[inline]
    pub fn has_freedom(&self, o: &[u8], x: u16) -> bool {
        let info = &self.geo.info[x as usize];
        if self.rules == RuleSet::Default && info.level != 0 {
            return false;
        }
        info.nbr
            .iter()
            .any(|&q| q != NONE && self.freedom_point(o, q))
    }

    /// Whether the same-level link from `x` towards its neighbour `d` (0..4) is cut.
    #[inline]
    pub fn cut(&self, o: &[u8], x: u16, d: usize) -> bool {
        let [a, b] = self.geo.info[x as usize].cut[d];
        if a == NONE {
            return false;
        }
        let ca = o[a as usize];
        ca != 0
            && ca == o[b as usize]
            && ca != o[x as usize]
            && !self.buried(o, a)
            && !self.buried(o, b)
    }

    /// Pushes the unvisited same-level neighbours linked to `x` (colour `c`, unburied, the
    /// link not cut) onto the stack, marked with `ep`: the walk along one level that every
    /// group walk shares.
    #[inline]
    fn push_level_links(&self, o: &[u8], x: u16, c: u8, s: &mut Work, ep: u32) {
        let info = &self.geo.info[x as usize];
        for d in 0..4 {
            let q = info.nbr[d];
            if q != NONE
                && o[q as usize] == c
                && s.mark[q as usize] != ep
                && !self.buried(o, q)
                && !self.cut(o, x, d)
            {
                s.mark[q as usize] = ep;
                s.stack.push(q);
            }
        }
    }

    /// Pushes the unvisited pieces linked to `x` (colour `c`, unburied) onto the stack:
    /// same-level neighbours, supporters (`down`) and pieces resting on it.
    #[inline]
    fn push_links(&self, o: &[u8], x: u16, c: u8, down: bool, s: &mut Work, ep: u32) {
        let info = &self.geo.info[x as usize];
        self.push_level_links(o, x, c, s, ep);
        if down {
            for &q in &info.sup {
                if q != NONE && o[q as usize] == c && s.mark[q as usize] != ep && !self.buried(o, q)
                {
                    s.mark[q as usize] = ep;
                    s.stack.push(q);
                }
            }
        }
        for &q in &info.up {
            if q != NONE && o[q as usize] == c && s.mark[q as usize] != ep && !self.buried(o, q) {
                s.mark[q as usize] = ep;
                s.stack.push(q);
            }
        }
    }

    /// The freedom points of the piece at `x` (empty same-level neighbours that count).
    #[inline]
    pub fn freedoms_of<'b>(&self, o: &'b [u8], x: u16) -> impl Iterator<Item = u16> + 'b
    where
        'a: 'b,
    {
        let info = &self.geo.info[x as usize];
        let default_upper = self.rules == RuleSet::Default && info.level != 0;
        let me = *self;
        info.nbr
            .into_iter()
            .filter(move |&q| !default_upper && q != NONE && me.freedom_point(o, q))
    }

    /// The group of the piece at `x` (linked pieces, both directions, a buried piece
    /// alone) into `s.members`, and the number of its distinct freedoms.
    pub fn group(&self, o: &[u8], x: u16, s: &mut Work) -> usize {
        let c = o[x as usize];
        let ep = s.next_epoch(self.geo.len());
        s.members.clear();
        s.stack.clear();
        s.mark[x as usize] = ep;
        if self.buried(o, x) {
            s.members.push(x);
            return 0;
        }
        s.stack.push(x);
        let mut freedoms = 0;
        while let Some(y) = s.stack.pop() {
            s.members.push(y);
            for q in self.freedoms_of(o, y) {
                if s.fmark[q as usize] != ep {
                    s.fmark[q as usize] = ep;
                    freedoms += 1;
                }
            }
            self.push_links(o, y, c, true, s, ep);
        }
        freedoms
    }

    /// Whether the unburied piece at `x` is alive: its group has a freedom, or under
    /// `cut_down` a path of links that never goes down reaches a piece with a freedom.
    pub fn alive(&self, o: &[u8], x: u16, s: &mut Work) -> bool {
        if self.buried(o, x) {
            return false;
        }
        let c = o[x as usize];
        let down = self.rules != RuleSet::CutDown;
        let ep = s.next_epoch(self.geo.len());
        s.stack.clear();
        s.mark[x as usize] = ep;
        s.stack.push(x);
        while let Some(y) = s.stack.pop() {
            if self.has_freedom(o, y) {
                s.stack.clear();
                return true;
            }
            self.push_links(o, y, c, down, s, ep);
        }
        false
    }
}
