//! What [`super::Paranoid`] and [`super::Brs`] learn while they search: a transposition
//! table keyed by [`MultiGame::hash`], and killer moves and history scores for the move
//! ordering.

use super::{MAX_PLAYERS, MultiGame};
use crate::game::MoveBuffer;

/// The transposition table's entries when it is on: 2^16.
pub(crate) const TABLE_BITS: u32 = 16;

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value itself.
    Exact,
    /// At least the value (the search failed high).
    Lower,
    /// At most the value (the search failed low).
    Upper,
}

/// One stored search of a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<M> {
    key: u64,
    /// The depth searched (plies in [`super::Paranoid`], layers in [`super::Brs`]).
    pub(crate) depth: u32,
    pub(crate) value: i32,
    pub(crate) bound: Bound,
    /// The best move found, if the node chose one itself.
    pub(crate) best: Option<M>,
    /// Whether the search below met a horizon.
    pub(crate) horizon: bool,
}

impl<M> Entry<M> {
    /// Whether the entry decides a search of `depth` within `alpha..beta`: only an entry
    /// of exactly that depth is used for its value (so a fixed-depth search gives the value
    /// of the search without the table); a deeper one only orders the moves.
    pub(crate) fn cuts(&self, depth: u32, alpha: i32, beta: i32) -> bool {
        self.depth == depth
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.value >= beta,
                Bound::Upper => self.value <= alpha,
            }
    }
}

/// An always-replace transposition table.
pub(crate) struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
}

impl<M: Copy> Table<M> {
    /// A table of `2^bits` entries.
    pub(crate) fn new(bits: u32) -> Table<M> {
        Table {
            entries: vec![None; 1 << bits],
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    /// The entry of `key`, if stored.
    pub(crate) fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    /// Stores a search of `key`.
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: u32,
        value: i32,
        bound: Bound,
        best: Option<M>,
        horizon: bool,
    ) {
        let i = self.slot(key);
        self.entries[i] = Some(Entry {
            key,
            depth,
            value,
            bound,
            best,
            horizon,
        });
    }
}

/// Killer moves by ply and history scores by player and [`MultiGame::move_index`]: the
/// move ordering's memory of the moves that cut off.
pub(crate) struct Memory<M> {
    killers: Vec<[Option<M>; 2]>,
    history: [Vec<u32>; MAX_PLAYERS],
}

/// The history score's ceiling (it stays below the killers' rank in a key).
const HISTORY_MAX: u32 = (1 << 28) - 1;

impl<M: Copy + Eq> Memory<M> {
    pub(crate) fn new() -> Memory<M> {
        Memory {
            killers: Vec::new(),
            history: Default::default(),
        }
    }

    /// Remembers that `mv`, of `player` at `ply`, cut off a search of `depth`.
    pub(crate) fn cut<G: MultiGame<Move = M>>(
        &mut self,
        g: &G,
        player: usize,
        mv: M,
        ply: usize,
        depth: u32,
    ) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some(i) = g.move_index(mv) {
            let h = &mut self.history[player];
            if h.len() <= i {
                h.resize(i + 1, 0);
            }
            let bonus = depth.saturating_mul(depth).min(HISTORY_MAX);
            h[i] = h[i].saturating_add(bonus).min(HISTORY_MAX);
        }
    }

    /// The ordering key of `mv` (legal in `g` at `ply`) with the game's key `key`:
    /// the game's key first, then killers, then history; `first` above everything.
    fn key<G: MultiGame<Move = M>>(
        &self,
        g: &G,
        mv: M,
        key: i32,
        ply: usize,
        first: Option<M>,
    ) -> i64 {
        if first == Some(mv) {
            return i64::MAX;
        }
        let killer = match self.killers.get(ply) {
            Some(k) if k[0] == Some(mv) => 2,
            Some(k) if k[1] == Some(mv) => 1,
            _ => 0,
        };
        let history = g
            .move_index(mv)
            .and_then(|i| self.history[g.to_move()].get(i).copied())
            .unwrap_or(0);
        (i64::from(key) << 32) | (killer << 29) | i64::from(history)
    }

