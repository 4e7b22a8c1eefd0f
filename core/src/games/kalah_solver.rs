//! Exact solving of Kalah: the final margin of a position under perfect play.
//!
//! What the published solvers (Irving, Donkers and Uiterwijk, 2000) use:
//! * **The value is the future margin.** Seeds in a store never come back, so what
//!   the side to move will still gain over its opponent depends on the pits alone.
//!   The solver works on the mover's row and the opponent's row (which also merges
//!   every position with its mirror image, the other side to move) and adds the
//!   stores at the root.
//! * **A transposition table keyed on the pits alone**, holding a lower and an upper
//!   bound of the future margin, in memory the caller provides ([`SolverTable`]: a
//!   slice of [`SolverEntry`] for one solver, or a [`SharedSolverTable`] of atomic
//!   words that solvers on several threads share without locks).
//! * **MTD(f)**: a sequence of null-window alpha-beta searches converging on the
//!   value, started from the guess of depth-limited MTD(f) passes
//!   ([`KalahSolver::estimate`], or iterative deepening inside a solve,
//!   [`SolverConfig::deepening_to`]), whose table entries also order the exact
//!   searches.
//! * **Move ordering**: the table move, then extra turns (the pit nearest the store
//!   first), then captures by size, then the seeds a move puts in the store.
//! * **Futility bounds from the seeds in play**: with `n` seeds left in the pits the
//!   future margin lies in `-n..=n`, so a window outside it is decided at once.
//! * **Endgame tables indexed by the seeds left on the board** ([`EndgameTables`]):
//!   the exact future margin of every position with at most `K` seeds in the pits,
//!   in caller-provided memory (the host keeps them on disk), built layer by layer
//!   by [`build_tables`]. A table for `P` pits serves every seed count per pit and
//!   depends on the capture rule.

use crate::game::{Game, Player};
use crate::games::kalah::{non_empty, pit, row_sum, sow, Kalah, KalahRules, Pit, Sown};
use crate::zobrist::mix64;
use core::sync::atomic::{AtomicI8, Ordering};

/// Most pits a row may have for the solver (as for the game).
const MAX_PARTS: usize = 16;

/// The largest seeds-in-play count an endgame table may cover: its values are
/// `i8`, and the future margin lies in `-n..=n`.
pub const MAX_TABLE_SEEDS: u32 = 126;

/// Binomial coefficients `C(a, k)` for `a < 272`, `k <= 16`, saturating at
/// `u64::MAX` (only small ones are ever used as offsets).
const BINOM_ROWS: usize = 272;
static BINOM: [[u64; MAX_PARTS + 1]; BINOM_ROWS] = {
    let mut t = [[0u64; MAX_PARTS + 1]; BINOM_ROWS];
    let mut a = 0;
    while a < BINOM_ROWS {
        t[a][0] = 1;
        let mut k = 1;
        while k <= MAX_PARTS {
            t[a][k] = if a == 0 {
                0
            } else {
                t[a - 1][k - 1].saturating_add(t[a - 1][k])
            };
            k += 1;
        }
        a += 1;
    }
    t
};

#[inline(always)]
fn binom(a: u32, k: u32) -> u64 {
    BINOM[a as usize][k as usize]
}

/// Entries of an endgame table for `pits` pits a row covering `0..=max_seeds`
/// seeds in play: the number of ways to lay out at most `max_seeds` seeds in
/// `2 × pits` pits, `C(max_seeds + 2·pits, 2·pits)`. `None` if it does not fit a
/// `usize` or the arguments are out of range.
pub fn table_len(pits: u8, max_seeds: u32) -> Option<usize> {
    if pits == 0 || pits > 8 || max_seeds > MAX_TABLE_SEEDS {
        return None;
    }
    let m = 2 * u32::from(pits);
    usize::try_from(binom(max_seeds + m, m)).ok()
}

/// Entries before the layer of `n` seeds: `C(n + m - 1, m)`.
#[inline(always)]
fn layer_offset(m: u32, n: u32) -> u64 {
    if n == 0 {
        0
    } else {
        binom(n + m - 1, m)
    }
}

/// Positions with exactly `n` seeds in `m` pits: `C(n + m - 1, m - 1)`.
#[inline(always)]
fn layer_len(m: u32, n: u32) -> u64 {
    binom(n + m - 1, m - 1)
}

/// The rank of the layout (`own` then `opp`, `pits` pits each, `n` seeds in all)
/// among the layouts of `n` seeds, by the combinatorial number system: the bars
/// between the pits, `b_j = c_0 + … + c_j + j`, are an increasing subset whose colex
/// rank is `Σ C(b_j, j + 1)`.
#[inline(always)]
fn rank(own: u64, opp: u64, pits: u32) -> u64 {
    let mut r = 0;
    let mut bar = 0u32;
    let mut j = 0u32;
    let mut w = own;
    for _ in 0..pits {
        bar += (w & 0xFF) as u32;
        w >>= 8;
        r += binom(bar + j, j + 1);
        j += 1;
    }
    let mut w = opp;
    for _ in 0..pits - 1 {
        bar += (w & 0xFF) as u32;
        w >>= 8;
        r += binom(bar + j, j + 1);
        j += 1;
    }
    r
}

/// Exact future margins of every position with few seeds in play, for one number of
/// pits and one capture rule, over caller-provided memory: entry
/// `offset(n) + rank(layout)` holds the future margin of the side to move.
///
/// The entries are `AtomicI8` so that several threads of the host can build one
/// layer together ([`build_layer`] on parts of it) without `unsafe`: two threads
/// that compute the same entry write the same value. Relaxed loads and stores
/// compile to plain byte moves.
#[derive(Clone, Copy, Debug)]
pub struct EndgameTables<'a> {
    pits: u32,
    empty_capture: bool,
    max_seeds: u32,
    values: &'a [AtomicI8],
}

/// The value an endgame table entry holds before it is computed: fill the layers
/// to build with it.
pub const UNKNOWN: i8 = i8::MIN;

