//! Endgame tables: the exact future margin of every position with at most `K` seeds
//! in the pits, for one number of pits and one capture rule, in memory the caller
//! provides (the host keeps it on disk), built layer by layer from 0 seeds up.
//!
//! A position's entry is found without a hash, by the rank of its layout among
//! the layouts of its seeds in play, the layers of fewer seeds first (`layout.rs`).
//! A table for `P` pits serves every seed count per pit.

use core::sync::atomic::{AtomicI8, Ordering};

use super::layout::{
    layer_offset, layer_range, next_layout, rank, table_len, unbar, unrank, MAX_TABLE_SEEDS,
    UNKNOWN,
};
use super::packed::{packed_code, packed_layers, PACKED_MAX_SEEDS};
use super::with_pits;
use crate::games::kalah::{final_margin, non_empty, sow, KalahRules};

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
    pub(super) pits: u32,
    pub(super) empty_capture: bool,
    max_seeds: u32,
    entries: Entries<'a>,
    /// Where each layer of five-bit entries starts, in bytes (unused for bytes).
    packed_starts: [usize; PACKED_MAX_SEEDS as usize + 1],
}

/// How a table's entries are stored.
#[derive(Clone, Copy, Debug)]
enum Entries<'a> {
    /// A signed byte an entry: the future margin itself (what the build writes).
    Bytes(&'a [AtomicI8]),
    /// Five bits an entry ([`pack_entries`](super::pack_entries)): of a position with `n` seeds in play,
    /// the seeds `a` its mover gets of them, `(margin + n) / 2` in `0..=n`, so the
    /// margin is `2a - n`; each layer starts on a byte
    /// ([`EndgameTables::packed_starts`]). Tables of at most [`PACKED_MAX_SEEDS`]
    /// seeds.
    Packed(&'a [u8]),
}

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
            entries: Entries::Bytes(&values[..len]),
            packed_starts: [0; PACKED_MAX_SEEDS as usize + 1],
        })
    }

    /// Tables covering `0..=max_seeds` seeds in play (at most
    /// [`PACKED_MAX_SEEDS`]) in five-bit form, read from `packed`, laid out as
    /// [`packed_layers`] says, as [`pack_tables`](super::pack_tables) writes it.
    pub fn packed(
        pits: u8,
        empty_capture: bool,
        max_seeds: u32,
        packed: &'a [u8],
    ) -> Result<Self, &'static str> {
        if max_seeds > PACKED_MAX_SEEDS {
            return Err("five-bit endgame tables cover at most 31 seeds in play");
        }
        let layout = packed_layers(pits, max_seeds).ok_or("endgame table size out of range")?;
        if packed.len() < layout.len() {
            return Err("endgame table memory is too short for its pits and seeds");
        }
        let mut starts = [0usize; PACKED_MAX_SEEDS as usize + 1];
        for (n, s) in starts.iter_mut().enumerate().take(max_seeds as usize + 1) {
            *s = layout.layer(n as u32).start;
        }
        Ok(EndgameTables {
            pits: u32::from(pits),
            empty_capture,
            max_seeds,
            entries: Entries::Packed(&packed[..layout.len()]),
            packed_starts: starts,
        })
    }

    /// No tables at all (every position is searched).
    pub const fn none(pits: u8, empty_capture: bool) -> EndgameTables<'static> {
        EndgameTables {
            pits: pits as u32,
            empty_capture,
            max_seeds: 0,
            entries: Entries::Bytes(&[]),
            packed_starts: [0; PACKED_MAX_SEEDS as usize + 1],
        }
    }

    /// Whether these tables serve boards of `rules`: the same pits and capture rule
    /// (any seeds per pit).
    pub fn fits(&self, rules: KalahRules) -> bool {
        self.pits == u32::from(rules.pits) && self.empty_capture == rules.empty_capture
    }

    /// The largest seeds-in-play count covered; `None` if there are no tables.
    pub fn max_seeds(&self) -> Option<u32> {
        match self.entries {
            Entries::Bytes(&[]) => None,
            _ => Some(self.max_seeds),
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
    pub(super) fn index(&self, own: u64, opp: u64, n: u32) -> Option<TableIndex> {
        if n > self.max_seeds || self.max_seeds().is_none() {
            return None;
        }
        let r = with_pits(self.pits, |p| rank(own, opp, p)) as usize;
        let at = match &self.entries {
            Entries::Bytes(_) => layer_offset(2 * self.pits, n) as usize + r,
            Entries::Packed(_) => self.packed_starts[n as usize] * 8 + r * 5,
        };
        Some(TableIndex { at, n })
    }

    /// The entry at `i` (from [`EndgameTables::index`]).
    #[inline(always)]
    pub(super) fn value_at(&self, i: TableIndex) -> i32 {
        match &self.entries {
            Entries::Bytes(v) => i32::from(v[i.at].load(Ordering::Relaxed)),
            Entries::Packed(bytes) => 2 * packed_code(bytes, i.at) as i32 - i.n as i32,
        }
    }

    /// Asks for the entry at `i` ahead of [`EndgameTables::value_at`].
    #[inline(always)]
    pub(super) fn prefetch(&self, i: TableIndex) {
        match &self.entries {
            Entries::Bytes(v) => crate::prefetch::prefetch(&v[i.at]),
            Entries::Packed(bytes) => crate::prefetch::prefetch(&bytes[i.at / 8]),
        }
    }
}

/// Where a position's entry lies ([`EndgameTables::index`]): the entry's index (a
/// byte an entry) or first bit (five bits an entry), and the seeds in play of its
/// layer (a five-bit entry's margin depends on them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TableIndex {
    pub(super) at: usize,
    pub(super) n: u32,
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
    // The board's size as a constant: the sowing's division by the ring, the
    // rank's loops and the row masks are then worked out at compile time.
    match pits {
        1 => build_part::<1>(empty_capture, n, values, whole.start, ranks),
        2 => build_part::<2>(empty_capture, n, values, whole.start, ranks),
        3 => build_part::<3>(empty_capture, n, values, whole.start, ranks),
        4 => build_part::<4>(empty_capture, n, values, whole.start, ranks),
        5 => build_part::<5>(empty_capture, n, values, whole.start, ranks),
        6 => build_part::<6>(empty_capture, n, values, whole.start, ranks),
        7 => build_part::<7>(empty_capture, n, values, whole.start, ranks),
        _ => build_part::<8>(empty_capture, n, values, whole.start, ranks),
    }
    Ok(())
}

