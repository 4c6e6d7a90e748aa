//! The analysis of a board's groups and freedoms, computed once per board and cached.

use super::Rules;
use super::scratch::{Analysis, CACHE, GroupInfo, Scratch, Work};
use crate::geometry::NONE;
use crate::types::RuleSet;

impl Rules<'_> {
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
            self.add_group(o, x, an, w, ep, |y, c, _, w, _| {
                self.push_links(o, y, c, true, w, ep);
            });
        }
    }

    /// Adds the group of the piece on `x` to `an`, unless `x` is empty or marked with `ep`
    /// (already in a group). A buried piece is a group alone; otherwise the members are
    /// collected from `x` with their freedoms, and `visit(y, colour, info, w, an)` pushes on
    /// `w.stack` the pieces linked to member `y` (and may note that the group is held).
    #[inline]
    fn add_group(
        &self,
        o: &[u8],
        x: u16,
        an: &mut Analysis,
        w: &mut Work,
        ep: u32,
        mut visit: impl FnMut(u16, u8, &mut GroupInfo, &mut Work, &Analysis),
    ) {
        let c = o[x as usize];
        if c == 0 || w.mark[x as usize] == ep {
            return;
        }
        w.mark[x as usize] = ep;
        let id = an.groups.len() as u16;
        let fs = w.next_fstamp(self.geo.len());
        let mut info = GroupInfo::new(c, an.members.len() as u16);
        if self.buried(o, x) {
            an.members.push(x);
            info.buried = true;
        } else {
            w.stack.clear();
            w.stack.push(x);
            while let Some(y) = w.stack.pop() {
                an.members.push(y);
                self.count_freedoms(o, y, c, &mut info, w, fs);
                visit(y, c, &mut info, w, an);
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
                self.add_group(o, x, an, w, ep, |y, c, info, w, an| {
                    if !info.held {
                        info.held = geo.info[y as usize].up.iter().any(|&u| {
                            u != NONE
                                && o[u as usize] == c
                                && !self.buried(o, u)
                                && an.groups[an.group[u as usize] as usize].alive
                        });
                    }
                    self.push_level_links(o, y, c, w, ep);
                });
            }
        }
    }
}
