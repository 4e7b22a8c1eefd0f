//! Transposition tables: one trait, [`Table`], that every search reads and writes
//! through, and its single-thread implementation over memory the caller provides.
//!
//! The core never allocates, so [`TranspositionTable`] is a view over a
//! `&mut [TtEntry]` that the caller owns: a `static` array on a microcontroller, a
//! `Vec` on the host. Any length works, zero included (a table that stores nothing).
//! One 16-byte entry per slot, verified by the full 64-bit key; replacement prefers
//! the current search and the deeper result. The host's lock-free table, shared by
//! the threads of a parallel search, implements the same trait
//! (`ply_host::parallel::SharedTable`), so one engine runs over either.
//!
//! A best move is stored as its index in the position's generation order (which is a
//! function of the position alone), so an entry has the same size for every game and
//! fits in one atomic word pair on the host.

use crate::search::{Score, MAX_PLY, TABLE_WIN, TABLE_ZONE, WIN};

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

impl Bound {
    /// The two-bit code of a bound (0 for `Empty`).
    #[inline]
    pub const fn bits(self) -> u8 {
        match self {
            Bound::Empty => 0,
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    /// The bound of a two-bit code (only the low two bits are read).
    #[inline]
    pub const fn from_bits(bits: u8) -> Bound {
        match bits & 3 {
            0 => Bound::Empty,
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        }
    }
}

/// A search result for one position, its score relative to the node it belongs to:
/// what [`Table::store`] keeps and [`Table::probe`] finds (the table converts win
/// distances between the node and the root).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Stored {
    /// The score, win distances made relative to the node.
    pub value: Score,
    /// The depth (plies) the score was searched to (a table keeps at most 255).
    pub depth: u32,
    /// What kind of bound `value` is (a probe never finds [`Bound::Empty`]; a store
    /// of it keeps nothing).
    pub bound: Bound,
    /// The index of the best move in the position's generation order, if known.
    pub move_index: Option<usize>,
}

impl Stored {
    /// The entry of a search of `depth` plies that found `value`, a `bound`, and the
    /// best move at `move_index` in generation order if known.
    #[inline]
    pub const fn new(value: Score, depth: u32, bound: Bound, move_index: Option<usize>) -> Self {
        Stored {
            value,
            depth,
            bound,
            move_index,
        }
    }
}

/// Move indices at or above this are not stored (14 bits, 0 meaning none): no game's
/// move list is that long.
pub const MOVE_INDEX_LIMIT: usize = (1 << 14) - 1;

/// A transposition table as search sees it. Implemented by the single-thread
/// [`TranspositionTable`] over caller memory and by the host's lock-free table that
/// several engines share; `&mut T` is a table too, so an engine can borrow one that
/// outlives it.
pub trait Table {
    /// The entry for `key`, its score made relative to a node `ply` plies from the
    /// root, or `None` if the table holds nothing (verified) for it.
    fn probe(&self, key: u64, ply: u32) -> Option<Stored>;

    /// Stores a search result for `key` at a node `ply` plies from the root (an
    /// entry whose bound is [`Bound::Empty`] is not stored).
    fn store(&mut self, key: u64, ply: u32, entry: Stored);

    /// A new search starts: older entries become preferred victims for replacement.
    fn new_search(&mut self) {}

    /// ABDADA: true while another searcher is inside the position `key`. A table
    /// that only one searcher uses says false.
    fn is_busy(&self, key: u64) -> bool {
        let _ = key;
        false
    }

    /// ABDADA: this searcher enters the position `key` (marks it busy).
    fn enter(&mut self, key: u64) {
        let _ = key;
    }

    /// ABDADA: this searcher leaves the position `key`.
    fn leave(&mut self, key: u64) {
        let _ = key;
    }
}

impl<T: Table + ?Sized> Table for &mut T {
    #[inline]
    fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        (**self).probe(key, ply)
    }
    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Stored) {
        (**self).store(key, ply, entry)
    }
    fn new_search(&mut self) {
        (**self).new_search()
    }
    #[inline]
    fn is_busy(&self, key: u64) -> bool {
        (**self).is_busy(key)
    }
    #[inline]
    fn enter(&mut self, key: u64) {
        (**self).enter(key)
    }
    #[inline]
    fn leave(&mut self, key: u64) {
        (**self).leave(key)
    }
}

