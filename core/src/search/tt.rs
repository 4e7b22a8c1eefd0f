//! A transposition table in memory the caller provides.
//!
//! The core never allocates, so the table is a view over a `&mut [TtEntry]` that
//! the caller owns: a `static` array on a microcontroller, a `Vec` on the host. Any
//! length works, zero included (a table that stores nothing). One entry per slot,
//! verified by the full 64-bit key; replacement prefers the current search and the
//! deeper result.

use crate::search::{Score, MAX_PLY, WIN};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Bound {
    /// The slot holds nothing.
    Empty,
    /// The score is exact.
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

/// One slot of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TtEntry<M> {
    /// The full position hash, to verify a hit.
    pub key: u64,
    /// The best move found, if any.
    pub mv: Option<M>,
    /// The score, with win distances made relative to this node.
    pub value: Score,
    /// The depth (plies) the score was searched to.
    pub depth: u8,
    /// What kind of bound `value` is.
    pub bound: Bound,
    /// The search that wrote it, for replacement.
    pub generation: u8,
}

impl<M> TtEntry<M> {
    /// An empty slot: use it to initialise the caller's array.
    pub const EMPTY: Self = TtEntry {
        key: 0,
        mv: None,
        value: 0,
        depth: 0,
        bound: Bound::Empty,
        generation: 0,
    };
}

impl<M> Default for TtEntry<M> {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// A transposition table over caller-provided slots.
#[derive(Debug)]
pub struct TranspositionTable<'a, M> {
    slots: &'a mut [TtEntry<M>],
    generation: u8,
}

const WIN_ZONE: Score = WIN - 4 * MAX_PLY as Score;

impl<'a, M: Copy> TranspositionTable<'a, M> {
    /// A table over `slots` (cleared).
    pub fn new(slots: &'a mut [TtEntry<M>]) -> Self {
        for s in slots.iter_mut() {
            *s = TtEntry::EMPTY;
        }
        TranspositionTable {
            slots,
            generation: 0,
        }
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new search: older entries become preferred victims for replacement.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        for s in self.slots.iter_mut() {
            *s = TtEntry::EMPTY;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, with its score made relative to a node `ply` plies from
    /// the root, or `None` if the table holds nothing for it.
    #[inline]
    pub fn probe(&self, key: u64, ply: u32) -> Option<TtEntry<M>> {
        if self.slots.is_empty() {
            return None;
        }
        let e = self.slots[self.index(key)];
        if e.bound == Bound::Empty || e.key != key {
            return None;
        }
        Some(TtEntry {
            value: from_tt(e.value, ply),
            ..e
        })
    }

    /// Stores a search result for `key` at a node `ply` plies from the root.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: u32,
        value: Score,
        bound: Bound,
        mv: Option<M>,
    ) {
        if self.slots.is_empty() {
            return;
        }
        let i = self.index(key);
        let old = self.slots[i];
        let depth = depth.min(u8::MAX as u32) as u8;
        let replace = old.bound == Bound::Empty
            || old.generation != self.generation
            || old.key == key
            || depth >= old.depth;
        if !replace {
            return;
        }
        // Keep a known best move when re-storing the same position without one.
        let mv = if mv.is_none() && old.key == key {
            old.mv
        } else {
            mv
        };
        self.slots[i] = TtEntry {
            key,
            mv,
            value: to_tt(value, ply),
            depth,
            bound,
            generation: self.generation,
        };
    }

    /// Number of slots written during the current search, per thousand slots
    /// (sampled over the first thousand slots), for progress reports.
    pub fn fill_permille(&self) -> u32 {
        let n = self.slots.len().min(1000);
        if n == 0 {
            return 0;
        }
        let used = self.slots[..n]
            .iter()
            .filter(|e| e.bound != Bound::Empty && e.generation == self.generation)
            .count();
        (used * 1000 / n) as u32
    }
}

/// Win scores count plies from the root; in the table they count from the node, so
/// an entry is valid wherever the position recurs.
#[inline]
pub fn to_tt(v: Score, ply: u32) -> Score {
    if v >= WIN_ZONE {
        v + ply as Score
    } else if v <= -WIN_ZONE {
        v - ply as Score
    } else {
        v
    }
}

/// The inverse of [`to_tt`]: a stored score made relative to a node `ply` plies
/// from the root.
#[inline]
pub fn from_tt(v: Score, ply: u32) -> Score {
    if v >= WIN_ZONE {
        v - ply as Score
    } else if v <= -WIN_ZONE {
        v + ply as Score
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip_with_win_distance() {
        let mut slots = [TtEntry::<u8>::EMPTY; 16];
        let mut tt = TranspositionTable::new(&mut slots);
        tt.store(42, 3, 5, WIN - 7, Bound::Exact, Some(9));
        let e = tt.probe(42, 3).unwrap();
        assert_eq!(
            (e.value, e.mv, e.depth, e.bound),
            (WIN - 7, Some(9), 5, Bound::Exact)
        );
        // The same position two plies closer to the root is a win two plies sooner.
        assert_eq!(tt.probe(42, 1).unwrap().value, WIN - 5);
        assert!(tt.probe(43, 3).is_none());
    }

    #[test]
    fn empty_table_stores_nothing() {
        let mut slots: [TtEntry<u8>; 0] = [];
        let mut tt = TranspositionTable::new(&mut slots);
        tt.store(1, 0, 1, 5, Bound::Exact, None);
        assert!(tt.probe(1, 0).is_none());
    }

    #[test]
    fn deeper_entry_of_current_search_survives_shallower_collision() {
        let mut slots = [TtEntry::<u8>::EMPTY; 1];
        let mut tt = TranspositionTable::new(&mut slots);
        tt.store(1, 0, 8, 5, Bound::Exact, None);
        tt.store(2, 0, 2, 6, Bound::Exact, None);
        assert!(tt.probe(1, 0).is_some());
        tt.new_search();
        tt.store(2, 0, 2, 6, Bound::Exact, None);
        assert!(tt.probe(2, 0).is_some());
    }
}
