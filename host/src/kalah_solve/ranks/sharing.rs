//! What the ranks of a Kalah solve share: every exact transposition-table entry
//! whose search cost at least 2^`--share-work` nodes goes, as it is stored, into
//! this rank's [`Outbox`]; the job's main thread passes the outbox to the other
//! ranks in batches ([`crate::distributed::Job::shared`]), and each stores what it
//! receives in its own table ([`ply_core::games::kalah::solver::learn`]). An exact
//! entry's bounds hold in any search of the same rules, so what one rank proved
//! about a position, the others find in their tables instead of proving it again.
//! Only deep entries travel (a few per thousand nodes): the shallow ones are cheap
//! to search again and would outnumber them many times.

use std::collections::HashMap;
use std::sync::Mutex;

use ply_core::games::kalah::solver::{SharedSolverTable, SolverEntry, SolverTable};

/// The most entries an outbox holds between two batches: beyond, new ones are not
/// kept (sharing saves work; it is never needed for a right answer).
const MOST_WAITING: usize = 1 << 20;

/// The exact entries of enough work this rank stored since the last batch.
pub(super) struct Outbox {
    min_work: u32,
    waiting: Mutex<Vec<SolverEntry>>,
}

impl Outbox {
    /// An outbox for entries of at least 2^`min_work` nodes
    /// ([`crate::settings::NO_SHARING`]: none).
    pub(super) fn new(min_work: u32) -> Self {
        Outbox {
            min_work,
            waiting: Mutex::new(Vec::new()),
        }
    }

    /// Keeps `e` if it is exact and cost enough.
    #[inline(always)]
    fn offer(&self, e: SolverEntry) {
        if u32::from(e.work()) < self.min_work || !e.is_exact() {
            return;
        }
        let mut w = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if w.len() < MOST_WAITING {
            w.push(e);
        }
    }

    /// The entries waiting, one per position (an entry stored again with
    /// tighter bounds replaces the one before), and an empty outbox.
    pub(super) fn take(&self) -> Vec<SolverEntry> {
        let waiting = std::mem::take(&mut *self.waiting.lock().unwrap_or_else(|e| e.into_inner()));
        let mut by_rows: HashMap<[u64; 2], SolverEntry> = HashMap::with_capacity(waiting.len());
        let mut order = Vec::with_capacity(waiting.len());
        for e in waiting {
            let [own, opp, _] = e.to_words();
            by_rows
                .entry([own, opp])
                .and_modify(|old| *old = e)
                .or_insert_with(|| {
                    order.push([own, opp]);
                    e
                });
        }
        order.iter().filter_map(|k| by_rows.remove(k)).collect()
    }
}

/// A rank's shared transposition table that also offers what it stores to the
/// outbox.
#[derive(Clone, Copy)]
pub(super) struct Sharing<'a> {
    table: SharedSolverTable<'a>,
    outbox: &'a Outbox,
}

impl<'a> Sharing<'a> {
    pub(super) fn new(table: SharedSolverTable<'a>, outbox: &'a Outbox) -> Self {
        Sharing { table, outbox }
    }
}

impl SolverTable for Sharing<'_> {
    #[inline(always)]
    fn slots(&self) -> usize {
        self.table.slots()
    }
    #[inline(always)]
    fn ways(&self) -> usize {
        self.table.ways()
    }
    #[inline(always)]
    fn buckets(&self) -> usize {
        self.table.buckets()
    }
    #[inline(always)]
    fn load(&self, slot: usize) -> SolverEntry {
        self.table.load(slot)
    }
    #[inline(always)]
    fn save(&mut self, slot: usize, e: SolverEntry) {
        self.table.save(slot, e);
        self.outbox.offer(e);
    }
    #[inline(always)]
    fn find(&self, first: usize, own: u64, opp: u64) -> Option<(usize, SolverEntry)> {
        self.table.find(first, own, opp)
    }
    #[inline(always)]
    fn worth(&self, slot: usize) -> (u8, u8, u8) {
        self.table.worth(slot)
    }
    #[inline(always)]
    fn prefetch(&self, slot: usize) {
        self.table.prefetch(slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries of too little work, or not exact, stay home; an entry stored twice
    /// travels once, with its last bounds.
    #[test]
    fn only_deep_exact_entries_travel_once_each() {
        let exact = |own: u64, lo: i16, hi: i16, work: u8| {
            let mut words = [own, 1, 0];
            words[2] = u64::from(lo as u16)
                | u64::from(hi as u16) << 16
                | u64::from(u8::MAX) << 40
                | u64::from(work) << 48
                | 1 << 56;
            SolverEntry::from_words(words).expect("an entry")
        };
        let out = Outbox::new(10);
        out.offer(exact(5, -4, 4, 9));
        out.offer(exact(6, -4, 4, 12));
        out.offer(exact(7, 0, 8, 10));
        out.offer(exact(6, 0, 2, 12));
        let shallow = SolverEntry::from_words([8, 1, 2u64 << 40 | 20 << 48 | 1 << 56]).unwrap();
        assert!(!shallow.is_exact());
        out.offer(shallow);
        let got: Vec<[u64; 3]> = out.take().iter().map(SolverEntry::to_words).collect();
        assert_eq!(
            got,
            vec![exact(6, 0, 2, 12).to_words(), exact(7, 0, 8, 10).to_words()]
        );
        assert!(out.take().is_empty());
        let none = Outbox::new(crate::settings::NO_SHARING);
        none.offer(exact(6, 0, 2, 63));
        assert!(none.take().is_empty());
    }
}
