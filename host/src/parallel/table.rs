//! The transposition table that the engines of a parallel search share: lock-free,
//! with verified entries, behind the core's [`Table`] trait (implemented for
//! `&SharedTable`, so every engine holds a reference).
//!
//! Each slot is two atomic words, `key ^ data` and `data`, written and read without
//! locks (Hyatt's lockless hashing): a slot torn by two threads writing at once fails
//! the check `check ^ data == key` and is ignored, so no engine ever uses a value
//! stored for another position. Beside the slots, a small table of the positions
//! being searched right now serves ABDADA's deferral.
//!
//! The slots' memory comes zeroed from the kernel, a page at a time as it is first
//! touched. A bitmap of the pages written so far keeps probes off the others: a read
//! of an untouched page would map the kernel's shared zero page, and the first store
//! there would then have to replace that mapping on every core running an engine (a
//! TLB shootdown: an inter-processor interrupt per page, which on a virtual machine
//! cost a 2-thread checkers search a tenth of its time). An unwritten page holds only
//! empty slots, so such a probe misses, as it would have anyway.

use std::sync::atomic::{AtomicU64, Ordering};

use ply_core::search::tt::{from_tt, to_tt, MOVE_INDEX_LIMIT};
use ply_core::search::{Bound, Stored, Table};

/// Bytes per slot: two words, `check` (`key ^ data`, so a torn slot is detected)
/// and `data`.
pub const SLOT_BYTES: usize = std::mem::size_of::<[AtomicU64; 2]>();

/// Where a slot's data word keeps the search's generation (its top 6 bits).
const GENERATION_SHIFT: u32 = 58;
const GENERATION_MASK: u64 = 63;

/// Slots of the ABDADA table of positions being searched.
const BUSY_SLOTS: usize = 1 << 15;

/// A transposition table shared by threads without locks. Moves are stored as their
/// index in the generation order.
pub struct SharedTable {
    /// Slot `i` is words `2i` (check) and `2i + 1` (data).
    words: Vec<AtomicU64>,
    /// One bit per 4 KiB page of `words` that a store has reached (page `p` of the
    /// allocation: bit `p % 64` of word `p / 64`).
    written: Box<[AtomicU64]>,
    busy: BusyTable,
    /// The search under way (6 bits, [`SharedTable::new_search`]): entries of an
    /// earlier search are replaced first.
    generation: AtomicU64,
}

/// A slot's two words.
struct Slot<'a> {
    check: &'a AtomicU64,
    data: &'a AtomicU64,
}

