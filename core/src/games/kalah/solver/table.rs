//! The solver's transposition table: entries keyed on the two rows alone, holding
//! bounds on the future margin, in two-slot buckets over memory the caller provides
//! ([`SolverTable`]): a plain slice for one solver, or a [`SharedSolverTable`] of
//! atomic words that solvers on several threads share without locks. Also how the
//! solver finds a position's bucket, probes it and chooses the slot to replace.

#[cfg(target_has_atomic = "64")]
use core::sync::atomic::Ordering;

use crate::zobrist::mix64;

/// One slot of the solver's transposition table: the rows, bounds on the future
/// margin, the best move and how much work the bounds cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolverEntry {
    pub(super) own: u64,
    pub(super) opp: u64,
    pub(super) lo: i16,
    pub(super) hi: i16,
    /// Best move + 1 (0: none).
    pub(super) mv: u8,
    /// Depth searched (`EXACT_DEPTH` = to the end of the game).
    pub(super) depth: u8,
    /// log2 of the nodes the search of this entry cost, for replacement.
    pub(super) work: u8,
    /// Generation (solve) the entry was written in.
    pub(super) generation: u8,
}

impl SolverEntry {
    /// An empty slot.
    pub const EMPTY: Self = SolverEntry {
        own: 0,
        opp: 0,
        lo: i16::MIN,
        hi: i16::MAX,
        mv: 0,
        depth: 0,
        work: 0,
        generation: 0,
    };
}

impl Default for SolverEntry {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// The memory of the solver's transposition table: slots in buckets of two
/// (slots `2k` and `2k + 1`). A plain slice serves one solver; a
/// [`SharedSolverTable`] serves several solvers on several threads at once.
pub trait SolverTable {
    /// The number of slots (a bucket is two slots; an odd last slot is unused).
    fn slots(&self) -> usize;
    /// The entry in `slot` ([`SolverEntry::EMPTY`] if there is none).
    fn load(&self, slot: usize) -> SolverEntry;
    /// Writes `e` into `slot`.
    fn save(&mut self, slot: usize, e: SolverEntry);
    /// Asks the memory system for the memory of `slot`, so that a later
    /// [`SolverTable::load`] finds it in the cache ([`crate::prefetch`]). The
    /// default does nothing.
    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        let _ = slot;
    }
}

impl SolverTable for &mut [SolverEntry] {
    #[inline(always)]
    fn slots(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn load(&self, slot: usize) -> SolverEntry {
        self[slot]
    }
    #[inline(always)]
    fn save(&mut self, slot: usize, e: SolverEntry) {
        self[slot] = e;
    }
    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        crate::prefetch::prefetch(&self[slot]);
    }
}

/// A transposition table that several solvers on several threads share: each
/// bucket of two entries is one 64-byte cache line of eight atomic words (an
/// entry is three; two are unused).
///
/// Writes are not locked. An entry is stored as its bounds word `d` and its rows
/// each XORed with a different hash of `d`; a reader accepts an entry only if both
/// rows decode to the position it asks for, so an entry torn by two threads
/// writing the same slot at once (words from two different writes) is rejected
/// unless 128 bits of hashes happen to match.
#[cfg(target_has_atomic = "64")]
#[derive(Clone, Copy, Debug)]
pub struct SharedSolverTable<'a> {
    words: &'a [core::sync::atomic::AtomicU64],
}

#[cfg(target_has_atomic = "64")]
impl<'a> SharedSolverTable<'a> {
    /// Atomic words a bucket takes.
    pub const BUCKET_WORDS: usize = 8;

    /// A table over `words` (cleared by [`SharedSolverTable::clear`] or all
    /// zeros when new). Start `words` on a 64-byte boundary so that each bucket
    /// is one cache line; any length works (a partial last bucket is unused).
    pub fn new(words: &'a [core::sync::atomic::AtomicU64]) -> Self {
        SharedSolverTable { words }
    }

