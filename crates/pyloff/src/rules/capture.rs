//! Captures: which groups die after a placement, and their removal from the top down.

use super::Rules;
use super::scratch::{Analysis, Work};
use crate::geometry::NONE;
use crate::types::RuleSet;

impl Rules<'_> {
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
            self.capture_if_no_freedom(o, x, c, s, ep);
        }
    }

    /// Walks the group of `x`, an unburied piece of colour `c` already marked with `ep`,
    /// marking its pieces, and adds the whole group to `w.captured` if none of them has a
    /// freedom (`default` and `all_freedoms`): the walk of [`Rules::captures`] and
    /// [`Rules::captures_after`].
    #[inline]
    fn capture_if_no_freedom(&self, o: &[u8], x: u16, c: u8, w: &mut Work, ep: u32) {
        w.members.clear();
        w.stack.clear();
        w.stack.push(x);
        let mut free = false;
        while let Some(y) = w.stack.pop() {
            w.members.push(y);
            if !free && self.has_freedom(o, y) {
                free = true;
            }
            self.push_links(o, y, c, true, w, ep);
        }
        if !free {
            w.captured.extend_from_slice(&w.members);
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
                    self.push_level_links(o, y, c, s, ep);
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
    pub(super) fn captures_after(&self, o: &[u8], an: &Analysis, p: u16, c: u8, w: &mut Work) {
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
                self.capture_if_no_freedom(o, x, colour, w, ep);
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
    pub(super) fn captures_after_cut_down(
        &self,
        o: &[u8],
        an: &Analysis,
        p: u16,
        c: u8,
        w: &mut Work,
    ) {
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
            seed(&mut w.gmark, ep, &mut seeds, g);
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
                        self.push_level_links(o, y, colour, w, ep);
                    }
                    if alive {
                        if !an.groups[g as usize].alive {
                            // Revived (a link no longer cut): life may flow down from it.
                            for &y in &component {
                                for h in self.groups_below(o, an, y, colour) {
                                    seed(&mut w.gmark, ep, &mut seeds, h);
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
                        for h in self.groups_below(o, an, y, colour) {
                            seed(&mut w.gmark, ep, &mut seeds, h);
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

    /// The groups of `colour` under piece `y` (on its supports): their life may have flowed
    /// through `y`.
    #[inline]
    fn groups_below<'a>(
        &'a self,
        o: &'a [u8],
        an: &'a Analysis,
        y: u16,
        colour: u8,
    ) -> impl Iterator<Item = u16> + 'a {
        self.geo.info[y as usize]
            .sup
            .iter()
            .filter(move |&&t| t != NONE && o[t as usize] == colour)
            .map(move |&t| an.group[t as usize])
    }
}

/// Adds group `g` to the groups to re-decide, `seeds`, unless `gmark` has it marked with
/// `ep` already; marks it.
#[inline]
fn seed(gmark: &mut [u32], ep: u32, seeds: &mut Vec<u16>, g: u16) {
    if gmark[g as usize] != ep {
        gmark[g as usize] = ep;
        seeds.push(g);
    }
}
