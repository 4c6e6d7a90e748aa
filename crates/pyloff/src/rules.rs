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

/// Reusable buffers for the walks.
#[derive(Debug, Default)]
pub(crate) struct Work {
    /// Visit stamps per point.
    mark: Vec<u32>,
    /// Freedom stamps per point (counting distinct freedoms).
    fmark: Vec<u32>,
    /// Stamps per group of the analysis.
    gmark: Vec<u32>,
    epoch: u32,
    /// Freedom stamps per point, one stamp per group of an analysis.
    gfree: Vec<u32>,
    fstamp: u32,
    pub stack: Vec<u16>,
    pub members: Vec<u16>,
    pub component: Vec<u16>,
    pub captured: Vec<u16>,
    /// A copy of the board for trial placements.
    pub board: Vec<u8>,
    /// Pieces removed by a trial placement.
    pub removed: Vec<(u16, u8)>,
}

impl Work {
    pub const fn new() -> Work {
        Work {
            mark: Vec::new(),
            fmark: Vec::new(),
            gmark: Vec::new(),
            epoch: 0,
            gfree: Vec::new(),
            fstamp: 0,
            stack: Vec::new(),
            members: Vec::new(),
            component: Vec::new(),
            captured: Vec::new(),
            board: Vec::new(),
            removed: Vec::new(),
        }
    }

    /// A fresh stamp for counting one group's distinct freedoms on a board of `len` points.
    #[inline]
    fn next_fstamp(&mut self, len: usize) -> u32 {
        if self.gfree.len() < len {
            self.gfree.resize(len, 0);
        }
        self.fstamp = self.fstamp.wrapping_add(1);
        if self.fstamp == 0 {
            self.gfree.fill(0);
            self.fstamp = 1;
        }
        self.fstamp
    }

    /// A fresh stamp for a board of `len` points (no point or group carries it yet).
    #[inline]
    pub fn next_epoch(&mut self, len: usize) -> u32 {
        if self.mark.len() < len {
            self.mark.resize(len, 0);
            self.fmark.resize(len, 0);
            self.gmark.resize(len, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.mark.fill(0);
            self.fmark.fill(0);
            self.gmark.fill(0);
            self.epoch = 1;
        }
        self.epoch
    }
}

/// A group of the analysis: under `default` and `all_freedoms` a group of the rules (linked
/// pieces, a buried piece alone); under `cut_down` the pieces linked along one level.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GroupInfo {
    pub colour: u8,
    /// Distinct freedoms of the members.
    pub freedoms: u16,
    /// One of them ([`NONE`] if none).
    pub free1: u16,
    /// Freedoms that no capture can take away from this colour (on the board, or resting on
    /// four pieces of this colour): `all_freedoms` only.
    pub safe: u16,
    /// One of them.
    pub safe1: u16,
    /// `cut_down`: a member has a linked piece resting on it that is alive.
    pub held: bool,
    /// Alive: a freedom (or, under `cut_down`, held).
    pub alive: bool,
    /// A buried piece alone.
    pub buried: bool,
    /// Members (in `Analysis::members`) start here.
    pub start: u16,
    /// Number of members.
    pub size: u16,
}

/// The groups of one board, computed in one pass and kept until the board changes.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// The board analysed (an empty vector: none yet).
    board: Vec<u8>,
    rules: Option<RuleSet>,
    /// Each point's group ([`NONE`] for an empty point).
    pub group: Vec<u16>,
    pub groups: Vec<GroupInfo>,
    /// The members of the groups, group by group.
    pub members: Vec<u16>,
    /// The groups without life, buried pieces left out.
    pub dead: Vec<u16>,
}

impl Analysis {
    pub const fn new() -> Analysis {
        Analysis {
            board: Vec::new(),
            rules: None,
            group: Vec::new(),
            groups: Vec::new(),
            members: Vec::new(),
            dead: Vec::new(),
        }
    }

    /// The members of group `g`.
    #[inline]
    pub fn members_of(&self, g: u16) -> &[u16] {
        let info = &self.groups[g as usize];
        &self.members[info.start as usize..(info.start + info.size) as usize]
    }
}

/// How many analyses the per-thread cache keeps (direct-mapped by the board's hash): a
/// search meets each node's board again after each child, so the boards of the search path
/// must stay.
const CACHE: usize = 64;

/// The per-thread buffers: the walks' work space and the analyses of recent boards.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    pub w: Work,
    cache: Vec<Analysis>,
}