impl<'a> EndgameTables<'a> {
    /// Tables covering `0..=max_seeds` seeds in play, read from `values`, which must
    /// be at least [`table_len`] long and built by [`build_tables`] or
    /// [`build_layer`] up to `max_seeds`.
    pub fn new(
        pits: u8,
        empty_capture: bool,
        max_seeds: u32,
        values: &'a [AtomicI8],
    ) -> Result<Self, &'static str> {
        let len = table_len(pits, max_seeds).ok_or("endgame table size out of range")?;
        if values.len() < len {
            return Err("endgame table memory is too short for its pits and seeds");
        }
        Ok(EndgameTables {
            pits: u32::from(pits),
            empty_capture,
            max_seeds,
            values: &values[..len],
        })
    }

    /// No tables at all (every position is searched).
    pub const fn none(pits: u8, empty_capture: bool) -> EndgameTables<'static> {
        EndgameTables {
            pits: pits as u32,
            empty_capture,
            max_seeds: 0,
            values: &[],
        }
    }

    /// The largest seeds-in-play count covered; `None` if there are no tables.
    pub fn max_seeds(&self) -> Option<u32> {
        if self.values.is_empty() {
            None
        } else {
            Some(self.max_seeds)
        }
    }

    /// The exact future margin for the mover of `own` against `opp` with `n` seeds in
    /// play, if the tables cover `n`.
    #[inline(always)]
    pub fn probe(&self, own: u64, opp: u64, n: u32) -> Option<i32> {
        self.index(own, opp, n).map(|i| self.value_at(i))
    }

    /// Where the entry of a position lies, if the tables cover `n` seeds in play.
    #[inline(always)]
    fn index(&self, own: u64, opp: u64, n: u32) -> Option<usize> {
        if n > self.max_seeds || self.values.is_empty() {
            return None;
        }
        let m = 2 * self.pits;
        Some((layer_offset(m, n) + rank(own, opp, self.pits)) as usize)
    }

    /// The entry at `i` (from [`EndgameTables::index`]).
    #[inline(always)]
    fn value_at(&self, i: usize) -> i32 {
        i32::from(self.values[i].load(Ordering::Relaxed))
    }
}

/// The entries of the layer of `n` seeds in play in a table for `pits` pits: the
/// range [`build_layer`] fills.
pub fn layer_range(pits: u8, n: u32) -> core::ops::Range<usize> {
    let m = 2 * u32::from(pits);
    let start = layer_offset(m, n) as usize;
    start..start + layer_len(m, n) as usize
}

/// Fills the layers `from_seeds..=max_seeds` of an endgame table on one thread (the
/// layers below `from_seeds` must already be in `values`, e.g. loaded from disk),
/// calling `progress(n)` after each layer. A table built to `K` seeds is the prefix
/// of one built to more.
pub fn build_tables(
    pits: u8,
    empty_capture: bool,
    max_seeds: u32,
    from_seeds: u32,
    values: &[AtomicI8],
    mut progress: impl FnMut(u32),
) -> Result<(), &'static str> {
    let len = table_len(pits, max_seeds).ok_or("endgame table size out of range")?;
    if values.len() < len {
        return Err("endgame table memory is too short for its pits and seeds");
    }
    for n in from_seeds..=max_seeds {
        let range = layer_range(pits, n);
        for v in values[range.clone()].iter() {
            v.store(UNKNOWN, Ordering::Relaxed);
        }
        build_layer(pits, empty_capture, n, values, 0..range.len())?;
        progress(n);
    }
    Ok(())
}

/// Computes the entries of ranks `ranks` (relative to the layer's start) of the
/// layer of `n` seeds in play. Every layer below `n` must be complete and the
/// layer's entries not yet computed must hold [`UNKNOWN`]. Threads may build parts
/// of one layer at once: an entry that needs another of the same layer computes it.
pub fn build_layer(
    pits: u8,
    empty_capture: bool,
    n: u32,
    values: &[AtomicI8],
    ranks: core::ops::Range<usize>,
) -> Result<(), &'static str> {
    if n > MAX_TABLE_SEEDS || pits == 0 || pits > 8 {
        return Err("endgame table size out of range");
    }
    let whole = layer_range(pits, n);
    if values.len() < whole.end || ranks.end > whole.len() {
        return Err("endgame table memory is too short for its pits and seeds");
    }
    let p = u32::from(pits);
    let m = 2 * p;
    let start = whole.start;
    let k = m as usize - 1;
    let top = n + m - 1; // bars are drawn from 0..top
    let mut bars = unrank(ranks.start as u64, k);
    for r in ranks {
        if values[start + r].load(Ordering::Relaxed) == UNKNOWN {
            let (own, opp) = unbar(&bars, p, n);
            debug_assert_eq!(rank(own, opp, p) as usize, r);
            let v = table_value(own, opp, p, n, empty_capture, values);
            values[start + r].store(v, Ordering::Relaxed);
        }
        // Next subset in colex order.
        let mut j = 0;
        while j < k {
            let limit = if j + 1 < k { bars[j + 1] } else { top };
            if bars[j] + 1 < limit {
                bars[j] += 1;
                for (i, b) in bars.iter_mut().enumerate().take(j) {
                    *b = i as u32;
                }
                break;
            }
            j += 1;
        }
    }
    Ok(())
}

/// The `k` bars of colex rank `r`: greedily the largest `b` with `C(b, j+1) <= r`.
fn unrank(mut r: u64, k: usize) -> [u32; MAX_PARTS] {
    let mut bars = [0u32; MAX_PARTS];
    let mut hi = BINOM_ROWS as u32 - 1;
    for j in (0..k).rev() {
        let mut b = hi;
        while b > j as u32 && binom(b, j as u32 + 1) > r {
            b -= 1;
        }
        bars[j] = b;
        r -= binom(b, j as u32 + 1);
        hi = b.saturating_sub(1);
    }
    bars
}

/// The rows of the layout whose bars are `bars` (`n` seeds, `2 × pits` pits).
fn unbar(bars: &[u32; MAX_PARTS], pits: u32, n: u32) -> (u64, u64) {
    let m = 2 * pits as usize;
    let mut counts = [0u32; MAX_PARTS];
    let mut prev: i64 = -1;
    for j in 0..m - 1 {
        counts[j] = (i64::from(bars[j]) - prev - 1) as u32;
        prev = i64::from(bars[j]);
    }
    counts[m - 1] = (i64::from(n + m as u32 - 1) - prev - 1) as u32;
    let (mut own, mut opp) = (0u64, 0u64);
    for i in 0..pits as usize {
        own |= u64::from(counts[i]) << (8 * i);
        opp |= u64::from(counts[pits as usize + i]) << (8 * i);
    }
    (own, opp)
}

