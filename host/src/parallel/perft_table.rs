//! The perft table the threads of a deep perft share: the core's bucket layout
//! ([`ply_core::perft::table::Layout`]: 64-byte buckets of four 120-bit entries that
//! hold whole keys) in atomic words, without locks on the read path.
//!
//! Each bucket is a seqlock: its first word carries a 32-bit sequence number, odd
//! while a thread writes the bucket. A reader loads the first word, the other seven,
//! then the first again, and uses what it read only if the first word is unchanged
//! and its sequence even — so it never sees a bucket that a writer was changing
//! between its loads (a torn entry). A writer takes the bucket by raising the number
//! to odd with a compare-and-swap; if another thread holds it, the store is dropped
//! (the table may always drop a count). Undetected tearing would need exactly 2^31
//! complete writes to one bucket between two loads of one read, which is seconds of
//! one thread writing nothing else.
//!
//! With the key checked whole (bucket + tag), a count from the table is the count of
//! that position: a table shared by threads is exactly as exact as the core's.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use ply_core::perft::table::{Layout, SEQ_MASK};
use ply_core::perft::{PerftTable, Slot};

/// Bytes per bucket.
pub const BUCKET_BYTES: u64 = 64;

/// Words per bucket.
const WORDS: usize = 8;

/// A perft table shared by threads (see the module documentation).
pub struct SharedPerftTable {
    words: Vec<AtomicU64>,
    /// The first word of bucket 0: the first 64-byte boundary of the allocation.
    base: usize,
    layout: Layout,
    /// Buckets in use (0: a table that stores nothing).
    buckets: usize,
}