impl SharedTable {
    /// A table of `slots` empty slots (0 gives a table that stores nothing); its
    /// memory is zeroed by the kernel as it is first touched. An error names the
    /// size if the memory cannot be had.
    pub fn new(slots: usize) -> Result<Self, String> {
        let words = crate::memory::zeroed_atomic_words_small_pages(
            slots.saturating_mul(2),
            "the shared transposition table",
        )?;
        let pages = page_of(&words, words.len().saturating_sub(1)) + 1;
        Ok(SharedTable {
            words,
            written: (0..pages.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
            busy: BusyTable::new(BUSY_SLOTS),
            generation: AtomicU64::new(0),
        })
    }

    /// A new search starts (once for all the engines that share the table): the
    /// entries of earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// A table of `mb` MiB.
    pub fn with_mb(mb: usize) -> Result<Self, String> {
        SharedTable::new(mb.saturating_mul(1 << 20) / SLOT_BYTES)
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.words.len() / 2
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.capacity() as u128) >> 64) as usize
    }

    #[inline]
    fn slot(&self, index: usize) -> Slot<'_> {
        Slot {
            check: &self.words[2 * index],
            data: &self.words[2 * index + 1],
        }
    }

    /// The verified entry for `key`, its score made relative to a node `ply` plies
    /// from the root; `None` if the slot is empty, holds another position or was
    /// torn by a concurrent write.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        if self.words.is_empty() {
            return None;
        }
        let index = self.index(key);
        if !self.is_written(index) {
            return None;
        }
        let slot = self.slot(index);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        if check ^ data != key {
            return None;
        }
        let bound = Bound::from_bits((data >> 40) as u8);
        if bound == Bound::Empty {
            return None;
        }
        let mv = ((data >> 42) & 0x3fff) as usize;
        Some(Stored {
            value: from_tt(data as u32 as i32, ply),
            depth: u32::from((data >> 32) as u8),
            bound,
            move_index: mv.checked_sub(1),
        })
    }

    /// Stores a result for `key` at a node `ply` plies from the root. A slot holding
    /// the same position searched deeper is kept, and so is one holding another
    /// position searched deeper in this search (depth-preferred, as the core's
    /// table); anything else is replaced.
    #[inline]
    pub fn store(&self, key: u64, ply: u32, entry: Stored) {
        if self.words.is_empty() || entry.bound == Bound::Empty {
            return;
        }
        let index = self.index(key);
        let slot = self.slot(index);
        let depth = entry.depth.min(u32::from(u8::MAX));
        // A page no store has reached holds empty slots: not read (see the module
        // documentation), so this write is the page's first touch.
        let (old, old_key) = if self.mark_written(index) {
            let old = slot.data.load(Ordering::Relaxed);
            (old, slot.check.load(Ordering::Relaxed) ^ old)
        } else {
            (0, 0)
        };
        let used = (old >> 40) & 3 != 0;
        let same = old_key == key && used;
        let gen = self.generation.load(Ordering::Relaxed) & GENERATION_MASK;
        let old_deeper = u32::from((old >> 32) as u8) > depth;
        if old_deeper && (same || (used && old >> GENERATION_SHIFT == gen)) {
            return;
        }
        let mv = match entry.move_index {
            Some(i) if i < MOVE_INDEX_LIMIT => (i + 1) as u64,
            // Keep a known best move when re-storing the same position without one.
            _ if same => (old >> 42) & 0x3fff,
            _ => 0,
        };
        let data = u64::from(to_tt(entry.value, ply) as u32)
            | u64::from(depth) << 32
            | u64::from(entry.bound.bits()) << 40
            | mv << 42
            | gen << GENERATION_SHIFT;
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// True once a store has reached the page (or both pages) of slot `index`.
    #[inline]
    fn is_written(&self, index: usize) -> bool {
        let bit =
            |page: usize| self.written[page / 64].load(Ordering::Relaxed) & (1 << (page % 64));
        let (first, last) = self.pages(index);
        bit(first) != 0 && (first == last || bit(last) != 0)
    }

    /// Records that a store reaches the page (or both pages) of slot `index`;
    /// returns true if they had been reached before.
    #[inline]
    fn mark_written(&self, index: usize) -> bool {
        let (first, last) = self.pages(index);
        let mut before = true;
        for page in [first, last] {
            let bit = 1 << (page % 64);
            let word = &self.written[page / 64];
            if word.load(Ordering::Relaxed) & bit == 0 {
                before &= word.fetch_or(bit, Ordering::Relaxed) & bit != 0;
            }
        }
        before
    }

    /// The pages of slot `index`'s two words (the same page unless the allocation
    /// is not 16-byte aligned and the slot straddles a boundary).
    #[inline]
    fn pages(&self, index: usize) -> (usize, usize) {
        (
            page_of(&self.words, 2 * index),
            page_of(&self.words, 2 * index + 1),
        )
    }

    /// The ABDADA table of positions being searched.
    pub fn busy(&self) -> &BusyTable {
        &self.busy
    }

    #[cfg(test)]
    fn write_raw(&self, index: usize, check: u64, data: u64) {
        self.mark_written(index);
        self.slot(index).check.store(check, Ordering::Relaxed);
        self.slot(index).data.store(data, Ordering::Relaxed);
    }
}

impl Table for &SharedTable {
    #[inline]
    fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        SharedTable::probe(self, key, ply)
    }
    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Stored) {
        SharedTable::store(self, key, ply, entry)
    }
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        self.busy.is_busy(key)
    }
    #[inline]
    fn enter(&mut self, key: u64) {
        self.busy.enter(key)
    }
    #[inline]
    fn leave(&mut self, key: u64) {
        self.busy.leave(key)
    }
}

/// The 4 KiB page of `words[i]`, counted from the page of `words[0]`.
#[inline]
fn page_of(words: &[AtomicU64], i: usize) -> usize {
    let base = words.as_ptr() as usize;
    ((base + 8 * i) >> 12) - (base >> 12)
}

