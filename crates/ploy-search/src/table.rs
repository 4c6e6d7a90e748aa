//! The transposition table: packed entries keeping a lower and an upper bound, shared
//! soundly between search threads.
//!
//! # Sharing
//!
//! Every slot is two atomic words, read and written with relaxed loads and stores (plain
//! moves on the usual 64-bit processors: one thread pays nothing for them). Two threads
//! may write one slot at the same moment, so a reader may see one word of one write and
//! the other word of another: a *torn* entry. Such an entry is never returned: a slot keeps
//! its data word and, in the other word, the low 48 bits of the key XOR the data beside the
//! position's static evaluation (16 bits); a probe accepts a slot only if the two words XOR
//! to the probed key's low 48 bits. (The bucket is chosen by the key's high bits, so with
//! 4 MiB or more of table the whole 64-bit key is checked.) A torn pair of words from two
//! writes for the same key passes only if both wrote the same bounds and move: the data word
//! is then one write's whole, and the evaluation beside it is the same position's, as every
//! write of that key stores the same static evaluation. A pair mixing two keys would have to
//! match the probed key by chance, as likely as two positions sharing their hash (which the
//! search already tolerates: a stored move is checked for legality before it is played). No
//! lock, no `unsafe`: a race can lose an update (two threads merging bounds into one slot),
//! never corrupt one.

use crate::score::{INF, Value};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// One slot: the key's low 48 bits XOR the data's, with the static evaluation in the top 16
/// bits; and 64 bits of data.
///
/// Data layout (low to high): lower bound `i16`, upper bound `i16`, move code `u16`
/// (`0xFFFF` = none), depth + 1 `u8` (0 = empty slot), age `u8`.
#[derive(Default, Debug)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The key bits a slot checks.
const KEY_BITS: u64 = (1 << 48) - 1;

/// The stored evaluation of a slot that has none.
const NO_EVAL_BITS: u16 = i16::MIN as u16;

/// The key bits a slot checks, of a full key.
#[inline]
fn check_key(key: u64) -> u64 {
    key & KEY_BITS
}

impl Entry {
    /// The slot's key (its low 48 bits), data and evaluation bits (the key is only right if
    /// the slot is whole: a caller compares it with [`check_key`] of the key it looks for).
    #[inline]
    fn load(&self) -> (u64, u64, u16) {
        let data = self.data.load(Relaxed);
        let check = self.check.load(Relaxed);
        ((check ^ data) & KEY_BITS, data, (check >> 48) as u16)
    }

    #[inline]
    fn store(&self, key: u64, data: u64, eval: u16) {
        self.check
            .store(((key ^ data) & KEY_BITS) | u64::from(eval) << 48, Relaxed);
        self.data.store(data, Relaxed);
    }
}

const _: () = assert!(core::mem::size_of::<Entry>() == 16);

/// Four slots filling one 64-byte cache line.
#[derive(Default, Debug)]
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
    /// The position's static evaluation, if stored (relative to the side to move).
    pub eval: Option<Value>,
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
fn unpack(data: u64, eval: u16) -> (Probe, u8) {
    let p = Probe {
        lower: Value::from(data as u16 as i16),
        upper: Value::from((data >> 16) as u16 as i16),
        mv: (data >> 32) as u16,
        depth: ((data >> 48) as u8).wrapping_sub(1),
        eval: (eval != NO_EVAL_BITS).then_some(Value::from(eval as i16)),
    };
    (p, (data >> 56) as u8)
}

/// The evaluation bits of an evaluation (`None`: no evaluation); evaluations are within
/// ±[`EVAL_MAX`](crate::score::EVAL_MAX), so they fit.
#[inline]
fn eval_bits(eval: Option<Value>) -> u16 {
    eval.map_or(NO_EVAL_BITS, |v| v as i16 as u16)
}

#[inline]
fn occupied(data: u64) -> bool {
    (data >> 48) as u8 != 0
}

/// The slot of `bucket` that holds `key` (whole: see the module docs), with its data and
/// evaluation bits.
#[inline]
fn find(bucket: &Bucket, key: u64) -> Option<(&Entry, u64, u16)> {
    let k = check_key(key);
    bucket.0.iter().find_map(|e| {
        let (sk, data, eval) = e.load();
        (sk == k && occupied(data)).then_some((e, data, eval))
    })
}