impl Scratch {
    pub const fn new() -> Scratch {
        Scratch {
            w: Work::new(),
            cache: Vec::new(),
        }
    }

    /// The analysis in `slot` and the work space.
    #[inline]
    pub fn split(&mut self, slot: usize) -> (&Analysis, &mut Work) {
        (&self.cache[slot], &mut self.w)
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
    fn push_links(&self, o: &[u8], x: u16, c: u8, down: bool, s: &mut Work, ep: u32) {
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

    /// The whole-board reference of the incremental captures, checked against them in
    /// debug builds.
    ///
    /// The unburied pieces of colours other than `mover` that are captured on board `o`,
    /// into `s.captured` (in no particular order). Buried pieces of other colours are
    /// captured too, but [`Rules::remove_captured`] finds those it removes by itself.
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    pub fn captures(&self, o: &[u8], mover: u8, s: &mut Work) {
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
                // Captured, but it can only go with the pieces above it (see removal).
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
    #[cfg_attr(not(debug_assertions), allow(dead_code))]
    fn captures_cut_down(&self, o: &[u8], mover: u8, s: &mut Work) {
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
            if c != 0 && c != mover && s.mark[x as usize] != ep && !self.buried(o, x) {
                s.captured.push(x);
            }
        }
    }

    /// Removes the captured pieces top-down: the unburied ones in `s.captured`, and the
    /// buried pieces of colours other than `mover` (all captured: a buried piece is a group
    /// without freedom), which can only go once the piece burying them went. A captured
    /// piece stays while a piece that stays rests on it. Appends `(point, owner)` of each
    /// removed piece to `removed`, highest first.
    pub fn remove_captured(
        &self,
        o: &mut [u8],
        mover: u8,
        s: &mut Work,
        removed: &mut Vec<(u16, u8)>,
    ) {
        // Higher levels have higher numbers: the largest number first settles the top
        // first.
        let mut heap = std::collections::BinaryHeap::from(core::mem::take(&mut s.captured));
        while let Some(x) = heap.pop() {
            let info = &self.geo.info[x as usize];
            if info.up.iter().all(|&u| u == NONE || o[u as usize] == 0) {
                removed.push((x, o[x as usize]));
                o[x as usize] = 0;
                let b = info.buries;
                if b != NONE && o[b as usize] != 0 && o[b as usize] != mover {
                    heap.push(b);
                }
            }
        }
        s.captured = heap.into_vec();
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

    /// The groups of `o`, whose board hash is `key`, in the returned slot of the cache
    /// (computed unless that slot holds them already).
    pub fn analyse(&self, o: &[u8], key: u64, s: &mut Scratch) -> usize {
        if s.cache.is_empty() {
            s.cache.resize_with(CACHE, Analysis::new);
        }
        let slot = (key as usize) & (CACHE - 1);
        let Scratch { w, cache } = s;
        let an = &mut cache[slot];
        if an.rules == Some(self.rules) && an.board == o {
            return slot;
        }
        self.analyse_into(o, an, w);
        slot
    }

    fn analyse_into(&self, o: &[u8], an: &mut Analysis, w: &mut Work) {
        an.board.clear();
        an.board.extend_from_slice(o);
        an.rules = Some(self.rules);
        an.group.clear();
        an.group.resize(o.len(), NONE);
        an.groups.clear();
        an.members.clear();
        an.dead.clear();
        if self.rules == RuleSet::CutDown {
            self.analyse_cut_down(o, an, w);
            return;
        }
        let n = self.geo.len();
        let ep = w.next_epoch(n);
        for x in 0..n as u16 {
            let c = o[x as usize];
            if c == 0 || w.mark[x as usize] == ep {
                continue;
            }
            w.mark[x as usize] = ep;
            let id = an.groups.len() as u16;
            let fs = w.next_fstamp(n);
            let mut info = GroupInfo {
                colour: c,
                free1: NONE,
                safe1: NONE,
                start: an.members.len() as u16,
                ..GroupInfo::default()
            };
            if self.buried(o, x) {
                an.members.push(x);
                info.buried = true;
            } else {
                w.stack.clear();
                w.stack.push(x);
                while let Some(y) = w.stack.pop() {
                    an.members.push(y);
                    self.count_freedoms(o, y, c, &mut info, w, fs);
                    self.push_links(o, y, c, true, w, ep);
                }
            }
            info.size = an.members.len() as u16 - info.start;
            info.alive = info.freedoms > 0;
            for &m in &an.members[info.start as usize..] {
                an.group[m as usize] = id;
            }
            if !info.alive && !info.buried {
                an.dead.push(id);
            }
            an.groups.push(info);
        }
    }

    /// Adds the not yet counted freedoms of `y` (colour `c`) to `info`.
    #[inline]
    fn count_freedoms(&self, o: &[u8], y: u16, c: u8, info: &mut GroupInfo, w: &mut Work, fs: u32) {
        let yi = &self.geo.info[y as usize];
        if self.rules == RuleSet::Default && yi.level != 0 {
            return;
        }
        for &q in &yi.nbr {
            if q == NONE || w.gfree[q as usize] == fs || !self.freedom_point(o, q) {
                continue;
            }
            w.gfree[q as usize] = fs;
            info.freedoms += 1;
            if info.free1 == NONE {
                info.free1 = q;
            }
            let qi = &self.geo.info[q as usize];
            if qi.level == 0 || qi.sup.iter().all(|&t| o[t as usize] == c) {
                info.safe += 1;
                if info.safe1 == NONE {
                    info.safe1 = q;
                }
            }
        }
    }

    /// `cut_down`: groups along each level, settled from the top (held by a living linked
    /// piece resting on a member).
    fn analyse_cut_down(&self, o: &[u8], an: &mut Analysis, w: &mut Work) {
        let geo = self.geo;
        let ep = w.next_epoch(geo.len());
        for k in (0..geo.n as usize).rev() {
            for x in geo.level_start[k]..geo.level_start[k + 1] {
                let c = o[x as usize];
                if c == 0 || w.mark[x as usize] == ep {
                    continue;
                }
                w.mark[x as usize] = ep;
                let id = an.groups.len() as u16;
                let fs = w.next_fstamp(geo.len());
                let mut info = GroupInfo {
                    colour: c,
                    free1: NONE,
                    safe1: NONE,
                    start: an.members.len() as u16,
                    ..GroupInfo::default()
                };
                if self.buried(o, x) {
                    an.members.push(x);
                    info.buried = true;
                } else {
                    w.stack.clear();
                    w.stack.push(x);
                    while let Some(y) = w.stack.pop() {
                        an.members.push(y);
                        self.count_freedoms(o, y, c, &mut info, w, fs);
                        let yi = &geo.info[y as usize];
                        if !info.held {
                            info.held = yi.up.iter().any(|&u| {
                                u != NONE
                                    && o[u as usize] == c
                                    && !self.buried(o, u)
                                    && an.groups[an.group[u as usize] as usize].alive
                            });
                        }
                        for d in 0..4 {
                            let q = yi.nbr[d];
                            if q != NONE
                                && o[q as usize] == c
                                && w.mark[q as usize] != ep
                                && !self.buried(o, q)
                                && !self.cut(o, y, d)
                            {
                                w.mark[q as usize] = ep;
                                w.stack.push(q);
                            }
                        }
                    }
                }
                info.size = an.members.len() as u16 - info.start;
                info.alive = info.freedoms > 0 || info.held;
                for &m in &an.members[info.start as usize..] {
                    an.group[m as usize] = id;
                }
                if !info.alive && !info.buried {
                    an.dead.push(id);
                }
                an.groups.push(info);
            }
        }
    }

    /// Whether `c` placing at the valid empty point `p` is surely legal by the analysis `an`
    /// of the board `o`: the new piece joins a group (or under `cut_down`, a same-level group)
    /// of its colour that keeps a freedom no removal can take away, or is held from above.
    pub fn quick_legal(&self, o: &[u8], an: &Analysis, p: u16, c: u8) -> bool {
        let info = &self.geo.info[p as usize];
        // The piece two levels down in the cell gets buried: its group may fall apart.
        let b = info.buries;
        let split = if b != NONE && o[b as usize] == c {
            an.group[b as usize]
        } else {
            NONE
        };
        let ok = |q: u16| {
            if q == NONE || o[q as usize] != c {
                return false;
            }
            let g = an.group[q as usize];
            if g == split {
                return false;
            }
            let gi = &an.groups[g as usize];
            match self.rules {
                RuleSet::Default => gi.freedoms >= 2 || (gi.freedoms == 1 && gi.free1 != p),
                RuleSet::AllFreedoms => gi.safe >= 2 || (gi.safe == 1 && gi.safe1 != p),
                RuleSet::CutDown => {
                    gi.held || gi.freedoms >= 2 || (gi.freedoms == 1 && gi.free1 != p)
                }
            }
        };
        // Same-level neighbours and supporters of p are never buried while p is empty, and
        // no link of p can be cut yet. Under cut_down life does not come from below.
        info.nbr.iter().any(|&q| ok(q))
            || (self.rules != RuleSet::CutDown && info.sup.iter().any(|&q| ok(q)))
    }

    /// Whether `c` may legally play the valid empty point `p` of `o`, where `an` is the
    /// analysis of `o`.
    pub fn legal_with(&self, o: &[u8], an: &Analysis, p: u16, c: u8, w: &mut Work) -> bool {
        if self.surely_legal(o, p, c) || self.quick_legal(o, an, p, c) {
            debug_assert!(
                self.trial(o, an, p, c, w),
                "a quick verdict the trial refutes"
            );
            return true;
        }
        self.trial(o, an, p, c, w)
    }

    /// Plays `c` at `p` on a copy of `o` (whose analysis is `an`): whether it is legal.
    fn trial(&self, o: &[u8], an: &Analysis, p: u16, c: u8, w: &mut Work) -> bool {
        let mut board = core::mem::take(&mut w.board);
        board.clear();
        board.extend_from_slice(o);
        let mut removed = core::mem::take(&mut w.removed);
        removed.clear();
        let ok = self.place_with(&mut board, an, p, c, w, &mut removed, false);
        w.board = board;
        w.removed = removed;
        ok
    }

    /// Whether `c` may legally play the valid empty point `p` of `o`.
    pub fn legal_placement(&self, o: &[u8], key: u64, p: u16, c: u8, s: &mut Scratch) -> bool {
        if self.surely_legal(o, p, c) {
            return true;
        }
        let slot = self.analyse(o, key, s);
        let (an, w) = s.split(slot);
        self.legal_with(o, an, p, c, w)
    }

    /// Plays `c` at `p` on `o` (valid and empty): places, captures, removes. Returns whether
    /// the placed piece is alive afterwards; `removed` receives the removed pieces. On
    /// `false` the board is left as it is after the removals (the caller restores it).
    #[allow(clippy::too_many_arguments)]
    pub fn place(
        &self,
        o: &mut [u8],
        key: u64,
        p: u16,
        c: u8,
        s: &mut Scratch,
        removed: &mut Vec<(u16, u8)>,
    ) -> bool {
        let slot = self.analyse(o, key, s);
        let (an, w) = s.split(slot);
        // When the quick tests already prove the piece survives, its walk is saved.
        let known = self.surely_legal(o, p, c) || self.quick_legal(o, an, p, c);
        let alive = self.place_with(o, an, p, c, w, removed, known);
        debug_assert!(
            !known || self.alive(o, p, w),
            "a quick verdict the walk refutes"
        );
        alive
    }

    /// [`Rules::place`] given the analysis `an` of the board before the placement (the
    /// final walk is skipped when `known_alive`).
    #[allow(clippy::too_many_arguments)]
    fn place_with(
        &self,
        o: &mut [u8],
        an: &Analysis,
        p: u16,
        c: u8,
        w: &mut Work,
        removed: &mut Vec<(u16, u8)>,
        known_alive: bool,
    ) -> bool {
        o[p as usize] = c;
        if self.rules == RuleSet::CutDown {
            self.captures_after_cut_down(o, an, p, c, w);
        } else {
            self.captures_after(o, an, p, c, w);
        }
        #[cfg(debug_assertions)]
        {
            // The incremental captures are those of the whole board.
            let mut fast = core::mem::take(&mut w.captured);
            self.captures(o, c, w);
            fast.sort_unstable();
            w.captured.sort_unstable();
            assert_eq!(
                fast, w.captured,
                "incremental captures: {:?} p {} c {} rules {:?} dead {:?}",
                o, p, c, self.rules, an.dead
            );
        }
        if !w.captured.is_empty() {
            self.remove_captured(o, c, w, removed);
        }
        known_alive || self.alive(o, p, w)
    }

    /// The groups of other colours than `c` whose life a placement at `p` (already on `o`)
    /// can change, written to `out` (returns how many):
    ///
    /// - groups it splits: a link between two of its supporters that it cuts (with a piece
    ///   of its colour as the other cutting point), the group of the piece it buries;
    /// - groups it may revive: groups joined again because the buried piece no longer cuts
    ///   a link under it, and under `all_freedoms` groups next to a point it makes valid
    ///   (only groups without life are listed: live ones stay alive);
    /// - groups next to it whose last freedom it may take.
    fn touched(&self, o: &[u8], an: &Analysis, p: u16, c: u8, out: &mut [u16; 32]) -> usize {
        let geo = self.geo;
        let info = &geo.info[p as usize];
        let mut n = 0;
        fn push(out: &mut [u16; 32], n: &mut usize, g: u16) {
            if *n < out.len() && !out[..*n].contains(&g) {
                out[*n] = g;
                *n += 1;
            }
        }
        // Links among `cutter`'s supporters that `cutter` (of colour `by`) cuts together
        // with another unburied piece of its colour: `f(a, b)` for each such link a-b.
        let cuts_under = |cutter: u16, by: u8, f: &mut dyn FnMut(u16, u16)| {
            for &a in &geo.info[cutter as usize].sup {
                if a == NONE {
                    continue;
                }
                let ca = o[a as usize];
                if ca == 0 || ca == by || self.buried(o, a) {
                    continue;
                }
                let ai = &geo.info[a as usize];
                // East and north only: each link once.
                for d in [1, 3] {
                    let [x, y] = ai.cut[d];
                    let b = ai.nbr[d];
                    if x == NONE || (x != cutter && y != cutter) {
                        continue;
                    }
                    let partner = if x == cutter { y } else { x };
                    if o[partner as usize] == by
                        && !self.buried(o, partner)
                        && o[b as usize] == ca
                        && !self.buried(o, b)
                    {
                        f(a, b);
                    }
                }
            }
        };
        // Links p cuts: the group falls apart.
        cuts_under(p, c, &mut |a, _| push(out, &mut n, an.group[a as usize]));
        let b = info.buries;
        if b != NONE && o[b as usize] != 0 && o[b as usize] != c {
            let g = an.group[b as usize];
            if an.groups[g as usize].size > 1 {
                push(out, &mut n, g);
            }
        }
        if b != NONE && o[b as usize] != 0 {
            // The buried piece cuts no more: groups joined again (only a group without life
            // can change by that).
            cuts_under(b, o[b as usize], &mut |x, y| {
                let (gx, gy) = (an.group[x as usize], an.group[y as usize]);
                if o[x as usize] != c
                    && (!an.groups[gx as usize].alive || !an.groups[gy as usize].alive)
                {
                    push(out, &mut n, gx);
                    push(out, &mut n, gy);
                }
            });
        }
        if self.rules == RuleSet::AllFreedoms {
            for &u in &info.up {
                if u == NONE || o[u as usize] != 0 || !self.valid(o, u) {
                    continue;
                }
                for &q in &geo.info[u as usize].nbr {
                    if q != NONE && o[q as usize] != 0 && o[q as usize] != c {
                        let g = an.group[q as usize];
                        if !an.groups[g as usize].alive {
                            push(out, &mut n, g);
                        }
                    }
                }
            }
        }
        let structural = n;
        for &q in &info.nbr {
            if q == NONE || o[q as usize] == 0 || o[q as usize] == c {
                continue;
            }
            let g = an.group[q as usize];
            let gi = &an.groups[g as usize];
            let keeps = gi.held || gi.freedoms >= 2 || (gi.freedoms == 1 && gi.free1 != p);
            if !keeps && !out[..structural].contains(&g) {
                push(out, &mut n, g);
            }
        }
        n
    }

    /// The captures of `c`'s placement at `p` (already on `o`) into `w.captured`
    /// (`default` and `all_freedoms`): the groups the placement touches ([`Rules::touched`])
    /// are walked again on the new board; the other groups without freedom keep their
    /// members and their lack of freedom.
    fn captures_after(&self, o: &[u8], an: &Analysis, p: u16, c: u8, w: &mut Work) {
        w.captured.clear();
        let ep = w.next_epoch(self.geo.len());
        let mut seeds = [NONE; 32];
        let n_seeds = self.touched(o, an, p, c, &mut seeds);
        for &g in &seeds[..n_seeds] {
            if w.gmark[g as usize] == ep {
                continue;
            }
            w.gmark[g as usize] = ep;
            let colour = an.groups[g as usize].colour;
            for &x in an.members_of(g) {
                if w.mark[x as usize] == ep {
                    continue;
                }
                w.mark[x as usize] = ep;
                if self.buried(o, x) {
                    continue;
                }
                w.members.clear();
                w.stack.clear();
                w.stack.push(x);
                let mut free = false;
                while let Some(y) = w.stack.pop() {
                    w.members.push(y);
                    if !free && self.has_freedom(o, y) {
                        free = true;
                    }
                    self.push_links(o, y, colour, true, w, ep);
                }
                if !free {
                    w.captured.extend_from_slice(&w.members);
                }
            }
        }
        // The other groups without freedom keep their members and their lack of freedom
        // (the piece just buried, if one of them, goes to the removal's care).
        let buried = self.geo.info[p as usize].buries;
        for &g in &an.dead {
            if w.gmark[g as usize] != ep && an.groups[g as usize].colour != c {
                for &x in an.members_of(g) {
                    if w.mark[x as usize] != ep && x != buried {
                        w.captured.push(x);
                    }
                }
            }
        }
    }

    /// `cut_down`: the captures of `c`'s placement at `p` (already on `o`) into
    /// `w.captured`, re-deciding only the same-level groups whose life the placement can
    /// change ([`Rules::touched`]), and, level by level down, the groups under any piece
    /// whose life changed (their life may have come from it). The other groups without life
    /// stay so.
    fn captures_after_cut_down(&self, o: &[u8], an: &Analysis, p: u16, c: u8, w: &mut Work) {
        w.captured.clear();
        let geo = self.geo;
        let ep = w.next_epoch(geo.len());
        // `gmark[g] == ep`: group g is to be re-decided. `mark[x] == ep`: x re-decided
        // alive; `fmark[x] == ep`: x re-decided dead.
        let mut seeds: Vec<u16> = core::mem::take(&mut w.members);
        seeds.clear();
        let mut touched = [NONE; 32];
        let n_touched = self.touched(o, an, p, c, &mut touched);
        for &g in &touched[..n_touched] {
            if w.gmark[g as usize] != ep {
                w.gmark[g as usize] = ep;
                seeds.push(g);
            }
        }
        let level_of = |g: u16| geo.info[an.members_of(g)[0] as usize].level;
        let mut component: Vec<u16> = core::mem::take(&mut w.component);
        for k in (0..geo.n).rev() {
            let mut i = 0;
            while i < seeds.len() {
                let g = seeds[i];
                i += 1;
                if level_of(g) != k {
                    continue;
                }
                let colour = an.groups[g as usize].colour;
                for &x in an.members_of(g) {
                    if w.mark[x as usize] == ep || w.fmark[x as usize] == ep {
                        continue;
                    }
                    // One same-level component of the new board.
                    component.clear();
                    w.stack.clear();
                    w.stack.push(x);
                    w.mark[x as usize] = ep;
                    let mut alive = false;
                    let buried_x = self.buried(o, x);
                    while let Some(y) = w.stack.pop() {
                        component.push(y);
                        if buried_x {
                            break;
                        }
                        let yi = &geo.info[y as usize];
                        if !alive {
                            alive = self.has_freedom(o, y)
                                || yi.up.iter().any(|&u| {
                                    u != NONE
                                        && o[u as usize] == colour
                                        && !self.buried(o, u)
                                        && w.fmark[u as usize] != ep
                                        && (w.mark[u as usize] == ep
                                            || (w.gmark[an.group[u as usize] as usize] != ep
                                                && an.groups[an.group[u as usize] as usize].alive))
                                });
                        }
                        for d in 0..4 {
                            let q = yi.nbr[d];
                            if q != NONE
                                && o[q as usize] == colour
                                && w.mark[q as usize] != ep
                                && !self.buried(o, q)
                                && !self.cut(o, y, d)
                            {
                                w.mark[q as usize] = ep;
                                w.stack.push(q);
                            }
                        }
                    }
                    if alive {
                        if !an.groups[g as usize].alive {
                            // Revived (a link no longer cut): life may flow down from it.
                            for &y in &component {
                                for &t in &geo.info[y as usize].sup {
                                    if t != NONE && o[t as usize] == colour {
                                        let h = an.group[t as usize];
                                        if w.gmark[h as usize] != ep {
                                            w.gmark[h as usize] = ep;
                                            seeds.push(h);
                                        }
                                    }
                                }
                            }
                        }
                        continue;
                    }
                    for &y in &component {
                        w.mark[y as usize] = 0;
                        w.fmark[y as usize] = ep;
                        // A buried piece goes only with the pieces above it (removal).
                        if !buried_x {
                            w.captured.push(y);
                        }
                        // The pieces below may have lived through this one.
                        for &t in &geo.info[y as usize].sup {
                            if t != NONE && o[t as usize] == colour {
                                let h = an.group[t as usize];
                                if w.gmark[h as usize] != ep {
                                    w.gmark[h as usize] = ep;
                                    seeds.push(h);
                                }
                            }
                        }
                    }
                }
            }
        }
        // The other groups without life stay so, with the same members (the piece just
        // buried, if one of them, goes to the removal's care).
        let buried = geo.info[p as usize].buries;
        for &g in &an.dead {
            if w.gmark[g as usize] != ep && an.groups[g as usize].colour != c {
                w.captured
                    .extend(an.members_of(g).iter().copied().filter(|&x| x != buried));
            }
        }
        w.members = seeds;
        w.component = component;
    }

    /// What the evaluation needs of every player's groups (the analysis's groups), into
    /// `out` (indexed by colour minus one).
    /// With `moves`, also each of the first `players` colours' placements that live and
    /// that are safe (the race of spare moves).
    #[allow(clippy::too_many_arguments)]
    pub fn survey(
        &self,
        o: &[u8],
        key: u64,
        players: u8,
        moves: bool,
        s: &mut Scratch,
        out: &mut [PlayerSurvey; 4],
    ) {
        *out = [PlayerSurvey::default(); 4];
        let slot = self.analyse(o, key, s);
        let an = &s.cache[slot];
        for (x, &c) in o.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let info = &self.geo.info[x];
            let sv = &mut out[usize::from(c) - 1];
            if info.up.iter().any(|&u| u != NONE && o[u as usize] != 0) {
                sv.held += 1;
            } else if !an.groups[an.group[x] as usize].alive {
                sv.dead_loose += 1;
            }
            if info.level > 0 {
                sv.upper += 1;
            }
        }
        for g in &an.groups {
            let sv = &mut out[usize::from(g.colour) - 1];
            if g.alive && !g.held {
                match g.freedoms {
                    1 => sv.atari += u32::from(g.size),
                    2 => sv.two += u32::from(g.size),
                    _ => {}
                }
            }
            if g.alive && !g.buried {
                sv.smallest = if sv.groups == 0 {
                    u32::from(g.size)
                } else {
                    sv.smallest.min(u32::from(g.size))
                };
                sv.groups += 1;
            }
            sv.freedoms += u32::from(g.freedoms.min(4));
        }
        if !moves {
            return;
        }
        // Each player's placements that keep their piece alive (captures aside), and
        // those that leave it at least two freedoms (safe: no self-atari).
        for points in &self.geo.slot_points {
            let Some(&x) = points.iter().find(|&&x| o[x as usize] == 0) else {
                continue;
            };
            if !self.valid(o, x) {
                continue;
            }
            let info = &self.geo.info[x as usize];
            let own = self.freedoms_of(o, x).count() as u32;
            for c in 1..=players {
                let (mut best, mut held) = (0u32, false);
                let mut any_linked = false;
                let down = self.rules != RuleSet::CutDown;
                for (n, &q) in info.nbr.iter().chain(&info.sup).enumerate() {
                    if q == NONE || o[q as usize] != c || (n >= 4 && !down) {
                        continue;
                    }
                    any_linked = true;
                    let gi = &an.groups[an.group[q as usize] as usize];
                    held |= gi.held;
                    let lost = u32::from(n < 4 && self.freedom_point(o, x));
                    best = best.max(u32::from(gi.freedoms).saturating_sub(lost));
                }
                if !any_linked && own == 0 {
                    continue;
                }
                let sv = &mut out[usize::from(c) - 1];
                if held || own + best >= 1 {
                    sv.live_moves += 1;
                }
                if held || own + best >= 2 {
                    sv.safe_moves += 1;
                }
            }
        }
    }
}

/// Per-player counts for the evaluation ([`Rules::survey`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlayerSurvey {
    /// Pieces of groups without life that nothing rests on (the next capture removes them).
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
    /// Living groups (buried pieces left out).
    pub groups: u32,
    /// The size of the smallest living group (0 without one).
    pub smallest: u32,
    /// Placements after which the piece lives (captures aside).
    pub live_moves: u32,
    /// Placements after which the piece's group keeps two freedoms.
    pub safe_moves: u32,
}