/// One slot of the single-thread table: 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TtEntry {
    /// The full position key, to verify a hit.
    pub key: u64,
    /// The score, with win distances made relative to this node.
    pub value: Score,
    /// The best move's index in generation order plus one (0: none).
    pub mv: u16,
    /// The depth (plies) the score was searched to.
    pub depth: u8,
    /// The bound (low two bits) and the search that wrote it (high six bits).
    pub meta: u8,
}

impl TtEntry {
    /// An empty slot: use it to initialise the caller's array.
    pub const EMPTY: Self = TtEntry {
        key: 0,
        value: 0,
        mv: 0,
        depth: 0,
        meta: 0,
    };

    /// What kind of bound the entry holds ([`Bound::Empty`] for an empty slot).
    #[inline]
    pub const fn bound(&self) -> Bound {
        Bound::from_bits(self.meta)
    }

    /// The search (modulo 64) that wrote the entry.
    #[inline]
    pub const fn generation(&self) -> u8 {
        self.meta >> 2
    }
}

impl Default for TtEntry {
    fn default() -> Self {
        Self::EMPTY
    }
}

/// A transposition table over caller-provided slots: `S` is any owner of a slice of
/// entries — `&mut [TtEntry]` (a `static` array, a stack array, borrowed memory) in
/// the core, a `Box<[TtEntry]>` on the host when the table outlives each search.
#[derive(Debug)]
pub struct TranspositionTable<S> {
    slots: S,
    generation: u8,
}

const WIN_ZONE: Score = WIN - 4 * MAX_PLY as Score;

impl<S: AsRef<[TtEntry]> + AsMut<[TtEntry]>> TranspositionTable<S> {
    /// A table over `slots` (cleared).
    pub fn new(mut slots: S) -> Self {
        for s in slots.as_mut().iter_mut() {
            *s = TtEntry::EMPTY;
        }
        TranspositionTable {
            slots,
            generation: 0,
        }
    }

    /// A table over `slots` as they are, not cleared: what they hold counts as the
    /// entries of earlier searches (slots from zeroed memory are empty, since
    /// [`TtEntry::EMPTY`] is all zeros; a table kept from move to move stays useful).
    pub fn keep(slots: S) -> Self {
        TranspositionTable {
            slots,
            generation: 0,
        }
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.slots.as_ref().len()
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        for s in self.slots.as_mut().iter_mut() {
            *s = TtEntry::EMPTY;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.slots.as_ref().len() as u128) >> 64) as usize
    }

    /// Number of slots written during the current search, per thousand slots
    /// (sampled over the first thousand slots), for progress reports.
    pub fn fill_permille(&self) -> u32 {
        let slots = self.slots.as_ref();
        let n = slots.len().min(1000);
        if n == 0 {
            return 0;
        }
        let used = slots[..n]
            .iter()
            .filter(|e| e.bound() != Bound::Empty && e.generation() == self.generation)
            .count();
        (used * 1000 / n) as u32
    }
}

impl<S: AsRef<[TtEntry]> + AsMut<[TtEntry]>> Table for TranspositionTable<S> {
    #[inline]
    fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        let slots = self.slots.as_ref();
        if slots.is_empty() {
            return None;
        }
        let e = slots[self.index(key)];
        if e.bound() == Bound::Empty || e.key != key {
            return None;
        }
        Some(Stored {
            value: from_tt(e.value, ply),
            depth: u32::from(e.depth),
            bound: e.bound(),
            move_index: (e.mv as usize).checked_sub(1),
        })
    }

    #[inline]
    fn store(&mut self, key: u64, ply: u32, entry: Stored) {
        if self.slots.as_ref().is_empty() || entry.bound == Bound::Empty {
            return;
        }
        let i = self.index(key);
        let old = self.slots.as_ref()[i];
        let depth = entry.depth.min(u8::MAX as u32) as u8;
        let replace = old.bound() == Bound::Empty
            || old.generation() != self.generation
            || old.key == key
            || depth >= old.depth;
        if !replace {
            return;
        }
        let mv = match entry.move_index {
            Some(m) if m < MOVE_INDEX_LIMIT => (m + 1) as u16,
            // Keep a known best move when re-storing the same position without one.
            _ if old.key == key => old.mv,
            _ => 0,
        };
        self.slots.as_mut()[i] = TtEntry {
            key,
            value: to_tt(entry.value, ply),
            mv,
            depth,
            meta: entry.bound.bits() | (self.generation << 2),
        };
    }

    fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }
}

