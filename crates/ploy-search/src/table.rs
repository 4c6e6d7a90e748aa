//! The transposition table: packed entries keeping a lower and an upper bound.

#[cfg(test)]
use crate::score::INF;
use crate::score::Value;

/// One slot: the full 64-bit key and 64 bits of data.
///
/// Data layout (low to high): lower bound `i16`, upper bound `i16`, move code `u16`
/// (`0xFFFF` = none), depth + 1 `u8` (0 = empty slot), age `u8`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Entry {
    key: u64,
    data: u64,
}

const _: () = assert!(core::mem::size_of::<Entry>() == 16);

/// Four slots filling one 64-byte cache line.
#[derive(Clone, Copy, Default, Debug)]
#[repr(align(64))]
struct Bucket([Entry; SLOTS]);

const SLOTS: usize = 4;
const _: () = assert!(core::mem::size_of::<Bucket>() == 64);

/// No move stored.
pub(crate) const NO_MOVE: u16 = 0xFFFF;

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Probe {
    /// A lower bound on the value (`-INF` if none), relative to the node.
    pub lower: Value,
    /// An upper bound on the value (`INF` if none), relative to the node.
    pub upper: Value,
    /// The best or refuting move's code, or [`NO_MOVE`].
    pub mv: u16,
    /// The depth the bounds are valid for.
    pub depth: u8,
}

#[inline]
fn pack(lower: Value, upper: Value, mv: u16, depth: u8, age: u8) -> u64 {
    u64::from(lower as i16 as u16)
        | u64::from(upper as i16 as u16) << 16
        | u64::from(mv) << 32
        | u64::from(depth.saturating_add(1)) << 48
        | u64::from(age) << 56
}

#[inline]
fn unpack(data: u64) -> (Probe, u8) {
    let p = Probe {
        lower: Value::from(data as u16 as i16),
        upper: Value::from((data >> 16) as u16 as i16),
        mv: (data >> 32) as u16,
        depth: ((data >> 48) as u8).wrapping_sub(1),
    };
    (p, (data >> 56) as u8)
}

#[inline]
fn occupied(data: u64) -> bool {
    (data >> 48) as u8 != 0
}

/// A transposition table of a size given in bytes (rounded down to whole 64-byte buckets of
/// four 16-byte entries; at least one bucket).
#[derive(Clone, Debug)]
pub struct Table {
    buckets: Vec<Bucket>,
    age: u8,
}

impl Table {
    /// The default size: 16 MiB.
    pub const DEFAULT_BYTES: usize = 16 << 20;
    /// Bytes per entry.
    pub const ENTRY_BYTES: usize = 16;

    /// A table of at most `bytes` bytes (at least one bucket of four entries).
    #[must_use]
    pub fn new(bytes: usize) -> Table {
        let n = (bytes / core::mem::size_of::<Bucket>()).max(1);
        Table {
            buckets: vec![Bucket::default(); n],
            age: 0,
        }
    }

    /// Number of entries.
    #[must_use]
    pub fn entries(&self) -> usize {
        self.buckets.len() * SLOTS
    }

    /// Size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.buckets.len() * core::mem::size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.age = 0;
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Permille of the first (up to) 1000 entries used by the current search.
    #[must_use]
    pub fn fill_permille(&self) -> u32 {
        let mut used = 0u32;
        let mut seen = 0;
        'outer: for b in &self.buckets {
            for e in &b.0 {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                if occupied(e.data) && unpack(e.data).1 == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Probe> {
        let b = &self.buckets[self.index(key)];
        b.0.iter()
            .find(|e| e.key == key && occupied(e.data))
            .map(|e| unpack(e.data).0)
    }

    /// Stores bounds found by a search to `depth` (relative to the node; `-INF` / `INF` for
    /// none). Bounds of an entry for the same key and depth are merged; `mv` replaces the
    /// stored move unless it is [`NO_MOVE`].
    #[inline]
    pub(crate) fn store(&mut self, key: u64, depth: u8, lower: Value, upper: Value, mv: u16) {
        let (mut lower, mut upper) = (lower, upper);
        let age = self.age;
        let i = self.index(key);
        let bucket = &mut self.buckets[i];
        // Same key: merge or overwrite.
        if let Some(e) = bucket
            .0
            .iter_mut()
            .find(|e| e.key == key && occupied(e.data))
        {
            let (old, _) = unpack(e.data);
            let keep_mv = if mv == NO_MOVE { old.mv } else { mv };
            if old.depth == depth {
                let l = lower.max(old.lower);
                let u = upper.min(old.upper);
                if l <= u {
                    lower = l;
                    upper = u;
                }
            }
            e.data = pack(lower, upper, keep_mv, depth, age);
            return;
        }
        // Otherwise replace the least valuable slot: empty first, then old, then shallow.
        let victim = bucket
            .0
            .iter_mut()
            .min_by_key(|e| {
                if !occupied(e.data) {
                    return i32::MIN;
                }
                let (p, a) = unpack(e.data);
                i32::from(p.depth) - 8 * i32::from(age.wrapping_sub(a))
            })
            .expect("a bucket has slots");
        *victim = Entry {
            key,
            data: pack(lower, upper, mv, depth, age),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pack_round_trip() {
        for &(l, u, m, d, a) in &[
            (-INF, INF, NO_MOVE, 0u8, 0u8),
            (-5, 7, 1234, 9, 200),
            (31_990, 31_990, 0, 254, 255),
        ] {
            let (p, age) = unpack(pack(l, u, m, d, a));
            assert_eq!((p.lower, p.upper, p.mv, p.depth, age), (l, u, m, d, a));
        }
    }

    #[test]
    fn bounds_merge_and_collisions() {
        let mut t = Table::new(64); // one bucket: every key collides
        assert_eq!(t.entries(), 4);
        t.store(1, 3, 10, INF, 7); // fail high: lower 10
        t.store(1, 3, -INF, 10, NO_MOVE); // fail low: upper 10
        let p = t.probe(1).unwrap();
        assert_eq!((p.lower, p.upper, p.mv, p.depth), (10, 10, 7, 3));
        for k in 2..20 {
            t.store(k, 1, 0, 0, 1);
        }
        assert_eq!(
            t.probe(1).map(|p| p.depth),
            Some(3),
            "deep entry survives shallow ones"
        );
        t.new_search();
        for _ in 0..40 {
            for k in 100..104 {
                t.store(k, 1, 0, 0, 1);
            }
        }
        assert!(t.probe(1).is_none(), "old entries are replaced in time");
    }
}