    /// Fills `out` with the moves of `g` at `ply` best first: `first` (the table's move),
    /// then by [`MultiGame::order`], killer moves and history (a stable sort: generation
    /// order among equals).
    pub(crate) fn ordered<G: MultiGame<Move = M>>(
        &self,
        g: &G,
        scratch: &mut G::Moves,
        out: &mut Vec<(i64, M)>,
        ply: usize,
        first: Option<M>,
    ) {
        scratch.clear();
        g.generate(scratch);
        out.clear();
        out.extend(
            scratch
                .iter()
                .map(|&m| (self.key(g, m, g.order(m), ply, first), m)),
        );
        out.sort_by_key(|&(k, _)| core::cmp::Reverse(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of one position with moves 0..5 whose order keys are all equal.
    struct Flat;

    impl MultiGame for Flat {
        type Move = u16;
        type Undo = ();
        type Moves = Vec<u16>;
        fn players(&self) -> usize {
            3
        }
        fn to_move(&self) -> usize {
            1
        }
        fn outcome(&self) -> Option<super::super::ScoreVector> {
            None
        }
        fn generate(&self, moves: &mut Vec<u16>) {
            moves.extend(0..5);
        }
        fn make(&mut self, _: u16) {}
        fn unmake(&mut self, _: u16, (): ()) {}
        fn make_pass(&mut self) {}
        fn unmake_pass(&mut self) {}
        fn order(&self, mv: u16) -> i32 {
            i32::from(mv == 4)
        }
        fn move_index(&self, mv: u16) -> Option<usize> {
            Some(usize::from(mv))
        }
    }

    fn order(m: &Memory<u16>, ply: usize, first: Option<u16>) -> Vec<u16> {
        let mut out = Vec::new();
        m.ordered(&Flat, &mut Vec::new(), &mut out, ply, first);
        out.into_iter().map(|(_, m)| m).collect()
    }

    #[test]
    fn the_table_move_then_game_key_then_killers_then_history() {
        let mut m = Memory::new();
        assert_eq!(order(&m, 0, None), [4, 0, 1, 2, 3]);
        m.cut(&Flat, 1, 2, 3, 1); // history only at ply 0
        assert_eq!(order(&m, 0, None), [4, 2, 0, 1, 3]);
        m.cut(&Flat, 1, 1, 0, 1); // killer at ply 0
        m.cut(&Flat, 1, 3, 0, 1); // newer killer
        assert_eq!(order(&m, 0, None), [4, 3, 1, 2, 0]);
        assert_eq!(order(&m, 0, Some(0)), [0, 4, 3, 1, 2]);
        // Another player's history is his own; killers are by ply.
        m.cut(&Flat, 2, 0, 5, 10);
        assert_eq!(order(&m, 5, None), [4, 0, 1, 2, 3]);
        assert_eq!(order(&m, 6, None), [4, 1, 2, 3, 0]);
    }

    #[test]
    fn the_table_keeps_what_it_stored_and_cuts_only_at_equal_depth() {
        let mut t = Table::<u16>::new(4);
        assert!(t.probe(7).is_none());
        t.store(7, 3, 10, Bound::Lower, Some(2), true);
        let e = t.probe(7).expect("stored");
        assert_eq!(
            (e.depth, e.value, e.best, e.horizon),
            (3, 10, Some(2), true)
        );
        assert!(t.probe(7 + 16).is_none(), "another key in the same slot");
        assert!(e.cuts(3, 0, 10) && !e.cuts(3, 0, 11) && !e.cuts(4, 0, 10) && !e.cuts(2, 0, 5));
        t.store(7 + 16, 1, -4, Bound::Upper, None, false);
        assert!(t.probe(7).is_none(), "replaced");
        let e = t.probe(7 + 16).expect("stored");
        assert!(e.cuts(1, -4, 0) && !e.cuts(1, -5, 0));
        t.store(9, 2, 1, Bound::Exact, None, false);
        assert!(t.probe(9).expect("stored").cuts(2, 5, 6));
    }
}