impl SharedPerftTable {
    /// A table of at most `bytes` (rounded down to a power of two of buckets) for
    /// keys of `key_bits` bits. Its memory is zeroed by the kernel as it is first
    /// touched, on huge pages where the system has them; an error names the size if
    /// it cannot be had.
    pub fn new(bytes: u64, key_bits: u32) -> Result<Self, String> {
        let fit = (bytes / BUCKET_BYTES) as usize;
        let buckets = if fit == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - fit.leading_zeros())
        };
        let layout = Layout::new(key_bits, buckets);
        let buckets = if buckets == 0 { 0 } else { layout.buckets() };
        let len = if buckets == 0 {
            0
        } else {
            buckets * WORDS + WORDS - 1
        };
        let words = crate::memory::zeroed_atomic_words(len, "the perft table")?;
        let base = (words.as_ptr() as usize).next_multiple_of(BUCKET_BYTES as usize)
            - words.as_ptr() as usize;
        Ok(SharedPerftTable {
            words,
            base: base / 8,
            layout,
            buckets,
        })
    }

    /// Bytes in use.
    pub fn bytes(&self) -> u64 {
        self.buckets as u64 * BUCKET_BYTES
    }

    /// Entries the table holds.
    pub fn capacity(&self) -> u64 {
        self.buckets as u64 * ply_core::perft::table::BUCKET_ENTRIES as u64
    }

    /// The entry layout.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    #[inline]
    fn bucket(&self, i: usize) -> &[AtomicU64] {
        let at = self.base + i * WORDS;
        &self.words[at..at + WORDS]
    }

    /// The slot of `key` in this table.
    #[inline]
    pub fn slot(&self, key: u128) -> Slot {
        self.layout.slot(key)
    }

    /// The count stored at `slot` (from [`SharedPerftTable::slot`]) for `depth`
    /// plies, if a consistent read finds one.
    #[inline]
    pub fn probe(&self, slot: Slot, depth: u32) -> Option<u64> {
        if self.buckets == 0 {
            return None;
        }
        let (i, tag) = self.layout.split(slot);
        let b = self.bucket(i);
        let first = b[0].load(Ordering::Acquire);
        if first & 1 != 0 {
            return None;
        }
        let mut w = [first, 0, 0, 0, 0, 0, 0, 0];
        for (x, a) in w.iter_mut().zip(b).skip(1) {
            *x = a.load(Ordering::Relaxed);
        }
        fence(Ordering::Acquire);
        if b[0].load(Ordering::Relaxed) != first {
            return None;
        }
        self.layout.find(&w, tag, depth)
    }

    /// Asks the processor to fetch the bucket of `slot` into its caches.
    #[inline]
    pub fn prefetch(&self, slot: Slot) {
        if self.buckets == 0 {
            return;
        }
        let (i, _) = self.layout.split(slot);
        ply_core::prefetch::prefetch(&self.bucket(i)[0]);
    }

    /// Stores the count of the position at `slot` for `depth` plies, unless it does
    /// not fit the entry or another thread is writing the bucket.
    #[inline]
    pub fn store(&self, slot: Slot, depth: u32, count: u64) {
        if self.buckets == 0 || !self.layout.storable(depth, count) {
            return;
        }
        let (i, tag) = self.layout.split(slot);
        let b = self.bucket(i);
        let first = b[0].load(Ordering::Relaxed);
        if first & 1 != 0 {
            return;
        }
        let seq = first & SEQ_MASK;
        let locked = (first & !SEQ_MASK) | ((seq + 1) & SEQ_MASK);
        if b[0]
            .compare_exchange(first, locked, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        let mut w = [first, 0, 0, 0, 0, 0, 0, 0];
        for (x, a) in w.iter_mut().zip(b).skip(1) {
            *x = a.load(Ordering::Relaxed);
        }
        let old = w;
        self.layout.insert(&mut w, tag, depth, count);
        for k in 1..WORDS {
            if w[k] != old[k] {
                b[k].store(w[k], Ordering::Relaxed);
            }
        }
        let unlocked = (w[0] & !SEQ_MASK) | ((seq + 2) & SEQ_MASK);
        b[0].store(unlocked, Ordering::Release);
    }

    /// Entries in use per thousand, sampled over the first thousand buckets.
    pub fn fill_permille(&self) -> u32 {
        let n = self.buckets.min(1000);
        if n == 0 {
            return 0;
        }
        let mut used = 0;
        for i in 0..n {
            let b = self.bucket(i);
            let w: [u64; 8] = std::array::from_fn(|k| b[k].load(Ordering::Relaxed));
            used += self.layout.entries_used(&w);
        }
        (used * 1000 / (n * ply_core::perft::table::BUCKET_ENTRIES)) as u32
    }
}

/// A thread's handle on a [`SharedPerftTable`] that counts its probes and hits.
pub struct Counted<'a> {
    table: &'a SharedPerftTable,
    /// Lookups made.
    pub probes: u64,
    /// Lookups answered.
    pub hits: u64,
}

impl<'a> Counted<'a> {
    /// A handle on `table` with nothing counted yet.
    pub fn new(table: &'a SharedPerftTable) -> Self {
        Counted {
            table,
            probes: 0,
            hits: 0,
        }
    }
}

impl PerftTable for Counted<'_> {
    fn key_bits(&self) -> u32 {
        self.table.layout.key_bits()
    }
    #[inline]
    fn slot(&self, key: u128) -> Slot {
        self.table.slot(key)
    }
    #[inline]
    fn probe(&mut self, slot: Slot, depth: u32) -> Option<u64> {
        self.probes += 1;
        let r = self.table.probe(slot, depth);
        self.hits += u64::from(r.is_some());
        r
    }
    #[inline]
    fn store(&mut self, slot: Slot, depth: u32, count: u64) {
        self.table.store(slot, depth, count)
    }
    #[inline]
    fn prefetch(&self, slot: Slot) {
        self.table.prefetch(slot)
    }
}

