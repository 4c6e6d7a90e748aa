//! Move ordering: the history, continuation history, killer and counter move tables a
//! cutoff rewards, and the packed keys by which a node's moves are picked best first.

use super::{NO_SLOT, Searcher};
use crate::game::{Evaluator, SearchGame};

impl<G: SearchGame + Clone, E: Evaluator<G>> Searcher<G, E> {
    /// The ordering score of a quiet move at `ply` (its history and continuation history
    /// slots `hist` and `cont`), by the side to move `side`.
    #[inline]
    pub(super) fn quiet_score(&self, side: usize, hist: usize, cont: u32, ply: usize) -> i32 {
        let mut score = if self.config.history {
            self.history[side * G::HISTORY_SIZE + hist]
        } else {
            0
        };
        if self.config.continuation_history && cont != NO_SLOT {
            let n = G::CONTINUATION_SIZE;
            for back in [1, 2] {
                if ply >= back {
                    let prev = self.frames[ply - back].cont;
                    if prev != NO_SLOT {
                        score += i32::from(
                            self.continuation[(side * n + prev as usize) * n + cont as usize],
                        );
                    }
                }
            }
        }
        score
    }

    /// A quiet move `m` (code `code`) refuted the node at `ply`: it becomes a killer and the
    /// counter move of the previous move, its history rises, and that of the `tried` quiet
    /// moves searched before it falls.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reward(
        &mut self,
        side: usize,
        code: u16,
        slots: (u32, u32),
        depth: i32,
        ply: usize,
        tried: usize,
    ) {
        let k = self.config.killers;
        if k > 0 {
            let row = &mut self.killers[ply];
            if row[0] != code {
                let pos = row[..k].iter().position(|&x| x == code).unwrap_or(k - 1);
                row.copy_within(0..pos, 1);
                row[0] = code;
            }
        }
        if self.config.counter_moves && ply > 0 {
            let prev = self.frames[ply - 1].hist;
            if prev != NO_SLOT {
                self.counters[side * G::HISTORY_SIZE + prev as usize] = code;
            }
        }
        let bonus = (32 * depth * depth).min(HISTORY_MAX / 4);
        if self.config.history {
            let base = side * G::HISTORY_SIZE;
            gravity(&mut self.history[base + slots.0 as usize], bonus);
            for j in 0..tried {
                let (h, _) = self.tried[ply][j];
                if h != slots.0 {
                    gravity(&mut self.history[base + h as usize], -bonus);
                }
            }
        }
        if self.config.continuation_history && slots.1 != NO_SLOT {
            let n = G::CONTINUATION_SIZE;
            for back in [1, 2] {
                if ply < back {
                    break;
                }
                let prev = self.frames[ply - back].cont;
                if prev == NO_SLOT {
                    continue;
                }
                let row = (side * n + prev as usize) * n;
                let mut entry = i32::from(self.continuation[row + slots.1 as usize]);
                gravity(&mut entry, bonus);
                self.continuation[row + slots.1 as usize] = entry as i16;
                for j in 0..tried {
                    let (_, c) = self.tried[ply][j];
                    if c != slots.1 && c != NO_SLOT {
                        let mut entry = i32::from(self.continuation[row + c as usize]);
                        gravity(&mut entry, -bonus);
                        self.continuation[row + c as usize] = entry as i16;
                    }
                }
            }
        }
    }
}

/// The most quiet moves per node whose history a cutoff lowers.
pub(super) const MAX_TRIED: usize = 64;
/// Histories stay within plus or minus this.
pub(super) const HISTORY_MAX: i32 = 16_384;

/// Moves `entry` towards `±HISTORY_MAX` by `bonus`, less the nearer it is already.
#[inline]
fn gravity(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// The stages of a node's move loop.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stage {
    Table,
    Captures,
    Killers,
    Rest,
}

/// How many moves of a node are picked by selection before the rest is sorted.
pub(super) const SELECTION_PICKS: usize = 3;

/// An ordering key and a move's index in one sortable word: higher keys first, then lower
/// indices (generation order). A key of `i32::MIN` packs to a word below `1 << 32`.
#[inline]
pub(super) fn pack_key(key: i32, index: usize) -> u64 {
    ((i64::from(key) - i64::from(i32::MIN)) as u64) << 32 | (0xFFFF - index as u64)
}

#[inline]
pub(super) fn unpack_index(packed: u64) -> usize {
    0xFFFF - (packed & 0xFFFF) as usize
}

/// One step of selection sort: swaps the highest of `keys[from..]` to `keys[from]` (the
/// first of equal highest, so the order of equal keys is that of the old loops). The
/// main search and quiescence pick their next move this way.
#[inline]
pub(super) fn select_best(keys: &mut [u64], from: usize) {
    let mut best = from;
    for j in from + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    keys.swap(from, best);
}
