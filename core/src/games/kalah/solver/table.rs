//! The solver's transposition table: entries keyed on the two rows alone, holding
//! bounds on the future margin, in buckets over memory the caller provides
//! ([`SolverTable`]): a plain slice for one solver, or a [`SharedSolverTable`] of
//! atomic words that solvers on several threads share without locks. Also how the
//! solver finds a position's bucket, probes it and chooses the slot to replace.

#[cfg(target_has_atomic = "64")]
use core::sync::atomic::Ordering;

#[cfg(target_has_atomic = "64")]
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

impl SolverEntry {
    /// log2 of the nodes the search of this entry cost.
    pub fn work(&self) -> u8 {
        self.work
    }

    /// Whether the entry's bounds were searched to the end of the game (they hold
    /// for good, in any solve of the same rules).
    pub fn is_exact(&self) -> bool {
        self.depth == EXACT_DEPTH && self.generation != 0
    }

    /// The entry as three words (to send it to another process): the rows, then the
    /// bounds, move, depth, work and generation.
    pub fn to_words(&self) -> [u64; 3] {
        [
            self.own,
            self.opp,
            u64::from(self.lo as u16)
                | u64::from(self.hi as u16) << 16
                | u64::from(self.mv) << 32
                | u64::from(self.depth) << 40
                | u64::from(self.work) << 48
                | u64::from(self.generation) << 56,
        ]
    }

    /// The entry from [`SolverEntry::to_words`]; `None` for words no entry gives
    /// (bounds the wrong way round, an empty entry).
    pub fn from_words(words: [u64; 3]) -> Option<Self> {
        let [own, opp, f] = words;
        let e = Self::unpacked(own, opp, f);
        (e.generation != 0 && e.lo <= e.hi).then_some(e)
    }

    /// The entry of the position `own`, `opp` whose other fields are packed in `f`
    /// as [`SolverEntry::to_words`]' third word packs them (unchecked).
    #[inline(always)]
    fn unpacked(own: u64, opp: u64, f: u64) -> Self {
        SolverEntry {
            own,
            opp,
            lo: f as u16 as i16,
            hi: (f >> 16) as u16 as i16,
            mv: (f >> 32) as u8,
            depth: (f >> 40) as u8,
            work: (f >> 48) as u8,
            generation: (f >> 56) as u8,
        }
    }
}

/// Asks for the memory of `e`'s bucket in `tt` ([`crate::prefetch`]), so that a
/// [`learn`] of `e` soon after finds it in the cache: a batch of entries learnt
/// after their buckets were asked for waits for memory once, not once an entry.
pub fn prefetch_learn(tt: &impl SolverTable, e: &SolverEntry) {
    if tt.buckets() > 0 {
        tt.prefetch(bucket(tt, e.own, e.opp));
    }
}

/// Stores `e`, an exact entry ([`SolverEntry::is_exact`]) learnt elsewhere (another
/// process's search of the same rules), in `tt`: merged with the position's own
/// exact entry there (the tighter of each bound, the larger work, its own move
/// first), else in place of the bucket's least valuable entry as a search would
/// store it. Entries that are not exact are ignored (their bounds hold only at
/// their depth).
pub fn learn(tt: &mut impl SolverTable, e: SolverEntry) {
    if !e.is_exact() {
        return;
    }
    let (b, found) = probe_at(tt, e.own, e.opp);
    let merged = match found {
        Some((_, old)) if old.depth == EXACT_DEPTH => {
            let (lo, hi) = (old.lo.max(e.lo), old.hi.min(e.hi));
            if lo > hi {
                // Bounds that contradict each other cannot both be true: keep ours.
                return;
            }
            SolverEntry {
                lo,
                hi,
                mv: if old.mv != 0 { old.mv } else { e.mv },
                work: old.work.max(e.work),
                generation: old.generation,
                ..e
            }
        }
        _ => e,
    };
    store_at(tt, b, found.map(|(i, _)| i), merged);
}