/// True if `v` counts plies from the root: a game's win or loss ([`WIN`]) or a table's
/// ([`TABLE_WIN`](crate::search::TABLE_WIN)).
#[inline]
fn counts_plies(v: Score) -> bool {
    // A stored table win may lie up to a node's ply above TABLE_WIN.
    v.abs() >= WIN_ZONE || (TABLE_ZONE..=TABLE_WIN + 4 * MAX_PLY as Score).contains(&v.abs())
}

/// Win scores (a game's and a table's) count plies from the root; in the table they
/// count from the node, so an entry is valid wherever the position recurs.
#[inline]
pub fn to_tt(v: Score, ply: u32) -> Score {
    if !counts_plies(v) {
        v
    } else if v > 0 {
        v + ply as Score
    } else {
        v - ply as Score
    }
}

/// The inverse of [`to_tt`]: a stored score made relative to a node `ply` plies
/// from the root.
#[inline]
pub fn from_tt(v: Score, ply: u32) -> Score {
    if !counts_plies(v) {
        v
    } else if v > 0 {
        v - ply as Score
    } else {
        v + ply as Score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_sixteen_bytes() {
        assert_eq!(core::mem::size_of::<TtEntry>(), 16);
    }

    #[test]
    fn table_wins_count_plies_like_game_wins_and_heuristic_values_do_not() {
        for (v, ply) in [
            (TABLE_WIN - 7, 3),
            (-(TABLE_WIN - 7), 3),
            (TABLE_ZONE, 60),
            (-TABLE_ZONE, 60),
            (WIN - 2, 90),
        ] {
            let stored = to_tt(v, ply);
            assert_eq!(from_tt(stored, ply), v);
            assert_eq!(from_tt(stored, ply - 2), v + 2 * v.signum(), "{v} at {ply}");
        }
        for v in [0, 4096 + 4 * 48, -4096, TABLE_ZONE - 1, -(TABLE_ZONE - 1)] {
            assert_eq!(to_tt(v, 17), v);
            assert_eq!(from_tt(v, 17), v);
        }
    }

    #[test]
    fn store_and_probe_round_trip_with_win_distance() {
        let mut slots = [TtEntry::EMPTY; 16];
        let mut tt = TranspositionTable::new(&mut slots[..]);
        tt.store(42, 3, Stored::new(WIN - 7, 5, Bound::Exact, Some(9)));
        let e = tt.probe(42, 3).unwrap();
        assert_eq!(
            (e.value, e.move_index, e.depth, e.bound),
            (WIN - 7, Some(9), 5, Bound::Exact)
        );
        // The same position two plies closer to the root is a win two plies sooner.
        assert_eq!(tt.probe(42, 1).unwrap().value, WIN - 5);
        assert!(tt.probe(43, 3).is_none());
        // Re-stored without a move, the entry keeps the one it knew.
        tt.store(42, 3, Stored::new(10, 6, Bound::Lower, None));
        assert_eq!(tt.probe(42, 3).unwrap().move_index, Some(9));
    }

    #[test]
    fn empty_table_stores_nothing() {
        let mut slots: [TtEntry; 0] = [];
        let mut tt = TranspositionTable::new(&mut slots[..]);
        tt.store(1, 0, Stored::new(5, 1, Bound::Exact, None));
        assert!(tt.probe(1, 0).is_none());
    }

    #[test]
    fn deeper_entry_of_current_search_survives_shallower_collision() {
        let mut slots = [TtEntry::EMPTY; 1];
        let mut tt = TranspositionTable::new(&mut slots[..]);
        tt.store(1, 0, Stored::new(5, 8, Bound::Exact, None));
        tt.store(2, 0, Stored::new(6, 2, Bound::Exact, None));
        assert!(tt.probe(1, 0).is_some());
        tt.new_search();
        tt.store(2, 0, Stored::new(6, 2, Bound::Exact, None));
        assert!(tt.probe(2, 0).is_some());
    }

    #[test]
    fn generations_wrap_within_six_bits() {
        let mut slots = [TtEntry::EMPTY; 1];
        let mut tt = TranspositionTable::new(&mut slots[..]);
        for _ in 0..200 {
            tt.new_search();
            tt.store(7, 0, Stored::new(1, 3, Bound::Upper, Some(2)));
            let e = tt.probe(7, 0).unwrap();
            assert_eq!((e.bound, e.move_index), (Bound::Upper, Some(2)));
        }
    }
}
