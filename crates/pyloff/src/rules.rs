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

use crate::geometry::{Geometry, NONE};
use crate::types::RuleSet;

/// Reusable buffers for the walks (one per thread, see [`with_scratch`]).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// Visit stamps per point.
    mark: Vec<u32>,
    /// Freedom stamps per point (counting distinct freedoms).
    fmark: Vec<u32>,
    epoch: u32,
    pub stack: Vec<u16>,
    pub members: Vec<u16>,
    pub captured: Vec<u16>,
    /// A copy of the board for trial placements.
    pub board: Vec<u8>,
    /// Pieces removed by a trial placement.
    pub removed: Vec<(u16, u8)>,
}

impl Scratch {
    pub const fn new() -> Scratch {
        Scratch {
            mark: Vec::new(),
            fmark: Vec::new(),
            epoch: 0,
            stack: Vec::new(),
            members: Vec::new(),
            captured: Vec::new(),
            board: Vec::new(),
            removed: Vec::new(),
        }
    }

    /// A fresh stamp for a board of `len` points (no point carries it yet).
    #[inline]
    pub fn next_epoch(&mut self, len: usize) -> u32 {
        if self.mark.len() < len {
            self.mark.resize(len, 0);
            self.fmark.resize(len, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.fill(0);
            self.fmark.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }
}

thread_local! {
    static SCRATCH: core::cell::RefCell<Scratch> = const { core::cell::RefCell::new(Scratch::new()) };
}

/// Runs `f` with this thread's scratch buffers (not reentrant: `f` must not call it again).
#[inline]
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| f(&mut s.borrow_mut()))
}

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

    /// Pushes the unvisited pieces linked to `x` (colour `c`, unburied) onto the stack:
    /// same-level neighbours, supporters (`down`) and pieces resting on it.
    #[inline]
    fn push_links(&self, o: &[u8], x: u16, c: u8, down: bool, s: &mut Scratch, ep: u32) {
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
    pub fn group(&self, o: &[u8], x: u16, s: &mut Scratch) -> usize {
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
    pub fn alive(&self, o: &[u8], x: u16, s: &mut Scratch) -> bool {
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

    /// The pieces of colours other than `mover` that are captured on board `o`, into
    /// `s.captured` (in no particular order).
    pub fn captures(&self, o: &[u8], mover: u8, s: &mut Scratch) {
        s.captured.clear();
        if self.rules == RuleSet::CutDown {
            self.captures_cut_down(o, mover, s);
            return;
        }
        let n = self.geo.len();
        let ep = s.next_epoch(n);
        for x in 0..n as u16 {
            let c = o[x as usize];
            if c == 0 || c == mover || s.mark[x as usize] == ep {
                continue;
            }
            s.mark[x as usize] = ep;
            if self.buried(o, x) {
                s.captured.push(x);
                continue;
            }
            s.members.clear();
            s.stack.clear();
            s.stack.push(x);
            let mut free = false;
            while let Some(y) = s.stack.pop() {
                s.members.push(y);
                if !free && self.has_freedom(o, y) {
                    free = true;
                }
                self.push_links(o, y, c, true, s, ep);
            }
            if !free {
                s.captured.extend_from_slice(&s.members);
            }
        }
    }

    /// `cut_down`: life spreads from pieces with a freedom along same-level links and down
    /// to linked supporters; levels are settled from the top.
    fn captures_cut_down(&self, o: &[u8], mover: u8, s: &mut Scratch) {
        let geo = self.geo;
        let n = geo.len();
        let ep = s.next_epoch(n);
        for k in (0..geo.n as usize).rev() {
            let (lo, hi) = (geo.level_start[k], geo.level_start[k + 1]);
            for x in lo..hi {
                let c = o[x as usize];
                if c == 0 || c == mover || s.mark[x as usize] == ep || self.buried(o, x) {
                    continue;
                }
                let info = &geo.info[x as usize];
                let held = info.up.iter().any(|&u| {
                    u != NONE
                        && o[u as usize] == c
                        && s.mark[u as usize] == ep
                        && !self.buried(o, u)
                });
                if !held && !self.has_freedom(o, x) {
                    continue;
                }
                // Alive: spread along this level's links.
                s.mark[x as usize] = ep;
                s.stack.clear();
                s.stack.push(x);
                while let Some(y) = s.stack.pop() {
                    let yi = &geo.info[y as usize];
                    for d in 0..4 {
                        let q = yi.nbr[d];
                        if q != NONE
                            && o[q as usize] == c
                            && s.mark[q as usize] != ep
                            && !self.buried(o, q)
                            && !self.cut(o, y, d)
                        {
                            s.mark[q as usize] = ep;
                            s.stack.push(q);
                        }
                    }
                }
            }
        }
        for x in 0..n as u16 {
            let c = o[x as usize];
            if c != 0 && c != mover && s.mark[x as usize] != ep {
                s.captured.push(x);
            }
        }
    }

    /// Removes the captured pieces in `s.captured` top-down (a captured piece stays while a
    /// piece that stays rests on it), appending `(point, owner)` of each removed piece to
    /// `removed`, highest first.
    pub fn remove_captured(&self, o: &mut [u8], s: &mut Scratch, removed: &mut Vec<(u16, u8)>) {
        // Higher levels have higher numbers: descending order settles the top first.
        s.captured.sort_unstable_by(|a, b| b.cmp(a));
        for &x in &s.captured {
            let up = &self.geo.info[x as usize].up;
            if up.iter().all(|&u| u == NONE || o[u as usize] == 0) {
                removed.push((x, o[x as usize]));
                o[x as usize] = 0;
            }
        }
    }

    /// Whether the piece `c` placed at `p` (valid and empty) surely survives whatever it
    /// captures: it has a freedom of its own that no removal can take away.
    #[inline]
    pub fn surely_legal(&self, o: &[u8], p: u16, c: u8) -> bool {
        let info = &self.geo.info[p as usize];
        match self.rules {
            RuleSet::Default => {
                info.level == 0 && info.nbr.iter().any(|&q| q != NONE && o[q as usize] == 0)
            }
            RuleSet::CutDown => info.nbr.iter().any(|&q| q != NONE && o[q as usize] == 0),
            RuleSet::AllFreedoms => info.nbr.iter().any(|&q| {
                if q == NONE || o[q as usize] != 0 {
                    return false;
                }
                let qi = &self.geo.info[q as usize];
                qi.level == 0 || qi.sup.iter().all(|&s| o[s as usize] == c)
            }),
        }
    }

    /// Plays `c` at `p` on `o` (valid and empty): places, captures, removes. Returns whether
    /// the placed piece is alive afterwards; `removed` receives the removed pieces. On
    /// `false` the board is left as it is after the removals (the caller restores it).
    pub fn place(
        &self,
        o: &mut [u8],
        p: u16,
        c: u8,
        s: &mut Scratch,
        removed: &mut Vec<(u16, u8)>,
    ) -> bool {
        o[p as usize] = c;
        self.captures(o, c, s);
        self.remove_captured(o, s, removed);
        self.alive(o, p, s)
    }

    /// Whether `c` may legally play the valid empty point `p` on `o`.
    pub fn legal_placement(&self, o: &[u8], p: u16, c: u8, s: &mut Scratch) -> bool {
        if self.surely_legal(o, p, c) {
            return true;
        }
        let mut board = core::mem::take(&mut s.board);
        board.clear();
        board.extend_from_slice(o);
        let mut removed = core::mem::take(&mut s.removed);
        removed.clear();
        let ok = self.place(&mut board, p, c, s, &mut removed);
        s.board = board;
        s.removed = removed;
        ok
    }

    /// What the evaluation needs of every player's groups, into `out` (indexed by colour
    /// minus one). Groups are walked in both directions (also under `cut_down`).
    pub fn survey(&self, o: &[u8], s: &mut Scratch, out: &mut [PlayerSurvey; 4]) {
        *out = [PlayerSurvey::default(); 4];
        let n = self.geo.len();
        let ep = s.next_epoch(n);
        for x in 0..n as u16 {
            let c = o[x as usize];
            if c == 0 {
                continue;
            }
            let info = &self.geo.info[x as usize];
            let held = info.up.iter().any(|&u| u != NONE && o[u as usize] != 0);
            let sv = &mut out[usize::from(c) - 1];
            if held {
                sv.held += 1;
            }
            if info.level > 0 {
                sv.upper += 1;
            }
            if s.mark[x as usize] == ep {
                continue;
            }
            s.mark[x as usize] = ep;
            // One group: its size, its pieces nothing rests on, its distinct freedoms.
            let (mut size, mut loose, mut freedoms) = (0u32, 0u32, 0u32);
            if self.buried(o, x) {
                size = 1;
                loose = u32::from(!held);
            } else {
                s.stack.clear();
                s.stack.push(x);
                while let Some(y) = s.stack.pop() {
                    size += 1;
                    let yi = &self.geo.info[y as usize];
                    if !yi.up.iter().any(|&u| u != NONE && o[u as usize] != 0) {
                        loose += 1;
                    }
                    for q in self.freedoms_of(o, y) {
                        if s.fmark[q as usize] != ep {
                            s.fmark[q as usize] = ep;
                            freedoms += 1;
                        }
                    }
                    self.push_links(o, y, c, true, s, ep);
                }
            }
            let sv = &mut out[usize::from(c) - 1];
            match freedoms {
                0 => sv.dead_loose += loose,
                1 => sv.atari += size,
                2 => sv.two += size,
                _ => {}
            }
            sv.freedoms += freedoms.min(4);
            sv.groups += 1;
        }
    }
}

/// Per-player counts for the evaluation ([`Rules::survey`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlayerSurvey {
    /// Pieces of groups without a freedom that nothing rests on (the next capture removes
    /// them).
    pub dead_loose: u32,
    /// Pieces of groups with exactly one freedom.
    pub atari: u32,
    /// Pieces of groups with exactly two freedoms.
    pub two: u32,
    /// Pieces with a piece resting on them (not removable while it stays).
    pub held: u32,
    /// Pieces above the board.
    pub upper: u32,
    /// Freedoms of the groups, at most four counted per group.
    pub freedoms: u32,
    /// Groups.
    pub groups: u32,
}