/// The exact future margin of a table position, by full minimax over its moves:
/// children with fewer seeds are in earlier layers; children with as many (a sowing
/// that stays in the mover's row) are computed first, recursively. That recursion
/// ends: such a sowing moves seeds towards their owner's store, so the sum over
/// seeds of the distance to their row's store strictly falls.
fn table_value(own: u64, opp: u64, pits: u32, n: u32, ec: bool, values: &[AtomicI8]) -> i8 {
    if own == 0 || opp == 0 {
        return (row_sum(own) as i32 - row_sum(opp) as i32) as i8;
    }
    let m = 2 * pits;
    let mut best = i32::MIN;
    // First every child's index, then all the loads together (they miss the cache
    // independently, so the processor overlaps them), then the rare recursion.
    let mut idx = [0usize; 8];
    let mut gain = [0i32; 8];
    let mut sign = [0i32; 8];
    let mut rows = [(0u64, 0u64, 0u32); 8];
    let mut count = 0;
    let mut bits = non_empty(own);
    while bits != 0 {
        let i = bits.trailing_zeros() / 8;
        bits &= bits - 1;
        let s = sow(own, opp, pits, i, ec);
        if s.game_over {
            best = best.max(s.gain as i32 - s.opp_gain as i32);
            continue;
        }
        let (a, b) = if s.extra_turn {
            (s.own, s.opp)
        } else {
            (s.opp, s.own)
        };
        let cn = n - s.gain;
        idx[count] = (layer_offset(m, cn) + rank(a, b, pits)) as usize;
        gain[count] = s.gain as i32;
        sign[count] = if s.extra_turn { 1 } else { -1 };
        rows[count] = (a, b, cn);
        count += 1;
    }
    let mut cvs = [0i8; 8];
    for k in 0..count {
        cvs[k] = values[idx[k]].load(Ordering::Relaxed);
    }
    for k in 0..count {
        let mut cv = cvs[k];
        if cv == UNKNOWN {
            let (a, b, cn) = rows[k];
            cv = table_value(a, b, pits, cn, ec, values);
            values[idx[k]].store(cv, Ordering::Relaxed);
        }
        best = best.max(gain[k] + sign[k] * i32::from(cv));
    }
    best as i8
}

/// One slot of the solver's transposition table: the rows, bounds on the future
/// margin, the best move and how much work the bounds cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolverEntry {
    own: u64,
    opp: u64,
    lo: i16,
    hi: i16,
    /// Best move + 1 (0: none).
    mv: u8,
    /// Depth searched (`EXACT_DEPTH` = to the end of the game).
    depth: u8,
    /// log2 of the nodes the search of this entry cost, for replacement.
    work: u8,
    /// Generation (solve) the entry was written in.
    generation: u8,
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
    /// Reads the memory of `slot` without decoding it, so that a later
    /// [`SolverTable::load`] finds it in the cache (the caller combines the
    /// results so that the reads are not optimised away).
    fn touch(&self, slot: usize) -> u64;
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
    fn touch(&self, slot: usize) -> u64 {
        self[slot].own
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
    fn base(slot: usize) -> usize {
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
    fn touch(&self, slot: usize) -> u64 {
        self.words[Self::base(slot)].load(Ordering::Relaxed)
    }
}

const EXACT_DEPTH: u8 = u8::MAX;

/// How a solve is going, passed to [`SolveControl::progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolveProgress {
    /// The depth of the current pass; `None` for the exact (full-depth) passes.
    pub depth: Option<u32>,
    /// The bounds on the future margin established so far by the current pass.
    pub lower: i32,
    /// The upper bound.
    pub upper: i32,
    /// Nodes searched so far in the whole solve.
    pub nodes: u64,
    /// Endgame table probes that ended a line.
    pub table_hits: u64,
    /// Filled transposition-table slots, per thousand (sampled).
    pub tt_fill_permille: u32,
}

/// What a solve reports to and asks of its caller.
pub trait SolveControl {
    /// Called after each null-window pass and every 2^20 nodes.
    fn progress(&mut self, _p: &SolveProgress) {}
    /// Polled every 2^16 nodes; `true` stops the solve with [`Interrupted`].
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// A control that reports nothing and never stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl SolveControl for Quiet {}

/// The solve was stopped by [`SolveControl::should_stop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Interrupted;

impl core::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the solve was interrupted")
    }
}

/// Switches for the solver's parts, to measure what each is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolverConfig {
    /// Run depth-limited MTD(f) passes of these depths (step 2 from 2) before the
    /// exact search; 0: none.
    pub deepening_to: u32,
    /// Order moves (table move, extra turns, captures); off: generation order.
    pub ordering: bool,
    /// Look the children up in the transposition table before searching any
    /// (enhanced transposition cutoff) only at nodes with at least this many seeds
    /// in play: near the endgame tables the lookups cost more cache misses than
    /// the cutoffs save. 0: everywhere.
    pub etc_from_seeds: u32,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            deepening_to: 0,
            ordering: true,
            etc_from_seeds: 0,
        }
    }
}

/// The exact Kalah solver over a caller-provided transposition table and optional
/// endgame tables.
pub struct KalahSolver<'d, T: SolverTable> {
    tt: T,
    tables: EndgameTables<'d>,
    pits: u32,
    empty_capture: bool,
    config: SolverConfig,
    nodes: u64,
    table_hits: u64,
    generation: u8,
    stopped: bool,
    depth_limit: Option<u32>,
    bounds: (i32, i32),
    /// The search stops (without storing anything) once `nodes` exceeds this.
    node_limit: u64,
    /// The search stopped at `node_limit` (not at the caller's request).
    over_budget: bool,
}

const INF: i32 = 10_000;

impl<'t, 'd> KalahSolver<'d, &'t mut [SolverEntry]> {
    /// A solver for `rules` (the seeds per pit do not matter) using `tt` as its
    /// transposition table (cleared) and `tables` for endgames, which must be for
    /// the same pits and capture rule.
    pub fn new(
        rules: KalahRules,
        tt: &'t mut [SolverEntry],
        tables: EndgameTables<'d>,
    ) -> Result<Self, &'static str> {
        for e in tt.iter_mut() {
            *e = SolverEntry::EMPTY;
        }
        Self::with_table(rules, tt, tables)
    }
}