    /// Empties every slot (one thread, before the solvers start).
    pub fn clear(&self) {
        for w in self.words {
            w.store(0, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    pub(super) fn base(slot: usize) -> usize {
        (slot / 2) * Self::BUCKET_WORDS + (slot % 2) * 3
    }
}

#[cfg(target_has_atomic = "64")]
const SHARED_OWN_KEY: u64 = 0x5eed_0f0e_1a1a_0001;
#[cfg(target_has_atomic = "64")]
const SHARED_OPP_KEY: u64 = 0x5eed_0f0e_1a1a_0002;

#[cfg(target_has_atomic = "64")]
impl SolverTable for SharedSolverTable<'_> {
    #[inline(always)]
    fn slots(&self) -> usize {
        self.words.len() / Self::BUCKET_WORDS * 2
    }
    #[inline(always)]
    fn load(&self, slot: usize) -> SolverEntry {
        let b = Self::base(slot);
        let w = &self.words[b..b + 3];
        let d = w[2].load(Ordering::Relaxed);
        if d == 0 {
            return SolverEntry::EMPTY;
        }
        let own = w[0].load(Ordering::Relaxed) ^ mix64(d ^ SHARED_OWN_KEY);
        let opp = w[1].load(Ordering::Relaxed) ^ mix64(d ^ SHARED_OPP_KEY);
        SolverEntry {
            own,
            opp,
            lo: d as u16 as i16,
            hi: (d >> 16) as u16 as i16,
            mv: (d >> 32) as u8,
            depth: (d >> 40) as u8,
            work: (d >> 48) as u8,
            generation: (d >> 56) as u8,
        }
    }
    #[inline(always)]
    fn save(&mut self, slot: usize, e: SolverEntry) {
        let d = u64::from(e.lo as u16)
            | u64::from(e.hi as u16) << 16
            | u64::from(e.mv) << 32
            | u64::from(e.depth) << 40
            | u64::from(e.work) << 48
            | u64::from(e.generation) << 56;
        let b = Self::base(slot);
        let w = &self.words[b..b + 3];
        w[0].store(e.own ^ mix64(d ^ SHARED_OWN_KEY), Ordering::Relaxed);
        w[1].store(e.opp ^ mix64(d ^ SHARED_OPP_KEY), Ordering::Relaxed);
        w[2].store(d, Ordering::Relaxed);
    }
    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        crate::prefetch::prefetch(&self.words[Self::base(slot)]);
    }
}

/// The depth of an entry searched to the end of the game (its bounds hold forever).
pub(super) const EXACT_DEPTH: u8 = u8::MAX;

/// The first slot of the two-slot bucket of a position.
#[inline(always)]
pub(super) fn bucket(tt: &impl SolverTable, own: u64, opp: u64) -> usize {
    let h = mix64(own ^ mix64(opp ^ 0x004b_414c_4148));
    let buckets = tt.slots() / 2;
    2 * (((u128::from(h) * buckets as u128) >> 64) as usize)
}

/// The table entry of a position, if present.
#[inline(always)]
pub(super) fn probe(tt: &impl SolverTable, own: u64, opp: u64) -> Option<SolverEntry> {
    if tt.slots() < 2 {
        return None;
    }
    let b = bucket(tt, own, opp);
    for i in b..b + 2 {
        let e = tt.load(i);
        if e.own == own && e.opp == opp && e.generation != 0 {
            return Some(e);
        }
    }
    None
}

/// Stores the entry `e` of a position (its bounds, searched to `e.depth` at a cost
/// of `e.work`, log2 nodes, in the solve `e.generation`). Each bucket keeps the
/// position's own slot if it has one, else replaces the less valuable entry: empty
/// first, then by work, an exact entry (valid forever) above any depth-limited one,
/// and one of an earlier solve a little below one of this solve.
#[inline(always)]
pub(super) fn store(tt: &mut impl SolverTable, e: SolverEntry) {
    if tt.slots() < 2 {
        return;
    }
    let (own, opp) = (e.own, e.opp);
    let b = bucket(tt, own, opp);
    let gen = e.generation;
    let pair = [tt.load(b), tt.load(b + 1)];
    let i = if pair[0].own == own && pair[0].opp == opp && pair[0].generation != 0 {
        0
    } else if pair[1].own == own && pair[1].opp == opp && pair[1].generation != 0 {
        1
    } else {
        let score = |x: &SolverEntry| {
            if x.generation == 0 {
                -100
            } else {
                i32::from(x.work) + 64 * i32::from(x.depth == EXACT_DEPTH)
                    - 4 * i32::from(x.generation != gen)
            }
        };
        if score(&pair[0]) <= score(&pair[1]) {
            0
        } else {
            1
        }
    };
    tt.save(b + i, e);
}

/// Filled slots per thousand, sampled over the first 4096.
pub(super) fn fill_permille(tt: &impl SolverTable) -> u32 {
    let sample = tt.slots().min(4096);
    let used = (0..sample).filter(|&i| tt.load(i).generation != 0).count();
    (used * 1000).checked_div(sample).unwrap_or(0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicU64;

    fn entry(own: u64, opp: u64, lo: i16, hi: i16, generation: u8) -> SolverEntry {
        SolverEntry {
            own,
            opp,
            lo,
            hi,
            mv: 3,
            depth: EXACT_DEPTH,
            work: 17,
            generation,
        }
    }

    #[test]
    fn shared_table_keeps_entries_and_rejects_torn_ones() {
        let words = [const { AtomicU64::new(0) }; 4 * SharedSolverTable::BUCKET_WORDS];
        let mut t = SharedSolverTable::new(&words);
        assert_eq!(t.slots(), 8);
        for slot in 0..8 {
            assert_eq!(t.load(slot), SolverEntry::EMPTY);
        }
        let a = entry(0x0404_0404_0404, 0x0505_0505_0505, -48, 12, 1);
        let b = entry(0x0404_0404_0405, 0x0505_0505_0505, 7, 7, 200);
        t.save(3, a);
        t.save(4, b);
        assert_eq!(t.load(3), a);
        assert_eq!(t.load(4), b);
        assert_eq!(t.load(2), SolverEntry::EMPTY);
        // Entries do not overlap: rewriting one leaves its neighbours.
        t.save(2, b);
        assert_eq!((t.load(2), t.load(3), t.load(4)), (b, a, b));
        // Slot 3 torn between a write of `a` and one of `b` (any mix of their
        // words): what it reads back is a's or b's entry whole, or matches
        // neither position, so no probe accepts a mixed entry.
        let base = SharedSolverTable::base(3);
        t.save(3, a);
        let wa: [u64; 3] = core::array::from_fn(|k| words[base + k].load(Ordering::Relaxed));
        t.save(3, b);
        let wb: [u64; 3] = core::array::from_fn(|k| words[base + k].load(Ordering::Relaxed));
        for mask in 0..8u32 {
            for k in 0..3 {
                let w = if mask >> k & 1 == 1 { wa[k] } else { wb[k] };
                words[base + k].store(w, Ordering::Relaxed);
            }
            let e = t.load(3);
            if mask == 0b111 {
                assert_eq!(e, a);
            } else if mask == 0 {
                assert_eq!(e, b);
            } else {
                assert!(
                    (e.own, e.opp) != (a.own, a.opp) && (e.own, e.opp) != (b.own, b.opp),
                    "mask {:03b}",
                    mask
                );
            }
        }
    }
}