impl Default for SolverEntry {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// The memory of the solver's transposition table: slots in buckets of
/// [`SolverTable::ways`] slots (slots `w * k .. w * (k + 1)`). A plain slice serves
/// one solver; a [`SharedSolverTable`] serves several solvers on several threads at
/// once.
pub trait SolverTable {
    /// The number of slots (slots past the last whole bucket are unused).
    fn slots(&self) -> usize;
    /// Slots a bucket holds (a position may sit in any slot of its bucket). The
    /// default is two.
    #[inline(always)]
    fn ways(&self) -> usize {
        2
    }
    /// The number of whole buckets, `slots() / ways()` (a table with none keeps
    /// nothing). Implementations whose bucket size is known override it to spare
    /// the division on every probe.
    #[inline(always)]
    fn buckets(&self) -> usize {
        self.slots() / self.ways()
    }
    /// The entry in `slot` ([`SolverEntry::EMPTY`] if there is none).
    fn load(&self, slot: usize) -> SolverEntry;
    /// Writes `e` into `slot`.
    fn save(&mut self, slot: usize, e: SolverEntry);
    /// The slot among the `ways` slots from `first` (a bucket) holding the
    /// position `own`, `opp`, and its entry. The default loads each slot.
    #[inline(always)]
    fn find(&self, first: usize, own: u64, opp: u64) -> Option<(usize, SolverEntry)> {
        find_by_loading(self, first, own, opp)
    }
    /// What replacement weighs of the entry in `slot`: its generation (0: empty),
    /// depth and work. The default loads the whole entry.
    #[inline(always)]
    fn worth(&self, slot: usize) -> (u8, u8, u8) {
        let e = self.load(slot);
        (e.generation, e.depth, e.work)
    }
    /// Asks the memory system for the memory of `slot`, so that a later
    /// [`SolverTable::load`] finds it in the cache ([`crate::prefetch`]). The
    /// default does nothing.
    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        let _ = slot;
    }
}

/// [`SolverTable::find`] by loading each slot of the bucket whole.
#[inline(always)]
fn find_by_loading<T: SolverTable + ?Sized>(
    tt: &T,
    first: usize,
    own: u64,
    opp: u64,
) -> Option<(usize, SolverEntry)> {
    (first..first + tt.ways()).find_map(|i| {
        let e = tt.load(i);
        (e.own == own && e.opp == opp && e.generation != 0).then_some((i, e))
    })
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

/// A transposition table that several solvers on several threads share, in
/// buckets of one 64-byte cache line (eight atomic words) each.
///
/// Two layouts, chosen by the number of pits a row has ([`SharedSolverTable::new`]):
/// * **up to 6 pits: four 16-byte entries a bucket.** A pit takes 7 bits of the
///   key (rows of 6 pits with fewer than 128 seeds in every pit: 84 bits for both
///   rows, the whole key), the bounds a byte each, the rest 26 bits. An entry that
///   does not fit (a pit of 128 seeds or more) is not stored; a bound beyond a
///   byte is stored as a weaker one (`lo` below -127 as no lower bound, `hi`
///   above 126 as no upper bound, any other as the nearest byte on its safe side).
/// * **7 or 8 pits: two 24-byte entries a bucket** (two words unused): both rows
///   whole, the bounds as 16 bits.
///
/// Writes are not locked. An entry is stored as its last word `d` (its bounds and
/// its other fields, with the end of the key in the dense layout) and its other
/// words each XORed with a different hash of `d`; a reader accepts an entry only
/// if the rows it decodes are the position it asks for, so an entry torn by two
/// threads writing the same slot at once (words from two different writes) is
/// rejected unless 64 bits of hashes happen to match.
#[cfg(target_has_atomic = "64")]
#[derive(Clone, Copy, Debug)]
pub struct SharedSolverTable<'a> {
    words: &'a [core::sync::atomic::AtomicU64],
    dense: bool,
}

#[cfg(target_has_atomic = "64")]
impl<'a> SharedSolverTable<'a> {
    /// Atomic words a bucket takes.
    pub const BUCKET_WORDS: usize = 8;
    /// The most pits a row may have for the four-entry layout.
    pub const DENSE_MAX_PITS: u8 = 6;