/// A transposition table of a size given in bytes (rounded down to whole 64-byte buckets of
/// four 16-byte entries; at least one bucket).
///
/// It is [`Sync`]: search threads share one table (behind an `Arc`) and read and write it
/// at the same time; see the module docs for why no entry read is ever torn.
#[derive(Debug)]
pub struct Table {
    buckets: Box<[Bucket]>,
    age: AtomicU8,
}

impl Clone for Table {
    /// A copy of the table's entries as they are now.
    fn clone(&self) -> Table {
        let buckets = self
            .buckets
            .iter()
            .map(|b| {
                Bucket(core::array::from_fn(|i| {
                    let (key, data, eval) = b.0[i].load();
                    let e = Entry::default();
                    e.store(key, data, eval);
                    e
                }))
            })
            .collect();
        Table {
            buckets,
            age: AtomicU8::new(self.age.load(Relaxed)),
        }
    }
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
            buckets: (0..n).map(|_| Bucket::default()).collect(),
            age: AtomicU8::new(0),
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

    /// Forgets everything. (Not meant to run while a search uses the table: a search
    /// writing at the same time may leave some of its entries behind.)
    pub fn clear(&self) {
        for b in &self.buckets {
            for e in &b.0 {
                e.store(0, 0, 0);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    /// Permille of the first (up to) 1000 entries used by the current search.
    #[must_use]
    pub fn fill_permille(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let mut used = 0u32;
        let mut seen = 0;
        'outer: for b in &self.buckets {
            for e in &b.0 {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let (_, data, _) = e.load();
                if occupied(data) && (data >> 56) as u8 == age {
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

    /// The entry for `key`, if stored (and whole: see the module docs).
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Probe> {
        find(&self.buckets[self.index(key)], key).map(|(_, data, eval)| unpack(data, eval).0)
    }

    /// Stores bounds found by a search to `depth` (relative to the node; `-INF` / `INF` for
    /// none), and the node's static evaluation if known. Bounds of an entry for the same key
    /// and depth are merged; `mv` replaces the stored move unless it is [`NO_MOVE`]; an
    /// evaluation stored before stays when `eval` is `None`.
    #[inline]
    pub(crate) fn store(
        &self,
        key: u64,
        depth: u8,
        lower: Value,
        upper: Value,
        mv: u16,
        eval: Option<Value>,
    ) {
        let (mut lower, mut upper) = (lower, upper);
        let age = self.age.load(Relaxed);
        let bucket = &self.buckets[self.index(key)];
        // Same key: merge or overwrite.
        if let Some((e, data, old_eval)) = find(bucket, key) {
            let (old, _) = unpack(data, old_eval);
            let keep_mv = if mv == NO_MOVE { old.mv } else { mv };
            if old.depth == depth {
                let l = lower.max(old.lower);
                let u = upper.min(old.upper);
                if l <= u {
                    lower = l;
                    upper = u;
                }
            }
            let ev = if eval.is_some() {
                eval_bits(eval)
            } else {
                old_eval
            };
            e.store(key, pack(lower, upper, keep_mv, depth, age), ev);
            return;
        }
        let victim = self.victim(bucket, age);
        victim.store(key, pack(lower, upper, mv, depth, age), eval_bits(eval));
    }

    /// Stores a node's static evaluation alone: into the entry for `key` if there is one
    /// (its bounds, move and depth stay), else into a new entry without bounds (depth 0,
    /// the cheapest to replace).
    #[inline]
    pub(crate) fn store_eval(&self, key: u64, eval: Value) {
        let age = self.age.load(Relaxed);
        let bucket = &self.buckets[self.index(key)];
        let bits = eval_bits(Some(eval));
        if let Some((e, data, _)) = find(bucket, key) {
            e.store(key, data, bits);
            return;
        }
        let victim = self.victim(bucket, age);
        victim.store(key, pack(-INF, INF, NO_MOVE, 0, age), bits);
    }

    /// The least valuable slot of a bucket: empty first, then old, then shallow.
    #[inline]
    fn victim<'a>(&self, bucket: &'a Bucket, age: u8) -> &'a Entry {
        bucket
            .0
            .iter()
            .min_by_key(|e| {
                let (_, data, _) = e.load();
                if !occupied(data) {
                    return i32::MIN;
                }
                let depth = ((data >> 48) as u8).wrapping_sub(1);
                let a = (data >> 56) as u8;
                i32::from(depth) - 8 * i32::from(age.wrapping_sub(a))
            })
            .expect("a bucket has slots")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::EVAL_MAX;

    #[test]
    fn pack_round_trip() {
        for &(l, u, m, d, a) in &[
            (-INF, INF, NO_MOVE, 0u8, 0u8),
            (-5, 7, 1234, 9, 200),
            (31_990, 31_990, 0, 254, 255),
        ] {
            let (p, age) = unpack(pack(l, u, m, d, a), NO_EVAL_BITS);
            assert_eq!((p.lower, p.upper, p.mv, p.depth, age), (l, u, m, d, a));
        }
    }

    #[test]
    fn bounds_merge_and_collisions() {
        let t = Table::new(64); // one bucket: every key collides
        assert_eq!(t.entries(), 4);
        t.store(1, 3, 10, INF, 7, None); // fail high: lower 10
        t.store(1, 3, -INF, 10, NO_MOVE, None); // fail low: upper 10
        let p = t.probe(1).unwrap();
        assert_eq!((p.lower, p.upper, p.mv, p.depth), (10, 10, 7, 3));
        for k in 2..20 {
            t.store(k, 1, 0, 0, 1, None);
        }
        assert_eq!(
            t.probe(1).map(|p| p.depth),
            Some(3),
            "deep entry survives shallow ones"
        );
        t.new_search();
        for _ in 0..40 {
            for k in 100..104 {
                t.store(k, 1, 0, 0, 1, None);
            }
        }
        assert!(t.probe(1).is_none(), "old entries are replaced in time");
    }

    #[test]
    fn evaluations_stay_beside_bounds() {
        let t = Table::new(64);
        t.store_eval(5, -120);
        let p = t.probe(5).unwrap();
        assert_eq!(
            (p.lower, p.upper, p.mv, p.depth, p.eval),
            (-INF, INF, NO_MOVE, 0, Some(-120))
        );
        // Bounds stored later keep the evaluation; an evaluation stored later keeps the bounds.
        t.store(5, 4, 30, INF, 9, None);
        assert_eq!(
            t.probe(5).map(|p| (p.lower, p.eval)),
            Some((30, Some(-120)))
        );
        t.store_eval(5, 77);
        let p = t.probe(5).unwrap();
        assert_eq!((p.lower, p.mv, p.depth, p.eval), (30, 9, 4, Some(77)));
        t.store(6, 2, -INF, 3, 1, None);
        assert_eq!(t.probe(6).unwrap().eval, None);
        for v in [-EVAL_MAX, EVAL_MAX, 0] {
            t.store(7, 1, 0, 0, NO_MOVE, Some(v));
            assert_eq!(t.probe(7).unwrap().eval, Some(v));
        }
    }

    /// What the stress test stores for `key`: every field a function of the key, so a
    /// probe that returns anything else returned a torn entry.
    fn expected(key: u64) -> Probe {
        let lower = (key as u16 % 2001) as Value - 1000;
        Probe {
            lower,
            upper: lower + (key >> 16) as u16 as Value % 500,
            mv: (key >> 32) as u16 & 0x7FFF,
            depth: (key >> 56) as u8 % 64,
            eval: Some((key >> 8) as u16 as Value % 3000 - 1500),
        }
    }

    #[test]
    fn a_torn_slot_is_no_entry() {
        // One slot holding the check word of one write and the data word of another, as a
        // reader may see it while two threads write the slot: neither key finds it.
        let t = Table::new(64);
        let (k1, k2) = (0x1234_5678_9ABC_DEF0, 0x0FED_CBA9_8765_4321);
        let (d1, d2) = (pack(10, 20, 5, 3, 0), pack(-7, 40, 9, 4, 0));
        t.store(k1, 3, 10, 20, 5, Some(-33));
        let slot = t.buckets[0]
            .0
            .iter()
            .find(|e| e.load().0 == check_key(k1))
            .expect("stored");
        assert_eq!(slot.load(), (check_key(k1), d1, eval_bits(Some(-33))));
        slot.data.store(d2, Relaxed); // k1's check word, k2's data
        assert!(t.probe(k1).is_none() && t.probe(k2).is_none());
        slot.store(k2, d2, eval_bits(Some(12)));
        slot.data.store(d1, Relaxed); // k2's check word, k1's data
        assert!(t.probe(k1).is_none() && t.probe(k2).is_none());
        slot.data.store(d2, Relaxed); // whole again
        assert_eq!(t.probe(k2).map(|p| (p.lower, p.eval)), Some((-7, Some(12))));
    }

    #[test]
    fn one_slot_hammered_by_threads_gives_whole_entries_or_none() {
        // Two writers store entries of eight keys into one slot, two readers load it: every
        // load is a whole entry (its data the one written with its key) or a key that is
        // none of the eight (a torn pair, which a probe rejects). Tears are rare; to see
        // them counted, run more rounds:
        // `PLOY_TEAR_ROUNDS=5000000 cargo test -p ploy-search --lib one_slot -- --nocapture`
        // (on two busy cores, 2026-11-24: 4 torn pairs rejected in 10 million reads; the same
        // run with the key stored plainly instead of XOR the data failed on a torn entry).
        let slot = Entry::default();
        let keys: Vec<u64> = (0..8u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
            .collect();
        let data_of = |k: u64| pack((k % 1000) as Value, 1000, (k >> 20) as u16, 5, 0);
        let eval_of = |k: u64| eval_bits(Some((k >> 30) as u16 as Value % 2000 - 1000));
        let rounds: usize = std::env::var("PLOY_TEAR_ROUNDS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(300_000);
        let (whole, torn) = (AtomicU64::new(0), AtomicU64::new(0));
        let start = std::sync::Barrier::new(4);
        std::thread::scope(|s| {
            for t in 0..4usize {
                let (slot, keys, whole, torn, start) = (&slot, &keys, &whole, &torn, &start);
                s.spawn(move || {
                    let (mut w, mut x) = (0, 0);
                    start.wait();
                    for i in 0..rounds {
                        if t < 2 {
                            let k = keys[(i * (t + 1)) % keys.len()];
                            slot.store(k, data_of(k), eval_of(k));
                        } else {
                            // Every other read as `Entry::load` with a wider gap between
                            // its two loads, so that writes land in it more often.
                            let (k, d, ev) = if i % 2 == 0 {
                                slot.load()
                            } else {
                                let d = slot.data.load(Relaxed);
                                for _ in 0..20 {
                                    std::hint::spin_loop();
                                }
                                let c = slot.check.load(Relaxed);
                                ((c ^ d) & KEY_BITS, d, (c >> 48) as u16)
                            };
                            if let Some(&key) = keys.iter().find(|&&key| check_key(key) == k) {
                                assert_eq!(
                                    (d, ev),
                                    (data_of(key), eval_of(key)),
                                    "torn entry for {key:#x}"
                                );
                                w += 1;
                            } else if (k, d) != (0, 0) {
                                x += 1;
                            }
                        }
                    }
                    whole.fetch_add(w, Relaxed);
                    torn.fetch_add(x, Relaxed);
                });
            }
        });
        eprintln!(
            "whole entries read {}, torn pairs rejected {}",
            whole.load(Relaxed),
            torn.load(Relaxed)
        );
        assert!(whole.load(Relaxed) > 0);
    }

    #[test]
    fn threads_never_see_a_torn_entry() {
        use std::sync::atomic::AtomicU64;
        // One bucket and more keys than slots: two writers keep overwriting each other's
        // slots while two readers probe, through the table's own code (merging, replacing,
        // ageing), so reads may meet half-written slots.
        let table = Table::new(64);
        let mut state = 7;
        let keys: Vec<u64> = (0..64)
            .map(|_| crate::rng::splitmix64(&mut state))
            .collect();
        let hits = AtomicU64::new(0);
        const THREADS: u64 = 4;
        const OPS: usize = 2_000_000;
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (table, keys, hits) = (&table, &keys, &hits);
                s.spawn(move || {
                    let mut state = t;
                    let mut found = 0;
                    for i in 0..OPS {
                        let r = crate::rng::splitmix64(&mut state);
                        let key = keys[r as usize % keys.len()];
                        if t % 2 == 0 {
                            let e = expected(key);
                            if i % 7 == 0 {
                                table.store_eval(key, e.eval.expect("an evaluation"));
                            } else {
                                table.store(key, e.depth, e.lower, e.upper, e.mv, e.eval);
                            }
                        } else if let Some(p) = table.probe(key) {
                            // An entry made by `store_eval` has no bounds yet.
                            let e = expected(key);
                            if p.depth == 0 && p.lower == -INF && p.upper == INF {
                                assert_eq!(p.eval, e.eval, "torn entry for key {key:#x}");
                            } else {
                                assert_eq!(p, e, "torn entry for key {key:#x}");
                            }
                            found += 1;
                        }
                        if i % 5000 == 0 {
                            table.new_search();
                        }
                    }
                    hits.fetch_add(found, Relaxed);
                });
            }
        });
        // The readers did find entries (the check above ran).
        assert!(hits.load(Relaxed) > OPS as u64 / 10, "{hits:?}");
    }
}