impl PerftTable for &SharedPerftTable {
    fn key_bits(&self) -> u32 {
        self.layout.key_bits()
    }
    #[inline]
    fn slot(&self, key: u128) -> Slot {
        SharedPerftTable::slot(self, key)
    }
    #[inline]
    fn probe(&mut self, slot: Slot, depth: u32) -> Option<u64> {
        SharedPerftTable::probe(self, slot, depth)
    }
    #[inline]
    fn store(&mut self, slot: Slot, depth: u32, count: u64) {
        SharedPerftTable::store(self, slot, depth, count)
    }
    #[inline]
    fn prefetch(&self, slot: Slot) {
        SharedPerftTable::prefetch(self, slot)
    }
}

/// The last line of a perft with a table: its size (each process's, in a
/// distributed count), the lookups and the share they answered.
pub fn table_line(bytes: u64, probes: u64, hits: u64) -> String {
    format!(
        "table: {} MiB, {} probes, {:.1}% hits",
        bytes >> 20,
        probes,
        crate::output::percent(hits, probes)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::perft::{perft, perft_tabled};

    #[test]
    fn buckets_are_cache_lines_and_sizes_round_down_to_powers_of_two() {
        let t = SharedPerftTable::new(3 << 20, 97).unwrap();
        assert_eq!(t.bytes(), 2 << 20);
        assert_eq!(t.capacity(), (2 << 20) / 16);
        assert_eq!(t.bucket(5).as_ptr() as usize % 64, 0);
        let empty = SharedPerftTable::new(63, 97).unwrap();
        empty.store(empty.slot(1), 5, 5);
        assert_eq!((empty.bytes(), empty.probe(empty.slot(1), 5)), (0, None));
    }

    #[test]
    fn store_and_probe_round_trip_and_keep_the_sequence_even() {
        let t = SharedPerftTable::new(64, 97).unwrap();
        for k in 0..6u128 {
            t.store(t.slot(k << 80), 4, k as u64 + 10);
        }
        // One bucket of four: the last four stored (equal depths, smaller counts go).
        for k in 2..6u128 {
            assert_eq!(t.probe(t.slot(k << 80), 4), Some(k as u64 + 10));
        }
        assert_eq!(t.probe(t.slot(0), 4), None);
        assert_eq!(t.bucket(0)[0].load(Ordering::Relaxed) & SEQ_MASK, 12);
    }

    #[test]
    fn a_bucket_being_written_is_not_read_or_written() {
        let t = SharedPerftTable::new(64, 97).unwrap();
        t.store(t.slot(7), 4, 70);
        let w0 = t.bucket(0)[0].load(Ordering::Relaxed);
        t.bucket(0)[0].store(w0 | 1, Ordering::Relaxed);
        assert_eq!(t.probe(t.slot(7), 4), None);
        t.store(t.slot(8), 4, 80);
        t.bucket(0)[0].store(w0, Ordering::Relaxed);
        assert_eq!(
            (t.probe(t.slot(7), 4), t.probe(t.slot(8), 4)),
            (Some(70), None)
        );
    }

    #[test]
    fn threads_hammering_one_bucket_read_only_their_own_counts() {
        // Every key's count is a function of the key; four threads store and probe
        // 64 keys in one bucket. A torn or foreign read would show a wrong count.
        let t = SharedPerftTable::new(64, 97).unwrap();
        let count = |k: u128| (k as u64).wrapping_mul(0x9e37_79b9) & 0xffff;
        super::super::hammer(4, |x| {
            let k = u128::from(x % 64) << 70 | 3;
            t.store(t.slot(k), 5, count(k));
            let p = u128::from((x >> 20) % 64) << 70 | 3;
            if let Some(n) = t.probe(t.slot(p), 5) {
                assert_eq!(n, count(p));
            }
        });
    }

    #[test]
    fn shared_tabled_perft_equals_perft() {
        let g = ply_core::games::TicTacToe::new();
        let t = SharedPerftTable::new(1 << 16, 18).unwrap();
        for depth in 0..=9 {
            assert_eq!(perft_tabled(&g, depth, &t), perft(&g, depth));
        }
    }
}
