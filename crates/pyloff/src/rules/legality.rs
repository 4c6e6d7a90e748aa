//! Placement legality (the quick tests first, a trial on a copy when they fail) and
//! making a placement with its captures.

use super::Rules;
use super::scratch::{Analysis, Scratch, Work};
use crate::geometry::NONE;
use crate::types::RuleSet;

impl Rules<'_> {
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
}