    /// A table over `words` (cleared by [`SharedSolverTable::clear`] or all zeros
    /// when new) for positions of `pits` pits a row: four entries a bucket up to
    /// [`SharedSolverTable::DENSE_MAX_PITS`] pits, two above. Start `words` on a
    /// 64-byte boundary so that each bucket is one cache line; any length works (a
    /// partial last bucket is unused).
    pub fn new(words: &'a [core::sync::atomic::AtomicU64], pits: u8) -> Self {
        SharedSolverTable {
            words,
            dense: pits <= Self::DENSE_MAX_PITS,
        }
    }

    /// Empties every slot (one thread, before the solvers start).
    pub fn clear(&self) {
        for w in self.words {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// The first word of `slot`.
    #[inline(always)]
    pub(super) fn base(&self, slot: usize) -> usize {
        if self.dense {
            2 * slot
        } else {
            (slot / 2) * Self::BUCKET_WORDS + (slot % 2) * 3
        }
    }
}

#[cfg(target_has_atomic = "64")]
const SHARED_OWN_KEY: u64 = 0x5eed_0f0e_1a1a_0001;
#[cfg(target_has_atomic = "64")]
const SHARED_OPP_KEY: u64 = 0x5eed_0f0e_1a1a_0002;

/// The low 7 bits of each of a row's first six pits, packed into 42 bits; `None`
/// if a pit holds 128 seeds or more, or a seventh or eighth pit is not empty.
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn pack7(row: u64) -> Option<u64> {
    if row & 0xFFFF_8080_8080_8080 != 0 {
        return None;
    }
    // Pairs of pits into 14 bits of each 16, then pairs of those into 28 bits of
    // each 32, then the two halves together.
    let x = (row & 0x007F_007F_007F) | (row >> 1 & 0x3F80_3F80_3F80);
    let x = (x & 0x0000_3FFF_0000_3FFF) | (x >> 2 & 0x0FFF_C000_0FFF_C000);
    Some((x & 0x0FFF_FFFF) | (x >> 4 & 0x00FF_FFFF_F000_0000))
}

/// The row [`pack7`] packed.
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn unpack7(packed: u64) -> u64 {
    let x = (packed & 0x0FFF_FFFF) | (packed << 4 & 0x00FF_FFFF_0000_0000);
    let x = (x & 0x0000_3FFF_0000_3FFF) | (x << 2 & 0x3FFF_0000_3FFF_0000);
    (x & 0x007F_007F_007F) | (x << 1 & 0x7F00_7F00_7F00)
}

#[cfg(target_has_atomic = "64")]
const LOW42: u64 = (1 << 42) - 1;
#[cfg(target_has_atomic = "64")]
const LOW20: u64 = (1 << 20) - 1;

/// The dense layout's byte for a lower bound: never above `lo` (-128: none).
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn lo_byte(lo: i16) -> u64 {
    u64::from(lo.clamp(-128, 127) as i8 as u8)
}

/// The dense layout's byte for an upper bound: never below `hi` (127: none).
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn hi_byte(hi: i16) -> u64 {
    u64::from(hi.clamp(-128, 127) as i8 as u8)
}

/// The entry of the rows `own`, `opp` whose last word in the dense layout is `d`.
#[cfg(target_has_atomic = "64")]
#[inline(always)]
fn dense_fields(own: u64, opp: u64, d: u64) -> SolverEntry {
    let f = d >> 20;
    let lo = (f as u8) as i8;
    let hi = ((f >> 8) as u8) as i8;
    SolverEntry {
        own,
        opp,
        lo: if lo == -128 { i16::MIN } else { i16::from(lo) },
        hi: if hi == 127 { i16::MAX } else { i16::from(hi) },
        mv: (f >> 16) as u8 & 0xF,
        depth: (f >> 20) as u8,
        work: (f >> 28) as u8 & 0x3F,
        generation: (f >> 34) as u8,
    }
}

#[cfg(target_has_atomic = "64")]
impl SharedSolverTable<'_> {
    /// The dense layout's [`SolverTable::find`]: the key packed once, each slot's
    /// end of the key compared before its first word is decoded.
    #[inline(always)]
    fn find_dense(&self, first: usize, own: u64, opp: u64) -> Option<(usize, SolverEntry)> {
        let (own7, opp7) = (pack7(own)?, pack7(opp)?);
        let (k0, k1) = (own7 | opp7 << 42, opp7 >> 22);
        for slot in first..first + 4 {
            let d = self.words[2 * slot + 1].load(Ordering::Relaxed);
            if d == 0 || d & LOW20 != k1 {
                continue;
            }
            if self.words[2 * slot].load(Ordering::Relaxed) ^ mix64(d ^ SHARED_OWN_KEY) == k0 {
                return Some((slot, dense_fields(own, opp, d)));
            }
        }
        None
    }

    #[inline(always)]
    fn load_dense(&self, slot: usize) -> SolverEntry {
        let b = 2 * slot;
        let d = self.words[b + 1].load(Ordering::Relaxed);
        if d == 0 {
            return SolverEntry::EMPTY;
        }
        let k = self.words[b].load(Ordering::Relaxed) ^ mix64(d ^ SHARED_OWN_KEY);
        dense_fields(unpack7(k & LOW42), unpack7(k >> 42 | (d & LOW20) << 22), d)
    }

    #[inline(always)]
    fn save_dense(&self, slot: usize, e: SolverEntry) {
        let (Some(own), Some(opp)) = (pack7(e.own), pack7(e.opp)) else {
            return;
        };
        let f = lo_byte(e.lo)
            | hi_byte(e.hi) << 8
            | u64::from(e.mv & 0xF) << 16
            | u64::from(e.depth) << 20
            | u64::from(e.work.min(63)) << 28
            | u64::from(e.generation) << 34;
        let d = opp >> 22 | f << 20;
        let b = 2 * slot;
        // The key's first 64 bits: `own` and the low 22 bits of `opp`.
        self.words[b].store(
            (own | opp << 42) ^ mix64(d ^ SHARED_OWN_KEY),
            Ordering::Relaxed,
        );
        self.words[b + 1].store(d, Ordering::Relaxed);
    }

    #[inline(always)]
    fn load_wide(&self, slot: usize) -> SolverEntry {
        let b = self.base(slot);
        let w = &self.words[b..b + 3];
        let d = w[2].load(Ordering::Relaxed);
        if d == 0 {
            return SolverEntry::EMPTY;
        }
        let own = w[0].load(Ordering::Relaxed) ^ mix64(d ^ SHARED_OWN_KEY);
        let opp = w[1].load(Ordering::Relaxed) ^ mix64(d ^ SHARED_OPP_KEY);
        SolverEntry::unpacked(own, opp, d)
    }

    #[inline(always)]
    fn save_wide(&self, slot: usize, e: SolverEntry) {
        let d = u64::from(e.lo as u16)
            | u64::from(e.hi as u16) << 16
            | u64::from(e.mv) << 32
            | u64::from(e.depth) << 40
            | u64::from(e.work) << 48
            | u64::from(e.generation) << 56;
        let b = self.base(slot);
        let w = &self.words[b..b + 3];
        w[0].store(e.own ^ mix64(d ^ SHARED_OWN_KEY), Ordering::Relaxed);
        w[1].store(e.opp ^ mix64(d ^ SHARED_OPP_KEY), Ordering::Relaxed);
        w[2].store(d, Ordering::Relaxed);
    }
}

#[cfg(target_has_atomic = "64")]
impl SolverTable for SharedSolverTable<'_> {
    #[inline(always)]
    fn slots(&self) -> usize {
        self.words.len() / Self::BUCKET_WORDS * self.ways()
    }
    #[inline(always)]
    fn buckets(&self) -> usize {
        self.words.len() / Self::BUCKET_WORDS
    }
    #[inline(always)]
    fn ways(&self) -> usize {
        if self.dense {
            4
        } else {
            2
        }
    }
    #[inline(always)]
    fn load(&self, slot: usize) -> SolverEntry {
        if self.dense {
            self.load_dense(slot)
        } else {
            self.load_wide(slot)
        }
    }
    #[inline(always)]
    fn save(&mut self, slot: usize, e: SolverEntry) {
        if self.dense {
            self.save_dense(slot, e)
        } else {
            self.save_wide(slot, e)
        }
    }
    #[inline(always)]
    fn find(&self, first: usize, own: u64, opp: u64) -> Option<(usize, SolverEntry)> {
        if self.dense {
            self.find_dense(first, own, opp)
        } else {
            find_by_loading(self, first, own, opp)
        }
    }
    #[inline(always)]
    fn worth(&self, slot: usize) -> (u8, u8, u8) {
        if self.dense {
            // The last word alone; empty is all zeros.
            let f = self.words[2 * slot + 1].load(Ordering::Relaxed) >> 20;
            ((f >> 34) as u8, (f >> 20) as u8, (f >> 28) as u8 & 0x3F)
        } else {
            let e = self.load_wide(slot);
            (e.generation, e.depth, e.work)
        }
    }
    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        crate::prefetch::prefetch(&self.words[self.base(slot)]);
    }
}