/// Positions some thread is searching right now (simplified ABDADA): one key per
/// slot, set on entry and cleared on exit. A collision only changes move order.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl BusyTable {
    /// An empty table of `slots` slots (at least one).
    pub fn new(slots: usize) -> Self {
        BusyTable {
            slots: (0..slots.max(1)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(ply_core::zobrist::mix64(key) % self.slots.len() as u64) as usize]
    }

    /// True if a thread has entered `key` and not left it.
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks `key` as being searched.
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key` (unless another key took the slot since).
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::search::{Score, WIN};

    #[test]
    fn every_slot_of_every_page_round_trips() {
        // 2^14 slots of 16 bytes: 64 pages. Key `i << 50` lands in slot `i`.
        let t = SharedTable::new(1 << 14).unwrap();
        let key = |i: u64| i << 50 | 1;
        for i in 0..1 << 14 {
            assert_eq!(t.index(key(i)), i as usize);
            t.store(key(i), 0, Stored::new(i as Score, 3, Bound::Exact, None));
        }
        for i in 0..1 << 14 {
            assert_eq!(t.probe(key(i), 0).map(|h| h.value), Some(i as Score));
        }
    }

    #[test]
    fn probes_read_only_pages_a_store_has_reached() {
        // A slot's words put in place behind the table's back, on a page no store
        // has reached: the probe does not read them. Once the page is marked, it does.
        let full = SharedTable::new(1 << 10).unwrap();
        full.store(77, 0, Stored::new(9, 5, Bound::Exact, None));
        let i = full.index(77);
        let (check, data) = (
            full.slot(i).check.load(Ordering::Relaxed),
            full.slot(i).data.load(Ordering::Relaxed),
        );
        let t = SharedTable::new(1 << 10).unwrap();
        t.slot(i).check.store(check, Ordering::Relaxed);
        t.slot(i).data.store(data, Ordering::Relaxed);
        assert!(t.probe(77, 0).is_none());
        assert!(!t.mark_written(i));
        assert!(t.mark_written(i));
        assert_eq!(t.probe(77, 0).map(|h| h.value), Some(9));
    }

    #[test]
    fn store_and_probe_round_trip() {
        let t = SharedTable::new(64).unwrap();
        t.store(
            0xdead_beef,
            3,
            Stored::new(-1234, 7, Bound::Lower, Some(300)),
        );
        let e = t.probe(0xdead_beef, 3).unwrap();
        assert_eq!(
            e,
            Stored {
                value: -1234,
                depth: 7,
                bound: Bound::Lower,
                move_index: Some(300)
            }
        );
        assert!(t.probe(0xdead_bef0, 3).is_none());
        // A win stored two plies deep is a win two plies sooner one ply higher.
        let t = SharedTable::new(64).unwrap();
        t.store(42, 2, Stored::new(WIN - 5, 1, Bound::Exact, None));
        assert_eq!(t.probe(42, 1).unwrap().value, WIN - 4);
        assert_eq!(t.probe(42, 1).unwrap().move_index, None);
    }

    #[test]
    fn deeper_entries_of_this_search_are_kept_and_earlier_searches_replaced() {
        let t = SharedTable::new(1).unwrap();
        t.store(9, 0, Stored::new(10, 6, Bound::Exact, None));
        // The same position searched less deep: kept.
        t.store(9, 0, Stored::new(20, 4, Bound::Exact, None));
        assert_eq!(t.probe(9, 0).unwrap().value, 10);
        // Another position searched less deep in the same search: kept too.
        t.store(10, 0, Stored::new(30, 1, Bound::Upper, None));
        assert!(t.probe(10, 0).is_none());
        assert_eq!(t.probe(9, 0).unwrap().value, 10);
        // As deep: replaced.
        t.store(10, 0, Stored::new(40, 6, Bound::Lower, None));
        assert_eq!(t.probe(10, 0).unwrap().value, 40);
        assert!(t.probe(9, 0).is_none());
        // In the next search the earlier entry gives way to any new one.
        t.new_search();
        t.store(11, 0, Stored::new(50, 1, Bound::Upper, None));
        assert_eq!(t.probe(11, 0).unwrap().value, 50);
        assert!(t.probe(10, 0).is_none());
        // 64 searches later the generation wraps round; entries still work.
        for _ in 0..64 {
            t.new_search();
        }
        t.store(12, 0, Stored::new(60, 2, Bound::Exact, Some(1)));
        assert_eq!(t.probe(12, 0).unwrap().move_index, Some(1));
    }

    #[test]
    fn torn_slot_is_rejected() {
        let t = SharedTable::new(1).unwrap();
        t.store(77, 0, Stored::new(11, 5, Bound::Exact, Some(2)));
        let good = t.slot(0).data.load(Ordering::Relaxed);
        // The data word of another write paired with this key's check word.
        let other = good ^ (1 << 3);
        t.write_raw(0, 77 ^ good, other);
        assert!(t.probe(77, 0).is_none());
        t.write_raw(0, 77 ^ good, good);
        assert_eq!(t.probe(77, 0).unwrap().value, 11);
    }

    #[test]
    fn busy_table_marks_and_clears() {
        let b = BusyTable::new(1);
        assert!(!b.is_busy(5));
        b.enter(5);
        assert!(b.is_busy(5));
        // Another position takes the only slot; leaving 5 must not clear it.
        b.enter(6);
        b.leave(5);
        assert!(b.is_busy(6) && !b.is_busy(5));
        b.leave(6);
        assert!(!b.is_busy(6));
    }

    #[test]
    fn empty_table_stores_nothing() {
        let t = SharedTable::new(0).unwrap();
        t.store(1, 0, Stored::new(1, 1, Bound::Exact, None));
        assert!(t.probe(1, 0).is_none());
    }

    #[test]
    fn concurrent_writers_never_yield_a_foreign_entry() {
        // Eight threads hammer four slots with entries whose value is derived from
        // their key; every verified read must carry its own key's value.
        let t = SharedTable::new(4).unwrap();
        let bad = AtomicU64::new(0);
        super::super::hammer(8, |x| {
            let key = x % 64 + 1;
            let value = (key * 1000) as Score;
            let entry = Stored::new(value, (key % 7) as u32, Bound::Exact, Some(key as usize));
            t.store(key, 0, entry);
            let probe_key = (x >> 20) % 64 + 1;
            if let Some(e) = t.probe(probe_key, 0) {
                if e.value != (probe_key * 1000) as Score
                    || e.move_index != Some(probe_key as usize)
                    || u64::from(e.depth) != probe_key % 7
                {
                    bad.fetch_add(1, Ordering::Relaxed);
                }
            }
        });
        assert_eq!(bad.into_inner(), 0);
    }
}