/// [`build_layer`] for a board of `P` pits a row, once the arguments are checked;
/// `start` is where the layer begins in `values`. The positions go in rank order,
/// each walked to the next on its rows ([`next_layout`]); a position is valued at
/// once from its children's entries, which lie in the layers below or, for a
/// sowing that neither reaches the store nor captures, in this one.
fn build_part<const P: u32>(
    empty_capture: bool,
    n: u32,
    values: &[AtomicI8],
    start: usize,
    ranks: core::ops::Range<usize>,
) {
    let k = 2 * P as usize - 1;
    if ranks.is_empty() {
        return;
    }
    let (mut own, mut opp) = unbar(&unrank(ranks.start as u64, k), P, n);
    // Where the layer of each child lies, by the seeds its move takes out of play.
    let mut below = [0usize; MAX_TABLE_SEEDS as usize + 1];
    for (gain, b) in below.iter_mut().enumerate().take(n as usize + 1) {
        *b = layer_offset(2 * P, n - gain as u32) as usize;
    }
    let layer = Layer {
        ec: empty_capture,
        below: &below,
        values,
    };
    for at_rank in ranks {
        let entry = &values[start + at_rank];
        if entry.load(Ordering::Relaxed) == UNKNOWN {
            debug_assert_eq!(rank(own, opp, P) as usize, at_rank);
            entry.store(layer.value::<P>(own, opp), Ordering::Relaxed);
        }
        // Past the last layout only at the layer's end.
        (own, opp) = next_layout(own, opp).unwrap_or((0, 0));
    }
}