/// The depth of an entry searched to the end of the game (its bounds hold forever).
pub(super) const EXACT_DEPTH: u8 = u8::MAX;

/// The first slot of the bucket of a position.
#[inline(always)]
pub(super) fn bucket(tt: &impl SolverTable, own: u64, opp: u64) -> usize {
    // Two multiplications: the high bits of each product depend on every bit
    // below them, and the bucket is taken from the high bits of the second.
    let h = (own.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opp).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    tt.ways() * (((u128::from(h) * tt.buckets() as u128) >> 64) as usize)
}

/// The table entry of a position, if present.
#[inline(always)]
pub(super) fn probe(tt: &impl SolverTable, own: u64, opp: u64) -> Option<SolverEntry> {
    probe_at(tt, own, opp).1.map(|(_, e)| e)
}

/// The bucket of a position and, if present, its slot and entry: what
/// [`store_at`] needs to store the position's new entry without looking again.
#[inline(always)]
pub(super) fn probe_at(
    tt: &impl SolverTable,
    own: u64,
    opp: u64,
) -> (usize, Option<(usize, SolverEntry)>) {
    if tt.buckets() == 0 {
        return (0, None);
    }
    let b = bucket(tt, own, opp);
    (b, tt.find(b, own, opp))
}

/// Stores the entry `e` of a position (its bounds, searched to `e.depth` at a cost
/// of `e.work`, log2 nodes, in the solve `e.generation`) in its bucket `b`, in
/// `slot` if the position had one there when [`probe_at`] looked, else in place of
/// the bucket's least valuable entry: empty first, then by work, an exact entry
/// (valid forever) above any depth-limited one, and one of an earlier solve a
/// little below one of this solve. A slot found before the position's subtree was
/// searched is still the position's own or, if another position took it
/// meanwhile, a fair victim: no position is in its own subtree (every move lowers
/// the seeds in play or their distance to the stores), and an entry of the same
/// position written meanwhile by another thread holds true bounds too.
#[inline(always)]
pub(super) fn store_at(tt: &mut impl SolverTable, b: usize, slot: Option<usize>, e: SolverEntry) {
    let ways = tt.ways();
    if tt.buckets() == 0 {
        return;
    }
    let gen = e.generation;
    let score = |(generation, depth, work): (u8, u8, u8)| {
        if generation == 0 {
            -100
        } else {
            i32::from(work) + 64 * i32::from(depth == EXACT_DEPTH)
                - 4 * i32::from(generation != gen)
        }
    };
    let victim = match slot {
        Some(i) => i,
        None => {
            let mut victim = b;
            let mut lowest = i32::MAX;
            for i in b..b + ways {
                let sc = score(tt.worth(i));
                if sc < lowest {
                    lowest = sc;
                    victim = i;
                }
            }
            victim
        }
    };
    tt.save(victim, e);
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

    /// Entries round-trip whole in slots that do not overlap, and a slot torn
    /// between two writes (any mix of their words) reads back as one of them or
    /// as no position of either: `pits` 6 is the dense layout, 8 the wide one.
    fn keeps_entries_and_rejects_torn_ones(pits: u8, a: SolverEntry, b: SolverEntry) {
        let words = [const { AtomicU64::new(0) }; 4 * SharedSolverTable::BUCKET_WORDS];
        let mut t = SharedSolverTable::new(&words, pits);
        let ways = if pits <= 6 { 4 } else { 2 };
        assert_eq!((t.slots(), t.ways()), (4 * ways, ways));
        for slot in 0..t.slots() {
            assert_eq!(t.load(slot), SolverEntry::EMPTY);
        }
        t.save(3, a);
        t.save(4, b);
        assert_eq!(t.load(3), a);
        assert_eq!(t.load(4), b);
        assert_eq!(t.load(2), SolverEntry::EMPTY);
        // Entries do not overlap: rewriting one leaves its neighbours.
        t.save(2, b);
        assert_eq!((t.load(2), t.load(3), t.load(4)), (b, a, b));
        let (base, len) = (t.base(3), if pits <= 6 { 2 } else { 3 });
        t.save(3, a);
        let wa: [u64; 3] = core::array::from_fn(|k| words[base + k].load(Ordering::Relaxed));
        t.save(3, b);
        let wb: [u64; 3] = core::array::from_fn(|k| words[base + k].load(Ordering::Relaxed));
        for mask in 0..1u32 << len {
            for k in 0..len {
                let w = if mask >> k & 1 == 1 { wa[k] } else { wb[k] };
                words[base + k].store(w, Ordering::Relaxed);
            }
            let e = t.load(3);
            if mask == (1 << len) - 1 {
                assert_eq!(e, a);
            } else if mask == 0 {
                assert_eq!(e, b);
            } else {
                assert!(
                    (e.own, e.opp) != (a.own, a.opp) && (e.own, e.opp) != (b.own, b.opp),
                    "pits {} mask {:03b}",
                    pits,
                    mask
                );
            }
        }
    }

    #[test]
    fn shared_table_keeps_entries_and_rejects_torn_ones() {
        let a = entry(0x0404_0404_0404, 0x0505_0505_0505, -48, 12, 1);
        let b = entry(0x0404_0404_0405, 0x0505_0505_0505, 7, 7, 200);
        keeps_entries_and_rejects_torn_ones(6, a, b);
        keeps_entries_and_rejects_torn_ones(8, a, b);
        // Rows of 8 pits with a pit over 127 seeds, bounds beyond a byte.
        let a = entry(0x0102_0304_0506_0708, 0x0900_0000_0000_00ff, -300, 299, 1);
        keeps_entries_and_rejects_torn_ones(8, a, b);
        // Pits of up to 127 seeds and every other field at its widest.
        let wide = SolverEntry {
            own: 0x7f7f_7f7f_7f7f,
            opp: 0x7f00_7f01_7f7e,
            lo: -127,
            hi: 126,
            mv: 9,
            depth: 254,
            work: 63,
            generation: 255,
        };
        keeps_entries_and_rejects_torn_ones(6, wide, b);
    }

    /// Packing a row into 7 bits a pit and back gives the row, for every value a
    /// pit can take in each of the six pits (the others zero).
    #[test]
    fn rows_pack_into_seven_bits_a_pit_and_back() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for i in 0..6 {
            for v in 0..128u64 {
                // The pit under test at `v`, the others at pseudo-random values.
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let others = x & 0x7F7F_7F7F_7F7F & !(0xFF << (8 * i));
                let row = others | v << (8 * i);
                let packed = pack7(row).unwrap();
                assert!(packed < 1 << 42);
                assert_eq!(unpack7(packed), row, "{:012x}", row);
            }
        }
        assert_eq!(pack7(0x80), None);
        assert_eq!(pack7(0x0001_0000_0000_0000), None);
    }

    /// The dense layout stores a bound it cannot hold as a weaker one, never as a
    /// stronger one, and does not store rows it cannot hold at all.
    #[test]
    fn dense_entries_keep_their_bounds_safe() {
        let words = [const { AtomicU64::new(0) }; SharedSolverTable::BUCKET_WORDS];
        let mut t = SharedSolverTable::new(&words, 6);
        for (lo, hi, want_lo, want_hi) in [
            (-128, 127, i16::MIN, i16::MAX),
            (-300, 300, i16::MIN, i16::MAX),
            (-127, 126, -127, 126),
            (140, 150, 127, i16::MAX),
            (-150, -140, i16::MIN, -128),
            (i16::MIN, i16::MAX, i16::MIN, i16::MAX),
        ] {
            t.save(0, entry(0x0101_0101_0101, 0x0202, lo, hi, 9));
            let e = t.load(0);
            assert_eq!((e.lo, e.hi), (want_lo, want_hi), "{}..={}", lo, hi);
            assert!(e.lo <= lo && e.hi >= hi);
        }
        for (own, opp) in [
            (0x80, 0),
            (0, 0x0000_8000_0000_0000),
            (0x0001_0000_0000_0000, 0),
            (0, 0x0100_0000_0000_0000),
        ] {
            t.save(1, entry(own, opp, 0, 0, 9));
            assert_eq!(t.load(1), SolverEntry::EMPTY, "{:x} {:x}", own, opp);
        }
    }

    /// Looks the position of `e` up and stores `e`, as the search does.
    fn store(t: &mut SharedSolverTable, e: SolverEntry) {
        let (b, found) = probe_at(t, e.own, e.opp);
        store_at(t, b, found.map(|(i, _)| i), e);
    }

    /// A position is found in whichever slot of its bucket it went to, and a full
    /// bucket gives up its least valuable entry.
    #[test]
    fn four_way_buckets_keep_the_most_valuable_entries() {
        let words = [const { AtomicU64::new(0) }; SharedSolverTable::BUCKET_WORDS];
        let mut t = SharedSolverTable::new(&words, 6);
        let e = |own: u64, work: u8| SolverEntry {
            work,
            depth: 10,
            ..entry(own, 1, 0, 5, 2)
        };
        for (own, work) in [(1, 9), (2, 3), (3, 12), (4, 7)] {
            store(&mut t, e(own, work));
        }
        for own in 1..=4 {
            assert_eq!(
                probe(&t, own, 1),
                Some(e(own, [9, 3, 12, 7][own as usize - 1]))
            );
        }
        // A fifth position takes the slot of the cheapest (work 3).
        store(&mut t, e(5, 1));
        assert_eq!(probe(&t, 2, 1), None);
        for own in [1, 3, 4, 5] {
            assert!(probe(&t, own, 1).is_some(), "{}", own);
        }
        // A position's own slot is rewritten in place.
        store(&mut t, SolverEntry { lo: 2, ..e(3, 12) });
        assert_eq!(probe(&t, 3, 1).map(|x| x.lo), Some(2));
        assert_eq!((0..4).filter(|&s| t.load(s).own == 3).count(), 1);
    }

    /// An entry learnt from another process survives its words, tightens the
    /// position's own exact entry (never loosens it), and is ignored if it is not
    /// exact.
    #[test]
    fn learnt_entries_round_trip_and_merge_with_their_own() {
        let a = entry(0x0102_0304, 0x0506, -3, 9, 2);
        assert_eq!(SolverEntry::from_words(a.to_words()), Some(a));
        assert_eq!(SolverEntry::from_words(SolverEntry::EMPTY.to_words()), None);
        let words = [const { AtomicU64::new(0) }; 4 * SharedSolverTable::BUCKET_WORDS];
        let mut t = SharedSolverTable::new(&words, 6);
        learn(&mut t, a);
        assert_eq!(probe(&t, a.own, a.opp).map(|e| (e.lo, e.hi)), Some((-3, 9)));
        learn(&mut t, entry(a.own, a.opp, 1, 11, 5));
        assert_eq!(probe(&t, a.own, a.opp).map(|e| (e.lo, e.hi)), Some((1, 9)));
        // Contradicting bounds (impossible from true searches): ours are kept.
        learn(&mut t, entry(a.own, a.opp, 10, 12, 5));
        assert_eq!(probe(&t, a.own, a.opp).map(|e| (e.lo, e.hi)), Some((1, 9)));
        let shallow = SolverEntry {
            depth: 4,
            ..entry(7, 8, 0, 0, 1)
        };
        learn(&mut t, shallow);
        assert_eq!(probe(&t, 7, 8), None);
    }
}