impl<'d, T: SolverTable> KalahSolver<'d, T> {
    /// A solver like [`KalahSolver::new`] over any table memory, used as it is
    /// (not cleared: several solvers may share a [`SharedSolverTable`], and what
    /// one proves the others use).
    pub fn with_table(
        rules: KalahRules,
        tt: T,
        tables: EndgameTables<'d>,
    ) -> Result<Self, &'static str> {
        if tables.pits != u32::from(rules.pits) || tables.empty_capture != rules.empty_capture {
            return Err("the endgame tables are for another number of pits or capture rule");
        }
        Ok(KalahSolver {
            tt,
            tables,
            pits: u32::from(rules.pits),
            empty_capture: rules.empty_capture,
            config: SolverConfig::default(),
            nodes: 0,
            table_hits: 0,
            generation: 1,
            stopped: false,
            depth_limit: None,
            bounds: (-INF, INF),
            node_limit: u64::MAX,
            over_budget: false,
        })
    }

    /// Replaces the configuration.
    pub fn set_config(&mut self, config: SolverConfig) {
        self.config = config;
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Endgame table probes that ended a line since the solver was made.
    pub fn table_hits(&self) -> u64 {
        self.table_hits
    }

    /// The first player's final margin (its store minus the second player's at the
    /// end) under perfect play from `game`.
    pub fn solve(
        &mut self,
        game: &Kalah,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        let (own, opp) = game.rows_for_mover();
        // Bounds left in the table by earlier solves (e.g. of the sibling moves)
        // make a better first guess for MTD(f) than 0.
        let n = (row_sum(own) + row_sum(opp)) as i32;
        let guess = match self.probe_tt(own, opp) {
            Some(e) if e.depth == EXACT_DEPTH && i32::from(e.lo) > -n => i32::from(e.lo),
            Some(e) if e.depth == EXACT_DEPTH && i32::from(e.hi) < n => i32::from(e.hi),
            _ => 0,
        };
        let future = self.future_margin(own, opp, guess, control)?;
        Ok(first_player_margin(game, future))
    }

    /// Bounds on the first player's final margin from `game` under perfect play,
    /// given that it is known to lie in `lower..=upper` (e.g. from the parent's
    /// value; pass wide bounds when nothing is known). MTD(f) starts from `guess`;
    /// its first null-window pass always completes, and later passes stop once
    /// they have spent `max_nodes` nodes in all, leaving the bounds proved so far:
    /// the result `(lo, hi)` is exact when `lo == hi`.
    ///
    /// With `upper` the parent's value `V` and `guess = V`, the first pass decides
    /// whether the move is a best one (then `lo == hi == V`); otherwise it proves
    /// `hi < V`, and further passes narrow that down as far as the budget allows.
    pub fn solve_bounded(
        &mut self,
        game: &Kalah,
        lower: i32,
        upper: i32,
        guess: i32,
        max_nodes: u64,
        control: &mut impl SolveControl,
    ) -> Result<(i32, i32), Interrupted> {
        let (own, opp) = game.rows_for_mover();
        if own == 0 || opp == 0 {
            let v = first_player_margin(game, row_sum(own) as i32 - row_sum(opp) as i32);
            return Ok((v, v));
        }
        let stores = first_player_margin(game, 0);
        // The first player's margin is `stores + future` when it moves, else
        // `stores - future`.
        let first = game.side_to_move() == Player::First;
        let to_future = |m: i32| if first { m - stores } else { stores - m };
        let (f_lo, f_hi) = if first {
            (to_future(lower), to_future(upper))
        } else {
            (to_future(upper), to_future(lower))
        };
        self.generation = self.generation.wrapping_add(1).max(1);
        self.stopped = false;
        self.depth_limit = None;
        let (lo, hi) =
            self.mtdf_bounded(own, opp, f_lo, f_hi, to_future(guess), max_nodes, control)?;
        let (a, b) = (first_player_margin(game, lo), first_player_margin(game, hi));
        Ok((a.min(b), a.max(b)))
    }

    /// A heuristic estimate of the first player's final margin from `game`: MTD(f)
    /// passes searching `depth` plies (2, 4, ... up to `depth`), counting the
    /// seeds still on the board as nobody's (the seed's store difference) where a
    /// line is cut off. Endgame tables still end lines exactly. The estimate is a
    /// first guess for [`KalahSolver::solve_bounded`]; the table entries it leaves
    /// only order moves for the exact search.
    pub fn estimate(
        &mut self,
        game: &Kalah,
        depth: u32,
        guess: i32,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        let (own, opp) = game.rows_for_mover();
        if own == 0 || opp == 0 || depth == 0 {
            let v = first_player_margin(game, row_sum(own) as i32 - row_sum(opp) as i32);
            return Ok(if depth == 0 {
                first_player_margin(game, 0)
            } else {
                v
            });
        }
        let stores = first_player_margin(game, 0);
        let first = game.side_to_move() == Player::First;
        let mut g = if first {
            guess - stores
        } else {
            stores - guess
        };
        self.generation = self.generation.wrapping_add(1).max(1);
        self.stopped = false;
        let mut d = 2 - depth % 2;
        while d <= depth {
            self.depth_limit = Some(d);
            g = self.mtdf(own, opp, g, control)?;
            d += 2;
        }
        self.depth_limit = None;
        Ok(first_player_margin(game, g))
    }

    /// The first player's final margin after each legal move of `game`, under
    /// perfect play from there; `out` receives `(move, margin)` in generation order.
    /// The moves share the transposition table, so each solve reuses what the
    /// earlier ones proved (their subtrees overlap through transpositions).
    pub fn solve_moves(
        &mut self,
        game: &Kalah,
        control: &mut impl SolveControl,
        mut out: impl FnMut(Pit, i32),
    ) -> Result<(), Interrupted> {
        for &mv in game.legal_moves().iter() {
            let child = game.play_unchecked(mv);
            let v = if child.outcome().is_over() {
                first_player_margin(&child, 0)
            } else {
                self.solve(&child, control)?
            };
            out(mv, v);
        }
        Ok(())
    }

    /// The exact future margin for the mover of `own` against `opp`, starting MTD(f)
    /// from `guess`.
    pub fn future_margin(
        &mut self,
        own: u64,
        opp: u64,
        guess: i32,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        self.generation = self.generation.wrapping_add(1).max(1);
        self.stopped = false;
        if own == 0 || opp == 0 {
            return Ok(row_sum(own) as i32 - row_sum(opp) as i32);
        }
        let mut guess = guess;
        let mut d = 2;
        while d <= self.config.deepening_to {
            self.depth_limit = Some(d);
            guess = self.mtdf(own, opp, guess, control)?;
            d += 2;
        }
        self.depth_limit = None;
        self.mtdf(own, opp, guess, control)
    }

    fn mtdf(
        &mut self,
        own: u64,
        opp: u64,
        guess: i32,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        let n = (row_sum(own) + row_sum(opp)) as i32;
        self.mtdf_bounded(own, opp, -n, n, guess, u64::MAX, control)
            .map(|(lo, _)| lo)
    }

    /// MTD(f) within the known bounds `lo..=hi` on the future margin; passes after
    /// the first stop once they have spent `max_nodes` nodes, returning the bounds
    /// proved so far (`lo == hi`: exact; for a depth-limited pass, `lo` is the
    /// last guess).
    #[allow(clippy::too_many_arguments)]
    fn mtdf_bounded(
        &mut self,
        own: u64,
        opp: u64,
        lo: i32,
        hi: i32,
        guess: i32,
        max_nodes: u64,
        control: &mut impl SolveControl,
    ) -> Result<(i32, i32), Interrupted> {
        let n = (row_sum(own) + row_sum(opp)) as i32;
        let (mut lo, mut hi) = (lo.max(-n), hi.min(n));
        if lo >= hi {
            return Ok((lo, hi));
        }
        let mut g = guess.clamp(lo, hi);
        let mut budget_from = None;
        // Each pass tests one bound; a run of passes moving the same way (a bad
        // first guess, e.g. 0 for a losing move) doubles its step, so reaching a
        // value `d` away costs about log2(d) passes instead of d/2.
        let mut step = 1i32;
        let mut last_up = None;
        while lo < hi {
            let up = g == lo;
            step = if last_up == Some(up) { step * 2 } else { 1 };
            last_up = Some(up);
            // The null window (beta - 1, beta) with lo < beta <= hi.
            let beta = if up {
                (g + step).min(hi)
            } else {
                (g - step + 1).max(lo + 1)
            };
            self.bounds = (lo, hi);
            let depth = self.depth_limit.unwrap_or(u32::MAX);
            self.over_budget = false;
            self.node_limit = match budget_from {
                Some(start) => max_nodes.saturating_add(start),
                None => u64::MAX,
            };
            g = self.search(own, opp, beta - 1, beta, depth, control);
            self.node_limit = u64::MAX;
            if self.stopped {
                if self.over_budget {
                    // Out of budget: the bounds proved by the finished passes stand.
                    self.stopped = false;
                    return Ok((lo, hi));
                }
                return Err(Interrupted);
            }
            budget_from.get_or_insert(self.nodes);
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
            self.bounds = (lo, hi);
            control.progress(&self.progress());
        }
        Ok((g, g))
    }

    fn progress(&self) -> SolveProgress {
        let sample = self.tt.slots().min(4096);
        let used = (0..sample)
            .filter(|&i| self.tt.load(i).generation != 0)
            .count();
        SolveProgress {
            depth: self.depth_limit,
            lower: self.bounds.0,
            upper: self.bounds.1,
            nodes: self.nodes,
            table_hits: self.table_hits,
            tt_fill_permille: (used * 1000).checked_div(sample).unwrap_or(0) as u32,
        }
    }

    /// The first slot of the two-slot bucket of a position.
    #[inline(always)]
    fn bucket(&self, own: u64, opp: u64) -> usize {
        let h = mix64(own ^ mix64(opp ^ 0x004b_414c_4148));
        let buckets = self.tt.slots() / 2;
        2 * (((u128::from(h) * buckets as u128) >> 64) as usize)
    }

    /// The table entry of a position, if present.
    #[inline(always)]
    fn probe_tt(&self, own: u64, opp: u64) -> Option<SolverEntry> {
        if self.tt.slots() < 2 {
            return None;
        }
        let b = self.bucket(own, opp);
        for i in b..b + 2 {
            let e = self.tt.load(i);
            if e.own == own && e.opp == opp && e.generation != 0 {
                return Some(e);
            }
        }
        None
    }

    /// Stores bounds `lo..=hi` of a position, searched to `depth` at a cost of
    /// `work` (log2 nodes). Each bucket keeps the position's own slot if it has
    /// one, else replaces the less valuable entry: empty first, then by work, an
    /// exact entry (valid forever) above any depth-limited one, and one of an
    /// earlier solve a little below one of this solve.
    #[inline(always)]
    fn store_tt(&mut self, own: u64, opp: u64, e: SolverEntry) {
        if self.tt.slots() < 2 {
            return;
        }
        let b = self.bucket(own, opp);
        let gen = self.generation;
        let pair = [self.tt.load(b), self.tt.load(b + 1)];
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
        self.tt.save(b + i, e);
    }

    /// Fail-soft alpha-beta on the future margin of the mover of `own` vs `opp`,
    /// `depth` plies deep (`u32::MAX`: to the end, exact).
    fn search(
        &mut self,
        own: u64,
        opp: u64,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        control: &mut impl SolveControl,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.stopped = true;
            self.over_budget = true;
        }
        if self.nodes & 0xFFFF == 0 {
            if control.should_stop() {
                self.stopped = true;
            }
            if self.nodes & 0xF_FFFF == 0 {
                control.progress(&self.progress());
            }
        }
        if self.stopped {
            return 0;
        }
        let n = row_sum(own) + row_sum(opp);
        if let Some(v) = self.tables.probe(own, opp, n) {
            self.table_hits += 1;
            return v;
        }
        let ni = n as i32;
        // Futility: the future margin lies in -n..=n.
        if alpha >= ni {
            return ni;
        }
        if beta <= -ni {
            return -ni;
        }
        if depth == 0 {
            return 0;
        }
        let exact = depth == u32::MAX;
        let want_depth = if exact {
            EXACT_DEPTH
        } else {
            depth.min(254) as u8
        };

        let mut tt_move = u8::MAX;
        let (mut lo, mut hi) = (-ni, ni);
        let old = self.probe_tt(own, opp);
        if let Some(e) = old {
            tt_move = e.mv.wrapping_sub(1);
            if e.depth >= want_depth {
                lo = lo.max(i32::from(e.lo));
                hi = hi.min(i32::from(e.hi));
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
        }

        // Sow every move first and start the memory loads the moves will need (their
        // children's endgame-table entries, or table buckets for the enhanced
        // transposition cutoff below) all at once: the loads are independent, so
        // their cache misses overlap instead of coming one after another.
        let child_depth = if exact { depth } else { depth - 1 };
        let child_want = if exact {
            EXACT_DEPTH
        } else {
            child_depth.min(254) as u8
        };
        let etc_here = n >= self.config.etc_from_seeds && self.tt.slots() >= 2;
        let mut gen_sown = [EMPTY_SOWN; 8];
        let mut gen_pit = [0u8; 8];
        let mut gen_slot = [Slot::None; 8];
        let mut moves = 0usize;
        let mut touch = 0u64;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let s = sow(own, opp, self.pits, i, self.empty_capture);
            if !s.game_over && child_depth != 0 {
                let (a, b) = if s.extra_turn {
                    (s.own, s.opp)
                } else {
                    (s.opp, s.own)
                };
                if let Some(t) = self.tables.index(a, b, n - s.gain) {
                    touch ^= self.tables.value_at(t) as u64;
                    gen_slot[moves] = Slot::Table(t);
                } else if etc_here {
                    let bk = self.bucket(a, b);
                    touch ^= self.tt.touch(bk) ^ self.tt.touch(bk + 1);
                    gen_slot[moves] = Slot::Bucket;
                }
            }
            gen_sown[moves] = s;
            gen_pit[moves] = i as u8;
            moves += 1;
        }
        core::hint::black_box(touch);

        // Settle the moves whose value is known without a search (game over, a child
        // in the endgame tables, a child whose table bounds refute the window: the
        // enhanced transposition cutoff) and order the others.
        let mut sown = [EMPTY_SOWN; 8];
        let mut keys = [0i64; 8];
        let mut known = [None::<i32>; 8];
        let mut order = [0u8; 8];
        let mut count = 0usize;
        let mut best = -INF;
        let mut best_move = 0u8;
        for m in 0..moves {
            let s = gen_sown[m];
            let i = gen_pit[m];
            let g = s.gain as i32;
            let mut value = None;
            let mut key;
            if s.game_over {
                value = Some(g - s.opp_gain as i32);
                key = 0;
            } else {
                let sign = if s.extra_turn { 1 } else { -1 };
                if child_depth == 0 {
                    // The horizon: the child's future margin counts as 0.
                    value = Some(g);
                } else if let Slot::Table(t) = gen_slot[m] {
                    self.table_hits += 1;
                    value = Some(g + sign * self.tables.value_at(t));
                } else if gen_slot[m] == Slot::Bucket {
                    let (a, b) = if s.extra_turn {
                        (s.own, s.opp)
                    } else {
                        (s.opp, s.own)
                    };
                    if let Some(e) = self.probe_tt(a, b) {
                        if e.depth >= child_want {
                            // The parent's bounds for this move from the child's.
                            let (clo, chi) = (i32::from(e.lo), i32::from(e.hi));
                            let (vlo, vhi) = if s.extra_turn {
                                (g + clo, g + chi)
                            } else {
                                (g - chi, g - clo)
                            };
                            if vlo == vhi || vlo >= beta {
                                value = Some(vlo);
                            }
                        }
                    }
                }
                key = if !self.config.ordering {
                    0
                } else if i == tt_move {
                    1 << 40
                } else if s.extra_turn {
                    (1 << 38) + i64::from(i)
                } else if s.captured > 0 {
                    (1 << 36) + i64::from(s.captured)
                } else {
                    // Quiet moves: by seeds sown into the store, then the pit
                    // nearest the store.
                    8 * i64::from(s.gain) + i64::from(i)
                };
            }
            if let Some(v) = value {
                // Settled moves go first: they cost nothing and set alpha.
                key = 1 << 42;
                if v > best {
                    best = v;
                    best_move = i;
                }
            }
            let mut j = count;
            while j > 0 && keys[j - 1] < key {
                keys[j] = keys[j - 1];
                sown[j] = sown[j - 1];
                order[j] = order[j - 1];
                known[j] = known[j - 1];
                j -= 1;
            }
            keys[j] = key;
            sown[j] = s;
            order[j] = i;
            known[j] = value;
            count += 1;
        }

        let alpha_orig = alpha;
        let nodes_before = self.nodes;
        if best >= beta {
            // A settled move refutes the window.
            count = 0;
        } else if best > alpha {
            alpha = best;
        }
        for k in 0..count {
            if known[k].is_some() {
                continue;
            }
            let s = sown[k];
            let g = s.gain as i32;
            let v = if s.extra_turn {
                g + self.search(s.own, s.opp, alpha - g, beta - g, child_depth, control)
            } else {
                g - self.search(s.opp, s.own, g - beta, g - alpha, child_depth, control)
            };
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = order[k];
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let work = (64 - (self.nodes - nodes_before).leading_zeros()) as u8;
        let (mut elo, mut ehi) = match old {
            Some(e) if e.depth == want_depth => (i32::from(e.lo), i32::from(e.hi)),
            _ => (-ni, ni),
        };
        if best <= alpha_orig {
            ehi = ehi.min(best);
        } else if best >= beta {
            elo = elo.max(best);
        } else {
            elo = best;
            ehi = best;
        }
        let prev_work = old.map_or(0, |e| e.work);
        self.store_tt(
            own,
            opp,
            SolverEntry {
                own,
                opp,
                lo: elo as i16,
                hi: ehi as i16,
                mv: best_move + 1,
                depth: want_depth,
                work: work.max(prev_work),
                generation: self.generation,
            },
        );
        best
    }
}