/// What valuing a position of a layer needs: the capture rule,
/// where each lower layer starts (`below[gain]`: the layer of `n - gain` seeds)
/// and the entries.
struct Layer<'a> {
    ec: bool,
    below: &'a [usize; MAX_TABLE_SEEDS as usize + 1],
    values: &'a [AtomicI8],
}

impl Layer<'_> {
    /// The exact future margin of the position `own`, `opp` of this layer, by full
    /// minimax over its moves: children with fewer seeds are in earlier layers;
    /// children with as many (a sowing that stays in the mover's row) are computed
    /// first if they are not yet, recursively ([`Layer::value_of_unknown`]). That
    /// recursion ends: such a sowing moves seeds towards their owner's store, so
    /// the sum over seeds of the distance to their row's store strictly falls.
    #[inline(always)]
    fn value<const P: u32>(&self, own: u64, opp: u64) -> i8 {
        if let Some(m) = final_margin(own, opp) {
            return m as i8;
        }
        let mut best = i32::MIN;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let s = sow(own, opp, P, i, self.ec);
            let g = s.gain as i32;
            let v = if s.game_over {
                g - s.opp_gain as i32
            } else {
                let (a, b) = if s.extra_turn {
                    (s.own, s.opp)
                } else {
                    (s.opp, s.own)
                };
                let at = self.below[s.gain as usize] + rank(a, b, P) as usize;
                let mut cv = self.values[at].load(Ordering::Relaxed);
                if cv == UNKNOWN {
                    cv = self.value_of_unknown::<P>(a, b, at);
                }
                if s.extra_turn {
                    g + i32::from(cv)
                } else {
                    g - i32::from(cv)
                }
            };
            best = best.max(v);
        }
        best as i8
    }

    /// Computes and stores the entry `at` of a child of the same layer, `own`,
    /// `opp`, not computed yet (kept out of line: [`Layer::value`] is recursive
    /// only through here).
    #[inline(never)]
    fn value_of_unknown<const P: u32>(&self, own: u64, opp: u64, at: usize) -> i8 {
        let v = self.value::<P>(own, opp);
        self.values[at].store(v, Ordering::Relaxed);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::layout::{layer_len, next_bars, MAX_PARTS};
    use super::*;
    use crate::games::kalah::solver::minimax_future_margin;
    use crate::games::kalah::solver::{pack_tables, unpack_tables};

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
    fn tables_match_minimax_on_small_boards() {
        for ec in [false, true] {
            for p in 1..=3u8 {
                let k = 8;
                let len = table_len(p, k).unwrap();
                let values = [const { AtomicI8::new(0) }; 3003];
                build_tables(p, ec, k, 0, &values[..len], |_| {}).unwrap();
                let bytes = EndgameTables::new(p, ec, k, &values[..len]).unwrap();
                // The five-bit form holds the same entries.
                let mut packed = [0u8; 2000];
                pack_tables(p, k, &values[..len], &mut packed).unwrap();
                let five = EndgameTables::packed(p, ec, k, &packed).unwrap();
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
                        for t in [bytes, five] {
                            assert_eq!(t.probe(own, opp, n), Some(want), "p {} n {}", p, n);
                        }
                        next_bars(&mut bars, m as usize - 1, n + m - 1);
                    }
                }
                // And unpacks to the same bytes.
                let back = [const { AtomicI8::new(0) }; 3003];
                unpack_tables(p, k, &packed, &back[..len]).unwrap();
                for (a, b) in values[..len].iter().zip(&back[..len]) {
                    assert_eq!(a.load(Ordering::Relaxed), b.load(Ordering::Relaxed));
                }
            }
        }
    }
}