/// What a move's child is looked up in before the search.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Nothing (searched, or settled without a lookup).
    None,
    /// The endgame-table entry at this index.
    Table(usize),
    /// The transposition table (enhanced transposition cutoff).
    Bucket,
}

const EMPTY_SOWN: Sown = Sown {
    own: 0,
    opp: 0,
    gain: 0,
    opp_gain: 0,
    captured: 0,
    extra_turn: false,
    game_over: false,
};

/// The first player's final margin from `game` given the mover's future margin.
fn first_player_margin(game: &Kalah, future: i32) -> i32 {
    let stores = game.store(Player::First) as i32 - game.store(Player::Second) as i32;
    match game.side_to_move() {
        Player::First => stores + future,
        Player::Second => stores - future,
    }
}

/// The exact future margin by plain minimax, no table, no pruning: the reference
/// the tests hold the solver and the endgame tables to (small boards only).
pub fn minimax_future_margin(own: u64, opp: u64, pits: u32, empty_capture: bool) -> i32 {
    if own == 0 || opp == 0 {
        return row_sum(own) as i32 - row_sum(opp) as i32;
    }
    let mut best = i32::MIN;
    for i in 0..pits {
        if pit(own, i) == 0 {
            continue;
        }
        let s = sow(own, opp, pits, i, empty_capture);
        let v = if s.game_over {
            s.gain as i32 - s.opp_gain as i32
        } else if s.extra_turn {
            s.gain as i32 + minimax_future_margin(s.own, s.opp, pits, empty_capture)
        } else {
            s.gain as i32 - minimax_future_margin(s.opp, s.own, pits, empty_capture)
        };
        best = best.max(v);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::sync::atomic::AtomicU64;

    fn rules(p: u8, s: u8, ec: bool) -> KalahRules {
        KalahRules::new(p, s).unwrap().with_empty_capture(ec)
    }

    fn solve_plain(r: KalahRules) -> i32 {
        let mut tt = [SolverEntry::EMPTY; 1 << 12];
        let mut s =
            KalahSolver::new(r, &mut tt, EndgameTables::none(r.pits, r.empty_capture)).unwrap();
        s.solve(&Kalah::new(r), &mut Quiet).unwrap()
    }

    #[test]
    fn rank_is_a_bijection_onto_each_layer() {
        // 2 pits a row, up to 6 seeds: every layout once, ranks 0..len.
        let p = 2;
        for n in 0..=6u32 {
            let len = layer_len(4, n) as usize;
            let mut seen = [false; 100];
            for a in 0..=n {
                for b in 0..=n - a {
                    for c in 0..=n - a - b {
                        let d = n - a - b - c;
                        let own = u64::from(a) | u64::from(b) << 8;
                        let opp = u64::from(c) | u64::from(d) << 8;
                        let r = rank(own, opp, p) as usize;
                        assert!(r < len);
                        assert!(!seen[r]);
                        seen[r] = true;
                    }
                }
            }
            assert!(seen[..len].iter().all(|&x| x));
        }
    }

    #[test]
    fn layers_built_in_parts_out_of_order_match_one_pass() {
        let (p, k) = (3u8, 9u32);
        let len = table_len(p, k).unwrap();
        let whole = [const { AtomicI8::new(UNKNOWN) }; 5005];
        build_tables(p, false, k, 0, &whole[..len], |_| {}).unwrap();
        let parts = [const { AtomicI8::new(UNKNOWN) }; 5005];
        for n in 0..=k {
            let l = layer_range(p, n).len();
            let cut = l / 3;
            // The upper part first, then the lower one, then all of it again.
            build_layer(p, false, n, &parts[..len], cut..l).unwrap();
            build_layer(p, false, n, &parts[..len], 0..cut).unwrap();
            build_layer(p, false, n, &parts[..len], 0..l).unwrap();
        }
        for i in 0..len {
            assert_eq!(
                whole[i].load(Ordering::Relaxed),
                parts[i].load(Ordering::Relaxed)
            );
        }
        assert!(whole[..len]
            .iter()
            .all(|v| v.load(Ordering::Relaxed) != UNKNOWN));
    }

    #[test]
    fn unrank_inverts_rank() {
        let p = 3u32;
        for n in [0u32, 1, 5, 9] {
            for r in 0..layer_len(2 * p, n) {
                let bars = unrank(r, 2 * p as usize - 1);
                let (own, opp) = unbar(&bars, p, n);
                assert_eq!(rank(own, opp, p), r);
                assert_eq!(row_sum(own) + row_sum(opp), n);
            }
        }
    }

    #[test]
    fn table_sizes() {
        assert_eq!(table_len(6, 0), Some(1));
        assert_eq!(table_len(6, 1), Some(13));
        assert_eq!(table_len(6, 16), Some(30_421_755));
        assert_eq!(table_len(9, 1), None);
    }

    #[test]
    fn tables_match_minimax_on_small_boards() {
        for ec in [false, true] {
            for p in 1..=3u8 {
                let k = 8;
                let len = table_len(p, k).unwrap();
                let values = [const { AtomicI8::new(0) }; 3003];
                build_tables(p, ec, k, 0, &values[..len], |_| {}).unwrap();
                let t = EndgameTables::new(p, ec, k, &values[..len]).unwrap();
                // Every layout of up to k seeds with both rows non-empty.
                let m = 2 * u32::from(p);
                for n in 0..=k {
                    let mut bars = [0u32; MAX_PARTS];
                    for (j, b) in bars.iter_mut().enumerate().take(m as usize - 1) {
                        *b = j as u32;
                    }
                    for _ in 0..layer_len(m, n) {
                        let (own, opp) = unbar(&bars, u32::from(p), n);
                        let want = minimax_future_margin(own, opp, u32::from(p), ec);
                        assert_eq!(t.probe(own, opp, n), Some(want), "p {} n {}", p, n);
                        // next colex subset
                        let kk = m as usize - 1;
                        let mut j = 0;
                        while j < kk {
                            let limit = if j + 1 < kk { bars[j + 1] } else { n + m - 1 };
                            if bars[j] + 1 < limit {
                                bars[j] += 1;
                                for (i, b) in bars.iter_mut().enumerate().take(j) {
                                    *b = i as u32;
                                }
                                break;
                            }
                            j += 1;
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn solver_matches_minimax_on_small_games() {
        for ec in [false, true] {
            for &(p, s) in &[(1u8, 1u8), (1, 4), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1)] {
                let r = rules(p, s, ec);
                let g = Kalah::new(r);
                let (own, opp) = g.rows_for_mover();
                let want = minimax_future_margin(own, opp, u32::from(p), ec);
                assert_eq!(solve_plain(r), want, "{}", r);
            }
        }
    }

    /// The bounded solve of each first move, given the root value: with no
    /// budget it is exact; with none left after the first pass, best moves are
    /// still exact and the others get a sound upper bound below the root value.
    /// Mid-game positions with the second player to move are covered too.
    #[test]
    fn bounded_solves_bracket_the_exact_move_values() {
        for ec in [false, true] {
            for &(p, s, after) in &[
                (3u8, 3u8, 0usize),
                (4, 2, 0),
                (4, 3, 0),
                (3, 4, 1),
                (4, 3, 2),
            ] {
                let r = rules(p, s, ec);
                let mut g = Kalah::new(r);
                for _ in 0..after {
                    g = g.play_unchecked(g.legal_moves()[0]);
                }
                let none = EndgameTables::none(p, ec);
                let mut tt = [SolverEntry::EMPTY; 1 << 12];
                let mut exact: heapless::Vec<(Pit, i32), 8> = heapless::Vec::new();
                KalahSolver::new(r, &mut tt, none)
                    .unwrap()
                    .solve_moves(&g, &mut Quiet, |m, v| exact.push((m, v)).unwrap())
                    .unwrap();
                let first = g.side_to_move() == Player::First;
                // Root value for the first player's margin.
                let root = if first {
                    exact.iter().map(|e| e.1).max().unwrap()
                } else {
                    exact.iter().map(|e| e.1).min().unwrap()
                };
                let (lower, upper) = if first { (-100, root) } else { (root, 100) };
                for budget in [u64::MAX, 0, 50] {
                    let mut tt = [SolverEntry::EMPTY; 1 << 12];
                    let mut solver = KalahSolver::new(r, &mut tt, none).unwrap();
                    for &(m, v) in &exact {
                        let child = g.play_unchecked(m);
                        let (lo, hi) = solver
                            .solve_bounded(&child, lower, upper, root, budget, &mut Quiet)
                            .unwrap();
                        assert!(lo <= v && v <= hi, "{} {:?} {} {}..{}", r, m, v, lo, hi);
                        if budget == u64::MAX || v == root {
                            assert_eq!((lo, hi), (v, v), "{} {:?} budget {}", r, m, budget);
                        } else if first {
                            assert!(hi < root, "{} {:?}", r, m);
                        } else {
                            assert!(lo > root, "{} {:?}", r, m);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn published_small_values() {
        assert_eq!(solve_plain(rules(3, 3, false)), 2);
        assert_eq!(solve_plain(rules(4, 3, false)), 6);
    }

    /// Random positions of small boards under every configuration (deepening or
    /// not, tables or not, a table of 2 slots that replaces all the time): the same
    /// values as plain minimax.
    #[test]
    fn solver_matches_minimax_on_random_positions_in_every_configuration() {
        let mut state = 99u64;
        for &(p, sd, ec) in &[
            (3u8, 2u8, false),
            (3, 2, true),
            (2, 3, false),
            (2, 3, true),
            (4, 1, false),
            (4, 1, true),
        ] {
            let r = rules(p, sd, ec);
            let k = 5;
            let len = table_len(p, k).unwrap();
            let all = [const { AtomicI8::new(UNKNOWN) }; 2048];
            let values = &all[..len];
            build_tables(p, ec, k, 0, values, |_| {}).unwrap();
            for _ in 0..40 {
                let mut g = Kalah::new(r);
                let (st, x) = crate::zobrist::splitmix64(state);
                state = st;
                for _ in 0..(x % 6) {
                    let moves = g.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let (st, y) = crate::zobrist::splitmix64(state);
                    state = st;
                    g = g.play_unchecked(moves[(y % moves.len() as u64) as usize]);
                }
                let (own, opp) = g.rows_for_mover();
                let future = minimax_future_margin(own, opp, u32::from(p), ec);
                let want = first_player_margin(&g, future);
                for slots in [2usize, 1 << 10] {
                    for deepening_to in [0u32, 6] {
                        for with_tables in [false, true] {
                            let tables = if with_tables {
                                EndgameTables::new(p, ec, k, values).unwrap()
                            } else {
                                EndgameTables::none(p, ec)
                            };
                            let config = SolverConfig {
                                deepening_to,
                                ordering: true,
                                etc_from_seeds: if with_tables { 8 } else { 0 },
                            };
                            let mut all_slots = [SolverEntry::EMPTY; 1 << 10];
                            let tt = &mut all_slots[..slots];
                            let mut s = KalahSolver::new(r, tt, tables).unwrap();
                            s.set_config(config);
                            assert_eq!(s.solve(&g, &mut Quiet).unwrap(), want, "{:?}", g);
                            // A shallow estimate first leaves depth-limited entries
                            // that must not change the exact value.
                            let words = [const { AtomicU64::new(0) }; 4 << 10];
                            let shared = SharedSolverTable::new(
                                &words[..slots / 2 * SharedSolverTable::BUCKET_WORDS],
                            );
                            let mut s = KalahSolver::with_table(r, shared, tables).unwrap();
                            s.set_config(config);
                            s.estimate(&g, 3, 0, &mut Quiet).unwrap();
                            assert_eq!(s.solve(&g, &mut Quiet).unwrap(), want, "{:?}", g);
                            // Searched to the end, the estimate is the exact value.
                            assert_eq!(s.estimate(&g, 60, 0, &mut Quiet).unwrap(), want);
                        }
                    }
                }
            }
        }
    }

    /// The margin of a depth-limited search without tables: the seeds still on
    /// the board count for nobody at the horizon.
    fn depth_limited_margin(own: u64, opp: u64, pits: u32, ec: bool, depth: u32) -> i32 {
        if own == 0 || opp == 0 {
            return row_sum(own) as i32 - row_sum(opp) as i32;
        }
        if depth == 0 {
            return 0;
        }
        let mut best = -INF;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let s = sow(own, opp, pits, i, ec);
            let g = s.gain as i32;
            let v = if s.game_over {
                g - s.opp_gain as i32
            } else if s.extra_turn {
                g + depth_limited_margin(s.own, s.opp, pits, ec, depth - 1)
            } else {
                g - depth_limited_margin(s.opp, s.own, pits, ec, depth - 1)
            };
            best = best.max(v);
        }
        best
    }

    #[test]
    fn estimates_are_depth_limited_searches() {
        // With a one-slot table no entry survives to stand in for a deeper or
        // shallower search, so the estimate is the plain depth-limited value.
        for (p, sd) in [(3u8, 3u8), (4, 2), (2, 4)] {
            for ec in [false, true] {
                let r = rules(p, sd, ec);
                let g = Kalah::new(r);
                let (own, opp) = g.rows_for_mover();
                for depth in 1..=7 {
                    let mut tt = [SolverEntry::EMPTY; 1];
                    let mut s = KalahSolver::new(r, &mut tt, EndgameTables::none(p, ec)).unwrap();
                    let want = depth_limited_margin(own, opp, u32::from(p), ec, depth);
                    assert_eq!(
                        s.estimate(&g, depth, 0, &mut Quiet).unwrap(),
                        want,
                        "{}x{} ec {} depth {}",
                        p,
                        sd,
                        ec,
                        depth
                    );
                }
            }
        }
    }

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

    #[test]
    fn interrupted_solve_says_so() {
        struct StopNow;
        impl SolveControl for StopNow {
            fn should_stop(&mut self) -> bool {
                true
            }
        }
        let r = rules(6, 4, false);
        let mut tt = [SolverEntry::EMPTY; 1 << 10];
        let mut s = KalahSolver::new(r, &mut tt, EndgameTables::none(6, false)).unwrap();
        assert_eq!(s.solve(&Kalah::new(r), &mut StopNow), Err(Interrupted));
    }

    #[test]
    fn tables_for_another_board_are_refused() {
        let mut tt = [SolverEntry::EMPTY; 4];
        assert!(
            KalahSolver::new(rules(6, 4, true), &mut tt, EndgameTables::none(6, false)).is_err()
        );
        assert!(
            KalahSolver::new(rules(5, 4, false), &mut tt, EndgameTables::none(6, false)).is_err()
        );
    }
}
